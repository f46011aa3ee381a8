#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The host profile's numbers against `perf stat` on the same events over the same seconds:
# context switches/s within 10 %, TSC GHz within 1 %. A steady load (perf bench's pipe
# ping-pong) keeps the context-switch rate well above the idle noise.
. "$TOP_SRCDIR/tests/lib.sh"
command -v perf > /dev/null || skip "perf is not installed"
perf stat -a -e context-switches true > /dev/null 2>&1 || skip "perf stat cannot count system-wide here"
cd "$scratch"

# perf bench forks its ping-pong partner: run it as a process group of its own (setsid
# makes it the leader, $! its PID) and end the whole group, not just the parent. Both ends
# on one CPU make a steady rate (±1 %); spread over CPUs it swings by a third.
pin=
if command -v taskset > /dev/null; then
    first=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')
    [ -n "$first" ] && pin="taskset -c $first"
fi
setsid $pin perf bench sched pipe -l 100000000 > /dev/null 2>&1 &
load=$!
trap 'kill -- -$load 2>/dev/null; rm -rf "$scratch"' EXIT
# perf stat counts over exactly pmutop's run (its start adds a few ms to perf's window)
perf stat -a -x, -e context-switches -e msr/tsc/ -o perf.csv \
    "$PMUTOP" -b -P host -d 1 -n 4 --format csv > pmutop.csv 2> pmutop.err
kill -- -$load 2> /dev/null
wait $load 2> /dev/null

# perf: totals over pmutop's run on every CPU, each with its counting time summed over the CPUs
# (field 4, ns): rates over the counters' own time, as pmutop's are, so the seconds perf
# spends starting and reaping its command under load do not count. pmutop: per-second
# rates over 4 intervals.
ncpu=$(nproc)
perf_rate() { # EVENT -> count per second of one CPU's counting time
    awk -F, -v ev="$1" -v n="$ncpu" '$3 == ev && $1 ~ /^[0-9]/ && $4 > 0 { print $1 / ($4 / n / 1e9) }' perf.csv
}
perf_cs=$(perf_rate context-switches)
perf_tsc=$(perf_rate msr/tsc/)
ours_cs=$(awk -F, '$4 == "host.context_switches" && $8 == "ok" { s += $6; n++ } END { if (n) print s / n }' pmutop.csv)
ours_tsc=$(awk -F, '$4 == "host.tsc_ghz" && $5 == "all" && $8 == "ok" { s += $6; n++ } END { if (n) print s / n }' pmutop.csv)
echo "context switches/s: pmutop $ours_cs, perf $perf_cs"
echo "TSC GHz: pmutop $ours_tsc, perf $(awk -v r="${perf_tsc:-0}" -v n="$ncpu" 'BEGIN { print r / n / 1e9 }')"
[ -n "$ours_cs" ] || fail "pmutop printed no context switch rate: $(cat pmutop.err)"
[ -n "$perf_cs" ] || fail "perf stat printed no context switch count: $(cat perf.csv)"
awk -v a="$ours_cs" -v r="$perf_cs" 'BEGIN { exit !(a > 0 && (a - r) / r < 0.10 && (r - a) / r < 0.10) }' \
    && ok || fail "context switches/s differ by more than 10 %"
if [ -n "$perf_tsc" ] && [ -n "$ours_tsc" ]; then
    awk -v a="$ours_tsc" -v p="$perf_tsc" -v n="$ncpu" \
        'BEGIN { r = p / n / 1e9; exit !((a - r) / r < 0.01 && (r - a) / r < 0.01) }' \
        && ok || fail "TSC GHz differs by more than 1 %"
fi
finish
