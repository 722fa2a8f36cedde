#!/bin/sh
# Python programs with mpi4py under mpicheck (issue 15, item 3): the
# launcher finds which MPI the mpi4py module links (no --mpi needed), a
# recv-recv deadlock is reported although mpi4py asks for
# MPI_THREAD_MULTIPLE, with both ranks' script line (recv_recv.py:7) as
# the innermost frame of their calls, a correct ring is silent, and an
# unsafe exchange is a potential deadlock (strict mode stays on while the
# script runs no thread of its own). Skipped, with the
# reason, where the interpreter has no mpi4py for this build's MPI (Debian's
# python3-mpi4py is built for Open MPI).
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case $flavor in
    openmpi) extra="--oversubscribe"; lib=libmpi.so
             MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; lib=libmpich.so
       MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
mod=$($py -c 'import glob, os, mpi4py; print(*glob.glob(os.path.join(os.path.dirname(mpi4py.__file__), "MPI*.so")))' 2>/dev/null)
if [ -z "$mod" ]; then
    echo "SKIP mpi4py: $py has no mpi4py (Debian: python3-mpi4py)"; exit 77
fi
if ! LD_PRELOAD= ldd $mod 2>/dev/null | grep -q "$lib"; then
    echo "SKIP mpi4py: its module ($mod) is built for another MPI than $flavor"; exit 77
fi
pass=0; fail=0
# shellcheck disable=SC2086
timeout -k 5 60 "$b/src/mpicheck" --timeout=2 --report="$tmp/dl.json" -- $extra -np 2 $py "$src/tests/python/recv_recv.py" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 3 ] && grep -q '"class": *"deadlock"' "$tmp/dl.json"; then
    pass=$((pass + 1)); echo "PASS mpi4py recv-recv: deadlock reported (exit 3), MPI found without --mpi"
else
    fail=$((fail + 1)); echo "FAIL mpi4py recv-recv: exit $rc, no deadlock in the report"; tail -15 "$tmp/err"
fi
# Each rank's call starts at the script's line, the sending rank's too
# (its Python frames travel to the reporting rank as text).
lines=$($py -c '
import json, sys
d = json.load(open(sys.argv[1]))
calls = [c for f in d["findings"] if f["class"] == "deadlock" for c in f["calls"]]
print(sum(1 for c in calls if c.get("stack") and c["stack"][0].get("file", "").endswith("recv_recv.py")
          and c["stack"][0].get("line") == 7), len(calls))' "$tmp/dl.json" 2>/dev/null)
if [ "$lines" = "2 2" ]; then
    pass=$((pass + 1)); echo "PASS mpi4py script lines: both ranks' calls start at recv_recv.py:7"
else
    fail=$((fail + 1)); echo "FAIL mpi4py script lines: calls at recv_recv.py:7, of all: ${lines:-none}"
fi
# shellcheck disable=SC2086
timeout -k 5 60 "$b/src/mpicheck" --timeout=2 --report="$tmp/ok.json" -- $extra -np 3 $py "$src/tests/python/ring_ok.py" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '"findings": *\[ *\]' "$tmp/ok.json" && ! grep -q "TEST FAILED" "$tmp/err"; then
    pass=$((pass + 1)); echo "PASS mpi4py ring: no finding, exit 0"
else
    fail=$((fail + 1)); echo "FAIL mpi4py ring: exit $rc"; tail -15 "$tmp/err"; head -c 1500 "$tmp/ok.json"
fi
# shellcheck disable=SC2086
timeout -k 5 60 "$b/src/mpicheck" --timeout=2 --report="$tmp/pd.json" -- $extra -np 2 $py "$src/tests/python/unsafe_exchange.py" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && $py -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["class"] == "potential-deadlock"]
sys.exit(0 if len(f) == 1 and f[0]["ranks"] == [0, 1] else 1)' "$tmp/pd.json"; then
    pass=$((pass + 1)); echo "PASS mpi4py unsafe exchange: potential deadlock of ranks 0 and 1 (a warning, exit 0)"
else
    fail=$((fail + 1)); echo "FAIL mpi4py unsafe exchange: exit $rc, no potential-deadlock of ranks 0 and 1"; tail -15 "$tmp/err"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
