#!/bin/sh
# rank-exit preloaded by hand (one process, MPI_Init as a singleton), where
# the process's own exit status is the gate:
#  1. MPI_Finalize called from an exit handler registered before MPI_Init
#     (a C++ global whose destructor finalizes, as BAGEL's does): exit
#     status 0, no rank-exit. The checker's exit check is registered in its
#     constructor, so it runs after the program's handlers
#     (src/core/rank_exit.c); registered at MPI_Init it ran before them.
#  2. No MPI_Finalize at all: the rank-exit finding, and the checker's
#     error exit code (3), which the exit check must set before the
#     handler that ends the process with it runs.
# tests/programs/rank_exit_ok_finalize_at_exit.c is case 1 under mpicheck.
set -u
b=${top_builddir:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcrankexit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -20 "$tmp/err"; }
lib="$b/src/.libs/libmpicheck.so"
cat > "$tmp/at_exit.c" <<'C'
#include <mpi.h>
#include <stdlib.h>
static void finalize_at_exit(void) { MPI_Finalize(); }
int main(int argc, char **argv)
{
    atexit(finalize_at_exit);   /* before MPI_Init */
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}
C
cat > "$tmp/no_finalize.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;   /* no MPI_Finalize anywhere */
}
C
if ! $mpicc -g -o "$tmp/at_exit" "$tmp/at_exit.c" 2> "$tmp/err" ||
   ! $mpicc -g -o "$tmp/no_finalize" "$tmp/no_finalize.c" 2>> "$tmp/err"; then
    bad "build the programs"
    echo "$pass passed, $fail failed"; exit 1
fi
env LD_PRELOAD="$lib" timeout -k 5 60 "$tmp/at_exit" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q "rank-exit" "$tmp/err"; then
    ok "MPI_Finalize in an exit handler registered before MPI_Init: exit status 0, no rank-exit"
else
    bad "MPI_Finalize in an exit handler registered before MPI_Init: expected exit status 0 and no rank-exit, got $rc"
fi
env LD_PRELOAD="$lib" timeout -k 5 60 "$tmp/no_finalize" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 3 ] && grep -q "ERROR rank-exit" "$tmp/err" && grep -q "without calling MPI_Finalize" "$tmp/err"; then
    ok "no MPI_Finalize: rank-exit reported, exit status 3"
else
    bad "no MPI_Finalize: expected a rank-exit finding and exit status 3, got $rc"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
