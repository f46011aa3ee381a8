#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The command line as a user meets it: encode, list, batch output, errors and exit codes.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$scratch"

# encode: exact line format, type from the tree
ucf1=$(cat "$DEMO/sys/bus/event_source/devices/nvidia_ucf_pmu_1/type")
out=$("$PMUTOP" encode --sysfs-root "$DEMO" "nvidia_ucf_pmu_1/mem_bytes_rd,src_rem=1,dst_loc_gmem=1/" context-switches)
expect_eq "encode" "$out" "$(printf 'nvidia_ucf_pmu_1/mem_bytes_rd,src_rem=1,dst_loc_gmem=1/\ttype=%s\tconfig=0x123\tconfig1=0x204\tconfig2=0x0\ncontext-switches\ttype=1\tconfig=0x3\tconfig1=0x0\tconfig2=0x0' "$ucf1")"
PMUTOP_SYSFS_ROOT="$DEMO" "$PMUTOP" encode nvidia_ucf_pmu_0/slc_bytes_rd/ > env.out
expect_grep "encode honours PMUTOP_SYSFS_ROOT" "config=0x113" env.out
"$PMUTOP" encode --sysfs-root "$DEMO" nvidia_ucf_pmu_0/src_cpu=1/ > /dev/null 2> err.out
expect_eq "encode error exit" $? 1
expect_grep "encode error names term" "unknown term 'src_cpu'" err.out
expect_grep "encode error lists terms" "src_loc_cpu" err.out
"$PMUTOP" encode > /dev/null 2>&1
expect_eq "encode without events" $? 2

# list
"$PMUTOP" list --sysfs-root "$DEMO" pmus > pmus.out
expect_eq "list pmus: one line per PMU of the tree" "$(grep -v '^sensor_' pmus.out | grep -vc ' hwmon ')" "$(ls "$DEMO/sys/bus/event_source/devices" | wc -l)"
expect_grep "list pmus: the tree's sensor inputs too" "^sensor_temp_soc_thermal0_temp1 " pmus.out
expect_grep "list pmus identifier" "nvidia_ucf_pmu_0 .*identifier=2cf2036b" pmus.out
"$PMUTOP" list --sysfs-root "$DEMO" events > events.out
expect_grep "list events" "nvidia_pcie_tgt_pmu_1_rc_5/cycles/" events.out
"$PMUTOP" list --sysfs-root "$DEMO" profiles > profiles.out
expect_grep "list profiles matches" "^tegra410 *matches" profiles.out
expect_grep "list profiles fallback" "^host *fallback" profiles.out
"$PMUTOP" list machines > machines.out
expect_grep "list machines" "^tegra410$" machines.out
"$PMUTOP" list frobs > /dev/null 2>&1
expect_eq "list unknown" $? 2

# root complexes from the NVIDIA DVSEC, as the kernel doc's lspci script prints them
"$PMUTOP" list --sysfs-root "$DEMO" pci > pci.out
expect_grep "list pci" "^0002:80:00.0: Bus=80, Segment=02, RP=01, RC=01, Socket=00$" pci.out
expect_grep "list pci socket 1" "^000d:c0:00.0: Bus=c0, Segment=0d, RP=02, RC=04, Socket=01$" pci.out
expect_grep "list pci devices" "0003:01:00.0 NVMe controller" pci.out

# batch JSON on the demo machine: valid JSON, one object per interval, the issue's keys
"$PMUTOP" --demo -b -n 3 -d 0.5 --fake-clock --format json --raw > demo.json
expect_eq "json lines" "$(wc -l < demo.json)" 3
command -v python3 > /dev/null || fail "python3 is needed to check JSON (build.sh installs it)"
if command -v python3 > /dev/null; then
    python3 - demo.json <<'PY' || fail "json shape"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
for line in lines:
    o = json.loads(line)
    assert list(o)[:4] == ["time", "interval_ns", "source", "metrics"], list(o)
    assert o["interval_ns"] == 500000000 and o["source"] == "sim+sensors"
    names = {m["metric"] for m in o["metrics"]}
    for want in ["ucf.mem_read_bw", "pcie.read_latency", "cmem.read_latency", "c2c.in_wr_latency",
                 "clink.out_rd_latency", "dlink.in_rd_latency", "pcie_tgt.write_bw"]:
        assert want in names, want
    insts = {m["instance"] for m in o["metrics"]}
    assert {"socket0", "socket1", "socket0/rc3", "socket1/rc5"} <= insts, insts
    for m in o["metrics"]:
        assert set(m) >= {"profile", "metric", "instance", "value", "unit"}
        assert m["value"] is None or m["value"] >= 0
    assert all(isinstance(m["value"], (float, int)) or m["state"] == "no value" for m in o["metrics"])
    c = o["counters"][0]
    assert set(c) >= {"pmu", "event", "config", "config1", "config2", "cpu", "delta", "enabled_ns", "running_ns"}
PY
    ok
fi

# every Tegra410 metric is its seed formula applied to the raw counter deltas
if command -v python3 > /dev/null; then
    python3 - demo.json <<'PY' || fail "metrics differ from the seed formulae on raw deltas"
import json, sys
seed = {  # nvidia-tegra410-pmu.rst
    "read_bw": lambda d, ns: d["rd_bytes"] / ns, "write_bw": lambda d, ns: d["wr_bytes"] / ns,
    "read_rate": lambda d, ns: d["rd_req"] / d["cycles"], "write_rate": lambda d, ns: d["wr_req"] / d["cycles"],
    "read_latency": lambda d, ns: d["rd_cum_outs"] / d["rd_req"] / (d["cycles"] / ns),
}
ucf = {"slc_read_bw": ("slc_bytes_rd", None), "slc_write_bw": ("slc_bytes_wr", None),
       "mem_read_bw": ("mem_bytes_rd", None), "mem_write_bw": ("mem_bytes_wr", None),
       "slc_read_rate": ("slc_access_rd", "cycles"), "slc_write_rate": ("slc_access_wr", "cycles"),
       "mem_read_rate": ("mem_access_rd", "cycles"), "mem_write_rate": ("mem_access_wr", "cycles")}
lat = lambda d, ns, p: d[p + "_cum_outs"] / d[p + "_req"] / (d["cycles"] / ns)
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
ns = o["interval_ns"]
raw = {}
for c in o["counters"]:
    raw.setdefault((c["pmu"], c["instance"]), {})[c["event"]] = c["delta"]
def pmu_of(metric, inst):
    fam, name = metric.split(".")
    s = inst.split("/")[0][6:]
    rc = inst.split("/rc")[1].split("/")[0] if "/rc" in inst else None
    return {"ucf": "nvidia_ucf_pmu_%s" % s, "pcie": "nvidia_pcie_pmu_%s_rc_%s" % (s, rc),
            "pcie_tgt": "nvidia_pcie_tgt_pmu_%s_rc_%s" % (s, rc), "cmem": "nvidia_cmem_latency_pmu_%s" % s,
            "c2c": "nvidia_nvlink_c2c_pmu_%s" % s, "clink": "nvidia_nvclink_pmu_%s" % s,
            "dlink": "nvidia_nvdlink_pmu_%s" % s}[fam]
def seed_value(m):
    fam, name = m["metric"].split(".")
    d = raw[(pmu_of(m["metric"], m["instance"]), m["instance"])]
    if fam == "ucf":
        num, den = ucf[name]
        want = d[num] / (d[den] if den else ns)
    elif fam in ("pcie", "pcie_tgt"):
        want = seed[name](d, ns)
    elif name == "read_bw":
        want = d["rd_req"] * 32 / ns
    elif name == "freq":
        want = d["cycles"] / ns
    elif fam == "cmem":
        want = lat(d, ns, "rd")
    else:
        want = lat(d, ns, name.replace("_latency", ""))
    return want
checked = idle = 0
for m in o["metrics"]:
    if m["profile"] != "tegra410":
        continue
    try:
        want = seed_value(m)
    except ZeroDivisionError: # a latency with no request: no value, never a number
        assert m["value"] is None and m["state"] == "no value", m
        idle += 1
        continue
    assert abs(m["value"] - want) <= 1e-6 * abs(want), (m, want)
    checked += 1
assert checked > 100, checked
assert idle > 0, "no idle root complex (an RC with no device carries nothing)"
PY
    ok
fi

# CSV: a header row, then rows
"$PMUTOP" --demo -b -n 2 --fake-clock --format csv > demo.csv
expect_eq "csv header" "$(head -n 1 demo.csv)" "time,source,profile,metric,instance,value,unit,state"
expect_grep "csv row" "^[0-9T:.Z-]*,sim+sensors,tegra410,ucf.mem_read_bw,socket1,[0-9.]*,GB/s,ok$" demo.csv

# filters from the command line change the encoding
"$PMUTOP" --demo --dry-run -f pcie@socket0/rc2:src_rp_mask=0x3 > dry.out
expect_grep "dry-run filter" "socket0/rc2	pcie	nvidia_pcie_pmu_0_rc_2/rd_bytes,src_rp_mask=0x3/	type=[0-9]*	config=0x0	config1=0x3" dry.out
"$PMUTOP" --demo --dry-run -f pcie:src_bdf=27:01.1 > dry2.out
expect_grep "dry-run bdf on every rc" "socket1/rc5	pcie	nvidia_pcie_pmu_1_rc_5/rd_req,src_bdf=0x2709,src_bdf_en=1/" dry2.out
"$PMUTOP" --demo -b -n 1 --fake-clock -f pcie:src_rp_mask=3,src_bdf=1 > /dev/null 2> err.out
expect_eq "exclusive filters exit (a usage error)" $? 2
expect_grep "exclusive filters reason" "mutually exclusive" err.out
"$PMUTOP" --demo -b -n 1 --fake-clock -f ucf:src_loc_cpu=2 > /dev/null 2> err.out
expect_eq "bad flag exit (a usage error)" $? 2
expect_grep "bad flag reason" "not on/off" err.out
"$PMUTOP" --demo -b -n 1 --fake-clock -f nosuch:x=1 > /dev/null 2> err.out
expect_eq "unknown group exit (a usage error)" $? 2
expect_grep "unknown group reason" "no instance of group 'nosuch'" err.out

# profile errors are fatal with -p, and name file:line:column
printf '[group g]\npmu = software\nevents = context-switches\n[metric g.m]\nformula = context_switchez / elapsed_s\n' > bad.ini
"$PMUTOP" -b -n 1 -P ./bad.ini > /dev/null 2> err.out
expect_eq "bad profile exit" $? 1
expect_grep "bad profile message" "bad.ini:5:11: unknown event 'context_switchez' (did you mean 'context_switches'?)" err.out

# a later -P failing frees the profiles loaded before it (the ASan run catches a leak by
# the exit status), and a group lacking several events is unavailable, not leaking
"$PMUTOP" -b -n 1 -P host -P ./nonexistent.ini > /dev/null 2> err.out
expect_eq "second -P missing exit" $? 1
expect_grep "second -P missing message" "nonexistent.ini: cannot open profile" err.out
printf '[group g]\npmu = software\nevents = nosuch1 nosuch2 nosuch3\n[metric g.m]\nformula = nosuch1\n' > lacking.ini
"$PMUTOP" --dry-run -P ./lacking.ini > lacking.out 2>&1
expect_eq "group lacking events exit" $? 0
expect_grep "group lacking events says the first" "has no event 'nosuch1'" lacking.out

# --sim on a tree pmutop has never seen: sockets 3 and 7 (numbers come from names, not
# from counting), one RC each, no model file (default rates)
sh "$TOP_SRCDIR/tests/fixtures/gen-tegra410.sh" tree 2 4 2
dev=tree/sys/bus/event_source/devices
for p in "$dev"/*; do
    n=$(echo "$p" | sed 's/pmu_1$/pmu_7/; s/pmu_1_rc_/pmu_7_rc_/; s/pmu_0$/pmu_3/; s/pmu_0_rc_/pmu_3_rc_/')
    [ "$n" = "$p" ] || mv "$p" "$n"
done
"$PMUTOP" --sim --sysfs-root tree -b -n 2 --fake-clock --format csv > sim.csv 2> sim.err
expect_grep "sim on unseen tree" ",sim,tegra410,ucf.mem_read_bw,socket7,[0-9.]*,GB/s,ok" sim.csv
expect_grep "sim socket3 rc1" ",sim,tegra410,pcie.read_latency,socket3/rc1,[0-9.]*,ns,ok" sim.csv
grep -q "socket0\|socket1" sim.csv && fail "instances named from counting, not from PMU names" || ok

# --sim without a model: the default model is coherent for every family, on any tree
# shaped like the drivers' (TopDown partitions slots, latencies 80-1000 ns, SLC >= memory),
# and every filter selects part of the traffic (a BDF or address no device has: none)
for kind in spr skl icl adl neoverse-v2; do
    sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" $kind "td-$kind" 2 4 > /dev/null
    "$PMUTOP" --sim --sysfs-root "td-$kind" -P topdown -b -n 1 --fake-clock --format csv > "td-$kind.csv"
done
"$PMUTOP" --sim --sysfs-root tree -b -n 1 --fake-clock --format csv -P tegra410 > nomodel.csv
"$PMUTOP" --sim --sysfs-root tree -b -n 2 --fake-clock --format csv -P tegra410 \
    -f pcie_tgt@socket3/rc1:dst_addr_base=0x80000000,dst_addr_mask=0xf0000000 \
    -f pcie_tgt@socket7/rc1:dst_addr_base=0xa0000000,dst_addr_mask=0xf0000000 | tail -n +2 > filtered.csv
# PCIe traffic comes from the devices of the PCI map (a tree whose PMU names and DVSEC
# agree): the GPU behind root port 1 of each RC1 carries all of it, bus 01 (no device)
# and root port 2 (no device behind it) nothing
sh "$TOP_SRCDIR/tests/fixtures/gen-tegra410.sh" pcitree 2 4 2
"$PMUTOP" --sim --sysfs-root pcitree -b -n 2 --fake-clock --format csv -P tegra410 > pciwhole.csv
"$PMUTOP" --sim --sysfs-root pcitree -b -n 2 --fake-clock --format csv -P tegra410 \
    -f pcie@socket0/rc1:src_bdf=81:00.0 -f pcie@socket1/rc1:src_bdf=01:00.0 \
    -f pcie@socket0/rc0:src_rp_mask=0x1 -f pcie@socket1/rc0:src_bdf=01:00.0 > pcifiltered.csv
"$PMUTOP" --sim --sysfs-root pcitree -b -n 2 --fake-clock --format csv -P tegra410 \
    -f pcie@socket0/rc1:src_rp_mask=0x2 -f pcie@socket1/rc1:src_rp_mask=0x4 > pcimask.csv
python3 - <<'PY' && ok || fail "default model: see the assertion above"
import csv, glob
def rows(path):
    return [r for r in csv.reader(open(path)) if r and r[0] != "time"]
for path in glob.glob("td-*.csv"):
    by = {}
    for r in rows(path):
        if r[7] == "ok":
            by.setdefault(r[4], {})[r[3]] = float(r[5])
    assert by, path
    for inst, m in by.items():
        l1 = [m[k] for k in ("topdown.retiring", "topdown.bad_speculation", "topdown.frontend_bound", "topdown.backend_bound")]
        assert all(0 <= x <= 100 for x in l1), (path, inst, l1)
        assert abs(sum(l1) - 100) < 0.5, (path, inst, l1)
        if "topdown.heavy_ops" in m:
            assert abs(m["topdown.heavy_ops"] + m["topdown.light_ops"] - m["topdown.retiring"]) < 1e-6
v = {(r[3], r[4]): float(r[5]) for r in rows("nomodel.csv") if r[7] == "ok"}
lat = [x for (k, i), x in v.items() if k.endswith("latency")]
assert lat and all(80 <= x <= 1000 for x in lat), sorted(lat)[:3]
for s in ("socket3", "socket7"):
    assert v[("ucf.slc_read_bw", s)] >= v[("ucf.mem_read_bw", s)]
    assert v[("ucf.slc_write_bw", s)] >= v[("ucf.mem_write_bw", s)]
last = {(r[3], r[4]): float(r[5]) for r in rows("filtered.csv")[-300:] if r[7] == "ok"}
def final(path):
    return {(r[3], r[4]): float(r[5]) for r in rows(path)[-300:] if r[7] == "ok"}
whole, bdf, mask = final("pciwhole.csv"), final("pcifiltered.csv"), final("pcimask.csv")
near = lambda a, b: abs(a - b) <= 0.01 * max(a, b)
assert whole[("pcie.read_bw", "socket0/rc1")] > 0, "an RC with a device carries traffic"
assert whole[("pcie.read_bw", "socket0/rc0")] == 0, "an RC with no device carries nothing"
assert near(bdf[("pcie.read_bw", "socket0/rc1")], whole[("pcie.read_bw", "socket0/rc1")]), "the only device's BDF: all"
assert bdf[("pcie.read_bw", "socket1/rc1")] == 0, "a BDF no device has selects nothing"
assert near(mask[("pcie.read_bw", "socket0/rc1")], whole[("pcie.read_bw", "socket0/rc1")]), "the GPU's root port: all"
assert mask[("pcie.read_bw", "socket1/rc1")] == 0, "a root port with no device behind it: nothing"
assert 0 < last[("pcie_tgt.read_bw", "socket3/rc1")] < v[("pcie_tgt.read_bw", "socket3/rc1")]
assert last[("pcie_tgt.read_bw", "socket7/rc1")] == 0, "an address no BAR has selects nothing"
PY

# half an address filter selects nothing the user meant: a mask alone is never enabled, a
# base alone (mask 0) matches every address (tegra410-pmu.rst). Both halves, or n/a saying so.
for half in dst_addr_base=0x80000000 dst_addr_mask=0xf0000000; do
    "$PMUTOP" --sim --sysfs-root tree -b -n 1 --fake-clock --format json -P tegra410 \
        -f "pcie_tgt@socket3/rc1:$half" > half.json
    expect_grep "half an address filter ($half)" '"metric":"pcie_tgt.read_bw","instance":"socket3/rc1","value":null,"unit":"GB/s","state":"unavailable","reason":"dst_addr_[a-z]* needs dst_addr_[a-z]* set too"' half.json
done
# text says the same reason beside its n/a
"$PMUTOP" --sim --sysfs-root tree -b -n 1 --fake-clock -P tegra410 \
    -f "pcie_tgt@socket3/rc1:dst_addr_mask=0xf0000000" > half.txt
expect_grep "text batch: n/a with its reason" 'socket3/rc1 *n/a *(dst_addr_mask needs dst_addr_base set too)' half.txt

# hardware no profile counts yet is named, not just "0 counter groups"
for s in 0 2; do
    d=nic/sys/bus/event_source/devices/acme_nic_pmu_$s
    mkdir -p $d && echo 9 > $d/type && echo 0 > $d/cpumask
done
# a bfperf block no profile counts (BlueField-3's gga), and another vendor's hwmon counters
mkdir -p nic/sys/class/hwmon/hwmon3/gga0 nic/sys/class/hwmon/hwmon4 nic/sys/devices/system/cpu
echo 0-3 > nic/sys/devices/system/cpu/online
echo bfperf > nic/sys/class/hwmon/hwmon3/name
printf '0x0: GGA_PERF_DESC_WQE_STRB\n' > nic/sys/class/hwmon/hwmon3/gga0/event_list
echo '0x0: GGA_PERF_DESC_WQE_STRB' > nic/sys/class/hwmon/hwmon3/gga0/event0
echo 0x0 > nic/sys/class/hwmon/hwmon3/gga0/counter0
echo acmeperf > nic/sys/class/hwmon/hwmon4/name
echo 0x0 > nic/sys/class/hwmon/hwmon4/event0 && echo 0x0 > nic/sys/class/hwmon/hwmon4/counter0
"$PMUTOP" --sim --sysfs-root nic -b -n 1 --fake-clock > /dev/null 2> err.out
expect_eq "unsupported hardware exit" $? 1
expect_grep "unsupported PMU named" "PMU acme_nic_pmu_0: found, but no profile counts it yet" err.out
expect_grep "unsupported bfperf block named" "PMU bfperf_gga0: found, but no profile counts it yet" err.out
expect_grep "unsupported hwmon counters named" "hwmon device acmeperf .*programmable counters found" err.out
expect_eq "said once for both" "$(grep -c acme_nic_pmu err.out)" 1

# -o FILE; and an interrupt prints the partial interval first, as perf stat -I does
"$PMUTOP" --demo -n 2 --fake-clock --format csv -o out.csv
expect_eq "-o FILE: header and two intervals" "$(wc -l < out.csv)" "$(( 1 + 2 * $(($(wc -l < demo.csv) - 1)) / 2 ))"
"$PMUTOP" --demo -b -d 3600 --format json > partial.json 2> partial.err &
pid=$!
# ready once it took SIGINT and waits in its loop's poll(). A job started with & inherits
# SIGINT ignored (bit 2 of SigIgn) until pmutop sets its handler: that bit clearing is
# the sign, also under valgrind, whose own handlers fill SigCgt from the start (an INT
# sent while it is still ignored is lost, and the test would wait for ever). The job is
# pmutop once its command line is (until its exec, it is the shell's fork, whose masks
# are the shell's and which runs: wchan 0; a signal then was lost 1 time in 10)
i=0
caught() {
    tr '\0' ' ' < /proc/$pid/cmdline 2> /dev/null | grep -q -- "-d 3600 --format json" || return 1
    ign=$(awk '/^SigIgn:/ { print $2 }' /proc/$pid/status 2> /dev/null)
    cgt=$(awk '/^SigCgt:/ { print $2 }' /proc/$pid/status 2> /dev/null)
    [ -n "$ign" ] && [ $((0x$ign & 2)) -eq 0 ] && [ $((0x$cgt & 2)) -ne 0 ] &&
        { grep -q poll "/proc/$pid/wchan" 2> /dev/null || [ "$(cat /proc/$pid/wchan 2> /dev/null)" = 0 ]; }
}  # (a kernel that hides wchan says 0: then the signal masks alone)
while [ $i -lt 400 ] && ! caught; do
    sleep 0.05; i=$((i + 1))
done
[ $i -lt 400 ] && ok || fail "interrupt: pmutop never caught SIGINT"
kill -INT $pid
# a deadline, not a hang of the whole suite, should the signal be lost again
ended() { [ ! -e /proc/$pid ] || grep -q '^State:.*Z' /proc/$pid/status 2> /dev/null; }
wait_until "interrupt: pmutop ends on SIGINT" 30 ended || kill -KILL $pid
wait $pid
expect_eq "interrupt exit" $? 0
expect_eq "interrupt: one partial interval" "$(wc -l < partial.json)" 1
python3 -c "import json,sys; o=json.loads(open('partial.json').readline()); sys.exit(not (0 < o['interval_ns'] < 3600e9))" \
    && ok || fail "interrupt: the partial interval is shorter than the hour: $(head -c 200 partial.json)"

# CPU utilisation from a fake /proc/stat: (busy delta) / (total delta)
mkdir -p fakeproc/proc
printf 'cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n' > fakeproc/proc/stat
"$PMUTOP" --demo --proc-root fakeproc -b -n 1 -d 0.01 > util0.out
grep -q " cpu " util0.out && fail "utilisation shown before two readings" || ok
# (a /proc/stat that changes between two readings: check_engine's host_meters_in_frames)
# ... and it is read only when an output shows it: batch text, a recording (its replay
# shows it), the monitor; CSV and JSON alone leave /proc/stat alone on every refresh
if command -v strace > /dev/null && strace -o /dev/null true 2> /dev/null; then
    for run in "text" "csv" "json" "csv -w meters.pmrec"; do
        rm -f meters.pmrec
        strace -f -o "meters.trace" -e trace=openat "$PMUTOP" --demo hip09 --proc-root fakeproc -b -n 2 \
            --fake-clock --format $run > /dev/null
        grep -q 'fakeproc/proc/stat' meters.trace && echo "$run: read" || echo "$run: not read"
    done > meters.out
    expect_eq "host meters read only where shown" "$(tr '\n' ';' < meters.out)" \
        "text: read;csv: not read;json: not read;csv -w meters.pmrec: read;"
else
    skip_check "strace cannot trace here: which outputs read /proc/stat is not checked"
fi

# start-up reads each file it needs once: the traffic model (its three sources share one
# parse), each CPU's identification register (every profile's match asks it)
if command -v strace > /dev/null && strace -o /dev/null true 2> /dev/null; then
    strace -o start.trace -e trace=openat,open "$PMUTOP" --demo -b -n 1 --fake-clock --format json > /dev/null
    grep -v ENOENT start.trace | sed -n 's/^[^"]*"\([^"]*\)".*/\1/p' | sort | uniq -d > twice.out
    expect_eq "files read twice at start" "$(grep -c -e 'model\.ini$' -e midr_el1 twice.out)" 0
    # ... and a socket's CPUs from one package_cpus_list, not a file a CPU (two sockets)
    expect_eq "physical_package_id files read" "$(grep -v ENOENT start.trace | grep -c physical_package_id)" 2
else
    skip_check "strace cannot trace here: what start-up reads twice is not checked"
fi

# a bad traffic model names file, line and column, and nothing runs
printf '[model]\njitter = 0\n[pmu nvidia_ucf_pmu_*]\nrate.cycles = 2e9 *\n' > badmodel.ini
"$PMUTOP" --demo --model badmodel.ini -b -n 1 > /dev/null 2> err.out
expect_eq "bad model exit" $? 1
expect_grep "bad model message" "badmodel.ini:4:20: rate.cycles: formula ends where a value was expected" err.out

# failures exit non-zero with a message (exit statuses: pmutop(1))
"$PMUTOP" --demo -b -n 3 --fake-clock --format json > /dev/full 2> err.out
expect_eq "full disk exit" $? 1
expect_grep "full disk message" "writing batch output: No space left on device" err.out
"$PMUTOP" --demo -b -n 3 --fake-clock >&- 2> err.out
expect_eq "closed standard output exit" $? 1
expect_grep "closed standard output message" "writing batch output: Bad file descriptor" err.out
# a disk that fills up mid-run (a 256 KiB tmpfs in a mount namespace of the test's own):
# the lines written are whole JSON, the one that did not fit is not there at all
if unshare -m true 2> /dev/null; then
    mkdir -p small
    unshare -m sh -c "mount -t tmpfs -o size=256k tmpfs small &&
        { \"$PMUTOP\" --demo -b -n 20 --fake-clock --format json -o small/out.json 2> err.out; echo \$? > full.rc;
          python3 -c 'import json, sys
lines = open(sys.argv[1], \"rb\").read().split(b\"\\n\")
assert lines[-1] == b\"\", \"a partial last line\"
for l in lines[:-1]: json.loads(l)
print(len(lines) - 1)' small/out.json > full.lines 2>&1; }"
    expect_eq "disk full mid-run exit" "$(cat full.rc)" 1
    expect_grep "disk full mid-run message" "writing batch output: No space left on device" err.out
    if grep -qx '[1-9]' full.lines; then ok; else fail "disk full mid-run: the lines left are not whole JSON: $(cat full.lines)"; fi
    # appending (>>) to what a file already held: that stays, and only whole lines follow
    mkdir -p small2
    unshare -m sh -c "mount -t tmpfs -o size=256k tmpfs small2 && echo '{\"before\": 1}' > small2/out.json &&
        { \"$PMUTOP\" --demo -b -n 20 --fake-clock --format json >> small2/out.json 2> err2.out; echo \$? > full2.rc;
          python3 -c 'import json, sys
lines = open(sys.argv[1], \"rb\").read().split(b\"\\n\")
assert lines[-1] == b\"\", \"a partial last line\"
assert json.loads(lines[0]) == {\"before\": 1}, \"what the file held is gone\"
for l in lines[1:-1]: json.loads(l)
print(len(lines) - 2)' small2/out.json > full2.lines 2>&1; }"
    expect_eq "disk full mid-run, appending: exit" "$(cat full2.rc)" 1
    if grep -qx '[1-9]' full2.lines; then ok; else fail "disk full mid-run, appending: $(cat full2.lines)"; fi
else
    skip_check "no private mount namespace here (unshare -m): a disk filling mid-run is not exercised"
fi
"$PMUTOP" --sysfs-root ./nonexistent -b -n 1 > /dev/null 2> err.out
expect_eq "missing sysfs root exit" $? 1
expect_grep "missing sysfs root message" "nonexistent: No such file or directory" err.out
mkdir -p adir
"$PMUTOP" -P ./adir -b -n 1 > /dev/null 2> err.out
expect_eq "profile is a directory exit" $? 1
expect_grep "profile is a directory message" "adir: cannot open profile: a directory, not a file" err.out
: > empty.ini
"$PMUTOP" -P ./empty.ini -b -n 1 > /dev/null 2> err.out
expect_eq "empty profile exit" $? 1
expect_grep "empty profile message" "empty.ini:1: defines no \[group\] and no \[metric\]" err.out
"$PMUTOP" --demo --model ./adir -b -n 1 --fake-clock > /dev/null 2> err.out
expect_eq "model is a directory exit" $? 1
expect_grep "model is a directory message" "adir: cannot open model: a directory, not a file" err.out
"$PMUTOP" --model badmodel.ini -b -n 1 > /dev/null 2> err.out
expect_eq "model without --sim exit" $? 2
expect_grep "model without --sim message" "model needs --sim" err.out
"$PMUTOP" --sysfs-root "$DEMO" -b -n 1 > /dev/null 2> err.out
expect_eq "live counting on a foreign tree exit" $? 1
expect_grep "live counting on a foreign tree message" "counting live needs the real /sys" err.out
# nothing countable (not permitted: an unprivileged user at perf_event_paranoid >= 1)
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent \
        "$PMUTOP" -b -n 1 -d 0.1 -P "$TOP_SRCDIR/profiles/host.ini" > /dev/null 2> nobody.err
    expect_eq "nothing countable exit" $? 1
    expect_grep "nothing countable message" "nothing could be counted" nobody.err
    expect_grep "nothing countable: the fix" "perf_event_paranoid" nobody.err
else
    skip_check "nothing countable: needs root, setpriv and kernel.perf_event_paranoid >= 1"
fi

# profiles from $XDG_CONFIG_HOME; an installed tree moved elsewhere finds its data beside
# the binary (../share/pmutop)
mkdir -p xdg/pmutop/profiles
printf '[profile]\nname = mine\n[group g]\npmu = software\ninstance = all\nevents = context-switches\n[metric g.cs]\nformula = context_switches\n' \
    > xdg/pmutop/profiles/mine.ini
XDG_CONFIG_HOME="$PWD/xdg" "$PMUTOP" list profiles > xdg.out
expect_grep "profiles from XDG_CONFIG_HOME" "^mine " xdg.out
# start-up reads whole only the profiles that may apply: one whose [profile] comes after
# its groups still applies, and a broken one for another machine is said by 'list
# profiles', not at every start
mkdir -p xdg2/pmutop/profiles
printf '[group late]\npmu = nvidia_ucf_pmu_{s}\ninstance = s{s}\nevents = cycles\n[metric late.cyc]\nformula = cycles\n[profile]\nrequires = nvidia_ucf_pmu_*\n' \
    > xdg2/pmutop/profiles/late.ini
printf '[profile]\nrequires = no_such_pmu_*\n[group g]\npmu = no_such_pmu\nevents = a\n[metric g.x]\nformula = a +\n' \
    > xdg2/pmutop/profiles/elsewhere.ini
XDG_CONFIG_HOME="$PWD/xdg2" "$PMUTOP" --demo -b -n 1 --fake-clock --format csv > late.csv 2> late.err
expect_grep "a profile whose header comes late applies" ",late.cyc,s0," late.csv
grep -q "elsewhere.ini" late.err && fail "a broken profile for another machine was read at start: $(cat late.err)" || ok
XDG_CONFIG_HOME="$PWD/xdg2" "$PMUTOP" list profiles > /dev/null 2> list.err
expect_grep "list profiles says the broken one" "elsewhere.ini:7:14: formula ends" list.err
mkdir -p moved/bin moved/share/pmutop
cp "$PMUTOP" moved/bin/pmutop
cp -R "$TOP_SRCDIR/profiles" moved/share/pmutop/profiles
cp -R "$TOP_SRCDIR/profiles/machines" moved/share/pmutop/machines
moved/bin/pmutop --demo -b -n 1 --fake-clock --format csv > moved.csv 2> moved.err
expect_grep "a moved install finds its demo and profiles" ",sim+sensors,tegra410,ucf.mem_read_bw,socket0," moved.csv

# bash completion: sub-commands, demo names, formats
if command -v bash > /dev/null; then
    out=$(PATH="$(dirname "$PMUTOP"):$PATH" bash -c ". '$TOP_SRCDIR/completion/pmutop.bash'
        COMP_WORDS=(pmutop --demo ''); COMP_CWORD=2; _pmutop; echo \"\${COMPREPLY[*]}\"
        COMP_WORDS=(pmutop l); COMP_CWORD=1; _pmutop; echo \"\${COMPREPLY[*]}\"
        COMP_WORDS=(pmutop --format j); COMP_CWORD=2; _pmutop; echo \"\${COMPREPLY[*]}\"
        COMP_WORDS=(pmutop --fa); COMP_CWORD=1; _pmutop; echo \"\${COMPREPLY[*]}\"")
    expect_eq "completion" "$out" "$(printf '%s\nlist\njson\n--fake-clock' "$("$PMUTOP" list machines | tr '\n' ' ' | sed 's/ $//')")"
else
    skip_check "completion: bash is not installed"
fi

# usage errors: one line that says what is wrong, not the whole help
"$PMUTOP" --frob > out.txt 2> err.out
expect_eq "unknown option: one line" "$(wc -l < err.out)" 1
expect_grep "unknown option: names it" "^pmutop: unknown option '--frob' (see pmutop --help)$" err.out
"$PMUTOP" list --frob > /dev/null 2> err.out
expect_grep "sub-command option errors name the command" "^pmutop list: unknown option '--frob'" err.out
"$PMUTOP" --demo -b -n 1 --fake-clock -f ucf@:src_loc_cpu=1 > /dev/null 2> err.out
expect_eq "empty instance name exit (a usage error)" $? 2
expect_grep "empty instance name message" "a name on each side of '@'" err.out
# list and encode take --demo
"$PMUTOP" list --demo pmus > demopmus.out
expect_eq "list --demo" "$(grep -v '^sensor_' demopmus.out | grep -vc ' hwmon ')" "$(ls "$DEMO/sys/bus/event_source/devices" | wc -l)"
"$PMUTOP" encode --demo nvidia_ucf_pmu_0/slc_bytes_rd/ > demoenc.out
expect_grep "encode --demo" "config=0x113" demoenc.out
"$PMUTOP" --frob > /dev/null 2>&1
expect_eq "unknown option" $? 2
"$PMUTOP" -d 0 -b > /dev/null 2>&1
expect_eq "bad interval" $? 2
"$PMUTOP" --demo nosuchmachine -b -n 1 > /dev/null 2> err.out
expect_eq "unknown demo (a usage error)" $? 2
"$PMUTOP" --help | grep -q -- "--sysfs-root" && ok || fail "help mentions --sysfs-root"
# serve and rules have their own help, saying their own options
"$PMUTOP" serve --help | grep -q -- "--http-limits" && ok || fail "serve --help explains --http-limits"
"$PMUTOP" rules --help | grep -q -- "--window DURATION" && ok || fail "rules --help explains --window"
"$PMUTOP" rules --help | grep -q -- "--listen" && fail "rules --help offers --listen" || ok
# a terminal of 80 columns shows every line of the help whole
for cmd in "" encode list record serve rules; do
    wide=$("$PMUTOP" $cmd --help 2>&1 | awk 'length > 80')
    [ -z "$wide" ] && ok || fail "pmutop $cmd --help: lines over 80 columns: $wide"
done

# --proc-root that has no proc/stat: said, not a silently missing CPU meter
"$PMUTOP" --demo -b -n 1 --fake-clock --proc-root "$scratch/no-such-root" > /dev/null 2> proc.err
expect_eq "--proc-root without proc/stat: still counts" $? 0
expect_grep "--proc-root without proc/stat: said" "--proc-root .*no-such-root: cannot read .*proc/stat (No such file or directory): no CPU meter" proc.err
# batch text keeps its columns when names are long (xeon's metric names reach 46
# characters): every row's unit starts in the same column
"$PMUTOP" --demo xeon -b -n 1 --fake-clock > xeon.txt
cols=$(awk '/^  / && / (MB\/s|ns|GHz) / { print index($0, " MB/s") ? index($0, " MB/s") : index($0, " ns ") ? index($0, " ns ") : index($0, " GHz") }' xeon.txt | sort -u | wc -l)
expect_eq "batch text: long names, one unit column" "$cols" 1

# -M, as perf stat -M: only the metrics named (and what they read), only their events;
# a name that names nothing, or -M on a replay, is refused with status 2
"$PMUTOP" --demo -b -n 1 --fake-clock --format csv -M ucf.mem_read_bw,cmem.read_bw > m.csv
expect_eq "-M: only the metrics named" "$(cut -d, -f4 m.csv | sort -u | tr '\n' ' ')" "cmem.read_bw metric ucf.mem_read_bw "
"$PMUTOP" --demo --dry-run -M ucf.mem_read_bw | cut -f3 > m-events.txt
expect_eq "-M: only the events they read" "$(sed 's/_[0-9]*\//\//' m-events.txt | sort -u | tr '\n' ' ')" "nvidia_ucf_pmu/mem_bytes_rd/ "
"$PMUTOP" --demo -b -n 1 -M NoSuchMetric > /dev/null 2> m.err
expect_eq "-M names nothing: exit status" $? 2
expect_grep "-M names nothing: said" "no metric or metric group 'NoSuchMetric'" m.err
"$PMUTOP" --demo -b -n 1 -M ', ,' > /dev/null 2> m.err
expect_eq "-M with no name: exit status" $? 2
expect_grep "-M with no name: said, not 'nothing to count'" "-M ', ,': want metric or metric group names" m.err
"$PMUTOP" --demo -b -n 2 --fake-clock -w m.pmrec > /dev/null
"$PMUTOP" -r m.pmrec -b -M ucf.mem_read_bw > /dev/null 2> m.err
expect_eq "-M on a replay: exit status" $? 2
# a formula may read events of several other groups (perf's metrics mix the core's, TSC's
# and the C-state PMUs'): each GROUP.EVENT from that group's instance of the same name;
# checked against the raw deltas of the three PMUs of each socket
cat > two-imports.ini << 'EOF'
[group ucf]
pmu = nvidia_ucf_pmu_{socket}
instance = socket{socket}
events = slc_access_rd
[group c2c]
pmu = nvidia_nvlink_c2c_pmu_{socket}
instance = socket{socket}
events = in_rd_req
[group cmem]
pmu = nvidia_cmem_latency_pmu_{socket}
instance = socket{socket}
events = rd_req
[metric ucf.mix]
formula = slc_access_rd + 3 * c2c.in_rd_req + 7 * cmem.rd_req
EOF
"$PMUTOP" --demo -P two-imports.ini -b -n 2 --fake-clock --format json --raw > two.json 2> two.err
expect_eq "two imports: loads and counts" $? 0
python3 - two.json << 'EOF' && ok || fail "two imports: the value is not the sum of its three PMUs' deltas"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
d = {tuple(c["pmu"].rsplit("_", 1)): c["delta"] for c in o["counters"]}
vals = {m["instance"]: m["value"] for m in o["metrics"] if m["metric"] == "ucf.mix"}
assert sorted(vals) == ["socket0", "socket1"], vals
for s in ("0", "1"):
    want = d[("nvidia_ucf_pmu", s)] + 3 * d[("nvidia_nvlink_c2c_pmu", s)] + 7 * d[("nvidia_cmem_latency_pmu", s)]
    assert abs(vals["socket" + s] - want) <= 1e-9 * want, (s, vals, want)
EOF
# a pane hidden until setup shows it (core.ini's Arm core events, which would take
# TopDown's counters in turn on a Neoverse): batch, with no setup, leaves its metrics out
# and the rest as they were; -M naming one, or -P naming the profile, counts them
"$PMUTOP" --demo -b -n 2 --fake-clock --format csv > hidden.csv 2>&1
if grep -q ",core.arm_" hidden.csv; then fail "batch counts a hidden pane's metrics"; else ok; fi
expect_grep "batch: TopDown still counted" ",topdown.retiring,socket0," hidden.csv
"$PMUTOP" --demo -b -n 2 --fake-clock --format csv -M core.arm_ipc > hidden-m.csv 2>&1
expect_grep "-M names a hidden pane's metric" ",core.arm_ipc,socket0," hidden-m.csv
"$PMUTOP" --demo -b -n 2 --fake-clock --format csv -P core > hidden-p.csv 2>&1
expect_grep "-P names the profile: all of it" ",core.arm_llc_mpki,socket0," hidden-p.csv
# batch output into a pipe nobody reads: pmutop blocks in write(), as any writer would,
# but a signal that asks it to stop stops it (it retried EINTR forever: only SIGKILL
# ended it). The waits below poll for a state with a deadline; none waits for time.
rm -f stuck.fifo && mkfifo stuck.fifo
sleep 300 < stuck.fifo & # a reader that never reads (it opens the FIFO, then sleeps)
reader=$!
"$PMUTOP" --demo -b --fake-clock > stuck.fifo 2> stuck.err &
pm=$!
blocked() { grep -q pipe "/proc/$pm/wchan" 2> /dev/null; } # in the kernel's pipe write
i=0 # until pmutop is blocked writing (the pipe's 64 KiB are full)
while [ $i -lt 100 ] && ! blocked; do sleep 0.1; i=$((i + 1)); done
if blocked; then
    ok
elif [ "$(cat "/proc/$pm/wchan" 2> /dev/null)" = 0 ] || ! [ -r "/proc/$pm/wchan" ]; then
    skip_check "batch into a full pipe: this kernel does not say where a task waits (/proc/PID/wchan)"
else
    fail "batch into a full pipe: pmutop is not blocked writing ($(cat "/proc/$pm/wchan" 2> /dev/null))"
fi
kill -TERM "$pm"
i=0
while [ $i -lt 100 ] && kill -0 "$pm" 2> /dev/null; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$pm" 2> /dev/null; then
    fail "SIGTERM while blocked writing to a pipe nobody reads: pmutop still running after 10 s"
    kill -KILL "$pm"
fi
wait "$pm" 2> /dev/null
status=$?
[ $status -lt 128 ] && ok || fail "SIGTERM while blocked writing: killed by signal $((status - 128))"
kill "$reader" 2> /dev/null
wait "$reader" 2> /dev/null

# a name that is not there is a usage error (exit 2) that names the nearest, as git does
# ("--demo foo -b" exited 1 without a hint); TopdownL1 on an AMD CPU points to its level
while IFS='|' read -r args want; do
    # shellcheck disable=SC2086
    "$PMUTOP" $args -b -n 1 --fake-clock > /dev/null 2> typo.err
    expect_eq "$args: exit" $? 2
    expect_grep "$args: the nearest name" "$want" typo.err
done << 'EOF'
--demo xeonn|no demo machine 'xeonn'; did you mean 'xeon'?
--demo -P perff|no profile 'perff'; did you mean 'perf'?
--demo spr -M tma_dram_bnd|no metric or metric group 'tma_dram_bnd' in the profiles for this machine; did you mean 'tma_dram_bound'?
--demo spr -M memory_bandwith_read|did you mean 'memory_bandwidth_read'?
--demo epyc -M TopdownL1|this CPU's perf metrics call that level 'PipelineL1'
--demo -f ucff@socket0:src_loc_cpu=1|no instance of group 'ucff' named socket0 on this machine; did you mean 'ucf'?
--demo -f ucf@socket0:src_loc_cp=1|group ucf has no filter 'src_loc_cp'; did you mean 'src_loc_cpu'?
EOF
# list metrics -P a profile not there: said (with the nearest), and nothing else listed
# (--all listed every metric after the error)
"$PMUTOP" list metrics --all -P tegra41 > list-typo.out 2> typo.err
expect_eq "list metrics --all -P a profile not there: exit" $? 1
expect_grep "list metrics -P a profile not there: the nearest" "no profile 'tegra41'; did you mean 'tegra410'?" typo.err
expect_eq "list metrics --all -P a profile not there: nothing listed" "$(wc -l < list-typo.out)" 0
"$PMUTOP" --demo -M zzzzzzzz -b -n 1 --fake-clock > /dev/null 2> typo.err
if grep -q "did you mean" typo.err; then fail "a name near nothing got a suggestion: $(cat typo.err)"; else ok; fi

# text and CSV print seven significant digits of a value that is not a whole number (no
# "8.679999999 %": a ratio of counts), a count whole; JSON keeps ten
"$PMUTOP" --demo spr -M tma_info_thread_clks,TopdownL1,TopdownL2 -b -n 3 --fake-clock --format csv > digits.csv 2> /dev/null
"$PMUTOP" --demo spr -M tma_info_thread_clks,TopdownL1,TopdownL2 -b -n 3 --fake-clock > digits.txt 2> /dev/null
python3 - digits.csv digits.txt << 'PY' && ok || fail "text or CSV print past seven digits, or a count cut"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
vals = [r["value"] for r in rows if r["value"]]
digits = lambda s: len(re.sub(r"^0+", "", re.sub(r"[-.]|e.*$", "", s)).rstrip("0") or "0")
long = [v for v in vals if "." in v and digits(v) > 7]
assert not long, long[:5]
assert any(re.fullmatch(r"\d{9,}", v) for v in vals), "no count of nine digits or more printed whole"
text = [w for line in open(sys.argv[2]) for w in line.split() if re.fullmatch(r"-?\d+\.\d+", w)]
assert text and not [w for w in text if digits(w) > 7], [w for w in text if digits(w) > 7][:5]
PY

# `ulimit -f` (dash: 512-byte blocks) on -o FILE: EFBIG said, exit 1 (it died of SIGXFSZ,
# status 153, unsaid), and the file ends on a whole interval: every line a whole frame
sh -c 'ulimit -f 1000 && exec "$0" "$@"' "$PMUTOP" --demo -b --format json -d 0.01 --fake-clock -n 100000 -o lim.json 2> lim.err
expect_eq "batch past ulimit -f: exit" $? 1
expect_grep "batch past ulimit -f: said" "pmutop: writing batch output: File too large" lim.err
python3 - lim.json << 'PY' && ok || fail "batch past ulimit -f: the file does not end on a whole interval"
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "" and len(lines) > 2, len(lines)
for line in lines[:-1]:
    json.loads(line)
PY

finish
