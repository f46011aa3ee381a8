#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the libFuzzer targets with clang (ASan+UBSan) and run each for SECONDS (default 15)
# from its seed corpus, or until FUZZ_RUNS executions if that is set (make fuzz-long).
# Usage: tests/fuzz/run.sh [SECONDS]. Needs clang, libclang-rt-14-dev.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-15}
out="$top/build-fuzz"
mkdir -p "$out"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_GNU_SOURCE -I$top/src -I$top"
core="base/util base/timetext base/textbuf base/numtext base/heap base/diag base/sysfs base/cpulist base/expr base/iniread base/regex_memo base/name_index machine/format machine/pmu machine/discover machine/archtimer machine/cpuid machine/bfperf machine/pcimap machine/encode machine/snapshot machine/sensorchips machine/hwsensors profile/profile profile/profile_keys profile/group_keys profile/catalog_subset profile/profile_check profile/profile_sections profile/profile_filter profile/metric_refs profile/metric_threshold machine/facts sim/simmodel sim/sim_points sim/sim_select sim/sim_decode record/codec record/libs"
srcs=""
for f in $core; do srcs="$srcs $top/src/$f.c"; done
inih="$(pkg-config --cflags --libs inih) $(pkg-config --cflags --libs libzstd) -lsensors"
# the targets that bind profiles or serve HTTP need the whole core (engine, sources,
# outputs; everything but the command line), libperf included
all=$(find "$top/src" -name '*.c' ! -path '*/cli/*' | sort | tr '\n' ' ')
perf="-I$top/libperf-local/include $top/libperf-local/lib/libperf.a $top/libperf-local/lib/libapi.a"
full="$perf $(pkg-config --cflags --libs sqlite3 libmicrohttpd) -lpthread"
# every source compiled once, the CPUs at once (each target compiling them all again was
# most of the stage), then each target linked from the objects it needs
objflags=$(echo "$flags" | sed 's/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,/')
cflags_extra="$(pkg-config --cflags inih libzstd sqlite3 libmicrohttpd) -I$top/libperf-local/include"
mkdir -p "$out/obj"
obj() { echo "$out/obj/$(echo "${1#$top/src/}" | tr / _ | sed 's/\.c$/.o/')"; }
for f in $all; do echo "$f $(obj "$f")"; done |
    xargs -P "$(nproc)" -n 2 sh -c 'clang '"$objflags $cflags_extra"' -DPMUTOP_SRCDIR="\"'"$top"'\"" -c "$0" -o "$1"'
small=""
for f in $srcs; do small="$small $(obj "$f")"; done
every=""
for f in $all; do every="$every $(obj "$f")"; done
status=0
for t in ${FUZZ_TARGETS:-profile expr encode model record recording time sysfs http regex}; do
    case $t in
    sysfs|http|recording) src="$every" extra="$full" ;;
    *) src="$small" extra="" ;;
    esac
    # a target is held to the API it calls: a mistyped argument is an error, not a
    # warning the fuzzer then reports as a crash of pmutop
    clang $flags -Werror=incompatible-pointer-types -Werror=int-conversion -DPMUTOP_SRCDIR="\"$top\"" \
        -o "$out/fuzz_$t" "$top/tests/fuzz/fuzz_$t.c" $src $inih $extra -lm
    mkdir -p "$out/corpus-$t"
    cd "$top"
    # -malloc_limit_mb: an input that asks hundreds of MB at once is a finding; the
    # process's RSS is not one at 512 MB: ASan's quarantine of freed memory (256 MB by
    # default) and its allocator's caches grow with a fast target's inputs (fuzz_encode:
    # 576 MB, 24 MB of it live; fuzz_regex in CI's three seconds: 622 MB, 24 MB live, each
    # input of its corpus 32 MB alone), so as the hour runs: 1 GB, the quarantine 16 MB
    if ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16}" "$out/fuzz_$t" -max_total_time="$secs" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -max_len=4096 -rss_limit_mb=1024 -malloc_limit_mb=512 -print_final_stats=0 \
        "$out/corpus-$t" "$top/tests/fuzz/corpus/$t" > "$out/fuzz_$t.log" 2>&1; then
        echo "fuzz_$t: $(grep -o 'Done [0-9]* runs' "$out/fuzz_$t.log" | tail -n 1), no crash"
    else
        echo "fuzz_$t: FAILED (see $out/fuzz_$t.log)"; tail -n 30 "$out/fuzz_$t.log"; status=1
    fi
done
exit $status
