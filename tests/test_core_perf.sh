#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One definition per metric: the core pane's figures that perf's catalogue defines for
# this CPU (perf = in profiles/core.ini) are perf's, on perf's events, checked by perf's
# own MetricExpr (tests/perf_metrics.py) on the --raw deltas; the generic events they
# replace are not opened; a recording replays them; a CPU whose catalogue lacks one keeps
# the generic formula, and a figure perf alone gives (L2 misses) has no row there.
. "$TOP_SRCDIR/tests/lib.sh"
use_spr_catalogue

# the four alone (-M), so that each CPU's counters are perf's events only: perf's
# MetricExpr on them, per CPU and summed per socket and for all
four=core.ipc,core.l1d_mpki,core.l2_mpki,core.llc_mpki
"$PMUTOP" --demo spr -b -n 3 --fake-clock --format json --raw -M $four > four.jsonl 2> four.err
expect_eq "the SPR demo's core figures in JSON: exit" $? 0
printf 'core.ipc\ttma_info_thread_ipc\ncore.l1d_mpki\ttma_info_memory_l1mpki\ncore.l2_mpki\ttma_info_memory_l2mpki\ncore.llc_mpki\ttma_info_memory_l3mpki\n' > core.map
python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" sapphirerapids "$spr" four.jsonl core.map > core.out && ok ||
    fail "the core pane's figures differ from perf's MetricExpr: $(head -n 3 core.out)"
# every CPU, socket and all, each of the four, each interval after the first
n=$(sed -n 's/^\([0-9]*\) values agreed.*/\1/p' core.out)
[ "${n:-0}" -ge 400 ] && ok || fail "the core pane's figures were not compared: $(cat core.out)"
# ... and in the whole demo, beside the generic events the other figures read
"$PMUTOP" --demo spr -b -n 3 --fake-clock --format json --raw > spr.jsonl 2> spr.err
expect_eq "the SPR demo in JSON: exit" $? 0
python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" sapphirerapids "$spr" spr.jsonl core.map > whole.out && ok ||
    fail "the whole demo's core figures differ from perf's MetricExpr: $(head -n 3 whole.out)"
n=$(sed -n 's/^\([0-9]*\) values agreed.*/\1/p' whole.out)
[ "${n:-0}" -ge 400 ] && ok || fail "the whole demo's core figures were not compared: $(cat whole.out)"
python3 - spr.jsonl > shown.out << 'PY'
import json, sys
names = {m["metric"] for l in open(sys.argv[1]) if l.strip() for m in json.loads(l)["metrics"]}
for want in ("core.ipc", "core.l1d_mpki", "core.l2_mpki", "core.llc_mpki"):
    if want not in names:
        print("no", want)
for hidden in ("tma_info_thread_ipc", "tma_info_memory_l2mpki"):
    if hidden in names:
        print("perf's", hidden, "shown twice: under its own name too")
PY
[ -s shown.out ] && fail "the core pane's figures in batch: $(cat shown.out)" || ok
# the TopDown pane's values on Intel are perf's tma_* too (topdown.ini's perf =), its own
# slots group not opened beside perf's (one PERF_METRICS counter: two groups would count
# in turn)
awk '/^\[metric topdown\./ { m = substr($2, 1, length($2) - 1) } /^perf = tma_/ { print m "\t" $3 }' \
    "$TOP_SRCDIR/profiles/topdown.ini" > td.map
[ "$(wc -l < td.map)" -ge 12 ] && ok || fail "topdown.ini names perf's levels 1 and 2: $(cat td.map)"
python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" sapphirerapids "$spr" spr.jsonl td.map > td.out && ok ||
    fail "the TopDown pane differs from perf's MetricExpr: $(head -n 3 td.out)"
n=$(sed -n 's/^\([0-9]*\) values agreed.*/\1/p' td.out)
[ "${n:-0}" -ge 1000 ] && ok || fail "the TopDown pane's values were not compared: $(cat td.out)"
# the generic cache events the figures took from are not opened where perf's are used
"$PMUTOP" --demo spr --dry-run > spr-dry.txt
grep -q "	L1-dcache-load-misses	\|	LLC-load-misses	" spr-dry.txt &&
    fail "the generic cache events still opened beside perf's: $(grep -m2 'dcache\|LLC' spr-dry.txt)" || ok
expect_grep "perf's L2 miss event opened (MEM_LOAD_RETIRED.L2_MISS)" "cpu/event=0xd1,umask=0x10/" spr-dry.txt
expect_eq "one slots group a CPU: perf's" "$(grep -c '^cpu0	[a-z_]*	cpu/slots/' spr-dry.txt)" 1

# list metrics says which definition each has here
"$PMUTOP" list --demo spr metrics -v > list.txt
expect_grep "list metrics: L2 MPKI, perf's alone, listed where it has a value" "^core.l2_mpki " list.txt
expect_grep "list metrics -v: its definition here" "here: perf's tma_info_memory_l2mpki (perf-sapphirerapids)" list.txt
"$PMUTOP" list --demo epyc metrics > list-epyc.txt
grep -q "^core.l2_mpki " list-epyc.txt && fail "list metrics on Zen 4: an L2 MPKI perf's catalogue has not" || ok

# a recording replays them: the same figures as the run that wrote it
"$PMUTOP" record --demo spr -n 3 --fake-clock -o spr.pmrec > rec.err 2>&1 && ok || fail "record: $(head -c 300 rec.err)"
"$PMUTOP" -r spr.pmrec -b --format csv > replay.csv 2> replay.err && ok || fail "replay: $(head -c 300 replay.err)"
"$PMUTOP" --demo spr -b -n 3 --fake-clock --format csv > live.csv
grep ',core\.' live.csv | cut -d, -f3- > live-core.csv
grep ',core\.' replay.csv | cut -d, -f3- > replay-core.csv
expect_eq "replay: the core figures of the live run" "$(md5sum < replay-core.csv)" "$(md5sum < live-core.csv)"
grep -q ',core\.l2_mpki,' replay.csv && ok || fail "replay: no L2 MPKI"

# the Xeon demo's uncore (xeon.ini's perf =): memory and UPI bandwidth are perf's, on one
# counter per CAS event and box (not the hand group's beside perf's)
"$PMUTOP" --demo xeon -b -n 3 --fake-clock --format json --raw > xeon.jsonl 2> xeon.err
printf 'memory_bandwidth_read\tmemory_bandwidth_read\nmemory_bandwidth_write\tmemory_bandwidth_write\nupi_data_transmit_bw\tupi_data_transmit_bw\n' > xeon.map
python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" sapphirerapids "$TOP_SRCDIR/profiles/machines/xeon" xeon.jsonl xeon.map > xeon.out && ok ||
    fail "the Xeon demo's uncore differs from perf's MetricExpr: $(head -n 3 xeon.out)"
n=$(sed -n 's/^\([0-9]*\) values agreed.*/\1/p' xeon.out)
[ "${n:-0}" -ge 40 ] && ok || fail "the Xeon demo's uncore was not compared: $(cat xeon.out)"
"$PMUTOP" list --demo xeon metrics -v > list-xeon.txt
expect_grep "list metrics -v: the Xeon's memory bandwidth is perf's" "here: perf's memory_bandwidth_read (perf-sapphirerapids)" list-xeon.txt
"$PMUTOP" --demo xeon --dry-run > xeon-dry.txt
expect_eq "one counter per CAS event and box" "$(grep -c 'uncore_imc_0/event=0x5,umask=0xcf/' xeon-dry.txt)" 2

# a profile naming perf's metric in another scale of its unit (GB/s for perf's MB/s) is
# told so, and its own formula is used: a copy would be off a thousandfold
cat > gbs.ini << 'INI'
[profile]
name = gbs
requires = uncore_imc_*
[group imc]
pmu = uncore_imc_{ch}
per = cpu
instance = socket{socket}/ch{ch}
aggregate = socket all
event.cas_rd = event=0x05,umask=0xcf
[metric imc.read_gbs]
unit = GB/s
formula = cas_rd * 64 / 1e9 / elapsed_s
perf = memory_bandwidth_read
INI
"$PMUTOP" --demo xeon -P ./gbs.ini -b -n 2 --fake-clock --format csv > gbs.csv 2> gbs.err
expect_grep "perf's metric in MB/s for a GB/s one: said" "perf's memory_bandwidth_read is in 'MB/s', this metric in 'GB/s': its own formula is used" gbs.err
v=$(grep ',imc.read_gbs,socket0,' gbs.csv | tail -n 1 | cut -d, -f6)
python3 -c "import sys; sys.exit(0 if 1 < float('$v') < 1000 else 1)" && ok || fail "the GB/s metric kept its own formula: $v"

# Zen 4: perf's catalogue has no IPC nor L2 misses per instruction: the generic formula,
# no L2 row
"$PMUTOP" --demo epyc -b -n 2 --fake-clock --format csv > epyc.csv 2> epyc.err
grep -q ',core\.ipc,socket0,[0-9]' epyc.csv && ok || fail "Zen 4: no IPC: $(grep -m2 core.ipc epyc.csv)"
grep -q ',core\.l2_mpki,' epyc.csv && fail "Zen 4: an L2 MPKI row perf's catalogue has no definition for" || ok
"$PMUTOP" --demo epyc --dry-run > epyc-dry.txt
expect_grep "Zen 4: the generic events counted" "	cycles	" epyc-dry.txt

# Arm (the Tegra410 demo's Neoverse V2 cores): the Cores (Arm) pane's figures are perf's
# ipc and *_mpki on perf's events (the pane hidden in the monitor, batch counts its
# profile given with -p), checked by perf's own MetricExpr
arm="${PERF_EVENTS_DIR:-}/arch/arm64"
if [ -f "$TOP_BUILDDIR/catalogue/arm-neoverse-n2-v2.ini" ] && [ -d "$arm/arm/neoverse-n2-v2" ]; then
    "$PMUTOP" --demo -P core -b -n 3 --fake-clock --format json --raw > arm.jsonl 2> arm.err
    expect_eq "the Tegra410 demo's Arm core figures: exit" $? 0
    printf 'core.arm_ipc\tipc\ncore.arm_l1d_mpki\tl1d_cache_mpki\ncore.arm_l2_mpki\tl2_cache_mpki\n' > arm.map
    printf 'core.arm_llc_mpki\tll_cache_read_mpki\ncore.arm_branch_mpki\tbranch_mpki\n' >> arm.map
    python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arm" arm/neoverse-n2-v2 "$DEMO" arm.jsonl arm.map > arm.out && ok ||
        fail "the Arm core figures differ from perf's MetricExpr: $(head -n 3 arm.out)"
    n=$(sed -n 's/^\([0-9]*\) values agreed.*/\1/p' arm.out)
    [ "${n:-0}" -ge 1000 ] && ok || fail "the Arm core figures were not compared: $(cat arm.out)"
    "$PMUTOP" list metrics -v --demo > arm-list.txt
    expect_grep "list metrics -v: Arm's IPC is perf's" "here: perf's ipc (perf-arm-neoverse-n2-v2)" arm-list.txt
    # the TopDown pane's Neoverse figures are perf's retiring, bad_speculation, ... on perf's
    # events and groups: the hand group (arm_v2) opens nothing of its own
    expect_grep "list metrics -v: the Neoverse TopDown is perf's" "here: perf's retiring (perf-arm-neoverse-n2-v2)" arm-list.txt
    expect_grep "list metrics -v: ... frontend bound too" "here: perf's frontend_bound (perf-arm-neoverse-n2-v2)" arm-list.txt
    "$PMUTOP" --demo --dry-run > td-dry.txt
    expect_eq "the TopDown pane's hand group opens no counter" "$(awk -F'\t' '$2 ~ /^arm/ { n++ } END { print n + 0 }' td-dry.txt)" 0
    expect_eq "perf's group for the Neoverse TopDown: its weak group of mispredicts, cycles, ops and stall slots (0x10 0x11 0x3a 0x3b 0x3f), as perf groups bad_speculation" \
        "$(awk -F'\t' '$1 == "cpu0" && ($NF == "leader" || $NF == "member") { print $5 }' td-dry.txt | sort | tr '\n' ' ')" \
        "config=0x10 config=0x11 config=0x3a config=0x3b config=0x3f "
    # a broken catalogue file (PMUTOP_CATALOGUE_PATH) is named at its own line and column,
    # though only the metrics asked of it are read; the pane keeps its own formulae
    mkdir -p badcat
    sed 's/^\(formula@core_other = (100\*((OP_RETIRED\/OP_SPEC)\)/\1))))/' \
        "$TOP_BUILDDIR/catalogue/arm-neoverse-n2-v2.ini" > badcat/arm-neoverse-n2-v2.ini
    line=$(grep -n '^formula@core_other = (100\*((OP_RETIRED/OP_SPEC)))))' badcat/arm-neoverse-n2-v2.ini | cut -d: -f1)
    PMUTOP_CATALOGUE_PATH="$PWD/badcat" "$PMUTOP" --demo -b -n 1 --fake-clock --format csv > badcat.csv 2> badcat.err
    expect_eq "a broken catalogue file: not fatal" $? 0
    expect_grep "a broken catalogue file: its line and column" "badcat/arm-neoverse-n2-v2.ini:${line:-?}:50: unexpected ')'" badcat.err
    grep -q ',topdown\.retiring,socket0,[0-9]' badcat.csv && ok || fail "no TopDown without perf's: $(head -c 300 badcat.err)"
    "$PMUTOP" --demo -P core --dry-run > arm-dry.txt
    expect_eq "perf's events, not the hand group's, counted (the hand group keeps the clock's cycles)" \
        "$(awk -F'\t' '$1 == "cpu0" && $2 == "arm" { print $3 }' arm-dry.txt)" "armv8_pmuv3_0/cpu_cycles/"
else
    skip_check "perf's Arm catalogue is not built: the Arm core figures are not compared"
fi

finish
