#!/usr/bin/env bash
# A real single-node Slurm on localhost for the sweep tests (ctest fixture "slurm"):
#   slurm_fixture.sh start DIR   writes a munge key and slurm.conf under DIR, starts munged,
#                                slurmctld and slurmd, waits until the node is idle
#   slurm_fixture.sh stop DIR    stops the three daemons (by their pid files) and removes DIR
# Everything lives in DIR (sockets, state, spool, logs, ports picked free), so it touches no
# system Slurm or munge. Start failures print the daemons' logs and exit 1: a machine where
# Slurm cannot start fails the test loudly instead of skipping it.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?fixture folder}

stop_all() {
  # Tasks first (their slurmstepd would outlive slurmd), on this test cluster only.
  if [ -f "$dir/slurm.conf" ] && [ -f "$dir/slurmctld.pid" ]; then
    SLURM_CONF="$dir/slurm.conf" timeout 10 scancel --full -u "$(id -un)" 2>/dev/null || true
    sleep 0.5
  fi
  for d in slurmd slurmctld munged; do
    if [ -f "$dir/$d.pid" ]; then
      pid=$(cat "$dir/$d.pid" 2>/dev/null || true)
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
      fi
    fi
  done
}

if [ "$cmd" = stop ]; then
  stop_all
  rm -rf "$dir"
  exit 0
fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

fail() {
  echo "slurm_fixture: $*" >&2
  for log in munged slurmctld slurmd; do
    [ -f "$dir/$log.log" ] && { echo "---- $log.log" >&2; tail -n 30 "$dir/$log.log" >&2; }
  done
  stop_all
  exit 1
}

for tool in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$tool" >/dev/null || fail "$tool not found: packaging/setup.sh installs slurm-wlm and munge"
done

rm -rf "$dir"
mkdir -p "$dir"/{state,spool,munge}
chmod 700 "$dir/munge"
dir=$(cd "$dir" && pwd)
user=$(id -un)
host=$(hostname -s)

# munge: its own key, socket and files, run as this user.
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" \
  || fail "munged did not start"

# Two ports nobody listens on (from /proc/net/tcp), so parallel fixtures do not collide.
free_port() {
  while :; do
    p=$((20000 + RANDOM % 30000))
    hex=$(printf '%04X' "$p")
    grep -q ":$hex " /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$p"; return; }
  done
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$((ctld_port + 1))
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024/2)}' /proc/meminfo)

cat > "$dir/slurm.conf" <<CONF
ClusterName=lwbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SchedulerParameters=sched_interval=1
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=lwbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
echo "$SLURM_CONF" > "$dir/slurm_conf_path"

slurmctld -i -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$host" || fail "slurmd did not start"
for _ in $(seq 150); do
  state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n1 || true)
  case "$state" in idle*) echo "slurm_fixture: single-node Slurm up (SLURM_CONF=$SLURM_CONF, node $host $state)"; exit 0 ;; esac
  sleep 0.2
done
fail "the node did not become idle within 30 s (sinfo says '${state:-nothing}')"
