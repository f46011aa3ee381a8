#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Conservation laws (tests/laws.txt, evaluated by tests/laws.py) on every demo, on each
# demo's tree under the default model, and on generated trees under the default model:
# root ports sum to their root complex, an RC with no device carries nothing, TopDown's
# levels sum to their parents, one TSC rate, a CPU below its module's power and RAPL
# equal to the power meters, BlueField's misses and evictions below what they come from,
# bytes per packet in a physical range; a Xeon's memory reads and writes, UPI and IO
# traffic agreeing between its PMUs; no channel or link past its peak; a busy data bus
# matching its bandwidth. Models are inputs; these laws are the reference.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is needed to evaluate the laws"
cd "$scratch"
runs=""
# run NAME ARGS...: three intervals of batch JSON (or $intervals), the last one judged
run() {
    r_name=$1; shift
    r_out=$(echo "$r_name" | tr '/' '_').json
    if "$PMUTOP" "$@" -b --format json -n "${intervals:-3}" -d 1 --fake-clock > "$r_out" 2> "$r_out.err"; then
        ok
        runs="$runs $r_name=$r_out"
    else
        fail "$r_name: pmutop $*: $(head -c 300 "$r_out.err")"
    fi
}
for demo in $("$PMUTOP" list machines | awk '{ print $1 }'); do
    run "$demo" --demo="$demo"
    run "$demo/default-model" --sim --sysfs-root "$TOP_SRCDIR/profiles/machines/$demo"
done
# the core pane beside perf's own definitions of the same figures, on the SPR demo
# the Tegra410 demo's Neoverse V2 cores: perf's TopdownL1 beside the hand profile's
run tegra410/topdown-vs-perf --demo=tegra410 -M TopdownL1,topdown.retiring,topdown.backend_bound
# rows of many CPUs: perf's clocks, utilisation and uncore clock on the Xeon demo's sockets
run xeon/rows --demo=xeon -M core.ghz,cpu_operating_frequency,tma_info_system_core_frequency,tma_info_system_cpu_utilization,UNCORE_FREQ,uncore_frequency
run spr/core-vs-perf --demo=spr -M core.ipc,core.ghz,core.busy_ghz,core.busy,core.branch_mpki,core.c1,core.c6,tma_info_thread_ipc,tma_info_system_core_frequency,tma_info_bad_spec_ipmispredict,C1_Core_Residency,C6_Core_Residency
# every metric of perf's catalogue the demos' CPUs have, at the start and (SPR, EPYC) in
# the streaming phase, 25 s in: shares within 0..100, nothing negative, trees that add up
for demo in spr xeon epyc tegra410; do
    every=$("$PMUTOP" list --demo="$demo" metrics -P perf | awk '{ print $1 }' | paste -s -d, -)
    run "$demo/catalogue" --demo="$demo" -M "$every"
    [ "$demo" = tegra410 ] || intervals=25 run "$demo/catalogue-streaming" --demo="$demo" -M "$every"
done
sh "$TOP_SRCDIR/tests/fixtures/gen-tegra410.sh" t410 2 4 3
sh "$TOP_SRCDIR/tests/fixtures/gen-sensors.sh" t410 2 > /dev/null
run generated-tegra410 --sim --sysfs-root t410
sh "$TOP_SRCDIR/tests/fixtures/gen-hns3.sh" hns3 0 2 5 > /dev/null
run generated-hns3 --sim --sysfs-root hns3
sh "$TOP_SRCDIR/tests/fixtures/gen-grace.sh" grace 2 4 "0 4"
run generated-grace --sim --sysfs-root grace
sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" epyc 2 8 "12 11"
run generated-epyc --sim --sysfs-root epyc
EPYC_MODALIAS="cpu:type:x86,ven0002fam001Amod0002:feature:,0000" sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" zen5 2 8 "12 12"
run generated-zen5 --sim --sysfs-root zen5
# a Xeon shaped otherwise (6 channels, 3 UPI links, 5 IIO stacks, 7 LLC slices): each
# PMU's share of its socket's traffic follows the count, so the sums still agree
sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" gxeon 2 8 6 3 5 7 > /dev/null
run generated-xeon --sim --sysfs-root gxeon
for kind in spr icl adl neoverse-v2 skl; do
    sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" $kind "cpu-$kind" 2 4 > /dev/null
    run "generated-$kind" --sim --sysfs-root "cpu-$kind" -P topdown -P host -P core
done
# shellcheck disable=SC2086
python3 "$TOP_SRCDIR/tests/laws.py" "$TOP_SRCDIR/tests/laws.txt" $runs > laws.out 2>&1
status=$?
grep '^FAIL' laws.out >&2
laws_line=$(tail -n 1 laws.out)
laws_passed=${laws_line%% passed*}
laws_failed=$(echo "$laws_line" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
checks=$((checks + ${laws_passed:-0} + ${laws_failed:-1}))
failures=$((failures + ${laws_failed:-1}))
[ $status -eq 0 ] || [ "${laws_failed:-1}" -gt 0 ] || { failures=$((failures + 1)); checks=$((checks + 1)); cat laws.out >&2; }
finish
