#!/bin/sh
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
    expect_refusal "profile $n" "$(sed -n '1s/^; expect: //p' "$f")" "$PMUTOP" --demo -b -n 1 --fake-clock -p "$n"
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
        "$PMUTOP" --demo -b -n 1 --fake-clock -p formula.ini
done < rows.txt

# a 15 000-deep conditional on one 60 KB line, under a 256 KiB stack: refused at the
# nesting limit, which holds for every recursive production, not a crash
python3 -c 'print("[group ucf]\npmu = nvidia_ucf_pmu_{socket}\nevents = cycles\n[metric ucf.bad]\nformula = " + "1?" * 15000 + "1" + ":1" * 15000)' > deep.ini
expect_refusal "a 15 000-deep ?: chain" "pmutop: error: deep.ini:5:139: formula nests too deeply (more than 64 levels)" \
    sh -c 'ulimit -s 256 && exec "$0" "$@"' "$PMUTOP" --demo -b -n 1 --fake-clock -p deep.ini

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
"$PMUTOP" -p esc.ini --sysfs-root esc --sim --fake-clock -b -n 1 > esc.txt 2> esc.err
expect_eq "control bytes in a profile: batch text runs" $? 0
grep -q "$esc\\|$bel" esc.txt && fail "batch text sent a control byte from the profile: $(od -c esc.txt | head -5)" || ok
expect_grep "batch text shows the escape escaped" 'all\\x1b\[2J' esc.txt
"$PMUTOP" -p esc.ini --sysfs-root esc --sim --fake-clock -b -n 1 --format csv > esc.csv
grep -q "$bel" esc.csv && fail "CSV sent a BEL from the profile" || ok
mkdir -p escdir && cp esc.ini escdir/
PMUTOP_PROFILE_PATH=escdir "$PMUTOP" list profiles > esc.list
grep -q "$esc" esc.list && fail "list profiles sent a control byte from a profile's title" || ok
expect_grep "list profiles shows the title escaped" 'T\\x1b\[2J' esc.list
finish
