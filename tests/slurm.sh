#!/bin/sh
# mpicheck under Slurm (docs/usage.md, "Clusters"): the test starts a real
# Slurm of its own (Debian's munged, slurmctld and slurmd, configured in a
# temporary directory, on ports of its own) and stops it after. Where the
# namespaces of tests/netns.sh can be made, slurmd runs on two of them
# (nodea, nodeb, their own temporary directories); elsewhere one slurmd runs on this machine.
# Checked on the MPI of this build, with its Slurm plugin (Open MPI: PMIx,
# MPICH: PMI-2): a deadlock under --launcher="srun --mpi=...", a correct
# program and a crash inside an allocation (salloc: the launcher picks srun
# and says so), the exit codes, and that nothing is left behind (no job, no
# process of the program, no part directory).
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$work/err" ] && tail -25 "$work/err"; }
skip() { echo "SKIP Slurm: $1"; exit 77; }

need="slurmctld slurmd srun salloc squeue munged"
missing() { for c in $need; do command -v "$c" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$c" >/dev/null 2>&1 || { echo "$c"; return; }; done; }
PATH=$PATH:/usr/sbin; export PATH
if [ -n "$(missing)" ]; then
    # Debian's Slurm and munge, as root; their services are not started
    # (this test starts its own daemons).
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian's slurmctld, slurmd, slurm-client and munge for this test"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            slurmctld slurmd slurm-client munge > /dev/null 2>&1 || true
    fi
    [ -z "$(missing)" ] || skip "$(missing) is not installed and could not be (Debian: slurmctld slurmd slurm-client munge)"
fi

work=$(mktemp -d "$b/tests/slurm.XXXXXX")
pids=""
. "$src/tests/netns.sh"
ours_stepd() {
    for p in $(pgrep -x slurmstepd); do
        tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -q "^SLURM_CONF=$work/" && echo "$p"
    done
}
stop_all() {
    [ -n "${SLURM_CONF:-}" ] && scancel --quiet --user=root 2>/dev/null
    # A step's slurmstepd may outlive its job briefly: the daemons go when
    # none of this Slurm's is left (at most 60 s; its environment names
    # this test's slurm.conf), so that nothing of this test stays.
    i=0
    while [ $i -lt 120 ] && [ -n "$(ours_stepd)" ]; do sleep 0.5; i=$((i + 1)); done
    [ $i -gt 0 ] && echo "note: waited $((i / 2)) s for the last slurmstepd to end ($(ours_stepd))"
    for p in $pids; do kill "$p" 2>/dev/null; done
    sleep 1
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    [ -f "$work/munged.pid" ] && kill "$(cat "$work/munged.pid")" 2>/dev/null
    mc_nodes_down
    [ -n "${MC_TEST_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap stop_all EXIT

case $flavor in
    openmpi) plugin=pmix; MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) plugin=pmi2; MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac

# The nodes: two namespaces, or this machine.
if mc_nodes_up "$work"; then
    mode=namespaces; on() { n=$1; shift; "$work/node" "$n" "$@"; }
    daemon() { n=$1; shift; exec "$work/node" "$n" "$@"; }
    hosts="nodea nodeb"; ctl="nodea(10.$mc_net.7.1)"; port=6817
    nodelines="NodeName=nodea NodeAddr=10.$mc_net.7.1 CPUs=4
NodeName=nodeb NodeAddr=10.$mc_net.7.2 CPUs=4"
    nnodes=2
else
    echo "note: $mc_nodes_why: one slurmd on this machine instead of two namespaced nodes"
    mode=local; on() { shift; "$@"; }
    daemon() { shift; exec "$@"; }
    hosts="mcnode"; ctl="$(hostname)(127.0.0.1)"; port=$((17000 + ($$ % 1000) * 2))
    nodelines="NodeName=mcnode NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=8"
    nnodes=1
fi

head -c 1024 /dev/urandom > "$work/munge.key"; chmod 600 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/munge.socket" --pid-file="$work/munged.pid" \
    --log-file="$work/munged.log" --seed-file="$work/munged.seed" 2> "$work/err" \
    || { bad "munged does not start: $(cat "$work/err")"; echo "$pass passed, $fail failed"; exit 1; }
mkdir -p "$work/state"
for h in $hosts; do mkdir -p "$work/spool-$h"; done
cat > "$work/slurm.conf" <<EOF
ClusterName=mctest
SlurmctldHost=$ctl
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool-%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
$nodelines
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
SLURM_CONF=$work/slurm.conf; export SLURM_CONF
srun --mpi=list 2>&1 | sed 's/^srun://' | tr -d ' \t' | grep -qx "$plugin" \
    || skip "this Slurm's srun has no $plugin plugin (srun --mpi=list), which $flavor needs"
first=$(echo "$hosts" | cut -d' ' -f1)
# daemon: the background subshell becomes the daemon (its pid in $!).
daemon "$first" slurmctld -D -f "$SLURM_CONF" > "$work/slurmctld.out" 2>&1 &
pids="$pids $!"
for h in $hosts; do
    daemon "$h" slurmd -D -N "$h" -f "$SLURM_CONF" > "$work/slurmd-$h.out" 2>&1 &
    pids="$pids $!"
done
i=0
while [ "$(on "$first" sinfo -h -o '%t' 2>/dev/null | sort -u)" != idle ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
if [ "$(on "$first" sinfo -h -o '%t' 2>/dev/null | sort -u)" != idle ]; then
    bad "Slurm's nodes did not come up ($mode): $(on "$first" sinfo 2>&1 | tail -2); $(tail -3 "$work/slurmctld.log" 2>/dev/null)"
    echo "$pass passed, $fail failed"; exit 1
fi
echo "note: Slurm is up with $nnodes node(s) ($mode): $hosts"

for p in crash_waiters ok_ring; do
    $mpicc -g -O0 -o "$work/$p" "$src/tests/cluster/$p.c" 2> "$work/err" || { bad "compile $p"; echo "$pass passed, $fail failed"; exit 1; }
done
$mpicc -g -O0 -o "$work/deadlock_recv_recv" "$src/tests/programs/deadlock_recv_recv.c" 2> "$work/err" \
    || { bad "compile deadlock_recv_recv"; echo "$pass passed, $fail failed"; exit 1; }

report_has() { python3 "$src/tests/report_has.py" "$work/r.json" "$1"; }
# Nothing of a run may stay: no job, no process of the program, no part
# directory in any node's temporary directory (or this machine's TMPDIR).
nothing_left() {
    i=0
    while [ -n "$(on "$first" squeue -h 2>/dev/null)" ] && [ $i -lt 40 ]; do sleep 0.5; i=$((i + 1)); done
    left="$(on "$first" squeue -h 2>/dev/null)$(pgrep -f "^$work/" 2>/dev/null | tr '\n' ' ')"
    left="$left$(ls -d "$work"/tmp-node*/mpicheck.* "$work"/tmpdir/mpicheck.* 2>/dev/null | tr '\n' ' ')"
    if [ -z "$left" ]; then
        ok "$1: no job, process or part directory left"
    else
        bad "$1: left behind: $left"
        rm -rf "$work"/tmp-node*/mpicheck.* "$work"/tmpdir/mpicheck.*
    fi
}
mkdir -p "$work/tmpdir"
# run CMD...: on the first node, stderr in err, exit code in rc. There the
# launcher's part directory is in the node's own TMPDIR; on this machine in a
# TMPDIR of the test's.
run() {
    rm -f "$work/r.json"
    if [ "$mode" = namespaces ]; then
        timeout -k 5 180 "$work/node" "$first" "$@" > "$work/out" 2> "$work/err"
    else
        TMPDIR=$work/tmpdir timeout -k 5 180 "$@" > "$work/out" 2> "$work/err"
    fi
    rc=$?
}
# Where each rank of a 4-rank job across the nodes runs (block order).
host_of() { if [ "$nnodes" -eq 2 ]; then [ "$1" -lt 2 ] && echo nodea || echo nodeb; else echo ""; fi; }
N="-N $nnodes"
alloc4=$([ "$nnodes" -eq 2 ] && echo "-N 2 --ntasks-per-node=2" || echo "-n 4")

run "$b/src/mpicheck" --launcher="srun --mpi=$plugin" --timeout=2 --report="$work/r.json" -- $N -n 2 "$work/deadlock_recv_recv"
expect_hosts=$([ "$nnodes" -eq 2 ] && echo '[(0, "nodea"), (1, "nodeb")]' || echo '[(0, None), (1, None)]')
if [ "$rc" -eq 3 ] && report_has "sorted((c['rank'], c.get('host')) for c in calls('deadlock')) == $expect_hosts"; then
    ok "--launcher=\"srun --mpi=$plugin\": a deadlock across $nnodes node(s), both ranks named (exit $rc)"
else
    bad "--launcher=\"srun --mpi=$plugin\": expected exit 3 and a deadlock of ranks 0 and 1, got exit $rc"
fi
nothing_left "srun deadlock"

run salloc $alloc4 "$b/src/mpicheck" --timeout=2 --report="$work/r.json" -np 4 "$work/ok_ring"
if [ "$rc" -eq 0 ] && report_has 'fs == []' && grep -q "inside Slurm job [0-9]*: starting the ranks with 'srun --kill-on-bad-exit=1 --mpi=$plugin'" "$work/err" \
   && grep -q "ring done, sum 6" "$work/out"; then
    ok "in an allocation (salloc): mpicheck picks 'srun --kill-on-bad-exit=1 --mpi=$plugin', says so, and a correct program is silent (exit 0)"
else
    bad "in an allocation: expected the note on srun, no finding and exit 0, got exit $rc"
fi
# The layout: Slurm's PMIx server (Open MPI), or SLURM_NODEID and
# SLURM_LOCALID (MPICH with PMI-2).
src_layout=$([ "$plugin" = pmix ] && echo pmix || echo environment)
if [ "$nnodes" -eq 2 ]; then
    expect="[('nodea', 0, 0), ('nodea', 0, 1), ('nodeb', 1, 0), ('nodeb', 1, 1)]"
    got="[(p['host'], p['node_id'], p['local_rank']) for p in sorted(r['processes'], key=lambda p: p['rank'])]"
else
    expect="[(0, 0), (0, 1), (0, 2), (0, 3)]"
    got="[(p['node_id'], p['local_rank']) for p in sorted(r['processes'], key=lambda p: p['rank'])]"
fi
if report_has "$got == $expect and all(p['layout'] == '$src_layout' for p in r['processes'])"; then
    ok "the report's processes give the job's layout (from $src_layout)"
else
    bad "the report's processes: expected $expect from $src_layout, got $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['processes'])" "$work/r.json" 2>&1)"
fi
nothing_left "salloc, correct program"

run salloc $alloc4 "$b/src/mpicheck" --timeout=2 --hang-timeout=5 --report="$work/r.json" -np 4 "$work/crash_waiters" 1
if [ "$rc" -eq 3 ] && report_has "sorted((c['rank'], c.get('host'), c['call']) for c in calls('rank-exit')[1:]) == [(r, '$(host_of 0)' or None, 'MPI_Recv') if r < 2 else (r, '$(host_of 2)' or None, 'MPI_Recv') for r in (0, 2, 3)]"; then
    ok "in an allocation, rank 1 crashes: its 3 waiters named$([ "$nnodes" -eq 2 ] && echo " on both nodes"), the job ended (exit $rc)"
else
    bad "in an allocation, rank 1 crashes: expected exit 3 (srun ends the step: --kill-on-bad-exit) and a rank-exit naming ranks 0, 2 and 3 in MPI_Recv, got exit $rc"
fi
nothing_left "salloc, crash"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
