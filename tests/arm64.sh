#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pmutop built for arm64 (./build.sh arm64: Debian 12's cross toolchain), run under
# qemu-user on this x86_64 machine, against the x86_64 build beside it:
#  - the Check unit tests (perf_event_open is ENOSYS under qemu-user: those skip, saying so);
#  - every demo in batch (text, CSV, JSON with --raw): the same bytes as x86_64's;
#  - a recording written on arm64 replays on x86_64, and the other way round, the same;
#  - the seed machines' demos in the monitor (tmux), as a person sees them.
# Usage: tests/arm64.sh ARM64_BUILD_DIR X86_64_PMUTOP   (TOP_SRCDIR: the sources)
. "$TOP_SRCDIR/tests/lib.sh"
obj=${1:?usage: arm64.sh ARM64_BUILD_DIR X86_64_PMUTOP}
x86=${2:?usage: arm64.sh ARM64_BUILD_DIR X86_64_PMUTOP}
command -v qemu-aarch64 > /dev/null || skip "qemu-aarch64 is not installed (apt-get install qemu-user)"
# plain qemu-aarch64: the arm64 loader from libc6:arm64 (-L /usr/aarch64-linux-gnu pairs
# the cross toolchain's loader with another libc and hangs in the first pthread_create)
arm() { qemu-aarch64 "$obj/pmutop" "$@"; }

for t in "$obj"/tests/check_*; do
    case $t in *.o | *.log | *.trs) continue ;; esac
    name=$(basename "$t")
    (cd "$obj" && PERF_EVENTS_DIR="$obj/libperf-local/pmu-events" qemu-aarch64 "$t") > "$scratch/$name.out" 2>&1
    rc=$?
    summary=$(grep -E '^[0-9]+%: Checks:' "$scratch/$name.out" | tail -n 1)
    grep '^SKIP: ' "$scratch/$name.out"
    # all skipped (check_perf: no perf_event_open under qemu) is not a failure: said above
    if [ -n "$summary" ] && { [ $rc -eq 0 ] || echo "$summary" | grep -q "Checks: 0, Failures: 0, Errors: 0"; }; then ok; else
        fail "$name under qemu-aarch64: ${summary:-no summary} $(grep -E ':[FE]:' "$scratch/$name.out" | head -n 3)"
    fi
    echo "$name (arm64): $summary"
done

# every demo, every batch format: the bytes x86_64 prints (the wall-clock column aside:
# --fake-clock counts from the run's start, the date is today's)
for demo in $("$x86" list machines | awk '{ print $1 }'); do
    for fmt in text csv json; do
        extra=""
        [ "$fmt" = json ] && extra=--raw
        arm --demo "$demo" -b -n 3 --fake-clock --format "$fmt" $extra 2> "$scratch/a.err" | sed 's/^[0-9T:.-]*Z//; s/"time":"[^"]*"//' > "$scratch/a.out"
        "$x86" --demo "$demo" -b -n 3 --fake-clock --format "$fmt" $extra 2> /dev/null | sed 's/^[0-9T:.-]*Z//; s/"time":"[^"]*"//' > "$scratch/x.out"
        if [ -s "$scratch/x.out" ] && cmp -s "$scratch/a.out" "$scratch/x.out"; then ok; else
            fail "--demo $demo --format $fmt: arm64 and x86_64 differ ($(head -c 200 "$scratch/a.err"); $(cmp "$scratch/a.out" "$scratch/x.out" 2>&1 | head -n 1))"
        fi
    done
done

# recordings cross the architectures: written on one, replayed on the other, the same
arm record --demo -n 5 --fake-clock -o "$scratch/arm.pmrec" 2> "$scratch/rec.err" || fail "record on arm64: $(head -c 300 "$scratch/rec.err")"
"$x86" record --demo -n 5 --fake-clock -o "$scratch/x86.pmrec" 2> "$scratch/rec.err" || fail "record on x86_64: $(head -c 300 "$scratch/rec.err")"
for f in arm x86; do
    arm -r "$scratch/$f.pmrec" -b --format csv 2> /dev/null | cut -d, -f2- > "$scratch/$f-on-arm.csv"
    "$x86" -r "$scratch/$f.pmrec" -b --format csv 2> /dev/null | cut -d, -f2- > "$scratch/$f-on-x86.csv"
    if [ -s "$scratch/$f-on-x86.csv" ] && cmp -s "$scratch/$f-on-arm.csv" "$scratch/$f-on-x86.csv"; then ok; else
        fail "a recording written on $f replays differently on arm64 and x86_64"
    fi
done
expect_eq "the demo recorded on arm64 and on x86_64: the same values" \
    "$(cut -d, -f2- "$scratch/arm-on-x86.csv" | md5sum)" "$(cut -d, -f2- "$scratch/x86-on-x86.csv" | md5sum)"

# the live machine's host pane on arm64: no TSC, the generic timer in its place (qemu
# emulates CNTVCT_EL0 at CNTFRQ_EL0): the counter's measured rate is its frequency, and
# no TSC is said missing (this sysfs is the x86_64 host's: its msr PMU may be there)
arm -P host -b -n 3 -d 0.2 --format csv > "$scratch/timer.csv" 2> "$scratch/timer.err"
measured=$(awk -F, '$4 == "host.timer_ghz" && $5 == "all" && $8 == "ok" { v = $6 } END { print v }' "$scratch/timer.csv")
nominal=$(awk -F, '$4 == "host.timer_nominal_ghz" && $5 == "all" && $8 == "ok" { v = $6 } END { print v }' "$scratch/timer.csv")
echo "arm64 generic timer under qemu: measured ${measured:-none} GHz, CNTFRQ ${nominal:-none} GHz"
python3 -c "import sys; m, n = float('${measured:-0}'), float('${nominal:-0}'); sys.exit(0 if n > 0 and abs(m - n) <= 0.02 * n else 1)" && ok ||
    fail "arm64: the generic timer's measured rate (${measured:-none} GHz) is not its CNTFRQ (${nominal:-none} GHz): $(head -c 300 "$scratch/timer.err")"
grep -q "no PMU matches 'msr'" "$scratch/timer.csv" "$scratch/timer.err" && fail "arm64: the TSC said missing beside the generic timer" || ok
# ... recorded live on arm64, replayed on both: the timer's PMU and values kept
arm record -P host -n 3 -d 0.2 -o "$scratch/timer.pmrec" 2> "$scratch/trec.err" || fail "arm64: record the host: $(head -c 300 "$scratch/trec.err")"
arm -r "$scratch/timer.pmrec" -b --format csv 2> /dev/null | cut -d, -f2- > "$scratch/timer-on-arm.csv"
"$x86" -r "$scratch/timer.pmrec" -b --format csv 2> /dev/null | cut -d, -f2- > "$scratch/timer-on-x86.csv"
grep -q ',host.timer_ghz,all,[0-9.]*,GHz,ok$' "$scratch/timer-on-x86.csv" && cmp -s "$scratch/timer-on-arm.csv" "$scratch/timer-on-x86.csv" && ok ||
    fail "arm64's generic timer recorded: replayed differently on x86_64, or without it: $(grep timer "$scratch/timer-on-x86.csv" | head -n 2)"

# the seed machines in the monitor, under qemu in tmux: the panes a person would see
if command -v tmux > /dev/null; then
    trap 'for d in tegra410 grace bluefield3 hip09; do tmux -L "pmutop-arm64-$$-$d" kill-server 2>/dev/null; done; rm -rf "$scratch"' EXIT
    for demo in tegra410 grace bluefield3 hip09; do
        want=" pmutop  $demo " # the header names the machine; the key bar ends the screen
        sock="pmutop-arm64-$$-$demo" # a server each: a new session must not reach a dying one
        tmux -L "$sock" new-session -d -x 120 -y 40 "env LANG=C.UTF-8 qemu-aarch64 $obj/pmutop --demo $demo -d 0.5; sleep 60"
        seen=no i=0
        while [ $i -lt 150 ]; do # at most 30 s: qemu is slower than the machine
            tmux -L "$sock" capture-pane -p -t 0 > "$scratch/screen.txt" 2> /dev/null
            if grep -q "$want" "$scratch/screen.txt" && grep -q "F10Quit" "$scratch/screen.txt"; then seen=yes; break; fi
            sleep 0.2; i=$((i + 1))
        done
        [ $seen = yes ] && ok || { fail "--demo $demo in the monitor on arm64: no '$want' on screen"; cat "$scratch/screen.txt" >&2; }
        tmux -L "$sock" send-keys -t 0 q
        tmux -L "$sock" kill-server 2> /dev/null
    done
else
    skip_check "tmux is not installed: the monitor on arm64 not tried"
fi
finish
