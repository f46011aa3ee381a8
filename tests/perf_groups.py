#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""perf's weak groups per metric as an oracle for the perf groups pmutop opens.

Usage: perf_groups.py PERF_ARCH_DIR CPU_DIR SYSFS_ROOT DRYRUN INSTANCE GROUP SPEC
  PERF_ARCH_DIR  tools/perf/pmu-events/arch/x86 of linux-source (perf 6.12)
  CPU_DIR        the CPU's directory in it (sapphirerapids, ...)
  SYSFS_ROOT     the tree pmutop ran on
  DRYRUN         `pmutop --dry-run -M SPEC` output
  INSTANCE       the instance whose lines are compared (cpu0)
  GROUP          the profile group of the core's events there (core)
  SPEC           what -M was given: metric names and MetricGroups, comma-separated

Written from tools/perf/util/metricgroup.c and expr.y, sharing nothing with pmutop:
  - the metrics -M names: those whose MetricName or one of whose MetricGroups is a word
    of SPEC (case-insensitive);
  - a metric's events are perf's compute_ids of its MetricThreshold (else its
    MetricExpr), a name of another metric replaced by that metric's events: the literals
    (#smt_on, from the tree) are constants, "a if c else b" with c constant is the branch
    taken, x / 0 and d_ratio(x, 0) need nothing, '&' and '|' with a constant side are
    decided or left to the other; tool events (duration_time) are no event;
  - largest first (a stable sort); a metric whose events an earlier group holds all of
    reads that group; NO_GROUP_EVENTS (and _NMI with the watchdog on, _SMT with SMT on)
    groups nothing; any other metric is a new group {events}:W.
Where perf would give an event a counter in two groups pmutop gives it one, in the first
(pmutop(1), "counter sharing"): so the expected groups are perf's, in order, each taking
the events of the instance no earlier group took; a group left with one event is an
event opened alone. Only the events of GROUP are compared: perf splits a group by PMU,
and pmutop's TopDown slots group is a group of its own (perf adds a metric's core events
to it). Prints the differences and exits 1 if any; prints how many groups agreed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perf_metrics  # noqa: E402  (its JSON loading and perf's event encodings)

TOOL_EVENTS = {"duration_time", "user_time", "system_time"}
FUNCS = {"min", "max", "d_ratio", "source_count", "has_event", "strcmp_cpuid_str"}
LEVELS = [["|"], ["^"], ["&"], ["<", ">"], ["+", "-"], ["*", "/", "%"]]


def smt_on(root):
    path = os.path.join(root, "sys/devices/system/cpu/smt/active")
    if os.path.exists(path):
        return open(path).read().strip() == "1"
    cpus = os.path.join(root, "sys/devices/system/cpu")
    for d in os.listdir(cpus):
        sib = os.path.join(cpus, d, "topology/thread_siblings_list")
        if os.path.exists(sib) and ("," in open(sib).read() or "-" in open(sib).read()):
            return True
    return False


class Ids:
    """perf's compute_ids: a value (None: BOTTOM, some count) and the ids it needs."""

    def __init__(self, literals, has_event):
        self.literals, self.has_event = literals, has_event

    def parse(self, text):
        self.toks, self.pos = perf_metrics.tokenize(text), 0
        v = self.if_expr()
        if self.pos != len(self.toks):
            raise ValueError("cannot read %r" % text)
        return v

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else (None, None)

    def take(self, want=None):
        t = self.peek()
        if want is not None and t[1] != want:
            raise ValueError("expected %r at %r" % (want, t))
        self.pos += 1
        return t

    def if_expr(self):
        a = self.binary(0)
        if self.peek() == ("name", "if"):
            self.take()
            c = self.binary(0)
            self.take("else")
            b = self.if_expr()
            if c[0] == 0:
                return b
            if c[0] is not None:
                return a
            return None, a[1] | c[1] | b[1]
        return a

    def binary(self, level):
        if level == len(LEVELS):
            return self.unary()
        a = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in LEVELS[level]:
            op = self.take()[1]
            a = self.apply(op, a, self.binary(level + 1))
        return a

    @staticmethod
    def apply(op, a, b):
        (x, xi), (y, yi) = a, b
        if op in "|&":
            want = op == "&"
            if x is not None and y is not None:
                return float((x != 0 and y != 0) if want else (x != 0 or y != 0)), frozenset()
            k, other = (a, b) if x is not None else (b, a) if y is not None else (None, None)
            if k is None:
                return None, xi | yi
            return other if (k[0] != 0) == want else (float(not want), frozenset())
        if op in "/%" and y == 0:
            return None, frozenset()
        if x is not None and y is not None:
            f = {"^": lambda: float((x == 0) != (y == 0)), "<": lambda: float(x < y), ">": lambda: float(x > y),
                 "+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y, "/": lambda: x / y,
                 "%": lambda: float(int(x) % int(y))}[op]
            return f(), frozenset()
        return None, xi | yi

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            v, ids = self.unary()
            return (None if v is None else -v), ids
        return self.primary()

    def primary(self):
        kind, tok = self.take()
        if kind == "num":
            return float(tok), frozenset()
        if tok == "(":
            v = self.if_expr()
            self.take(")")
            return v
        if kind != "name":
            raise ValueError("unexpected %r" % tok)
        if tok.lower() in FUNCS and self.peek() == ("op", "("):
            return self.call(tok.lower())
        if tok.startswith("#"):
            return self.literals[tok.lower()], frozenset()
        return None, frozenset([tok])

    def call(self, name):
        self.take("(")
        if name in ("source_count", "has_event", "strcmp_cpuid_str"):
            arg = self.take()[1]
            self.take(")")
            if name == "source_count":
                return None, frozenset([arg])
            if name == "has_event":
                return float(self.has_event(arg)), frozenset()
            raise ValueError("strcmp_cpuid_str: an arm64 metric")
        a = self.binary(0)
        self.take(",")
        b = self.binary(0)
        self.take(")")
        if name == "d_ratio":
            if b[0] == 0:
                return 0.0, frozenset()
            if a[0] is not None and b[0] is not None:
                return a[0] / b[0], frozenset()
        return None, a[1] | b[1]


def main():
    arch, cpu, root, dryrun, instance, group, spec = sys.argv[1:8]
    events, metrics = perf_metrics.load_json_events(os.path.join(arch, cpu))
    ev = perf_metrics.Evaluator(events, metrics, root)
    by_name = {}
    for m in metrics:
        by_name.setdefault(m["MetricName"], m)
    smt = smt_on(root)
    nfit = os.path.exists(os.path.join(root, "sys/firmware/acpi/tables/NFIT"))
    literals = {"#smt_on": float(smt), "#core_wide": 1.0, "#num_packages": 1.0, "#num_dies": 1.0,
                "#num_cpus": 1.0, "#num_cpus_online": 1.0, "#num_cores": 1.0, "#system_tsc_freq": 1e9,
                "#has_pmem": float(nfit)}

    def exists(name):
        try:
            ev.config_of("cpu", name)
            return True
        except (KeyError, OSError, ValueError):
            return False
    parser = Ids(literals, exists)

    def ids_of(text, seen):
        out = set()
        for i in parser.parse(text)[1]:
            if i in by_name and i not in seen:  # another metric: its events
                seen.add(i)
                out |= ids_of(by_name[i]["MetricExpr"], seen)
            elif i not in by_name and i not in TOOL_EVENTS:
                out.add(i)
        return out

    words = [w.lower() for w in spec.split(",") if w]
    roots = [m for m in metrics if m["MetricName"].lower() in words or
             any(g.lower() in words for g in m.get("MetricGroup", "").split(";") if g)]
    nmi = open(os.path.join(root, "proc/sys/kernel/nmi_watchdog")).read().strip() == "1" \
        if os.path.exists(os.path.join(root, "proc/sys/kernel/nmi_watchdog")) else False
    entries = []
    for m in roots:
        c = m.get("MetricConstraint", "")
        grouped = not (c == "NO_GROUP_EVENTS" or (c in ("NO_GROUP_EVENTS_NMI", "NO_NMI_WATCHDOG") and nmi) or
                       (c == "NO_GROUP_EVENTS_SMT" and smt))
        text = m.get("MetricThreshold") or m["MetricExpr"]
        entries.append((m["MetricName"], grouped, ids_of(text, set())))
    entries.sort(key=lambda e: -len(e[2]))  # stable: perf's list_sort is a merge sort
    groups = []
    for name, grouped, ids in entries:
        if grouped and not any(ids <= g for g in groups):
            groups.append(ids)

    # the instance's GROUP lines, in order: leader, members, singles
    lines = [l.rstrip("\n").split("\t") for l in open(dryrun)]
    lines = [l for l in lines if len(l) >= 8 and l[0] == instance and l[1] == group]
    if not lines:
        print("no %s lines of group %s in %s" % (instance, group, dryrun))
        return 1

    def enc(line):  # config, config1 and the exclude bits the modifiers set
        ex = tuple(sorted(f[len("exclude_"):-2] for f in line[7:-1] if f.startswith("exclude_") and f.endswith("=1")))
        return int(line[4].split("=")[1], 0), int(line[5].split("=")[1], 0), ex
    opened = {enc(l) for l in lines}
    got, cur = set(), None
    for l in lines:
        if l[-1] == "leader":
            cur = [enc(l)]
            got.add(frozenset(cur))
        elif l[-1] == "member":
            got.discard(frozenset(cur))
            cur.append(enc(l))
            got.add(frozenset(cur))
    want, taken = set(), set()
    for ids in groups:
        mine = set()
        for i in ids:
            try:
                e = ev.config_of("cpu", i)
            except (KeyError, OSError, ValueError):
                continue  # not the core's (msr, an uncore PMU): another group's
            key = (e[1], e[2], e[3] if len(e) > 3 else ())
            if e[0] == "cpu" and key in opened and key not in taken:
                mine.add(key)
        taken |= mine
        if len(mine) > 1:
            want.add(frozenset(mine))
    bad = 0
    for g in sorted(want - got, key=sorted):
        print("perf groups %s; pmutop does not" % sorted("%#x" % k[0] for k in g))
        bad += 1
    for g in sorted(got - want, key=sorted):
        print("pmutop groups %s; perf does not" % sorted("%#x" % k[0] for k in g))
        bad += 1
    print("%d groups agreed, %d differ (%d metrics, %d of perf's groups)" % (len(want & got), bad, len(entries),
                                                                           len(groups)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
