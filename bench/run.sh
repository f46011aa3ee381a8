#!/bin/sh
# make bench: wall-clock and instruction figures ("bench: NAME VALUE UNIT").
# usage: run.sh BUILDDIR SRCDIR
set -eu
b=$1
bin="$b/bench/bench_refresh"
"$bin" sim 2000
"$bin" host 200 || echo "bench: host_refresh unavailable (perf_event_open refused)"
if command -v valgrind > /dev/null; then
    ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
           awk '/Collected :/ { print $4 }'; }
    base=$(ir "$bin" sim 0)
    with=$(ir "$bin" sim 100)
    echo "bench: sim_tegra410_refresh_instructions $(( (with - base) / 100 )) instructions"
else
    echo "bench: instructions unavailable (install valgrind)"
fi
# first frame: start to the first interval printed, demo machine, no waiting
start=$(date +%s%N)
"$b/pmutop" --demo -b -n 1 -d 0.01 --fake-clock --format json > /dev/null
end=$(date +%s%N)
echo "bench: demo_first_frame $(( (end - start) / 1000000 )) ms"
