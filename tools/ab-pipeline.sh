#!/usr/bin/env bash
# A/B of the whole scoring pipeline on the GPU machine, in one call: builds `mad` from this tree
# and from a base tree side by side (sm_90, Release), then runs the two alternately, A B A B ...,
# so that both see the same machine, clocks and neighbours, and prints each figure of one beside
# the other's, with the ratio. Two measurements:
#  * pipeline (default): `mad bench --kernels pipeline`, each row's median of the rounds. A
#    refactor that must not change the GPU's figures (issue 38) is checked this way.
#  * cpu-eval: `mad eval --backend cpu --threads 2 --cpu-workers 1` of `mad eval --make-synthetic`'s
#    1000 pairs (40 references x 5 types x 5 levels, 512x384 gray PNG) on two cores (taskset), each
#    process's wall, user and system seconds and minor page faults, and whether the two results
#    files hold the same scores to the bit (issue 39's "CPU's lost half"). Both builds leave CUDA
#    out there: the CPU path is what is measured, and the builds are faster.
#
#   tools/ab-pipeline.sh BASE_TREE [ROUNDS [pipeline|cpu-eval]]
#                        (default 3 rounds of pipeline; logs and JSON under $OUT)
#
# BASE_TREE: a source tree of the base commit, e.g. made here and carried to the device:
#   mkdir -p .ab-base && git archive da36d5c -- . ':!tests/data' | tar -x -C .ab-base
# (.ab-base/ is git-ignored; name it in the device call's carry). Its tests are not built.
set -uo pipefail
cd "$(dirname "$0")/.."
base_tree=${1:?usage: tools/ab-pipeline.sh BASE_TREE [ROUNDS]}
rounds=${2:-3}
what=${3:-pipeline}
case "$what" in
  pipeline) cuda=ON ;;
  cpu-eval) cuda=OFF ;;
  *) echo "ab-pipeline: unknown measurement '$what' (pipeline, cpu-eval)"; exit 2 ;;
esac
out=${OUT:-$PWD/ab-out}
mkdir -p "$out"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if ls .debs/*.deb > /dev/null 2>&1; then  # as tools/gpu-check.sh: formats the machine lacks
  debs=/tmp/ab-debs
  rm -rf "$debs"
  for deb in .debs/*.deb; do dpkg -x "$deb" "$debs"; done
  export CMAKE_PREFIX_PATH="$debs/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
half=$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))
build_one() {  # build_one SOURCE BUILD LOG
  cmake -S "$1" -B "$2" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DMAD_BUILD_TESTS=OFF -DMAD_BUILD_BENCHMARKS=OFF -DMAD_PYTHON=OFF -DMAD_ENABLE_CUDA=$cuda \
        > "$3" 2>&1 &&
    cmake --build "$2" -j"$half" --target mad >> "$3" 2>&1
}
t0=$(date +%s)
build_one . build-ab-new "$out/build-new.log" & new_pid=$!
build_one "$base_tree" build-ab-base "$out/build-base.log" & base_pid=$!
wait $new_pid; new_rc=$?
wait $base_pid; base_rc=$?
if [ $new_rc -ne 0 ] || [ $base_rc -ne 0 ]; then
  grep -hE "error" "$out"/build-*.log | head -20
  echo "SUMMARY: A/B build FAILED (new rc=$new_rc, base rc=$base_rc)"; exit 1
fi
echo "A/B: both built in $(( $(date +%s) - t0 )) s"
if [ "$what" = cpu-eval ]; then
  exec tools/ab-cpu-eval.sh "$out" "$rounds"
fi
for r in $(seq 1 "$rounds"); do
  for side in base new; do
    build-ab-$side/bin/mad bench --kernels pipeline --precision both --format json \
      > "$out/pipeline-$side-$r.json" 2>> "$out/bench-$side.log" || echo "A/B: $side round $r rc=$?"
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def rows(side):
    got = {}
    for r in range(1, rounds + 1):
        try:
            data = json.load(open(f"{out}/pipeline-{side}-{r}.json"))
        except Exception as e:
            print(f"A/B: {side} round {r} unreadable: {e}")
            continue
        for m in data["rows"]:
            if m.get("backend") != "cuda":
                continue
            key = (m["group"], m["variant"], m.get("case", ""), "%dx%d" % (m["width"], m["height"]),
                   m["precision"])
            got.setdefault(key, []).append(m["median_ms"])
    return {k: statistics.median(v) for k, v in got.items()}
base, new = rows("base"), rows("new")
worst = 0.0
for key in sorted(set(base) & set(new), key=str):
    ratio = new[key] / base[key] if base[key] else float("nan")
    worst = max(worst, abs(ratio - 1))
    print("A/B %-40s base %8.4f ms  new %8.4f ms  new/base %.3f" % (" ".join(map(str, key)), base[key], new[key], ratio))
print("SUMMARY: A/B pipeline, %d rows in both, %d rounds each: largest |new/base - 1| = %.3f"
      % (len(set(base) & set(new)), rounds, worst))
PY
