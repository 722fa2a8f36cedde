#!/bin/sh
# Debian's ScaLAPACK test drivers as correct programs (issue 11's rule:
# silent on what runs correctly plainly): a few drivers of
# tests/scalapack.py each run plainly and under the checker, and must report
# no finding, the same exit code and the same passed and failed cases. With
# Open MPI, at the package's 4 processes: the BLACS tester (grids from
# MPI_Comm_split, derived datatypes for matrix blocks, point-to-point
# broadcast trees, combines), the PBLAS testers, LU and QR. MPICH's ranks
# spin while they wait, so 4 of them on 2 cores take minutes: with MPICH
# the PBLAS testers at 2 processes (1x2 and 2x1 grids). The whole package:
# tests/scalapack.py, results in docs/scalapack.md. Skipped, with the reason,
# where scalapack-mpi-test is not installed (scripts/check installs it).
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}
if [ ! -d "/usr/lib/x86_64-linux-gnu/scalapack/$flavor-tests" ]; then
    echo "SKIP scalapack: no /usr/lib/x86_64-linux-gnu/scalapack/$flavor-tests (Debian: scalapack-mpi-test)"; exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcsl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case $flavor in
    openmpi) set -- --np 4 xCbtest dpb1tst dpb2tst dpb3tst xdlu xdqr ;;
    *) set -- --np 2 dpb1tst dpb2tst dpb3tst ;;
esac
env -u MPICHECK_INTERNAL_LIB_OPENMPI -u MPICHECK_INTERNAL_LIB_MPICH \
    timeout -k 5 600 python3 "$src/tests/scalapack.py" --flavor "$flavor" --build-dir "$b" --limit 60 \
    --results "$tmp/r.jsonl" "$@" > "$tmp/out" 2>&1
python3 - "$tmp/r.jsonl" "$tmp/out" "$#" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])] if open(sys.argv[1]).read().strip() else []
want = int(sys.argv[3]) - 2          # the drivers named (after --np N)
passed = failed = 0
for r in rows:
    cases = r["verdicts"][1][0]
    if r["status"] == "silent" and cases > 0:
        passed += 1
        print("PASS scalapack %s: silent, %d cases passed in both runs (plain %.1f s, checked %.1f s)"
              % (r["test"], cases, r["plain_s"], r["checked_s"]))
    else:
        failed += 1
        print("FAIL scalapack %s: %s, exit %d plainly and %d checked, findings %s, cases passed/failed %s"
              % (r["test"], r["status"], r["plain_rc"], r["checked_rc"], r["findings"], r["verdicts"]))
        if r.get("stderr"):
            print("  | " + r["stderr"].replace("\n", "\n  | "))
if len(rows) != want:
    failed += 1
    print("FAIL scalapack: %d of %d drivers ran" % (len(rows), want))
    print(open(sys.argv[2]).read()[-2000:])
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
