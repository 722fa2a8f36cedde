#!/usr/bin/env python3
"""bench_tables.py - the arithmetic of bench/tables.py on made-up runs.

scripts/bench is not part of the test suite (timings are not asserted on a
shared machine), but its tables are: a ratio taken of the wrong pair of
runs, a rate not inverted or a slope over the wrong counts would print
plausible wrong numbers. Run by tests/bench_tables.sh.
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import tables  # noqa: E402


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


class RoundsTable(unittest.TestCase):
    def test_ratio_is_median_of_each_rounds_ratio(self):
        # Rounds 2x, 3x, 10x: median ratio 3; the ratio of the medians would be 4.
        med, x = tables.rounds_table({"plain": [1.0, 2.0, 1.0], "fast": [2.0, 6.0, 10.0],
                                      "strict": [1.0, 2.0, 1.0]}, "us")
        self.assertEqual(med["plain"], 1.0)
        self.assertEqual(med["fast"], 6.0)
        self.assertAlmostEqual(x["fast"], 3.0)
        self.assertAlmostEqual(x["strict"], 1.0)

    def test_rate_is_inverted(self):
        # Half the messages per second checked: twice the time.
        _, x = tables.rounds_table({"plain": [1000.0], "fast": [500.0], "strict": [250.0]}, "msg/s")
        self.assertAlmostEqual(x["fast"], 2.0)
        self.assertAlmostEqual(x["strict"], 4.0)


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.raw = os.path.join(self.dir, "raw")
        self.out = os.path.join(self.dir, "out")
        os.makedirs(self.raw)

    def tsv(self, bench):
        return {r[0]: r for r in tables.read_tsv(os.path.join(self.out, "mpi", bench + ".tsv"))}

    def test_p2p(self):
        for i, (p, f, s) in enumerate([(1.0, 1.5, 2.0), (2.0, 3.0, 4.0)], 1):
            for mode, v in (("plain", p), ("fast", f), ("strict", s)):
                write(os.path.join(self.raw, "%s.%d" % (mode, i)),
                      "p2p pingpong_8B_us %g\np2p msgrate_8B_per_s %g\n" % (v, 1e6 / v))
        tables.table_p2p(self.raw, 2, self.out, "mpi")
        rows = self.tsv("p2p")
        self.assertEqual(rows["pingpong_8B"][1], "us")
        self.assertAlmostEqual(rows["pingpong_8B"][3]["fast"], 1.5)
        self.assertAlmostEqual(rows["msgrate_8B"][3]["strict"], 2.0)

    def test_coll(self):
        # The raw directory's own name has dots, as mktemp's do.
        raw = os.path.join(self.dir, "tmp.a1b2", "coll")
        os.makedirs(raw)
        for np_ in (2, 4):
            for i in (1, 2, 3):
                for mode, v in (("plain", 1.0), ("fast", 2.0 * np_), ("strict", 3.0)):
                    write(os.path.join(raw, "time.%s.%d.%d" % (mode, np_, i)), "coll barrier_us %g\n" % v)
                for mode, kib in (("plain", 1000), ("strict", 1500)):
                    write(os.path.join(raw, "mem.%s.%d.%d" % (mode, np_, i)), "coll peak_kib %d\n" % kib)
        write(os.path.join(raw, "time.plain.2.1.err"), "")
        tables.table_coll(raw, 3, self.out, "mpi")
        rows = self.tsv("coll")
        self.assertAlmostEqual(rows["barrier 4r"][3]["fast"], 8.0)
        self.assertAlmostEqual(rows["barrier 2r"][3]["strict"], 3.0)
        self.assertEqual(rows["rank 0 peak 4r"][2], {"plain": 1000.0, "strict": 1500.0})

    def test_instructions_slope(self):
        # 1,000 instructions of start-up, 50 (plain) and 250 (checked) an iteration.
        for mode, per in (("plain", 50), ("fast", 250), ("strict", 300)):
            for n in (2000, 6000):
                write(os.path.join(self.raw, "message.%s.%d" % (mode, n)),
                      "==1== Collected : %d\n" % (1000 + per * n))
        tables.table_instructions(self.raw, self.out, "mpi")
        row = self.tsv("instructions")["8-byte message"]
        self.assertAlmostEqual(row[2]["plain"], 50)
        self.assertAlmostEqual(row[2]["fast"], 250)
        self.assertAlmostEqual(row[3]["strict"], 6.0)

    def test_summary_lists_every_bench(self):
        tables.write_tsv(self.out, "mpi", "apps", [("cg 2r", "s", {"plain": 1.0, "fast": 1.2, "strict": 1.4},
                                                    {"fast": 1.2, "strict": 1.4})])
        tables.write_tsv(self.out, "mpi", "coll", [("barrier 2r", "us", {"plain": 1.0, "fast": 3.0},
                                                    {"fast": 3.0})])
        sys.stdout = open(os.devnull, "w")
        try:
            tables.summary(self.out, ["mpi"])
        finally:
            sys.stdout.close()
            sys.stdout = sys.__stdout__
        names = [l.split("\t")[0] for l in open(os.path.join(self.out, "mpi", "summary.dat"))]
        self.assertEqual(names, ["coll: barrier 2r", "apps: cg 2r"])


if __name__ == "__main__":
    # The line scripts/check counts: "N passed, N failed".
    result = unittest.main(exit=False, verbosity=2).result
    bad = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - bad, bad))
    sys.exit(1 if bad or result.testsRun == 0 else 0)
