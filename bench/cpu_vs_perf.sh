#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# CPU per refresh of pmutop (host profile, batch) against `perf stat -I` counting the same
# events system-wide over the same seconds: both started together, each one's CPU time
# (schedstat of every thread, nanoseconds) taken after a warm-up and again SECONDS later;
# five runs, the median ratio and its spread. pmutop writes FORMAT (default csv, as perf's
# -x, does; text adds the CPU-utilisation meter, a /proc/stat read per refresh).
# usage: cpu_vs_perf.sh PMUTOP INTERVAL_MS TAG [SECONDS [FORMAT]]
set -eu
pmutop=$1 ms=$2 tag=$3 secs=${4:-10} format=${5:-csv}
command -v perf > /dev/null || { echo "bench: host_cpu_vs_perf_stat_$tag unavailable (no perf)"; exit 0; }
cpu_ns() { cat /proc/$1/task/*/schedstat 2> /dev/null | awk '{ s += $1 } END { print s + 0 }'; }
d=$(awk -v ms="$ms" 'BEGIN { printf "%g", ms / 1000 }')
ratios=""
for run in 1 2 3 4 5; do
    "$pmutop" -P host -b -d "$d" --format "$format" > /dev/null 2>&1 &
    p=$!
    # no command: it counts until SIGINT, and leaves no child behind when it ends
    perf stat -a -I "$ms" -x, -o /dev/null -e '{context-switches,cpu-migrations,page-faults}' -e msr/tsc/ \
        > /dev/null 2>&1 &
    q=$!
    sleep 2 # warm-up: both have opened their counters and printed a few intervals
    p0=$(cpu_ns $p) q0=$(cpu_ns $q)
    sleep "$secs"
    p1=$(cpu_ns $p) q1=$(cpu_ns $q)
    kill $p 2> /dev/null
    kill -INT $q 2> /dev/null
    wait $p $q 2> /dev/null || true
    ratios="$ratios $(awk -v a=$((p1 - p0)) -v b=$((q1 - q0)) 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
    if [ "$run" = 1 ]; then
        echo "bench: host_cpu_per_refresh_$tag $(( (p1 - p0) / 1000 / (secs * 1000 / ms) )) us"
        echo "bench: perf_stat_cpu_per_interval_$tag $(( (q1 - q0) / 1000 / (secs * 1000 / ms) )) us"
    fi
done
set -- $(printf '%s\n' $ratios | sort -n)
echo "bench: host_cpu_vs_perf_stat_$tag $3 ratio (runs: $*)"

# whole process, start and exit included: each run alone for SECONDS intervals, its CPU
# time from the kernel (perf stat's task-clock of the command); pmutop's share of one CPU
# and its ratio to perf stat's, the median of three pairs (one pair swung 0.18-0.31 here)
task_ms() { perf stat -x, -e task-clock -o "$tmp" -- "$@" > /dev/null 2>&1; awk -F, '/task-clock/ { print $1 }' "$tmp"; }
tmp=$(mktemp)
n=$(( secs * 1000 / ms ))
pairs=""
for run in 1 2 3; do
    ours=$(task_ms "$pmutop" -P host -b -d "$d" --format "$format" -n "$n")
    theirs=$(task_ms perf stat -a -I "$ms" -x, -o /dev/null -e '{context-switches,cpu-migrations,page-faults}' -e msr/tsc/ \
        sleep "$(awk -v n="$n" -v d="$d" 'BEGIN { print n * d }')")
    [ -n "$ours" ] && [ -n "$theirs" ] && pairs="$pairs $(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.3f:%s:%s", a / b, a, b }')"
done
rm -f "$tmp"
if [ -n "$pairs" ]; then
    set -- $(printf '%s\n' $pairs | sort -n)
    mid=$(eval echo "\${$(( ($# + 1) / 2 ))}")
    ratio=${mid%%:*} rest=${mid#*:}
    ours=${rest%%:*} theirs=${rest#*:}
    echo "bench: host_whole_process_cpu_$tag $(awk -v c="$ours" -v n="$n" -v d="$d" 'BEGIN { printf "%.3f", c / (n * d * 1000) * 100 }') % of a CPU ($ours ms over $n intervals)"
    echo "bench: host_whole_process_vs_perf_stat_$tag $(awk -v r="$ratio" 'BEGIN { printf "%.2f", r }') ratio ($ours ms against $theirs ms; runs: $(printf '%s\n' "$@" | cut -d: -f1 | tr '\n' ' '))"
fi
