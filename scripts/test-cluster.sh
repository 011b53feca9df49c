#!/usr/bin/env bash
# `npm run test:cluster`: the sweep's Slurm path for real, on a single-node Slurm from Debian's
# packages. Contract: installs slurmctld, slurmd, the Slurm client and munge when missing
# (apt-get; needs root), starts munged and a one-node, cgroup-free Slurm of this host (its own
# config, state and logs under $WORK, found through SLURM_CONF; nothing in /etc/slurm is
# touched), then:
#   1. runs a 50-point sweep locally (--jobs 2), interrupts it with SIGINT and resumes it;
#   2. emits the same spec with --emit slurm into another directory, submits it with
#      `sbatch --wait`, and merges it with the same sweep command (every point is kept);
#   3. checks that the two merged rows.json and rows.csv are byte-identical.
# Stops the daemons it started (by their pid files, munged included) on exit. Exit 0 only when all of it holds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
t0=$(date +%s)
say() { echo "test:cluster: $*"; }

if [ "$(id -u)" -ne 0 ]; then say "needs root (apt-get, munged, slurmd)"; exit 2; fi

# --- install -----------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  say "installing Debian's slurmctld, slurmd, slurm-client and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi

# --- a one-node Slurm of this host ---------------------------------------------------------
WORK=${MANYCORE_CLUSTER_WORK:-/tmp/manycore-cluster-test}
state="$WORK/slurm-state"
stop_daemons() {
  for f in "$state/slurmd.pid" "$state/slurmctld.pid"; do
    if [ -s "$f" ]; then
      pid=$(cat "$f")
      if kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; fi
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$f"
    fi
  done
}
stop_daemons # left over from an earlier run that was killed
rm -rf "$WORK"
mkdir -p "$state/ctld" "$state/spool"
host=$(hostname -s)
node=$(slurmd -C | head -1) # NodeName=<host> CPUs=... RealMemory=... as slurmd sees this machine
cpus=$(echo "$node" | grep -oE 'CPUs=[0-9]+' | cut -d= -f2)
export SLURM_CONF="$state/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=manycore-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${MANYCORE_SLURMCTLD_PORT:-6817}
SlurmdPort=${MANYCORE_SLURMD_PORT:-6818}
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# schedule at once when a task ends (the defaults wait about 2 s between passes)
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0,default_queue_depth=1000
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MaxArraySize=10001
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

# munge: the package's key; one munged (reuse a running one)
if ! pgrep -x munged >/dev/null; then
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
  [ -s /etc/munge/munge.key ] || { mungekey --create --force 2>/dev/null || /usr/sbin/create-munge-key -f; chown munge:munge /etc/munge/munge.key; }
  runuser -u munge -- /usr/sbin/munged
  started_munge=1
fi
stop_all() {
  stop_daemons
  # munged too, when this script started it (its pid file; a munged already running is left alone)
  if [ "${started_munge:-}" = 1 ] && [ -s /run/munge/munged.pid ]; then kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true; fi
}
trap 'stop_all' EXIT
slurmctld
slurmd
say "waiting for node $host ($cpus CPUs) to be idle"
for i in $(seq 120); do
  s=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
  [ "$s" = "idle" ] && break
  if [ "$i" -eq 120 ]; then say "node is '$s' after 60 s"; tail -20 "$state/slurmctld.log" "$state/slurmd.log"; exit 1; fi
  sleep 0.5
done

# --- the sweep --------------------------------------------------------------------------------
if [ "${MANYCORE_SKIP_BUILD:-}" != 1 ]; then flock /tmp/manycore-e2e.lock node scripts/build-node.mjs; fi
manycore=("$(command -v node)" "$root/packages/cli/dist/manycore.mjs")
node "${manycore[1]}" run --workload mpb-pingpong --param iterations=16 --print-experiment >"$WORK/base.json"
spec=(--experiment "$WORK/base.json" --vary workload.params.hops=0,1,2,3,4 --vary workload.params.bytes=0,32,64,128,256,512,1024,2048,4096,8160)

say "local: 50 points, --jobs 2, interrupted with SIGINT after 10 and resumed"
"${manycore[@]}" sweep "${spec[@]}" --out "$WORK/sweep-local" --jobs 2 --quiet &
pid=$!
for _ in $(seq 600); do
  n=$( (find "$WORK/sweep-local/results" -name '[0-9][0-9][0-9][0-9].json' 2>/dev/null || true) | wc -l)
  [ "$n" -ge 10 ] && break
  sleep 0.1
done
kill -INT "$pid"
set +e
wait "$pid"
code=$?
set -e
if [ "$code" -ne 130 ]; then say "the interrupted sweep exited $code, not 130"; exit 1; fi
kept=$(find "$WORK/sweep-local/results" -name '[0-9][0-9][0-9][0-9].json' | wc -l)
if [ "$kept" -ge 50 ]; then say "the sweep finished before the interrupt ($kept points)"; exit 1; fi
"${manycore[@]}" sweep "${spec[@]}" --out "$WORK/sweep-local" --jobs 2 --quiet 2>"$WORK/resume.log" || { cat "$WORK/resume.log"; exit 1; }
grep -q "sweep: 50 points, $kept kept, $((50 - kept)) ran, 0 failed" "$WORK/resume.log" || { say "the resume did not keep the $kept finished points:"; cat "$WORK/resume.log"; exit 1; }
say "resumed: $kept points kept, $((50 - kept)) run"

say "slurm: the same spec as a job array (sbatch --wait)"
"${manycore[@]}" sweep "${spec[@]}" --out "$WORK/sweep-slurm" --emit slurm --manycore "$(printf '%q %q' "${manycore[@]}")"
ts=$(date +%s)
sbatch --wait --quiet "$WORK/sweep-slurm/slurm.sbatch"
say "array of 50 tasks finished in $(($(date +%s) - ts)) s"
"${manycore[@]}" sweep "${spec[@]}" --out "$WORK/sweep-slurm" --quiet 2>"$WORK/merge.log" || { cat "$WORK/merge.log"; exit 1; }
grep -q "sweep: 50 points, 50 kept, 0 ran, 0 failed" "$WORK/merge.log" || { say "the merge ran points itself:"; cat "$WORK/merge.log"; exit 1; }

cmp "$WORK/sweep-local/rows.json" "$WORK/sweep-slurm/rows.json"
cmp "$WORK/sweep-local/rows.csv" "$WORK/sweep-slurm/rows.csv"
rows=$(($(wc -l <"$WORK/sweep-local/rows.csv") - 1))
say "ok: local (interrupted + resumed) and Slurm merged rows are identical ($rows rows of 50 points), $(($(date +%s) - t0)) s in all"
