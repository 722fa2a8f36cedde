#!/bin/sh
# A program of Fortran and C (tests/fortran/): Fortran starts MPI and calls C,
# which calls MPI with a Fortran handle. Each call is checked once, under the
# name and at the line its own language wrote: exactly two resource-leak
# findings, MPI_COMM_DUP at mixed_main.f90 and MPI_Comm_dup at mixed_c.c,
# and no type-mismatch for MPI_INTEGER sent and MPI_INT received. A hang
# and an early exit name their Fortran calls too. The Fortran
# programs of tests/programs/ cover the rest (tests/programs.sh).
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
mpifort=${MPIFORT:-$(echo "$mpicc" | sed 's/mpicc/mpif90/')}
if ! command -v "$mpifort" > /dev/null 2>&1; then
    echo "SKIP: tests/fortran.sh: the MPI Fortran compiler $mpifort is not installed"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcfortran.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -30 "$tmp/err"; }
case $flavor in
    openmpi) MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI; over=--oversubscribe ;;
    *) MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH; over= ;;
esac
if ! $mpicc -g -O0 -c -o "$tmp/mixed_c.o" "$src/tests/fortran/mixed_c.c" 2> "$tmp/err" ||
   ! (cd "$tmp" && $mpifort -g -O0 -o mixed "$src/tests/fortran/mixed_main.f90" mixed_c.o) 2>> "$tmp/err"; then
    bad "build the mixed C/Fortran program"
    echo "$pass passed, $fail failed"; exit 1
fi
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --timeout=3 --report="$tmp/r.json" -- $over -np 3 "$tmp/mixed" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^mpicheck: WARNING resource-leak' "$tmp/err"; then
    ok "the mixed program's leaks are reported as warnings (exit 0)"
else
    bad "mixed program: expected resource-leak warnings and exit 0, got rc=$rc"
fi
fline=$(grep -n 'FORTRAN-LEAK' "$src/tests/fortran/mixed_main.f90" | cut -d: -f1)
cline=$(grep -n 'C-LEAK' "$src/tests/fortran/mixed_c.c" | cut -d: -f1)
if "${PYTHON:-python3}" - "$tmp/r.json" "$fline" "$cline" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
fline, cline = int(sys.argv[2]), int(sys.argv[3])
classes = sorted(f["class"] for f in d["findings"])
assert classes == ["resource-leak", "resource-leak"], classes
seen = {}
for f in d["findings"]:
    assert sorted(f["ranks"]) == [0, 1, 2], f["ranks"]
    names = {c["call"] for c in f["calls"]}
    assert len(names) == 1, names
    site = next(s for s in f["calls"][0]["stack"] if s.get("file"))
    seen[names.pop()] = (os.path.basename(site["file"]), site["line"])
assert seen == {"MPI_COMM_DUP": ("mixed_main.f90", fline), "MPI_Comm_dup": ("mixed_c.c", cline)}, seen
PY
then
    ok "one finding per call: MPI_COMM_DUP at mixed_main.f90:$fline, MPI_Comm_dup at mixed_c.c:$cline, no type-mismatch"
else
    bad "the mixed program's report (above) is not the two leaks, each once and in its language"
fi
# The launcher's hang report and a rank-exit finding name Fortran calls as
# Fortran does (their names come from the ranks' boards).
for prog in hang_fence exit_early; do
    if ! (cd "$tmp" && $mpifort -g -O0 -o "$prog" "$src/tests/fortran/$prog.f90") 2> "$tmp/err"; then
        bad "build tests/fortran/$prog.f90"
        continue
    fi
    # shellcheck disable=SC2086
    timeout -k 5 120 "$b/src/mpicheck" --timeout=1 -- $over -np 2 "$tmp/$prog" > "$tmp/out" 2> "$tmp/err"
    case $prog in
        hang_fence) want='^mpicheck:   the job hung: .*rank 0[^;]* in MPI_WIN_FENCE [(]hang_fence[.]f90:14[)].*rank 1[^;]* in MPI_RECV [(]hang_fence[.]f90:17[)]' ;;
        exit_early) want='^mpicheck:   rank 1 ended without calling MPI_Finalize .*its last MPI call was MPI_BARRIER at exit_early[.]f90:9' ;;
    esac
    if grep -q "$want" "$tmp/err"; then
        ok "$prog: the report names its Fortran calls as Fortran does, at their lines"
    else
        bad "$prog: no line matching $want"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
