#!/usr/bin/env bash
# One call on the GPU machine: configure for sm_90, build, run every test (GPU ones included),
# compute-sanitizer on the GPU pipeline tests, the benchmarks, and print a short summary LAST.
#
#   tools/gpu-check.sh [--quick] [--no-studies | --studies-only] [--tests-only | --timing-only]
#                      (logs and JSON under $OUT when set, else ./gpu-check-out)
# One device call may run 10 minutes, and the whole check no longer fits one: a call runs either
#   --no-studies --tests-only    every test, the agreement lines, the sanitizers, Python (~6 min)
#   --no-studies --timing-only   eval-goal's sets, first score, mad bench, the probes (~8 min)
# The seeds' studies and the A5 profile, which come last, get what is left of GPU_CHECK_SECONDS
# (default 560) and are cut at that point.
#
# The GPU machine (Ubuntu 24.04, CUDA 13.0) has no libtiff or stb headers: the build detects
# that and leaves TIFF/BMP/PNM out.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-check-out}
# Few files come back from the device machine: the bulky logs stay in $logs.
logs=${GPU_CHECK_LOGS:-/tmp/gpu-check-logs}
mkdir -p "$out" "$logs"
: > "$out/summary.txt"
build=build-gpu
quick=0
studies=1
checks=1
tests=1   # the tests, agreement lines, sanitizers and the Python suite
timing=1  # eval-goal, first score, mad bench, the large frames, the cuFFT and VkFFT probes
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --no-studies) studies=0 ;;
    --studies-only) checks=0 ;;
    --tests-only) timing=0 ;;
    --timing-only) tests=0 ;;
    *) echo "gpu-check: unknown argument '$arg' (--quick, --no-studies, --studies-only, --tests-only, --timing-only)"; exit 2 ;;
  esac
done
if [ $tests -eq 0 ] && [ $timing -eq 0 ]; then
  echo "gpu-check: --tests-only and --timing-only exclude each other"; exit 2
fi
budget=${GPU_CHECK_SECONDS:-560}
# Seconds left of the budget (at least 1).
seconds_left() { local left=$(( budget - ($(date +%s) - t0) )); echo $(( left > 1 ? left : 1 )); }
summary=()
# Each note is also appended to $out/summary.txt at once, so a run stopped at its time limit
# still brings back what it had found.
note() { summary+=("$1"); echo "$1" >> "$out/summary.txt"; }
t0=$(date +%s)

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader \
  > "$logs/device.txt" 2>&1 || true
note "device: $(head -1 "$logs/device.txt")"

gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
# Debian packages the GPU machine lacks travel as .deb files in .debs/ (git-ignored), so that
# GPU runs decode as a user's machine does: libdeflate (the direct PNG reader), libstb (BMP, PNM)
# and libtiff with its libraries (TIFF: LIVE, CSIQ). Fetch them here with
#   mkdir -p .debs && cd .debs && apt-get download libdeflate0 libdeflate-dev libstb0 \
#     libstb-dev libtiff6 libtiff-dev libjpeg62-turbo libjbig0 liblerc4 libwebp7
# and carry .debs; they are unpacked here for CMake to find, and their libraries put on the
# loader's path (libtiff needs libjpeg62, beside the machine's libjpeg8: versioned symbols keep
# the two apart). Without them the build leaves those formats out.
if ls .debs/*.deb > /dev/null 2>&1; then
  debs=/tmp/gpu-check-debs
  rm -rf "$debs"
  for deb in .debs/*.deb; do dpkg -x "$deb" "$debs"; done
  export CMAKE_PREFIX_PATH="$debs/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if ! cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      > "$logs/configure.log" 2>&1; then
  tail -30 "$logs/configure.log"; echo "SUMMARY: configure FAILED"; exit 1
fi
if ! cmake --build "$build" -j"$(nproc)" > "$logs/build.log" 2>&1; then
  grep -E "error|Error" "$logs/build.log" | head -40; echo "SUMMARY: build FAILED"; exit 1
fi
note "build: ok ($(( $(date +%s) - t0 )) s; $(grep -o 'PNG through libdeflate.*' "$logs/configure.log"); $(grep -o 'TIFF I/O.*' "$logs/configure.log"); $(grep -o 'BMP/PNM I/O.*' "$logs/configure.log"))"

# eval-goal's datasets (KADID-shaped, and 4K in $syn-4k) are written in the background while
# the tests run (they are GPU-bound); the timed sections wait for them.
syn=/tmp/gpu-check-kadid
if [ $checks -eq 1 ] && [ $timing -eq 1 ] && [ -x "$build/bin/mad" ]; then
  rm -rf "$syn" "$syn-4k"
  tools/eval-goal.sh --make-set "$build/bin/mad" "$syn" "$logs" > "$logs/synthetic.txt" 2>&1 &
  gen_pid=$!
fi

# The checks (skipped by --studies-only, for a second call that only measures the studies).
if [ $checks -eq 1 ]; then
if [ $tests -eq 1 ]; then

# Every test; GPU tests run here for real.
# Tests that measure the device's free memory run alone: a neighbour's allocations would
# distort them.
serial='MemoryEstimateDevice'
ctest --test-dir "$build" -j8 -E "$serial" --output-on-failure --timeout 600 > "$out/ctest.log" 2>&1
ctest_rc=$?
ctest --test-dir "$build" -R "$serial" --output-on-failure --timeout 600 > "$logs/ctest_serial.log" 2>&1
serial_rc=$?
note "ctest serial ($serial): $(grep -E 'tests passed|tests failed' "$logs/ctest_serial.log" | tail -1) (rc=$serial_rc)"
note "ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1) (rc=$ctest_rc)"
grep -E "^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception)\)" "$out/ctest.log" \
  | head -20 | while read -r l; do echo "FAILED: $l"; done
skipped=$(grep -c "Skipped" "$out/ctest.log" || true)
note "ctest skipped: $skipped"

# Agreement figures printed by the GPU tests (lines starting with "AGREEMENT", and the shape
# zoo's "ZOO" lines: every size in random order against the CPU, issue 25; "DEVICE IMAGES":
# device-memory inputs of every dtype and layout against their host images and the CPU).
for exe in "$build"/tests/*_tests; do
  "$exe" --gtest_filter='*Cuda*:*Gpu*:*GPU*' 2>/dev/null | grep -E "^(AGREEMENT|ZOO|FUSED|DEVICE IMAGES)" || true
done > "$logs/agreement.txt"
while read -r l; do note "$l"; done < <(head -40 "$logs/agreement.txt")
# The scheduler's tests on fake slots (CPU, also in CI): their count.
note "engine tests (ctest -L engine): $(ctest --test-dir "$build" -L engine 2>&1 | grep -E 'tests passed|tests failed' | tail -1)"

if [ $quick -eq 0 ] && command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck initcheck synccheck; do
    for exe in "$build"/tests/*_tests; do
      compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" \
        --gtest_filter='*Sanitizer*' > "$logs/sanitizer_${tool}_$(basename "$exe").log" 2>&1
      rc=$?
      n=$(grep -c "\[ RUN      \]" "$logs/sanitizer_${tool}_$(basename "$exe").log" || true)
      [ "$n" -gt 0 ] && note "compute-sanitizer $tool $(basename "$exe"): rc=$rc over $n tests ($(grep -E 'SUMMARY' "$logs/sanitizer_${tool}_$(basename "$exe").log" | tail -1))"
    done
  done
fi

# The Python module (issue 13). Its whole suite already ran in ctest (python.pytest); the GPU
# tests run again here with output on, for the torch/CuPy results and the "PYTHON:" line that
# proves a batch of 64 512x384 CUDA tensors is scored with no image copied to or from the host
# (the library's transfer counters), then the timing harness beside the C++ engine.
py=$(grep -E '^Python3_EXECUTABLE:' "$build/CMakeCache.txt" 2>/dev/null | cut -d= -f2-)
if [ -d "$build/python/mad" ] && [ -n "$py" ]; then
  (cd "$build/python" && PYTHONPATH="$PWD" MAD_TEST_DATA_DIR="$OLDPWD/tests/data" \
     "$py" -m pytest -v -s -rs -p no:cacheprovider "$OLDPWD/tests/python/test_gpu.py" "$OLDPWD/tests/python/test_shape_zoo.py") \
    > "$out/pytest_gpu.log" 2>&1
  py_rc=$?
  grep -o "PYTHON:.*" "$out/pytest_gpu.log" || echo "PYTHON: no transfer line (see pytest_gpu.log)"
  grep -o "ZOO PYTHON.*" "$out/pytest_gpu.log" | while read -r l; do note "$l"; done
  note "python GPU tests: $(grep -E '(passed|failed|skipped)' "$out/pytest_gpu.log" | tail -1) (rc=$py_rc)"
  grep -E "SKIPPED" "$out/pytest_gpu.log" | head -5 | while read -r l; do note "python $l"; done
  if [ $quick -eq 0 ]; then
    PYTHONPATH="$build/python" "$py" tools/python/bench_python.py --pairs 64 --mad "$build/bin/mad" \
      2> "$logs/bench_python.log" | grep "^PYTHON:"
  fi
else
  note "python: module not built (configure.log, line 'mad: Python module')"
fi
fi  # tests
if [ $timing -eq 1 ]; then

# Dataset throughput from files (issue 12, goal 4; issue 26, items 1 and 3): tools/eval-goal.sh
# on the KADID-shaped and 4K sets written in the background since the build; one GPU, and two
# against one where the host has two.
if [ -n "${gen_pid:-}" ]; then
  wait "$gen_pid"
  while read -r l; do note "$l"; done < "$logs/synthetic.txt"
  while read -r l; do note "$l"; done < <(tools/eval-goal.sh "$build/bin/mad" "$syn" "$logs")
fi

# Time to first score (issue 12, goal 6): `mad score` on the sample 512x512 pair as whole
# processes, median of 9, with --backend auto (which picks the CPU for a lone small pair), cpu
# and cuda. The three are interleaved, in a rotating order, so that neither the order nor a
# drift of the machine favours one of them.
one_score_seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$build/bin/mad" score datasets/sample/ref.png datasets/sample/dist.png "$@" > /dev/null 2>&1
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
if [ -x "$build/bin/mad" ]; then
  : > "$logs/fs_auto"; : > "$logs/fs_cpu"; : > "$logs/fs_cuda"
  for round in 0 1 2 3 4 5 6 7 8; do
    for k in 0 1 2; do
      case $(( (round + k) % 3 )) in
        0) one_score_seconds >> "$logs/fs_auto" ;;
        1) one_score_seconds --backend cpu >> "$logs/fs_cpu" ;;
        2) one_score_seconds --backend cuda >> "$logs/fs_cuda" ;;
      esac
    done
  done
  fs_auto=$(median < "$logs/fs_auto")
  fs_cpu=$(median < "$logs/fs_cpu")
  fs_cuda=$(median < "$logs/fs_cuda")
  fs_reason=$("$build/bin/mad" score datasets/sample/ref.png datasets/sample/dist.png --json 2>/dev/null \
    | grep -o '"backend_reason": "[^"]*"')
  # Whether auto touches CUDA at all for the lone pair (it must not: then it is the cpu run).
  # The driver library, libcuda.so.1, is loaded only when CUDA starts (libcudart is always linked).
  fs_libcuda=$(LD_DEBUG=files "$build/bin/mad" score datasets/sample/ref.png datasets/sample/dist.png 2>&1 \
    | grep -c 'file=libcuda\.so')
  note "first score, 512x512 whole process (median of 9, interleaved): auto ${fs_auto} s, cpu ${fs_cpu} s, cuda ${fs_cuda} s (goal: auto <= cpu); auto loaded libcuda ${fs_libcuda} time(s); ${fs_reason}"
fi

if [ -x "$build/bin/mad" ] && "$build/bin/mad" bench --help > /dev/null 2>&1; then
  args=(--format json)
  [ $quick -eq 1 ] && args+=(--quick)
  "$build/bin/mad" bench "${args[@]}" --html "$out/bench.html" > "$out/bench.json" 2> "$logs/bench.log"
  note "bench: rc=$? (bench.json, bench.html)"
  "$build/bin/mad" bench --summary-from "$out/bench.json" 2>/dev/null | while read -r l; do echo "BENCH: $l"; done
  # Issue 26 item 2: the subband transforms side by side in the same run (appearance stage
  # rows stage-fused / stage-cufft; pipeline rows of the default against the -cufft ones).
  while read -r l; do note "$l"; done < <(python3 - "$out/bench.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["backend"] == "cuda"]
key = lambda r: (r["width"], r["height"], r["precision"])
stage = {(key(r), r["variant"]): r["median_ms"] for r in rows
         if r["group"] == "appearance" and r["case"] == "pair"}
for (k, v), ms in sorted(stage.items()):
    if v == "stage-fused" and (k, "stage-cufft") in stage:
        c = stage[(k, "stage-cufft")]
        print("GOAL subband transform %dx%d %s, appearance stage: fused %.3f ms, cufft %.3f ms (%.2fx)"
              % (k + (ms, c, ms / c)))
pipe = {(key(r), r["variant"]): r for r in rows if r["group"] == "pipeline"}
for (k, v), r in sorted(pipe.items()):
    if v in ("single", "batch-distinct-refs") and (k, v + "-cufft") in pipe:
        c = pipe[(k, v + "-cufft")]
        f = pipe.get((k, v + "-fused"))
        fused = ", fused %.3f ms (%.0f pairs/s)" % (f["median_ms"], f["pairs_per_s"] or 0) if f else ""
        print("GOAL pipeline %dx%d %s %s: default %.3f ms (%.0f pairs/s), cufft %.3f ms (%.0f pairs/s)%s"
              % (k + (v, r["median_ms"], r["pairs_per_s"] or 0, c["median_ms"], c["pairs_per_s"] or 0, fused)))
PY
)
fi

# Issue 12 goals 2 and 5: the largest frames in both precisions, one pair at a time (upload
# included) and in batches, with the device memory of a pair; 7680x4320's time per pixel
# against 1920x1080's (goal: at most 1.5x).
if [ -x "$build/bin/mad" ] && [ $quick -eq 0 ]; then
  "$build/bin/mad" bench --kernels pipeline --sizes 1920x1080,7680x4320 --format json \
    > "$logs/pipeline_large.json" 2>> "$logs/bench.log"
  note "pipeline 1920x1080 + 7680x4320: rc=$?"
  # Process substitution, not a pipe: note() must run in this shell to reach the summary.
  while read -r l; do note "$l"; done < <(python3 - "$logs/pipeline_large.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"]
        if r["backend"] == "cuda" and r["variant"] == "single"]
per_px = {}
for r in rows:
    px = r["width"] * r["height"]
    per_px[(r["width"], r["precision"])] = r["median_ms"] / px
    print("GOAL pipeline %dx%d %s, one pair: %.2f ms, device %.0f MiB"
          % (r["width"], r["height"], r["precision"], r["median_ms"],
             (r.get("device_bytes") or 0) / 1048576))
for p in ("double", "float"):
    if (7680, p) in per_px and (1920, p) in per_px:
        print("GOAL 7680x4320 %s time per pixel / 1920x1080's: %.2fx (goal <= 1.5x)"
              % (p, per_px[(7680, p)] / per_px[(1920, p)]))
PY
)
fi

# Issue 12 goals 2 and 3: what cuFFT allows the appearance stage's inverse transforms
# (tools/probes/cufft_probe.cu; built here, not by CMake: its legacy-callback form needs the
# static cuFFT). Every line goes to cufft_probe.txt; the summary gets the goal-3 shape's lines
# and how many shapes kept the bits.
if [ $quick -eq 0 ] && command -v nvcc > /dev/null; then
  probe_dir=/tmp/gpu-check-probe
  mkdir -p "$probe_dir"
  probe_src=tools/probes/cufft_probe.cu
  : > "$out/cufft_probe.txt"
  if nvcc -std=c++17 -O3 -arch=sm_90 "$probe_src" -lcufft -o "$probe_dir/cufft_probe" \
       > "$logs/cufft_probe_build.log" 2>&1 &&
     nvcc -std=c++17 -arch=sm_90 -gencode arch=compute_90,code=lto_90 -dc -fatbin \
       -DCUFFT_PROBE_LTO_IR "$probe_src" -o "$probe_dir/callback.fatbin" \
       >> "$logs/cufft_probe_build.log" 2>&1; then
    timeout 60 "$probe_dir/cufft_probe" "$probe_dir/callback.fatbin" >> "$out/cufft_probe.txt" 2>&1
    note "cufft probe: rc=$? (cufft_probe.txt)"
  else
    note "cufft probe: build FAILED ($logs/cufft_probe_build.log)"
  fi
  if nvcc -std=c++17 -O3 -arch=sm_90 -rdc=true -DCUFFT_PROBE_STATIC "$probe_src" \
       -lcufft_static -lculibos -o "$probe_dir/cufft_probe_static" \
       >> "$logs/cufft_probe_build.log" 2>&1; then
    timeout 60 "$probe_dir/cufft_probe_static" >> "$out/cufft_probe.txt" 2>&1
    note "cufft probe, static cuFFT: rc=$?"
  else
    note "cufft probe, static cuFFT: not built (no libcufft_static?)"
  fi
  while read -r l; do note "$l"; done < <(grep -E " 512x384:" "$out/cufft_probe.txt")
  note "cufft probe: same bits as the 2-D batch of 4 in $(grep -cE "batch 2 differs in 0, batch 1 in 0 " "$out/cufft_probe.txt")/$(grep -c "probe batches" "$out/cufft_probe.txt") batch lines, $(grep -cE "columns then rows differ in 0," "$out/cufft_probe.txt")/$(grep -c "probe columns" "$out/cufft_probe.txt") columns-then-rows lines, $(grep -cE "(lto|legacy) .*: differs in 0 " "$out/cufft_probe.txt")/$(grep -cE "probe (lto|legacy) .*: (differs|not available)" "$out/cufft_probe.txt") callback lines (LTO planned at $(grep -c "planning with the callback took" "$out/cufft_probe.txt")/$(grep -c "probe lto" "$out/cufft_probe.txt") shapes)"
  # Issue 26 item 2: the VkFFT probe (tools/probes/vkfft_probe.sh, header from the carried .deb);
  # its conv4x5 and conv20 lines beside the stage's cuFFT sequence.
  if ls .debs/libvkfft-dev_*.deb > /dev/null 2>&1; then
    timeout 150 tools/probes/vkfft_probe.sh > "$out/vkfft_probe.txt" 2>&1
    note "vkfft probe: rc=$? (vkfft_probe.txt)"
    while read -r l; do note "$l"; done < <(grep -E "^VKFFT: 512x512 |^VKFFT: 1920x1080 " "$out/vkfft_probe.txt" | head -12)
  fi
fi

fi  # timing
fi  # checks

# The seeds' studies (issue 11): every study at the seed's configuration; the comparisons are
# in studies.json, the tables and plots in studies.html.
if [ $studies -eq 1 ] && [ -x "$build/bin/mad" ]; then
  study_args=(--study all --format json --html "$out/studies.html")
  [ $quick -eq 1 ] && study_args+=(--quick)
  # Leave a minute of the budget for the A5 profile below.
  study_seconds=$(( $(seconds_left) - 60 ))
  timeout $(( study_seconds > 30 ? study_seconds : 30 )) "$build/bin/mad" bench "${study_args[@]}" \
    > "$out/studies.json" 2> "$logs/studies.log"
  note "studies: rc=$? (studies.json, studies.html; rc 124: cut at the time budget)"
fi

# The thesis's A5 forms (issue 11): the compiler's resource report (registers, shared memory,
# spills) and a profiler reading of their first launches in the seed004 study (time, shared-
# memory bank conflicts, DRAM bytes, achieved occupancy), for README's account of where the H100
# ranks them differently from the thesis's K40. Reading the counters changes no GPU setting; where
# the driver does not allow it, a5_profile.txt says so.
if [ $studies -eq 1 ] && [ $quick -eq 0 ] && [ -x "$build/bin/mad" ]; then
  {
    echo "== resource usage (cuobjdump -res-usage), A5 kernels"
    for lib in "$build"/appearance/*.a; do
      cuobjdump -res-usage "$lib" 2>/dev/null | grep -A1 -E "Function .*a5_(original|shared_tile|per_thread)" \
        | grep -v '^--$' | c++filt | cut -c1-400
    done
    echo "== ncu, first A5 launches of mad bench --study seed004-a5-table9"
    if command -v ncu > /dev/null; then
      timeout "$(seconds_left)" ncu --kernel-name regex:a5_ --launch-count 24 --csv --print-units base \
        --metrics gpu__time_duration.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread \
        "$build/bin/mad" bench --study seed004-a5-table9 2>&1 | grep -vE "^mad bench:|^==PROF==" | head -200
    else
      echo "ncu not found"
    fi
  } > "$out/a5_profile.txt" 2>&1
  note "a5 profile: $(grep -c '"a5_' "$out/a5_profile.txt") profiled launches (a5_profile.txt)"
fi

echo
echo "==================== gpu-check summary ===================="
for l in "${summary[@]}"; do echo "$l"; done
echo "total: $(( $(date +%s) - t0 )) s"
