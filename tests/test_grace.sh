#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# NVIDIA Grace uncore on generated trees as the 6.12 arm_cspmu driver prints them
# (../shared/hardware/SERVERS.md §2): the profile picks itself; PMUs are suffixed by
# NUMA node (here 0 and 4) and named by their CPU's socket; every metric is SERVERS.md
# §2.5's formula evaluated here on pmutop's raw deltas; a root-port or remote-socket
# mask of 0 (which the 6.12 driver counts as nothing) is refused; a kernel whose SCF has
# no cycle counter or no GPU memory shows no latency or GPU rows rather than a number
# made of the CPU's cycles.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
cd "$scratch"
sh "$TOP_SRCDIR/tests/fixtures/gen-grace.sh" g 2 4 "0 4"

# recompute JSON: each metric of each socket from the raw deltas, by the document's formula
recompute() {
    python3 - "$1" <<'PY'
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
t = o["interval_ns"]
raw, got = {}, {}
for c in o["counters"]:
    raw.setdefault((c["instance"], c["pmu"].split("_pmu_")[0]), {})[c["event"]] = c["delta"]
for m in o["metrics"]:
    got[(m["metric"], m["instance"])] = m["value"]
def bw(d, rd, wr):  # SERVERS.md 2.5: bytes over the interval, GB/s = B/ns
    return {"read_bw": (d[rd + "_loc"] + d[rd + "_rem"]) / t, "write_bw": (d[wr + "_loc"] + d[wr + "_rem"]) / t}
want = {}
for (inst, pmu), d in raw.items():
    if pmu == "nvidia_scf":
        want[("grace_mem_read_bw", inst)] = d["cmem_rd_data"] * 32 / t
        want[("grace_mem_write_bw", inst)] = d["cmem_wr_total_bytes"] / t
        want[("grace_remote_mem_read_bw", inst)] = d["remote_socket_rd_data"] * 32 / t
        want[("grace_remote_mem_write_bw", inst)] = d["remote_socket_wr_total_bytes"] / t
        if "gmem_rd_data" in d:
            want[("grace_gpu_mem_read_bw", inst)] = d["gmem_rd_data"] * 32 / t
            want[("grace_gpu_mem_write_bw", inst)] = d["gmem_wr_total_bytes"] / t
        if "cycles" in d:
            want[("grace_mem_read_latency", inst)] = d["cmem_rd_outstanding"] / d["cmem_rd_access"] / (d["cycles"] / t)
        want[("grace_scf_miss_ratio", inst)] = 100 * d["scf_cache_refill"] / d["scf_cache"]
    else:
        name = {"nvidia_pcie": "pcie", "nvidia_nvlink_c2c0": "c2c0", "nvidia_nvlink_c2c1": "c2c1", "nvidia_cnvlink": "cnvlink"}[pmu]
        for k, v in bw(d, "rd_bytes", "wr_bytes").items():
            want[("grace_%s_%s" % (name, k), inst)] = v
bad = [k for k in set(want) | set(got) if k not in got or k not in want or abs(got[k] - want[k]) > 1e-6 * max(1, abs(want[k]))]
for k in sorted(bad):
    print("%s %s: pmutop %s, SERVERS.md %s" % (k[0], k[1], got.get(k), want.get(k)))
print(len(want), "metrics recomputed,", len(bad), "differ")
sys.exit(1 if bad else 0)
PY
}

"$PMUTOP" --sim --sysfs-root g -b --format json --raw -n 3 --fake-clock > g.json 2> g.err || fail "grace: $(cat g.err)"
recompute g.json > g.out && ok || { fail "grace metrics differ from SERVERS.md 2.5:"; head -n 12 g.out >&2; }
expect_grep "32 metrics: 16 per socket" "^32 metrics recomputed" g.out
python3 - g.json <<'PY' && ok || fail "grace: instances are sockets, not NUMA nodes (see above)"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
insts = {m["instance"] for m in o["metrics"]}
assert insts == {"socket0", "socket1"}, sorted(insts)
assert {m["profile"] for m in o["metrics"]} == {"grace"}, "only the grace profile binds here"
PY

# a filter picks part of the traffic, and the metric is still the document's formula
"$PMUTOP" --sim --sysfs-root g -b --format json --raw -n 3 --fake-clock -f pcie@socket1:root_port=0x3 \
    -f cnvlink@socket0:rem_socket=0x1 > f.json 2> f.err || fail "grace filtered: $(cat f.err)"
recompute f.json > f.out && ok || { fail "filtered grace metrics differ:"; head -n 12 f.out >&2; }
python3 - g.json f.json <<'PY' && ok || fail "a root-port filter must count part of the socket's PCIe traffic"
import json, sys
def v(path, metric, inst):
    o = json.loads(open(path).read().splitlines()[-1])
    return [m["value"] for m in o["metrics"] if m["metric"] == metric and m["instance"] == inst][0]
for metric, inst in (("grace_pcie_read_bw", "socket1"), ("grace_cnvlink_read_bw", "socket0")):
    assert 0 < v(sys.argv[2], metric, inst) < v(sys.argv[1], metric, inst), metric
assert v(sys.argv[2], "grace_pcie_read_bw", "socket0") == v(sys.argv[1], "grace_pcie_read_bw", "socket0")
PY

# a mask of 0 counts nothing on 6.12: refused, with the range
if "$PMUTOP" --sim --sysfs-root g -b -n 1 -f pcie@socket0:root_port=0 > z.out 2> z.err; then
    fail "root_port=0 was accepted"
else
    expect_grep "root_port=0 refused with its range" "root_port=0x0 is outside 1..0x3ff" z.err
fi
"$PMUTOP" --sim --sysfs-root g -b -n 1 -f cnvlink@socket0:rem_socket=0 > z.out 2> z.err &&
    fail "rem_socket=0 was accepted" || expect_grep "rem_socket=0 refused" "outside 1..0xf" z.err

# a mainline kernel's SCF (no GPU memory events) without a cycle counter: no latency, no
# GPU rows, and never the CPU's cycles in the SCF's place
cp -r g trim
rm trim/sys/bus/event_source/devices/nvidia_scf_pmu_*/events/cycles trim/sys/bus/event_source/devices/nvidia_scf_pmu_*/events/gmem_*
"$PMUTOP" --sim --sysfs-root trim --dry-run > trim.tsv 2> trim.err || fail "trimmed grace: $(cat trim.err)"
awk -F'\t' '$3 !~ /\//' trim.tsv > legacy.tsv
[ -s legacy.tsv ] && fail "an SCF without cycles counts a CPU event: $(head -n 1 legacy.tsv)" || ok
"$PMUTOP" --sim --sysfs-root trim -b --format json --raw -n 3 --fake-clock > t.json 2> t.err || fail "trimmed grace run: $(cat t.err)"
recompute t.json > t.out && ok || { fail "trimmed grace metrics differ:"; head -n 12 t.out >&2; }
expect_grep "no latency and no GPU rows: 13 per socket" "^26 metrics recomputed" t.out
finish
