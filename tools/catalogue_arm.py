# SPDX-License-Identifier: GPL-2.0-only
"""catalogue_arm.py - what gen-catalogue.py needs to read perf's arm64 pmu-events.

perf's arm64 JSON differs from x86's in three ways this module owns:
- a CPU directory's events and metrics name architecture-standard ones (ArchStdEvent)
  whose definitions live beside mapfile.csv (common-and-microarch.json, recommended.json
  for events, sbsa.json for metrics), and the directory's fields override the standard's,
  as jevents.py merges them;
- mapfile.csv names a CPU by its MIDR, and perf takes a line for the same implementer
  and part at that variant and revision or later (arm64 strcmp_cpuid_str());
- a metric may ask strcmp_cpuid_str(0xMIDR) of the running CPU: the generator writes the
  profile's groups once per class of CPUs the answers split them into, each group bound
  to its class's MIDRs (when = midr_el1 GLOB), the answers written in as 0 or 1.
"""
import glob
import json
import os
import re


def load_arm(arch, cpu_dir):
    """(events by upper-case name, metrics) of a CPU directory, standard ones resolved."""
    std_events, std_metrics = {}, {}
    for name in ("common-and-microarch.json", "recommended.json"):
        path = os.path.join(arch, name)
        for e in json.load(open(path)) if os.path.exists(path) else []:
            if "EventName" in e:
                std_events[e["EventName"].upper()] = e
    sbsa = os.path.join(arch, "sbsa.json")
    for m in json.load(open(sbsa)) if os.path.exists(sbsa) else []:
        std_metrics[m["MetricName"]] = m
    events, metrics = {}, []
    for path in sorted(glob.glob(os.path.join(cpu_dir, "*.json"))):
        for e in json.load(open(path)):
            std = e.get("ArchStdEvent")
            if "MetricExpr" in e or (std and std in std_metrics):
                merged = dict(std_metrics.get(std, {}), **e)
                merged.setdefault("MetricName", std)
                metrics.append(merged)
            elif std and std.upper() in std_events:
                events[std.upper()] = dict(std_events[std.upper()], **e, EventName=std.upper())
            elif "EventName" in e:
                events[e["EventName"].upper()] = e
    for name, e in std_events.items():  # perf finds the others as the PMU's sysfs events,
        events.setdefault(name, e)     # which the kernel names from the same architecture
    return events, metrics


def fields(midr):
    """(implementer, variant, part, revision) of a MIDR written as hex."""
    v = int(midr, 16)
    return v >> 24 & 0xff, v >> 20 & 0xf, v >> 4 & 0xfff, v & 0xf


def glob_part(implementer, part, variant="?", revision="?"):
    """A glob of the midr_el1 attribute (sysfs prints "0x%016llx") for one part."""
    return "0x00000000%02x%s%s%03x%s" % (implementer, variant, "f", part, revision)


def hex_range(lo, hi):
    """A glob class of the hex digits lo..hi as sysfs prints them ("[3-9a-f]")."""
    digits = "0123456789abcdef"[lo:hi + 1]
    if len(digits) == 1:
        return digits
    parts = [r for r in (digits.rstrip("abcdef"), digits.lstrip("0123456789")) if r]
    return "[%s]" % "".join(r[0] + ("-" + r[-1] if len(r) > 1 else "") for r in parts)


def at_least(implementer, part, variant, revision):
    """Globs naming the part at (variant, revision) or later."""
    out = [glob_part(implementer, part, "%x" % variant, hex_range(revision, 15))]
    if variant < 15:
        out.append(glob_part(implementer, part, hex_range(variant + 1, 15)))
    return out


def before(implementer, part, variant, revision):
    """Globs naming the part before (variant, revision)."""
    out = [glob_part(implementer, part, hex_range(0, variant - 1))] if variant > 0 else []
    if revision > 0:
        out.append(glob_part(implementer, part, "%x" % variant, hex_range(0, revision - 1)))
    return out


def mapfile_globs(midrs):
    """The midr_el1 globs of mapfile.csv's lines for a directory (perf: that part, at the
    line's variant and revision or later)."""
    out = []
    for midr in midrs:
        imp, var, part, rev = fields(midr)
        out += [glob_part(imp, part)] if (var, rev) == (0, 0) else at_least(imp, part, var, rev)
    return out


def cpuid_classes(metrics, midrs):
    """[(suffix, when globs or None, {strcmp_cpuid_str(X) text: "1" or "0"})]: the classes
    of this directory's CPUs that its metrics' strcmp_cpuid_str() questions tell apart
    (one, with no questions). A question is true for the same implementer and part at its
    variant and revision or later; the last class is the directory's other parts."""
    asked = sorted({q for m in metrics for q in _questions(m["MetricExpr"])})
    if not asked:
        return [("", None, {})]
    classes = []
    by_part = {}
    for q in asked:
        imp, var, part, rev = fields(q)
        by_part.setdefault((imp, part), set()).add((var, rev))
    for (imp, part), marks in sorted(by_part.items()):
        bounds = sorted(marks | {(0, 0)})
        for i, lo in enumerate(bounds):
            hi = bounds[i + 1] if i + 1 < len(bounds) else None
            globs = _interval(imp, part, lo, hi) if hi else at_least(imp, part, *lo)
            answers = {}
            for q in asked:
                qi, qv, qp, qr = fields(q)
                answers[q] = "1" if (qi, qp) == (imp, part) and lo >= (qv, qr) else "0"
            classes.append(("_%x%x%x" % (part, lo[0], lo[1]), globs, answers))
    classes.append(("_other", None, {q: "0" for q in asked}))
    return classes


def _questions(expr):
    return re.findall(r"strcmp_cpuid_str\((0x[0-9a-fA-F]+)\)", expr)


def _interval(imp, part, lo, hi):
    """Globs for the part at lo or later and before hi (variant, revision pairs)."""
    (lv, lr), (hv, hr) = lo, hi
    if lv == hv:
        return [glob_part(imp, part, "%x" % lv, hex_range(lr, hr - 1))]
    out = at_least(imp, part, lv, lr)[:1]
    out += [glob_part(imp, part, "%x" % v) for v in range(lv + 1, hv)]
    out += before(imp, part, hv, hr)[1:] if hr else []
    return out
