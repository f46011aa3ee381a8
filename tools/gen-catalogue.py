#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-catalogue.py - pmutop profiles from perf's pmu-events JSON (its catalogue).

usage: gen-catalogue.py ARCH_DIR OUT_DIR [CPU_DIR...]
  ARCH_DIR  tools/perf/pmu-events/arch/x86 or arch/arm64 of a linux-source (build-libperf.sh
            keeps a copy in libperf-local/pmu-events/arch); a newer kernel's the same way
  OUT_DIR   where the CPU_DIR.ini files go (one per perf CPU directory of mapfile.csv;
            arm/neoverse-n1 writes arm-neoverse-n1.ini)
  CPU_DIR   only these (default: every core entry of mapfile.csv)

Each profile carries perf's metrics for that CPU: perf's MetricName, its MetricExpr
(metrics reading each other by name, perf's literals, 'if else', d_ratio), ScaleUnit as
scale and unit, MetricGroup as groups (what -M chooses by), BriefDescription as
description, and the events it reads, encoded as perf's jevents.py encodes them (the
fixed counters' pseudo-encodings turned into real ones, its term table). TopDown's
perf-metrics events (topdown-*) form a group of their own led by slots, as the kernel
requires; the metrics read them as td.EVENT. perf's legacy names (cycles) are read as
perf reads them; the msr PMU's events (TSC, msr@aperf@), the C-state PMUs'
(cstate_core@c6-residency@) and the uncore PMUs' (the JSON's Unit: CHA, IMC, AMD's DF)
from groups of those PMUs, summed per socket and machine, that the metrics import
(GROUP.EVENT); source_count(X) * #num_packages is ncpus. A hybrid's metrics are each kind
of core's (cpu_core, cpu_atom), on groups of its PMU; arm64's are read with
tools/catalogue_arm.py (ArchStdEvent, MIDRs, strcmp_cpuid_str()). The profile and its
groups are bound to the CPUs mapfile.csv gives the directory (when = cpuid ~REGEX, perf's
full-match and first-line rules; when = midr_el1 GLOB on arm64). Same input, same bytes.

What this version leaves out, per metric, with the reason in the file's head: other
PMU-qualified events (one box's), has_event(), a hybrid's
metrics of neither kind of core (C-states, TSC, uncore), names a profile cannot carry.
"""
import csv
import glob
import hashlib
import json
import os
import re
import sys

import catalogue_arm

# perf's jevents.py real_event(): the fixed counters' events as the kernel takes them
FIXED = {
    "INST_RETIRED.ANY": "event=0xc0", "INST_RETIRED.ANY_P": "event=0xc0",
    "CPU_CLK_UNHALTED.REF": "event=0x00,umask=0x03", "CPU_CLK_UNHALTED.THREAD": "event=0x3c",
    "CPU_CLK_UNHALTED.CORE": "event=0x3c", "CPU_CLK_UNHALTED.THREAD_ANY": "event=0x3c,any=1",
}
# perf's jevents.py lookup_msr(): the event field an MSRIndex's value goes to
MSR_FIELD = {0x3F6: "ldlat", 0x1A6: "offcore_rsp", 0x1A7: "offcore_rsp", 0x3F7: "frontend"}
LITERALS = {"#smt_on", "#num_cpus", "#num_cpus_online", "#num_packages", "#num_dies", "#num_cores",
            "#core_wide", "#system_tsc_freq", "#has_pmem"}
WORDS = {"if", "else", "min", "max", "d_ratio", "duration_time"}
# perf's legacy hardware event names (parse-events: a PMU's sysfs event of that name wins,
# else PERF_TYPE_HARDWARE): pmutop's encoder does the same in the core PMU's group
LEGACY = {"cycles", "cpu-cycles", "instructions", "branches", "branch-instructions", "branch-misses",
          "cache-references", "cache-misses", "ref-cycles", "bus-cycles"}
# The PMUs besides the core's that perf's core metrics read, each a group of the profile
# counted on the same CPUs: msr (TSC, APERF, SMI: arch/x86/events/msr.c) and the C-state
# residency counters (intel/cstate.c; their cpumask is a CPU per core or per package).
# An unqualified name perf finds only as such a PMU's alias (TSC) goes to its PMU.
OTHER_PMUS = ("msr", "cstate_core", "cstate_pkg")
# Intel's TSX events, sysfs aliases of the core PMU only where the CPU has RTM (intel/core.c:
# cycles-t is event=0x3c,in_tx=1): optional, their metrics absent without TSX
TSX = {"cycles-t", "cycles-ct", "tx-start", "tx-commit", "tx-abort", "tx-capacity", "tx-conflict",
       "el-start", "el-commit", "el-abort", "el-capacity", "el-conflict"}
OTHER_ALIASES = {"tsc": "msr"}
UNSUPPORTED_CALLS = ("source_count", "has_event", "strcmp_cpuid_str")

TOKEN = re.compile(r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                   r"|(?P<name>(?:[A-Za-z_#@]|\\.)(?:[A-Za-z0-9_.@#:]|\\.)*)"
                   r"|(?P<op>[-+*/(),<>|&^!=]+))")


def tokens(expr):
    pos, out = 0, []
    text = expr.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError("cannot read %r at %d" % (text, pos))
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


# a hybrid CPU's two core PMUs, as its JSON's Unit names them (P-cores, E-cores)
HYBRID = ("cpu_core", "cpu_atom")


def load(cpu_dir):
    """({"": the core's and uncore events, "cpu_core": ..., "cpu_atom": ...} by upper-case
    name, metrics): a hybrid CPU names the same event once per kind of core."""
    events, metrics = {"": {}}, []
    for path in sorted(glob.glob(os.path.join(cpu_dir, "*.json"))):
        for e in json.load(open(path)):
            if "MetricExpr" in e:  # a metric; with an EventName an event too (Skylake-SP's
                metrics.append(e)  # uncore-io.json: LLC_MISSES.PCIE_READ is both)
            if "EventName" in e:
                unit = e.get("Unit") if e.get("Unit") in HYBRID else ""
                events.setdefault(unit, {})[e["EventName"].upper()] = e
    return events, metrics


# perf's jevents.py unit_to_pmu(): a JSON Unit's PMU (a prefix: uncore_cha matches
# uncore_cha_0, uncore_cha_1, ... as perf's wildcard does)
UNIT_PMU = {"CBO": "uncore_cbox", "QPI LL": "uncore_qpi", "SBO": "uncore_sbox", "iMPH-U": "uncore_arb",
            "UPI LL": "uncore_upi", "L3PMC": "amd_l3", "DFPMC": "amd_df", "UMCPMC": "amd_umc"}
# the uncore PMUs the kernel registers once, not numbered per box (amd_l3 and amd_df span
# the machine with a cpumask CPU per CCX or socket; the PCU and UBOX are one per socket)
UNNUMBERED = {"amd_l3", "amd_df", "uncore_pcu", "uncore_ubox", "uncore_arb"}
# jevents.py's event_fields: JSON key -> the term it becomes (beside event= and the MSR's)
FIELDS = (("AnyThread", "any"), ("PortMask", "ch_mask"), ("CounterMask", "cmask"), ("EdgeDetect", "edge"),
          ("FCMask", "fc_mask"), ("Invert", "inv"), ("UMask", "umask"), ("NodeType", "type"),
          ("RdWrMask", "rdwrmask"), ("EnAllCores", "enallcores"), ("EnAllSlices", "enallslices"),
          ("SliceId", "sliceid"), ("ThreadMask", "threadmask"))


def unit_pmu(unit):
    return UNIT_PMU.get(unit, "uncore_" + unit.lower())


def encode(e):
    """(PMU or None for the core's, perf's jevents encoding as terms), or raises ValueError."""
    name = e["EventName"].upper()
    if name in FIXED:
        return None, FIXED[name]
    pmu = unit_pmu(e["Unit"]) if e.get("Unit") and e["Unit"] not in HYBRID else None
    msr = int(str(e.get("MSRIndex", "0")).split(",")[0], 0)
    if msr and msr not in MSR_FIELD:
        raise ValueError("event %s programs MSR %#x" % (e["EventName"], msr))
    if "ConfigCode" in e:  # jevents: config= instead of event= (free-running counters)
        terms = ["config=%#x" % int(e["ConfigCode"], 0)]
    else:
        code = int(str(e.get("EventCode", "0x0")).split(",")[0].strip(), 0)  # jevents: 0 if none
        code |= int(e.get("ExtSel", "0"), 0) << 8
        terms = ["event=%#x" % code]
    for key, term in FIELDS:
        v = str(e.get(key, "0")).strip()
        if int(v, 0):
            terms.append("%s=%s" % (term, "%#x" % int(v, 16) if v.startswith("0x") else str(int(v))))
    if e.get("Filter"):
        terms.append(e["Filter"])
    if msr:  # jevents: the MSR's value as the field of that register (offcore_rsp=...)
        terms.append("%s=%s" % (MSR_FIELD[msr], e.get("MSRValue", "0")))
    return pmu, ",".join(terms)


def ident(name):
    """A perf event name as a formula variable (letters, digits, _ and .), short enough for
    a profile key (event.NAME: 49 characters at most): a long one keeps its start and a
    hash of the whole."""
    v = re.sub(r"[^A-Za-z0-9_.]", "_", name)
    if len(v) > 42:
        v = v[:33] + "_" + hashlib.sha1(v.encode()).hexdigest()[:8]
    return v


def group_of(pmu):
    """The profile group of an uncore PMU's events: uncore_cha -> cha, amd_l3 -> l3."""
    return re.sub(r"^(uncore|amd)_", "", pmu)


def translate(m, events, known_metrics, by_encoding, suffix=""):
    """(formula, {group: {variable: terms}}, refs, host group) of metric m, or raises
    ValueError(why). The host is the group whose instances carry the value: the first
    uncore group it reads, else the core's; every other group's events are imports
    (GROUP.EVENT). by_encoding: the variable each encoding got first in its group (perf's
    JSON names some events twice: one counter each, not two counting the same)."""
    groups, refs, out, departs = {}, set(), [], []

    def event(group, var, terms):  # the same terms in any order are one encoding
        var = by_encoding.setdefault((group, ",".join(sorted(terms.split(",")))), var)
        groups.setdefault(group, {})[var] = terms
        out.append((group, var))

    # perf's source_count(EVENT) * #num_packages (the boxes summed into an uncore count,
    # times the sockets): the counters summed into the instance, pmutop's ncpus
    expr = re.sub(r"source_count\(([A-Za-z0-9_.]+)\)\s*\*\s*#num_packages", r"__source_count__\1", m["MetricExpr"])
    # has_event(cycles-t): the metric lives on a group that needs the TSX alias, where the
    # answer is 1 (without TSX perf shows 0; pmutop shows no value)
    tsx = re.findall(r"has_event\(((?:[a-z]|\\-)+)\)", expr)
    if any(re.sub(r"\\(.)", r"\1", t) not in TSX for t in tsx):
        raise ValueError("has_event() of other than a TSX event")
    expr = re.sub(r"has_event\(((?:[a-z]|\\-)+)\)", "1", expr)
    for kind, text in tokens(expr):
        if kind == "name" and text in known_metrics and one_uncore_event(known_metrics[text], events):
            # tma_info_system_socket_clks: a metric that is one uncore event is that event
            # here (a metric read by name lives on the reader's group; this one may not)
            kind, text = "name", one_uncore_event(known_metrics[text], events)
        if kind != "name":
            out.append(text if kind == "num" else {"|": " || ", "&": " && "}.get(text, text))
            continue
        name = re.sub(r"\\(.)", r"\1", text)
        low = name.lower()
        if low in WORDS:
            out.append(" %s " % low if low in ("if", "else") else low)
        elif low in LITERALS:
            out.append(low)
        elif low == "#slots":  # Arm: the core PMU's caps/slots (the group's attrs)
            out.append("caps.slots")
        elif name.startswith("#"):
            raise ValueError("literal %s" % name)
        elif name in UNSUPPORTED_CALLS:
            raise ValueError("%s()" % name)
        elif name.startswith("__source_count__"):
            ev = events.get(name[16:].upper())
            if not ev or not ev.get("Unit"):
                raise ValueError("source_count() of %s, not an uncore event" % name[16:])
            out.append(("#ncpus", group_of(unit_pmu(ev["Unit"]))))
        elif re.fullmatch(r"(cpu|cpu_core|cpu_atom)@[^@:]+@[ukh]*", name):
            # cpu@EVENT,term=value@: the core event with terms changed (cmask=1, edge); a
            # hybrid's cpu_atom@EVENT@ is its kind's (translated for that kind alone); perf's
            # modifiers may follow (cpu_core@CPU_CLK_UNHALTED.THREAD_P@k)
            mods = name[name.rindex("@") + 1:]
            ev, _, extra = name[name.index("@") + 1:name.rindex("@")].partition(",")
            if mods:
                if extra:
                    raise ValueError("terms and modifiers on one event %s" % name)
                extra = ""
            if not extra and not mods and (ev.startswith("topdown-") or ev in ("slots", "TOPDOWN.SLOTS")):
                ev = "slots" if ev == "TOPDOWN.SLOTS" else ev  # cpu_core@topdown-retiring@
                groups.setdefault("td", {})[ident(ev)] = ev
                out.append(("td", ident(ev)))
                continue
            if ev.upper() not in events:
                raise ValueError("unknown event %s" % ev)
            pmu, enc = encode(events[ev.upper()])
            if pmu:
                raise ValueError("cpu@ of uncore event %s" % ev)
            terms = dict(t.split("=", 1) if "=" in t else (t, "1") for t in enc.split(","))
            base = dict(terms)
            for t in filter(None, extra.split(",")):
                k, _, v = t.partition("=")
                terms[k] = v or "1"
                # a field the event sets already: the value written replaces it (Intel's
                # EVENT:u0x80, RS.EMPTY,umask=1 for RS.EMPTY_RESOURCE), where perf's parser
                # ORs it into the event's (umask 0x07 | 1): said on the metric
                if k in base and int(base[k], 0) | int(terms[k], 0) != int(terms[k], 0):
                    departs.append("%s is %s=%s here, as written; perf 6.12 ORs it into the event's %s=%s, "
                                   "counting %s=%s" % (name, k, terms[k], k, base[k], k,
                                                       hex(int(base[k], 0) | int(terms[k], 0))))
            # named by the terms that differ from the event's own (umask=0xc is another event)
            var = ident(ev.upper() + "__" + "_".join("%s_%s" % kv for kv in sorted(terms.items())
                                                     if base.get(kv[0]) != kv[1]))
            if mods:
                var = ident(ev.upper() + "_" + mods)  # as EVENT:k's, one counter for both spellings
            event("core", var, ",".join("%s=%s" % kv for kv in terms.items()) + (":" + mods if mods else ""))
        elif re.fullmatch(r"[a-z0-9]+@[A-Z0-9_.]+,[a-z0-9_]+=(0x)?[0-9a-fA-F]+@", name) and \
                events.get(name.split("@")[1].split(",")[0].upper(), {}).get("Unit") and \
                unit_pmu(events[name.split("@")[1].split(",")[0].upper()]["Unit"]).endswith("_" + name.split("@")[0]):
            # cha@UNC_CHA_TOR_INSERTS.IA_MISS,config1=0x40431@: the uncore event, a term changed
            ev, term = name.split("@")[1].split(",")
            pmu, enc = encode(events[ev.upper()])
            terms = dict(t.split("=", 1) for t in enc.split(","))
            k, v = term.split("=")
            terms[k] = v
            event(group_of(pmu), ident(ev.upper() + "__" + k + "_" + v), ",".join("%s=%s" % kv for kv in terms.items()))
        elif name.split("@")[0] in OTHER_PMUS and name.endswith("@") and name.count("@") == 2 \
                and re.fullmatch(r"[a-z0-9_.-]+", name.split("@")[1]):
            alias = name.split("@")[1]  # cstate_core@c6-residency@
            event(name.split("@")[0], ident(alias.upper() if name.startswith("msr") else alias), alias)
        elif re.fullmatch(r"armv8_pmuv3_\d+@((?:[a-z0-9_]+=(?:0x)?[0-9a-fA-F]+,?)+)@", name):
            terms = name.split("@")[1].rstrip(",")  # the core PMU with raw terms (HiSilicon's)
            event("core", ident("raw_" + terms.replace("=", "_").replace(",", "_")), terms)
        elif re.fullmatch(r"[A-Za-z0-9_.]+:[ukh]+", name) and \
                (name.split(":")[0].upper() in events or name.split(":")[0].lower() in LEGACY):
            # CPU_CLK_UNHALTED.THREAD_P:k, cycles:k: the core event with perf's modifiers (its
            # exclude bits), a counter of its own beside the unmodified one
            base, mods = name.split(":")
            if base.upper() in events:
                pmu, enc = encode(events[base.upper()])
                if pmu:
                    raise ValueError("modified uncore event %s" % name)
                event("core", ident(base.upper() + "_" + mods), enc + ":" + mods)
            else:
                event("core", ident(base.lower() + "_" + mods), base.lower() + ":" + mods)
        elif re.fullmatch(r"(uncore_)?[a-z0-9_]+@(?:[a-z0-9_]+=(?:0x)?[0-9a-fA-F]+,?)+@", name):
            # arb@event=0x81,umask=0x1@: raw terms on an uncore PMU (perf's PMU match drops the
            # uncore_ prefix), its Unit's group; uncore_cha_0@event=0x1@, cha_0@event=0x0@: on
            # one box, a group of that box alone, named as its PMU
            pmu, terms = name.split("@")[:2]
            pmu = pmu if pmu.startswith("uncore_") else "uncore_" + pmu
            units = {unit_pmu(e["Unit"]) for e in events.values() if e.get("Unit")}
            if pmu not in units and re.sub(r"_\d+$", "", pmu) not in units:
                raise ValueError("event %s of a PMU none of the CPU's events is of" % name)
            terms = terms.rstrip(",")
            event(group_of(pmu), ident("raw_" + terms.replace("=", "_").replace(",", "_")), terms)
        elif re.fullmatch(r"[A-Z0-9_.]+@(?:[a-z0-9_]+=(?:0x)?[0-9a-fA-F]+,?)+@", name) and \
                events.get(name.split("@")[0], {}).get("Unit"):
            # UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD@thresh=1@: the uncore event with terms added
            ev, extra = name.split("@")[:2]
            pmu, enc = encode(events[ev])
            var = ident(ev + "__" + extra.rstrip(",").replace("=", "_").replace(",", "_"))
            event(group_of(pmu), var, enc + "," + extra.rstrip(","))
        elif "@" in name or ":" in name:
            raise ValueError("PMU-qualified or modified event %s" % name)
        elif name in known_metrics:
            refs.add(name)
            out.append(name)
        elif name.startswith("topdown-") or name == "slots" or name.upper() == "TOPDOWN.SLOTS":
            name = "slots" if name.upper() == "TOPDOWN.SLOTS" else name  # one counter, the group's leader
            groups.setdefault("td", {})[ident(name)] = name
            out.append(("td", ident(name)))
        elif name.upper() in events:
            pmu, enc = encode(events[name.upper()])
            event(group_of(pmu) if pmu else "core", ident(name.upper()), enc)
        elif low in OTHER_ALIASES:
            event(OTHER_ALIASES[low], ident(low.upper()), low)
        elif low in LEGACY or low in TSX:
            event("core", ident(low), low)
        else:
            raise ValueError("unknown event %s" % name)
    if tsx:  # its TSX events on the TSX group (needs the alias), the rest imported (one
        # counter an event: cycles stays the core group's)
        core = groups.get("core", {})
        moved = {v for v, terms in core.items() if terms in TSX}
        out = [("tsx", t[1]) if isinstance(t, tuple) and t[0] == "core" and t[1] in moved else t for t in out]
        groups["tsx"] = {v: core.pop(v) for v in moved}
        if not core:
            groups.pop("core", None)
    uncore = [t[0] for t in out if isinstance(t, tuple) and t[0] not in ("core", "td", "#ncpus", "tsx") + OTHER_PMUS]
    # a metric of the msr and C-state PMUs alone (C6_Pkg_Residency) lives on the first it
    # reads, counted on that PMU's CPUs: a hybrid has no one core group for it
    others = [t[0] for t in out if isinstance(t, tuple) and t[0] in OTHER_PMUS]
    own = refs or any(isinstance(t, tuple) and t[0] in ("core", "td") for t in out)
    host = uncore[0] if uncore else "tsx" if tsx else "core" if own or not others else others[0]
    if any(t[0] == "#ncpus" and t[1] != host for t in out if isinstance(t, tuple)):
        raise ValueError("source_count() of another group's event")
    # a C-state residency is a ratio of sums on a row of many CPUs: its count over the TSC
    # of the CPUs it was counted on, each thread's TSC (per_thread: one thread's on a sum)
    # times those CPUs (pmutop-profile(5), ROWS OF MANY CPUS; profiles/core.ini alike)
    per_cpus = host.startswith("cstate")
    text = "".join(t if isinstance(t, str) else "ncpus" if t[0] == "#ncpus" else t[1] if t[0] == host
                   else "(%s%s.%s*ncpus)" % (t[0], suffix, t[1]) if per_cpus and t[0] == "msr" and t[1] == "TSC"
                   else "%s%s.%s" % (t[0], suffix, t[1]) for t in out)
    text = " ".join(text.split())
    # a percent of the CPUs' time (perf's cpu_utilization: cpus_utilized as 100 %) is, on a
    # row of many CPUs, TMA's CPU_Utilization: the CPUs busy over the row's CPUs
    if scale_unit(m)[1] == "%" and text == "tma_info_system_cpus_utilized":
        text = "tma_info_system_cpus_utilized/ncpus"
    # ... as is a CPU utilization perf writes as the reference cycles over the TSC (Grand
    # Ridge's, Sierra Forest's): C0's residency, a C-state's rule (summed, it read 400 %
    # on a socket of four)
    if m["MetricName"].endswith("cpu_utilization") and re.fullmatch(r"CPU_CLK_UNHALTED\.REF_TSC\w*/msr\w*\.TSC", text):
        text = "%s/(%s*ncpus)" % tuple(text.split("/"))
    return text, {g + suffix: evs for g, evs in groups.items()}, refs, host + suffix, departs


def one_uncore_event(m, events):
    """The event of a metric that is one uncore event alone (uncore_cha_0@event\\=0x1@,
    UNC_CLOCK.SOCKET), or None."""
    toks = list(tokens(m["MetricExpr"]))
    one = len(toks) == 1 and toks[0][0] == "name" and re.sub(r"\\(.)", r"\1", toks[0][1])
    uncore = one and (re.fullmatch(r"(uncore_)?[a-z0-9]+_\d+@[^@]+@", one) or
                      events.get(one.upper(), {}).get("Unit") not in (None, "") + tuple(HYBRID))
    return toks[0][1] if uncore and one.upper() not in FIXED else None


# the units Intel's metrics give at the end of their description, where they have no
# ScaleUnit (tma_info_system_core_frequency: "... for unhalted processors [GHz]"; the
# formula divides by 1e9 itself)
BRIEF_UNITS = {"GB / sec": "GB/s", "MB / sec": "MB/s", "GHz": "GHz", "GHZ": "GHz", "in nanoseconds": "ns"}


def scale_unit(m):
    su = m.get("ScaleUnit")
    if su is None:
        brief = m.get("BriefDescription", "")
        said = re.search(r"\[([^\]]+)\]\s*\.?$", brief)
        if re.search(r"\(in (core )?cycles\)\s*\.?$", brief):
            return 1.0, "cycles"  # load_miss_real_latency: "(in core cycles)"
        return 1.0, BRIEF_UNITS.get(said.group(1), "") if said else ""
    num = re.match(r"\s*([0-9.eE+-]+)\s*(.*)", su)
    if not num:
        return 1.0, su
    return float(num.group(1)), num.group(2).replace("per_", "/").strip()


def keep_closed(trans):
    """Metrics whose references are all kept and carried by the same group (a metric reads
    another on its own instance), a fixed point, and why each other is not."""
    why = {n: t for n, t in trans.items() if isinstance(t, str)}
    changed = True
    while changed:
        changed = False
        for n, t in trans.items():
            if n in why:
                continue
            lost = sorted(r for r in t[2] if r in why)
            apart = sorted(r for r in t[2] if r not in why and trans[r][3] != t[3])
            if lost or apart:
                why[n] = "reads %s, left out" % lost[0] if lost else \
                    "reads %s, a metric of group %s, from group %s" % (apart[0], trans[apart[0]][3], t[3])
                changed = True
    return {n: t for n, t in trans.items() if n not in why}, why


def uncore_group(name, pmu, cpu, when, events):
    """An uncore PMU's group: one instance per box (or, for a PMU registered once, per CPU
    of its cpumask; for one box's events, that box), summed per socket and over all as the
    core's are, so the sums are the partners of each other's imports."""
    if pmu in UNNUMBERED or re.search(r"_\d+$", pmu):
        head = ["pmu = %s" % pmu, "instance = socket{socket}/%s.cpu{cpu}" % name]
    else:
        head = ["pmu = %s_{n}" % pmu, "instance = socket{socket}/%s{n}" % name]
    lines = ["[group %s]" % name, "title = %s events (%s)" % (pmu, cpu)] + head
    lines += [when, "per = cpu", "aggregate = socket all", "grouped = no"]
    return lines + ["event.%s = %s" % (k, events[k]) for k in sorted(events)] + [""]


def translate_all(by_name, events, suffix, answers, only=None):
    """Every metric translated for one class of CPUs (strcmp_cpuid_str answered), then
    kept_closed: (kept, why). only: the groups a metric may read (else left out)."""
    trans, by_encoding = {}, {}
    for name, m in sorted(by_name.items()):
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", profile_name(name)):
            trans[name] = "its name %r is not a profile's metric name (letters, digits, _ . -)" % name
            continue
        expr = m["MetricExpr"]
        for q, a in answers.items():
            expr = expr.replace("strcmp_cpuid_str(%s)" % q, a)
        if answers:  # the answers' logic, folded: (0 | 1 ^ 1) is 0 (perf's |, ^, & as C's)
            folded = None
            while folded != expr:
                folded, expr = expr, re.sub(r"\(([01\s|^&]*[|^&][01\s|^&]*)\)",
                                            lambda g: "(%d)" % eval(g.group(1), {"__builtins__": {}}), expr)
        try:
            trans[name] = translate(dict(m, MetricExpr=expr), events, by_name, by_encoding, suffix)
        except ValueError as e:
            trans[name] = str(e)
        if only and not isinstance(trans[name], str) and set(trans[name][1]) - only:
            trans[name] = "reads %s's events, of none of %s" % (sorted(set(trans[name][1]) - only)[0], "/".join(sorted(only)))
    return keep_closed(rehost(trans))


def rehost(trans):
    """A metric of other metrics alone (UNCORE_FREQ of tma_info_system_socket_clks) lives
    where they all do: it reads them on its own instance, whichever group that is."""
    changed = True
    while changed:
        changed = False
        for n, t in trans.items():
            if isinstance(t, str) or t[1] or not t[2] or any(isinstance(trans.get(r), str) for r in t[2]):
                continue
            hosts = {trans[r][3] for r in t[2]}
            if len(hosts) == 1 and t[3] not in hosts:
                trans[n] = t[:3] + (hosts.pop(),)
                changed = True
    return trans


def core_groups(cpu, kind, when, groups, suffix, pmu=None, sums=None):
    """The core PMU's groups of one class: TopDown's perf-metrics group (x86), the core
    group, the other PMUs' (x86). pmu: a hybrid's kind of core (cpu_core), whose sums
    are named with sums (-pcores) apart from the other kind's."""
    lines = []
    pmu = pmu or CORE_PMU[kind]
    agg = ["aggregate = socket all"] + (["aggregate_suffix = %s" % sums] if sums else [])
    td = groups.pop("td" + suffix, {})
    if td:
        td["slots"] = "slots"  # the kernel's perf-metrics group is led by slots
        lines += ["[group td%s]" % suffix, "title = TopDown perf metrics (%s)" % cpu, "pmu = %s" % pmu, "needs = slots",
                  when, "per = cpu"] + agg + ["grouped = yes", "leader = slots"]
        lines += ["event.%s = %s" % (k, td[k]) for k in sorted(td, key=lambda k: (k != "slots", k))]
        lines.append("")
    core = groups.pop("core" + suffix, {})
    if core:  # none where perf's metrics are all uncore (Snow Ridge's)
        lines += ["[group core%s]" % suffix, "title = Core events (%s)" % cpu, "pmu = %s" % pmu, when,
                  "per = cpu"] + agg + ["grouped = no"]
        if kind == "arm64":
            lines.append("attrs = caps/slots")  # #slots; a PMU without it leaves those metrics out
        lines += ["%s.%s = %s" % ("optional" if core[k] in TSX else "event", k, core[k]) for k in sorted(core)]
        lines.append("")
    tsx = groups.pop("tsx" + suffix, {})
    if tsx:  # perf's has_event(cycles-t): only where the CPU has TSX (RTM)
        lines += ["[group tsx%s]" % suffix, "title = TSX events (%s)" % cpu, "pmu = %s" % pmu,
                  "needs = %s" % ("cycles-t" if "cycles-t" in tsx.values() else min(v for v in tsx.values() if v in TSX)), when, "per = cpu"] + agg + ["grouped = no"]
        lines += ["%s.%s = %s" % ("optional" if tsx[k] in TSX else "event", k, tsx[k]) for k in sorted(tsx)]
        lines.append("")
    return lines + other_groups(cpu, when, groups, suffix, pmu if sums else None, sums)


def other_groups(cpu, when, groups, suffix, kind=None, sums=None):
    """The msr and C-state PMUs' groups, each on its own CPUs (its cpumask), named as the
    core's; which residencies a model has the kernel says (cstate.c): one it lacks leaves
    out the metrics that read it, not the group. kind: a hybrid's kind of core, whose CPUs
    alone the group counts on, its sums named with sums as that kind's core group's."""
    lines = []
    for pmu in OTHER_PMUS:
        if pmu + suffix in groups:
            evs = groups.pop(pmu + suffix)
            lines += ["[group %s%s]" % (pmu, suffix), "title = %s events (%s)" % (pmu, cpu), "pmu = %s" % pmu, when,
                      "per = cpu", "aggregate = socket all", "grouped = no"]
            lines += ["cpus_of = %s" % kind, "aggregate_suffix = %s" % sums] if kind else []
            lines += ["optional.%s = %s" % (k, evs[k]) for k in sorted(evs)]
            # the TSC ticks alike on every CPU: a row of many CPUs reads one thread's ticks,
            # as Intel's TMA and toplev mean TSC (perf 6.12 sums it over -a's CPUs)
            lines += ["per_thread = %s" % " ".join(k for k in sorted(evs) if evs[k] == "tsc")] if "tsc" in evs.values() else []
            lines.append("")
    return lines


# the core PMU each architecture's metrics count on, and what a machine must have
CORE_PMU = {"x86": "cpu", "arm64": "armv8_pmuv3* armv8_neoverse* armv8_cortex*"}
REQUIRES = {"x86": "cpu", "arm64": "armv8_*"}


def profile(cpu, source, when, events, metrics, kind="x86", classes=(("", None, {}),)):
    """The profile's text for one CPU directory, and (kept, total). when: the [profile]'s
    when/unless lines (the directory's CPUs); classes: (suffix, group when, answers) per
    class of CPUs its strcmp_cpuid_str() questions tell apart, each with groups of its own."""
    # a metric's Unit is its PMU: a hybrid's kind of core (hybrid_profile's), else the
    # uncore PMU its events are of (Skylake-SP's power_channel_ppd: iMC)
    by_name = {m["MetricName"]: m for m in metrics if "MetricName" in m and m.get("Unit") not in HYBRID}
    per_class = [translate_all(by_name, events, suffix, answers) for suffix, _w, answers in classes]
    why = {}
    for _kept, w in per_class:  # kept only where every class keeps it
        for n, reason in w.items():
            why.setdefault(n, reason)
    kept = sorted(n for n in by_name if n not in why)
    lines = ["; %s.ini - generated by tools/gen-catalogue.py from perf's pmu-events %s/%s" % (cpu.replace("/", "-"), kind, cpu),
             "; (mapfile.csv: %s): do not edit, regenerate. %d of %d perf metrics;" % (source, len(kept), len(by_name)),
             "; left out, with why:"]
    lines += ["; - %s: %s" % (n, why[n]) for n in sorted(why)]
    # the profile's own when/unless: pmutop picks the file for the CPU from the headers
    name = cpu.replace("/", "-")
    lines += ["[profile]", "name = perf-%s" % name, "title = perf's metrics for %s" % cpu,
              "requires = %s" % REQUIRES[kind], when, ""]
    for (suffix, cwhen, _a), (trans, _w) in zip(classes, per_class):
        groups = {}
        for n in kept:
            for g, evs in trans[n][1].items():
                groups.setdefault(g, {}).update(evs)
        gwhen = when if cwhen is None else cwhen
        # a class's groups are one of the directory's variants: the others' are not missing
        lines += [l for l in core_groups(cpu, kind, gwhen, groups, suffix)
                  for l in ([l, "alternative = yes"] if len(classes) > 1 and l.startswith("[group ") else [l])]
        pmus = {group_of(unit_pmu(e["Unit"])): unit_pmu(e["Unit"]) for e in events.values() if e.get("Unit")}
        pmus.update({g: "uncore_" + g for g in groups if re.fullmatch(r"[a-z0-9]+_\d+", g)})  # one box's
        for g in sorted(groups):
            lines += uncore_group(g, pmus[g[:len(g) - len(suffix)] if suffix else g], cpu, gwhen, groups[g])
    for n in kept:
        lines += metric_lines(n, by_name[n], [t for t, _w in per_class])
    return "\n".join(lines) + "\n", len(kept), len(by_name)


def profile_name(name):
    """The profile's name of a perf metric: perf's, but for a '%' (pct) and spaces, which
    a profile's names, the formula language and Prometheus do not take
    (tma_info_bottleneck_%_dtlb_miss_bound_cycles); perf_name keeps perf's for -M."""
    return name.replace("%", "pct").replace(" ", "")


def metric_lines(name, m, per_class, sources=None):
    """A metric's section: its formula (one per class, formula@GROUP, where classes split
    the CPUs), scale, unit, perf's groups, description and threshold (sources: each class's
    own JSON entry, a hybrid's kinds of core, whose thresholds may differ)."""
    head = ["[metric %s]" % profile_name(name)] + (["perf_name = %s" % name] if profile_name(name) != name else [])
    if len(per_class) == 1:
        lines = head + ["group = %s" % per_class[0][name][3], "formula = %s" % per_class[0][name][0]]
    else:
        lines = head + ["formula@%s = %s" % (t[name][3], t[name][0]) for t in per_class]
    scale, unit = scale_unit(m)
    if scale != 1:
        lines.append("scale = %s" % repr(scale))
    if unit:
        lines.append("unit = %s" % unit)
    groups = " ".join(g for g in m.get("MetricGroup", "").split(";") if g)
    if groups:
        lines.append("groups = %s" % groups)
    brief = " ".join(m.get("BriefDescription", "").split())
    departs = sorted({d for t in per_class for d in t[name][4]})
    if departs:  # where pmutop's encoding departs from perf's, list metrics -v says why
        brief = (brief[:180] + " " if brief else "") + "[Departs from perf: %s.]" % "; ".join(departs)
        lines.append("description = %s" % brief)
    elif brief:
        lines.append("description = %s" % brief[:180])
    lines += threshold_lines(name, m, per_class, sources)
    if m.get("MetricConstraint"):  # how perf groups its events (pmutop: ungrouped either way)
        lines.append("constraint = %s" % m["MetricConstraint"])
    return lines + ["title = %s" % name, ""]


def threshold_lines(name, m, per_class, sources):
    """'threshold = ...', or where the classes' own differ (a hybrid's P-cores' reads a
    metric its E-cores lack), 'threshold@GROUP = ...' for each class that has one."""
    if not sources or len(per_class) < 2:
        threshold = metric_threshold(m, per_class)
        return ["threshold = %s" % threshold] if threshold else []
    own = [metric_threshold(src, [t]) for src, t in zip(sources, per_class)]
    if len(set(own)) == 1:
        return ["threshold = %s" % own[0]] if own[0] else []
    return ["threshold@%s = %s" % (t[name][3], th) for t, th in zip(per_class, own) if th]


def metric_threshold(m, per_class):
    """perf's MetricThreshold (where the metric marks a bottleneck: 'tma_memory_bound >
    0.2 & tma_backend_bound > 0.2'), in the formula language: perf's & and | as && and ||,
    the metrics it reads by their profile names; None where it reads anything but numbers
    and metrics the profile keeps."""
    text = m.get("MetricThreshold")
    if not text:
        return None
    out = []
    try:
        toks = tokens(text)
    except ValueError:
        return None
    for kind, tok in toks:
        if kind != "name":
            out.append(text_op(kind, tok))
        elif all(tok in t for t in per_class):
            out.append(profile_name(tok))
        else:
            return None
    return " ".join("".join(out).split())


def text_op(kind, tok):
    return tok if kind == "num" else {"|": " || ", "&": " && "}.get(tok, tok)


def hybrid_profile(cpu, regex, when, by_unit, metrics):
    """A hybrid CPU's: each kind of core's metrics (the JSON's Unit) on groups of its own
    PMU, their sums apart (all-pcores, all-ecores, as perf shows cpu_core and cpu_atom);
    a metric both kinds define has a formula for each."""
    kinds = (("_p", "cpu_core", "-pcores"), ("_e", "cpu_atom", "-ecores"))
    per_kind, why = [], {}
    for suffix, unit, _sums in kinds:
        by_name = {m["MetricName"]: m for m in metrics if m.get("Unit") == unit}
        # one kind's groups (its core PMU's, and the msr PMU's on its CPUs), not yet the
        # uncore PMUs' (of neither kind)
        kept, lost = translate_all(by_name, dict(by_unit[""], **by_unit.get(unit, {})), suffix, {},
                                   {"core" + suffix, "td" + suffix, "msr" + suffix})
        why.update({"%s (%s)" % (n, unit): r for n, r in lost.items()})
        per_kind.append((kept, by_name))
    # the msr and C-state PMUs' metrics (residencies, SMIs): of neither kind, counted on
    # those PMUs' own CPUs, summed over all as perf -a sums them
    by_name = {m["MetricName"]: m for m in metrics if "MetricName" in m and m.get("Unit") not in HYBRID}
    neither, lost = translate_all(by_name, by_unit[""], "", {}, set(OTHER_PMUS))
    why.update({n: r for n, r in lost.items()})
    per_kind.append((neither, by_name))
    nkept = sum(len(k) for k, _b in per_kind)
    total = nkept + len(why)
    lines = ["; %s.ini - generated by tools/gen-catalogue.py from perf's pmu-events x86/%s" % (cpu, cpu),
             "; (mapfile.csv: %s): do not edit, regenerate. %d of %d perf metrics;" % (regex, nkept, total),
             "; left out, with why:"] + ["; - %s: %s" % (n, why[n]) for n in sorted(why)]
    lines += ["[profile]", "name = perf-%s" % cpu, "title = perf's metrics for %s" % cpu,
              "requires = cpu_core cpu_atom", when, ""]
    for (suffix, unit, sums), (kept, _b) in zip(kinds, per_kind):
        groups = {}
        for t in kept.values():
            for g, evs in t[1].items():
                groups.setdefault(g, {}).update(evs)
        lines += core_groups(cpu, "x86", when, groups, suffix, unit, sums)
    groups = {}
    for t in neither.values():
        for g, evs in t[1].items():
            groups.setdefault(g, {}).update(evs)
    lines += other_groups(cpu, when, groups, "")
    names = sorted(set(per_kind[0][0]) | set(per_kind[1][0]) | set(neither))
    for n in names:
        m = next(b[n] for k, b in per_kind if n in k)
        lines += metric_lines(n, m, [k for k, _b in per_kind if n in k], [b[n] for k, b in per_kind if n in k])
    return "\n".join(lines) + "\n", nkept, total


def write(out, cpu, text):
    with open(os.path.join(out, cpu.replace("/", "-") + ".ini"), "w") as f:
        f.write(text)


def main_arm(arch, out, rows, only):
    """arm64: a profile per directory, for the MIDRs of all its mapfile.csv lines."""
    midrs = {}
    for midr, _version, cpu, kind in rows:
        if kind == "core":
            midrs.setdefault(cpu, []).append(midr)
    for cpu, ids in midrs.items():
        if only and cpu not in only:
            continue
        events, metrics = catalogue_arm.load_arm(arch, os.path.join(arch, cpu))
        globs = catalogue_arm.mapfile_globs(ids)
        classes = [(suffix, None if g is None else "when = midr_el1 %s" % " ".join(g), answers)
                   for suffix, g, answers in catalogue_arm.cpuid_classes(metrics, ids)]
        named = [g for _s, g, _a in catalogue_arm.cpuid_classes(metrics, ids) if g]
        if len(classes) > 1:  # the directory's CPUs no class above names
            suffix, _w, answers = classes[-1]
            classes[-1] = (suffix, "when = midr_el1 %s\nunless = midr_el1 %s" % (
                " ".join(globs), " ".join(x for g in named for x in g)), answers)
        text, kept, total = profile(cpu, " ".join(ids), "when = midr_el1 %s" % " ".join(globs), events, metrics,
                                    "arm64", classes)
        write(out, cpu, text)
        print("%s: %d of %d perf metrics" % (cpu, kept, total))


def main():
    arch, out, only = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    rows = [r for r in csv.reader(open(os.path.join(arch, "mapfile.csv"))) if r and not r[0].startswith("#")]
    if rows[0][0].startswith("0x") or rows[1][0].startswith("0x"):  # arm64: MIDRs
        main_arm(arch, out, [r for r in rows if r[0].startswith("0x")], only)
        return
    above = []
    for regex, _version, cpu, kind in rows[1:]:
        if kind != "core":
            continue
        # the lines above this one that could name the same CPUs (same vendor and family)
        earlier = [r for r in above if r.split("-")[:2] == regex.split("-")[:2]]
        above.append(regex)
        if only and cpu not in only:
            continue
        by_unit, metrics = load(os.path.join(arch, cpu))
        when = "when = cpuid ~%s" % regex
        if earlier:  # perf takes mapfile.csv's first line that names the CPU: not those above
            when += "\nunless = cpuid %s" % " ".join("~" + r for r in earlier)
        if any(m.get("Unit") in HYBRID for m in metrics):
            text, kept, total = hybrid_profile(cpu, regex, when, by_unit, metrics)
        else:
            text, kept, total = profile(cpu, regex, when, by_unit[""], metrics)
        write(out, cpu, text)
        print("%s: %d of %d perf metrics" % (cpu, kept, total))


if __name__ == "__main__":
    main()
