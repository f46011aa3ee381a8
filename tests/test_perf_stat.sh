#!/bin/sh
# The host profile's numbers against `perf stat` on the same events over the same seconds:
# context switches/s within 10 %, TSC GHz within 1 %. A steady load (perf bench's pipe
# ping-pong) keeps the context-switch rate well above the idle noise.
. "$TOP_SRCDIR/tests/lib.sh"
command -v perf > /dev/null || skip "perf is not installed"
perf stat -a -e context-switches true > /dev/null 2>&1 || skip "perf stat cannot count system-wide here"
cd "$scratch"

# perf bench forks its ping-pong partner: run it as a process group of its own (setsid
# makes it the leader, $! its PID) and end the whole group, not just the parent
setsid perf bench sched pipe -l 100000000 > /dev/null 2>&1 &
load=$!
trap 'kill -- -$load 2>/dev/null; rm -rf "$scratch"' EXIT
perf stat -a -x, -e context-switches -e msr/tsc/ -o perf.csv sleep 4.2 &
stat=$!
"$PMUTOP" -b -p host -d 1 -n 4 --format csv > pmutop.csv 2> pmutop.err
wait $stat
kill -- -$load 2> /dev/null
wait $load 2> /dev/null

# perf: totals over ~4.2 s on every CPU; pmutop: per-second rates over 4 intervals
perf_cs=$(awk -F, '$3 == "context-switches" { print $1 }' perf.csv)
perf_tsc=$(awk -F, '$3 == "msr/tsc/" { print $1 }' perf.csv)
elapsed=$(awk -F, '/seconds time elapsed/ { print $1 }' perf.csv)
[ -n "$elapsed" ] || elapsed=$(grep -o '[0-9.]* seconds time elapsed' perf.csv | cut -d' ' -f1)
[ -n "$elapsed" ] || elapsed=4.2
ncpu=$(nproc)
ours_cs=$(awk -F, '$4 == "host.context_switches" && $8 == "ok" { s += $6; n++ } END { if (n) print s / n }' pmutop.csv)
ours_tsc=$(awk -F, '$4 == "host.tsc_ghz" && $5 == "all" && $8 == "ok" { s += $6; n++ } END { if (n) print s / n }' pmutop.csv)
echo "context switches/s: pmutop $ours_cs, perf $(awk -v a="$perf_cs" -v e="$elapsed" 'BEGIN { print a / e }')"
echo "TSC GHz: pmutop $ours_tsc, perf $(awk -v a="$perf_tsc" -v e="$elapsed" -v n="$ncpu" 'BEGIN { print a / e / n / 1e9 }')"
[ -n "$ours_cs" ] || fail "pmutop printed no context switch rate: $(cat pmutop.err)"
awk -v a="$ours_cs" -v p="$perf_cs" -v e="$elapsed" 'BEGIN { r = p / e; exit !(a > 0 && (a - r) / r < 0.10 && (r - a) / r < 0.10) }' \
    && ok || fail "context switches/s differ by more than 10 %"
if [ -n "$perf_tsc" ] && [ "$perf_tsc" != "<not" ] && [ -n "$ours_tsc" ]; then
    awk -v a="$ours_tsc" -v p="$perf_tsc" -v e="$elapsed" -v n="$ncpu" \
        'BEGIN { r = p / e / n / 1e9; exit !((a - r) / r < 0.01 && (r - a) / r < 0.01) }' \
        && ok || fail "TSC GHz differs by more than 1 %"
fi
finish
