#!/usr/bin/env bash
# Issue 12, goal 4: `mad eval` throughput from files on KADID-10k's shape (10,125 generated
# 512x384 RGB PNG pairs: 81 references of 125), decoding ahead on every core, the RGB samples
# converted to gray on the GPU. Both precisions, one worker and two on one GPU, and, on a host of
# two GPUs or more, two GPUs against one in the same run (goal: >= 1.8x). Prints one GOAL line a
# measurement; the logs stay in LOGS.
#
#   tools/eval-goal.sh [--make-set] MAD SET LOGS   (MAD: the mad executable; SET: the dataset
#                                                 folder, written first when it does not exist;
#                                                 --make-set: only write it)
#
# tools/gpu-check.sh writes SET with --make-set in the background while the tests run, and runs
# the measurements after them. Alone it re-measures goal 4 in a short device call, e.g. on
# nvidia-h100-x2:
#   cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 &&
#   cmake --build build-gpu --target mad && tools/eval-goal.sh build-gpu/bin/mad /tmp/kadid /tmp/logs
#
# What limits a run: the summary's waits (on decoding, on the GPU) and its decoding line. The
# decoding ceiling printed with the two-GPU ratio is what the host's decoders can feed: decoding
# threads / time an image, times pairs per decoded image (references are decoded once a group).
set -uo pipefail
make_only=0
if [ "${1:-}" = --make-set ]; then
  make_only=1
  shift
fi
if [ $# -ne 3 ] || [ "${1#--}" != "$1" ]; then
  echo "usage: tools/eval-goal.sh [--make-set] MAD SET LOGS" >&2
  exit 2
fi
mad=$1 set=$2 logs=$3
mkdir -p "$logs"
if [ ! -d "$set" ]; then
  "$mad" eval "$set" --make-synthetic --synthetic-refs 81 --synthetic-types 25 --synthetic-colour \
    > "$logs/synthetic.log" 2>&1
  echo "synthetic KADID-shaped set (rc=$?): $(grep -o 'wrote [^(]*' "$logs/synthetic.log" | head -1)"
fi
[ $make_only -eq 1 ] && exit 0

pairs_per_s() {  # tag: the run's pairs/s from its summary line
  grep -o 'scoring: [^;]*' "$logs/eval_$1.log" | grep -oE '[0-9.]+ pairs/s' | cut -d' ' -f1
}
eval_goal() {  # precision, tag, then more options of mad eval
  local p=$1 tag=$2
  "$mad" eval "$set" --precision "$p" --out "$logs/eval_$tag.csv" --force --bootstrap 10 "${@:3}" \
    > "$logs/eval_$tag.log" 2>&1
  echo "GOAL eval, 10,125 RGB 512x384 PNG pairs, $tag (rc=$?): $(grep -o 'scoring: [^;]*' "$logs/eval_$tag.log" | head -1) (goal >= 4000 pairs/s); $(grep -o '^decoding: .*' "$logs/eval_$tag.log" | head -1)"
}
# --gpus 1: on a host of several GPUs the one-GPU figures stay one GPU's.
eval_goal double double --gpus 1
eval_goal float float --gpus 1
eval_goal double double-2-workers --gpus 1 --workers-per-gpu 2
eval_goal float float-2-workers --gpus 1 --workers-per-gpu 2
gpu_count=$(nvidia-smi --list-gpus 2>/dev/null | grep -c '^GPU ' || true)
if [ "${gpu_count:-0}" -lt 2 ]; then
  echo "GOAL eval on 2 GPUs: not run (${gpu_count:-0} GPU visible; run on nvidia-h100-x2)"
  exit 0
fi
# Each GPU with one worker, as in the one-GPU lines.
eval_goal double double-2-gpus --gpus 2
eval_goal float float-2-gpus --gpus 2
for p in double float; do
  one=$(pairs_per_s "$p") two=$(pairs_per_s "$p-2-gpus")
  ceiling=$(grep -o '^decoding: .*' "$logs/eval_$p-2-gpus.log" | head -1 |
    awk '{ images = $2; ms = $4; threads = $(NF - 1); sub(/^\(/, "", threads);
           if (ms > 0) printf "%.0f", threads * 1000 / ms * 10125 / images }')
  echo "GOAL eval $p, 2 GPUs / 1 GPU: $(awk -v a="$one" -v b="$two" 'BEGIN { if (a > 0) printf "%.2fx", b / a; else print "n/a" }') ($two / $one pairs/s; goal >= 1.8x); the decoders' ceiling in the 2-GPU run: ${ceiling:-n/a} pairs/s"
done
