#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The soak's control for late refreshes: was it pmutop, or the machine?

  lateness.py probe OUT STEP_MS
      sleeps STEP_MS again and again and writes to OUT every wake-up that came more than
      one step late, as "END_WALL_SECONDS GAP_MS" (runs until killed).
  lateness.py judge REPLAY_JSON STALLS STEP_MS
      reads a replay's JSON lines and the probe's stalls; prints one line per refresh that
      took more than twice its interval, saying whether the probe stalled at the same time,
      and a last line "late N machine M" (M of the N overlapped a stall of the probe).

A wake-up of a process that does nothing but sleep can only be late because the machine
(a VM's host, the kernel) held every process back; a refresh late while the probe was on
time is pmutop's own.
"""
import calendar
import json
import sys
import time


def probe(out, step_ms):
    step = step_ms / 1000.0
    with open(out, "w", encoding="ascii") as f:
        prev = time.monotonic()
        while True:
            time.sleep(step)
            now = time.monotonic()
            gap = now - prev
            if gap > 2 * step:
                f.write(f"{time.time():.3f} {gap * 1000:.1f}\n")
                f.flush()
            prev = now


def wall_seconds(stamp):
    # "2026-11-24T18:52:28.547Z"
    whole, frac = stamp.rstrip("Z").split(".")
    return calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) + int(frac) / 1000.0


def judge(replay, stalls_path, step_ms):
    stalls = []
    with open(stalls_path, encoding="ascii") as f:
        for line in f:
            end, gap = line.split()
            end, gap = float(end), float(gap) / 1000.0
            stalls.append((end - gap, end))
    late = machine = 0
    with open(replay, encoding="utf-8") as f:
        for n, line in enumerate(f):
            frame = json.loads(line)
            interval = frame["interval_ns"] / 1e9
            if n == 0 or interval <= 2 * step_ms / 1000.0:
                continue
            late += 1
            end = wall_seconds(frame["time"])
            begin = end - interval
            # the stamp is in milliseconds and the probe wakes every step: a little slack
            hit = any(b <= end + 0.01 and e >= begin - 0.01 for b, e in stalls)
            machine += hit
            print(f"late refresh at {frame['time']}: {interval * 1000:.0f} ms"
                  f" ({'the probe stalled too' if hit else 'the probe was on time'})")
    print(f"late {late} machine {machine}")


def main(argv):
    if len(argv) == 4 and argv[1] == "probe":
        probe(argv[2], float(argv[3]))
    elif len(argv) == 5 and argv[1] == "judge":
        judge(argv[2], argv[3], float(argv[4]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
