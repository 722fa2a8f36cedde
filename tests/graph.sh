#!/bin/sh
# --graph=FILE: a deadlock's wait-for graph as Graphviz DOT, well-formed
# (graphviz's dot accepts it and renders the SVG), with the deadlocked ranks'
# edges; no file when there is no deadlock.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcgraph.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -20 "$tmp/err"; }
case $flavor in
    openmpi) extra="--oversubscribe"; MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
$mpicc -g -O0 -o "$tmp/rr" "$src/tests/programs/deadlock_recv_recv.c" 2> "$tmp/err" || { bad "compile"; echo "$pass passed, $fail failed"; exit 1; }
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --timeout=1 --graph="$tmp/g.dot" -- $extra -np 2 "$tmp/rr" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 3 ] && head -1 "$tmp/g.dot" 2>/dev/null | grep -q '^digraph deadlock {$' \
   && grep -q '^  r0 -> r1;$' "$tmp/g.dot" && grep -q '^  r1 -> r0;$' "$tmp/g.dot" \
   && grep -q 'rank 0\\nMPI_Recv\\ndeadlock_recv_recv.c:' "$tmp/g.dot"; then
    ok "--graph: DOT file with both ranks' calls and the cycle (exit $rc)"
else
    bad "--graph: expected exit 3 and a DOT file with r0 -> r1 and r1 -> r0, got exit $rc"
    cat "$tmp/g.dot" 2>/dev/null
fi
if ! command -v dot >/dev/null 2>&1; then
    bad "graphviz's dot is not installed (./scripts/check installs it): the DOT file cannot be validated"
elif dot -Tsvg "$tmp/g.dot" -o "$tmp/check.svg" 2> "$tmp/doterr" && [ -s "$tmp/g.dot.svg" ] \
     && grep -q '<svg' "$tmp/g.dot.svg"; then
    ok "--graph: dot accepts the file, and mpicheck rendered FILE.svg"
else
    bad "--graph: dot rejects the file or no FILE.svg: $(cat "$tmp/doterr")"
fi
$mpicc -g -O0 -o "$tmp/okp" "$src/tests/programs/deadlock_ok_sendrecv_ring.c" 2> "$tmp/err"
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --timeout=1 --graph="$tmp/none.dot" -- $extra -np 4 "$tmp/okp" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -e "$tmp/none.dot" ] && grep -q 'no deadlock was found: no graph written' "$tmp/err"; then
    ok "--graph without a deadlock: no file, and mpicheck says so"
else
    bad "--graph without a deadlock: expected exit 0, no file and a note, got exit $rc"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
