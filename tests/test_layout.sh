#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The shape of the code stays as ARCHITECTURE.md draws it: no include or call cycle
# between files or folders, no function over 100 lines (../shared/tools/layout-check.py,
# over the sources and this build's objects); the rooms in their order, the simulator
# read only through sim/simulator.h, no .c over 800 lines, no room over 4000
# (tests/rooms.py, checked first on a tree that breaks each rule).
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"

# The floor plan's rules, each seen to fail: a copy of the tree with one breach of each.
rooms="$TOP_SRCDIR/tests/rooms.py"
python3 "$rooms" "$TOP_SRCDIR" > "$scratch/rooms.out" 2>&1
status=$?
cat "$scratch/rooms.out"
for what in "includes of a room above" "includes of the simulator's insides" "outputs reading more than frames" \
    "source files over 800 lines" "rooms over 4000 lines"; do
    expect_eq "$what" "$(sed -n "s/^$what: //p" "$scratch/rooms.out")" 0
done
expect_eq "rooms.py exit status" "$status" 0
mkdir -p "$scratch/bad"
cp -R "$TOP_SRCDIR/src" "$scratch/bad/src"
printf '#include "engine/session.h"\n' >> "$scratch/bad/src/profile/profile_match.c"   # profile reads engine
printf '#include "bind/bind.h"\n' >> "$scratch/bad/src/machine/pmu.c"                # machine reads bind
printf '#include "sim/simmodel.h"\n' >> "$scratch/bad/src/record/replay.c"          # the sim's insides
printf '#include "bind/state.h"\n' >> "$scratch/bad/src/outputs/batch.c"            # an output past frames
awk 'BEGIN { for (i = 0; i < 801; i++) print "/* */" }' > "$scratch/bad/src/sources/long.c" # (in the room bulk.h fills: one room over)
awk 'BEGIN { for (i = 0; i < 4001; i++) print "/* */" }' > "$scratch/bad/src/sources/bulk.h"
python3 "$rooms" "$scratch/bad" > "$scratch/bad.out" 2>&1
expect_eq "breaches found in the broken copy" "$?" 1
expect_eq "upward includes found" "$(sed -n "s/^includes of a room above: //p" "$scratch/bad.out")" 2
expect_eq "the sim's insides found" "$(sed -n "s/^includes of the simulator's insides: //p" "$scratch/bad.out")" 1
expect_eq "an output reading binding's data found" "$(sed -n "s/^outputs reading more than frames: //p" "$scratch/bad.out")" 1
expect_eq "a long file found" "$(sed -n "s/^source files over 800 lines: //p" "$scratch/bad.out")" 1
expect_eq "a big room found" "$(sed -n "s/^rooms over 4000 lines: //p" "$scratch/bad.out")" 1
tool=""
for c in "$TOP_SRCDIR/../shared/tools/layout-check.py" "$TOP_SRCDIR/../../../shared/tools/layout-check.py"; do
    [ -f "$c" ] && tool=$c && break
done
[ -n "$tool" ] || skip "layout-check.py not found beside the tree (../shared/tools)"
build=$(dirname "$PMUTOP")
python3 "$tool" "$TOP_SRCDIR" --build "$build" > "$scratch/layout.out" 2>&1
status=$?
cat "$scratch/layout.out"
for what in "file include cycles" "folder include cycles" "file call cycles" "folder call cycles" "functions over 100 lines"; do
    expect_eq "$what" "$(sed -n "s/^$what: //p" "$scratch/layout.out")" 0
done
expect_eq "layout-check exit status" "$status" 0
finish
