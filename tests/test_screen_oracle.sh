#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The numbers a person reads in the monitor, judged by perf's own definitions: a demo's
# perf TopDown groups recorded, the recording replayed in the monitor in tmux, stepped
# back to its second sample with every tree node open, the screen read back (tests/screen_values.py)
# and each value and '^' mark compared by tests/perf_metrics.py (perf 6.12's MetricExpr
# and MetricThreshold, written apart from pmutop) on the same sample's --raw deltas,
# within half the last digit shown. Sapphire Rapids (TMA levels 1-3), a Zen 4 (perf's
# Pipeline levels 1-2, in ASCII and without colour), the Tegra410 demo's Neoverse V2,
# a hybrid Alder Lake tree (each kind of core's own thresholds), and Sapphire Rapids
# again at 80x24 in monochrome ASCII.
. "$TOP_SRCDIR/tests/lib.sh"
command -v tmux > /dev/null || skip "tmux is not installed"
command -v python3 > /dev/null || skip "python3 is not installed"
events="${PERF_EVENTS_DIR:-}/arch"
[ -f "$events/x86/sapphirerapids/spr-metrics.json" ] || skip "perf's metric JSON not found in '$events' (build-libperf.sh keeps it)"
[ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ] || skip "perf's catalogue was not built"
cd "$scratch"
sock="pmutop-oracle-$$"
T() { tmux -L "$sock" "$@"; }
cleanup() { T kill-server 2> /dev/null; rm -rf "$scratch"; }
# a server of its own for each screen (a new session must not meet the last one's server
# going away)
trap cleanup EXIT
export HOME="$scratch/home"
mkdir -p "$HOME"

sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" adl adl 1 8 > /dev/null
mkdir -p adl/proc
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 151\nstepping\t: 2\n\n' > adl/proc/cpuinfo

# NAME ARCH PERF_CPU_DIR TREE ENV [COLSxLINES] -- the machine's options (a demo, or a
# tree under --sim); the screen 140x120 unless said (a smaller one: what fits is read)
screen_of() {
    name=$1 dir=$2 cpu=$3 tree=$4 env=$5 size=140x120
    [ "$6" != -- ] && { size=$6; shift; }
    shift 6
    rm -f "$name.db"
    if ! "$PMUTOP" "$@" -b -n 3 --fake-clock -w "$name.db" -o /dev/null 2> "$name.err"; then
        fail "$name: recording: $(head -c 300 "$name.err")"
        return
    fi
    "$PMUTOP" -r "$name.db" -b --raw --format json > "$name.jsonl" 2> "$name.err" || fail "$name: batch replay"
    T kill-server 2> /dev/null
    sock="pmutop-oracle-$$-$name"
    T new-session -d -x "${size%x*}" -y "${size#*x}" "env $env '$PMUTOP' -r '$scratch/$name.db'; sleep 60"
    # the replay plays its three samples and waits at the end; Left steps back to the
    # second, shown as recorded (no number held over from the frame before), and the
    # header says 2/3 once that frame is drawn; then '*' opens every node
    i=0
    while [ $i -lt 100 ] && ! T capture-pane -p 2> /dev/null | grep -q "3/3 .*END"; do sleep 0.1; i=$((i + 1)); done
    T send-keys Left
    i=0
    while [ $i -lt 100 ] && ! T capture-pane -p 2> /dev/null | grep -q "  2/3  "; do sleep 0.1; i=$((i + 1)); done
    T send-keys '*'
    i=0
    while [ $i -lt 100 ] && ! T capture-pane -p 2> /dev/null | grep -q "every TopDown node open\|every TopDown node closed"; do
        sleep 0.1; i=$((i + 1))
    done
    T capture-pane -p -S 0 -E 120 > "$name.screen"
    if python3 "$TOP_SRCDIR/tests/screen_values.py" "$name.screen" "$name.jsonl" 2 "$name.shown" "$name.map" > "$name.read" 2>&1; then
        ok
    else
        fail "$name: the screen could not be read: $(cat "$name.read")"
        head -n 20 "$name.screen" >&2
        return
    fi
    # half of the last digit shown (0.1 pp), and a hair for the float
    if python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$events/$dir" "$cpu" "$tree" "$name.shown" "$name.map" --pp 0.0501 > "$name.out"; then
        ok
    else
        fail "$name: what the screen shows differs from perf's definitions:"
        head -n 12 "$name.out" >&2
    fi
    echo "$name: $(cat "$name.read"); $(tail -n 2 "$name.out" | tr '\n' ' ')"
}

demos="$TOP_SRCDIR/profiles/machines"
screen_of spr x86 sapphirerapids "$demos/spr" LANG=C.UTF-8 -- --demo=spr -M TopdownL1,TopdownL2,TopdownL3
screen_of epyc x86 amdzen4 "$demos/epyc" "LANG=C NO_COLOR=1" -- --demo=epyc -M PipelineL1,PipelineL2
screen_of tegra410 arm64 arm/neoverse-n2-v2 "$demos/tegra410" LANG=C.UTF-8 -- --demo=tegra410 -M TopdownL1
screen_of adl x86 alderlake adl LANG=C.UTF-8 -- --sim --sysfs-root adl -M TopdownL1,TopdownL2
# over ssh at 80x24 in monochrome ASCII: the columns and rows that fit, as drawn there
screen_of spr80 x86 sapphirerapids "$demos/spr" "LANG=C NO_COLOR=1" 80x24 -- --demo=spr -M TopdownL1,TopdownL2
# the reader read what was there: every node of each tree, every column
n=$(awk '{ print $1 }' spr.read)
[ "${n:-0}" -ge 120 ] && ok || fail "spr: only ${n:-0} values read from the screen"
grep -q "^ *tma_few_uops_instructions" spr.screen && ok || fail "spr: the tree's level 3 is not on the screen"
finish
