#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The servers people have: Intel Xeon (Sapphire/Emerald Rapids) uncore on the xeon demo
# and on a generated tree pmutop has not seen (three sockets, six channels with a hole in
# the box ids, as the 6.12 drivers print it: one PMU per box id counting on every socket,
# events/ without newlines). Each memory, IO and UPI metric is perf 6.12's MetricExpr
# (spr-metrics.json) evaluated on pmutop's raw deltas by tests/uncore_metrics.py, per
# socket and for the machine; the profile is picked by itself; alias PMU names work.
# AMD EPYC (Zen 4) memory controllers likewise, against amdzen4/recommended.json, on a
# tree whose second socket has one UMC fewer (the kernel's running index shifts).
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
spr="${PERF_EVENTS_DIR:-}/arch/x86/sapphirerapids"
[ -f "$spr/spr-metrics.json" ] || skip "perf's metric JSON not found in '$spr' (build-libperf.sh keeps it)"
cd "$scratch"
metrics="memory_bandwidth_read memory_bandwidth_write memory_bandwidth_total iio_bandwidth_read iio_bandwidth_write
         upi_data_transmit_bw upi_data_receive_bw io_bandwidth_read io_bandwidth_write
         llc_miss_local_memory_bandwidth_read llc_miss_remote_memory_bandwidth_read
         llc_demand_data_read_miss_latency uncore_frequency io_bandwidth_read_local io_bandwidth_read_remote
         io_bandwidth_write_local io_bandwidth_write_remote llc_miss_local_memory_bandwidth_write
         llc_miss_remote_memory_bandwidth_write numa_reads_addressed_to_local_dram numa_reads_addressed_to_remote_dram
         memory_extra_write_bw_due_to_directory_updates"
# what perf counts but defines no metric of, in perf's own event names: the IIO stacks'
# free-running bytes (32 a count, the JSON says) and the PCU's limit cycles and C-state
# occupancy (cores added every PCU cycle), per socket and for the machine
parts() { k=0 out=""; while [ $k -lt 8 ]; do out="$out${out:++}UNC_IIO_BANDWIDTH_$1.PART${k}_FREERUN"; k=$((k + 1)); done; echo "$out"; }
own="iio_inbound_bandwidth~($(parts IN))*32/1e6/duration_time
     iio_outbound_bandwidth~($(parts OUT))*32/1e6/duration_time
     pcu_freq_thermal_limited~100*UNC_P_FREQ_MAX_LIMIT_THERMAL_CYCLES/UNC_P_CLOCKTICKS
     pcu_freq_power_limited~100*UNC_P_FREQ_MAX_POWER_CYCLES/UNC_P_CLOCKTICKS
     pcu_prochot_external~100*UNC_P_PROCHOT_EXTERNAL_CYCLES/UNC_P_CLOCKTICKS
     pcu_freq_transitions~100*UNC_P_FREQ_TRANS_CYCLES/UNC_P_CLOCKTICKS
     pcu_cores_c0~UNC_P_POWER_STATE_OCCUPANCY_CORES_C0/(UNC_P_CLOCKTICKS/#num_packages)
     pcu_cores_c6~UNC_P_POWER_STATE_OCCUPANCY_CORES_C6/(UNC_P_CLOCKTICKS/#num_packages)"

# the demo, with its own model
"$PMUTOP" --demo xeon -b --format json --raw -n 3 --fake-clock > demo.json 2> demo.err || fail "demo xeon: $(cat demo.err)"
# shellcheck disable=SC2086
python3 "$TOP_SRCDIR/tests/uncore_metrics.py" "$spr" "$TOP_SRCDIR/profiles/machines/xeon" demo.json $metrics $own > demo.out &&
    ok || { fail "xeon demo differs from perf's MetricExpr:"; head -n 12 demo.out >&2; }

# a tree pmutop has not seen, under the default model, with no -p: the profile picks itself
sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" t 3 4 6 3 4 2
mv t/sys/bus/event_source/devices/uncore_imc_5 t/sys/bus/event_source/devices/uncore_imc_9
"$PMUTOP" --sim --sysfs-root t -b --format json --raw -n 3 --fake-clock > t.json 2> t.err || fail "generated xeon: $(cat t.err)"
# shellcheck disable=SC2086
python3 "$TOP_SRCDIR/tests/uncore_metrics.py" "$spr" t t.json $metrics $own > t.out &&
    ok || { fail "generated xeon differs from perf's MetricExpr:"; head -n 12 t.out >&2; }
# 20 perf metrics and 6 of the free-running and PCU ones per socket (3) and for the
# machine; perf's LLC latency and uncore clock and the two core counts for the machine
expect_grep "xeon: every metric per socket and the machine" "^108 values agreed" t.out
# the 32 bytes a count are also what the kernel's own scale says (MiB)
expect_eq "free-running IIO: the driver's scale is 32 bytes" \
    "$(awk '{ printf "%.6f", $1 * 1048576 }' t/sys/bus/event_source/devices/uncore_iio_free_running_0/events/bw_in_port0.scale)" "32.000000"
python3 - t.json <<'PY' && ok || fail "per-socket instances of PMUs that count on every socket (see above)"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
insts = {m["instance"] for m in o["metrics"] if m["metric"] == "memory_bandwidth_read"}
for s in range(3):  # one instance per counting CPU: per socket, named by its box id
    want = {"socket%d/ch%d" % (s, c) for c in (0, 1, 2, 3, 4, 9)}
    assert want <= insts, (s, sorted(insts))
assert {"socket0", "socket1", "socket2", "all"} <= insts, sorted(insts)
assert not any("ch5" in i for i in insts), "a box id the tree does not have"
assert not any("free_running" in m["instance"] for m in o["metrics"]), "free-running PMUs are not CAS counters"
# the CHAs' and M2Ms' directory writes, summed where both groups have an instance of that
# name: per socket and for the machine, not per LLC slice (no M2M is named like one)
extra = {m["instance"] for m in o["metrics"] if m["metric"] == "memory_extra_write_bw_due_to_directory_updates"}
assert extra == {"socket0", "socket1", "socket2", "all"}, sorted(extra)
PY
# a Xeon without M2M PMUs (Granite Rapids has none): no directory-write metric, no
# complaint about a missing PMU, everything else as before
cp -r t no-m2m && rm -r no-m2m/sys/bus/event_source/devices/uncore_m2m_*
"$PMUTOP" --sim --sysfs-root no-m2m -b --format json -n 2 --fake-clock > no-m2m.json 2> no-m2m.err || fail "no m2m: $(cat no-m2m.err)"
grep -q "memory_extra_write_bw" no-m2m.json && fail "no m2m: the directory-write metric has a value without M2Ms" || ok
"$PMUTOP" --sim --sysfs-root no-m2m -b -n 1 --fake-clock > no-m2m.txt 2>> no-m2m.err
grep -q "m2m" no-m2m.err no-m2m.txt && fail "no m2m: said $(grep -h m2m no-m2m.err no-m2m.txt)" || ok
grep -q '"memory_bandwidth_read"' no-m2m.json && ok || fail "no m2m: memory bandwidth went with it"
# alias names (uncore_type_6_0 for uncore_imc_0) are PMU names, as perf takes them
expect_eq "an alias is a PMU name" "$("$PMUTOP" encode --sysfs-root t 'uncore_type_6_0/event=5,umask=0xcf/' | cut -f2-)" \
    "$("$PMUTOP" encode --sysfs-root t 'uncore_imc_0/event=5,umask=0xcf/' | cut -f2-)"
# list pmus says which uncore PMUs no profile counts (something to write a profile for)
"$PMUTOP" list --sysfs-root t pmus > pmus.txt
# (SPR's free-running IMC counters have no bandwidth, so nothing counts them)
expect_grep "the free-running IMCs found, no profile" "^uncore_imc_free_running_0 .*(no profile)$" pmus.txt
grep -q "^uncore_pcu .*(no profile)" pmus.txt && fail "uncore_pcu is counted by the xeon profile" || ok
grep -q "^uncore_imc_0 .*(no profile)" pmus.txt && fail "uncore_imc_0 is counted by the xeon profile" || ok
# Ice Lake-SP (the CPU modalias says family 6, model 0x6A): its IMCs count CAS with event 4
# (the kernel's cas_count_read says so too), its CHAs' clock ticks are event 0 and perf
# sums IO writes from ITOM hits and misses; perf's icelakex MetricExpr is the oracle (its
# IO read bandwidth is tma_info_system_io_read_bw, in GB/s). Sapphire Rapids' IIO
# encodings are not counted there, rather than counted wrong.
icx="${PERF_EVENTS_DIR:-}/arch/x86/icelakex"
if [ -f "$icx/icx-metrics.json" ]; then
    XEON_MODEL=icx sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" icx 2 4 6 3 4 2 > /dev/null
    "$PMUTOP" --sim --sysfs-root icx -b --format json --raw -n 3 --fake-clock > icx.json 2> icx.err || fail "icx: $(cat icx.err)"
    python3 "$TOP_SRCDIR/tests/uncore_metrics.py" "$icx" icx icx.json memory_bandwidth_read memory_bandwidth_write \
        memory_bandwidth_total upi_data_transmit_bw upi_data_receive_bw io_bandwidth_write \
        io_bandwidth_read=tma_info_system_io_read_bw*1000 io_bandwidth_read_local io_bandwidth_read_remote \
        io_bandwidth_write_local io_bandwidth_write_remote llc_miss_local_memory_bandwidth_read \
        llc_miss_remote_memory_bandwidth_read llc_miss_local_memory_bandwidth_write \
        llc_miss_remote_memory_bandwidth_write numa_reads_addressed_to_local_dram numa_reads_addressed_to_remote_dram \
        llc_demand_data_read_miss_latency uncore_frequency memory_extra_write_bw_due_to_directory_updates \
        "iio_inbound_bandwidth~($(parts IN))*32/1e6/duration_time" \
        pcu_freq_thermal_limited~100*UNC_P_FREQ_MAX_LIMIT_THERMAL_CYCLES/UNC_P_CLOCKTICKS \
        pcu_freq_power_limited~100*UNC_P_FREQ_MAX_POWER_CYCLES/UNC_P_CLOCKTICKS \
        pcu_prochot_external~100*UNC_P_PROCHOT_EXTERNAL_CYCLES/UNC_P_CLOCKTICKS \
        pcu_freq_transitions~100*UNC_P_FREQ_TRANS_CYCLES/UNC_P_CLOCKTICKS \
        "pcu_cores_c0~UNC_P_POWER_STATE_OCCUPANCY.CORES_C0/(UNC_P_CLOCKTICKS/#num_packages)" \
        "pcu_cores_c6~UNC_P_POWER_STATE_OCCUPANCY.CORES_C6/(UNC_P_CLOCKTICKS/#num_packages)" > icx.out &&
        ok || { fail "icx differs from perf's MetricExpr:"; head -n 12 icx.out >&2; }
    # 5 IMC/UPI + 12 CHA metrics, the CHA+M2M directory writes, the free-running inbound
    # bytes and four PCU shares per socket and the machine (3 values each), and the
    # latency, uncore clock and the two C-state counts for the machine only (perf's
    # source_count and #num_packages are machine-wide)
    expect_grep "icx: memory, links, IO, LLC and PCU per socket and the machine" "^73 values agreed" icx.out
    "$PMUTOP" --sim --sysfs-root icx --dry-run > icx.tsv
    cut -f2 icx.tsv | sort -u | tr '\n' ' ' > icx.groups
    # the PCU by icelakex's encodings (clock event 0, C-states one event by umask)
    expect_eq "icx: IMC, CHA, M2M and PCU by Ice Lake's codes, UPI, inbound IIO; no SPR IIO encodings" \
        "$(cat icx.groups)" "cha_icx iio_free_icx imc_icx m2m_icx pcu_icx upi "
    # inbound only (Ice Lake's JSON has no outbound free-running counter)
    python3 - icx.json <<'PY' && ok || fail "icx: free-running IIO stacks (see above)"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
insts = {m["instance"] for m in o["metrics"] if m["metric"] == "iio_inbound_bandwidth"}
assert "socket1/iio2" in insts and "iio_outbound_bandwidth" not in {m["metric"] for m in o["metrics"]}, sorted(insts)
PY
    # a driver attribute that is not SEGMENT:BUS is said (briefly) and counting goes on
    cp -r icx icx-bad
    printf 'zz:qq\n' > icx-bad/sys/bus/event_source/devices/uncore_iio_2/die0
    "$PMUTOP" --sim --sysfs-root icx-bad -b --format json -n 1 --fake-clock > icx-bad.json 2> icx-bad.err &&
        ok || fail "icx: a bad dieN file stopped pmutop: $(cat icx-bad.err)"
    expect_grep "icx: a bad dieN names the instance and what it read" \
        "instance socket0/iio2: pci_bus {@uncore_iio_{stack}/die{socket}} reads 'zz:qq', not SEGMENT:BUS" icx-bad.err
    grep -q '"socket0/iio2"' icx-bad.json && ok || fail "icx: the stack with a bad dieN is not counted"
else
    skip_check "perf's icelakex JSON not found in '$icx': the Ice Lake-SP oracle is not run"
fi

# AMD EPYC: amd_umc_<i> numbered over the sockets, one CPU of its socket each; the
# kernel names no events (perf's JSON encodings); the profile picks itself
zen4="${PERF_EVENTS_DIR:-}/arch/x86/amdzen4"
if [ -f "$zen4/recommended.json" ]; then
    sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" amd 2 8 "12 11"
    "$PMUTOP" --sim --sysfs-root amd -b --format json --raw -n 3 --fake-clock > amd.json 2> amd.err || fail "epyc: $(cat amd.err)"
    python3 "$TOP_SRCDIR/tests/uncore_metrics.py" "$zen4" amd amd.json umc_mem_read_bandwidth umc_mem_write_bandwidth \
        umc_mem_bandwidth umc_data_bus_utilization umc_cas_cmd_read_ratio \
        dram_read_data_for_local_processor dram_write_data_for_local_processor \
        dram_read_data_for_remote_processor dram_write_data_for_remote_processor \
        local_socket_upstream_dma_read_data local_socket_upstream_dma_write_data \
        remote_socket_upstream_dma_read_data remote_socket_upstream_dma_write_data \
        local_socket_outbound_data_from_all_links l3_cache_accesses l3_misses l3_read_miss_latency > amd.out &&
        ok || { fail "epyc differs from perf's MetricExpr:"; head -n 12 amd.out >&2; }
    # five UMC, nine data fabric and three L3 metrics, two sockets and the machine
    expect_grep "epyc: seventeen metrics, two sockets and the machine" "^51 values agreed" amd.out
    # a Zen 3 (family 25, model 0x01) or a Zen 5 (family 26): the data fabric's events
    # differ there, so its group does not bind (nor Zen 4's L3 on a Zen 3); the UMCs still
    # count, and a Zen 5's L3 by perf's amdzen5 definitions (latency in ns)
    for alias in ven0002fam0019mod0001 ven0002fam001Amod0002; do
        EPYC_MODALIAS="cpu:type:x86,$alias:feature:,0000" sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" amd-$alias 2 8 "12 12"
        "$PMUTOP" --sim --sysfs-root amd-$alias -b --format json --raw -n 3 --fake-clock > other-$alias.json 2> other.err
        python3 -c "
import json, sys
o = json.loads(open('other-$alias.json').read().splitlines()[-1])
names = {m['metric'] for m in o['metrics']}
zen5 = '$alias'.endswith('1Amod0002')
assert 'umc_mem_bandwidth' in names and 'dram_read_data_for_local_processor' not in names, sorted(names)
assert ('l3_misses' in names) == zen5 and ('l3_read_miss_latency' in names) == zen5, sorted(names)
" && ok || fail "epyc $alias: Zen 4's data fabric and L3 events bound where they mean something else"
        grep -q "no PMU matches" other.err && fail "epyc $alias: a generation's variant said a PMU is missing" || ok
    done
    zen5="${PERF_EVENTS_DIR:-}/arch/x86/amdzen5"
    python3 "$TOP_SRCDIR/tests/uncore_metrics.py" "$zen5" amd-ven0002fam001Amod0002 other-ven0002fam001Amod0002.json \
        l3_cache_accesses l3_misses l3_read_miss_latency l3_read_miss_latency_for_local_dram \
        l3_read_miss_latency_for_remote_dram umc_mem_read_bandwidth umc_mem_bandwidth > zen5.out &&
        ok || { fail "zen 5 differs from perf's MetricExpr:"; head -n 12 zen5.out >&2; }
    # perf's one l3_read_miss_latency: core clocks on Zen 4 (checked above), ns on Zen 5
    expect_grep "zen 5: seven metrics, two sockets and the machine" "^21 values agreed" zen5.out
    # ... and so are its exported series and recording rules: seconds on Zen 5, a bare
    # number (core clocks) on Zen 4
    "$PMUTOP" rules --sim --sysfs-root amd-ven0002fam001Amod0002 > zen5-rules.yml 2> rules.err || fail "rules: $(cat rules.err)"
    "$PMUTOP" rules --sim --sysfs-root amd > zen4-rules.yml 2> rules.err || fail "rules: $(cat rules.err)"
    expect_grep "zen 5: the latency's rule is in seconds" "record: pmutop:l3_read_miss_latency_seconds:" zen5-rules.yml
    expect_grep "zen 4: the latency's rule is in core clocks" "record: pmutop:l3_read_miss_latency:" zen4-rules.yml
    "$PMUTOP" list metrics --all > metrics.txt 2>&1
    expect_grep "list metrics --all names both units" "^l3_read_miss_latency  *cycles|ns " metrics.txt
    # without --all, the metrics this machine has: a Zen 4 tree's, not Tegra410's
    "$PMUTOP" list metrics --sysfs-root amd > here.txt 2>&1
    expect_grep "list metrics: this machine's" "^umc_mem_read_bandwidth " here.txt
    grep -q "^ucf\.\|tegra410" here.txt && fail "list metrics on a Zen 4 tree lists Tegra410's" || ok
    # (marked "not on this machine": only this CPU model's file of perf's catalogue, listed
    # whole as perf list lists it, here without its core PMU)
    grep "not on this machine" here.txt | grep -qv " perf-amdzen4 " &&
        fail "list metrics without --all lists other profiles' metrics" || ok
    if command -v promtool > /dev/null; then
        promtool check rules --lint-fatal zen5-rules.yml > lint.out 2>&1 && ok || fail "promtool: $(cat lint.out)"
    fi
    # Zen 5's data fabric: perf 6.12 ships no events for it, so the oracle is SERVERS.md
    # §4.3-4.4 (AMD's Zen 5 guide): each metric's beats, encoded with the document's DF
    # config formula, summed from --raw per socket and for the machine, x 6.4e-5 MB/s
    python3 - amd-ven0002fam001Amod0002 other-ven0002fam001Amod0002.json <<'PY' && ok || fail "zen 5 fabric differs from SERVERS.md's formulae (see above)"
import glob, json, sys
root, raw = sys.argv[1], sys.argv[2]
def df(e, u):
    return (e & 0xff) | ((e >> 8) & 0x3f) << 32 | (u & 0xff) << 8 | ((u >> 8) & 0xf) << 24
cs, io, link = [0x1f + 0x40 * k for k in range(12)], [0x81f + 0x40 * k for k in range(8)], [0xd5f + 0x40 * k for k in range(6)]
metrics = {
    "dram_read_bandwidth_for_local_or_remote_socket": [df(e, 0xffe) for e in cs],
    "dram_write_bandwidth_for_local_socket": [df(e, 0x7ff) for e in cs],
    "dram_write_bandwidth_for_remote_socket": [df(e, 0xbff) for e in cs],
    "dram_write_bandwidth_for_local_or_remote_socket": [df(e, 0xfff) for e in cs],
    "upstream_dma_read_bandwidth_for_local_socket": [df(e, 0x7fe) for e in io],
    "upstream_dma_write_bandwidth_for_local_socket": [df(e, 0x7ff) for e in io],
    "upstream_dma_read_bandwidth_for_remote_socket": [df(e, 0xbfe) for e in io],
    "upstream_dma_write_bandwidth_for_remote_socket": [df(e, 0xbff) for e in io],
    "cross_socket_inbound_data_bandwidth_for_local_socket": [df(e, 0xf3f) for e in link],
    "cross_socket_outbound_data_bandwidth_for_local_socket": [df(e, 0xf3e) for e in link],
}
sock = {int(p.split("/")[-3][3:]): int(open(p).read()) for p in glob.glob(root + "/sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id")}
frame = json.loads(open(raw).read().splitlines()[-1])
secs = frame["interval_ns"] / 1e9
shown = {(m["metric"], m["instance"]): m["value"] for m in frame["metrics"]}
df_counters = [c for c in frame["counters"] if c["pmu"] == "amd_df"]
n = 0
for name, configs in metrics.items():
    for inst in ("socket0", "socket1", "all"):
        cs_ = [c for c in df_counters if inst == "all" or "socket%d" % sock[c["cpu"]] == inst]
        want = sum(c["delta"] for c in cs_ if int(c["config"], 16) in configs) * 6.4e-5 / secs
        got = shown.get((name, inst))
        assert got is not None and abs(got - want) <= 1e-6 * max(want, 1e-9), (name, inst, got, want)
        n += 1
assert n == 30
PY
    python3 - amd.json <<'PY' && ok || fail "epyc: UMC instances are named by their socket and the kernel's index (see above)"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
insts = {m["instance"] for m in o["metrics"] if m["metric"] == "umc_mem_read_bandwidth"}
want = {"socket0/umc%d" % i for i in range(12)} | {"socket1/umc%d" % i for i in range(12, 23)} | {"socket0", "socket1", "all"}
assert insts == want, sorted(insts ^ want)
assert {m["profile"] for m in o["metrics"]} == {"epyc"}
PY
    "$PMUTOP" list --sysfs-root amd pmus > amdpmus.txt
    grep -q "^amd_df .*(no profile)" amdpmus.txt && fail "amd_df is counted by the epyc profile" || ok
else
    skip_check "perf's amdzen4 JSON not found in '$zen4': the EPYC oracle is not run"
fi
# a generic event the kernel maps to nothing on a PMU (Zen has no generic LLC event: the
# EPYC demo's model refuses it with ENOENT as the kernel does) is not on this machine, as
# perf's <not supported>, not a failure; the core pane's other figures count
"$PMUTOP" --demo epyc -b -n 1 --fake-clock -A > zen-llc.txt 2> zen-llc.err
expect_eq "Zen without a generic LLC event: exit status" $? 0
expect_grep "Zen without a generic LLC event: not on this machine, and why, once" \
    "n/a llc cpu0 and [0-9]* more: cpu: LLC-load-misses is not supported by this PMU (ENOENT)" zen-llc.txt
expect_eq "Zen without a generic LLC event: one line says it, not one a CPU" "$(grep -c "n/a llc" zen-llc.txt)" 1
grep -q "^  ! llc" zen-llc.txt && fail "Zen without a generic LLC event: shown as a failure" || ok
# a row the machine cannot count is left out (pmutop(1)), not printed n/a on every CPU
grep -q "core.llc_mpki" zen-llc.txt && fail "Zen without a generic LLC event: LLC MPKI rows printed: $(grep -c ' n/a' zen-llc.txt) n/a" || ok
expect_grep "Zen without a generic LLC event: L1D misses still counted" "core.l1d_mpki  *cpu0  *[0-9]" zen-llc.txt
# an Arm machine (the Tegra410 demo) has no x86 core PMU: the core pane's groups are not
# missing PMUs there (the pane says why it is empty), nothing is reported missing
"$PMUTOP" --demo -b -n 1 --fake-clock > t410.txt 2>&1
grep -q "no PMU matches" t410.txt && fail "the Tegra410 demo reports a missing PMU: $(grep 'no PMU matches' t410.txt | head -n 2)" || ok
finish
finish
