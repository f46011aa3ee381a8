#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BlueField's counter files, counted for real on a plain copy of the demo tree (no --sim:
# the hwmon source programs and reads the copy's files): every exit path - the end of -n,
# SIGTERM, SIGINT, SIGHUP, SIGQUIT, a failed output - puts back what event<N>/enable held; the
# demos count through the simulated driver, including BlueField-3's 32-bit wrap.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$scratch"
BF2="$TOP_SRCDIR/profiles/machines/bluefield2"
dev=sys/class/hwmon/hwmon0

# "0x45: HNF_REQUESTS" and "0x45" program the same: compare event numbers and enable
programming() { # TREE -> one line per event/enable file: path number
    (cd "$1/$dev" && for f in */event[0-9]* */enable; do
        [ -f "$f" ] && printf '%s %s\n' "$f" "$(sed 's/:.*//' "$f")"
    done)
}
fresh() { rm -rf copy && cp -R "$BF2" copy && programming copy > before.txt; }
restored() { # WHAT
    programming copy > after.txt
    if cmp -s before.txt after.txt; then ok; else fail "$1: not restored: $(diff before.txt after.txt | head -5)"; fi
}
fresh
"$PMUTOP" -b --sysfs-root copy -n 2 -d 0.05 --format csv > run.csv 2> err.out
expect_eq "counting a plain copy exits 0" $? 0
expect_grep "the copy's tiles counted" ",bf.tile.hnf_requests,tile0," run.csv
expect_grep "the source says hwmon (and the tree's sensors)" ",hwmon+sensors," run.csv
restored "after -n"

# signals: programmed while running, restored after
for sig in TERM INT HUP QUIT; do
    fresh
    "$PMUTOP" -b --sysfs-root copy -d 3600 > /dev/null 2>&1 &
    pid=$!
    i=0
    # programmed means ready: pmutop takes INT/TERM/HUP/QUIT before it programs anything
    # (a SigCgt mask would not do: under valgrind the tool catches every signal)
    programmed() { [ "$(sed 's/:.*//' "copy/$dev/tile0/event0")" = 0x45 ]; }
    while [ $i -lt 600 ] && ! programmed; do sleep 0.05; i=$((i + 1)); done # a deadline (30 s), for loaded machines
    expect_eq "SIG$sig: programmed while running" "$(sed 's/:.*//' "copy/$dev/tile0/event0")" 0x45
    kill -$sig $pid
    wait $pid
    restored "SIG$sig"
done

# an output that fails (a full disk) ends the run with an error: still restored
if [ -w /dev/full ]; then
    fresh
    "$PMUTOP" -b --sysfs-root copy -n 3 -d 0.05 > /dev/full 2> err.out
    expect_eq "failed output exit" $? 1
    restored "after an output error"
else
    skip_check "no /dev/full here: the output-error path is not exercised"
fi

# a file that is a link out of the device is refused, and nothing outside is written
fresh
echo untouched > victim
rm "copy/$dev/trio0/event1" && ln -s "$scratch/victim" "copy/$dev/trio0/event1"
"$PMUTOP" -b --sysfs-root copy -n 1 -d 0.05 --format json > link.json 2> err.out
expect_eq "victim untouched" "$(cat victim)" untouched
expect_grep "the refusal names the file" "trio0/event1: writing '0xa1' failed: Too many levels of symbolic links" link.json

# an event file that rejects a write (the driver refusing an event): that block says
# which file and why, the others count
# (the file made read-only by a bind mount in a mount namespace of the test's own)
fresh
f="copy/$dev/tile1/event2"
if unshare -m sh -c "mount --bind $f $f && mount -o remount,ro,bind $f $f" 2> /dev/null; then
    unshare -m sh -c "mount --bind $f $f && mount -o remount,ro,bind $f $f &&
        exec \"$PMUTOP\" -b --sysfs-root copy -n 2 -d 0.05 --format json > reject.json 2> err.out"
    expect_eq "a rejected write is not fatal" $? 0
    expect_grep "the block names the file and the reason" \
        '"instance":"tile1","filters":{},"error":"tile1/event2: writing .* failed: Read-only file system"' reject.json
    expect_grep "the other tiles count" '"metric":"bf.tile.hnf_requests","instance":"tile0","value":[0-9]' reject.json
    if grep -q "restoring" err.out; then fail "a refused write is not restored: $(cat err.out)"; else ok; fi
    restored "after a rejected write"
else
    skip_check "no private mount namespace here (unshare -m): a rejected event write is not exercised"
fi

# a block that goes away mid-run (its files fail): it says "gone", the rest goes on, and
# it counts again once it is back (tried every 2 s). Each step waits for what it expects.
fresh
"$PMUTOP" -b --sysfs-root copy -d 0.1 --format json > gone.json 2> err.out &
pid=$!
until_line() { # PATTERN: a JSON line matching it within 20 s
    i=0
    while [ $i -lt 200 ]; do
        grep -q -- "$1" gone.json && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
until_line '"metric":"bf.tile.hnf_requests","instance":"tile0","value"' || fail "gone: tile0 never counted"
mv "copy/$dev/tile0" away
if until_line '"instance":"tile0","filters":{},"error":"gone: bfperf_tile0 stopped answering'; then ok; else fail "tile0 not said gone"; fi
grep '"error":"gone: bfperf_tile0' gone.json | head -n 1 > gone-line.json
expect_grep "while tile0 is gone, tile1 counts" '"metric":"bf.tile.hnf_requests","instance":"tile1","value":[0-9]' gone-line.json
expect_grep "tile0's values are unavailable" '"metric":"bf.tile.hnf_requests","instance":"tile0","value":null,"unit":"[^"]*","state":"unavailable"' gone-line.json
lines=$(wc -l < gone.json)
mv away "copy/$dev/tile0"
back=no i=0
while [ $i -lt 200 ]; do # tile0 counting again in a line after it came back
    tail -n +"$((lines + 1))" gone.json | grep -q '"metric":"bf.tile.hnf_requests","instance":"tile0","value":[0-9]' && { back=yes; break; }
    sleep 0.1; i=$((i + 1))
done
expect_eq "tile0 counts again once back" "$back" yes
kill -TERM $pid
wait $pid
restored "after a block went away and came back"

# the demos: the simulated driver behind the same source
sums() { (cd "$TOP_SRCDIR/profiles/machines" && find bluefield2 bluefield3 -type f | sort | xargs cat | cksum); }
before=$(sums)
"$PMUTOP" --demo bluefield2 -b -n 3 --fake-clock --format csv > bf2.csv
expect_eq "bluefield2 demo exit" $? 0
for m in bf.tile.hnf_requests bf.tile.mem_reads bf.tile.mem_writes bf.l3.hit_rate bf.l3.misses bf.l3.evictions \
         bf.pcie.in_bytes bf.pcie.out_bytes bf.pcie.in_pkts bf.pcie.out_pkts bf.ecc.single_errors bf.ecc.double_errors; do
    grep -q ",$m,[a-z0-9]*,[0-9.e+-]*,[^,]*,\(ok\|multiplexed\)$" bf2.csv && ok || fail "bluefield2 demo: no value for $m"
done
"$PMUTOP" --demo bluefield2 -b -n 3 --fake-clock --format json > bf2.json
python3 - bf2.json <<'PY' && ok || fail "l3: six events on five counters take turns, and say so (coverage below 1)"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
v = [m for m in o["metrics"] if m["metric"] == "bf.l3.hit_rate"]
assert v and all(0 < m.get("coverage", 1) < 1 and 0 < m["value"] < 100 for m in v), v
PY
# every metric recomputed from the raw counter deltas as the performance-monitoring
# document defines its counters (counts of events over the interval; L3 hit rate the
# hits over hits and misses), event by event, by the names the driver's event_list gives
"$PMUTOP" --demo bluefield2 -b -n 3 --fake-clock --format json --raw > bf2raw.json
python3 - bf2raw.json <<'PY' && ok || fail "bluefield2 metrics differ from the raw deltas (see above)"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
s = o["interval_ns"] / 1e9
d = {}
for c in o["counters"]:
    d.setdefault(c["instance"], {})[c["event"]] = d.get(c["instance"], {}).get(c["event"], 0) + c["delta"]
def bytes_(i, dirn): return sum(d[i]["%s_%s_BYTE_CNT" % (dirn, k)] for k in ("P", "NP", "C"))
def pkts(i, dirn): return sum(d[i]["%s_%s_PKT_CNT" % (dirn, k)] for k in ("P", "NP", "C"))
want = {
    "bf.tile.hnf_requests": lambda i: d[i]["HNF_REQUESTS"] / s,
    "bf.tile.mem_reads": lambda i: d[i]["MEMORY_READS"] / s,
    "bf.tile.mem_writes": lambda i: d[i]["MEMORY_WRITES"] / s,
    "bf.l3.hit_rate": lambda i: 100 * (d[i]["HITS_BANK0"] + d[i]["HITS_BANK1"]) /
        (d[i]["HITS_BANK0"] + d[i]["HITS_BANK1"] + d[i]["MISSES_BANK0"] + d[i]["MISSES_BANK1"]),
    "bf.pcie.in_bytes": lambda i: bytes_(i, "IN") / s / 1e9,
    "bf.pcie.out_bytes": lambda i: bytes_(i, "OUT") / s / 1e9,
    "bf.pcie.in_pkts": lambda i: pkts(i, "IN") / s,
    "bf.ecc.single_errors": lambda i: d[i]["ECC_SINGLE_ERROR_CNT"] / s,
}
n = 0
for m in o["metrics"]:
    if m["metric"] in want and m.get("state", "ok") == "ok":
        w = want[m["metric"]](m["instance"])
        assert abs(m["value"] - w) <= 1e-9 * max(abs(w), 1), (m, w)
        n += 1
assert n >= 16, n
PY
# BlueField-3: a 1.5 GHz clock on 32-bit counters wraps every 2.9 s; each interval is right
"$PMUTOP" --demo bluefield3 -b -n 8 -d 1 --fake-clock --format csv > bf3.csv
awk -F, '$4 == "bf.llt.clock" { n++; if ($6 < 1.45 || $6 > 1.55) bad = 1 } END { exit bad || n < 8 }' bf3.csv \
    && ok || fail "bluefield3: the HNF clock across 32-bit wraps: $(awk -F, '$4 == "bf.llt.clock" { print $6 }' bf3.csv | head -8 | tr '\n' ' ')"
# the demo trees are never written: the same bytes after the demos ran
expect_eq "demo trees untouched" "$(sums)" "$before"
# a read-only /sys (a container's, a ro bind mount): each programmable block says which
# file it could not write and why, the plain statistics registers still count, nothing
# in the tree changes, and the run ends normally
if unshare -m true 2> /dev/null; then
    fresh
    unshare -m sh -c "mount --bind copy copy && mount -o remount,ro,bind copy copy &&
        exec \"$PMUTOP\" -b --sysfs-root copy -n 1 -d 0.05" > ro.txt 2> ro.err
    expect_eq "read-only /sys: exit status" $? 0
    expect_grep "read-only /sys: the refusal named, with its file" "^  ! tile tile0: tile0/event0: writing '0x45' failed: Read-only file system" ro.txt
    grep -q "bf.ecc.single_errors  *ecc  *[0-9]" ro.txt && ok || fail "read-only /sys: the ECC statistics not counted: $(head -c 400 ro.txt)"
    restored "read-only /sys"
else
    skip_check "a read-only /sys: no private mount namespace here (unshare -m)"
fi
finish
