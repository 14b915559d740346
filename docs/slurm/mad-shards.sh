#!/bin/bash
# Score a pairs list (mad score) or evaluate a dataset (mad eval) on a Slurm cluster: a job
# array of N shards, then a merge job.
#
#   docs/slurm/mad-shards.sh score LIST OUTDIR N [mad score options...] [-- mad merge options...]
#   docs/slurm/mad-shards.sh eval DIR OUTDIR N [mad eval options...] [-- mad merge options...]
#
# Run on a login node, it submits itself twice: an array of N tasks (task I runs
# `mad score --pairs LIST --shard I/N` or `mad eval DIR --shard I/N`, with
# `--out OUTDIR/shard_I.csv --resume`), and a merge job that starts when every task has
# succeeded (afterok) and runs `mad merge OUTDIR/results.csv OUTDIR/shard_*.csv`: the rows in
# list or dataset order and, for eval, the statistics report (in the merge job's log; give it
# `-- --json OUTDIR/summary.json --html OUTDIR/report.html --seed S` to keep them as files).
# With `mad score ... --json` the files are shard_I.jsonl and results.jsonl (JSON Lines).
# A task that is requeued or resubmitted continues its shard (--resume). A task whose pairs
# partly failed (mad's exit 5; for eval also missing images) still succeeds: the failed rows
# are in its file and the merge reports them (it exits 5 then). Set MAD to the mad executable
# if it is not on the PATH, and edit the #SBATCH lines for your cluster (one GPU a task; the
# CPU backend needs none).
#SBATCH --job-name=mad-shards
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=mad-%x-%A_%a.log
set -u
usage="usage: $0 score|eval LIST|DIR OUTDIR N [options of each task...] [-- mad merge options...]"
if [ $# -lt 4 ]; then
  echo "$usage" >&2
  exit 2
fi
command=$1 input=$2 outdir=$3 shards=$4
shift 4
case $command in
  score | eval) ;;
  *) echo "$0: the subcommand is score or eval, not '$command'; $usage" >&2; exit 2 ;;
esac
task_options=() merge_options=()  # before and after a lone --
while [ $# -gt 0 ] && [ "$1" != -- ]; do task_options+=("$1"); shift; done
[ $# -gt 0 ] && shift
merge_options=("$@")
ext=csv
if [ "$command" = score ]; then
  for option in ${task_options[@]+"${task_options[@]}"}; do
    [ "$option" = --json ] && ext=jsonl
  done
fi
mad=${MAD:-mad}

if [ -n "${MAD_MERGE:-}" ]; then  # the merge job
  files=()
  for ((i = 1; i <= shards; i++)); do files+=("$outdir/shard_$i.$ext"); done
  exec "$mad" merge "$outdir/results.$ext" "${files[@]}" --force \
    ${merge_options[@]+"${merge_options[@]}"}
fi

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then  # one task of the array
  mkdir -p "$outdir" || exit 3
  if [ "$command" = score ]; then what=(--pairs "$input"); else what=("$input"); fi
  shard=$SLURM_ARRAY_TASK_ID/${SLURM_ARRAY_TASK_COUNT:-$shards}
  "$mad" "$command" "${what[@]}" --shard "$shard" --out "$outdir/shard_$SLURM_ARRAY_TASK_ID.$ext" \
    --resume -q ${task_options[@]+"${task_options[@]}"}
  rc=$?
  [ $rc -eq 5 ] && rc=0  # some pairs failed: their rows are written, the merge reports them
  exit $rc
fi

# On the login node: submit the array, then the merge after it. The merge job is a --wrap of
# this script, so it does not take the #SBATCH lines above (it needs no GPU).
mkdir -p "$outdir" || exit 3
script=$(realpath "$0") input=$(realpath "$input") outdir=$(realpath "$outdir")
again=("$script" "$command" "$input" "$outdir" "$shards" ${task_options[@]+"${task_options[@]}"}
  -- ${merge_options[@]+"${merge_options[@]}"})
array=$(sbatch --parsable --array="1-$shards" "${again[@]}") || exit 4
array=${array%%;*}  # --parsable prints JOBID or JOBID;CLUSTER
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=mad-merge --time=00:30:00 \
  --output="$outdir/merge-%j.log" --export=ALL,MAD_MERGE=1 \
  --wrap="$(printf '%q ' "${again[@]}")") || exit 4
echo "submitted: array job $array ($shards shards of mad $command), merge job ${merge%%;*}" \
  "into $outdir/results.$ext"
