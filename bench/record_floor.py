#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The information floor of a recording, in bytes per counter per sample: the model's
noise (uniform, +-JITTER of each rate) makes a delta one of about 2 x JITTER x delta
values, so no codec can store it in fewer than log2 of that many bits; a counter with
no noise (or a reading) costs nothing at the floor. Averaged over every counter of every
interval but the first of pmutop's --format json --raw output on stdin.
usage: record_floor.py JITTER < raw.jsonl"""
import json
import math
import sys

jitter = float(sys.argv[1])
bits = n = 0
for i, line in enumerate(sys.stdin):
    if i == 0:
        continue  # the first interval starts the counters
    for c in json.loads(line)["counters"]:
        n += 1
        width = 2 * jitter * c.get("delta", 0)
        bits += math.log2(width) if width > 1 else 0
print("%.3f" % (bits / 8 / n if n else 0))
