#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""perf's own metric definitions as an oracle for pmutop's numbers.

Usage: perf_metrics.py PERF_ARCH_DIR CPU_DIR SYSFS_ROOT RAW.jsonl MAP
  PERF_ARCH_DIR  tools/perf/pmu-events/arch/x86 (or arm64) of linux-source (perf 6.12)
  CPU_DIR        the CPU's directory in it (sapphirerapids, icelakex, alderlake, skylakex,
                 arm/neoverse-n2-v2)
  SYSFS_ROOT     the tree pmutop ran on (sysfs aliases are encoded from it, not by pmutop)
  RAW.jsonl      `pmutop --format json --raw` output
  MAP            lines "pmutop_metric perf_MetricName"

Each perf MetricExpr is evaluated on the raw deltas pmutop read, per CPU and summed per
aggregate instance; an event is found among the counters by its encoding, worked out here
from perf's JSON terms (EventCode, UMask, CounterMask, PortMask, ...) through the tree's
format files, or from the tree's sysfs alias. Prints one line per comparison that
disagrees by more than 1e-9 of perf's value (or, with a 6th argument --pp N, by more than
N percentage points) and exits 1 if any did; prints how many agreed.

As perf evaluates them with SMT off (#SMT_on 0, #core_wide 1): an any-thread event
(INT_MISC.RECOVERY_CYCLES_ANY) then counts what the thread's own does, so a count of one
stands for the other. Arm: metrics keyed by ArchStdEvent (neoverse-n2-v2's override
sbsa.json's), events by their sysfs aliases, #slots from caps/slots, and
strcmp_cpuid_str() as perf's arm64 header.c compares MIDRs (same part, revision at least).
"""
import glob
import json
import math
import os
import re
import sys

# pmutop prints values as %.10g: its rounding is within 5e-10 of the value; the tolerance
# is 1e-9 of perf's value (and 1e-12 absolute, for a value of 0)
TOL_REL, TOL_ABS = 1e-9, 1e-12


TOL_PP = None  # --pp N: within N percentage points instead (a definition that differs by design)


def agrees(got, want):
    if got is None or math.isnan(want):  # perf's nan (a zero divisor) is no number: none
        return got is None and math.isnan(want)
    return abs(got - want) <= (TOL_PP if TOL_PP is not None else TOL_REL * abs(want) + TOL_ABS)


def load_json_events(cpu_dir):
    events, metrics = {}, []
    paths = glob.glob(os.path.join(cpu_dir, "*.json"))
    sbsa = os.path.join(os.path.dirname(os.path.dirname(cpu_dir)), "sbsa.json")
    if os.path.exists(sbsa):  # arm64: the standard metrics, after the core's own
        paths.append(sbsa)
    arch = os.path.dirname(os.path.dirname(cpu_dir))
    std = {}  # arm64: the architecture's standard events a directory names (ArchStdEvent)
    for name in ("common-and-microarch.json", "recommended.json"):
        if os.path.exists(os.path.join(arch, name)):
            std.update({e["EventName"]: e for e in json.load(open(os.path.join(arch, name))) if "EventName" in e})
    for path in paths:
        for e in json.load(open(path)):
            if "MetricExpr" in e:  # jevents.py: a metric, and an event too where it is named
                e.setdefault("MetricName", e.get("ArchStdEvent"))
                metrics.append(e)
                if "EventName" not in e:
                    continue
            if isinstance(e, dict) and "EventName" not in e and e.get("ArchStdEvent") in std:
                events.setdefault(("", e["ArchStdEvent"]), std[e["ArchStdEvent"]])
            elif "EventName" in e:
                events[(e.get("Unit", ""), e["EventName"])] = e
                events.setdefault(("", e["EventName"]), e)
    return events, metrics


# perf's jevents.py turns the fixed counters' pseudo-encodings into these (real_event())
FIXED = {"INST_RETIRED.ANY": 0xc0, "INST_RETIRED.ANY_P": 0xc0, "CPU_CLK_UNHALTED.REF": 0x300,
         "CPU_CLK_UNHALTED.THREAD": 0x3c, "CPU_CLK_UNHALTED.CORE": 0x3c,
         "CPU_CLK_UNHALTED.THREAD_ANY": 0x3c | 1 << 21}


# perf's legacy hardware events (PERF_TYPE_HARDWARE config), taken where no PMU of the
# metric's has a sysfs event of the name
LEGACY = {"cycles": 0, "cpu-cycles": 0, "instructions": 1, "cache-references": 2, "cache-misses": 3,
          "branches": 4, "branch-instructions": 4, "branch-misses": 5, "bus-cycles": 6, "ref-cycles": 9}
# PMUs whose events perf's core metrics read beside the core's (by name or PMU@EVENT@)
HELPER_PMUS = ("msr", "cstate_core", "cstate_pkg", "power", "software")

# perf's jevents.py lookup_msr(): the register an event's MSRValue goes to, a config1
# field of Intel's core PMU (format/offcore_rsp, frontend, ldlat: config1 from bit 0)
MSR_FIELD = {0x3F6: "ldlat", 0x1A6: "offcore_rsp", 0x1A7: "offcore_rsp", 0x3F7: "frontend"}


def json_config(e):
    """A fixed counter's event as jevents.py makes it real."""
    return FIXED[e["EventName"].upper()]


# the JSON's Unit as perf's jevents.py names the PMU (else uncore_ + the unit, lower case)
UNIT_PMUS = {"UPI LL": "uncore_upi", "QPI LL": "uncore_qpi", "CBO": "uncore_cbox", "SBO": "uncore_sbox",
             "iMPH-U": "uncore_arb", "L3PMC": "amd_l3", "DFPMC": "amd_df", "UMCPMC": "amd_umc",
             "cpu_core": "cpu_core", "cpu_atom": "cpu_atom"}
# jevents.py: the JSON fields that become terms, parsed by the PMU's format files
JSON_TERMS = {"EventCode": "event", "UMask": "umask", "PortMask": "ch_mask", "FCMask": "fc_mask",
              "CounterMask": "cmask", "EdgeDetect": "edge", "Invert": "inv", "NodeType": "type",
              "RdWrMask": "rdwrmask", "EnAllCores": "enallcores", "EnAllSlices": "enallslices",
              "SliceId": "sliceid", "ThreadMask": "threadmask", "AnyThread": "any"}


def helper(pmu):
    """Not the core PMU a core metric is of: msr, the C-state PMUs, software, an uncore PMU."""
    return pmu in HELPER_PMUS or pmu.startswith(("uncore_", "amd_"))


def pmu_base(pmu):
    """perf's wildcard: uncore_cha_3 and amd_umc_2 are the PMUs uncore_cha and amd_umc."""
    return re.sub(r"_\d+$", "", pmu)


def pmu_dirs(root, base):
    d = os.path.join(root, "sys/bus/event_source/devices")
    return sorted(p for p in os.listdir(d) if p == base or re.fullmatch(re.escape(base) + r"_\d+", p))


def format_encode(root, pmu, terms):
    """(config, config1) of TERMS {name: value} on PMU's format files: each a word and bit
    ranges, the value's bits spread over them lowest first (umask = config:8-15,32-55);
    config, config1 and config2 are whole words."""
    words = {k: v for k, v in terms.items() if k in ("config", "config1", "config2")}
    fields = {k: v for k, v in terms.items() if k not in words}
    return set_fields(root, pmu, words.get("config", 0), words.get("config1", 0), fields)


def set_fields(root, pmu, config, config1, terms):
    """(config, config1) with TERMS' fields set to their values, by the PMU's format files."""
    words = [config, config1, 0]
    for name, value in terms.items():
        spec = open(os.path.join(root, "sys/bus/event_source/devices", pmu, "format", name)).read().strip()
        word, _, ranges = spec.partition(":")
        shift = 0
        for r in ranges.split(","):
            lo, _, hi = r.partition("-")
            lo, hi = int(lo), int(hi or lo)
            mask = (1 << (hi - lo + 1)) - 1
            w = int(word[6:] or 0)
            words[w] = words[w] & ~(mask << lo) | ((value >> shift) & mask) << lo
            shift += hi - lo + 1
    return words[0], words[1]


def sysfs_config(root, pmu, alias):
    """Encode a sysfs alias with the PMU's format files (config word 0 only)."""
    d = os.path.join(root, "sys/bus/event_source/devices", pmu)
    path = os.path.join(d, "events", alias)
    if not os.path.exists(path):
        return None
    config = 0
    for term in open(path).read().strip().split(","):
        k, _, v = term.partition("=")
        spec = open(os.path.join(d, "format", k.strip())).read().strip()
        word, _, bits = spec.partition(":")
        assert word == "config", spec
        lo, _, hi = bits.partition("-")
        config |= int(v or "1", 0) << int(lo)
    return config


def tokenize(expr):
    # perf's expr.l: a symbol is [0-9a-zA-Z_.:@?] and escapes (the modifiers of EVENT:k)
    tok = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:e[-+]?\d+)?)|(?P<name>(?:[A-Za-z_#]|\\.)(?:[A-Za-z0-9_.@#:]|\\.)*)"
                     r"|(?P<op>[-+*/(),<>|&^]))")
    pos, out = 0, []
    while pos < len(expr.rstrip()):
        m = tok.match(expr, pos)
        if not m:
            raise ValueError("cannot read %r at %d" % (expr, pos))
        pos = m.end()
        if m.group("name"):
            out.append(("name", re.sub(r"\\(.)", r"\1", m.group("name"))))
        elif m.group("num"):
            out.append(("num", m.group("num")))
        else:
            out.append(("op", m.group("op")))
    return out


class Missing:
    """An event pmutop did not count, in a branch of a conditional perf may not take."""
    def __init__(self, why):
        self.why = why

    def _fail(self, *_):
        raise KeyError(self.why.args[0] if self.why.args else str(self.why))
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __rtruediv__ = __lt__ = __gt__ = __neg__ = __float__ = _fail


class Evaluator:
    def __init__(self, events, metrics, root):
        self.events, self.metrics, self.root = events, metrics, root
        self.duration = math.nan  # the interval being evaluated, in seconds
        self.sources, self.whole = {}, False  # the instance's counters per event; is it "all"
        self.row_cpus = None  # the CPUs the row stands for (None: the machine)
        self.metric_names = {m["MetricName"] for m in metrics}
        self.unkinded = {m["MetricName"] for m in metrics if not m.get("Unit")}
        self.encodings = {}

    def metric(self, name, pmu):
        for m in self.metrics:
            # a Unit is a hybrid's kind of core, or the uncore PMU of the metric's events
            # (Skylake-SP's LLC_MISSES.PCIE_READ: IIO), which any box of it computes
            if m["MetricName"] == name and m.get("Unit", pmu) in (pmu, "") or \
                    m["MetricName"] == name and m["Unit"] not in ("cpu_core", "cpu_atom"):
                return m
        raise KeyError("no perf metric %s for %s" % (name, pmu))

    def config_of(self, pmu, name):
        """(pmu, config, config1) of an event as perf would open it, read once per name
        (the tree's files do not change while this runs)."""
        key = (pmu, name)
        if key not in self.encodings:
            try:
                self.encodings[key] = self.encode(pmu, name)
            except (KeyError, OSError) as e:
                self.encodings[key] = e
        if isinstance(self.encodings[key], Exception):
            raise self.encodings[key]
        return self.encodings[key]

    def encode(self, pmu, name):
        terms = {}
        if re.fullmatch(r"[A-Za-z0-9_.]+:[ukh]+", name):  # CPU_CLK_UNHALTED.THREAD_P:k
            base, mods = name.split(":")
            return self.config_of(pmu, base)[:3] + (perf_excludes(mods),)
        if re.fullmatch(r"[a-z0-9_]+@[^@]+@[ukh]+", name):  # cpu_core@CPU_CLK_UNHALTED.THREAD_P@k
            pmu_, ev, mods = name.split("@")
            return self.config_of(pmu_, pmu_ + "@" + ev + "@")[:3] + (perf_excludes(mods),)
        if "@" in name:  # cpu_core@EVENT@ or cpu@EVENT\,cmask\=1@
            pmu, name = name.split("@")[0], name.split("@")[1]
            raw = {k: int(v, 0) for k, v in (t.split("=") for t in name.split(","))} \
                if all("=" in t for t in name.split(",")) else None
            devices = os.path.join(self.root, "sys/bus/event_source/devices")
            if raw is not None and pmu != pmu.upper() and not os.path.isdir(os.path.join(devices, pmu)):
                pmu = "uncore_" + pmu  # perf_pmu__match: cha_0 is the PMU uncore_cha_0
            if raw is not None and os.path.isdir(os.path.join(devices, pmu)):
                # armv8_pmuv3_0@event=0x2013@, uncore_cha_0@event=0x1@: raw terms on that PMU
                c, c1 = format_encode(self.root, pmu, raw)
                return pmu, c, c1
            if raw is not None:  # UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD@thresh=1@: perf's
                # parse-events takes a name that is no PMU as the event, these terms added
                base, c, c1 = self.config_of("", pmu)[:3]
                return (base,) + set_fields(self.root, pmu_dirs(self.root, base)[0], c, c1, raw)
            name, *extra = name.split(",")
            terms = dict(t.split("=") if "=" in t else (t, "1") for t in extra)
        if terms:  # perf's terms on a JSON event: fields of config (Intel's format files)
            pmu_, c, c1 = self.config_of(pmu, name)
            fields = {"event": (0, 0xff), "umask": (8, 0xff), "cmask": (24, 0xff), "edge": (18, 1), "inv": (23, 1),
                      "any": (21, 1)}
            for k, v in terms.items():
                if k == "config1":  # a raw word: it replaces the event's
                    c1 = int(v, 0)
                    continue
                shift, mask = fields[k]
                c = (c & ~(mask << shift)) | (int(v, 0) & mask) << shift
            return pmu_, c, c1
        c = sysfs_config(self.root, pmu, name)
        if c is None and pmu.startswith("armv8"):  # Arm: STALL_SLOT is the alias stall_slot
            c = sysfs_config(self.root, pmu, name.lower())
        if c is not None:
            return pmu, c, 0
        e = self.events.get((pmu, name)) or self.events.get(("", name))
        if e is not None and e["EventName"].upper() in FIXED:
            return pmu, json_config(e), 0
        if e is not None:  # perf's JSON terms, through the PMU's format files (the core's,
            # or an uncore event's: its Unit's)
            base = UNIT_PMUS.get(e["Unit"], "uncore_" + e["Unit"].lower()) if e.get("Unit") else pmu
            dirs = pmu_dirs(self.root, base)
            if not dirs:
                raise KeyError("no %s PMU on the tree for %s" % (base, name))
            terms = {t: int(str(e[k]).split(",")[0], 0) for k, t in JSON_TERMS.items()
                     if k in e and int(str(e[k]).split(",")[0], 0)}
            if "ConfigCode" in e:
                terms = {"config": int(e["ConfigCode"], 0)}
            else:
                terms["event"] = int(str(e.get("EventCode", "0")).split(",")[0], 0) | int(e.get("ExtSel", "0"), 0) << 8
            msr = e.get("MSRIndex")
            if msr and int(msr.split(",")[0], 0) in MSR_FIELD:
                terms[MSR_FIELD[int(msr.split(",")[0], 0)]] = int(e.get("MSRValue", "0"), 0)
            for t in filter(None, e.get("Filter", "").split(",")):  # jevents.py: the JSON's
                k, _, v = t.partition("=")                       # Filter, terms appended
                terms[k.strip()] = int(v or "1", 0)
            return (base,) + format_encode(self.root, dirs[0], terms)
        if name.lower() in LEGACY:  # parse-events: no sysfs event of that name, the legacy one
            return pmu, LEGACY[name.lower()], 0
        for other in sorted(os.listdir(os.path.join(self.root, "sys/bus/event_source/devices"))):
            c = sysfs_config(self.root, other, name.lower())  # perf: any PMU's alias (TSC: msr's tsc)
            if c is not None:
                return other, c, 0
        raise KeyError("perf knows no event %s" % name)

    def value(self, name, pmu, counts):
        if name in self.metric_names:  # metrics read each other by name (perf's metricgroup)
            return self.eval(self.metric(name, pmu)["MetricExpr"], pmu, counts)
        if name in ("#SMT_on",):
            return 0.0
        if name in ("#core_wide",):
            return 1.0
        if name == "duration_time":  # perf's tool event, in seconds
            return self.duration
        if name == "#has_pmem":  # an ACPI NFIT table below the sysfs root
            return float(os.path.exists(os.path.join(self.root, "sys/firmware/acpi/tables/NFIT")))
        if name.lower() == "#system_tsc_freq":  # not the live machine: perf's cpuinfo_tsc_freq()
            hz = self.cpuinfo_tsc_freq()  # pmutop: none known is no value, not 0 Hz
            return hz if hz > 0 else math.nan
        if self.row_cpus is not None and name.lower() in ROW_LITERALS:  # the row's own CPUs
            return self.row_literal(name.lower())
        if name.lower() in ("#num_cpus_online", "#num_cpus"):  # perf's expr.c: cpu_map__online(),
            # cpu__max_cpu() (the highest possible CPU + 1)
            files = ["online"] if name.lower() == "#num_cpus_online" else ["possible", "present", "online"]
            for f in files:
                path = os.path.join(self.root, "sys/devices/system/cpu", f)
                if os.path.exists(path):
                    cpus = cpu_list(open(path).read())
                    return float(len(cpus) if f == "online" and name.lower() == "#num_cpus_online" else max(cpus) + 1)
        if name.lower() == "#num_dies":  # perf's cputopo.c: x86's distinct die_cpus_list (none
            # where CPU 0 has no such file)
            lists = {open(p).read().strip() for p in
                     glob.glob(os.path.join(self.root, "sys/devices/system/cpu/cpu[0-9]*/topology/die_cpus_list"))}
            return float(len(lists))
        if name.lower() == "#num_packages":
            return float(len(set(cpu_sockets(self.root).values())))
        if name.lower() == "#num_cores":  # perf's cputopo.c: the distinct core_cpus_list
            lists = set()
            for cpu in glob.glob(os.path.join(self.root, "sys/devices/system/cpu/cpu[0-9]*/topology")):
                for f in ("core_cpus_list", "thread_siblings_list"):
                    if os.path.exists(os.path.join(cpu, f)):
                        lists.add(open(os.path.join(cpu, f)).read().strip())
                        break
            return float(len(lists))
        if name == "#slots":
            return float(int(open(os.path.join(self.root, "sys/bus/event_source/devices", pmu,
                                               "caps/slots")).read().strip(), 0))
        key = self.config_of(pmu, name)
        if key not in counts and ((pmu, name + "_ANY") in self.events or ("", name + "_ANY") in self.events):
            any_key = self.config_of(pmu, name + "_ANY")  # SMT off: the same count
            if any_key in counts:
                key = any_key
        if key not in counts:
            raise KeyError("pmutop did not count %s (%s config=%#x)" % (name, key[0], key[1]))
        return float(counts[key])

    def row_literal(self, name):
        """pmutop's rule (pmutop-profile(5), ROWS OF MANY CPUS): on a row that is not the
        machine's, the topology literals count the row's online CPUs and their distinct
        core, die and package lists, read here from the tree's files as perf reads them."""
        online = set(cpu_list(open(os.path.join(self.root, "sys/devices/system/cpu/online")).read()))
        cpus = [c for c in self.row_cpus if c in online]
        if name in ("#num_cpus", "#num_cpus_online"):
            return float(len(cpus))
        topo = os.path.join(self.root, "sys/devices/system/cpu/cpu%d/topology/%s")
        files = {"#num_packages": ("package_cpus_list", "core_siblings_list"), "#num_dies": ("die_cpus_list",),
                 "#num_cores": ("core_cpus_list", "thread_siblings_list")}[name]
        if name == "#num_dies" and not os.path.exists(topo % (0, "die_cpus_list")):
            return 0.0  # perf: no dies where CPU 0 has no die list
        lists = set()
        for c in cpus:
            for f in files:
                if os.path.exists(topo % (c, f)):
                    lists.add(open(topo % (c, f)).read().strip())
                    break
        return float(len(lists))

    def tsc_key(self):
        """The msr PMU's tsc as a counter key: the event pmutop-profile(5) calls per_thread."""
        if not hasattr(self, "_tsc"):
            c = sysfs_config(self.root, "msr", "tsc")
            self._tsc = ("msr", c, 0) if c is not None else None
        return self._tsc

    def cpuinfo_tsc_freq(self):
        """perf's: the first model name's ' @ X GHz' (Intel only), 0 if none says."""
        path = os.path.join(self.root, "proc/cpuinfo")
        text = open(path).read() if os.path.exists(path) else ""
        if "GenuineIntel" not in text:
            return 0.0
        for line in text.splitlines():
            m = re.match(r"model name.* @ ([0-9.]+)GHz", line)
            if m:
                return float(m.group(1)) * 1e9
        return 0.0

    def cpuid_matches(self, mapcpuid):
        """perf's arm64 strcmp_cpuid_str: same implementer and part, revision at least."""
        midr = glob.glob(os.path.join(self.root, "sys/devices/system/cpu/cpu0/regs/identification/midr_el1"))
        if not midr:
            return 0
        have, want = int(open(midr[0]).read().strip(), 16), int(mapcpuid, 16)
        fields = ~(0xf << 20 | 0xf) & 0xffffffff
        if have & fields != want & fields:
            return 0
        return int(((have >> 20) & 0xf, have & 0xf) >= ((want >> 20) & 0xf, want & 0xf))

    def source_count_packages(self, event, pmu, counts):
        """perf's source_count(EVENT) * #num_packages: on the whole machine the PMUs merged
        into the count times the packages (uncore_cha_0..N count on every socket); on a
        socket or one box, pmutop's rule (pmutop-profile(5)): the counters summed there."""
        key = self.config_of(pmu, event)
        if self.whole:
            return len({p for p, _ in self.sources[key]}) * self.value("#num_packages", pmu, counts)
        return len(self.sources[key])

    def has_event(self, event, pmu):
        """perf's has_event(): 1 where the event parses on this machine (a sysfs alias)."""
        try:
            self.config_of(pmu, event)
            return 1
        except (KeyError, OSError):
            return 0

    def residency_cpus(self, name, pmu):
        """How many CPUs a C-state count of this row was counted on (1 on a CPU's row)."""
        key = self.config_of(pmu, re.sub(r"\\(.)", r"\1", name))
        return max(1, len({cpu for _p, cpu in self.sources.get(key, ())}))

    def eval(self, expr, pmu, counts):
        # pmutop's rule for a C-state residency on a row of many CPUs (pmutop-profile(5),
        # ROWS OF MANY CPUS): a ratio of sums, its count over the TSC of the CPUs it was
        # counted on (one thread's TSC, per_thread, times those CPUs)
        expr = re.sub(r"(cstate_\w+@[^@]*@)\s*/\s*TSC\b",
                      lambda m: "%s / (TSC * %d)" % (m.group(1), self.residency_cpus(m.group(1), pmu)), expr)
        expr = re.sub(r"has_event\(([^)]*)\)",
                      lambda m: str(self.has_event(re.sub(r"\\(.)", r"\1", m.group(1)), pmu)), expr)
        expr = re.sub(r"source_count\(([^)]*)\)\s*\*\s*#num_packages",
                      lambda m: repr(float(self.source_count_packages(re.sub(r"\\(.)", r"\1", m.group(1)), pmu,
                                                                      counts))), expr)
        expr = re.sub(r"strcmp_cpuid_str\((0x[0-9a-fA-F]+)\)", lambda m: str(self.cpuid_matches(m.group(1))), expr)
        names = {}
        py = []
        for kind, text in tokenize(expr):
            if kind == "name" and text in ("if", "else", "max", "min", "d_ratio"):
                py.append(" %s " % text)
            elif kind == "name":
                v = "v%d" % len(names)
                try:
                    names[v] = self.value(text, pmu, counts)
                except KeyError as e:  # fails only if the branch that reads it is taken
                    names[v] = Missing(e)
                py.append(v)
            else:
                py.append(text)
        src = "".join(py)
        try:
            return eval(src, {"__builtins__": {}, "max": max, "min": min, "d_ratio": d_ratio}, names)
        except ZeroDivisionError:
            return math.nan

    def threshold(self, expr, pmu, counts):
        """perf's MetricThreshold: comparisons of metrics (their MetricExpr values, not
        scaled), joined by & and | (expr.y: '|' binds loosest, then '&', then the
        comparisons): True past it."""
        names, py = {}, []
        for kind, text in tokenize(expr):
            if kind == "name":
                v = "v%d" % len(names)
                names[v] = self.value(text, pmu, counts)
                py.append(v)
            else:
                py.append({"&": " and ", "|": " or "}.get(text, text))
        return bool(eval("".join(py), {"__builtins__": {}}, names))


def main():
    global TOL_PP
    arch, cpu, root, raw, mapping = sys.argv[1:6]
    if sys.argv[6:8] and sys.argv[6] == "--pp":
        TOL_PP = float(sys.argv[7])
    events, metrics = load_json_events(os.path.join(arch, cpu))
    ev = Evaluator(events, metrics, root)
    sockets = cpu_sockets(root)
    # OURS THEIRS a line; a tab between where perf's name has a space
    pairs = [l.rstrip("\n").split("\t") if "\t" in l else l.split() for l in open(mapping)
             if l.strip() and not l.startswith("#")]
    bad = agreed = thresholds = 0
    for line in open(raw):
        frame = json.loads(line)
        ev.duration = frame["interval_ns"] / 1e9
        per_inst, seen = {}, set()
        for c in frame["counters"]:
            # one hardware counter: perf counts an event on a CPU once, however many groups
            # read it (a hybrid's msr for a kind of core and for all, one box's CHA clock)
            hw = (c["pmu"], c["cpu"], c["config"], c["config1"], tuple(c.get("exclude", ())))
            if (c["instance"],) + hw in seen:
                continue
            seen.add((c["instance"],) + hw)
            # an uncore event counts on every box of its PMU (perf merges uncore_cha_N)
            counted = pmu_base(c["pmu"]) if c["pmu"].startswith(("uncore_", "amd_")) else c["pmu"]
            key = (counted, int(c["config"], 16), int(c["config1"], 16))
            if c.get("exclude"):  # a modified event: its own counter
                key += (tuple(sorted(c["exclude"])),)
            inst = per_inst.setdefault(c["instance"], {"pmu": c["pmu"], "counts": {}, "sources": {}, "hw": [],
                                                       "cpus": set()})
            inst["cpus"].add(int(c["cpu"]))  # the CPUs its counters are opened on
            if helper(inst["pmu"]):  # a metric's PMU is the core's
                inst["pmu"] = c["pmu"]
            # perf's count is the hardware's: pmutop's delta has the alias's .scale applied
            v = c["delta"] / alias_scale(root, c["pmu"], c["event"])
            # ... under its PMU's name and its own box's (uncore_cha_0@event=0x1@ names one)
            keys = {key, (c["pmu"],) + key[1:]}
            inst["hw"].append((hw, keys, v))
            for k in keys:
                inst["counts"][k] = inst["counts"].get(k, 0) + v
                inst["sources"].setdefault(k, set()).add((c["pmu"], c["cpu"]))
        # aggregates: a socket's or all CPUs' sums, as perf --per-socket / -a sums them; on
        # a hybrid CPU each kind's apart (perf shows cpu_core and cpu_atom apart)
        hybrid = {inst["pmu"] for inst in per_inst.values()} >= {"cpu_core", "cpu_atom"}
        sums = {}
        for name, inst in per_inst.items():
            sock = sockets.get(name)
            if sock is None and re.match(r"socket(\d+)/", name):  # an uncore box: socketN/cha3
                sock = int(re.match(r"socket(\d+)/", name).group(1))
            for agg in ("all", "socket%d" % sock if sock is not None else None):
                if agg is None:
                    continue
                # each kind's sums, and every CPU's (a hybrid's metrics of neither kind)
                kind = "-ecores" if inst["pmu"] == "cpu_atom" else "-pcores" if hybrid else ""
                for suffix in {kind, ""}:
                    a = sums.setdefault(agg + suffix, {"pmu": inst["pmu"], "counts": {}, "sources": {}, "hw": set(),
                                                       "cpus": row_cpus(root, agg, suffix, inst["pmu"], sockets)})
                    if helper(a["pmu"]):
                        a["pmu"] = inst["pmu"]
                    for hw, keys, v in inst["hw"]:
                        if hw in a["hw"]:
                            continue
                        a["hw"].add(hw)
                        for k in keys:
                            a["counts"][k] = a["counts"].get(k, 0) + v
                            a["sources"].setdefault(k, set()).add(hw[:2])
        for a in sums.values():  # per-thread constants: one thread's ticks (the TSC), not a sum
            for k in a["counts"]:
                if k[:3] == ev.tsc_key() and a["sources"].get(k):
                    a["counts"][k] /= len({cpu for _p, cpu in a["sources"][k]})
        per_inst.update(sums)
        shown = {(m["metric"], m["instance"]): m.get("value") for m in frame["metrics"]}
        past = {(m["metric"], m["instance"]): m["past_threshold"] for m in frame["metrics"] if "past_threshold" in m}
        for ours, theirs in pairs:
            # a hybrid's metric of a kind of core: its sums are that kind's (-pcores), its
            # all and socketN a blend of both kinds; one of neither kind (C-states): every CPU's
            of_kind = hybrid and theirs not in ev.unkinded
            if of_kind:
                bad, agreed = check_blends(ev, per_inst, shown, ours, theirs, bad, agreed)
            for name, inst in per_inst.items():
                if (ours, name) not in shown or (of_kind and name + "-pcores" in per_inst):
                    continue
                try:
                    pm = ev.metric(theirs, inst["pmu"])
                    # tma_* are fractions ("100%"); Arm's are percent already ("1percent of slots")
                    # (an ArchStdEvent override keeps sbsa.json's unit, percent, as perf's jevents merges them)
                    # perf's scale: ScaleUnit's number (none: 1; Arm's sbsa metrics: percent)
                    unit = pm.get("ScaleUnit", "1percent" if "ArchStdEvent" in pm else "1")
                    scale = float(re.match(r"[0-9.eE+-]+", unit).group(0))
                    ev.sources, ev.whole = inst["sources"], name == "all"  # for source_count()
                    ev.row_cpus = inst["cpus"]
                    want = scale * ev.eval(pm["MetricExpr"], inst["pmu"], inst["counts"])
                    expr = pm["MetricExpr"].strip()
                    if theirs == "cpu_utilization" and expr == "tma_info_system_cpu_utilization":
                        expr = ev.metric(expr, inst["pmu"])["MetricExpr"].strip()  # Crestmont's alias
                    c0 = theirs.endswith("cpu_utilization") and re.fullmatch(
                        r"(\w+@)?CPU_CLK_UNHALTED\.REF_TSC\w*@?\s*/\s*TSC", expr)
                    if c0 or (unit.endswith("%") and pm["MetricExpr"].strip() == "tma_info_system_cpus_utilized"):
                        # pmutop's rule: a percent of the CPUs' time over the row's CPUs (and a
                        # utilization perf writes as C0's residency, REF_TSC over the TSC)
                        want /= max(1, len({cpu for k in inst["sources"] for _p, cpu in inst["sources"][k]}))
                except KeyError as e:
                    print("%s %s: %s" % (ours, name, e))
                    bad += 1
                    continue
                got = shown[(ours, name)]
                if not agrees(got, want):
                    print("%s %s: pmutop %s, perf's %s %.4f" % (ours, name, got, theirs, want))
                    bad += 1
                else:
                    agreed += 1
                if "MetricThreshold" in pm and (ours, name) in past:  # a bottleneck by perf's rule
                    try:
                        crossed = ev.threshold(pm["MetricThreshold"], inst["pmu"], inst["counts"])
                    except KeyError:
                        crossed = None
                    if crossed is not None and crossed != past[(ours, name)]:
                        print("%s %s: pmutop %s past its threshold, perf's %s says %s" %
                              (ours, name, "is" if past[(ours, name)] else "is not", pm["MetricThreshold"], crossed))
                        bad += 1
                    elif crossed is not None:
                        thresholds += 1
    within = "%g pp" % TOL_PP if TOL_PP is not None else "%g relative" % TOL_REL
    print("%d values agreed with perf's MetricExpr within %s, %d did not" % (agreed, within, bad))
    print("%d thresholds agreed with perf's MetricThreshold" % thresholds)
    sys.exit(1 if bad or not agreed else 0)


# What each kind's shares are of on a hybrid CPU: perf's slots (TOPDOWN.SLOTS on the
# P-cores; 5 a cycle on Gracemont, as its tma_* formulae count them)
KIND_SLOTS = {"cpu_core": "TOPDOWN.SLOTS", "cpu_atom": "5 * CPU_CLK_UNHALTED.CORE"}


def check_blends(ev, per_inst, shown, ours, theirs, bad, agreed):
    """A hybrid's 'all' and 'socketN' are every CPU: perf's value for each kind's sum,
    weighted by the slots it is of (perf shows no such row: its per-kind values and the
    conservation of slots are the reference)."""
    for (metric, name), got in shown.items():
        if metric != ours or name + "-pcores" not in per_inst or name + "-ecores" not in per_inst:
            continue
        num = den = 0.0
        for part in (per_inst[name + "-pcores"], per_inst[name + "-ecores"]):
            pm = ev.metric(theirs, part["pmu"])
            w = ev.eval(KIND_SLOTS[part["pmu"]], part["pmu"], part["counts"])
            num += w * 100 * ev.eval(pm["MetricExpr"], part["pmu"], part["counts"])
            den += w
        want = num / den
        if not agrees(got, want):
            print("%s %s: pmutop %s, perf's %s by kind, weighted by slots: %.4f" % (ours, name, got, theirs, want))
            bad += 1
        else:
            agreed += 1
    return bad, agreed


# the literals that count a row's own CPUs (pmutop-profile(5), ROWS OF MANY CPUS)
ROW_LITERALS = ("#num_cpus", "#num_cpus_online", "#num_packages", "#num_dies", "#num_cores")


def row_cpus(root, agg, suffix, pmu, sockets):
    """The CPUs an aggregate row stands for: a socket's online CPUs (every socket's for
    'all'), of one kind of core where the row is a kind's; None for the machine's 'all'."""
    if agg == "all" and not suffix:
        return None
    out = {int(c[3:]) for c, s in sockets.items() if agg == "all" or "socket%d" % s == agg}
    if suffix:
        kind = os.path.join(root, "sys/bus/event_source/devices", "cpu_atom" if suffix == "-ecores" else "cpu_core", "cpus")
        if os.path.exists(kind):
            out &= set(cpu_list(open(kind).read()))
    return out


def alias_scale(root, pmu, event):
    path = os.path.join(root, "sys/bus/event_source/devices", pmu, "events", event + ".scale")
    return float(open(path).read()) if os.path.exists(path) else 1.0


def perf_excludes(mods):
    """The exclude bits perf's parse-events.c (parse_events__modifier_event) sets for the
    modifier letters of an event of its own group: the first of u, k, h excludes all
    three, each lets its own in; u also excludes the guest (perf_guest off, as perf stat)."""
    ex = {"user", "kernel", "hv"}
    for m in mods:
        ex.discard({"u": "user", "k": "kernel", "h": "hv"}[m])
    if "u" in mods:
        ex.add("guest")
    return tuple(sorted(ex))


def d_ratio(a, b):
    """perf's expr.y: a / b, 0 where b is 0."""
    return 0.0 if b == 0 else a / b


def cpu_list(text):
    out = []
    for part in text.strip().split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def cpu_sockets(root):
    out = {}
    for path in glob.glob(os.path.join(root, "sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id")):
        cpu = path.split("/")[-3]
        out[cpu] = int(open(path).read())
    return out


if __name__ == "__main__":
    main()
