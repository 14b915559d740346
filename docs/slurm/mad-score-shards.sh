#!/bin/bash
# Score a pairs list with mad on a Slurm cluster: a job array of N shards, then a merge job.
#
#   docs/slurm/mad-score-shards.sh LIST OUTDIR N [mad score options...]
#
# Run on a login node, it submits itself twice: an array of N tasks (task I runs
# `mad score --pairs LIST --shard I/N --out OUTDIR/shard_I.csv --resume`), and a merge job that
# starts when every task has succeeded (afterok) and writes OUTDIR/results.csv in list order
# with `mad merge`. A task that is requeued or resubmitted continues its shard (--resume). A
# task whose pairs partly failed (mad's exit 5) still succeeds: the failed rows are in its file
# and the merge keeps them (it exits 5 then). Set MAD to the mad executable if it is not on the
# PATH, and edit the #SBATCH lines for your cluster (one GPU a task; the CPU backend needs none).
#SBATCH --job-name=mad-score
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=mad-%x-%A_%a.log
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 LIST OUTDIR N [mad score options...]" >&2
  exit 2
fi
list=$1 outdir=$2 shards=$3
shift 3
mad=${MAD:-mad}

if [ -n "${MAD_MERGE:-}" ]; then  # the merge job
  files=()
  for ((i = 1; i <= shards; i++)); do files+=("$outdir/shard_$i.csv"); done
  exec "$mad" merge "$outdir/results.csv" "${files[@]}" --force
fi

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then  # one task of the array
  mkdir -p "$outdir" || exit 3
  "$mad" score --pairs "$list" --shard "$SLURM_ARRAY_TASK_ID/${SLURM_ARRAY_TASK_COUNT:-$shards}" \
    --out "$outdir/shard_$SLURM_ARRAY_TASK_ID.csv" --resume -q "$@"
  rc=$?
  [ $rc -eq 5 ] && rc=0  # some pairs failed: their rows are written, the merge reports them
  exit $rc
fi

# On the login node: submit the array, then the merge after it. The merge job is a --wrap of
# this script, so it does not take the #SBATCH lines above (it needs no GPU).
mkdir -p "$outdir" || exit 3
script=$(realpath "$0") list=$(realpath "$list") outdir=$(realpath "$outdir")
array=$(sbatch --parsable --array="1-$shards" "$script" "$list" "$outdir" "$shards" "$@") || exit 4
array=${array%%;*}  # --parsable prints JOBID or JOBID;CLUSTER
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=mad-merge --time=00:30:00 \
  --output="$outdir/merge-%j.log" --export=ALL,MAD_MERGE=1 \
  --wrap="$(printf '%q ' "$script" "$list" "$outdir" "$shards")") || exit 4
echo "submitted: array job $array ($shards shards), merge job ${merge%%;*} into $outdir/results.csv"
