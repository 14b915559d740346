#!/usr/bin/env bash
# `mad eval` throughput from files, on two generated sets:
#  - KADID-10k's shape (issue 12, goal 4; issue 26, item 1): 10,125 512x384 RGB PNG pairs, 81
#    references of 125, decoding ahead on every core, the RGB samples converted to gray on the
#    GPU. Both precisions, one worker and two on one GPU; the one-worker runs also time the whole
#    process, start to exit, with the default statistics (goal: <= 4 s on one H100 or H200).
#  - 4K (issue 26, item 3): 640 3840x2160 gray pairs, 16 references of 40 (8 types x 5
#    levels), in 24-bit BMP files (gray as three equal channels; --synthetic-format bmp), meant
#    to be GPU-bound: about 22 ms a pair in double on one H200 (estimated: 4x a 1920x1080 pair's
#    5.4 ms), so about 14 s on one GPU. As gray PNG the set was decode-bound (2026-11-27, one
#    H200, 16 cores: 47 pairs/s, 7.2 s of 13.6 s waiting on decoding, 130 ms an image): an 8-bit
#    gray file of any format then became a plane of doubles on the decoding thread beside its
#    8-bit copy (75 MB at 4K, mapped afresh for each image), and the decoded-pairs budget (1 GiB
#    a process) counted both: about 7 pairs fit, and 7 decodes in flight at 130 ms give about
#    the 47 pairs/s seen (3 pairs a worker on two GPUs). GPU workers now keep an 8-bit gray
#    file's uint8 plane alone (8.3 MB at 4K; the doubles are built for CPU workers only), as they
#    keep an 8-bit RGB file's samples as decoded (25 MB at 4K), and the GPU widens or converts
#    them: a gray pair counts 17 MB against the budget, a BMP one 50 MB (21 pairs fit). Gray PNG
#    has not been measured since; it still pays for the inflate, which BMP skips. The set takes
#    about 16 GB on disk. A build without libstb (BMP) writes it as PNG, and says so.
# On a host of two GPUs or more, both sets on two GPUs against one in the same run (goal:
# >= 1.8x); on one GPU, the 4K set in double only (about 15 s). Every figure comes with the
# decoders' ceiling. One GOAL line a measurement; the logs stay in LOGS.
#
#   tools/eval-goal.sh [--make-set] MAD SET LOGS   (MAD: the mad executable; SET: the KADID-shaped
#                                                 set's folder, SET-4k the 4K set's; each written
#                                                 first when it does not exist; --make-set: only
#                                                 write them, both at once)
#
# tools/gpu-check.sh writes the sets with --make-set in the background while the tests run, and
# runs the measurements after them. Alone it re-measures in a short device call, e.g. on
# nvidia-h100-x2:
#   cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 &&
#   cmake --build build-gpu --target mad && tools/eval-goal.sh build-gpu/bin/mad /tmp/kadid /tmp/logs
# Writing the sets should take about a minute on 16 cores, the 4K one most of it (1.2 CPU-s a
# 3840x2160 image on the 2-core CPU machine).
#
# What limits a run: the summary's waits (on decoding, on the GPU) and its decoding line. The
# decoders' ceiling is what the host's decoders can feed: decoding threads / time an image, times
# pairs per decoded image (references are decoded once a group).
#
# To test this script on a machine without a GPU, with tiny sets: EVAL_GOAL_KADID_OPTIONS and
# EVAL_GOAL_4K_OPTIONS replace the sets' --synthetic-* options (the GOAL lines describe the sets
# as written, from their dmos.csv and the first reference's header: PNG or BMP).
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
set4k=$set-4k
read -ra kadid_options <<< "${EVAL_GOAL_KADID_OPTIONS:---synthetic-refs 81 --synthetic-types 25 --synthetic-colour}"
read -ra options_4k <<< "${EVAL_GOAL_4K_OPTIONS:---synthetic-refs 16 --synthetic-types 8 --synthetic-size 3840x2160 --synthetic-format bmp}"
mkdir -p "$logs"

make_set() {  # folder, log tag, name, then its --synthetic-* options: written unless it exists
  [ -d "$1" ] && return 0
  local log=$logs/synthetic_$2.log rc args=("${@:4}") i note=""
  "$mad" eval "$1" --make-synthetic --quiet "${args[@]}" > "$log" 2>&1
  rc=$?
  # A format this build does not write (mad refuses it before writing a file): PNG instead.
  if [ $rc -eq 2 ] && grep -q 'does not write it' "$log"; then
    note=" ($(grep -o "synthetic image format '[a-z]*'" "$log" | head -1) is not written by this build: PNG instead)"
    for i in "${!args[@]}"; do
      [ "${args[$i]}" = --synthetic-format ] && args[i + 1]=png
    done
    "$mad" eval "$1" --make-synthetic --quiet "${args[@]}" > "$log" 2>&1
    rc=$?
  fi
  echo "synthetic $3 set (rc=$rc): $(grep -o 'wrote [^(]*([^,]*' "$log" | head -1)$note"
}
# Both at once: each spreads its images over every core, and the 4K set's few large images
# leave cores idle at its end that the other set's fill.
make_set "$set" kadid KADID-shaped "${kadid_options[@]}" > "$logs/synthetic_kadid.txt" &
make_set "$set4k" 4k 4K "${options_4k[@]}" > "$logs/synthetic_4k.txt" &
wait
cat "$logs/synthetic_kadid.txt" "$logs/synthetic_4k.txt"
[ $make_only -eq 1 ] && exit 0
first_reference() { compgen -G "$1/images/I01.*" | head -1; }
for d in "$set" "$set4k"; do
  if [ ! -f "$d/dmos.csv" ] || [ -z "$(first_reference "$d")" ]; then
    echo "GOAL eval: not run ($d is not a synthetic set; see $logs/synthetic_*.log)"
    exit 1
  fi
done

pairs_of() { echo $(( $(wc -l < "$1/dmos.csv") - 1 )); }
# "N RGB 512x384 PNG pairs": the pairs from dmos.csv, the size and colour from the first
# reference's header. PNG: IHDR's width and height at bytes 16-23 (big-endian), colour type at 25
# (2: RGB; 0: gray). BMP: width and height at 18-25 (little-endian; a negative height is a
# top-down file), bits per pixel at 28 (24: RGB, which is how mad eval --make-synthetic stores
# gray). Other formats are named by extension, undescribed.
describe() {
  local file w h colour
  file=$(first_reference "$1")
  case "${file##*.}" in
    png)
      read -r w h < <(od -An -tu4 --endian=big -j16 -N8 "$file")
      colour=$([ "$(od -An -tu1 -j25 -N1 "$file" | tr -d ' ')" = 2 ] && echo RGB || echo gray)
      echo "$(pairs_of "$1") $colour ${w}x${h} PNG pairs" ;;
    bmp)
      read -r w h < <(od -An -td4 --endian=little -j18 -N8 "$file")
      colour=$(od -An -tu2 --endian=little -j28 -N2 "$file" | tr -d ' ')
      colour=$([ "$colour" = 24 ] && echo RGB || echo "$colour-bit")
      echo "$(pairs_of "$1") $colour ${w}x${h#-} BMP pairs" ;;
    *) echo "$(pairs_of "$1") pairs of .${file##*.} files" ;;
  esac
}
kadid_pairs=$(pairs_of "$set") pairs_4k=$(pairs_of "$set4k")
kadid_label=$(describe "$set") label_4k=$(describe "$set4k")

scoring() { grep -o 'scoring: [^;]*' "$logs/eval_$1.log" | head -1; }
pairs_per_s() { scoring "$1" | grep -oE '[0-9.]+ pairs/s' | cut -d' ' -f1; }
decoding() { grep -o '^decoding: .*' "$logs/eval_$1.log" | head -1; }
# The workers' steady rate summed (mad eval's "steady:" line: from each worker's 32nd pair on),
# apart from their start; empty when a worker had too few pairs for one.
steady() { grep -oE '^steady: [0-9.]+ pairs/s' "$logs/eval_$1.log" | head -1 | cut -d' ' -f2; }
ceiling() {  # tag, pairs of the set: the decoders' ceiling in pairs/s, from the decoding line
  decoding "$1" | awk -v pairs="$2" '{ images = $2; ms = $4; threads = $(NF - 1);
    if (ms > 0 && images > 0) printf "%.0f", threads * 1000 / ms * pairs / images }'
}
figures() {  # tag, pairs of the set, goal note: the run's figures, or why it failed (from rc)
  if [ "$rc" -ne 0 ]; then
    echo "failed: $(tail -1 "$logs/eval_$1.log")"
    return
  fi
  local c
  c=$(ceiling "$1" "$2")
  echo "$(scoring "$1")$3; $(decoding "$1"); the decoders' ceiling: ${c:-n/a} pairs/s"
}
run_eval() {  # set, precision, tag, then more options of mad eval; sets rc and seconds (whole process)
  local t0=${EPOCHREALTIME/,/.} t1
  "$mad" eval "$1" --precision "$2" --out "$logs/eval_$3.csv" --force "${@:4}" \
    > "$logs/eval_$3.log" 2>&1
  rc=$?
  t1=${EPOCHREALTIME/,/.}
  seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}
# KADID-shaped. The one-worker one-GPU runs keep mad eval's default statistics (1000 bootstrap
# resamples) for the process time of issue 26's item 1, which counts them (about 0.5 s on 16
# cores); the other runs report their scoring figure only, which the statistics come after, so
# --bootstrap 10 keeps them short.
eval_kadid() {  # precision, tag, then more options of mad eval
  run_eval "$set" "$@"
  local process="" stats
  if [ "$2" = "$1" ] && [ "$rc" -eq 0 ]; then
    stats=$(grep -oE 'statistics: [0-9.]+ s' "$logs/eval_$2.log" | head -1 | cut -d' ' -f2)
    process="; statistics ${stats:-n/a} s; process start to report $seconds s (goal <= 4 s)"
  fi
  echo "GOAL eval, $kadid_label, $2 (rc=$rc): $(figures "$2" "$kadid_pairs" " (goal >= 4000 pairs/s)")$process"
}
eval_4k() {  # precision, GPUs
  local tag=4k-$1-$2-gpu
  run_eval "$set4k" "$1" "$tag" --gpus "$2" --bootstrap 10
  echo "GOAL eval 4K, $label_4k, $1, $2 GPU$([ "$2" -gt 1 ] && echo s) (rc=$rc): $(figures "$tag" "$pairs_4k" "")"
}
ratio() {  # label, one-GPU tag, two-GPU tag, pairs of the set
  local one two c s1 s2
  one=$(pairs_per_s "$2") two=$(pairs_per_s "$3") c=$(ceiling "$3" "$4")
  s1=$(steady "$2") s2=$(steady "$3")
  echo "GOAL eval $1, 2 GPUs / 1 GPU: $(awk -v a="$one" -v b="$two" 'BEGIN { if (a > 0) printf "%.2fx", b / a; else print "n/a" }') (${two:-n/a} / ${one:-n/a} pairs/s; goal >= 1.8x); once running: $(awk -v a="$s1" -v b="$s2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", b / a; else print "n/a" }') (${s2:-n/a} / ${s1:-n/a} pairs/s); the decoders' ceiling in the 2-GPU run: ${c:-n/a} pairs/s"
}

# --gpus 1: on a host of several GPUs the one-GPU figures stay one GPU's.
eval_kadid double double --gpus 1
eval_kadid float float --gpus 1
eval_kadid double double-2-workers --gpus 1 --workers-per-gpu 2 --bootstrap 10
eval_kadid float float-2-workers --gpus 1 --workers-per-gpu 2 --bootstrap 10
eval_4k double 1
gpu_count=$(nvidia-smi --list-gpus 2>/dev/null | grep -c '^GPU ' || true)
if [ "${gpu_count:-0}" -lt 2 ]; then
  echo "GOAL eval on 2 GPUs: not run (${gpu_count:-0} GPU visible; run on nvidia-h100-x2)"
  exit 0
fi
# Each GPU with one worker, as in the one-GPU lines.
eval_kadid double double-2-gpus --gpus 2 --bootstrap 10
eval_kadid float float-2-gpus --gpus 2 --bootstrap 10
for p in double float; do ratio "$p" "$p" "$p-2-gpus" "$kadid_pairs"; done
eval_4k float 1
eval_4k double 2
eval_4k float 2
for p in double float; do ratio "4K $p" "4k-$p-1-gpu" "4k-$p-2-gpu" "$pairs_4k"; done
