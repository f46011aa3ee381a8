#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# TopDown against perf's own definitions: perf 6.12's MetricExpr (linux-source's
# tools/perf/pmu-events, kept by build-libperf.sh) evaluated by tests/perf_metrics.py on
# pmutop's --raw deltas, events found by the encodings perf's JSON and the tree's sysfs
# give, never by pmutop's names. On the default model and on a stress model that
# separates formulas agreeing by construction (PERF_METRICS bytes summing to 253/255,
# children above their parents, UOP_DROPPING, E-cores whose counts do not fill 5 slots,
# Skylake's recovery cycles against the kernel's alias (Broadwell's are the alias), Arm's mispredicted branches and
# stall slots beyond frontend + backend); Arm per MIDR: Neoverse V2, N2 r0p0 (perf's
# stall-slot correction), N2 r0p3 and N1 (sbsa.json's generic formulae), and there the
# core pane's IPC and misses per kilo-instruction (core.ini's Arm group).
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
arch="${PERF_EVENTS_DIR:-}/arch/x86"
[ -f "$arch/sapphirerapids/spr-metrics.json" ] || skip "perf's metric JSON not found in '$arch' (build-libperf.sh keeps it)"
cd "$scratch"
stress="$TOP_SRCDIR/tests/fixtures/topdown-stress.ini"
map="$TOP_SRCDIR/tests/fixtures/topdown-perf-map.txt"
# KIND:PERF_CPU_DIR[:MIDR] (Arm: the tree's MIDR picks perf's variant of the formulae)
for triple in spr:sapphirerapids icl:icelakex adl:alderlake skl:skylakex bdw:broadwellx neoverse-v2:arm/neoverse-n2-v2 \
              n2-r0p0:arm/neoverse-n2-v2:0x00000000410fd490 n2-r0p3:arm/neoverse-n2-v2:0x00000000410fd493 \
              n1:arm/neoverse-n1:0x00000000413fd0c1; do
    kind=${triple%%:*} rest=${triple#*:}
    cpu=${rest%%:*} midr=${rest#"$cpu"}
    gen=$kind dir=$arch m=$map
    case $kind in
    neoverse-v2|n2-*|n1) gen=neoverse-v2 dir="${PERF_EVENTS_DIR:-}/arch/arm64" m="$TOP_SRCDIR/tests/fixtures/topdown-perf-map-arm.txt" ;;
    esac
    [ "$kind" = bdw ] && gen=skl
    MIDR=${midr#:} sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" "$gen" "$kind" 2 8 > /dev/null
    # Broadwell-EP: the same kernel aliases, its own pmu_name (the generic 'classic' group)
    [ "$kind" = bdw ] && echo broadwell > bdw/sys/bus/event_source/devices/cpu/caps/pmu_name
    for model in default stress; do
        set -- --sim --sysfs-root "$kind" -P topdown -P core -b -n 3 --fake-clock --format json --raw
        [ "$model" = stress ] && set -- "$@" --model "$stress"
        "$PMUTOP" "$@" > "$kind-$model.jsonl" 2> "$kind-$model.err" || fail "$kind $model: $(cat "$kind-$model.err")"
        # Skylake's recovery term is SMT-agnostic by design (RECOVERY_CYCLES_ANY x slots /
        # CPU_CLK_UNHALTED.THREAD_ANY, topdown.ini): perf's, with SMT off, reads the thread's
        # own; equal where the any-thread clock is the thread's, as on hardware without SMT,
        # but the stress model counts the two clocks apart: within 0.01 pp there
        tol=""
        [ "$kind" = skl ] && [ "$model" = stress ] && tol="--pp 0.01"
        # shellcheck disable=SC2086
        if python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$dir" "$cpu" "$kind" "$kind-$model.jsonl" "$m" $tol > "$kind-$model.out"; then
            ok
        else
            fail "$kind $model model differs from perf's $cpu metrics:"
            head -n 12 "$kind-$model.out" >&2
        fi
        tail -n 1 "$kind-$model.out"
    done
done
# the stress model did separate something: a clamp and the 253/255 normalisation showed
grep -q '"metric":"topdown.light_ops","instance":"cpu1","value":0,' spr-stress.jsonl && ok ||
    fail "stress model: light operations of cpu1 should clamp at 0"
grep -q '"metric":"topdown.bad_speculation","instance":"cpu2","value":0,' icl-stress.jsonl && ok ||
    fail "stress model: bad speculation of cpu2 should clamp at 0"
finish
