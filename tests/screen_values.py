#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""screen_values.py SCREEN RAW_JSONL N OUT_JSONL OUT_MAP - the numbers a person reads in
the monitor's TopDown tree (a tmux capture: one row a node, a column an instance, '^' past
perf's threshold) put in place of pmutop's own values in frame N (from 1) of its --raw JSON,
so that perf_metrics.py (perf's MetricExpr and MetricThreshold, written apart from
pmutop) judges what was on the screen. Prints how many values were read."""
import json
import re
import sys

CELL = re.compile(r"(-?[0-9]+\.[0-9]+)~?(\^?) %|n/a")  # a value (~: multiplexed, ^: past its threshold), or none


def tree_rows(screen):
    """{(metric, instance): (value, past)} from the tree pane's lines."""
    lines = open(screen, encoding="utf-8").read().split("\n")
    start = next(i for i, l in enumerate(lines) if "TopDown (perf's " in l)  # TMA (Intel) or pipeline utilisation
    columns = lines[start + 1].split()  # all socket0 socket1 ...
    rows = {}
    for line in lines[start + 2:]:
        if line[:1] in ("\u2500", "-") or not line.strip() or line.startswith("F1"):
            break  # the next pane, or the screen's end
        name = re.match(r"[\s\u25be\u25b8+-]*([A-Za-z][A-Za-z0-9_.]*)", line)  # past the tree's marks
        cells = [c for c in CELL.finditer(line) if c.start() > name.end()] if name else []
        if len(cells) != len(columns):
            sys.exit("screen_values: cannot read the tree row %r" % line)
        for inst, cell in zip(columns, cells):
            if cell.group(1) is not None:  # n/a: this kind of core has no such node
                rows[(name.group(1), inst)] = (float(cell.group(1)), cell.group(2) == "^")
    return rows


def main():
    screen, raw, n, out, out_map = sys.argv[1:6]
    rows = tree_rows(screen)
    frame = json.loads(open(raw).read().strip().split("\n")[int(n) - 1])
    metrics = []
    for m in frame["metrics"]:
        key = (m["metric"], m["instance"])
        if key in rows:  # only what the screen showed, as it showed it
            m = dict(m, value=rows[key][0], past_threshold=rows[key][1])
            metrics.append(m)
    if len(metrics) != len(rows):
        sys.exit("screen_values: %d values on screen, %d of them in the frame" % (len(rows), len(metrics)))
    frame["metrics"] = metrics
    with open(out, "w") as f:
        f.write(json.dumps(frame) + "\n")
    with open(out_map, "w") as f:
        for name in sorted({k[0] for k in rows}):
            f.write("%s %s\n" % (name, name))
    print("%d values read from the screen" % len(rows))


if __name__ == "__main__":
    main()
