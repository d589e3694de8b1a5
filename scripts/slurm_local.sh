#!/usr/bin/env bash
# A one-machine Slurm cluster, for trying `ajedrecista cluster` without a
# cluster: munged, slurmctld and slurmd on localhost, from Debian's
# packages (slurm-wlm, munge, installed if missing), configured in a scratch
# folder. Needs root (the daemons run as root here).
#
#   scripts/slurm_local.sh start [DIR]   # prints the SLURM_CONF to export
#   scripts/slurm_local.sh stop [DIR]
#
# DIR defaults to $SLURM_LOCAL_DIR, else /tmp/ajedrecista-slurm. Jobs run on
# this machine's cores and memory, in one partition, `local`.
set -euo pipefail

cmd=${1:?usage: scripts/slurm_local.sh start|stop [DIR]}
dir=$(realpath -m "${2:-${SLURM_LOCAL_DIR:-/tmp/ajedrecista-slurm}}")
conf=$dir/slurm.conf

stop_pid() { # pid file
    if [ -f "$1" ]; then
        local pid
        pid=$(cat "$1")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        rm -f "$1"
    fi
}

case $cmd in
start)
    if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
    fi
    mkdir -p "$dir"/state "$dir"/spool "$dir"/log "$dir"/run
    chmod 700 "$dir"/run
    [ -f "$dir/munge.key" ] || mungekey --create --keyfile="$dir/munge.key"
    chmod 600 "$dir/munge.key"
    munged --force --key-file="$dir/munge.key" --socket="$dir/run/munge.socket" \
        --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/run/munged.seed"
    cores=$(nproc)
    memory=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024 - 512))
    cat >"$conf" <<EOF
ClusterName=ajedrecista
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/run/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
NodeName=localhost CPUs=$cores RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    slurmctld -f "$conf"
    slurmd -f "$conf" -N localhost
    export SLURM_CONF=$conf
    for _ in $(seq 100); do
        state=$(sinfo -h -o %t 2>/dev/null || true)
        [ "$state" = idle ] && break
        sleep 0.2
    done
    [ "$state" = idle ] || { echo "slurm_local: the node is ${state:-not up}; see $dir/log" >&2; exit 1; }
    echo "export SLURM_CONF=$conf"
    ;;
stop)
    stop_pid "$dir/run/slurmd.pid"
    stop_pid "$dir/run/slurmctld.pid"
    stop_pid "$dir/run/munged.pid"
    ;;
*)
    echo "usage: scripts/slurm_local.sh start|stop [DIR]" >&2
    exit 2
    ;;
esac
