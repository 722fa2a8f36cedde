#!/usr/bin/env python3
"""Run Debian's ScaLAPACK test drivers plainly and under mpicheck.

Usage: tests/scalapack.py --flavor openmpi|mpich [--build-dir DIR] [--results FILE.jsonl]
                          [--jobs N] [--np N] [--timeout S] [--limit S] [NAME ...]

The drivers come from Debian's scalapack-mpi-test package (apt-get install
scalapack-mpi-test): the BLACS tester (xCbtest, xFbtest), the PBLAS testers
and ScaLAPACK's own drivers (LU, Cholesky, QR, eigen- and singular-value
solvers...), built once against each MPI. They are correct programs that
exercise what BLAS-style libraries do with MPI: grids of communicators from
MPI_Comm_split, derived datatypes for matrix blocks, broadcasts along rows
and columns with point-to-point trees, combines with user operations. Each
driver runs at the process count its CTestTestfile.cmake gives (4; --np
changes it, and the drivers skip the grids that need more), plainly
and under the checker (strict mode, --timeout=3), in a copy of its folder
(some write files). A driver whose plain run succeeds must be silent under
the checker: any finding, another exit code or a run over 5x is listed as
"differs" or "slow".
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
TESTS = "/usr/lib/x86_64-linux-gnu/scalapack/%s-tests"


def drivers(root):
    """(folder, program) of every test the package's CTestTestfile.cmake files name."""
    out = []
    for sub in ("BLACS", "PBLAS", ""):
        ctest = os.path.join(root, sub, "CTestTestfile.cmake")
        if not os.path.exists(ctest):
            continue
        with open(ctest) as f:
            for name in re.findall(r'add_test\((\w+) ', f.read()):
                out.append((sub, name))
    return out


def verdicts(out):
    """(passed, failed): the cases a driver's output says passed and failed: the
    PASSED/FAILED words of its tables and checks, and the counts of its summaries
    ("50 PASSED", "240 tests completed and passed residual checks")."""
    counts = [0, 0]
    for line in out.splitlines():
        if "TOTAL TESTS" in line:        # a table's header
            continue
        for i, word in enumerate(("passed", "failed")):
            n = re.findall(r"(?<![\d.])(\d+)\s+(?:tests completed and )?%s\b" % word, line, re.I)
            counts[i] += sum(map(int, n)) if n else len(re.findall(r"\b%s\b" % word.upper(), line))
    return tuple(counts)


def same_verdicts(v, aborts_by_design):
    """The plain and the checked run report the same cases passed and failed.
    A driver that ends in MPI_Abort may lose its last lines of output either
    way (the processes are killed while rank 0 prints): 2 passes either side."""
    (plain_pass, plain_fail), (checked_pass, checked_fail) = v
    slack = 2 if aborts_by_design else 0
    return plain_fail == checked_fail and abs(plain_pass - checked_pass) <= slack


def run(a, sub, name, env, launch):
    r = {"test": (sub + "/" if sub else "") + name}
    work = os.path.join(a.workdir, sub)
    t = time.time()
    p = subprocess.run(["timeout", "-k", "5", str(a.limit)] + launch + ["./" + name], env=env,
                       capture_output=True, text=True, cwd=work)
    r["plain_rc"], r["plain_s"] = p.returncode, round(time.time() - t, 2)
    plain_verdicts = verdicts(p.stdout)
    # The BLACS testers end with BLACS_ABORT on purpose (MPI_Abort, exit 255).
    aborts_by_design = "The final auxiliary test is for BLACS_ABORT" in p.stdout
    report = os.path.join(a.workdir, name + ".json")
    if os.path.exists(report):
        os.unlink(report)
    t = time.time()
    p = subprocess.run(["timeout", "-k", "5", str(6 * a.limit), a.mpicheck, "--timeout=%g" % a.timeout,
                        "--report=" + report, "--"] + launch[1:] + ["./" + name],
                       env=env, capture_output=True, text=True, cwd=work)
    r["checked_rc"], r["checked_s"] = p.returncode, round(time.time() - t, 2)
    r["verdicts"] = [plain_verdicts, verdicts(p.stdout)]
    try:
        with open(report) as f:
            d = json.load(f)
        r["findings"] = sorted({f["class"] + ":" + f["severity"] for f in d["findings"]})
    except (OSError, ValueError, KeyError):
        r["findings"] = None      # no report: the checker did not run to its end
    if r["findings"] != []:
        r["stderr"] = "\n".join(l for l in p.stderr.splitlines() if l.startswith("mpicheck"))[-3000:]
    if (r["plain_rc"] != 0 and not aborts_by_design) or plain_verdicts[1]:
        r["status"] = "fails-plainly"
    elif r["findings"] != [] or r["checked_rc"] != r["plain_rc"] or not same_verdicts(r["verdicts"], aborts_by_design):
        r["status"] = "differs"
    elif r["checked_s"] > 5 * max(r["plain_s"], 1.0):
        r["status"] = "slow"
    else:
        r["status"] = "silent"
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flavor", required=True, choices=["openmpi", "mpich"])
    ap.add_argument("--build-dir")
    ap.add_argument("--results")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=3)
    ap.add_argument("--limit", type=int, default=120, help="seconds a plain run may take")
    ap.add_argument("--np", type=int, default=4,
                    help="processes (4 as the package's tests; MPICH spins, so 2 on a 2-core machine)")
    ap.add_argument("names", nargs="*", help="only these drivers")
    a = ap.parse_args()
    root = TESTS % a.flavor
    if not os.path.isdir(root):
        sys.exit("scalapack: %s is missing (apt-get install scalapack-mpi-test)" % root)
    build = os.path.abspath(a.build_dir or os.path.join(here, "..", "build", a.flavor))
    a.mpicheck = os.path.join(build, "src", "mpicheck")
    if not os.access(a.mpicheck, os.X_OK):
        sys.exit("scalapack: no mpicheck in %s/src (build the checker first)" % build)
    a.workdir = os.path.join(build, "scalapack-run")
    shutil.rmtree(a.workdir, ignore_errors=True)
    shutil.copytree(root, a.workdir)     # the .dat files are relative links
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env["MPICHECK_INTERNAL_LIB_" + a.flavor.upper()] = os.path.join(build, "src", ".libs", "libmpicheck.so")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    launch = (["mpirun.openmpi", "--oversubscribe", "-np", str(a.np)] if a.flavor == "openmpi"
              else ["mpirun.mpich", "-np", str(a.np)])
    todo = [(s, n) for s, n in drivers(root) if not a.names or n in a.names]
    out = open(a.results, "w") if a.results else None
    counts = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for r in ex.map(lambda sn: run(a, sn[0], sn[1], env, launch), todo):
            counts[r["status"]] = counts.get(r["status"], 0) + 1
            print("%-13s %-22s plain %3d %6.1fs  checked %3d %6.1fs  %s" % (
                r["status"].upper(), r["test"], r["plain_rc"], r["plain_s"], r["checked_rc"],
                r["checked_s"], " ".join(r["findings"] or []) if r["findings"] is not None else "NO REPORT"),
                flush=True)
            if r.get("stderr") and r["status"] != "fails-plainly":
                print(r["stderr"], flush=True)
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    print("scalapack (%s): %s" % (a.flavor, ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items()))))
    return 1 if counts.get("differs") else 0


if __name__ == "__main__":
    sys.exit(main())
