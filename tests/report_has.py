#!/usr/bin/env python3
"""report_has.py REPORT EXPR: exit 0 when the Python expression EXPR holds
for the job report REPORT (docs/report-format.md), 1 otherwise.

EXPR sees r (the report), fs (its findings) and calls(cls) (the calls of
every finding of class cls, in order). Used by the shell tests of jobs
across nodes (tests/cluster.sh, tests/private_dirs.sh, tests/slurm.sh)."""
import json
import sys

try:
    with open(sys.argv[1]) as f:
        r = json.load(f)
except (OSError, ValueError) as e:
    print("no report: %s" % e)
    sys.exit(1)
fs = r["findings"]


def calls(cls):
    return [c for f in fs if f["class"] == cls for c in f["calls"]]


sys.exit(0 if eval(sys.argv[2]) else 1)
