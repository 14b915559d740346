#!/bin/bash
# docs/slurm/mad-shards.sh under a real Slurm (issue 39 item 3): a one-node cluster on this
# machine (slurmctld and slurmd on 127.0.0.1, Debian's slurm-wlm), configured in a temporary
# folder, started and stopped here. Authentication is auth/none (no munge daemon): the cluster
# listens on localhost only and lives for the test.
#
#   tests/slurm/mad_shards_under_slurm.sh MAD_BINARY
#
# What it runs (0: a job of one CPU, which mad must see as one: Slurm binds it, task/affinity);
# then, as a user would (the script's #SBATCH lines edited for this cluster: no GPU, one
# CPU a task, and the partition "mad", which is not the default):
#  1. `mad-shards.sh score LIST OUT 3` with a mad that fails shard 2 (exit 3): the merge job,
#     which starts after every task has ended (afterany), names shard 2 and prints the command
#     that reruns it; the test runs that command (task 2 alone: SLURM_ARRAY_TASK_COUNT is 1, N
#     stays 3), and the new merge writes results equal to the whole list scored at once.
#  2. The merge job ran in the partition of the #SBATCH lines (it is the script itself).
#  3. `mad-shards.sh eval DIR OUT 2` with the statistics as a file (-- --json).
# Exit 77 (ctest: skipped) where the daemons cannot be started or do not come up.
set -u
mad=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
source_script=$here/../../docs/slurm/mad-shards.sh
skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAILED: $*"; exit 1; }
for tool in slurmctld slurmd; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || skip "no $tool (apt-get install slurm-wlm)"
done
for tool in sbatch squeue sinfo scontrol python3; do
  command -v "$tool" >/dev/null || skip "no $tool"
done
PATH=$PATH:/usr/sbin

work=$(mktemp -d /tmp/mad_slurm_XXXXXX)
pids=()
cleanup() {
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null; done
  for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

# Two free ports, so that parallel runs of this test (and a real Slurm) do not collide.
read -r ctld_port d_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
node=$(hostname -s)
user=$(id -un)
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<EOF
ClusterName=madtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
MinJobAge=600
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
PartitionName=mad Nodes=$node Default=NO MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
slurmctld -D -i > "$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D > "$work/slurmd.out" 2>&1 &
pids+=($!)
for ((t = 0; t < 60; t++)); do
  state=$(sinfo -h -n "$node" -o %t 2>/dev/null | head -1)
  [ "$state" = idle ] && break
  sleep 0.5
done
if [ "${state:-}" != idle ]; then
  tail -n 5 "$work"/slurmctld.out "$work"/slurmd.out "$work"/*.log 2>/dev/null
  skip "the one-node cluster did not come up (node state '${state:-none}')"
fi
echo "a one-node Slurm is up: $(sinfo --version), node $node, ports $ctld_port/$d_port"

# The script as a user edits it for this cluster.
script=$work/mad-shards.sh
sed -e 's/^#SBATCH --gres=gpu:1$/#SBATCH --partition=mad/' \
  -e 's/^#SBATCH --cpus-per-task=8$/#SBATCH --cpus-per-task=1/' "$source_script" > "$script"
chmod +x "$script"
grep -q '^#SBATCH --partition=mad$' "$script" || fail "the #SBATCH lines of the script changed"

# Waits until none of the given jobs is queued or running (2 minutes at most).
wait_jobs() {
  for ((t = 0; t < 240; t++)); do
    [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ] && return 0
    # afterok after a failed task: Slurm says so, and the job would wait forever.
    squeue -h -j "$1" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied &&
      fail "a job waits on a dependency that can never be satisfied: $(squeue -j "$1")"
    sleep 0.5
  done
  squeue
  fail "jobs $1 did not end in 2 minutes"
}
# The job ids of the array and the merge from the submission's line.
submitted_ids() { sed -n 's/^submitted: array job \([0-9]*\) .* merge job \([0-9]*\) .*/\1,\2/p'; }

cd "$work" || exit 1
"$mad" eval data --make-synthetic --synthetic-refs 3 --synthetic-types 1 --synthetic-size 40x40 \
  -q || fail "the synthetic set"
{
  echo ref,dist
  for f in data/images/I0?_*.png; do
    r=${f%%_*}.png
    echo "$r,$f"
  done
} > list.csv
"$mad" score --backend cpu --pairs "$work/list.csv" --out whole.csv -q || fail "the whole list"

# 0. A job of one CPU of the two: Slurm binds it to that CPU (task/affinity), and mad sizes its
# threads from it (common/allotment.h).
id=$(sbatch --parsable --cpus-per-task=1 --output="$work/one.log" --wrap "$mad eval data \
  --backend cpu --bootstrap 10 --out one.csv --json one.json -q") || fail "sbatch of one CPU"
wait_jobs "$id"
python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["settings"]["allotment"]
print("a job of 1 CPU: mad used", a["cpus"], "CPU(s) from its", a["cpus_from"])
sys.exit(0 if a["cpus"] == 1 and a["cpus_from"] == "affinity mask" else 1)' one.json ||
  fail "a job of one CPU did not run mad on one: $(cat one.log)"

# 1. Shard 2 fails the first time.
cat > failing-mad <<EOF
#!/bin/bash
for a in "\$@"; do [ "\$a" = 2/3 ] && { echo "a crash of shard 2, on purpose" >&2; exit 3; }; done
exec "$mad" "\$@"
EOF
chmod +x failing-mad
out=$(MAD=$work/failing-mad "$script" score list.csv out 3 --backend cpu 2>&1) || fail "submit: $out"
echo "$out"
ids=$(echo "$out" | submitted_ids)
[ -n "$ids" ] || fail "no job ids in: $out"
wait_jobs "$ids"
merge_id=${ids#*,}
log=out/merge-$merge_id.log
[ -f "$log" ] || fail "the merge job left no log (afterany: it must run after a failed task)"
cat "$log"
grep -q "shard 2: its task exited 3" "$log" || fail "the merge did not name the failed shard"
[ ! -e out/results.csv ] || fail "a merge with a failed shard wrote results"
scontrol show job "$merge_id" | grep -q "Partition=mad " ||
  fail "the merge job did not take the #SBATCH partition: $(scontrol show job "$merge_id")"
rerun=$(sed -n 's/^  \(MAD_ARRAY=2 .*\)$/\1/p' "$log")
[ -n "$rerun" ] || fail "no rerun command in the merge's log"
echo "rerunning: $rerun"
export MAD=$mad
out=$(eval "$rerun" 2>&1) || fail "rerun: $out"
echo "$out"
ids=$(echo "$out" | submitted_ids)
wait_jobs "$ids"
cat "out/merge-${ids#*,}.log"
python3 - whole.csv out/results.csv <<'EOF' || fail "the merged rows differ from the whole run's"
import csv, sys
def rows(name):
    with open(name, newline="") as f:
        r = list(csv.reader(f))
    drop = r[0].index("seconds")
    return [[v for i, v in enumerate(row) if i != drop] for row in r]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print(f"{len(b) - 1} merged rows, {len(a) - 1} in the whole run")
sys.exit(0 if a == b and len(a) > 1 else 1)
EOF

# 3. The eval form, its statistics into a file by the merge.
out=$("$script" eval data evalout 2 --backend cpu -- --bootstrap 20 --seed 3 \
  --json "$work/evalout/summary.json" 2>&1) || fail "eval submit: $out"
echo "$out"
ids=$(echo "$out" | submitted_ids)
wait_jobs "$ids"
cat "evalout/merge-${ids#*,}.log"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j["run"]["pairs_in_statistics"] == 15 else 1)' \
  evalout/summary.json || fail "the eval merge's summary"
echo "passed: mad-shards.sh under Slurm ($(sinfo --version))"
