#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Recordings: live batch output == replay batch output, byte for byte (text, CSV, JSON,
# filters, BlueField turns); --begin/--end; another profile over a recording; kill -9 at
# random moments leaves a file that passes integrity_check and replays; rotation and
# --keep; refusing to overwrite; damaged, truncated, foreign and future files; a full disk.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$scratch"
command -v sqlite3 > /dev/null || skip "the sqlite3 tool is not installed"

# round trips, byte for byte
for args in "--demo" "--demo hip09 -f nic@sicl0:mode=func,bdf=35:00.1" "--demo bluefield2" "--demo spr"; do
    for fmt in json csv text; do
        rm -f rt.pmrec
        "$PMUTOP" $args -b -n 6 --fake-clock --format $fmt -w rt.pmrec > live.out 2> /dev/null
        "$PMUTOP" -r rt.pmrec -b --format $fmt > replay.out
        cmp -s live.out replay.out && ok || fail "round trip $args $fmt: $(cmp live.out replay.out)"
    done
done
# a filter changed before the first frame (the monitor's editor can be that quick) is an
# event of the first sample's seq, not seq 0: the recorded encodings already include it
rm -f early.pmrec
"$PMUTOP" --demo -b -n 4 --fake-clock --format json -f ucf@socket0:src_loc_cpu=1 -w early.pmrec > live.out
sqlite3 early.pmrec "UPDATE events SET seq = (SELECT MIN(s) FROM (SELECT seq AS s FROM tail UNION ALL SELECT first_seq FROM chunks))"
expect_eq "the filter event moved to the first sample" "$(sqlite3 early.pmrec 'SELECT seq FROM events')" 1
"$PMUTOP" -r early.pmrec -b --format json > replay.out 2> err.out
cmp -s live.out replay.out && ok || fail "a filter changed before the first frame: $(cmp live.out replay.out)"
expect_eq "no counter lost" "$(cat err.out)" ""
"$PMUTOP" --demo hip09 -b -n 4 --fake-clock --format json --raw -w raw.pmrec > live.out
"$PMUTOP" -r raw.pmrec -b --format json --raw > replay.out
cmp -s live.out replay.out && ok || fail "round trip --raw"
# the live perf source too (software events of this machine)
if "$PMUTOP" -b -n 3 -d 0.1 --format json -w host.pmrec > live.out 2> /dev/null; then
    "$PMUTOP" -r host.pmrec -b --format json > replay.out
    cmp -s live.out replay.out && ok || fail "round trip of live counters"
else
    skip_check "no perf counters here: the live round trip is not exercised"
fi
expect_eq "file mode 0640" "$(stat -c %a rt.pmrec)" 640
expect_eq "integrity" "$(sqlite3 rt.pmrec 'PRAGMA integrity_check')" ok
# the staging table's pages, freed as chunks were written, went back at the clean close
# (SQLite's own page counts: 120 samples make two chunks)
"$PMUTOP" --demo -b -n 120 --fake-clock --format csv -w vac.pmrec > /dev/null 2>&1
expect_eq "no free pages left in a closed recording" "$(sqlite3 vac.pmrec 'PRAGMA freelist_count')" 0
"$PMUTOP" record --info rt.pmrec > info.txt
expect_grep "info: samples" "^samples *6$" info.txt
expect_grep "info: profiles" "spr" info.txt
expect_grep "info: host" "^host *$(hostname)" info.txt

# a time range
"$PMUTOP" --demo -b -n 10 --fake-clock --format csv -w range.pmrec > live.csv
"$PMUTOP" -r range.pmrec -b --format csv --begin +3s --end +5s > part.csv
per=$(( ($(wc -l < live.csv) - 1) / 10 ))
expect_eq "--begin/--end: three intervals" "$(( $(wc -l < part.csv) - 1 ))" "$((3 * per))"
first=$(sed -n 2p part.csv | cut -d, -f1)
expect_eq "--begin +3s starts at the fourth interval" "$first" "$(sed -n "$((2 + 3 * per))p" live.csv | cut -d, -f1)"
# --dry-run of a replay shows what was counted: the filters it recorded, not the defaults
"$PMUTOP" --demo -b -n 2 --fake-clock -f pcie@socket0/rc2:src_rp_mask=0x1 -w dry.pmrec > /dev/null
"$PMUTOP" -r dry.pmrec --dry-run > dry.tsv
expect_grep "--dry-run of a replay: the recorded filter" "^socket0/rc2	pcie	nvidia_pcie_pmu_0_rc_2/rd_bytes,src_rp_mask=0x1/" dry.tsv

# a range that leaves nothing to replay is said, not an empty success
"$PMUTOP" -r range.pmrec -b --begin +1h > /dev/null 2> err.out
expect_eq "--begin past the end: exit" $? 2
expect_grep "--begin past the end: said" "is after the recording ends (.* to .*): nothing to replay" err.out
"$PMUTOP" -r range.pmrec -b --begin +5s --end +3s > /dev/null 2> err.out
expect_eq "--end before --begin: exit" $? 2
expect_grep "--end before --begin: said" "is before --begin .*: nothing to replay" err.out
"$PMUTOP" -r range.pmrec -b --begin 25:99 > /dev/null 2> err.out
expect_eq "bad --begin exit" $? 2
expect_grep "bad --begin says the forms" "want HH:MM" err.out

# another profile recomputes what was recorded
cat > other.ini <<'EOF'
[profile]
name = other
[group ucf]
pmu = nvidia_ucf_pmu_{socket}
instance = socket{socket}
events = slc_bytes_rd slc_bytes_wr
[metric ucf.slc_total]
formula = (slc_bytes_rd + slc_bytes_wr) / elapsed_ns
unit = GB/s
EOF
"$PMUTOP" -r range.pmrec -b --format csv -P "$scratch/other.ini" > other.csv
python3 - live.csv other.csv <<'PY' && ok || fail "another profile's metric from the recorded events"
import csv, sys
live = list(csv.DictReader(open(sys.argv[1])))
other = list(csv.DictReader(open(sys.argv[2])))
want = {}
for r in live:
    if r["metric"] in ("ucf.slc_read_bw", "ucf.slc_write_bw") and r["state"] == "ok":
        k = (r["time"], r["instance"])
        want[k] = want.get(k, 0) + float(r["value"])
got = {(r["time"], r["instance"]): float(r["value"]) for r in other if r["state"] == "ok"}
assert len(got) == 20 and set(got) == set(want), (len(got), len(want))
for k in got:
    assert abs(got[k] - want[k]) <= 1e-6 * want[k], (k, got[k], want[k])
PY

# kill -9 at random moments: the file opens, passes integrity_check, replays
i=0
while [ $i -lt 12 ]; do
    rm -f k.pmrec k.pmrec-wal k.pmrec-shm
    "$PMUTOP" record -o k.pmrec --demo hip09 --fake-clock -d 0.5 > /dev/null 2>&1 &
    pid=$!
    sleep "0.$(( (i * 37) % 9 + 1 ))"
    kill -9 $pid 2> /dev/null
    wait $pid 2> /dev/null
    if [ -f k.pmrec ]; then
        res=$(sqlite3 k.pmrec 'PRAGMA integrity_check' 2>&1)
        [ "$res" = ok ] && ok || fail "kill -9 #$i: integrity_check says $res"
        n=$(sqlite3 k.pmrec 'SELECT (SELECT COUNT(*) FROM tail) + (SELECT IFNULL(SUM(nsamples),0) FROM chunks)')
        if [ "$n" -gt 0 ]; then
            got=$("$PMUTOP" -r k.pmrec -b --format csv | tail -n +2 | cut -d, -f1 | uniq | wc -l)
            expect_eq "kill -9 #$i: every committed sample replays" "$got" "$n"
        fi
    fi
    i=$((i + 1))
done

# SIGHUP (the ssh session that started it went away) during a recording: a clean end,
# the file whole: every sample it says it holds replays
rm -f h.pmrec
"$PMUTOP" record -o h.pmrec --demo -d 0.1 > /dev/null 2> hup.err &
pid=$!
i=0
committed() { # read-only: sqlite3 must not make the file before pmutop does
    [ -s h.pmrec ] && sqlite3 -readonly h.pmrec 'SELECT (SELECT COUNT(*) FROM tail) + (SELECT IFNULL(SUM(nsamples),0) FROM chunks)' 2> /dev/null || echo 0
}
until [ "$(committed)" -gt 2 ] || [ $i -ge 200 ]; do
    sleep 0.1; i=$((i + 1))
done
kill -HUP $pid
wait $pid
rc=$?
expect_eq "SIGHUP ends the recording cleanly ($(cat hup.err))" $rc 0
expect_eq "SIGHUP: integrity_check" "$(sqlite3 h.pmrec 'PRAGMA integrity_check' 2>&1)" ok
said=$("$PMUTOP" record --info h.pmrec | awk '/^samples/ { print $2 }')
got=$("$PMUTOP" -r h.pmrec -b --format csv | tail -n +2 | cut -d, -f1 | uniq | wc -l)
expect_eq "SIGHUP: every sample the file holds replays" "$got" "$said"
[ "$said" -gt 2 ] && ok || fail "SIGHUP: only '$said' samples recorded"

# rotation: a new file every minute of (simulated) time, the newest three kept
mkdir rot
"$PMUTOP" record -o rot/r.pmrec --rotate 1m --keep 3 --demo hip09 --fake-clock -d 10 --duration 10m
expect_eq "record with rotation exit" $? 0
expect_eq "--keep 3" "$(ls rot | grep -c '^r-[0-9]\{8\}-[0-9]\{6\}\.pmrec$')" 3
for f in rot/*.pmrec; do
    "$PMUTOP" -r "$f" -b --format csv > /dev/null && ok || fail "rotated $f does not replay"
done
last=$(ls rot/*.pmrec | tail -n 1)
expect_eq "a rotated file holds a minute" "$(sqlite3 "$last" 'SELECT (SELECT COUNT(*) FROM tail) + (SELECT IFNULL(SUM(nsamples),0) FROM chunks)')" 6

# never over another file without --force
"$PMUTOP" --demo -b -n 1 --fake-clock -w rt.pmrec > /dev/null 2> err.out
expect_eq "existing file: exit" $? 1
expect_grep "existing file: said" "rt.pmrec: exists; not overwritten (use --force)" err.out
"$PMUTOP" --demo -b -n 1 --fake-clock -w rt.pmrec --force > /dev/null
expect_eq "--force replaces" $? 0
expect_eq "a recording says what it is (application_id 'pmut')" "$(sqlite3 rt.pmrec 'PRAGMA application_id')" 1886221684
# ... but not one another pmutop is writing: its samples would be lost (the writer failed
# with "attempt to write a readonly database"); the refusal names the writer's PID. The
# loops poll for a state with a deadline; none waits for time.
"$PMUTOP" --demo -b --format csv -d 0.05 -w busy.pmrec > /dev/null 2> busy.err &
writer=$!
i=0
while [ $i -lt 100 ] && ! [ -s busy.pmrec ]; do sleep 0.1; i=$((i + 1)); done
"$PMUTOP" --demo -b -n 1 --fake-clock -w busy.pmrec --force > /dev/null 2> force.err
expect_eq "--force on a recording being written: exit" $? 1
expect_grep "--force on a recording being written: said, with the writer's PID" \
    "busy.pmrec: being written by pmutop (PID $writer); --force does not replace a recording being written" force.err
kill -0 "$writer" 2> /dev/null && ok || fail "the writer died when --force was refused: $(cat busy.err)"
kill -TERM "$writer"
wait "$writer"
expect_eq "the writer ends as asked" $? 0
"$PMUTOP" --demo -b -n 1 --fake-clock -w busy.pmrec --force > /dev/null
expect_eq "--force once the writer is done" $? 0
# ... a recording and nothing else: not a device node, another program's file, a
# directory, nor anything through a symbolic link; each left as it was, said by name
echo "someone's notes" > notes.txt
ln -s notes.txt notes.link
mkdir adir
printf 'notes.txt:not a pmutop recording\nnotes.link:a symbolic link\nadir:a directory\n' > kinds.txt
if mknod node c 1 3 2> /dev/null; then
    echo 'node:a character device' >> kinds.txt
else
    skip_check "--force on a device node: mknod is not allowed here"
fi
while IFS=: read -r f why; do
    before=$(ls -ld "$f" | cut -c1-10)
    "$PMUTOP" --demo -b -n 1 --fake-clock -w "$f" --force > out.txt 2> err.out < /dev/null
    expect_eq "--force on $f: exit" $? 1
    expect_grep "--force on $f: said" "$f: $why" err.out
    expect_eq "--force on $f: left as it was" "$(ls -ld "$f" | cut -c1-10)" "$before"
    expect_eq "--force on $f: refused before the first interval" "$(wc -c < out.txt 2> /dev/null || echo 0)" 0
    # without --force: what is there, and that --force would not help either
    "$PMUTOP" --demo -b -n 1 --fake-clock -w "$f" > out.txt 2> err.out < /dev/null
    expect_eq "no --force on $f: exit" $? 1
    expect_grep "no --force on $f: said, without 'use --force'" "$f: $why; not overwritten (--force replaces only a pmutop recording)" err.out
    expect_eq "no --force on $f: refused before the first interval" "$(wc -c < out.txt)" 0
done < kinds.txt
expect_eq "--force: the notes untouched" "$(cat notes.txt)" "someone's notes"

# damaged, truncated, foreign and future files: a message, exit 1, never a crash
# `pmutop record` whose disk fills ends with the reason, non-zero (so that a service's
# Restart=on-failure fires); with --rotate it says so and tries a new file at the next
# rotation instead (a 256 KiB tmpfs in a mount namespace of the test's own)
if unshare -m true 2> /dev/null; then
    mkdir -p small
    unshare -m sh -c "mount -t tmpfs -o size=256k tmpfs small && exec \"$PMUTOP\" record --demo -o small/r.pmrec -d 0.01 --fake-clock" \
        > /dev/null 2> full.err
    expect_eq "record on a full disk: exit" $? 1
    expect_grep "record on a full disk: the reason" "pmutop: recording small/r.pmrec stopped: small/r.pmrec: database or disk is full" full.err
    unshare -m sh -c "mount -t tmpfs -o size=256k tmpfs small &&
        exec \"$PMUTOP\" record --demo -o small/r.pmrec -d 1 -n 200 --fake-clock --rotate 1m --keep 1" > /dev/null 2> rot.err
    expect_eq "rotating on a full disk: goes on to its end, non-zero as its last file failed" $? 1
    [ "$(grep -c 'trying a new file at the next rotation' rot.err)" -ge 3 ] && ok ||
        fail "rotating on a full disk: a new file tried at each rotation: $(head -c 400 rot.err)"
else
    skip_check "no private mount namespace here (unshare -m): a recording's full disk is not exercised"
fi

# `ulimit -f` (dash counts 512-byte blocks): SIGXFSZ is ignored, so the recording stops
# saying the limit (it died of the signal, status 153, unsaid) and what it holds replays,
# whole chunks; a limit below its first sample leaves a recording the reader calls empty
# (it said "not a pmutop recording (format 'none')")
sh -c 'ulimit -f 2000 && exec "$0" "$@"' "$PMUTOP" record -o lim.pmrec --demo -d 0.01 --fake-clock -n 20000 2> lim.err
expect_eq "record past ulimit -f: exit" $? 1
expect_grep "record past ulimit -f: the limit said" "lim.pmrec: .*(the file size limit, ulimit -f" lim.err
"$PMUTOP" -r lim.pmrec -b --format csv > lim.csv 2> lim2.err && ok || fail "a recording cut by ulimit -f does not replay: $(cat lim2.err)"
[ "$(wc -l < lim.csv)" -gt 100 ] && ok || fail "a recording cut by ulimit -f kept $(wc -l < lim.csv) lines"
sh -c 'ulimit -f 100 && exec "$0" "$@"' "$PMUTOP" record -o lim0.pmrec --demo -d 0.01 --fake-clock -n 20000 2> lim.err
expect_eq "record under a tiny ulimit -f: exit" $? 1
"$PMUTOP" record --info lim0.pmrec > /dev/null 2> lim.err
expect_eq "--info on a recording cut before its first sample: exit" $? 1
expect_grep "--info on a recording cut before its first sample: called empty" "lim0.pmrec: an empty recording: its writer stopped before the first sample" lim.err

# --rotate into a directory made read-only (chattr +i: root writes past a mode; a
# read-only remount is refused while the file is open), then writable again: the file
# that cannot be finished is said, each rotation tries a new one, and recording goes on
# there once it can (it exited 1 at the first rotation)
mkdir -p rodir
if chattr +i rodir 2> /dev/null && ! touch rodir/x 2> /dev/null && chattr -i rodir; then
    poll() { n=0; while ! eval "$1"; do n=$((n + 1)); [ $n -lt 1200 ] || { echo "never: $1"; return 1; }; sleep 0.05; done; }
    "$PMUTOP" record --demo -o rodir/r.pmrec -d 10 --fake-clock --rotate 1m --keep 3 2> ro.err &
    ropid=$!
    poll 'ls rodir/r-*.pmrec > /dev/null 2>&1' > ro.out && chattr +i rodir &&
        poll 'grep -q "trying a new file at the next rotation" ro.err' >> ro.out && kill -0 $ropid 2>> ro.out
    alive=$?
    chattr -i rodir
    [ $alive = 0 ] && ok || fail "--rotate into a read-only directory: ended ($(cat ro.out; head -c 300 ro.err))"
    if [ $alive = 0 ]; then
        rm -f rodir/*
        poll 'ls rodir/r-*.pmrec > /dev/null 2>&1' > ro.out && ok || fail "--rotate: no new file once the directory was writable again"
        # (said as a file not finished where the rotation came first, else as a write
        # that failed: where the directory turned read-only decides)
        expect_grep "a file that failed in a read-only directory: said" "pmutop: recording \(rodir/r-.*: not finished: \|failed: rodir/r-\)" ro.err
        kill $ropid
        wait $ropid
        expect_eq "--rotate through a read-only spell: ends on TERM with 0" $? 0
        f=$(ls rodir/r-*.pmrec | head -n 1)
        "$PMUTOP" -r "$f" -b --format csv > /dev/null && ok || fail "the file begun once the directory was writable again does not replay"
    else
        kill $ropid 2> /dev/null
        wait $ropid
    fi
else
    chattr -i rodir 2> /dev/null
    skip_check "chattr +i does not hold here: --rotate into a read-only directory is not exercised"
fi

# a chunk whose zstd frame claims a gigabyte (32 KB of it in the file): refused by what
# the index allows (60 samples of the recording's counters), before anything is allocated
if command -v zstd > /dev/null; then
    "$PMUTOP" --demo -b -n 120 -d 0.05 --fake-clock --format csv -w bomb.pmrec > /dev/null
    hex=$(head -c 1073741824 /dev/zero | zstd -3 -q -c --stream-size=1073741824 | od -An -tx1 -v | tr -d ' \n')
    sqlite3 bomb.pmrec "UPDATE chunks SET data = X'01$hex' WHERE first_seq = 61"
    "$PMUTOP" -r bomb.pmrec -b --format csv > /dev/null 2> err.out
    expect_eq "a zstd bomb: exit" $? 1
    expect_grep "a zstd bomb: refused for its claim" "damaged chunk (it claims 1073741824 bytes, more than 60 samples of [0-9]* counters take)" err.out
else
    skip_check "a zstd bomb in a recording: the zstd tool is not installed"
fi

# a recording missing a chunk: the gap named (samples and times), the rest replayed, exit 1
"$PMUTOP" --demo -b -n 300 -d 0.05 --fake-clock --format csv -w gap.pmrec > gaplive.csv
sqlite3 gap.pmrec "DELETE FROM chunks WHERE first_seq = 61"
"$PMUTOP" -r gap.pmrec -b --format csv > gap.csv 2> err.out
expect_eq "a missing chunk: exit" $? 1
expect_grep "a missing chunk: said" "replay: samples 61 to 120 (60 of them, between [0-9:]* and [0-9:]*) are missing from the recording; replaying the rest" err.out
expect_eq "a missing chunk: the rest replayed" "$(cut -d, -f1 gap.csv | grep -v '^time' | sort -u | wc -l)" 240
# record --info on a damaged first or last chunk, or one that claims 2^31 samples: the
# readable range and the damage said, exit 1, never a crash (a double free, once)
"$PMUTOP" --demo hip09 -b -n 200 --fake-clock -w info.pmrec > /dev/null
for where in max min; do
    cp info.pmrec dmg.pmrec
    sqlite3 dmg.pmrec "UPDATE chunks SET data = zeroblob(10) WHERE id = (SELECT $where(id) FROM chunks)"
    "$PMUTOP" record --info dmg.pmrec > dmg.txt 2> dmg.err
    expect_eq "--info, damaged $where chunk: exit" $? 1
    expect_grep "--info, damaged $where chunk: said" "^damaged  *dmg.pmrec: damaged chunk" dmg.txt
    expect_grep "--info, damaged $where chunk: the readable part" \
        "^samples  *200 ($([ $where = max ] && echo '1 to 180' || echo '61 to 200') readable)" dmg.txt
done
cp info.pmrec dmg.pmrec
sqlite3 dmg.pmrec "UPDATE chunks SET last_seq = first_seq + 2147483647 WHERE id = (SELECT max(id) FROM chunks)"
"$PMUTOP" record --info dmg.pmrec > dmg.txt 2> dmg.err
st=$?
[ "$st" -le 1 ] && ok || fail "--info, a chunk claiming 2^31 samples: exit $st: $(cat dmg.err)"
expect_grep "--info, a chunk claiming 2^31 samples: described" "^counters" dmg.txt
# the span said is the one between the two stamps shown
"$PMUTOP" record --info info.pmrec > ok.txt
from=$(sed -n 's/^from  *//p' ok.txt) to=$(sed -n 's/^to  *\(.*\) (.*/\1/p' ok.txt)
span=$(( $(date -d "$to" +%s) - $(date -d "$from" +%s) ))
expect_grep "--info: the span between the stamps" "^to .* ($span s)$" ok.txt
# strings from the file reach the terminal escaped (an instance's error, an event's value)
cp info.pmrec esc.pmrec
sqlite3 esc.pmrec "INSERT INTO events(seq, kind, instance, instance_name, term, value) VALUES (3, 'filter', 0, 'x', 'mode', char(27) || ']0;pwned' || char(7))"
"$PMUTOP" record --info esc.pmrec > esc.txt
grep -q "$(printf '\033')" esc.txt && fail "--info: an escape byte from the file reached the terminal" || ok
expect_grep "--info: the escape shown escaped" '\\x1b]0;pwned\\x07' esc.txt

# a replay meets a damaged chunk: the last one, or one within; what can be read is
# replayed, the damage said, exit 1
for where in "max(id)" "min(id) + 1"; do
    cp info.pmrec dmg.pmrec
    sqlite3 dmg.pmrec "UPDATE chunks SET data = zeroblob(10) WHERE id = (SELECT $where FROM chunks)"
    "$PMUTOP" -r dmg.pmrec -b --format csv > dmg.csv 2> dmg.err
    expect_eq "replay, damaged chunk $where: exit" $? 1
    # 200 samples: chunks of 60 and the last 20; the last chunk or the second lost
    expect_eq "replay, damaged chunk $where: the rest replayed" "$(cut -d, -f1 dmg.csv | grep -v '^time' | sort -u | wc -l)" \
        "$([ "$where" = "max(id)" ] && echo 180 || echo 140)"
    expect_grep "replay, damaged chunk $where: said" "replay: samples after [0-9:]* (\(181 to 200\|61 to 120\)) are damaged" dmg.err
done

# one grammar for times and durations (pmutop(1)), each refusal saying what it read
for bad in @1e30 @99999999999 @inf 10:50:60 25:00 +5x +1h-3m 2026-02-30T10:00:00 +; do
    "$PMUTOP" -r range.pmrec -b --begin "$bad" > /dev/null 2> err.out
    expect_eq "--begin $bad: exit" $? 2
    expect_grep "--begin $bad: says what it read" "--begin '$bad'" err.out
done
for good in +0s +9m59s +1.5m +1h30m +2s; do
    "$PMUTOP" -r range.pmrec -b --format csv --begin "$good" > /dev/null 2> err.out
    st=$?
    [ "$st" -eq 0 ] || grep -q "is after the recording ends" err.out && ok || fail "--begin $good refused: $(cat err.out)"
done
"$PMUTOP" -r range.pmrec -b --begin +1d > /dev/null 2> err.out
expect_grep "--begin +1d: the bounds with their dates" \
    "after the recording ends ([0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9:]* to [0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9:]*)" err.out
"$PMUTOP" -r range.pmrec -b --begin @9999999999 > /dev/null 2> err.out
expect_eq "--begin in the year 2286: exit" $? 2
expect_grep "--begin in the year 2286: said with its date" "--begin 2286-" err.out

cp range.pmrec bad.pmrec
sqlite3 bad.pmrec "UPDATE chunks SET data = X'01DEADBEEF'"
sqlite3 bad.pmrec "UPDATE tail SET data = X'00504D4331FF'"
"$PMUTOP" -r bad.pmrec -b > /dev/null 2> err.out
expect_eq "damaged chunk exit" $? 1
expect_grep "damaged chunk said" "damaged" err.out
head -c 3000 range.pmrec > cut.pmrec
"$PMUTOP" -r cut.pmrec -b > /dev/null 2> err.out
expect_eq "truncated exit" $? 1
expect_grep "truncated said" "cut.pmrec" err.out
echo "not a recording" > text.pmrec
"$PMUTOP" -r text.pmrec -b > /dev/null 2> err.out
expect_eq "foreign file exit" $? 1
expect_grep "foreign file said" "not a pmutop recording" err.out
sqlite3 other.db "CREATE TABLE t(x)"
"$PMUTOP" -r other.db -b > /dev/null 2> err.out
expect_eq "another SQLite file exit" $? 1
expect_grep "another SQLite file said" "not a pmutop recording" err.out
cp range.pmrec future.pmrec
sqlite3 future.pmrec "UPDATE meta SET value = '99' WHERE key = 'version'"
"$PMUTOP" -r future.pmrec -b > /dev/null 2> err.out
expect_eq "future version exit" $? 1
expect_grep "future version said" "format version 99; this pmutop reads up to version 1" err.out
"$PMUTOP" -r range.pmrec -f ucf:src_loc_cpu=1 -b > /dev/null 2> err.out
expect_eq "filters on a replay: usage error" $? 2

# a full disk: the run goes on, the recording says why it stopped, the exit says so
if unshare -m true 2> /dev/null; then
    unshare -m sh -c "mkdir -p small && mount -t tmpfs -o size=256k tmpfs small &&
        '$PMUTOP' --demo -b -n 40 --fake-clock --format csv -w small/full.pmrec > full.csv 2> full.err; echo \$? > full.rc"
    expect_eq "full disk: exit status" "$(cat full.rc)" 1
    expect_grep "full disk: said" "recording small/full.pmrec stopped: .*full" full.err
    expect_eq "full disk: every interval still printed" "$(tail -n +2 full.csv | cut -d, -f1 | uniq | wc -l)" 40
else
    skip_check "no mount namespace here: the full-disk path is not exercised"
fi
# SQLite and zstd are loaded only to record or replay: without them pmutop still counts,
# and a recording names what is missing (a private mount hides the library)
lib=$(ldconfig -p | awk '$1 == "libsqlite3.so.0" { print $NF; exit }')
if [ -n "$lib" ] && unshare -m true 2> /dev/null; then
    : > nolib
    unshare -m sh -c "mount --bind nolib '$(readlink -f "$lib")' &&
        '$PMUTOP' --demo -b -n 2 --fake-clock --format csv > nolib.csv 2> nolib.err; echo \$? > nolib.rc &&
        '$PMUTOP' --demo -b -n 2 --fake-clock --format csv -w nolib.pmrec > /dev/null 2> nolib-rec.err; echo \$? > nolib-rec.rc"
    expect_eq "no SQLite: counting exits 0" "$(cat nolib.rc)" 0
    expect_eq "no SQLite: every interval printed" "$(tail -n +2 nolib.csv | cut -d, -f1 | uniq | wc -l)" 2
    expect_eq "no SQLite: recording exits 1" "$(cat nolib-rec.rc)" 1
    expect_grep "no SQLite: said" "recording needs libsqlite3.so.0 .*Debian: libsqlite3-0" nolib-rec.err
else
    skip_check "no mount namespace here (or no libsqlite3.so.0 in ldconfig): SQLite's absence is not exercised"
fi
# a replay is of the recorded machine: -P perf picks perf's catalogue by the recorded CPU
# (it looked at this host's)
"$PMUTOP" --demo spr -b -n 2 --fake-clock --format csv -w sprcpu.pmrec > /dev/null 2>&1
"$PMUTOP" -r sprcpu.pmrec -b -P perf > sprcpu.out 2> sprcpu.err
expect_eq "-r of a Sapphire Rapids recording, -P perf: exit" $? 0
grep -q "has no profile for this CPU" sprcpu.err && fail "-r -P perf looked at this host's CPU: $(cat sprcpu.err)" || ok
expect_grep "-r -P perf: the recorded CPU's catalogue" "tma_retiring" sprcpu.out
# recorded with -M TopdownL1, recomputed through the whole catalogue (-P perf, -P FILE):
# what the recorded counters allow (TopdownL1, as the recording's own replay gives it), the
# rest left out and said once, not "nothing could be counted"
"$PMUTOP" --demo spr -M TopdownL1 -b -n 2 --fake-clock --format csv -w l1.pmrec > /dev/null 2>&1
"$PMUTOP" -r l1.pmrec -b --format csv > l1-own.csv 2> /dev/null
own=$(awk -F, '$4 == "tma_retiring" && $5 == "all" { print $6; exit }' l1-own.csv)
catalogue=$(dirname "$PMUTOP")/catalogue/sapphirerapids.ini
[ -f "$catalogue" ] || catalogue="$TOP_SRCDIR/catalogue/sapphirerapids.ini"
for p in perf "$catalogue"; do
    "$PMUTOP" -r l1.pmrec -b -P "$p" --format csv > l1-p.csv 2> l1-p.err
    expect_eq "-r of a TopdownL1 recording through -P $(basename "$p"): exit" $? 0
    expect_eq "-r -P $(basename "$p"): tma_retiring recomputed as recorded" \
        "$(awk -F, '$4 == "tma_retiring" && $5 == "all" { print $6; exit }' l1-p.csv)" "${own:-none}"
    expect_grep "-r -P $(basename "$p"): what the recording lacks is said" "counters of these profiles are not in the recording" l1-p.err
done
"$PMUTOP" -r l1.pmrec -b -P perf -n 1 > l1-p.txt 2> /dev/null
expect_grep "-r -P perf, text: the values left out said once" "n/a [0-9]* values left out, the first .*: not in the recording" l1-p.txt
expect_eq "-r -P perf, text: no row says n/a for a counter not recorded" \
    "$(grep -c 'n/a  *(not in the recording' l1-p.txt)" 0

finish
