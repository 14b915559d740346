#!/usr/bin/env bash
# Issue 40's speed goals on the GPU machine, in one call beside `mad bench --kernels pipeline`:
#  * per-frame MAD of a Y4M clip in the page cache against the engine's batched rate for distinct
#    pairs of the same size (goal: within 10%), in double and float, at 1920x1080 and 3840x2160;
#  * the same clip read from a pipe (goal: at most another 10%);
#  * ST-MAD of a 300-frame 1920x1080 clip in double (goal: at most 3 s).
# Prints "VIDEO:" lines; the clips are written by tools/make-test-clip.py into $VIDEO_DIR
# (default /dev/shm/mad-video: memory, so that "in the page cache" holds by construction).
#
#   tools/video-bench.sh BUILD_DIR [FRAMES_1080 [FRAMES_4K]]
set -uo pipefail
build="${1:?usage: tools/video-bench.sh BUILD_DIR [FRAMES_1080 [FRAMES_4K]]}"
n1080="${2:-300}"
n4k="${3:-120}"
mad="$build/bin/mad"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${VIDEO_DIR:-/dev/shm/mad-video}"
mkdir -p "$dir"
py="${PYTHON:-python3}"

clip() {  # clip NAME W H FRAMES
  [ -s "$dir/$1-ref.y4m" ] && return 0
  "$py" "$root/tools/make-test-clip.py" --width "$2" --height "$3" --frames "$4" \
    "$dir/$1-ref.y4m" "$dir/$1-dist.y4m"
}
clip hd 1920 1080 "$n1080" || { echo "VIDEO: cannot write the 1080p clips"; exit 1; }
clip uhd 3840 2160 "$n4k" || { echo "VIDEO: cannot write the 4K clips"; exit 1; }

# The engine's batched rate for distinct pairs (the pipeline bench's batch-distinct-refs rows).
"$mad" bench --kernels pipeline --sizes 1920x1080,3840x2160 --format json > "$dir/pipeline.json" \
  2> "$dir/pipeline.log" || echo "VIDEO: mad bench --kernels pipeline failed (see $dir/pipeline.log)"

# The two rates of a `mad video` run's summary line ("N.NN frames/s (M.MM after the first
# frame, ...)"): "WHOLE,RUNNING". The whole run's includes the scorer's set-up, which the
# engine's batched rate (measured after a warm-up) leaves out; the running rate does too.
rate() {
  local line
  line="$(grep -m1 'frames/s')"
  echo "$(grep -o '[0-9.]* frames/s' <<< "$line" | cut -d' ' -f1),$(grep -o '[0-9.]* after the first frame' <<< "$line" | cut -d' ' -f1)"
}
# Wall seconds of a whole `mad video` process (start-up included): wall ARGS...
wall() {
  local s e
  s=$(date +%s.%N)
  "$mad" video "$@" > /dev/null 2>>"$dir/video.log"
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'
}
# Where the time goes: the whole clip and its first sixth, each as a whole process. Their
# difference is the steady rate (frames/s once running); what is left of the short run is the
# start-up (device, plans, slots, the first graphs), which the summary's frames/s includes.
declare -A video pipe whole part
for p in double float; do
  for c in hd uhd; do
    video[$c-$p]="$("$mad" video "$dir/$c-ref.y4m" "$dir/$c-dist.y4m" --precision "$p" 2>>"$dir/video.log" | rate)"
    pipe[$c-$p]="$(cat "$dir/$c-dist.y4m" | "$mad" video "$dir/$c-ref.y4m" - --precision "$p" 2>>"$dir/video.log" | rate)"
    n=$n1080; [ $c = uhd ] && n=$n4k
    whole[$c-$p]="$(wall "$dir/$c-ref.y4m" "$dir/$c-dist.y4m" --precision "$p")"
    part[$c-$p]="$(wall "$dir/$c-ref.y4m" "$dir/$c-dist.y4m" --precision "$p" --frame-count $((n / 6)))"
  done
done
start=$(date +%s.%N)
"$mad" video "$dir/hd-ref.y4m" "$dir/hd-dist.y4m" --stmad --json "$dir/stmad.json" --force \
  > "$dir/stmad.txt" 2>>"$dir/video.log"
rc=$?
end=$(date +%s.%N)

"$py" - "$dir/pipeline.json" "$n1080" "$n4k" "$rc" "$start" "$end" \
  "${video[hd-double]}" "${video[uhd-double]}" "${video[hd-float]}" "${video[uhd-float]}" \
  "${pipe[hd-double]}" "${pipe[uhd-double]}" "${pipe[hd-float]}" "${pipe[uhd-float]}" \
  "$dir/stmad.txt" \
  "${whole[hd-double]}" "${whole[uhd-double]}" "${whole[hd-float]}" "${whole[uhd-float]}" \
  "${part[hd-double]}" "${part[uhd-double]}" "${part[hd-float]}" "${part[uhd-float]}" <<'PY'
import json, sys
a = sys.argv
rows = []
try:
    rows = [r for r in json.load(open(a[1]))["rows"]
            if r["backend"] == "cuda" and r["group"] == "pipeline" and r["variant"] == "batch-distinct-refs"]
except Exception as e:
    print("VIDEO: no pipeline rows (%s)" % e)
engine = {(r["width"], r["precision"]): r["pairs_per_s"] for r in rows}
f = lambda s: float(s) if s else float("nan")
rates = lambda s: tuple(f(x) for x in (s.split(",") + ["", ""])[:2])  # (whole, running)
video = {(1920, "double"): rates(a[7]), (3840, "double"): rates(a[8]), (1920, "float"): rates(a[9]), (3840, "float"): rates(a[10])}
pipe = {(1920, "double"): rates(a[11]), (3840, "double"): rates(a[12]), (1920, "float"): rates(a[13]), (3840, "float"): rates(a[14])}
frames = {1920: int(a[2]), 3840: int(a[3])}
ratio = lambda x, y: x / y if y and y == y else float("nan")
for (w, p), (whole_rate, running) in sorted(video.items()):
    e = engine.get((w, p))
    pw, pr = pipe[(w, p)]
    print("VIDEO: %s %s, %d frames from a Y4M file: %.1f frames/s after the first frame, engine "
          "batch-distinct-refs %.1f pairs/s: ratio %.3f (goal >= 0.90); whole run with its set-up %.1f "
          "frames/s (%.3f); from a pipe %.1f after the first frame (%.3f of the file's; goal >= 0.90), "
          "whole %.1f"
          % ("1920x1080" if w == 1920 else "3840x2160", p, frames[w], running, e or float("nan"),
             ratio(running, e), whole_rate, ratio(whole_rate, e), pr, ratio(pr, running), pw))
whole = {(1920, "double"): f(a[16]), (3840, "double"): f(a[17]), (1920, "float"): f(a[18]), (3840, "float"): f(a[19])}
part = {(1920, "double"): f(a[20]), (3840, "double"): f(a[21]), (1920, "float"): f(a[22]), (3840, "float"): f(a[23])}
for (w, p), t in sorted(whole.items()):
    n, k = frames[w], frames[w] // 6
    steady = (n - k) / (t - part[(w, p)]) if t > part[(w, p)] else float("nan")
    e = engine.get((w, p))
    print("VIDEO: %s %s, where the time goes: process %.3f s for %d frames, %.3f s for %d; steady %.1f frames/s "
          "(%.3f of the engine's), start-up %.3f s (process start to the first frame's share)"
          % ("1920x1080" if w == 1920 else "3840x2160", p, t, n, part[(w, p)], k, steady,
             steady / e if e else float("nan"), part[(w, p)] - k / steady if steady == steady else float("nan")))
summary = open(a[15]).read().strip().replace("\n", " | ")
print("VIDEO: ST-MAD 1920x1080 x %d frames, double: rc=%s, %.2f s wall from process start to exit "
      "(goal <= 3 s): %s" % (frames[1920], a[4], float(a[6]) - float(a[5]), summary))
PY
