#!/usr/bin/env bash
# Fuzz smoke run for CI (issue 7): builds the libFuzzer targets of tests/fuzz with clang, ASan
# and UBSan, replays every saved regression input, then fuzzes each target for a short while
# over a copy of its seed corpus. Fails when a regression input or a new input crashes, leaks,
# hangs or breaks a harness invariant; the offending inputs are left in
# BUILD_DIR/fuzz-artifacts/<target>/ (add them to tests/fuzz/regressions/<target>/ once fixed).
#
#   tools/fuzz-smoke.sh [BUILD_DIR]        (default build-fuzz; a build of
#                                           WITH_FUZZERS=1 tools/sanitize-check.sh is reused)
#   MAD_FUZZ_SECONDS=20  seconds of fuzzing per target
#   MAD_FUZZ_TARGETS="png cli"  a subset (default: all)
#   JOBS=2               build parallelism
#
# A long run of one target (what the issue asks before a release: 10 minutes each):
#   build-fuzz/fuzz/fuzz_png CORPUS_COPY -max_total_time=600 -rss_limit_mb=2048 \
#       -malloc_limit_mb=512 -timeout=10
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build-fuzz}"
[[ "$build" = /* ]] || build="$root/$build"
seconds="${MAD_FUZZ_SECONDS:-20}"
jobs="${JOBS:-2}"
all_targets="png jpeg tiff stb pairs_list dataset_scores results_file cli y4m"
targets="${MAD_FUZZ_TARGETS:-$all_targets}"

command -v clang++ >/dev/null || { echo "fuzz-smoke: clang++ is required (libFuzzer)" >&2; exit 2; }

# cmake/fuzzing.cmake is normally included by the top-level CMakeLists.txt; until it is, inject
# it through CMake's project-include hook (same effect).
extra=()
grep -q 'cmake/fuzzing.cmake' "$root/CMakeLists.txt" ||
  extra+=("-DCMAKE_PROJECT_mad_INCLUDE=$root/cmake/fuzzing.cmake")
# A build that already has the fuzz targets (WITH_FUZZERS=1 tools/sanitize-check.sh, as CI runs
# it) is used as it is: configuring it again here would switch its tests off.
if ! grep -qs '^MAD_BUILD_FUZZERS:BOOL=ON$' "$build/CMakeCache.txt"; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DMAD_ENABLE_CUDA=OFF -DMAD_BUILD_FUZZERS=ON \
    -DMAD_BUILD_TESTS=OFF -DMAD_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "${extra[@]}" >/dev/null
fi
build_targets=()
for t in $targets; do build_targets+=("fuzz_$t"); done
cmake --build "$build" -j "$jobs" --target "${build_targets[@]}"

failed=()
for t in $targets; do
  bin="$build/fuzz/fuzz_$t"
  [[ -x "$bin" ]] || { echo "fuzz-smoke: no fuzzer for '$t'" >&2; exit 2; }
  artifacts="$build/fuzz-artifacts/$t"
  work="$build/fuzz-work/$t"
  rm -rf "$work" && mkdir -p "$work" "$artifacts"
  cp -r "$root/tests/fuzz/corpus/$t/." "$work/"
  # No input of a few KB has a reason to make the parsers allocate 512 MiB at once: a bigger
  # single allocation is a memory-amplification bug (a tiny file claiming a huge image).
  opts=(-rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 "-artifact_prefix=$artifacts/")
  [[ "$t" == cli ]] && opts+=("-dict=$root/tests/fuzz/cli.dict")

  regressions="$root/tests/fuzz/regressions/$t"
  if [[ -d "$regressions" ]] && compgen -G "$regressions/*" >/dev/null; then
    echo "== fuzz_$t: replaying $(ls "$regressions" | wc -l) regression input(s)"
    if ! "$bin" "${opts[@]}" "$regressions"/* >"$artifacts/regressions.log" 2>&1; then
      echo "fuzz-smoke: fuzz_$t fails on a regression input (see $artifacts/regressions.log)" >&2
      tail -n 30 "$artifacts/regressions.log" >&2
      failed+=("$t(regression)")
    fi
  fi

  echo "== fuzz_$t: ${seconds}s"
  # A fixed seed makes CI runs reproducible: the same code explores the same inputs.
  if "$bin" "${opts[@]}" -seed="${MAD_FUZZ_SEED:-1}" -max_total_time="$seconds" -print_final_stats=1 "$work" \
      >"$artifacts/fuzz.log" 2>&1; then
    grep -E '^stat::number_of_executed_units' "$artifacts/fuzz.log" || true
  else
    echo "fuzz-smoke: fuzz_$t found a failing input (see $artifacts/fuzz.log):" >&2
    grep -E 'ERROR|invariant|Test unit written' "$artifacts/fuzz.log" >&2 || tail -n 30 "$artifacts/fuzz.log" >&2
    failed+=("$t")
  fi
done

if ((${#failed[@]})); then
  echo "fuzz-smoke: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz-smoke: all targets clean"
