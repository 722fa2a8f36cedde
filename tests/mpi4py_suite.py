#!/usr/bin/env python3
"""Run mpi4py's own unit tests plainly and under mpicheck.

  tests/mpi4py_suite.py --src MPI4PY_CHECKOUT [--np 1,2,4] [--mode strict]
                        [--mpicheck build/openmpi/src/mpicheck] [--spawn]
                        [--results FILE.jsonl] [--timeout S]

mpi4py's test/ directory (github.com/mpi4py/mpi4py, the tag of the
installed python3-mpi4py: 3.1.4 on Debian 12) is some 1,400 unit tests of
nearly every MPI call, run by test/runtests.py in every process of the job.
Each test module (test_*.py) runs at each process count twice, plainly and
under the checker (--timeout=5, a hard limit on both runs), and the two are
compared the way unittest judges them: the job's exit status (runtests.py
exits non-zero when a test fails) and no process printing FAILED. A module that passes plainly differs when the checked run
fails, crashes or hangs, or has a finding that is not listed as true in
TRUE_FINDINGS below (docs/mpi4py-suite.md says why each is true).
test_spawn and test_dynproc are left out unless --spawn: Open MPI 4.1's
MPI_Comm_spawn hangs in them without the checker too (docs/mpi4py-suite.md).

Debian builds mpi4py against Open MPI only, so the checker is Open MPI's.
The source is not fetched: Debian's mirror gives no mpi4py source package
here, so it needs a checkout (the CI machine has none), and it is not part
of `make check`; the errors it found have regression programs under
tests/programs.

Standard library only.
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))

# module -> finding classes that are really there (docs/mpi4py-suite.md)
TRUE_FINDINGS = {
    "test_exceptions": {"invalid-argument"},   # MPI_COMM_NULL and the like, on purpose
    "test_msgspec": {"type-mismatch"},          # 15 MPI_DOUBLE received as 120 MPI_UNSIGNED_CHAR
    "test_p2p_buf": {"type-mismatch"},          # MPI_LONG_LONG received as MPI_LONG (as_raw)
    "test_p2p_buf_matched": {"type-mismatch"},
    "test_p2p_obj": {"type-mismatch"},          # MPI_UNSIGNED_CHAR received as MPI_BYTE (testMixed)
    "test_util_pkl5": {"request-free-active"},  # an active MPI_Issend freed (testMProbe)
}

FAILED_RE = re.compile(r"FAILED \(|Traceback \(most recent call last\)")


def run(cmd, env, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
        rc = "timeout"
    return rc, out, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True, help="an mpi4py checkout (its test/ directory is used)")
    ap.add_argument("--np", default="1,2,4")
    ap.add_argument("--mode", default="strict", choices=("strict", "fast"))
    ap.add_argument("--mpicheck", default=os.path.join(here, "..", "build", "openmpi", "src", "mpicheck"))
    ap.add_argument("--python", default="/usr/bin/python3", help="the Python whose mpi4py is tested")
    ap.add_argument("--spawn", action="store_true", help="run test_spawn and test_dynproc too")
    ap.add_argument("--results", help="one JSON line per module and process count")
    ap.add_argument("--timeout", type=float, default=300, help="hard limit of each run (s)")
    a = ap.parse_args()
    tests = os.path.join(a.src, "test")
    if not os.path.isfile(os.path.join(tests, "runtests.py")):
        sys.exit("mpi4py_suite: %s has no test/runtests.py (an mpi4py checkout is needed)" % a.src)
    probe = subprocess.run([a.python, "-c", "import mpi4py"], capture_output=True)
    if probe.returncode != 0:
        sys.exit("mpi4py_suite: %s cannot import mpi4py (apt-get install python3-mpi4py)" % a.python)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    mods = sorted(os.path.basename(f)[:-3] for f in glob.glob(os.path.join(tests, "test_*.py")))
    if not a.spawn:
        mods = [m for m in mods if m not in ("test_spawn", "test_dynproc")]
    out = open(a.results, "w") if a.results else None
    tally = collections.Counter()
    differ = []
    for np_ in [int(x) for x in a.np.split(",")]:
        for m in mods:
            prog = [a.python, os.path.join(tests, "runtests.py"), "-i", m]
            launch = ["--oversubscribe", "-np", str(np_)]
            prc, pout, pt = run(["mpirun.openmpi"] + launch + prog, env, a.timeout)
            report = "/tmp/mpi4py-suite-%d.json" % os.getpid()
            crc, cout, ct = run([a.mpicheck, "--mode=" + a.mode, "--timeout=5", "--report=" + report, "--"]
                                + launch + prog, env, a.timeout)
            try:
                with open(report) as f:
                    findings = [x["class"] for x in json.load(f)["findings"]]
                os.unlink(report)
            except (OSError, ValueError, KeyError):
                findings = None
            r = {"module": m, "np": np_, "plain_rc": prc, "checked_rc": crc,
                 "plain_s": round(pt, 2), "checked_s": round(ct, 2),
                 "findings": dict(collections.Counter(findings or []))}
            plain_ok = prc == 0 and not FAILED_RE.search(pout)
            # 3: mpicheck's exit status when it found errors (the true ones included)
            checked_ok = (crc == 0 or (crc == 3 and findings)) and not FAILED_RE.search(cout) \
                and findings is not None
            extra = set(findings or []) - TRUE_FINDINGS.get(m, set())
            if not plain_ok:
                r["status"] = "fails plainly"
            elif not checked_ok or extra:
                r["status"] = "differs"
                r["why"] = ("findings not known true: %s" % sorted(extra)) if checked_ok else \
                    "checked run: exit %s%s" % (crc, ", a test failed" if FAILED_RE.search(cout) else "")
                differ.append(r)
            else:
                r["status"] = "true findings" if findings else "silent"
            tally[r["status"]] += 1
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
            print("%-24s np=%d %-14s plain %.1fs checked %.1fs %s" % (m, np_, r["status"], pt, ct,
                                                                     r["findings"] or ""), flush=True)
    print("\n%d runs: %s" % (sum(tally.values()), ", ".join("%d %s" % (v, k) for k, v in sorted(tally.items()))))
    for r in differ:
        print("DIFFERS %s np=%d: %s" % (r["module"], r["np"], r["why"]))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
