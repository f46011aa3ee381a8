#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""first_frame.py RUNS COMMAND...: the milliseconds from starting COMMAND to the first byte
of its output (the first frame, as a user waits for it) and to its exit; the median and
the runs, after one run that warms the page cache. Timed here with a monotonic clock
around the child, not by two `date` processes around it (they added ~3 ms here)."""
import subprocess
import sys
import time


def once(cmd):
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdout.read(1)
    t1 = time.perf_counter_ns()
    p.stdout.read()
    p.wait()
    t2 = time.perf_counter_ns()
    return (t1 - t0) / 1e6, (t2 - t0) / 1e6


def main():
    runs, cmd = int(sys.argv[1]), sys.argv[2:]
    once(cmd)
    first, done = zip(*(once(cmd) for _ in range(runs)))
    med = lambda xs: sorted(xs)[len(xs) // 2]
    show = lambda xs: " ".join("%.1f" % x for x in sorted(xs))
    print("bench: demo_first_frame %.1f ms (to its first byte; runs: %s)" % (med(first), show(first)))
    print("bench: demo_first_frame_to_exit %.1f ms (runs: %s)" % (med(done), show(done)))


main()
