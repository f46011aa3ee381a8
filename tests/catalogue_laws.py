#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The laws a machine obeys, on a generated tree of one CPU directory of perf's catalogue
under the default model (tests/test_catalogue_every.sh): every share perf gives in percent
is within 0-100 % and nothing is negative; Intel's TopDown level 1 adds up to 100 %. The
numbers are perf's formulae on the model's counts, so a law broken here is a model that
contradicts itself (or a formula of perf's that is not a share: said below, by rule).

Usage: catalogue_laws.py PERF_CPU_DIR RUN.jsonl CPU
Prints one line per broken law and a summary; exits 1 if any is broken."""
import glob
import json
import os
import re
import sys

TOLERANCE = 0.5  # percentage points: the model's noise (jitter 0) is none; rounding is

# perf 6.12's own formulae that are not shares, with why (pmutop computes what perf does):
# Haswell's tma_memory_bound puts its non-SMT branch outside the division (hsw-metrics.json:
# "(A / B if #smt_on else B') * tma_backend_bound"), so without SMT it is a count of cycles;
# tma_core_bound is backend bound less it
PERF_NOT_SHARES = {
    "haswell": {"tma_memory_bound", "tma_core_bound"},
    "haswellx": {"tma_memory_bound", "tma_core_bound"},
}


def doubled_scale(cpu_dir):
    """Metrics perf scales twice: a MetricExpr of '100 * ...' with ScaleUnit '100%' (Grand
    Ridge's and Sierra Forest's tma_info_*_cycles). Their value is a percentage of a
    percentage: the law reads it divided by 100."""
    out = set()
    for f in glob.glob(os.path.join(cpu_dir, "*.json")):
        for e in json.load(open(f)):
            if isinstance(e, dict) and "MetricName" in e and e.get("ScaleUnit", "").startswith("100%") \
                    and re.match(r"\s*100\s*\*", e.get("MetricExpr", "")):
                out.add(e["MetricName"])
    return out


def last_frame(path):
    last = None
    for line in open(path):
        if line.strip():
            last = json.loads(line)
    return last


def main():
    cpu_dir, run, cpu = sys.argv[1:4]
    doubled = doubled_scale(cpu_dir)
    exempt = PERF_NOT_SHARES.get(cpu.replace("/", "-"), set())
    frame = last_frame(run)
    broken, checked = [], 0
    rows = {}
    for m in frame.get("metrics", []):
        v, name = m.get("value"), m["metric"]
        if v is None or name in exempt:
            continue
        rows.setdefault(m["instance"], {})[name] = v
        if name in doubled:
            v /= 100
        checked += 1
        if m.get("unit") == "%" and not -TOLERANCE <= v <= 100 + TOLERANCE:
            broken.append("%s %s = %.4g %% (not a share)" % (m["instance"], name, v))
        elif v < -1e-9 * max(1.0, abs(v)):
            broken.append("%s %s = %.4g (negative)" % (m["instance"], name, v))
    level1 = ("tma_retiring", "tma_bad_speculation", "tma_frontend_bound", "tma_backend_bound")
    for inst, vals in rows.items():
        if all(k in vals for k in level1):
            checked += 1
            total = sum(vals[k] for k in level1)
            if abs(total - 100) > TOLERANCE:
                broken.append("%s TopDown level 1 adds up to %.4g %%" % (inst, total))
    for b in broken:
        print(b)
    print("%d values and sums, %d laws broken" % (checked, len(broken)))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
