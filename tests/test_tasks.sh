#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Who is busy: the top tasks by CPU time (batch --tasks N, the monitor's T view), each
# with its core figures where its counters open. Live: a busy loop this test started
# is in the table, its CPU% (its task-clock) against perf stat -p's CPUs utilized on the
# same process over about the same seconds (within 15 % and 5 points: on a loaded host a
# loop's share of a CPU moves within the half second the two windows differ; it is among
# the top five whatever else the host runs); a low ulimit -n leaves tasks said "too many
# open files", never a failed run. Simulated (the SPR demo's tasks): ordered by
# CPU, the cost said (a counter per event and thread: 5 events, 10 with perf metrics), sorted and filtered in
# the view at 80x24 and 120x40, a task that ends leaving the table. A row a thread
# (--per-thread, the view's H): live, a process of two busy threads shows its threads'
# TIDs as /proc lists them, each counted alone against perf stat --per-thread; simulated,
# each task's threads (TIDs pid.., an equal share each) and the cost a counter an event.
# Recorded (-w with --tasks): replayed as they were shown, threads too, in batch and the
# view; a recording without tasks says so; junk rows in a file are read as text.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is needed to read the JSON"
. "$TOP_SRCDIR/tests/tui_lib.sh"
cd "$scratch"
busy=""
trap 'T kill-server 2>/dev/null; [ -n "$busy" ] && kill "$busy" 2>/dev/null; rm -rf "$scratch"' EXIT
sh -c 'while :; do :; done' &
busy=$!

# ---- live: the busy loop in the table, its CPU% as perf counts it ----
if command -v perf > /dev/null && perf stat -e task-clock -p "$busy" -- sleep 0.1 > /dev/null 2>&1; then
    perf stat -x, -e task-clock -p "$busy" -o perf.csv -- sleep 2 2> /dev/null &
    perfpid=$!
else
    perfpid=""
    skip_check "perf stat -p cannot count here: CPU% against perf"
fi
"$PMUTOP" -b -P host -n 4 -d 0.5 --tasks 5 --format json > live.json 2> live.err
expect_eq "--tasks 5: exit status" $? 0
[ -n "$perfpid" ] && wait "$perfpid"
python3 - live.json "$busy" perf.csv <<'PY' > live.out 2>&1
import json, os, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
last = frames[-1]
busy = int(sys.argv[2])
# (among the top five: a CI host may be busier than one loop)
assert any(t["pid"] == busy for t in last["tasks"]), "the busy loop is not in the top: %s" % last["tasks"]
assert len(last["tasks"]) == 5 and last["task_fds"] > 0, (len(last["tasks"]), last["task_fds"])
mine = [t["cpu_pct"] for f in frames[1:] for t in f["tasks"] if t["pid"] == busy]
cpu = sum(mine) / len(mine)
if os.path.exists(sys.argv[3]):
    for l in open(sys.argv[3]):
        f = l.split(",")
        if len(f) > 6 and f[2].startswith("task-clock"):
            perf = float(f[5]) * 100 # CPUs utilized
            assert abs(cpu - perf) <= 0.15 * perf + 5, "CPU%% %.1f, perf stat -p %.1f" % (cpu, perf)
            print("busy loop: CPU%% %.1f, perf stat -p %.1f" % (cpu, perf))
print("ok")
PY
if tail -n 1 live.out | grep -qx ok; then ok; else fail "live --tasks: $(cat live.out)"; fi
cat live.out

# a low descriptor limit: tasks said, the table still listed, the run fine
(ulimit -n 24 && exec "$PMUTOP" -b -P host -n 2 -d 0.3 --tasks 30 --format json) > few.json 2> few.err
expect_eq "ulimit -n 24: exit status" $? 0
python3 - few.json <<'PY' && ok || fail "ulimit -n 24: $(tail -c 400 few.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
assert len(last["tasks"]) == 30, len(last["tasks"])
assert any("too many open files" in (t.get("why") or "") for t in last["tasks"]), last["tasks"][:3]
PY

# ---- a row a thread (--per-thread): two busy threads of one process ----
python3 -c '
import threading
def spin():
    while True:
        pass
for _ in range(2):
    threading.Thread(target=spin, daemon=True).start()
threading.Event().wait()
' &
threaded=$!
i=0 # its threads started (perf -p attaches to the threads there are)
while [ "$(ls "/proc/$threaded/task" 2> /dev/null | wc -l)" -lt 3 ] && [ $i -lt 100 ]; do
    sleep 0.05
    i=$((i + 1))
done
trap 'T kill-server 2>/dev/null; [ -n "$busy" ] && kill "$busy" 2>/dev/null; kill "$threaded" 2>/dev/null; rm -rf "$scratch"' EXIT
if command -v perf > /dev/null && perf stat -e task-clock -p "$threaded" -- sleep 0.1 > /dev/null 2>&1; then
    perf stat -x, --per-thread -e task-clock -p "$threaded" -o perthread.csv -- sleep 2 2> /dev/null &
    perfpid=$!
else
    perfpid=""
    skip_check "perf stat --per-thread cannot count here: each thread's CPU% against perf"
fi
"$PMUTOP" -b -P host -n 4 -d 0.5 --tasks 8 --per-thread --format json > threads.json 2> threads.err
expect_eq "--per-thread: exit status" $? 0
[ -n "$perfpid" ] && wait "$perfpid"
ls "/proc/$threaded/task" > tids.txt
python3 - threads.json "$threaded" tids.txt perthread.csv <<'PY' > threads.out 2>&1
import json, os, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
proc, tids = int(sys.argv[2]), {int(t) for t in open(sys.argv[3]).read().split()}
rows = [t for t in frames[-1]["tasks"] if t["pid"] == proc]
# its two busy threads, each a row of its own: a TID of /proc's list
assert len(rows) >= 2 and all("tid" in t for t in rows), frames[-1]["tasks"]
assert {t["tid"] for t in rows} <= tids and len({t["tid"] for t in rows}) == len(rows), (rows, tids)
# each thread's own counters (no inherit): its task-clock, its CPU% its own
mine = {}
for f in frames[1:]:
    for t in f["tasks"]:
        if t["pid"] == proc and t["cpu_pct"] is not None:
            mine.setdefault(t["tid"], []).append(t["cpu_pct"])
# (its two busiest threads, whatever else this host runs beside them)
means = sorted(((sum(v) / len(v), tid) for tid, v in mine.items()), reverse=True)[:2]
busy = {tid: cpu for cpu, tid in means if cpu > 0}
assert len(busy) == 2, mine
if os.path.exists(sys.argv[4]):
    perf = {}
    for l in open(sys.argv[4]):
        f = l.split(",")
        if len(f) > 3 and f[3].startswith("task-clock") and f[1][:1].isdigit(): # not "<not counted>"
            perf[int(f[0].rsplit("-", 1)[1])] = float(f[1]) / 2e3 * 100 # ms over 2 s: a CPU percent
    for tid, cpu in busy.items():
        assert tid in perf, (tid, perf)
        assert abs(cpu - perf[tid]) <= 0.25 * perf[tid] + 5, "TID %d: CPU%% %.1f, perf stat --per-thread %.1f" % (tid, cpu, perf[tid])
        print("thread %d: CPU%% %.1f, perf stat --per-thread %.1f" % (tid, cpu, perf[tid]))
print("ok")
PY
if tail -n 1 threads.out | grep -qx ok; then ok; else fail "live --per-thread: $(cat threads.out)"; fi
cat threads.out
kill "$threaded"
wait "$threaded" 2> /dev/null
"$PMUTOP" --demo spr -b -n 1 --per-thread > /dev/null 2> bad.err
expect_eq "--per-thread without --tasks: usage error" $? 2
expect_grep "--per-thread without --tasks: said" "it needs -b --tasks N" bad.err

# ---- the simulated machine's tasks ----
# a task's events: the generic five, and slots with the four TopDown metrics where the
# tree's cpu PMU has perf metrics (the SPR demo's does)
ev=5
[ -f "$TOP_SRCDIR/profiles/machines/spr/sys/bus/event_source/devices/cpu/events/slots" ] && ev=10
"$PMUTOP" --demo spr -b -n 2 --fake-clock --tasks 3 -M core.ipc --format json > sim.json
python3 - sim.json "$ev" <<'PY' && ok || fail "--demo spr --tasks 3: $(tail -c 600 sim.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
names = [t["comm"] for t in last["tasks"]]
assert names == ["stream", "api-server", "postgres"], names
cpus = [t["cpu_pct"] for t in last["tasks"]]
assert cpus == sorted(cpus, reverse=True), cpus
# the cost: a counter per event and thread of each task counted
ev = int(sys.argv[2])
assert last["task_fds"] == ev * sum(t["threads"] for t in last["tasks"]), (last["task_fds"], last["tasks"])
# TopDown level 1 with perf metrics: the four shares of a task's slots sum to 100 %
td = ("retiring", "bad_speculation", "frontend_bound", "backend_bound")
assert all(abs(sum(t[k] for k in td) - 100) < 1e-6 for t in last["tasks"]) if ev == 10 else True, last["tasks"]
assert all(t["ipc"] is not None for t in last["tasks"]), last["tasks"]
PY
# a task's share of the machine's cycles: at the machine's clock (the SPR model's tasks
# run at its 2.4 GHz), its CPU over the machine's busy CPUs (the root cgroup's); the
# shares no more than the whole
"$PMUTOP" --demo spr -b -n 2 --fake-clock --tasks 3 --cgroups=1 -M core.ipc --format json > cyc.json
python3 - cyc.json <<'PY' && ok || fail "--tasks: the cycles share: $(tail -c 600 cyc.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
busy = last["cgroups"][0]["cpu_pct"]
assert last["cgroups"][0]["cgroup"] == "/", last["cgroups"]
for t in last["tasks"]:
    assert abs(t["cycles_share"] - 100 * t["cpu_pct"] / busy) <= 0.01 * t["cycles_share"] + 0.05, (t, busy)
assert sum(t["cycles_share"] for t in last["tasks"]) <= 100, last["tasks"]
PY
# a row a thread: the busiest task's threads, TIDs from its PID, an equal share each; a
# counter an event and thread counted
"$PMUTOP" --demo spr -b -n 2 --fake-clock --tasks 4 --per-thread -M core.ipc --format json > simth.json
python3 - simth.json sim.json "$ev" <<'PY' && ok || fail "--demo spr --tasks 4 --per-thread: $(tail -c 600 simth.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
whole = [json.loads(l) for l in open(sys.argv[2])][-1]["tasks"][0]
rows = last["tasks"]
assert [(t["pid"], t["tid"]) for t in rows] == [(4211, 4211 + k) for k in range(4)], rows
assert last["task_fds"] == int(sys.argv[3]) * len(rows), last["task_fds"]
assert abs(sum(t["cpu_pct"] for t in rows) * whole["threads"] / len(rows) - whole["cpu_pct"]) < 0.01 * whole["cpu_pct"], (rows, whole)
PY
# CSV: the task's pid and command in two columns more, each figure a row
"$PMUTOP" --demo spr -b -n 2 --fake-clock --tasks 2 -M core.ipc --format csv > sim.csv
python3 - sim.csv <<'PY' && ok || fail "--tasks 2 --format csv: $(head -c 300 sim.csv)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert "pid" in rows[0] and "comm" in rows[0], rows[0]
tasks = [r for r in rows if r["profile"] == "tasks"]
assert {(r["pid"], r["comm"]) for r in tasks} == {("4211", "stream"), ("2817", "api-server")}, tasks[:2]
assert all(r["pid"] == "" for r in rows if r["profile"] != "tasks")
ipc = {r["comm"]: float(r["value"]) for r in tasks if r["metric"] == "task.ipc" and r["value"]}
assert ipc and ipc["api-server"] > ipc["stream"], ipc
PY
"$PMUTOP" --demo spr -b -n 1 --tasks 0 > /dev/null 2> bad.err
expect_eq "--tasks 0: usage error" $? 2
expect_grep "--tasks 0: said" "want 1 to 200 tasks" bad.err

# ---- the view ----
for size in "80 24" "120 40"; do
    PMUTOP_ARGS="--demo spr -d 0.5"
    # shellcheck disable=SC2086
    start $size LANG=C.UTF-8 TERM=xterm-256color
    see "$size: the monitor" "TopDown"
    keys T
    see "$size: T opens the view, its cost said" "Tasks: top 5 by CPU, $((95 * ev)) counters open"
    see "$size: the busiest first" "4211 batch .* stream"
    sort_by IPC && ok || fail "$size: > does not reach the IPC column"
    see "$size: the service counted" "2817 svc .* 2\.60 "
    screen
    first=$(grep -m1 -E "│ *[0-9]+ [a-z]" "$scratch/screen.txt" | awk '{ print $2 }')
    expect_eq "$size: by IPC, api-server (2.6) leads" "$first" 2817
    keys / p o s t Enter
    see "$size: filtered by name" "1502 postgres"
    unseen "$size: the filter leaves the others out" "api-server"
    keys / Escape H
    see "$size: H shows threads (20 of the tasks' 95)" "Threads: top 20 by CPU"
    see "$size: ... a thread's TID and its process" "4212 batch .* 4211 .* stream"
    see "$size: ... a counter an event a thread" "$((20 * ev)) counters open"
    keys H
    see "$size: H again, processes" "Tasks: top 5 by CPU"
    keys T
    unseen "$size: T closes the view" "Tasks: top"
    keys q
    quit_ok "$size: quit"
done

# ---- the top tasks in a recording: kept as shown, replayed as shown ----
"$PMUTOP" --demo spr -b -n 3 --fake-clock --tasks 3 --format json -w tasks.pmrec > rec.json
expect_eq "--tasks with -w: exit status" $? 0
"$PMUTOP" -r tasks.pmrec -b --tasks 3 --format json > replayed.json
expect_eq "-r --tasks: exit status" $? 0
python3 - rec.json replayed.json <<'PY' && ok || fail "-r --tasks: the rows are not those recorded: $(tail -c 400 replayed.json)"
import json, sys
rec = [json.loads(l)["tasks"] for l in open(sys.argv[1])]
rep = [json.loads(l)["tasks"] for l in open(sys.argv[2])]
assert rec == rep and len(rec) == 3 and rec[-1][0]["comm"] == "stream", (rec, rep)
PY
"$PMUTOP" -r tasks.pmrec -b --tasks 2 --format json > top2.json
python3 - top2.json <<'PY' && ok || fail "-r --tasks 2: not the top two recorded: $(tail -c 300 top2.json)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][-1]["tasks"]
assert [t["comm"] for t in rows] == ["stream", "api-server"], rows
PY
"$PMUTOP" --demo spr -b -n 2 --fake-clock --tasks 4 --per-thread --format json -w threads.pmrec > /dev/null
"$PMUTOP" -r threads.pmrec -b --tasks 4 --format json > rthreads.json
python3 - rthreads.json <<'PY' && ok || fail "-r --tasks: a recording's threads: $(tail -c 400 rthreads.json)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][-1]["tasks"]
assert [(t["pid"], t["tid"]) for t in rows] == [(4211, 4211 + k) for k in range(4)], rows
PY
# a recording that kept none: --tasks said, not an empty table
"$PMUTOP" --demo spr -b -n 2 --fake-clock -w none.pmrec > /dev/null
"$PMUTOP" record --info tasks.pmrec > info.txt
expect_grep "record --info: the tasks kept said" "^tasks  *kept" info.txt
"$PMUTOP" record --info none.pmrec > info.txt
expect_grep "record --info: none said" "^tasks  *none" info.txt
"$PMUTOP" -r none.pmrec -b --tasks 3 > /dev/null 2> none.err
expect_eq "-r --tasks on a recording without tasks: usage error" $? 2
expect_grep "-r --tasks on a recording without tasks: said" "this recording kept no tasks" none.err
"$PMUTOP" -r tasks.pmrec -b --tasks 3 --per-thread > /dev/null 2> none.err
expect_eq "-r --per-thread: usage error" $? 2
if command -v sqlite3 > /dev/null; then
    # what a file says is read as text, never trusted: 1000 rows of one sample, a 10 kB
    # command with control bytes, numbers that are not, shares that are not; a table made
    # before (none)
    cp tasks.pmrec junk.pmrec
    sqlite3 junk.pmrec "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO tasks SELECT 2, 0, 'abc', -5, char(27) || '[2J' || printf('%.10000c', 'x'), NULL, 1e300, 'nan', x'00', NULL, NULL, printf('%.5000c', 'w'), char(27) || ']0;owned' || char(7), 'x', 1e300, -5, x'00', -1 FROM n;"
    "$PMUTOP" -r junk.pmrec -b --tasks 200 --format json > junk.json 2> junk.err
    expect_eq "-r a recording of junk task rows: exit status" $? 0
    python3 - junk.json <<'PY' && ok || fail "-r junk task rows: $(head -c 400 junk.json)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][1]["tasks"]
assert len(rows) == 200, len(rows) # the largest --tasks, whatever the file holds
junk = rows[-1]
assert junk["pid"] == 0 and len(junk["comm"]) <= 31 and junk["cpu_pct"] is None, junk
assert "\x1b" not in junk["cgroup"] and "\x07" not in junk["cgroup"], junk # its cgroup's controls escaped
td = ("retiring", "bad_speculation", "frontend_bound", "backend_bound")
assert all(junk.get(k) is None for k in td + ("cycles_share",)), junk # a share is a percentage, or none
PY
    "$PMUTOP" -r junk.pmrec -b --tasks 3 > junk.txt 2>&1
    if grep -q "$(printf '\033')" junk.txt; then fail "-r junk task rows: a control byte reached the text"; else ok; fi
else
    skip_check "junk task rows: the sqlite3 tool is not installed"
fi
# the monitor's Tasks view on a replay: the recorded rows
PMUTOP_ARGS="-r tasks.pmrec"
start 100 30 LANG=C.UTF-8
see "replay: the monitor" "REPLAY"
keys T
see "replay: T opens the Tasks view" "Tasks: top"
keys Left # a step: that sample's tasks as recorded
see "replay: the Tasks view shows the recorded rows" "2817 svc .* api-server"
see "replay: ... said to be as recorded, not a cost; no H (the rows are as recorded)" "Tasks: top 3 by CPU, as recorded (sort CPU%: < >, / filter, T Esc close)"
keys T q
quit_ok "replay view: quit"

# a task that ends leaves the table (live, the busy loop)
PMUTOP_ARGS="-P host -d 0.3"
start 100 30 LANG=C.UTF-8
keys T
see "live view: the busy loop listed" " $busy root "
kill "$busy"
wait "$busy" 2> /dev/null
unseen "live view: an ended task leaves the table" " $busy root "
busy=""
keys T q
quit_ok "live view: quit"
finish
