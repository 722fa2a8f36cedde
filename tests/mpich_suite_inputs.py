"""The input files of tests/mpich_suite.py: the suite's own list files
(testlist, testlist.dtp, testlist.cvar: the test instances), our list files
(true-findings.txt, known-differences.txt, ci-subset.txt) and earlier
results files for --resume. Standard library only."""

import json
import os
import re
import sys


def list_lines(path):
    """The lines of one of our list files, comments and blank lines left out."""
    if not path:
        return
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if line:
                yield line


def read_expected(path):
    """true-findings.txt: {dir/program: {class, ...}}."""
    expected = {}
    for line in list_lines(path):
        words = line.split()
        if len(words) < 2:
            sys.exit("%s: expected 'dir/program class [reason]': %r" % (path, line))
        expected.setdefault(words[0], set()).add(words[1])
    return expected


def read_known(path, flavors):
    """known-differences.txt: {(flavor, dir/program): reason}."""
    known = {}
    for line in list_lines(path):
        words = line.split(None, 2)
        if len(words) < 3 or words[0] not in flavors:
            sys.exit("%s: expected 'flavor dir/program reason': %r" % (path, line))
        known[(words[0], words[1])] = words[2]
    return known


def read_resumed(paths, resumable):
    """--resume: {test key: result} of the earlier results files' judged
    instances whose status is in resumable (the last line for an instance
    wins)."""
    last = {}
    for path in paths.split(","):
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        r = json.loads(line)
                    except ValueError:
                        continue    # a line cut short by a run that was stopped
                    if isinstance(r, dict) and "test" in r and "status" in r:
                        last[r["test"]] = r
        except OSError as e:
            sys.exit("mpich_suite: --resume: cannot read %s: %s" % (path, e))
    return {k: r for k, r in last.items() if r["status"] in resumable}


def read_selection(path):
    """ci-subset.txt: list lines, white space folded."""
    return [" ".join(line.split()) for line in list_lines(path)]


class Test:
    def __init__(self, directory, program, np_, opts, line):
        self.dir = directory          # relative to the suite root, e.g. "coll"
        self.program = program
        self.np = np_
        self.args = opts.get("arg", [])
        self.env = opts.get("env", [])
        self.mpiexecargs = opts.get("mpiexecarg", [])
        self.opts = opts
        self.line = line              # the list line, normalized
        self.key = "%s/%s" % (directory, line)
        self.name = "%s/%s" % (directory, program)


def parse_line(line):
    line = re.sub(r"#.*", "", line).strip()
    if not line or line.startswith("!"):
        return None
    words = line.split()
    opts = {"arg": [], "env": [], "mpiexecarg": []}
    for w in words[2:]:
        if "=" not in w:
            continue
        k, v = w.split("=", 1)
        if k in ("arg", "env", "mpiexecarg"):
            opts[k].append(v)
        else:
            opts[k] = v
    np_ = int(words[1]) if len(words) > 1 and words[1].isdigit() else 1
    return words[0], np_, opts, " ".join(words)


def list_file(suite, srcdir, directory, name):
    for base in (suite, srcdir):
        p = os.path.join(base, directory, name)
        if os.path.isfile(p) and os.path.getsize(p) > 0:
            return p
    return None


def collect(suite, srcdir, listnames, directory=""):
    """Every test instance below directory, in list order."""
    tests = []
    for name in listnames:
        path = list_file(suite, srcdir, directory, name)
        if not path:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for raw in f:
                parsed = parse_line(raw)
                if not parsed:
                    continue
                program, np_, opts, line = parsed
                sub = os.path.join(directory, program) if directory else program
                if os.path.isdir(os.path.join(srcdir, sub)) or os.path.isdir(os.path.join(suite, sub)):
                    tests.extend(collect(suite, srcdir, listnames, sub))
                elif directory:
                    tests.append(Test(directory, program, np_, opts, line))
    return tests
