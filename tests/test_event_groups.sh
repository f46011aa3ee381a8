#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# perf's weak groups per metric: the perf groups pmutop opens for perf's catalogue are
# those perf stat -M makes (tests/perf_groups.py, written from perf's metricgroup.c and
# expr.y), on the SPR demo's tree for many -M choices and with the NMI watchdog on; and on
# the live host a catalogue file on the software PMU reaches the kernel as perf groups
# (perf_event_open's group_fd, seen with strace), each read with one read() a CPU.
. "$TOP_SRCDIR/tests/lib.sh"
use_spr_catalogue

# compare SPEC TREE: pmutop's groups on cpu0 against perf's; prints how many agreed
compare() {
    "$PMUTOP" --sysfs-root "$2" --sim --model "$spr/model.ini" --dry-run -M "$1" > "dry-$1.txt" 2> "dry-$1.err" ||
        { fail "--dry-run -M $1: $(head -c 300 "dry-$1.err")"; return; }
    if python3 "$TOP_SRCDIR/tests/perf_groups.py" "$arch" sapphirerapids "$2" "dry-$1.txt" cpu0 core "$1" \
        > "groups-$1.out"; then ok; else fail "-M $1: perf groups differ: $(head -n 4 "groups-$1.out")"; fi
    sed -n 's/^\([0-9]*\) groups agreed.*/\1/p' "groups-$1.out"
}
total=0
for spec in TopdownL3 TopdownL5 Summary Mem OS BvMB PortsUtil tma_info_thread_ipc,tma_frontend_bound; do
    n=$(compare "$spec" "$spr")
    total=$((total + ${n:-0}))
done
[ "$total" -ge 20 ] && ok || fail "perf's groups were not compared: $total agreed"

# the NMI watchdog on: perf's NO_GROUP_EVENTS_NMI metrics (tma_ports_utilized_2, ...)
# group nothing, and pmutop says so once, as perf does
cp -r "$spr" nmi && mkdir -p nmi/proc/sys/kernel && echo 1 > nmi/proc/sys/kernel/nmi_watchdog
n=$(compare TopdownL4 nmi)
[ "${n:-0}" -ge 10 ] && ok || fail "TopdownL4 with the NMI watchdog on: $n groups agreed"
expect_grep "the NMI watchdog said" "NMI watchdog is on" dry-TopdownL4.err

# a group the PMU refuses (the kernel's validate_group: more events than the CPU's eight
# general counters) is counted ungrouped, as perf's weak groups are, and said once
cp -r "$spr" eight
sed -i 's/^\[pmu cpu\]$/[pmu cpu]\ncounters = 8\nfixed = instructions cpu-cycles ref-cycles rc0 r3c r300 slots topdown-retiring topdown-bad-spec topdown-fe-bound topdown-be-bound topdown-heavy-ops topdown-br-mispredict topdown-fetch-lat topdown-mem-bound/' \
    eight/model.ini
"$PMUTOP" --sysfs-root eight --sim --model eight/model.ini -b -n 2 --fake-clock -M TopdownL3 > eight.out 2> eight.err
expect_eq "TopdownL3 on eight counters: exit" $? 0
# which: the groups of the plan (checked against perf's above) with more than eight events
# off the fixed counters (INST_RETIRED.ANY 0xc0, CPU_CLK_UNHALTED.THREAD 0x3c, REF_TSC 0x300)
"$PMUTOP" --sysfs-root eight --sim --model eight/model.ini --dry-run -M TopdownL3 > eight-dry.txt
big=$(awk -F'\t' '$2 == "core" && $1 == "cpu0" {
        if ($NF == "leader") { if (n > 8) big++; n = 0 }
        if ($NF != "single" && $5 != "config=0xc0" && $5 != "config=0x3c" && $5 != "config=0x300") n++ }
    END { if (n > 8) big++; print big + 0 }' eight-dry.txt)
ncpu=$(awk -F'\t' '$2 == "core" { print $1 }' eight-dry.txt | sort -u | wc -l)
[ "$big" -ge 1 ] && ok || fail "the eight-counter model refuses no group: nothing checked"
expect_grep "the refused groups said" "more events than the PMU has counters: $big on cpu ($ncpu instances)" eight.err
grep -q "multiplexed" eight.out && ! grep -q " -  *\((multiplexed)\)\?\$" eight.out && ok ||
    fail "TopdownL3 on eight counters: no value, or none multiplexed: $(head -n 5 eight.out)"

# a hand profile's groups are as it says: the host profile's one perf group a CPU, the
# SPR demo's TopDown slots group
"$PMUTOP" --demo spr --dry-run > demo.txt
expect_eq "the SPR demo's slots group on cpu0: one leader, no event alone" \
    "$(awk -F'\t' '$1 == "cpu0" && $2 == "td" { n[$NF]++ } END { print n["leader"] + 0, n["single"] + 0 }' demo.txt)" "1 0"

# live: the kernel is given those groups (group_fd), read with one read() of each leader
export PMUTOP_CATALOGUE_PATH="$TOP_SRCDIR/tests/fixtures/catalogue-software"
set -- -M busy,faults,migrations_per_switch,minor_per_switch
"$PMUTOP" --dry-run "$@" > live-dry.txt 2> live-dry.err
if ! grep -q "	sw	" live-dry.txt; then
    # the fixture names any x86 model (when = cpuid *): an arm64 host's model is its MIDR
    skip_check "the software catalogue is not for this CPU model: the live groups are not checked"
    finish
    exit
fi
expect_eq "the software catalogue's groups on cpu0" \
    "$(awk -F'\t' '$1 == "cpu0" { printf "%s:%s ", $3, $NF }' live-dry.txt)" \
    "page-faults:leader context-switches:member cpu-migrations:member cpu-clock:leader task-clock:member minor-faults:single "
if ! command -v strace > /dev/null || ! strace -o /dev/null true 2> /dev/null; then
    skip_check "strace cannot trace here: the groups the kernel is given are not checked"
elif ! "$PMUTOP" -b -n 1 -d 0.05 "$@" > /dev/null 2> live.err; then
    skip_check "software events cannot be counted system-wide here: $(head -c 200 live.err)"
else
    # (LeakSanitizer cannot run under ptrace: the run above checked for leaks)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -o live.trace -e trace=perf_event_open,read "$PMUTOP" -b -n 3 -d 0.05 "$@" > live.out 2> live.err
    status=$?
    expect_eq "counted live: exit ($(head -c 300 live.err))" $status 0
    python3 - live.trace > live.check << 'PY'
import re, sys
# perf_event_open({..., config=PERF_COUNT_SW_X, ..., read_format=...}, pid, cpu, group_fd, flags) = fd
opens = re.findall(r"perf_event_open\(\{.*?config=PERF_COUNT_SW_(\w+),.*?read_format=([\w|]+).*?\}, -1, (\d+), (-?\d+), \d+\) = (\d+)",
                   open(sys.argv[1]).read())
fd_of = {(cpu, fd): name for name, _, cpu, _, fd in opens}
groups = {}
for name, fmt, cpu, group_fd, fd in opens:
    lead = fd if group_fd == "-1" else group_fd
    if group_fd != "-1" or "PERF_FORMAT_GROUP" in fmt:
        groups.setdefault((cpu, fd_of[(cpu, lead)]), []).append(name)
    elif group_fd == "-1":
        groups[(cpu, name + " alone")] = [name]
for (cpu, leader), names in sorted(groups.items()):
    print(cpu, leader, " ".join(names))
trace = open(sys.argv[1]).read()
leaders = {fd for name, fmt, cpu, g, fd in opens if "PERF_FORMAT_GROUP" in fmt}
members = {fd for name, fmt, cpu, g, fd in opens if g != "-1"}
alone = {fd for name, fmt, cpu, g, fd in opens if g == "-1" and fd not in leaders}
reads = re.findall(r"^\d*\s*read\((\d+),", trace, re.M)
count = lambda fds: sorted({sum(1 for r in reads if r == fd) for fd in fds})  # noqa: E731
print("reads: leaders", count(leaders), "alone", count(alone), "members", count(members))
PY
    for cpu in $(sed -n 's/^\([0-9]*\) .*/\1/p' live.check | sort -u); do
        expect_eq "cpu $cpu: perf groups given to the kernel" "$(grep "^$cpu " live.check | tr '\n' ';')" \
            "$cpu CPU_CLOCK CPU_CLOCK TASK_CLOCK;$cpu PAGE_FAULTS PAGE_FAULTS CONTEXT_SWITCHES CPU_MIGRATIONS;$cpu PAGE_FAULTS_MIN alone PAGE_FAULTS_MIN;"
    done
    ncpu=$(sed -n 's/^\([0-9]*\) .*/\1/p' live.check | sort -u | wc -l)
    [ "$ncpu" -ge 1 ] && ok || fail "no perf_event_open traced: $(head -c 300 live.trace)"
    # a group is read with one read() of its leader a refresh, as an event alone is; each
    # counter of a group is read once more, at its opening (its kernel id, libperf's read)
    reads=$(sed -n 's/^reads: //p' live.check)
    alone=$(echo "$reads" | sed -n 's/.*alone \[\([0-9]*\)\].*/\1/p')
    expect_eq "one read() a group a refresh" "$reads" "leaders [$((${alone:-0} + 1))] alone [${alone:-?}] members [1]"
    expect_grep "migrations_per_switch counted" "migrations_per_switch" live.out
fi
finish
