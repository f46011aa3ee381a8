#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The shape of the code stays as ARCHITECTURE.md draws it: no include or call cycle
# between files or folders, no function over 100 lines (../shared/tools/layout-check.py,
# over the sources and this build's objects).
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
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
