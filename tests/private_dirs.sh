#!/bin/sh
# Ranks that do not see the launcher's part directory, on one machine and
# without namespaces (tests/cluster.sh makes real nodes where it can): the
# odd ranks are started with MPICHECK_DIR naming a directory that does not
# exist, as a node without the launcher's /tmp would see it. Their findings
# and waits must reach the launcher over TCP (report/relay.c ->
# launcher/collect.c): an error only a relaying rank makes, a deadlock, a
# crash of a relaying rank and of a local one with waiters of both kinds,
# and a correct program (silent, exit 0); the relaying ranks create nothing.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpriv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -25 "$tmp/err"; }
case $flavor in
    openmpi) extra="--oversubscribe"; MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
for p in crash_waiters remote_error ok_ring; do
    $mpicc -g -O0 -o "$tmp/$p" "$src/tests/cluster/$p.c" 2> "$tmp/err" || { bad "compile $p"; echo "$pass passed, $fail failed"; exit 1; }
done
for p in deadlock_recv_recv hang_win_fence; do
    $mpicc -g -O0 -o "$tmp/$p" "$src/tests/programs/$p.c" 2> "$tmp/err" || { bad "compile $p"; echo "$pass passed, $fail failed"; exit 1; }
done
# The odd ranks' "node": a part directory that is not there.
cat > "$tmp/odd-elsewhere" <<EOF
#!/bin/sh
r=\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-0}}
[ \$((r % 2)) -eq 1 ] && MPICHECK_DIR="$tmp/not-the-launchers" && export MPICHECK_DIR
exec "\$@"
EOF
chmod +x "$tmp/odd-elsewhere"

run() {
    np=$1; shift
    rm -f "$tmp/r.json"
    # shellcheck disable=SC2086
    timeout -k 5 120 "$b/src/mpicheck" --mpi="$flavor" --timeout=2 --report="$tmp/r.json" \
        -- $extra -np "$np" "$tmp/odd-elsewhere" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
}
report_has() { python3 "$src/tests/report_has.py" "$tmp/r.json" "$1"; }

run 4 "$tmp/remote_error"
if [ "$rc" -eq 3 ] && report_has '[c["rank"] for c in calls("invalid-argument")] == [3]' \
   && grep -q 'rank 3: MPI_Send(.*count=-1' "$tmp/err"; then
    ok "an error only a relaying rank makes reaches the report and the terminal (exit $rc)"
else
    bad "an error only a relaying rank makes: expected exit 3 and invalid-argument from rank 3, got exit $rc"
fi

run 2 "$tmp/deadlock_recv_recv"
if [ "$rc" -eq 3 ] && report_has 'sorted(c["rank"] for c in calls("deadlock")) == [0, 1]'; then
    ok "a deadlock between a local and a relaying rank (exit $rc)"
else
    bad "a deadlock between a local and a relaying rank: expected exit 3 and ranks 0 and 1, got exit $rc"
fi

for dying in 1 2; do
    run 4 "$tmp/crash_waiters" "$dying"
    if [ "$rc" -ne 0 ] && report_has "sorted((c['rank'], c['call']) for c in calls('rank-exit')[1:]) == [(r, 'MPI_Recv') for r in range(4) if r != $dying] and calls('rank-exit')[0]['rank'] == $dying"; then
        ok "rank $dying ($([ "$dying" -eq 1 ] && echo relaying || echo local)) crashes: its 3 waiters, local and relaying, are named (exit $rc)"
    else
        bad "rank $dying crashes: expected a rank-exit naming the other 3 ranks in MPI_Recv, got exit $rc"
    fi
done

run 4 "$tmp/ok_ring"
if [ "$rc" -eq 0 ] && report_has 'fs == []' && grep -q '^mpicheck: no errors found in 4 ranks' "$tmp/err"; then
    ok "a correct program with relaying ranks: silent, exit 0"
else
    bad "a correct program with relaying ranks: expected no finding and exit 0, got exit $rc"
fi
if [ ! -e "$tmp/not-the-launchers" ]; then
    ok "the relaying ranks created nothing on their side"
else
    bad "the relaying ranks left $(ls -R "$tmp/not-the-launchers")"
fi
# A rank that can reach neither the directory nor the launcher (a firewall
# between the nodes) must still show its finding: on its own stderr, with
# a word on why.
cat > "$tmp/odd-cut-off" <<EOF
#!/bin/sh
r=\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-0}}
if [ \$((r % 2)) -eq 1 ]; then
    MPICHECK_DIR="$tmp/not-the-launchers"; MPICHECK_INTERNAL_COLLECTOR="0123abcd@1@127.0.0.1"
    export MPICHECK_DIR MPICHECK_INTERNAL_COLLECTOR
fi
exec "\$@"
EOF
chmod +x "$tmp/odd-cut-off"
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --mpi="$flavor" --timeout=2 -- $extra -np 4 "$tmp/odd-cut-off" "$tmp/remote_error" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
if grep -q "the launcher could not be reached over TCP: this rank's findings are printed here only" "$tmp/err" \
   && grep -q 'rank 3: MPI_Send(.*count=-1' "$tmp/err"; then
    ok "a rank that reaches neither the directory nor the launcher prints its finding itself and says why (exit $rc)"
else
    bad "a rank cut off from the launcher: expected its own message and its finding on stderr, got exit $rc"
fi
# The deadlock's graph from a relaying rank: rank 0, which reports the
# deadlock, is the one elsewhere here; its DOT file reaches --graph.
cat > "$tmp/even-elsewhere" <<EOF
#!/bin/sh
r=\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-0}}
[ \$((r % 2)) -eq 0 ] && MPICHECK_DIR="$tmp/not-the-launchers" && export MPICHECK_DIR
exec "\$@"
EOF
chmod +x "$tmp/even-elsewhere"
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --mpi="$flavor" --timeout=2 --graph="$tmp/g.dot" -- $extra -np 2 \
    "$tmp/even-elsewhere" "$tmp/deadlock_recv_recv" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 3 ] && grep -q '^  r0 -> r1;$' "$tmp/g.dot" 2>/dev/null && grep -q '^  r1 -> r0;$' "$tmp/g.dot"; then
    ok "--graph: the DOT file of a deadlock a relaying rank reported reaches mpicheck (exit $rc)"
else
    bad "--graph from a relaying rank: expected exit 3 and g.dot with r0 -> r1 and r1 -> r0, got exit $rc"
fi
# A hang with a relaying rank: the launcher judges it from the copy of
# that rank's board (its calls, liveness and I/O come with the copy) and
# names its wait's call site, resolved by the rank.
rm -f "$tmp/r.json"
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --mpi="$flavor" --timeout=1 --hang-timeout=4 --report="$tmp/r.json" -- $extra -np 2 \
    "$tmp/odd-elsewhere" "$tmp/hang_win_fence" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 3 ] && report_has "sorted((c['rank'], c['call']) for c in calls('hang')) == [(0, 'MPI_Win_fence'), (1, 'MPI_Recv')] and [c['stack'][0]['file'].endswith('hang_win_fence.c') for c in calls('hang') if c['rank'] == 1] == [True]"; then
    ok "a hang with a relaying rank: both calls, the relaying rank's with its call site (exit $rc)"
else
    bad "a hang with a relaying rank: expected exit 3 and a hang naming rank 0 in MPI_Win_fence and rank 1 in MPI_Recv at hang_win_fence.c, got exit $rc"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
