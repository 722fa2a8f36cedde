#!/bin/sh
# Jobs across nodes (docs/design.md, "Jobs across nodes"): two "nodes" made
# of Linux namespaces, each with its own network (a veth link between them),
# host name, temporary directory and /etc/hosts. mpirun (Open MPI's plm_rsh_agent, Hydra's
# -launcher-exec) reaches the second node through a small script that enters
# its namespaces, as ssh would. The launcher runs on the first node; ranks
# on the second do not see its part directory and relay to it over TCP.
# Checked on the MPI of this build: a deadlock across the nodes (both ranks
# and hosts in the report), a collective mismatch, an error only the second
# node sees, a crash whose waiters are on both nodes (both directions), and
# a correct program (silent, exit 0); no part directory is left on a node.
# Where namespaces cannot be made (no root, no CAP_SYS_ADMIN), it skips with
# the reason; tests/private_dirs.sh still runs the relay without them.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$work/err" ] && tail -25 "$work/err"; }

work=$(mktemp -d "$b/tests/cluster.XXXXXX")
. "$src/tests/netns.sh"
trap 'mc_nodes_down; rm -rf "$work"' EXIT
mc_nodes_up "$work" || {
    echo "SKIP jobs across namespaced nodes: $mc_nodes_why (tests/private_dirs.sh checks the relay without namespaces)"
    exit 77
}
net=$mc_net

case $flavor in
    openmpi)
        MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI
        # shellcheck disable=SC2089
        across() { echo "--mca plm_rsh_agent $work/agent --mca btl_tcp_if_include 10.$net.7.0/24 --mca oob_tcp_if_include 10.$net.7.0/24 --host $1"; } ;;
    *)
        MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH
        across() { echo "-launcher rsh -launcher-exec $work/agent -hosts $1"; } ;;
esac

for p in crash_waiters remote_error ok_ring; do
    $mpicc -g -O0 -o "$work/$p" "$src/tests/cluster/$p.c" 2> "$work/err" || { bad "compile $p"; echo "$pass passed, $fail failed"; exit 1; }
done
for p in deadlock_recv_recv collective_mismatch_root hang_win_fence; do
    $mpicc -g -O0 -o "$work/$p" "$src/tests/programs/$p.c" 2> "$work/err" || { bad "compile $p"; echo "$pass passed, $fail failed"; exit 1; }
done

# run HOSTS NP PROGRAM [ARGS]: mpicheck on nodea, the job across HOSTS;
# its exit code in $rc, the report in $work/r.json, stderr in $work/err.
run() {
    hosts=$1; np=$2; shift 2
    rm -f "$work/r.json"
    # shellcheck disable=SC2046
    rm -f "$work/r.sarif"
    timeout -k 5 120 "$work/node" nodea "$b/src/mpicheck" --timeout=2 --hang-timeout=8 --report="$work/r.json" --sarif="$work/r.sarif" \
        -- $(across "$hosts") -np "$np" "$@" > "$work/out" 2> "$work/err"
    rc=$?
}

# report_has PYTHON-EXPR: the expression holds for the report (tests/report_has.py).
report_has() { python3 "$src/tests/report_has.py" "$work/r.json" "$1"; }

# No part directory may stay on a node (the ranks of nodeb make their own).
no_leftovers() {
    left=$(ls -d "$work"/tmp-nodea/mpicheck.* "$work"/tmp-nodeb/mpicheck.* 2>/dev/null)
    if [ -z "$left" ]; then
        ok "$1: no part directory left on either node"
    else
        bad "$1: left behind: $left ($(ls "$work"/tmp-node*/mpicheck.* | tr '\n' ' '))"
        rm -rf "$work"/tmp-node*/mpicheck.*
    fi
}

run nodea:1,nodeb:1 2 "$work/deadlock_recv_recv"
if [ "$rc" -eq 3 ] && report_has 'sorted((c["rank"], c.get("host"), bool(c["stack"])) for c in calls("deadlock")) == [(0, "nodea", True), (1, "nodeb", True)]' \
   && grep -q 'rank 1 on nodeb: MPI_Recv' "$work/err" && grep -q '"rank 1 on nodeb: MPI_Recv"' "$work/r.sarif"; then
    ok "deadlock across two nodes: both ranks with their hosts and stacks, on the terminal, in JSON and in SARIF (exit $rc)"
else
    bad "deadlock across two nodes: expected exit 3 and ranks 0 on nodea and 1 on nodeb with stacks, got exit $rc"
fi
no_leftovers "deadlock"

run nodea:1,nodeb:2 3 "$work/collective_mismatch_root"
if [ "$rc" -eq 3 ] && report_has 'len(calls("collective-mismatch")) > 0 and any(c.get("host") == "nodeb" for c in calls("collective-mismatch"))'; then
    ok "collective mismatch across two nodes: reported with the ranks of nodeb (exit $rc)"
else
    bad "collective mismatch across two nodes: expected exit 3 and a collective-mismatch naming a rank on nodeb, got exit $rc"
fi

run nodea:2,nodeb:2 4 "$work/remote_error"
if [ "$rc" -eq 3 ] && report_has '[(c["rank"], c.get("host")) for c in calls("invalid-argument")] == [(3, "nodeb")]' \
   && grep -q 'rank 3 on nodeb: MPI_Send' "$work/err"; then
    ok "an error only nodeb's rank makes reaches the report and the terminal (exit $rc)"
else
    bad "an error only nodeb's rank makes: expected exit 3 and invalid-argument from rank 3 on nodeb, got exit $rc"
fi
no_leftovers "an error on nodeb"

for dying in 1 2; do
    run nodea:2,nodeb:2 4 "$work/crash_waiters" "$dying"
    if [ "$rc" -ne 0 ] && report_has "sorted((c['rank'], c.get('host'), c['call']) for c in calls('rank-exit')[1:]) == [(r, 'nodea' if r < 2 else 'nodeb', 'MPI_Recv') for r in range(4) if r != $dying] and calls('rank-exit')[0]['rank'] == $dying" \
       && grep -q "3 rank(s) wait for it" "$work/err"; then
        ok "rank $dying crashes: the report names the 3 waiters in MPI_Recv on both nodes, with hosts (exit $rc)"
    else
        bad "rank $dying crashes: expected a rank-exit naming ranks $(echo 0 1 2 3 | sed "s/$dying //;s/ $dying\$//") waiting in MPI_Recv on nodea and nodeb, got exit $rc"
    fi
done
no_leftovers "crashes"

# A hang the handshakes cannot prove (rank 0 in MPI_Win_fence, rank 1
# waits for its message): the hang watch judges the job from rank 0's
# board and the copy of rank 1's, names both calls and ends the job.
if [ "$flavor" = openmpi ]; then
    echo "note: a hang across the nodes is not tried with Open MPI: its one-sided needs shared memory or an RDMA transport, and a window across TCP nodes fails in MPI_Win_allocate (tests/private_dirs.sh checks the copies of relaying ranks' boards with both MPIs)"
else
    run nodea:1,nodeb:1 2 "$work/hang_win_fence"
    if [ "$rc" -eq 3 ] && report_has "sorted((c['rank'], c.get('host'), c['call'], c['stack'][0]['file'].rsplit('/', 1)[-1] if c['stack'] else None) for c in calls('hang')) == [(0, 'nodea', 'MPI_Win_fence', 'hang_win_fence.c'), (1, 'nodeb', 'MPI_Recv', 'hang_win_fence.c')]"; then
        ok "a hang across two nodes: both ranks' calls with hosts and call sites, the job ended (exit $rc)"
    else
        bad "a hang across two nodes: expected exit 3 and a hang of rank 0 on nodea in MPI_Win_fence and rank 1 on nodeb in MPI_Recv, got exit $rc"
    fi
fi

run nodea:2,nodeb:2 4 "$work/ok_ring"
if [ "$rc" -eq 0 ] && report_has 'fs == []' && grep -q '^mpicheck: no errors found in 4 ranks' "$work/err" \
   && grep -q 'ring done, sum 6, 2 ranks on this node' "$work/out"; then
    ok "a correct program across two nodes: silent, exit 0"
else
    bad "a correct program across two nodes: expected no finding and exit 0, got exit $rc"
fi
# The job's layout in the report: Open MPI's mpirun runs a PMIx server,
# which the checker asks; Hydra has none: the environment gives the local
# rank (MPI_LOCALRANKID), the node's number stays unknown.
if [ "$flavor" = openmpi ]; then
    layout='[("nodea", 0, 0, "pmix"), ("nodea", 0, 1, "pmix"), ("nodeb", 1, 0, "pmix"), ("nodeb", 1, 1, "pmix")]'
else
    layout='[("nodea", None, 0, "environment"), ("nodea", None, 1, "environment"), ("nodeb", None, 0, "environment"), ("nodeb", None, 1, "environment")]'
fi
if report_has "[(p['host'], p['node_id'], p['local_rank'], p['layout']) for p in sorted(r['processes'], key=lambda p: p['rank'])] == $layout"; then
    ok "the report's processes give the job's layout ($([ "$flavor" = openmpi ] && echo "from mpirun's PMIx server" || echo "from Hydra's environment"))"
else
    bad "the report's processes: expected $layout, got $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['processes'])" "$work/r.json" 2>&1)"
fi
no_leftovers "a correct program"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
