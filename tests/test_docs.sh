#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The manual pages render clean, as a user reads them: every page through man at 80 and
# 160 columns and through groff with every warning on, no warning ("cannot adjust line"
# at 80 columns came from a 90-character example); and no sentence runs into the next
# (".BR profile . Series" rendered "profile.Series(notimestamps;..." : .BR joins its
# arguments).
. "$TOP_SRCDIR/tests/lib.sh"
command -v man > /dev/null || skip "man (man-db) is not installed"
command -v groff > /dev/null || skip "groff is not installed"
cd "$scratch"
for page in "$TOP_SRCDIR"/man/*.[1-8]; do
    name=$(basename "$page")
    for width in 80 160; do
        LC_ALL=C.UTF-8 MANWIDTH=$width man --warnings -l "$page" > "$name.$width.txt" 2> "$name.$width.err"
        expect_eq "man $name at $width columns: exit" $? 0
        [ ! -s "$name.$width.err" ] && ok || fail "man $name at $width columns warns: $(head -c 400 "$name.$width.err")"
        joined=$(grep -nE '[a-z)]\.[A-Z][a-z]' "$name.$width.txt" | head -n 3)
        [ -z "$joined" ] && ok || fail "man $name at $width columns: words run together: $joined"
    done
    groff -ww -z -man "$page" > "$name.groff" 2>&1
    [ ! -s "$name.groff" ] && ok || fail "groff -ww $name warns: $(head -c 400 "$name.groff")"
done
finish
