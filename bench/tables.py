#!/usr/bin/env python3
"""tables.py - the tables of scripts/bench, and the one table of them all.

Each benchmark's runs are plain, `--mode=fast` and `--mode=strict`, run one
after the other in rounds (round i of each mode seconds apart). Each table
gives the medians of the rounds and, as the ratio, the median of each
round's own ratio to plain: a machine that gets busier between rounds moves
a round's three runs together, so the ratio is steadier than the ratio of
the medians. Every table is also written to OUT/<FLAVOR>/<bench>.tsv with the
columns

    measure  unit  plain  fast  strict  x_fast  x_strict

(unit: us, s, msg/s or instr; x is always time over plain time, so for a
rate it is plain rate over checked rate). `summary` reads those files and
prints one table of everything measured, and with gnuplot draws the ratios
as OUT/<FLAVOR>/summary.png.

Usage (from scripts/bench):
  tables.py p2p RAWDIR RUNS OUT FLAVOR        RAWDIR/{plain,fast,strict}.N: "p2p NAME VALUE"
  tables.py coll RAWDIR RUNS OUT FLAVOR       RAWDIR/time.MODE.NP.N: "coll NAME VALUE",
                                              RAWDIR/mem.MODE.NP.N: "coll peak_kib KIB"
  tables.py instructions RAWDIR OUT FLAVOR    RAWDIR/LOOP.MODE.ITERS: callgrind's totals
  tables.py summary OUT FLAVOR...
"""
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

MODES = ("plain", "fast", "strict")


def time_of(unit, v):
    """Time per operation, whatever the unit (a rate is inverted)."""
    return 1.0 / v if unit == "msg/s" else v


def rounds_table(per_round, unit):
    """per_round: {mode: [value of round 1, 2, ...]} -> medians and ratios."""
    med = {m: statistics.median(per_round[m]) for m in MODES if per_round.get(m)}
    x = {}
    for m in MODES[1:]:
        pairs = list(zip(per_round.get("plain", []), per_round.get(m, [])))
        if pairs:
            x[m] = statistics.median(time_of(unit, c) / time_of(unit, p) for p, c in pairs)
    return med, x


def write_tsv(out, flavor, bench, rows):
    """rows: (measure, unit, med, x) -> OUT/FLAVOR/BENCH.tsv"""
    os.makedirs(os.path.join(out, flavor), exist_ok=True)
    with open(os.path.join(out, flavor, bench + ".tsv"), "w") as f:
        f.write("measure\tunit\tplain\tfast\tstrict\tx_fast\tx_strict\n")
        for measure, unit, med, x in rows:
            cells = ["%.6g" % med[m] if m in med else "" for m in MODES]
            cells += ["%.4f" % x[m] if m in x else "" for m in MODES[1:]]
            f.write("\t".join([measure, unit] + cells) + "\n")


def fmt(v, unit):
    if v is None:
        return "-"
    if unit in ("msg/s", "instr", "KiB"):
        return "%.0f" % v
    return "%.3f" % v if v < 100 else "%.1f" % v


def print_rows(rows, label_width=24):
    head = "%-*s %-6s %10s %10s %10s %7s %8s" % (label_width, "measure", "unit", "plain", "fast",
                                                  "strict", "x fast", "x strict")
    print(head)
    print("-" * len(head))
    for measure, unit, med, x in rows:
        print("%-*s %-6s %10s %10s %10s %7s %8s" % (
            label_width, measure, unit, fmt(med.get("plain"), unit), fmt(med.get("fast"), unit),
            fmt(med.get("strict"), unit),
            "%.2f" % x["fast"] if "fast" in x else "-", "%.2f" % x["strict"] if "strict" in x else "-"))


def load_lines(path, tag):
    vals = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            f = line.split()
            if len(f) == 3 and f[0] == tag:
                vals[f[1]] = float(f[2])
    return vals


def unit_of(name):
    if name.endswith("_per_s"):
        return "msg/s"
    if name.endswith("_us"):
        return "us"
    return "KiB" if name.endswith("_kib") else ""


def noisy_note(per_round, label):
    for m, v in per_round.items():
        if len(v) > 1 and (max(v) - min(v)) / statistics.median(v) > 0.25:
            print("  noisy (runs more than 25%% apart): %s %s: %s" % (label, m, " ".join("%.4g" % x for x in v)))


def table_p2p(raw, runs, out, flavor):
    per = {}
    for m in MODES:
        for i in range(1, runs + 1):
            for name, v in load_lines(os.path.join(raw, "%s.%d" % (m, i)), "p2p").items():
                per.setdefault(name, {}).setdefault(m, []).append(v)
    rows = []
    for name, pr in per.items():
        med, x = rounds_table(pr, unit_of(name))
        rows.append((re.sub(r"_(us|per_s)$", "", name), unit_of(name), med, x))
    print("p2p (%s): medians of %d rounds, 2 ranks; latency one-way; x = median of each round's ratio"
          % (flavor, runs))
    print_rows(rows)
    for name, pr in per.items():
        noisy_note(pr, name)
    write_tsv(out, flavor, "p2p", rows)


def table_coll(raw, runs, out, flavor):
    time_rows, mem_rows = [], []

    def sizes(what):    # the rank counts of RAWDIR/WHAT.MODE.NP.ROUND
        return sorted({int(os.path.basename(p).split(".")[2]) for p in glob.glob(os.path.join(raw, what + ".*"))
                       if not p.endswith(".err")})

    def rounds(what, np_):   # {measure: {mode: [value of each round]}}
        per = {}
        for m in MODES:
            for i in range(1, runs + 1):
                path = os.path.join(raw, "%s.%s.%d.%d" % (what, m, np_, i))
                if os.path.exists(path):
                    for name, v in load_lines(path, "coll").items():
                        per.setdefault(name, {}).setdefault(m, []).append(v)
        return per

    for np_ in sizes("time"):
        for name, pr in rounds("time", np_).items():
            med, x = rounds_table(pr, "us")
            time_rows.append(("%s %dr" % (name[:-3], np_), "us", med, x))
    for np_ in sizes("mem"):
        pr = rounds("mem", np_).get("peak_kib", {})
        med = {m: statistics.median(v) for m, v in pr.items()}
        mem_rows.append(("rank 0 peak %dr" % np_, "KiB", med, {}))
    print("coll (%s): medians of %d rounds; time per call; x = median of each round's ratio" % (flavor, runs))
    print_rows(time_rows)
    print()
    print("rank 0's peak resident memory after 1,000 collectives")
    print_rows(mem_rows)
    write_tsv(out, flavor, "coll", time_rows + mem_rows)


def table_instructions(raw, out, flavor):
    """callgrind totals at two iteration counts -> instructions per iteration."""
    totals = {}
    for path in glob.glob(os.path.join(raw, "*.*.*")):
        loop, mode, iters = os.path.basename(path).split(".")
        with open(path, encoding="utf-8") as log:
            m = re.search(r"Collected : (\d+)", log.read())
        if m:
            totals.setdefault(loop, {}).setdefault(mode, {})[int(iters)] = int(m.group(1))
    rows = []
    names = {"query": "MPI_Comm_rank", "message": "8-byte message", "barrier": "MPI_Barrier (1 rank)",
             "allreduce": "MPI_Allreduce (1 rank)", "poll": "MPI_Test, not complete",
             "pollany": "MPI_Testany, wildcard receive, not complete"}
    for loop in names:
        med, x = {}, {}
        for mode, by_iters in totals.get(loop, {}).items():
            if len(by_iters) == 2:
                (n1, c1), (n2, c2) = sorted(by_iters.items())
                med[mode] = (c2 - c1) / (n2 - n1)
        for m in MODES[1:]:
            if m in med and med.get("plain"):
                x[m] = med[m] / med["plain"]
        rows.append((names[loop], "instr", med, x))
    print("instructions per iteration (%s, callgrind, one process; bench/instructions.c):" % flavor)
    print_rows(rows)
    added = {r[0]: {m: r[2][m] - r[2]["plain"] for m in MODES[1:] if m in r[2] and "plain" in r[2]}
             for r in rows}
    for name, a in added.items():
        if a:
            print("  added by the checker, %s: %s" % (name, ", ".join(
                "%s %.0f" % (m, v) for m, v in a.items())))
    write_tsv(out, flavor, "instructions", rows)


def read_tsv(path):
    rows = []
    with open(path) as f:
        next(f)
        for line in f:
            c = line.rstrip("\n").split("\t")
            med = {m: float(v) for m, v in zip(MODES, c[2:5]) if v}
            x = {m: float(v) for m, v in zip(MODES[1:], c[5:7]) if v}
            rows.append((c[0], c[1], med, x))
    return rows


def summary(out, flavors):
    benches = ("instructions", "p2p", "coll", "apps")
    for flavor in flavors:
        rows, dates = [], []
        for b in benches:
            path = os.path.join(out, flavor, b + ".tsv")
            if os.path.exists(path):
                rows += [(("%s: %s" % (b, r[0])),) + r[1:] for r in read_tsv(path)]
                dates.append("%s %s" % (b, time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(path)))))
        if not rows:
            continue
        print("=== %s: everything measured (build/bench/%s/*.tsv) ===" % (flavor, flavor))
        print("measured: " + ", ".join(dates))
        print_rows(rows, 34)
        plot_summary(out, flavor, [r for r in rows if r[3]])


def plot_ratios(dat, png, title, size, yaxis, labels=("fast (target 1.05)", "strict (target 1.30)")):
    """A bar pair (fast, strict) per line of DAT ("name<TAB>x fast<TAB>x
    strict"), with issue 19's targets as dashed lines; gnuplot, when here."""
    if not shutil.which("gnuplot"):
        print("no gnuplot: no plot (apt-get install gnuplot-nox)")
        return
    script = """
set terminal pngcairo size %s font ",9" noenhanced
set output '%s'
set title "%s"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
%s
set ylabel "checked / plain"
set key top center
set grid ytics
set arrow from graph 0, first 1.05 to graph 1, first 1.05 nohead dt 2 lc rgb "#1f77b4"
set arrow from graph 0, first 1.30 to graph 1, first 1.30 nohead dt 2 lc rgb "#d62728"
set datafile separator "\\t"
plot '%s' using 2:xtic(1) title "%s" lc rgb "#1f77b4", \\
     '' using 3 title "%s" lc rgb "#d62728"
""" % (size, png, title, yaxis, dat, labels[0], labels[1])
    proc = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    print("gnuplot failed: " + proc.stderr.strip() if proc.returncode else "plot: " + png)


def plot_summary(out, flavor, rows):
    dat = os.path.join(out, flavor, "summary.dat")
    with open(dat, "w") as f:
        for name, _, _, x in rows:
            f.write("%s\t%.3f\t%.3f\n" % (name, x.get("fast", 0), x.get("strict", 0)))
    plot_ratios(dat, os.path.join(out, flavor, "summary.png"),
                "mpicheck (%s): checked / plain, per measure (log scale)" % flavor, "1100,520",
                "set logscale y 2\nset yrange [0.5:*]\nset xtics rotate by -40 left\nset bmargin 11",
                ("fast (whole-program target 1.05)", "strict (whole-program target 1.30)"))


def main(argv):
    if len(argv) >= 5 and argv[0] == "p2p":
        table_p2p(argv[1], int(argv[2]), argv[3], argv[4])
    elif len(argv) >= 5 and argv[0] == "coll":
        table_coll(argv[1], int(argv[2]), argv[3], argv[4])
    elif len(argv) >= 4 and argv[0] == "instructions":
        table_instructions(argv[1], argv[2], argv[3])
    elif len(argv) >= 3 and argv[0] == "summary":
        summary(argv[1], argv[2:])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
