#!/usr/bin/env python3
"""apps.py - whole programs plain, under mpicheck --mode=fast and --mode=strict.

Run by `scripts/bench apps` (which builds the mini-apps and installs hpcc and
gnuplot when they are missing). Each case runs plain, fast and strict one
after the other, RUNS times; the table gives the medians and the median of
the ratios of each round (a round's three runs are seconds apart, so a
machine that gets busier between rounds moves all three). The mini-apps time
their own iterations ("app NAME SECONDS", start-up left out); hpcc is timed
as a whole job. A checked run must end with exit status 0 and print the same
result lines as the plain run (the residuals), or the benchmark fails.

Writes the table to stdout, and OUT/apps.tsv (bench/tables.py's format) and, with gnuplot, OUT/apps.png
(the ratios as bars, with the targets of issue 19 as lines).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402

MODES = ("plain", "fast", "strict")


def run_once(case, mode, args):
    cmd = list(case["cmd"])
    launch = [args.launcher] + args.launcher_args + ["-np", str(case["np"])]
    if mode == "plain":
        full = launch + cmd
    else:
        full = [args.mpicheck, "--mode=" + mode, "--"] + launch[1:] + cmd
    if case.get("result_file"):
        try:
            os.unlink(os.path.join(case["cwd"], case["result_file"]))
        except FileNotFoundError:
            pass
    t0 = time.monotonic()
    proc = subprocess.run(["timeout", "-k", "5", str(args.limit)] + full, cwd=case["cwd"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        sys.stderr.write("apps: %s (%s) exited with %d: %s\n%s" % (
            case["name"], mode, proc.returncode, " ".join(full), proc.stderr[-2000:]))
        sys.exit(1)
    out = proc.stdout
    if case["timer"] == "internal":
        m = re.search(r"^app \S+ ([0-9.]+)$", out, re.M)
        if not m:
            sys.stderr.write("apps: %s printed no time\n%s" % (case["name"], out[-2000:]))
            sys.exit(1)
        seconds = float(m.group(1))
    else:
        seconds = wall
    result = [l for l in out.splitlines() if l.startswith("residual")]
    if case.get("result_file"):
        with open(os.path.join(case["cwd"], case["result_file"])) as f:
            result = re.findall(case["result_pattern"], f.read())
    return seconds, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--flavor", required=True)
    ap.add_argument("--launcher", required=True)
    ap.add_argument("--launcher-arg", action="append", default=[], dest="launcher_args")
    ap.add_argument("--mpicheck", required=True)
    ap.add_argument("--stencil", required=True)
    ap.add_argument("--cg", required=True)
    ap.add_argument("--hpcc", help="the hpcc executable (Open MPI builds only)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true", help="2 ranks, shorter runs, no hpcc")
    ap.add_argument("--limit", type=int, default=600, help="seconds per run")
    ap.add_argument("--max-np", type=int, default=4, help="the most ranks a case runs with")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    cases = []
    ranks = [n for n in ((2,) if args.quick else (2, 4)) if n <= max(2, args.max_np)]
    iters = ("5000", "2500") if args.quick else ("10000", "5000")
    for np_ in ranks:
        cases.append({"name": "stencil", "np": np_, "timer": "internal", "cwd": args.out,
                      "cmd": [args.stencil, "256", iters[0]]})
        cases.append({"name": "cg", "np": np_, "timer": "internal", "cwd": args.out,
                      "cmd": [args.cg, "20000", iters[1]]})
    if args.hpcc and not args.quick:
        hdir = os.path.join(args.out, "hpcc")
        os.makedirs(hdir, exist_ok=True)
        with open(os.path.join(hdir, "hpccinf.txt"), "w") as f:
            f.write(HPCC_INPUT)
        cases.append({"name": "hpcc", "np": 2, "timer": "wall", "cwd": hdir, "cmd": [args.hpcc],
                      "result_file": "hpccoutf.txt", "result_pattern": r"\d+ tests completed and (?:passed|failed) residual checks"
                                        r"|Found \d+ errors in \d+ locations \((?:passed|failed)\)"
                                        r"|\.\.\.\.\.\. (?:PASSED|FAILED)"})

    rows = []
    for case in cases:
        times = {m: [] for m in MODES}
        ratios = {m: [] for m in MODES[1:]}
        for _ in range(args.runs):
            got = {}
            for mode in MODES:
                seconds, result = run_once(case, mode, args)
                got[mode] = seconds
                times[mode].append(seconds)
                if mode == "plain":
                    plain_result = result
                elif result != plain_result:
                    sys.stderr.write("apps: %s (%s) gave another result than plain:\n  %s\n  %s\n" % (
                        case["name"], mode, plain_result, result))
                    sys.exit(1)
            for mode in MODES[1:]:
                ratios[mode].append(got[mode] / got["plain"])
        med = {m: statistics.median(times[m]) for m in MODES}
        rat = {m: statistics.median(ratios[m]) for m in MODES[1:]}
        rows.append((case, med, rat, times))
        sys.stderr.write("apps: %s %d ranks done\n" % (case["name"], case["np"]))

    label = lambda c: "%s %d" % (c["name"], c["np"])
    print("apps (%s): medians of %d rounds, seconds; x = median of each round's ratio to plain"
          % (args.flavor, args.runs))
    print("%-12s %-9s %9s %9s %9s %8s %9s" % ("program", "timed", "plain", "fast", "strict", "x fast", "x strict"))
    for case, med, rat, _ in rows:
        timed = "loop" if case["timer"] == "internal" else "whole job"
        print("%-12s %-9s %9.3f %9.3f %9.3f %8.2f %9.2f" % (
            label(case), timed, med["plain"], med["fast"], med["strict"], rat["fast"], rat["strict"]))
    # The format of every benchmark's table (bench/tables.py), for the summary.
    tables.write_tsv(os.path.dirname(os.path.abspath(args.out)), os.path.basename(os.path.abspath(args.out)),
                     "apps", [("%s %dr" % (c["name"], c["np"]), "s", med, rat) for c, med, rat, _ in rows])
    print("all runs (plain / fast / strict):")
    for case, _, _, times in rows:
        print("  %-12s %s" % (label(case), " / ".join(
            " ".join("%.3f" % t for t in times[m]) for m in MODES)))
    with open(os.path.join(args.out, "apps.dat"), "w") as dat:    # the plot's, without a header
        for case, _, rat, _ in rows:
            dat.write("%s ranks\t%.3f\t%.3f\n" % (label(case).replace(" ", ", "), rat["fast"], rat["strict"]))
    top = max([1.4] + [1.1 * r[m] for _, _, r, _ in rows for m in MODES[1:]])
    plot(args.out, args.flavor, top)


def plot(out, flavor, top):
    tables.plot_ratios(os.path.join(out, "apps.dat"), os.path.join(out, "apps.png"),
                       "mpicheck on whole programs (%s): time over plain" % flavor, "800,420",
                       "set yrange [0:%.2f]" % top)


# HPL at N=1000 on a 1x2 grid, and the rest of hpcc with its defaults.
HPCC_INPUT = """HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
1000         Ns
1            # of NBs
80           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
2            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                               Number of additional problem sizes for PTRANS
1200 10000 30000                values of N
0                               number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64        values of NB
"""

if __name__ == "__main__":
    main()
