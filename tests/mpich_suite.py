#!/usr/bin/env python3
"""Run MPICH's own test suite (test/mpi) plainly and under mpicheck, and compare.

Usage:
  mpich_suite.py --flavor openmpi|mpich --suite BUILD_DIR --srcdir SRC_DIR
                 --mpicheck PATH [--lib LIBMPICHECK] [--tests FILE]
                 [--lists testlist,testlist.dtp,testlist.cvar] [--dirs coll,pt2pt]
                 [--expected FILE] [--known FILE] [--fail-slow] [--checked-first] [--jobs N]
                 [--timeout S] [--results FILE] [--summary FILE]
                 [--resume FILE[,FILE...]] [--library LABEL] [PATTERN...]

BUILD_DIR is test/mpi configured and built for the flavor's mpicc (see
scripts/mpich-suite), SRC_DIR the unpacked test/mpi source. The tests are
read from the suite's own list files, as MPICH's runtests reads them: the
top-level `testlist` names the directories; each directory's list files
(`testlist`, and those given with --lists; by default testlist.dtp and
testlist.cvar too, as MPICH's `make testing`) name programs with their number
of processes and `key=value` options (arg=, env=, timeLimit=, xfail=,
strict=, mpix=, resultTest=, mem=, mpiexecarg=); an entry that is a
directory is entered with the same list files. With --tests FILE only the
instances FILE lists run (lines `dir/program np [key=value ...]`, as they
appear in the lists; `#` comments).

Every selected instance that is not skipped runs twice in its build
directory, one run after the other in the same worker (--jobs workers run
instances at once, but never two of the `io` directories: their programs
share the file name "testfile"):
  plain:   timeout mpirun -np N [opts] ./program args
  checked: timeout mpicheck --timeout=S --report=R.json -- [opts] -np N ./program args
Its verdict is MPICH's (runtests): the output holds a "No Errors" line, no
other line but "Test Passed", and the exit status is 0. In the checked run
the checker's own lines ("mpicheck: ...") are set aside first.

Skips, each counted with its reason: marked xfail; MPIX tests (mpix=true);
strict=false tests against an MPI other than MPICH; tests that expect the
program to fail (resultTest=); the `errors` directory (programs that pass
invalid arguments on purpose, to test MPI's error returns); programs that
did not build; more memory than the machine has; with an MPI other than
MPICH, an instance that differs from an earlier one only in MPIR_CVAR_
variables (MPICH's algorithm choices, testlist.cvar: the same run there).
A test whose plain run
fails is not compared (counted as "fails plainly").

A compared test DIFFERS when the checked run has any finding that is not
listed in --expected (a true finding of the suite, `dir/program class`
lines with a reason), has a different verdict or exit status, crashed or
hit its time limit. It is SLOW when it ran more than 5x longer than the
plain run (both times floored at 1 s, the launcher's own start-up; a slow
pair is timed once more and the smaller times count; not when the run found
a deadlock or potential deadlock, which is proven after --timeout): listed,
and a failure with --fail-slow only (timings are not asserted in CI). With
--checked-first (the CI subset) the checked run goes first and, when it
passes (the verdict, exit status 0 or 3 with error findings, no finding but
the expected ones), is the result alone, with no plain run and no timing;
otherwise the pair runs as above. --known lists
differences that are not the checker's (`flavor dir/program reason`: a
program that reads memory MPI leaves unset, say): such a test is counted
apart, with its reason, unless the checked run has a finding.

Output: one line per compared or skipped test as it ends, a table per
directory, then every test that differed with the reason, and a last line
"N passed, N failed, N skipped" (passed: compared and not differing;
with --tests, a listed test that fails plainly counts as failed).
--results writes every instance as one JSON line; --summary writes the
table and the differences as Markdown. Exit status 1 when a test differed.

--resume FILE,... carries over the instances that earlier --results files
judged silent, true-findings, fails-plainly or known (the last line for an
instance wins), so that a suite too long for one sitting (MPICH's, run
oversubscribed) is completed over several: those instances are not run
again, they are printed as RESUMED and counted in the table as before, and
the new results file repeats them. Instances that differed or were slow
run again. With --library LABEL (scripts/mpich-suite passes the source
tree's git commit) every new result line names the checker library it was
judged with, so a table built from several sittings says which library
each part comes from.

Standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

from mpich_suite_inputs import collect, read_expected, read_known, read_resumed, read_selection

OPENMPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}
LAUNCHERS = {"openmpi": "mpirun.openmpi", "mpich": "mpirun.mpich"}
DEFAULT_TIME_LIMIT = 180        # runtests' default per test
SLOWDOWN_LIMIT = 5.0
TIME_FLOOR_S = 1.0
NO_ERRORS_RE = re.compile(r"^\s*No [Ee]rrors\s*$")
ALLOWED_RE = re.compile(r"^\s*Test Passed\s*$|^\s*$")
CHECKER_LINE_RE = re.compile(r"^mpicheck[:-]")
KNOWN_STATUS = "not-the-checker"
# --resume carries these over; differing and slow instances run again.
RESUMABLE = ("silent", "true-findings", "fails-plainly", KNOWN_STATUS)
SKIP_DIRS = {"errors": "passes invalid arguments on purpose (tests MPI's error returns)"}

print_lock = threading.Lock()
running = set()                 # process groups of runs under way
running_lock = threading.Lock()
io_lock = threading.Lock()      # held by the test of an io directory that runs


def stop_all(signum, frame):
    """SIGTERM/SIGINT: end the runs this script started (their process
    groups), then leave."""
    with running_lock:
        for pgid in list(running):
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    os._exit(128 + signum)


def same_run_key(test):
    """What a run is for an MPI other than MPICH, which ignores MPIR_CVAR_
    variables: testlist.cvar's algorithm variants repeat a testlist run."""
    env = tuple(e for e in test.env if not e.startswith("MPIR_CVAR_"))
    return (test.dir, test.program, test.np, tuple(test.args), env, tuple(test.mpiexecargs))


def top_dir(test):
    return test.dir.split("/")[0]


def skip_reason(test, suite, flavor, mem_gib):
    if top_dir(test) in SKIP_DIRS:
        return SKIP_DIRS[top_dir(test)]
    if "xfail" in test.opts:
        return "MPICH marks it xfail (%s)" % test.opts["xfail"]
    if test.opts.get("mpix", "").lower() == "true":
        return "MPIX extension"
    if flavor != "mpich" and test.opts.get("strict", "").lower() == "false":
        return "uses MPICH extensions (strict=false)"
    if "resultTest" in test.opts:
        return "expects the program to fail (resultTest=%s)" % test.opts["resultTest"]
    if "mem" in test.opts:
        try:
            if float(test.opts["mem"]) > mem_gib:
                return "needs %s GiB of memory" % test.opts["mem"]
        except ValueError:
            pass
    if not os.access(os.path.join(suite, test.dir, test.program), os.X_OK):
        return "did not build with %s" % flavor
    return None


def verdict(output):
    """MPICH's runtests verdict on a run's output: (passed, first bad line)."""
    found = False
    for line in output.splitlines():
        if NO_ERRORS_RE.match(line) and not found:
            found = True
        elif not ALLOWED_RE.match(line) and "FORTRAN STOP" not in line:
            return False, line.strip()[:200]
    return found, None if found else "no 'No Errors' line"


def run(cmd, cwd, env, limit):
    """Runs cmd in its own session; returns (rc or None on time-out, output, seconds)."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    with running_lock:
        running.add(proc.pid)
    try:
        out, _ = proc.communicate(timeout=limit)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        # Only the process group we started.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                out, _ = proc.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            out = b""
        rc = None
    finally:
        with running_lock:
            running.discard(proc.pid)
    return rc, out.decode("utf-8", "replace"), time.monotonic() - t0


class Runner:
    def __init__(self, a, expected, known):
        self.a = a
        self.expected = expected
        self.known = known
        self.env = dict(os.environ)
        for k in [k for k in self.env if k.startswith("MPICHECK_")]:
            del self.env[k]
        if a.flavor == "openmpi":
            self.env.update(OPENMPI_ENV)
            if a.lib:
                self.env["MPICHECK_INTERNAL_LIB_OPENMPI"] = a.lib
        elif a.lib:
            self.env["MPICHECK_INTERNAL_LIB_MPICH"] = a.lib
        self.launcher_opts = ["--oversubscribe"] if a.flavor == "openmpi" else []

    def test_env(self, test):
        env = dict(self.env)
        for kv in test.env:
            if "=" in kv:
                k, v = kv.split("=", 1)
                env[k] = v
        return env

    def limit(self, test):
        try:
            return int(test.opts.get("timeLimit", DEFAULT_TIME_LIMIT))
        except ValueError:
            return DEFAULT_TIME_LIMIT

    def plain(self, test):
        cmd = [LAUNCHERS[self.a.flavor]] + self.launcher_opts + test.mpiexecargs + \
              ["-np", str(test.np), "./" + test.program] + test.args
        return run(cmd, os.path.join(self.a.suite, test.dir), self.test_env(test), self.limit(test))

    def checked(self, test, report):
        cmd = [self.a.mpicheck, "--timeout=%s" % self.a.timeout, "--report=%s" % report, "--"] + \
              self.launcher_opts + test.mpiexecargs + ["-np", str(test.np), "./" + test.program] + test.args
        # A hang must cost the checker's verdict time, not the test's whole budget twice.
        limit = self.limit(test) + 2 * float(self.a.timeout) + 30
        return run(cmd, os.path.join(self.a.suite, test.dir), self.test_env(test), limit)

    def one(self, test):
        # The I/O tests share their file names ("testfile" in 18 of io's):
        # two at once would read each other's data.
        if os.path.basename(test.dir) != "io":
            return self.judged(test)
        with io_lock:
            return self.judged(test)

    def judged(self, test):
        r = {"test": test.key, "dir": top_dir(test), "name": test.name, "np": test.np}
        if self.a.checked_first:
            first = self.checked_alone(test, r)
            if first is not None:
                return first
        plain_rc, plain_out, plain_s = self.plain(test)
        r["plain_s"] = round(plain_s, 2)
        ok, why = verdict(plain_out) if plain_rc is not None else (False, "time limit")
        if not ok or plain_rc != 0:
            r["status"] = "fails-plainly"
            r["why"] = why if not ok else "exit status %s" % plain_rc
            return r
        tmp = tempfile.mkdtemp(prefix="mc-suite-")
        try:
            report = os.path.join(tmp, "report.json")
            rc, out, secs = self.checked(test, report)
            r["checked_s"] = round(secs, 2)
            if rc is not None and self.slow(plain_s, secs):
                # The machine is shared: time the pair once more, keep the smaller.
                _, _, plain2 = self.plain(test)
                rc2, out2, secs2 = self.checked(test, report + ".2")
                plain_s, secs = min(plain_s, plain2), min(secs, secs2)
                r["plain_s"], r["checked_s"] = round(plain_s, 2), round(secs, 2)
            reasons, findings = self.judge(test, rc, out, report, plain_s, secs)
        finally:
            subprocess.call(["rm", "-rf", tmp])
        r["findings"] = findings
        known = self.known.get((self.a.flavor, test.name))
        # A known difference excuses what the MPI library does, never a
        # finding of the checker's.
        if known and any(x.startswith("finding:") for x in reasons):
            known = None
        if reasons and known:
            r["status"] = KNOWN_STATUS
            r["why"] = "%s (known: %s)" % ("; ".join(reasons), known)
        elif reasons:
            r["status"] = "differs"
            r["why"] = "; ".join(reasons)
            r["output"] = "\n".join(out.splitlines()[-60:])
        elif self.slow(plain_s, secs) and not proven_by_waiting(findings):
            r["status"] = "slow"
            r["why"] = "%.1fx slower (%.1f s -> %.1f s)" % (secs / max(plain_s, 0.01), plain_s, secs)
        else:
            r["status"] = "silent" if not findings else "true-findings"
        return r

    def checked_alone(self, test, r):
        """--checked-first: the checked run alone, when it passes as the plain
        one would (the verdict, the exit status, no finding but the true
        ones): a silent or true-findings result without a plain run or a
        timing. None otherwise: then the pair runs as always, so a test
        that fails plainly is still told from one the checker broke."""
        tmp = tempfile.mkdtemp(prefix="mc-suite-")
        try:
            report = os.path.join(tmp, "report.json")
            rc, out, secs = self.checked(test, report)
            reasons, findings = self.judge(test, rc, out, report, None, secs)
        finally:
            subprocess.call(["rm", "-rf", tmp])
        if reasons:
            return None
        r.update({"plain_s": None, "checked_s": round(secs, 2), "findings": findings,
                  "status": "silent" if not findings else "true-findings"})
        return r

    @staticmethod
    def slow(plain_s, checked_s):
        return max(checked_s, TIME_FLOOR_S) > SLOWDOWN_LIMIT * max(plain_s, TIME_FLOOR_S)

    def judge(self, test, rc, out, report, plain_s, secs):
        reasons = []
        if rc is None:
            return ["hit the time limit under the checker (hang)"], []
        program_out = "\n".join(l for l in out.splitlines() if not CHECKER_LINE_RE.match(l))
        ok, why = verdict(program_out)
        findings = []
        try:
            with open(report, encoding="utf-8") as f:
                doc = json.load(f)
            for fi in doc.get("findings", []):
                findings.append({"class": fi.get("class"), "severity": fi.get("severity"),
                                 "message": (fi.get("message") or "")[:300]})
        except (OSError, ValueError) as e:
            reasons.append("no readable report (%s)" % e.__class__.__name__)
        unexpected = [f for f in findings
                      if f["class"] not in self.expected.get(test.name, set())]
        if unexpected:
            reasons.append("finding: " + ", ".join(sorted({"%s %s" % (f["severity"], f["class"])
                                                           for f in unexpected})))
        if not ok:
            reasons.append("verdict changed: %s" % why)
        errors = any(f["severity"] == "error" for f in findings)
        if rc != 0 and not (errors and rc == 3):
            reasons.append("exit status %d" % rc)
        elif rc == 3 and not errors:
            reasons.append("exit status 3 without an error finding")
        return reasons, findings


def proven_by_waiting(findings):
    """A deadlock or potential deadlock is proven after the checker's
    --timeout: such a run is slower by its own verdict, not by overhead."""
    return any(f["class"] in ("deadlock", "potential-deadlock") for f in findings)


COLUMNS = ["run", "silent", "true-findings", "differs", "slow", KNOWN_STATUS, "fails-plainly",
           "skipped"]


def table(results, skipped):
    dirs = {}
    for r in results:
        d = dirs.setdefault(r["dir"], dict.fromkeys(COLUMNS, 0))
        if r["status"] == "fails-plainly":
            d["fails-plainly"] += 1
        else:
            d["run"] += 1
            d[r["status"]] += 1
    for t, _ in skipped:
        d = dirs.setdefault(top_dir(t), dict.fromkeys(COLUMNS, 0))
        d["skipped"] += 1
    cols = COLUMNS
    rows = ["| directory | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    total = {c: 0 for c in cols}
    for name in sorted(dirs):
        rows.append("| %s | %s |" % (name, " | ".join(str(dirs[name][c]) for c in cols)))
        for c in cols:
            total[c] += dirs[name][c]
    rows.append("| **all** | %s |" % " | ".join(str(total[c]) for c in cols))
    return rows, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flavor", required=True, choices=sorted(LAUNCHERS))
    ap.add_argument("--suite", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--mpicheck", required=True)
    ap.add_argument("--lib")
    ap.add_argument("--tests")
    ap.add_argument("--lists", default="testlist,testlist.dtp,testlist.cvar")
    ap.add_argument("--dirs")
    ap.add_argument("--expected")
    ap.add_argument("--known")
    ap.add_argument("--fail-slow", action="store_true")
    ap.add_argument("--checked-first", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", default="10")
    ap.add_argument("--results")
    ap.add_argument("--summary")
    ap.add_argument("--resume")
    ap.add_argument("--library")
    ap.add_argument("patterns", nargs="*")
    a = ap.parse_args()
    a.suite, a.srcdir = os.path.abspath(a.suite), os.path.abspath(a.srcdir)
    a.mpicheck = os.path.abspath(a.mpicheck)
    if a.lib:
        a.lib = os.path.abspath(a.lib)

    tests = collect(a.suite, a.srcdir, a.lists.split(","))
    if a.dirs:
        wanted = set(a.dirs.split(","))
        tests = [t for t in tests if top_dir(t) in wanted]
    if a.tests:
        keys = read_selection(a.tests)
        by_key = {}
        for t in tests:
            by_key.setdefault(t.key, t)
        missing = [k for k in keys if k not in by_key]
        if missing:
            sys.exit("mpich_suite: not in the suite's lists: %s" % ", ".join(missing))
        tests = [by_key[k] for k in keys]
    if a.patterns:
        tests = [t for t in tests if any(p in t.key for p in a.patterns)]
    if not tests:
        print("0 passed, 1 failed\nmpich_suite: no test selected")
        return 1

    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    skipped, todo = [], []
    seen_runs = {}
    for t in tests:
        why = skip_reason(t, a.suite, a.flavor, mem_gib)
        if not why and a.flavor != "mpich":
            first = seen_runs.setdefault(same_run_key(t), t)
            if first is not t:
                why = "MPICH algorithm variant: for %s the same run as %s" % (a.flavor, first.key)
        (skipped if why else todo).append((t, why) if why else t)
    for t, why in skipped:
        print("SKIP %s (%s)" % (t.key, why))
    sys.stdout.flush()

    carried = read_resumed(a.resume, RESUMABLE) if a.resume else {}
    resumed = []
    if carried:
        left = []
        for t in todo:
            r = carried.get(t.key)
            (resumed if r else left).append(r if r else t)
        todo = left
        for r in resumed:
            print("RESUMED %s [%s, library %s]" % (r["test"], r["status"], r.get("library", "?")))
    library = a.library

    signal.signal(signal.SIGTERM, stop_all)
    signal.signal(signal.SIGINT, stop_all)
    runner = Runner(a, read_expected(a.expected), read_known(a.known, LAUNCHERS))
    # Results are written as they come, so a run cut short still tells.
    results_file = open(a.results, "w", encoding="utf-8") if a.results else None
    if results_file:
        for t, why in skipped:
            results_file.write(json.dumps({"test": t.key, "dir": top_dir(t), "name": t.name,
                                           "status": "skipped", "why": why}) + "\n")
    results = list(resumed)
    if results_file:
        for r in resumed:
            results_file.write(json.dumps(r) + "\n")
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = {pool.submit(runner.one, t): t for t in todo}
        for fut in concurrent.futures.as_completed(futures):
            r = fut.result()
            if library:
                r["library"] = library
            results.append(r)
            if results_file:
                results_file.write(json.dumps(r) + "\n")
                results_file.flush()
            tag = {"silent": "PASS", "true-findings": "PASS", "differs": "FAIL",
                   "slow": "FAIL" if a.fail_slow else "SLOW", KNOWN_STATUS: "KNOWN",
                   "fails-plainly": "NOTE"}[r["status"]]
            extra = r.get("why", "")
            if r["status"] == "true-findings":
                extra = "true findings: " + ", ".join(sorted({f["class"] for f in r["findings"]}))
            with print_lock:
                plain = r.get("plain_s")
                print("%s %s [%s -> %s s] %s" % (tag, r["test"], "-" if plain is None else plain,
                                                 r.get("checked_s", "-"), extra))
                if r["status"] == "differs":
                    for l in r.get("output", "").splitlines()[-25:]:
                        print("    | " + l)
                sys.stdout.flush()
    order = {k: i for i, k in enumerate([r["test"] for r in resumed] + [t.key for t in todo])}
    results.sort(key=lambda r: order[r["test"]])

    rows, total = table(results, skipped)
    diffs = [r for r in results if r["status"] in ("differs", "slow", KNOWN_STATUS)]
    print()
    print("\n".join(rows))
    if diffs:
        print("\nTests whose run differs under the checker:")
        for r in diffs:
            print("  %s [%s]: %s" % (r["test"], r["status"], r["why"]))
    reasons = {}
    for _, why in skipped:
        reasons[why.split(" (")[0]] = reasons.get(why.split(" (")[0], 0) + 1
    print("\nSkipped: " + (", ".join("%d %s" % (n, w) for w, n in sorted(reasons.items())) or "none"))
    print("Wall time: %.0f s" % (time.monotonic() - t0))

    if results_file:
        results_file.close()
    if a.summary:
        with open(a.summary, "w", encoding="utf-8") as f:
            f.write("\n".join(rows) + "\n")
            if diffs:
                f.write("\nDiffering:\n\n")
                for r in diffs:
                    f.write("- `%s` (%s): %s\n" % (r["test"], r["status"], r["why"]))
    # A difference that is not the checker's is neither its pass nor its
    # failure: counted with the skipped, its reason listed above.
    passed = total["silent"] + total["true-findings"] + (0 if a.fail_slow else total["slow"])
    failed = total["differs"] + (total["slow"] if a.fail_slow else 0)
    if a.tests and total["fails-plainly"]:
        # The listed tests were chosen as passing plainly with both MPIs: one
        # that fails plainly now guards nothing, which is a failure of the run.
        print("%d listed tests fail without the checker" % total["fails-plainly"])
        failed += total["fails-plainly"]
    print("%d passed, %d failed, %d skipped" % (passed, failed, len(skipped) + total[KNOWN_STATUS]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
