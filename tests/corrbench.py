#!/usr/bin/env python3
"""Run MPI-CorrBench's micro-benchmarks plainly and under mpicheck.

  tests/corrbench.py --flavor openmpi|mpich --src CORRBENCH_CHECKOUT
                     [--build-dir build/FLAVOR] [--dirs correct,pt2pt,...]
                     [--results FILE.jsonl] [--jobs N] [--timeout S]

MPI-CorrBench (github.com/tudasc/MPI-Corrbench) is the benchmark of MPI
correctness tools that MUST, ITAC, PARCOACH and MPI-Checker were compared
on: micro-benches/0-level/correct holds correct programs (from MPICH's test
suite), the other directories one error each, named by its kind
(ArgError-, ArgMismatch-, MisplacedCall-, MissingCall-). Every case is
built with the flavor's mpicc as the benchmark's own scripts build it
(-fopenmp -DNUM_THREADS=2 -DBUFFER_LENGTH_INT=10) and run at 2 ranks,
plainly and under the checker (--timeout=3, a hard limit on both runs).
A correct case that passes plainly must be silent; an error case counts as
found when the checker reports anything (docs/corrbench.md has the last
results and what each finding was). It needs a checkout of the benchmark
(the CI machine has none), so it is not part of `make check`.

Standard library only.
"""
import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))


def build_and_run(a, case, bindir, env, launch):
    rel = os.path.relpath(case, a.levels)
    exe = os.path.join(bindir, rel[:-2].replace("/", "__"))
    r = {"case": rel}
    c = subprocess.run(["mpicc." + a.flavor, "-g", "-fopenmp", "-DNUM_THREADS=2",
                        "-DBUFFER_LENGTH_INT=10", "-o", exe, case, "-lm"],
                       env=env, capture_output=True, text=True)
    if c.returncode:
        r["status"] = "does-not-build"
        return r
    t = time.time()
    p = subprocess.run(["timeout", "-k", "5", str(a.limit)] + launch + [exe], env=env,
                       capture_output=True, text=True, cwd=bindir)
    r["plain_rc"], r["plain_s"] = p.returncode, round(time.time() - t, 2)
    report = exe + ".json"
    if os.path.exists(report):
        os.unlink(report)
    t = time.time()
    p = subprocess.run(["timeout", "-k", "5", str(2 * a.limit), a.mpicheck, "--timeout=%g" % a.timeout,
                        "--report=" + report, "--"] + launch[1:] + [exe],
                       env=env, capture_output=True, text=True, cwd=bindir)
    r["checked_rc"], r["checked_s"] = p.returncode, round(time.time() - t, 2)
    try:
        with open(report) as f:
            d = json.load(f)
        r["findings"] = sorted({f["class"] + ":" + f["severity"] for f in d["findings"]})
    except (OSError, ValueError, KeyError):
        r["findings"] = None      # no report: the checker did not run to its end
        r["stderr"] = p.stderr[-400:]
    if rel.startswith("correct/"):
        r["status"] = ("fails-plainly" if r["plain_rc"] != 0
                       else "silent" if r["findings"] == [] and r["checked_rc"] == 0 else "differs")
    else:
        r["status"] = "found" if r["findings"] else "not-found"
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flavor", required=True, choices=["openmpi", "mpich"])
    ap.add_argument("--src", required=True, help="a checkout of MPI-CorrBench")
    ap.add_argument("--build-dir")
    ap.add_argument("--dirs", default="correct,pt2pt,coll,rma,usertypes,conflo")
    ap.add_argument("--results")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=3)
    ap.add_argument("--limit", type=int, default=60, help="seconds a plain run may take")
    a = ap.parse_args()
    a.levels = os.path.join(os.path.abspath(a.src), "micro-benches", "0-level")
    if not os.path.isdir(a.levels):
        sys.exit("corrbench: %s has no micro-benches/0-level (not a checkout of MPI-CorrBench)" % a.src)
    build = os.path.abspath(a.build_dir or os.path.join(here, "..", "build", a.flavor))
    a.mpicheck = os.path.join(build, "src", "mpicheck")
    if not os.access(a.mpicheck, os.X_OK):
        sys.exit("corrbench: no mpicheck in %s/src (build the checker first)" % build)
    env = dict(os.environ, OMP_NUM_THREADS="2",
               CPATH=os.path.join(a.levels, "correct", "include") + ":" + os.path.join(a.levels, "openmp"))
    env["MPICHECK_INTERNAL_LIB_" + a.flavor.upper()] = os.path.join(build, "src", ".libs", "libmpicheck.so")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    launch = (["mpirun.openmpi", "--oversubscribe", "-np", "2"] if a.flavor == "openmpi"
              else ["mpirun.mpich", "-np", "2"])
    cases = []
    for d in a.dirs.split(","):
        for root, _, files in os.walk(os.path.join(a.levels, d)):
            cases += [os.path.join(root, f) for f in files if f.endswith(".c")]
    cases.sort()
    bindir = os.path.join(build, "corrbench-bin")
    os.makedirs(bindir, exist_ok=True)
    out = open(a.results, "w") if a.results else None
    counts = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for r in ex.map(lambda c: build_and_run(a, c, bindir, env, launch), cases):
            key = (r["case"].split("/")[0], r["status"])
            counts[key] = counts.get(key, 0) + 1
            print("%-12s %s %s" % (r["status"].upper(), r["case"], " ".join(r.get("findings") or [])),
                  flush=True)
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    for (d, status), n in sorted(counts.items()):
        print("%-10s %-15s %d" % (d, status, n))
    return 1 if counts.get(("correct", "differs")) else 0


if __name__ == "__main__":
    sys.exit(main())
