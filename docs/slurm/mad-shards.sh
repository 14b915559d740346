#!/bin/bash
# Score a pairs list (mad score) or evaluate a dataset (mad eval) on a Slurm cluster: a job
# array of N shards, then a merge job.
#
#   docs/slurm/mad-shards.sh score LIST OUTDIR N [mad score options...] [-- mad merge options...]
#   docs/slurm/mad-shards.sh eval DIR OUTDIR N [mad eval options...] [-- mad merge options...]
#
# Run on a login node, it submits itself twice: an array of N tasks (task I runs
# `mad score --pairs LIST --shard I/N` or `mad eval DIR --shard I/N`, with
# `--out OUTDIR/shard_I.csv --resume`), and, in merge mode, a merge job that starts when every
# task has ended, succeeded or not (afterany). The merge checks that each task finished: a task
# leaves its exit status in OUTDIR/shard_I.status as it ends. When one is missing or failed, the
# merge names those shards and prints the command that reruns only them (MAD_ARRAY=2,5 ...:
# tasks 2 and 5 and a new merge; --resume keeps what they had scored), and exits 3. Otherwise
# it runs `mad merge OUTDIR/results.csv OUTDIR/shard_*.csv`: the rows in list or dataset order
# and, for eval, the statistics report (in the merge job's log, OUTDIR/merge-JOBID.log; give it
# `-- --json OUTDIR/summary.json --html OUTDIR/report.html --seed S` to keep them as files).
# With `mad score ... --json` the files are shard_I.jsonl and results.jsonl (JSON Lines).
# A task that is requeued or resubmitted alone (`sbatch --array=3 mad-shards.sh ... 4`)
# continues its shard: N is always the argument, never the array's size. A task whose pairs
# partly failed (mad's exit 5; for eval also missing images) still succeeds: the failed rows are
# in its file and the merge reports them (it exits 5 then). Set MAD to the mad executable if it
# is not on the PATH, and edit the #SBATCH lines for your cluster (one GPU a task; the CPU
# backend needs none). The merge job takes them too (account, partition), less the GPU: it
# asks for no GPU, one CPU and 30 minutes.
#
# Run this way under a real Slurm (Debian 12's slurm-wlm 22.05, one node on 127.0.0.1 that
# tests/slurm/mad_shards_under_slurm.sh starts and stops; ctest slurm.mad_shards): the score
# form in 3 shards with shard 2 failing on purpose (the merge ran after it, named it and printed
# the rerun, which the test ran: task 2 alone, then a merge equal to the whole list), the merge
# job in the partition of an edited #SBATCH line, and the eval form in 2 shards with --json.
# Not run this way: the GPU line (--gres=gpu:1) and more than one node.
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
if ! [[ $shards =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: N, the number of shards, is a positive whole number, not '$shards'; $usage" >&2
  exit 2
fi
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
# This script's own path: Slurm runs a copy of a batch script from its spool folder, so the
# submission passes the original (MAD_SCRIPT) for the merge's rerun command.
script=${MAD_SCRIPT:-$(realpath "$0")}
again=("$script" "$command" "$input" "$outdir" "$shards" ${task_options[@]+"${task_options[@]}"}
  -- ${merge_options[@]+"${merge_options[@]}"})

if [ -n "${MAD_MERGE:-}" ]; then  # the merge job
  files=() rerun=() why=()
  for ((i = 1; i <= shards; i++)); do
    file=$outdir/shard_$i.$ext
    files+=("$file")
    status=$(cat "$outdir/shard_$i.status" 2>/dev/null)
    if [ -n "$status" ] && [ "$status" != 0 ]; then
      why+=("shard $i: its task exited $status (see its log)")
    elif [ ! -e "$file" ]; then
      why+=("shard $i: no $file (its task never ran)")
    elif [ -z "$status" ]; then
      why+=("shard $i: its task did not finish (killed, out of time or still running)")
    else
      continue
    fi
    rerun+=("$i")
  done
  if [ ${#rerun[@]} -gt 0 ]; then
    echo "mad-shards: ${#rerun[@]} of $shards shards missing or failed; nothing merged:" >&2
    printf '  %s\n' "${why[@]}" >&2
    echo "rerun them (each continues where it stopped), and merge again, with:" >&2
    echo "  MAD_ARRAY=$(IFS=,; echo "${rerun[*]}") $(printf '%q ' "${again[@]}")" >&2
    exit 3
  fi
  exec "$mad" merge "$outdir/results.$ext" "${files[@]}" --force \
    ${merge_options[@]+"${merge_options[@]}"}
fi

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then  # one task of the array
  mkdir -p "$outdir" || exit 3
  status_file=$outdir/shard_$SLURM_ARRAY_TASK_ID.status
  rm -f "$status_file"
  if [ "$command" = score ]; then what=(--pairs "$input"); else what=("$input"); fi
  "$mad" "$command" "${what[@]}" --shard "$SLURM_ARRAY_TASK_ID/$shards" \
    --out "$outdir/shard_$SLURM_ARRAY_TASK_ID.$ext" --resume -q \
    ${task_options[@]+"${task_options[@]}"}
  rc=$?
  [ $rc -eq 5 ] && rc=0  # some pairs failed: their rows are written, the merge reports them
  echo "$rc" > "$status_file"
  exit $rc
fi

# On the login node: submit the array (all N tasks, or those MAD_ARRAY names), then the merge
# after it: this script again, so that its #SBATCH lines apply.
array_tasks=${MAD_ARRAY:-1-$shards}
if ! [[ $array_tasks =~ ^[0-9][0-9,-]*$ ]]; then
  echo "$0: MAD_ARRAY is a list of shards as sbatch --array takes it (2,5 or 1-3), not" \
    "'$array_tasks'" >&2
  exit 2
fi
mkdir -p "$outdir" || exit 3
input=$(realpath "$input") outdir=$(realpath "$outdir")
again=("$script" "$command" "$input" "$outdir" "$shards" ${task_options[@]+"${task_options[@]}"}
  -- ${merge_options[@]+"${merge_options[@]}"})
array=$(sbatch --parsable --array="$array_tasks" "${again[@]}") || exit 4
array=${array%%;*}  # --parsable prints JOBID or JOBID;CLUSTER
# MAD_MERGE and MAD_SCRIPT reach it through the environment (--export=ALL), where a path with
# a comma cannot break a list of --export.
merge=$(MAD_MERGE=1 MAD_SCRIPT=$script sbatch --parsable --dependency="afterany:$array" \
  --job-name=mad-merge --time=00:30:00 --gres=none --cpus-per-task=1 \
  --output="$outdir/merge-%j.log" --export=ALL "${again[@]}") || exit 4
echo "submitted: array job $array (shards $array_tasks of $shards, mad $command), merge job" \
  "${merge%%;*} into $outdir/results.$ext"
