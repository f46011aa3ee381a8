#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile input: every case under tests/bad/ (its README says how they are written) exits
# non-zero, not by a signal nor with a sanitizer's report, with exactly the message the case
# expects as a whole line of standard error.
. "$TOP_SRCDIR/tests/lib.sh"
bad="$TOP_SRCDIR/tests/bad"
tab=$(printf '\t')
cd "$scratch"

# expect_refusal WHAT MESSAGE CMD...
expect_refusal() {
    what=$1 want=$(printf '%s' "$2" | sed "s|{demo}|$DEMO|g")
    shift 2
    "$@" > out.txt 2> err.txt < /dev/null
    rc=$?
    if [ $rc -eq 0 ]; then
        fail "$what: exit status 0"
    elif [ $rc -gt 125 ]; then
        fail "$what: exit status $rc (a signal?): $(head -c 400 err.txt)"
    elif grep -q 'Sanitizer\|runtime error' err.txt; then
        fail "$what: sanitizer report: $(head -c 400 err.txt)"
    elif ! grep -qxF -- "$want" err.txt; then
        fail "$what: want '$want', got: $(head -c 600 err.txt)"
    else
        ok
    fi
}

# rows FILE: the table's rows, comments and blank lines left out, into rows.txt (read by
# a loop in this shell, not a pipeline's subshell, so its counts stay)
rows() { grep -v -e '^#' -e '^$' "$1" > rows.txt; }

for f in "$bad"/profiles/*.ini; do
    n=$(basename "$f")
    cp "$f" "$n"
    expect_refusal "profile $n" "$(sed -n '1s/^; expect: //p' "$f")" "$PMUTOP" --demo -b -n 1 --fake-clock -P "$n"
done

for f in "$bad"/models/*.ini; do
    n=$(basename "$f")
    cp "$f" "$n"
    expect_refusal "model $n" "$(sed -n '1s/^; expect: //p' "$f")" \
        "$PMUTOP" --sim --sysfs-root "$DEMO" --model "$n" -b -n 1 --fake-clock
done

rows "$bad/formulae.txt"
while IFS="$tab" read -r formula col msg; do
    printf '[group ucf]\npmu = nvidia_ucf_pmu_{socket}\nevents = slc_access_rd, slc_bytes_rd, cycles\n[metric ucf.bad]\nformula = %s\n' \
        "$formula" > formula.ini
    expect_refusal "formula $formula" "pmutop: error: formula.ini:5:$((col + 10)): $msg" \
        "$PMUTOP" --demo -b -n 1 --fake-clock -P formula.ini
done < rows.txt

# a 15 000-deep conditional on one 60 KB line, under a 256 KiB stack: refused at the
# nesting limit, which holds for every recursive production, not a crash
python3 -c 'print("[group ucf]\npmu = nvidia_ucf_pmu_{socket}\nevents = cycles\n[metric ucf.bad]\nformula = " + "1?" * 15000 + "1" + ":1" * 15000)' > deep.ini
expect_refusal "a 15 000-deep ?: chain" "pmutop: error: deep.ini:5:139: formula nests too deeply (more than 64 levels)" \
    sh -c 'ulimit -s 256 && exec "$0" "$@"' "$PMUTOP" --demo -b -n 1 --fake-clock -P deep.ini

rows "$bad/events.txt"
while IFS="$tab" read -r event msg; do
    expect_refusal "event $event" "$msg" "$PMUTOP" encode --demo "$event"
done < rows.txt

rows "$bad/filters.txt"
while IFS="$tab" read -r value msg; do
    expect_refusal "-f $value" "$msg" "$PMUTOP" --demo -b -n 1 --fake-clock -f "$value"
done < rows.txt

rows "$bad/cmdline.txt"
while IFS="$tab" read -r args msg; do
    # shellcheck disable=SC2086 # the arguments are split at spaces on purpose
    expect_refusal "pmutop $args" "$msg" "$PMUTOP" $args
done < rows.txt

rows "$bad/recordings/expect"
while IFS="$tab" read -r n msg; do
    cp "$bad/recordings/$n" "$n"
    expect_refusal "recording $n" "$msg" "$PMUTOP" -r "$n" -b
done < rows.txt

if command -v sqlite3 > /dev/null; then
    "$PMUTOP" --demo -b -n 20 -d 0.05 --fake-clock --format csv -w good.pmrec > /dev/null ||
        fail "a good recording to damage"
    for f in "$bad"/recordings/*.sql; do
        n=$(basename "$f" .sql).pmrec
        cp good.pmrec "$n"
        sqlite3 "$n" < "$f" || fail "$f does not apply"
        expect_refusal "recording $n" "$(sed -n '1s/^-- expect: //p' "$f")" "$PMUTOP" -r "$n" -b
    done
else
    skip_check "damaged recordings: the sqlite3 tool is not installed"
fi

# a profile's strings are data: batch text never sends a control byte from them to the
# terminal (an OSC that sets the title, a clear-screen); CSV and JSON escape them too
sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" esc vm pkg yes 2
esc=$(printf '\033')
bel=$(printf '\007')
cat > esc.ini <<EOF
[profile]
name = esc
title = T${esc}[2J
[group g]
title = G${esc}]0;pwned${bel}
pmu = software
instance = all${esc}[2J
events = context-switches
[metric g.cs]
title = CS${esc}]0;pwned${bel}
formula = context_switches / elapsed_s
unit = /s${esc}[31m
EOF
"$PMUTOP" -P esc.ini --sysfs-root esc --sim --fake-clock -b -n 1 > esc.txt 2> esc.err
expect_eq "control bytes in a profile: batch text runs" $? 0
grep -q "$esc\\|$bel" esc.txt && fail "batch text sent a control byte from the profile: $(od -c esc.txt | head -5)" || ok
expect_grep "batch text shows the escape escaped" 'all\\x1b\[2J' esc.txt
"$PMUTOP" -P esc.ini --sysfs-root esc --sim --fake-clock -b -n 1 --format csv > esc.csv
grep -q "$bel" esc.csv && fail "CSV sent a BEL from the profile" || ok
grep -q "$esc" esc.csv && fail "CSV sent an ESC from the profile's unit or instance: $(grep "$esc" esc.csv | od -c | head -3)" || ok
expect_grep "CSV shows the unit's escape escaped" '"/s\\x1b\[31m"' esc.csv
mkdir -p escdir && cp esc.ini escdir/
PMUTOP_PROFILE_PATH=escdir "$PMUTOP" list profiles > esc.list
grep -q "$esc" esc.list && fail "list profiles sent a control byte from a profile's title" || ok
expect_grep "list profiles shows the title escaped" 'T\\x1b\[2J' esc.list

# list metrics -P with a profile that does not load: said, exit 1, and nothing kept (the
# ASan stage's LeakSanitizer fails an exit status of 23 here)
printf '[profile]\nname = broken\n[group g]\npmu = x\nbogus = 1\n' > broken.ini
"$PMUTOP" list metrics -P ./broken.ini > broken.out 2> broken.err
expect_eq "list metrics -P a profile with errors: exit status" $? 1
expect_grep "list metrics -P a profile with errors: said" "errors in profile './broken.ini'" broken.err

# a CPU model expression that would make glibc's regcomp overflow its stack is refused
# before it is compiled wherever profiles are read: list profiles on the search path too
mkdir -p rxdir && cp "$bad/profiles/regex-blowup.ini" rxdir/
PMUTOP_PROFILE_PATH=rxdir "$PMUTOP" list profiles > rx.out 2> rx.err
status=$?
[ $status -lt 128 ] && ok || fail "list profiles with a costly expression on the path: killed by signal $((status - 128))"
expect_grep "list profiles: the expression refused, named" "regex-blowup.ini:4:14: when: '(((.?){30}){30}){30}X' is refused" rx.err

# a FIFO anywhere in the tree (an event alias, a format file, a CPU's package id, the
# online list, proc/cpuinfo, proc/stat) is refused, named, and never blocks start-up or a
# refresh: `timeout` only stops a hang, it waits for nothing
sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" fifo vm pkg yes 2
fifo_in() { rm -f "$1" && mkfifo "$1"; }
alias1=$(find fifo/sys/bus/event_source/devices/ -path '*/events/*' -type f | sort | head -n 1)
[ -n "$alias1" ] && fifo_in "$alias1" && ok || fail "a FIFO in the tree: no event alias in the tree to make one of"
fifo_in fifo/sys/devices/system/cpu/cpu0/topology/physical_package_id
fifo_in fifo/sys/devices/system/cpu/online
mkdir -p fifo/proc && fifo_in fifo/proc/cpuinfo && fifo_in fifo/proc/stat
timeout 20 "$PMUTOP" --sysfs-root fifo --proc-root fifo --sim -b -n 2 --fake-clock > fifo.out 2> fifo.err
status=$?
[ $status -ne 124 ] && [ $status -lt 128 ] && ok || fail "a FIFO in the tree: pmutop hung or died (status $status)"
expect_grep "a FIFO in the tree: named" "cpu0/topology/physical_package_id: a pipe, not a regular file" fifo.err
expect_grep "a FIFO as an event alias: named" "$alias1: cannot read: not a regular file (a pipe or a device): not read" fifo.err
expect_grep "a FIFO as proc/stat: named" "proc/stat: a pipe, not a regular file" fifo.err
expect_eq "a FIFO as proc/stat: said once" "$(grep -c 'proc/stat: a pipe' fifo.err)" 1
# an uncore PMU whose cpumask cannot be read (a directory, a device behind a symbolic
# link; mode 000 for a user) is unavailable and said, never counted on every CPU (socket
# 0's memory bandwidth read 151 725 MB/s instead of 10 200, with 112 channel rows)
sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" spr mask 2 4 > /dev/null
XEON_MODEL=spr sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" mask 2 4 > /dev/null
mkdir -p mask/proc
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\nstepping\t: 8\n\n' > mask/proc/cpuinfo
imc=mask/sys/bus/event_source/devices
rm -f "$imc/uncore_imc_0/cpumask" "$imc/uncore_imc_1/cpumask"
mkdir "$imc/uncore_imc_0/cpumask"
ln -s /dev/zero "$imc/uncore_imc_1/cpumask"
"$PMUTOP" --sysfs-root mask --sim --dry-run > mask.tsv 2> mask.err
expect_grep "a cpumask that is a directory: said" "uncore_imc_0/cpumask: cannot be read (a directory): the PMU is unavailable" mask.err
expect_grep "a cpumask that is a device: said" "uncore_imc_1/cpumask: cannot be read (not a regular file (a pipe or a device): not read): the PMU is unavailable" mask.err
expect_eq "a PMU whose cpumask cannot be read opens nothing" \
    "$(awk -F'\t' '$3 ~ /^uncore_imc_[01]\// && $4 != "!"' mask.tsv | wc -l)" 0

finish
