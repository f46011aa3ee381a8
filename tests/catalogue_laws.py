#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The laws a machine obeys, on a generated tree of one CPU directory of perf's catalogue
under the default model (tests/test_catalogue_every.sh): every share perf gives in percent
is within 0-100 % and nothing is negative; Intel's TopDown level 1 adds up to 100 % and
level 2 to each level-1 parent; no node of the tree (a tma_X_group's member is X's child)
is above its parent; misses per thousand instructions fall from L1 to L2 to L3. The
numbers are perf's formulae on the model's counts, so a law broken here is a model that
contradicts itself (or a formula of perf's that is not a share: said below, by rule).

Usage: catalogue_laws.py PERF_CPU_DIR RUN.jsonl CPU CATALOGUE.ini
Prints one line per broken law and a summary; exits 1 if any is broken."""
import glob
import json
import os
import re
import sys

TOLERANCE = 0.5  # percentage points: the model's noise (jitter 0) is none; rounding is
# a child above its parent by more than a point: perf's formulae for a node and its
# children read different events (Skylake's ports from EXE_ACTIVITY, Haswell's from
# UOPS_EXECUTED), and the model makes them agree to within this
CHILD_TOLERANCE = 1.0
# below ports_utilized_3m, TMA's nodes are the ports' utilization (a fraction of the
# core's cycles each port is busy), not shares of their parent's cycles
NOT_PARTS = "tma_ports_utilized_3m"
# the pipeline's level 1 and 2 where perf's names are not TMA's: AMD's PipelineL1/L2
# (Zen 5 says "_by_", "_from_"), Arm's and HiSilicon's TopDown; a whole is all its parts
WHOLES = (("", ("retiring", "bad_speculation", "frontend_bound", "backend_bound", "smt_contention")),
          ("backend_bound", ("backend_bound_cpu", "backend_bound_memory")),
          ("backend_bound", ("backend_bound_by_cpu", "backend_bound_by_memory")),
          ("backend_bound", ("memory_bound", "core_bound")),
          ("bad_speculation", ("bad_speculation_mispredicts", "bad_speculation_pipeline_restarts")),
          ("bad_speculation", ("bad_speculation_from_mispredicts", "bad_speculation_from_pipeline_restarts")),
          ("frontend_bound", ("frontend_bound_bandwidth", "frontend_bound_latency")),
          ("frontend_bound", ("frontend_bound_by_bandwidth", "frontend_bound_by_latency")),
          ("frontend_bound", ("fetch_bandwidth_bound", "fetch_latency_bound")),
          ("retiring", ("retiring_fastpath", "retiring_microcode")),
          ("retiring", ("retiring_from_fastpath", "retiring_from_microcode")))
# misses per kilo-instruction down the hierarchy: Intel's and Arm's (Neoverse) names
MPKI_CHAINS = (("tma_info_memory_l1mpki", "tma_info_memory_l2mpki", "tma_info_memory_l3mpki"),
               ("l1d_cache_mpki", "l2_cache_mpki", "ll_cache_read_mpki"))

# perf 6.12's own formulae that are not shares, with why (pmutop computes what perf does):
# Haswell's tma_memory_bound puts its non-SMT branch outside the division (hsw-metrics.json:
# "(A / B if #smt_on else B') * tma_backend_bound"), so without SMT it is a count of cycles;
# tma_core_bound is backend bound less it
PERF_NOT_SHARES = {
    "haswell": {"tma_memory_bound", "tma_core_bound"},
    "haswellx": {"tma_memory_bound", "tma_core_bound"},
}


def percent(unit):
    """Is the unit a percentage (perf's "%", AMD's "%slots", Arm's "percent of slots")?"""
    return bool(unit) and (unit.startswith("%") or unit.startswith("percent"))


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


def tree_of(ini):
    """Each TopDown node's parent, from the catalogue's groups: a member of tma_X_group is a
    child of tma_X (perf's JSON says the tree so: MetricGroup tma_X_group)."""
    parent = {}
    text = open(ini).read()
    for m in re.finditer(r"^\[metric (\S+)\]\n((?:[\w@.]+ = .*\n)*)", text, re.M):
        g = re.search(r"^groups = (.*)$", m.group(2), re.M)
        for w in (g.group(1).split() if g else ()):
            p = re.fullmatch(r"(tma_\w+)_group", w)
            if p and p.group(1) != m.group(1) and not re.fullmatch(r"tma_L\d", p.group(1)):
                parent[m.group(1)] = p.group(1)
    return parent


def is_part(node, parent):
    while node in parent:
        node = parent[node]
        if node == NOT_PARTS:
            return False
    return True


def last_frame(path):
    last = None
    for line in open(path):
        if line.strip():
            last = json.loads(line)
    return last


def main():
    cpu_dir, run, cpu, ini = sys.argv[1:5]
    parent = tree_of(ini)
    doubled = doubled_scale(cpu_dir)
    exempt = PERF_NOT_SHARES.get(cpu.replace("/", "-"), set())
    frame = last_frame(run)
    broken, checked = [], 0
    rows, units = {}, {}
    for m in frame.get("metrics", []):
        v, name = m.get("value"), m["metric"]
        units[name] = m.get("unit")
        if v is None or name in exempt:
            continue
        rows.setdefault(m["instance"], {})[name] = v
        if name in doubled:
            v /= 100
        checked += 1
        if percent(m.get("unit")) and not -TOLERANCE <= v <= 100 + TOLERANCE:
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
    for inst, vals in rows.items():
        for l1 in level1:  # level 2 is all of its level-1 parent (perf's TopdownL2)
            kids = [c for c, up in parent.items() if up == l1]
            if l1 in vals and kids and all(k in vals for k in kids):
                checked += 1
                total = sum(vals[k] for k in kids)
                if abs(total - vals[l1]) > CHILD_TOLERANCE:
                    broken.append("%s %s = %.4g, its children add up to %.4g" % (inst, l1, vals[l1], total))
        for whole, parts in WHOLES:
            have = [p for p in parts if p in vals]
            if len(have) < (4 if not whole else len(parts)) or (whole and whole not in vals):
                continue
            checked += 1
            # a percent where perf gives one (Arm's, AMD's), else a fraction (HiSilicon's)
            want = vals[whole] if whole else (100 if percent(units.get(have[0])) else 1)
            total = sum(vals[p] for p in have)
            tol = CHILD_TOLERANCE if percent(units.get(have[0])) else CHILD_TOLERANCE / 100
            if abs(total - want) > tol:
                broken.append("%s %s = %.4g, its parts %s add up to %.4g" % (inst, whole or "all slots", want,
                                                                              "+".join(have), total))
        for chain in MPKI_CHAINS:
            got = [vals.get(k) for k in chain]
            if None not in got:
                checked += 1
                if not got[0] >= got[1] >= got[2]:
                    broken.append("%s misses per kilo-instruction rise down the caches: %s" %
                                  (inst, ", ".join("%s %.4g" % kv for kv in zip(chain, got))))
        for child, up in parent.items():
            if child in vals and up in vals and is_part(child, parent):
                checked += 1
                if vals[child] > vals[up] + CHILD_TOLERANCE:
                    broken.append("%s %s = %.4g above its parent %s = %.4g" % (inst, child, vals[child], up, vals[up]))
    for b in broken:
        print(b)
    print("%d values and sums, %d laws broken" % (checked, len(broken)))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
