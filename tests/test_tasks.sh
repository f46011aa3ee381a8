#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Who is busy: the top tasks by CPU time (batch --tasks N, the monitor's T view), each
# with its core figures where its counters open. Live: a busy loop this test started
# is in the table, its CPU% (its task-clock) against perf stat -p's CPUs utilized on the
# same process over the same seconds (within 10 %; it is among the top five whatever else
# the host runs); a low ulimit -n leaves tasks said
# "too many open files", never a failed run. Simulated (the SPR demo's tasks): ordered by
# CPU, the cost said (a counter per event and thread: 5 events), sorted and filtered in
# the view at 80x24 and 120x40, a task that ends leaving the table.
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
            assert abs(cpu - perf) <= 0.10 * perf, "CPU%% %.1f, perf stat -p %.1f" % (cpu, perf)
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

# ---- the simulated machine's tasks ----
"$PMUTOP" --demo spr -b -n 2 --fake-clock --tasks 3 -M core.ipc --format json > sim.json
python3 - sim.json <<'PY' && ok || fail "--demo spr --tasks 3: $(tail -c 600 sim.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
names = [t["comm"] for t in last["tasks"]]
assert names == ["stream", "api-server", "postgres"], names
cpus = [t["cpu_pct"] for t in last["tasks"]]
assert cpus == sorted(cpus, reverse=True), cpus
# the cost: a counter per event (5) and thread of each task counted
assert last["task_fds"] == 5 * sum(t["threads"] for t in last["tasks"]), (last["task_fds"], last["tasks"])
assert all(t["ipc"] is not None for t in last["tasks"]), last["tasks"]
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
    see "$size: T opens the view, its cost said" "Tasks: top 5 by CPU, 475 counters open"
    see "$size: the busiest first" "4211 batch .* stream"
    keys '>' '>'
    see "$size: sorted by IPC, the service first" "sort IPC"
    screen
    first=$(grep -m1 -E "^ *│ *[0-9]+ " "$scratch/screen.txt" | awk '{ print $2 }')
    expect_eq "$size: by IPC, api-server (2.6) leads" "$first" 2817
    keys / p o s t Enter
    see "$size: filtered by name" "1502 postgres"
    unseen "$size: the filter leaves the others out" "api-server"
    keys T
    unseen "$size: T closes the view" "Tasks: top"
    keys q
    quit_ok "$size: quit"
done

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
