#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""uncore_metrics.py PERF_CPU_DIR SYSFS_ROOT RAW.jsonl METRIC... - perf's uncore metrics
as the oracle for pmutop's: each MetricExpr of the CPU's *metrics.json evaluated on the
raw deltas pmutop read, per socket and for the machine, as perf stat --per-socket / -a
would: an event is the JSON's encoding, placed with the tree's own format files as
perf's jevents writes it (event=, ch_mask=, fc_mask=, umask=), and counted on every PMU
whose name is the Unit's prefix (iMC: uncore_imc_N) or the Unit's one PMU (DFPMC:
amd_df) - never through pmutop's names.
duration_time is the interval in seconds; source_count() the PMUs an event is summed over
and #num_packages the sockets, which perf takes machine-wide: such metrics are compared
for the machine only. d_ratio(a, b) is a / b, 0 when b is; a ScaleUnit's number
("100%") multiplies, as perf stat prints it. Exits 1 when a value differs by more than
1e-6 relative, or when nothing was compared.
A METRIC written OURS=PERFS*FACTOR compares pmutop's OURS with perf's PERFS times FACTOR
(a metric perf names otherwise on one CPU: Ice Lake-SP's IO read bandwidth is its
tma_info_system_io_read_bw, in GB/s).
A METRIC written OURS~EXPR compares pmutop's OURS with EXPR, a MetricExpr in perf's
syntax over perf's JSON event names, for what perf counts but defines no metric of (the
PCU's limit cycles, the IIO free-running bytes): the events, their encodings and PMUs
are still perf's; the arithmetic is the test's, from the JSON's own descriptions.
A metric compared under perf's own name must also be in the unit of perf's ScaleUnit
("1ns": ns; "core clocks" is pmutop's "cycles"), where the ScaleUnit names one."""
import glob, json, os, re, sys

UNIT_PMU = {"iMC": "uncore_imc", "UPI": "uncore_upi", "UPI LL": "uncore_upi", "IIO": "uncore_iio",
            "CHA": "uncore_cha", "M2M": "uncore_m2m", "PCU": "uncore_pcu",
            "iio_free_running": "uncore_iio_free_running", "UMCPMC": "amd_umc", "DFPMC": "amd_df", "L3PMC": "amd_l3"}
TERMS = (("EventCode", "event"), ("PortMask", "ch_mask"), ("FCMask", "fc_mask"), ("UMask", "umask"),
         ("RdWrMask", "rdwrmask"), ("EnAllCores", "enallcores"), ("EnAllSlices", "enallslices"),
         ("SliceId", "sliceid"), ("ThreadMask", "threadmask"))


def place(spec, value):
    word, _, ranges = spec.partition(":")
    out, shift = 0, 0
    for r in ranges.split(","):
        lo, _, hi = r.partition("-")
        lo, hi = int(lo), int(hi or lo)
        width = hi - lo + 1
        out |= ((value >> shift) & ((1 << width) - 1)) << lo
        shift += width
    assert word == "config", spec
    return out


def encode(root, pmu, event):
    fmt = os.path.join(root, "sys/bus/event_source/devices", pmu, "format")
    config = 0
    for key, term in TERMS:
        if key in event and int(event[key], 0):
            config |= place(open(os.path.join(fmt, term)).read().strip(), int(event[key], 0))
    return config


def main():
    cpu_dir, root, raw, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    events, metrics = {}, {}
    for path in glob.glob(os.path.join(cpu_dir, "*.json")):
        for e in json.load(open(path)):
            if "MetricName" in e:
                metrics[e["MetricName"]] = e
            elif "EventName" in e and e.get("Unit") in UNIT_PMU:
                events[e["EventName"]] = e
    sockets = {}
    for p in glob.glob(os.path.join(root, "sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id")):
        sockets[int(p.split("/")[-3][3:])] = int(open(p).read())
    frame = json.loads(open(raw).read().splitlines()[-1])
    seconds = frame["interval_ns"] / 1e9
    shown = {(m["metric"], m["instance"]): m.get("value") for m in frame["metrics"]}
    units = {m["metric"]: m.get("unit") for m in frame["metrics"]}
    groups = {"all": frame["counters"]}
    for c in frame["counters"]:
        groups.setdefault("socket%d" % sockets[c["cpu"]], []).append(c)
    bad = agreed = 0
    npackages = len(set(sockets.values()))
    for spec in names:
        ours, tilde, own = spec.partition("~")
        if tilde:
            metrics[ours] = {"MetricExpr": own}
        ours, _, theirs = ours.partition("=")
        name, _, factor = (theirs or ours).partition("*")
        factor = float(factor or 1)
        expr = metrics[name]["MetricExpr"]
        machine_wide = "source_count(" in expr or "#num_packages" in expr
        perf_unit = re.sub(r"^[0-9.e+-]*", "", metrics[name].get("ScaleUnit", ""))
        perf_unit = {"core clocks": "cycles"}.get(perf_unit, perf_unit)
        if not tilde and not theirs and perf_unit and ours in units and units[ours] != perf_unit:
            print("%s: pmutop's unit is %r, perf's ScaleUnit %r" % (ours, units[ours], metrics[name]["ScaleUnit"]))
            bad += 1
        for inst, counters in groups.items():
            if (ours, inst) not in shown or (machine_wide and inst != "all"):
                continue  # perf's source_count x #num_packages is the machine's: perf -a only
            def count(m):
                ev = events[m.group(0)]
                prefix = UNIT_PMU[ev["Unit"]]
                return repr(sum(c["delta"] for c in counters
                                if re.match(re.escape(prefix) + r"(_\d+)?$", c["pmu"])
                                and int(c["config"], 16) == encode(root, c["pmu"], ev)))
            def source_count(m):  # the PMUs an event is summed over
                prefix = UNIT_PMU[events[m.group(1)]["Unit"]]
                return repr(len({c["pmu"] for c in counters if re.match(re.escape(prefix) + r"(_\d+)?$", c["pmu"])}))
            def token(m):  # an event's count; anything else (d_ratio, duration_time) stays
                return count(m) if m.group(0) in events else m.group(0)
            py = re.sub(r"source_count\(([^)]*)\)", source_count, expr)
            py = re.sub(r"(?<![\w.#])[A-Za-z_][A-Za-z0-9_.]*", token, py).replace("duration_time", repr(seconds))
            py = py.replace("#num_packages", repr(npackages))
            scale = factor * float(re.match(r"[0-9.e+-]*", metrics[name].get("ScaleUnit", "1")).group(0) or 1)
            want = scale * eval(py, {"__builtins__": {}}, {"d_ratio": lambda a, b: a / b if b else 0})
            got = shown[(ours, inst)]
            if got is None or abs(got - want) > 1e-6 * max(abs(want), 1e-9):
                print("%s %s: pmutop %s, perf's MetricExpr (%s) %r" % (ours, inst, got, name, want))
                bad += 1
            else:
                agreed += 1
    print("%d values agreed with perf's MetricExpr, %d did not" % (agreed, bad))
    sys.exit(1 if bad or not agreed else 0)


if __name__ == "__main__":
    main()
