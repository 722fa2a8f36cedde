#!/usr/bin/env python3
"""Run the MPI test programs in tests/programs/ under mpicheck and judge them.

Usage:
  run_programs.py --flavor openmpi|mpich --mpicc CMD [--mpifort FCMD] --mpicheck PATH
                  --builddir DIR [--schema FILE] [--sarif-schema FILE]
                  [--jobs N] [PATTERN...]

Every tests/programs/*.c starts with a header line

  /* EXPECT: <class>|OK  NP: <n> [MODE: strict|fast] [TIMEOUT: s] [FLAVOR: openmpi|mpich]
     [RANKS: r,r,...] [SKIPPED: check,...] [INJECT: outcome-fail@r]
     [CAUSE: tag|source|communicator|start] [SAYS: words+of+the+message] [ONLY: yes] */

(on one line); a Fortran program (*.f90, *.F90, *.f, *.F, compiled with
FCMD) starts with the same keys after "! EXPECT:" instead. Without FCMD (or
when it is not installed) the Fortran programs are skipped, each with a
"SKIP:" line. RANKS, only with EXPECT <class>, lists world ranks separated
by commas, without spaces (RANKS: 1,4,6). SKIPPED lists the checks the run
cannot make (unchecked-communicator, collective-handshake, checker-memory,
unseen-mpi-init;
separated by commas): the report's summary.skipped must name exactly those, and the
summary on stderr must name each; without SKIPPED it must name none.
CAUSE: a finding of the EXPECT class must name that likely cause ("a tag
mismatch?"; CAUSE: start, "a missing MPI_Start?") in its message and in its JSON "cause". SAYS: a
finding of the EXPECT class must hold that text in its message or in one of
its calls written as CALL(NAME=VALUE, ...), each "+" read as a space
(SAYS: tested+3+times); several texts, each to be found, are separated by
"|". ONLY: yes, with EXPECT <class>: every finding must be of that class
(a correct use that the checker warns of, and nothing else). INJECT:
outcome-fail@r runs the program with
MPICHECK_INTERNAL_TEST_OUTCOME_FAIL=r: the checker counts world rank r's
intercommunicator creation as failed in its outcome agreement (MPI's result
is unchanged), to test the agreement on MPIs that cannot survive a fault.

The program is compiled with CMD (-g -O0 -Wall) into DIR/<flavor>/ (only when
the source is newer than the executable) and run as

  timeout -k 5 120 PATH --timeout=<TIMEOUT or 2> --mode=<MODE or strict>
          --report=<tmp>/report.json [--sarif=<tmp>/report.sarif]
          -- <launcher args> -np <n> <exe>

(launcher args: --oversubscribe for openmpi, none for mpich). A program whose
FLAVOR is the other flavor is not run and not counted.

Verdict for EXPECT <class>: the report exists and is valid JSON, some finding
has that class, stderr contains "mpicheck: ERROR <class>" or
"mpicheck: WARNING <class>", and the exit code is 3 when the report holds an
error finding, 0 otherwise. With RANKS, some finding of that class must also
have "ranks" exactly equal to the listed set (no more, no fewer ranks). For
EXPECT OK: the report exists, has no findings, the exit code is 0 and stderr
has no "mpicheck: ERROR"/"mpicheck: WARNING". Either way, a line on stderr
or stdout starting with "TEST FAILED:" (a program's own check of its
results) fails the test.
With --schema (and the jsonschema module installed) each report is also
validated against the schema.
With --sarif-schema (the official SARIF 2.1.0 JSON schema, draft 2020-12),
every run also writes --sarif=<tmp>/report.sarif, and the test also needs:
the log exists, is valid JSON and (with jsonschema installed) valid against
that schema; its results match the report's findings one to one, in order
(ruleId = class, level = severity), each ruleIndex names the rule with that
id; for EXPECT <class> some result has ruleId <class> and the level of that
class's findings in the report ("error" for an error class); for EXPECT OK
there is no result.

A PATTERN selects programs by file name: a shell glob ("invalid_argument_*")
matched against the name with or without ".c", or, without glob characters, a
substring of the name. The last line printed is exactly "N passed, N failed";
the exit status is 1 when a test failed or none was selected, 0 otherwise.

Standard library only; jsonschema is optional.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from program_header import FORTRAN_SUFFIXES, HeaderError, parse_header

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS_DIR = os.path.join(HERE, "programs")

HARD_LIMIT_S = 120          # per run, enforced with timeout(1)
KILL_AFTER_S = 5            # timeout -k
DEFAULT_TIMEOUT_S = "2"     # mpicheck --timeout when the header gives none
DEFAULT_MODE = "strict"
ERROR_EXITCODE = 3          # mpicheck's default --error-exitcode
CAUSE_TEXT = {"start": "a missing MPI_Start?"}  # CAUSE values not named "a <value> mismatch?"
STDERR_TAIL = 40

OPENMPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    # CMA/ptrace single-copy fails in many containers; plain copy-in/out works.
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
}

print_lock = threading.Lock()


def finding_text(f):
    """A finding's message and its calls as CALL(NAME=VALUE, ...), one per line."""
    lines = [f.get("message") or ""]
    for c in f.get("calls") or []:
        args = c.get("args") or {}
        lines.append("%s(%s)" % (c.get("call"), ", ".join("%s=%s" % kv for kv in args.items())))
    return "\n".join(lines)


def matches(name, patterns):
    if not patterns:
        return True
    stem = program_stem(name)
    for p in patterns:
        if any(c in p for c in "*?["):
            if fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(stem, p):
                return True
        elif p in name:
            return True
    return False


def program_stem(name):
    """The file name without its language suffix (.c, .f90, ...)."""
    for suffix in (".c",) + FORTRAN_SUFFIXES:
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return name


def tail(text, n=STDERR_TAIL):
    lines = text.splitlines()
    return "\n".join(lines[-n:])


class Result:
    def __init__(self, name):
        self.name = name
        self.ok = False
        self.reasons = []
        self.stderr = None
        self.notes = []
        self.elapsed = 0.0
        self.tmpdir = None
        self.cmd = None
        self.rc = None


def compile_program(src, exe, mpicc):
    """Compiles src into exe unless exe is newer. Returns (ok, message)."""
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src):
        return True, ""
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    tmp_exe = "%s.tmp%d.%d" % (exe, os.getpid(), threading.get_ident())
    cmd = shlex.split(mpicc) + ["-g", "-O0", "-Wall", "-o", tmp_exe, src]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, errors="replace")
    except OSError as e:
        return False, "cannot run %s: %s" % (cmd[0], e)
    if p.returncode != 0:
        try:
            os.unlink(tmp_exe)
        except OSError:
            pass
        shown = cmd[:-2] + [exe, src]
        return False, "compilation failed (%s):\n%s" % (
            " ".join(shlex.quote(c) for c in shown), p.stdout.rstrip())
    os.replace(tmp_exe, exe)
    return True, p.stdout.rstrip()


def run_once(cmd, env, cwd):
    """Runs cmd in its own session; returns (rc, stdout, stderr, elapsed)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                            start_new_session=True)
    try:
        # timeout(1) enforces the limit; this is only a backstop in case it
        # cannot (e.g. a child ignoring signals from another process group).
        out, err = proc.communicate(timeout=HARD_LIMIT_S + KILL_AFTER_S + 15)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = proc.communicate()
    # Whatever the outcome, leave no stray process of this run behind.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    return (proc.returncode, out.decode("utf-8", "replace"),
            err.decode("utf-8", "replace"), time.monotonic() - start)


def stderr_has(stderr, cls=None):
    if cls is None:
        return re.search(r"mpicheck: (ERROR|WARNING)\b", stderr) is not None
    return re.search(r"mpicheck: (ERROR|WARNING) %s(?![\w-])" % re.escape(cls),
                     stderr) is not None


def judge_sarif(reasons, expect, sarif_path, validator, findings):
    """The SARIF log (--sarif-schema): valid, and saying what the report says.
    findings is None when the job report is unusable."""
    if not os.path.exists(sarif_path):
        reasons.append("no SARIF log written (%s)" % sarif_path)
        return
    try:
        with open(sarif_path, encoding="utf-8") as f:
            log = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        reasons.append("SARIF log is not valid JSON: %s" % e)
        return
    if validator is not None:
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.absolute_path) or "(root)"
            msg = e.message if len(e.message) <= 300 else e.message[:300] + "..."
            reasons.append("SARIF log fails the SARIF 2.1.0 schema at %s: %s" % (where, msg))
        if len(errors) > 5:
            reasons.append("... and %d more SARIF schema violations" % (len(errors) - 5))
        if errors:
            return
    try:
        run = log["runs"][0]
        results = run.get("results", [])
        rules = run["tool"]["driver"].get("rules", [])
        got = [(r.get("ruleId"), r.get("level", "warning")) for r in results]
        for i, r in enumerate(results):
            idx = r.get("ruleIndex")
            if idx is not None and not (0 <= idx < len(rules) and rules[idx].get("id") == r.get("ruleId")):
                reasons.append("SARIF result %d: ruleIndex %s does not name rule %s"
                               % (i, idx, r.get("ruleId")))
    except (KeyError, IndexError, TypeError, AttributeError) as e:
        reasons.append("SARIF log has no usable runs[0].results / tool.driver: %r" % e)
        return
    shown = ", ".join("%s(%s)" % g for g in got) or "none"
    if expect == "OK":
        if results:
            reasons.append("expected no SARIF results, the log has %d: %s" % (len(results), shown))
        return
    levels = {f.get("severity") for f in findings or [] if f.get("class") == expect} \
        or {"error", "warning"}
    if not any(rule == expect and level in levels for rule, level in got):
        reasons.append("no SARIF result with ruleId %s and level %s (results: %s)"
                       % (expect, "/".join(sorted(levels)), shown))
    if findings is not None:
        want = [(f.get("class"), f.get("severity")) for f in findings]
        if got != want:
            reasons.append("SARIF results (%s) do not match the report's findings (%s) "
                           "one to one" % (shown, ", ".join("%s(%s)" % w for w in want)
                                           or "none"))


def judge(res, hdr, rc, stderr, report_path, validator, sarif_path=None,
          sarif_validator=None, stdout=""):
    expect = hdr["expect"]
    reasons = res.reasons
    if rc == 124 or rc == -9 or rc == 137:
        reasons.append("run killed after the hard limit of %d s (hang?)" % HARD_LIMIT_S)
    report = None
    if not os.path.exists(report_path):
        reasons.append("no report file written (%s)" % report_path)
    else:
        try:
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
        except (ValueError, UnicodeDecodeError) as e:
            reasons.append("report is not valid JSON: %s" % e)
    findings = []
    if report is not None:
        if not isinstance(report, dict) or not isinstance(report.get("findings"), list):
            reasons.append("report has no \"findings\" array")
            report = None
        else:
            findings = [f for f in report["findings"] if isinstance(f, dict)]
            if len(findings) != len(report["findings"]):
                reasons.append("report has findings that are not objects")
    if report is not None and validator is not None:
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.absolute_path) or "(root)"
            reasons.append("report fails the schema at %s: %s" % (where, e.message))
        if len(errors) > 5:
            reasons.append("... and %d more schema violations" % (len(errors) - 5))

    # The checks the run could not make: exactly those the header's SKIPPED
    # names, each counted in the report and named in the summary on stderr.
    if report is not None:
        listed = (report.get("summary") or {}).get("skipped") or []
        got = sorted({s.get("check") for s in listed if isinstance(s, dict)})
        if got != hdr.get("skipped", []):
            reasons.append("checks not made (summary.skipped): %s, expected %s (SKIPPED)"
                           % (", ".join(got) or "none", ", ".join(hdr.get("skipped", [])) or "none"))
        for name in hdr.get("skipped", []):
            if not re.search(r"^mpicheck: not checked:.*\b%s\b" % re.escape(name),
                             stderr, re.M):
                reasons.append("stderr does not name the skipped check %s" % name)

    found = ", ".join("%s(%s)" % (f.get("class"), f.get("severity")) for f in findings)
    # A program that finds its own results wrong says so; with an error
    # finding mpicheck exits 3 whatever the ranks did, so this is the only
    # way an error program's self-check can fail the test.
    # On either stream: ranks print with printf as often as with
    # fprintf(stderr), and the launcher forwards both.
    m = re.search(r"^TEST FAILED:.*$", stderr, re.M) or re.search(r"^TEST FAILED:.*$", stdout or "", re.M)
    if m:
        reasons.append("the program reports a wrong result: %s" % m.group(0))
    if expect == "OK":
        if report is not None and findings:
            reasons.append("expected no findings, report has %d: %s" % (len(findings), found))
        if rc != 0 and rc not in (124, -9, 137):
            reasons.append("expected exit code 0, got %s" % rc)
        if stderr_has(stderr):
            reasons.append("stderr has an 'mpicheck: ERROR/WARNING' block")
        # A correct program receives every message it sends; a message left
        # in MPI's queues at exit is the checker's (MPICH's UCX names it).
        m = re.search(r"^.*UCX +WARN +unexpected tag-receive descriptor.*$", stderr, re.M)
        if m:
            reasons.append("a message was left unreceived at exit: %s" % m.group(0).strip())
    else:
        if report is not None:
            if not any(f.get("class") == expect for f in findings):
                reasons.append("no finding of class %s in the report (found: %s)"
                               % (expect, found or "none"))
            if hdr.get("only") and any(f.get("class") != expect for f in findings):
                reasons.append("findings of other classes than %s (ONLY: yes): %s" % (expect, found))
            elif hdr.get("ranks") is not None:
                sets = [sorted(set(f.get("ranks") or [])) for f in findings
                        if f.get("class") == expect]
                if hdr["ranks"] not in sets:
                    reasons.append("no %s finding with ranks exactly %s (RANKS); "
                                   "their ranks: %s" % (
                                       expect, ",".join(map(str, hdr["ranks"])),
                                       "; ".join(",".join(map(str, r)) or "none"
                                                 for r in sets)))
            want_cause = (CAUSE_TEXT.get(hdr["cause"], "a %s mismatch?" % hdr["cause"])
                          if hdr.get("cause") else None)
            if want_cause and not any(
                    f.get("class") == expect and want_cause in (f.get("message") or "")
                    and want_cause in (f.get("cause") or "") for f in findings):
                reasons.append("no %s finding names the likely cause '%s' in its message and its "
                               "\"cause\" (CAUSE)" % (expect, want_cause))
            for says in hdr.get("says") or []:
                if not any(f.get("class") == expect and says in finding_text(f) for f in findings):
                    reasons.append("no %s finding says '%s' in its message or calls (SAYS)"
                                   % (expect, says))
            want_rc = ERROR_EXITCODE if any(f.get("severity") == "error"
                                            for f in findings) else 0
            if rc != want_rc and rc not in (124, -9, 137):
                reasons.append("expected exit code %d (%s), got %s" % (
                    want_rc, "report has an error" if want_rc else
                    "report has no error", rc))
        if not stderr_has(stderr, expect):
            reasons.append("stderr has no 'mpicheck: ERROR %s' or "
                           "'mpicheck: WARNING %s' block" % (expect, expect))
    if sarif_path is not None:
        judge_sarif(reasons, expect, sarif_path, sarif_validator,
                    findings if report is not None else None)
    res.ok = not reasons


def run_test(src, hdr, args, validator, sarif_validator=None):
    name = os.path.basename(src)
    stem = program_stem(name)
    res = Result(name)
    start = time.monotonic()
    exe = os.path.join(os.path.abspath(args.builddir), args.flavor, stem)
    compiler = args.mpifort if name.endswith(FORTRAN_SUFFIXES) else args.mpicc
    ok, msg = compile_program(src, exe, compiler)
    if not ok:
        res.reasons.append(msg)
        res.elapsed = time.monotonic() - start
        return res
    if msg:
        res.notes.append("compiler output:\n" + msg)

    tmpdir = tempfile.mkdtemp(prefix="%s-" % stem, dir=os.path.join(
        os.path.abspath(args.builddir), args.flavor))
    res.tmpdir = tmpdir
    report_path = os.path.join(tmpdir, "report.json")
    sarif_path = os.path.join(tmpdir, "report.sarif") if args.sarif_schema else None
    launcher_args = ["--oversubscribe"] if args.flavor == "openmpi" else []
    cmd = (["timeout", "-k", str(KILL_AFTER_S), str(HARD_LIMIT_S), args.mpicheck,
            "--timeout=%s" % (hdr["timeout"] or DEFAULT_TIMEOUT_S),
            "--mode=%s" % (hdr["mode"] or DEFAULT_MODE),
            "--report=%s" % report_path]
           + (["--sarif=%s" % sarif_path] if sarif_path else []) + ["--"]
           + launcher_args + ["-np", str(hdr["np"]), exe])
    env = dict(os.environ)
    if args.flavor == "openmpi":
        env.update(OPENMPI_ENV)
    env.update(hdr["inject"])
    try:
        rc, out, err, _el = run_once(cmd, env, tmpdir)
    except OSError as e:
        res.reasons.append("cannot run %s: %s" % (cmd[0], e))
        res.elapsed = time.monotonic() - start
        return res
    res.stderr = err
    res.cmd = cmd
    res.rc = rc
    judge(res, hdr, rc, err, report_path, validator, sarif_path, sarif_validator, stdout=out)
    res.elapsed = time.monotonic() - start
    if res.ok:
        shutil.rmtree(tmpdir, ignore_errors=True)
        res.tmpdir = None
    return res


def print_result(res, hdr):
    with print_lock:
        label = " (EXPECT %s, NP %d%s)" % (
            hdr["expect"], hdr["np"],
            ", RANKS %s" % ",".join(map(str, hdr["ranks"])) if hdr["ranks"] else "") \
            if hdr else ""
        print("%s %s%s %.1fs" % ("PASS" if res.ok else "FAIL", res.name, label,
                                 res.elapsed))
        if not res.ok:
            if res.cmd:
                print("  command: %s" % " ".join(shlex.quote(c) for c in res.cmd))
                print("  exit code: %s" % res.rc)
            for r in res.reasons:
                print("  reason: " + r.replace("\n", "\n    "))
            if res.tmpdir:
                print("  kept: %s" % res.tmpdir)
            if res.stderr is not None:
                t = tail(res.stderr)
                if t:
                    print("  --- last %d lines of stderr ---" % STDERR_TAIL)
                    print("\n".join("  | " + l for l in t.splitlines()))
                    print("  ---")
                else:
                    print("  (stderr was empty)")
        for n in res.notes:
            print("  " + n.replace("\n", "\n    "))
        sys.stdout.flush()


def load_validator(schema_path, what="reports"):
    """Returns a validator (the class the schema's $schema names, e.g.
    Draft202012Validator), or None when jsonschema is missing. Exits on a bad
    schema."""
    try:
        with open(schema_path, encoding="utf-8") as f:
            schema = json.load(f)
    except (OSError, ValueError) as e:
        print("run_programs.py: cannot read schema %s: %s" % (schema_path, e),
              file=sys.stderr)
        sys.exit(2)
    try:
        import jsonschema
    except ImportError:
        print("note: the jsonschema module is not installed; %s are not "
              "validated against %s" % (what, schema_path))
        return None
    cls = jsonschema.validators.validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print("run_programs.py: %s is not a valid JSON Schema: %s"
              % (schema_path, e.message), file=sys.stderr)
        sys.exit(2)
    return cls(schema)


def main():
    ap = argparse.ArgumentParser(
        description="Run tests/programs/*.c under mpicheck and check the findings.")
    ap.add_argument("--flavor", required=True, choices=["openmpi", "mpich"])
    ap.add_argument("--mpicc", required=True,
                    help="MPI C compiler command (may hold arguments)")
    ap.add_argument("--mpifort",
                    help="MPI Fortran compiler command for the *.f90 programs; without it, or "
                    "when it cannot run, they are skipped")
    ap.add_argument("--mpicheck", required=True, help="path of the mpicheck launcher")
    ap.add_argument("--builddir", required=True,
                    help="where executables and per-run directories go")
    ap.add_argument("--schema", help="JSON Schema of the report (docs/report-schema.json)")
    ap.add_argument("--sarif-schema", metavar="FILE",
                    help="SARIF 2.1.0 JSON schema: every run also writes a SARIF log, "
                    "validated against it and compared with the report")
    ap.add_argument("--jobs", type=int, default=1, help="tests run in parallel (default 1)")
    ap.add_argument("patterns", nargs="*", metavar="PATTERN",
                    help="glob or substring of the program file names to run")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be >= 1")
    if os.sep in args.mpicheck or os.path.exists(args.mpicheck):
        args.mpicheck = os.path.abspath(args.mpicheck)
    if not (os.path.isfile(args.mpicheck) and os.access(args.mpicheck, os.X_OK)) \
            and shutil.which(args.mpicheck) is None:
        print("run_programs.py: mpicheck %s is not an executable file"
              % args.mpicheck, file=sys.stderr)
        return 2
    if shutil.which("timeout") is None:
        print("run_programs.py: timeout(1) is needed (coreutils)", file=sys.stderr)
        return 2

    validator = load_validator(args.schema) if args.schema else None
    sarif_validator = load_validator(args.sarif_schema, "SARIF logs") \
        if args.sarif_schema else None

    try:
        names = sorted(n for n in os.listdir(PROGRAMS_DIR) if n.endswith((".c",) + FORTRAN_SUFFIXES))
    except OSError as e:
        print("run_programs.py: cannot list %s: %s" % (PROGRAMS_DIR, e), file=sys.stderr)
        names = []
    selected = []       # (src, header or None, header error)
    other_flavor = []
    fortran_skip = None
    if not args.mpifort:
        fortran_skip = "no MPI Fortran compiler given (--mpifort)"
    elif shutil.which(shlex.split(args.mpifort)[0]) is None:
        fortran_skip = "the MPI Fortran compiler %s is not installed" % args.mpifort
    skipped = 0
    for n in names:
        if not matches(n, args.patterns):
            continue
        if fortran_skip and n.endswith(FORTRAN_SUFFIXES):
            print("SKIP: %s: %s" % (n, fortran_skip))
            skipped += 1
            continue
        src = os.path.join(PROGRAMS_DIR, n)
        try:
            hdr = parse_header(src)
        except (HeaderError, OSError) as e:
            selected.append((src, None, str(e)))
            continue
        if hdr["flavor"] and hdr["flavor"] != args.flavor:
            other_flavor.append("%s (%s only)" % (n, hdr["flavor"]))
            continue
        selected.append((src, hdr, None))
    if other_flavor:
        print("not run, written for another MPI than %s: %s"
              % (args.flavor, ", ".join(other_flavor)))
    if not selected and skipped:
        print("0 passed, 0 failed")
        return 77
    if not selected:
        print("no test program selected%s" % (
            " by " + " ".join(args.patterns) if args.patterns else ""))
        print("0 passed, 0 failed")
        return 1
    os.makedirs(os.path.join(args.builddir, args.flavor), exist_ok=True)

    passed = failed = 0

    def one(item):
        src, hdr, herr = item
        if hdr is None:
            res = Result(os.path.basename(src))
            res.reasons.append("bad header: " + herr)
            return res, hdr
        try:
            return run_test(src, hdr, args, validator, sarif_validator), hdr
        except Exception as e:  # a harness bug must fail one test, not the suite
            res = Result(os.path.basename(src))
            res.reasons.append("harness error: %r" % e)
            return res, hdr

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for res, hdr in pool.map(one, selected) if args.jobs == 1 else (
                f.result() for f in concurrent.futures.as_completed(
                    [pool.submit(one, it) for it in selected])):
            print_result(res, hdr)
            if res.ok:
                passed += 1
            else:
                failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
