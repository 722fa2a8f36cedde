"""The input files of tests/mpich_suite.py: our list files
(true-findings.txt, known-differences.txt, ci-subset.txt) and earlier
results files for --resume. Standard library only."""

import json
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
