#!/usr/bin/env python3
"""Runs a command; prints the seconds from the line "verdict: hang starts"
(stdout) to the first "mpicheck: ERROR deadlock" line (stderr), and to the
command's end: "hang_to_report hang_to_end exit_status". Used by scripts/bench
verdict. Standard library only."""
import selectors, subprocess, sys, time

p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sel = selectors.DefaultSelector()
sel.register(p.stdout, selectors.EVENT_READ)
sel.register(p.stderr, selectors.EVENT_READ)
hang = report = None
open_streams = 2
while open_streams:
    for key, _ in sel.select():
        line = key.fileobj.readline()
        if not line:
            sel.unregister(key.fileobj)
            open_streams -= 1
            continue
        now = time.monotonic()
        if hang is None and b"verdict: hang starts" in line:
            hang = now
        if report is None and b"mpicheck: ERROR deadlock" in line:
            report = now
rc = p.wait()
end = time.monotonic()
if hang is None or report is None:
    print("nan nan %d" % rc)
else:
    print("%.3f %.3f %d" % (report - hang, end - hang, rc))
