#!/bin/sh
# perf's catalogue (tools/gen-catalogue.py): profiles generated from perf 6.12's JSON for
# Intel server CPUs, checked against perf's own definitions: every metric a generated
# profile shows, on a generated tree of that CPU under the simulator (whose default rates
# differ per event, so terms do not cancel), evaluated again from the --raw deltas by
# tests/perf_metrics.py (perf's MetricExpr, its events by perf's encodings), never by the
# generator's code. Also: the same input gives the same bytes; a profile binds only the
# CPU models perf's mapfile.csv gives its directory; what it leaves out is said, and its
# share of perf's core metrics does not fall below today's.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
arch="${PERF_EVENTS_DIR:-}/arch/x86"
[ -f "$arch/mapfile.csv" ] || skip "perf's pmu-events JSON not found in '$arch' (build-libperf.sh keeps it)"
cd "$scratch"
gen="$TOP_SRCDIR/tools/gen-catalogue.py"
# cpuinfo DIR FAMILY MODEL STEPPING: the model perf's get_cpuid_str reads
cpuinfo() {
    mkdir -p "$1/proc"
    printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: Intel(R) Xeon(R) CPU\nstepping\t: %d\n\n' \
        "$2" "$3" "$4" > "$1/proc/cpuinfo"
}
# CPU_DIR:TREE_KIND:MODEL:STEPPING:FLOOR (the percentage of perf's core metrics kept today)
for spec in sapphirerapids:spr:143:8:74 emeraldrapids:spr:207:2:74 icelakex:icl:106:6:75 \
            skylakex:skl:85:4:76 cascadelakex:skl:85:7:75; do
    IFS=: read -r cpu kind model step floor <<SPEC
$spec
SPEC
    python3 "$gen" "$arch" out "$cpu" > cover.txt
    python3 "$gen" "$arch" again "$cpu" > /dev/null
    cmp -s "out/$cpu.ini" "again/$cpu.ini" && ok || fail "$cpu: two runs of the generator differ"
    kept=$(sed -n "s/^$cpu: \([0-9]*\) of \([0-9]*\) .*/\1/p" cover.txt)
    total=$(sed -n "s/^$cpu: \([0-9]*\) of \([0-9]*\) .*/\2/p" cover.txt)
    echo "$cpu: $kept of $total perf core metrics (the rest, with reasons, head out/$cpu.ini)"
    [ "${kept:-0}" -gt 0 ] && [ $((kept * 100)) -ge $((total * floor)) ] && ok ||
        fail "$cpu: $kept of $total perf core metrics, below the floor of $floor %"
    left=$(grep -c "^; - " "out/$cpu.ini")
    expect_eq "$cpu: every metric left out is said with its reason" "$left" "$((total - kept))"
    sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" "$kind" "$cpu" 2 4 > /dev/null
    cpuinfo "$cpu" 6 "$model" "$step"
    if "$PMUTOP" --sysfs-root "$cpu" --sim -p "out/$cpu.ini" -b -n 3 --fake-clock --format json --raw > "$cpu.jsonl" 2> "$cpu.err"; then
        ok
    else
        fail "$cpu: pmutop on the generated profile: $(head -c 300 "$cpu.err")"
    fi
    sed -n 's/^\[metric \(.*\)\]$/\1 \1/p' "out/$cpu.ini" > "$cpu.map"
    if python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" "$cpu" "$cpu" "$cpu.jsonl" "$cpu.map" > "$cpu.out"; then
        ok
    else
        fail "$cpu: the generated metrics differ from perf's MetricExpr:"
        head -n 12 "$cpu.out" >&2
    fi
    tail -n 1 "$cpu.out"
done
# a profile binds only the models its directory is for: Skylake-SP is not Cascade Lake
cpuinfo skylakex 6 85 4
"$PMUTOP" --sysfs-root skylakex --sim -p out/cascadelakex.ini -b -n 1 --fake-clock > clx-on-skx.txt 2>&1
expect_grep "Cascade Lake's profile on a Skylake-SP: not for this model" "not for this CPU model\|other CPU models" clx-on-skx.txt
finish
