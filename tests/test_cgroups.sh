#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Which cgroup is busy (perf stat -a -G): -G's cgroups and the root beside them, or the
# top N by CPU (--cgroups), in batch and in the monitor's G view.
# Live (as root): a cgroup made for the test in the hierarchy perf counts by (cgroup2, or
# a perf_event v1 hierarchy mounted for it), a busy loop in it; its CPU% (its task-clock
# on every CPU) against perf stat -a -G's over the same seconds (within 15 % and 5
# points); -C 0 counts on one CPU of N, 1/N of the counters; a low ulimit -n says "too
# many open files", the cgroups still listed, never a failed run. Everything made is
# removed, the loop ended by its PID.
# A task's row names its cgroup (the busy loop's: the test's). Simulated (the SPR demo's
# cgroups, its tasks' `cgroup =`): a task's cgroup one of the rows; a parent's CPU% the sum of
# its children's, its IPC between theirs; the cost a counter per CPU and event; CSV's
# cgroup column; the view at 80x24 and 120x40 sorted and filtered. Bad -G: said, exit 2.
# Recorded (-w with --cgroups): replayed as shown in batch and in the view; a recording
# without them says so.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is needed to read the JSON"
. "$TOP_SRCDIR/tests/tui_lib.sh"
cd "$scratch"
busy="" cgdir="" mounted=""
cleanup() {
    T kill-server 2> /dev/null
    [ -n "$busy" ] && kill "$busy" 2> /dev/null && wait "$busy" 2> /dev/null
    [ -n "$cgdir" ] && find "$cgdir" -mindepth 1 -depth -type d -exec rmdir {} \; 2> /dev/null
    [ -n "$cgdir" ] && rmdir "$cgdir" 2> /dev/null
    [ -n "$mounted" ] && umount "$mounted" 2> /dev/null && rmdir "$mounted"
    rm -rf "$scratch"
}
trap cleanup EXIT

# ---- live: a cgroup of the test's, counted as perf stat -G counts it ----
name="pmutop-test-$$"
if [ "$(id -u)" != 0 ]; then
    skip_check "not root: no cgroup can be made for the live checks"
elif [ "$(stat -f -c %T /sys/fs/cgroup 2> /dev/null)" = cgroup2fs ]; then
    cgdir="/sys/fs/cgroup/$name" # perf_event is implicit in cgroup2
elif awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { found = 1 } END { exit !found }' /proc/self/mounts; then
    cgdir="$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/self/mounts)/$name"
elif mkdir "$scratch/perf_event" && mount -t cgroup -o perf_event none "$scratch/perf_event" 2> /dev/null; then
    mounted="$scratch/perf_event"
    cgdir="$mounted/$name"
else
    rmdir "$scratch/perf_event" 2> /dev/null
    skip_check "no perf_event cgroup hierarchy here and none can be mounted"
fi
if [ -n "$cgdir" ] && mkdir "$cgdir"; then
    sh -c "echo \$\$ > '$cgdir/cgroup.procs' && exec sh -c 'while :; do :; done'" &
    busy=$!
    wait_until "the busy loop in its cgroup" 5 grep -qx "$busy" "$cgdir/cgroup.procs"
    if perf stat -a -e task-clock -G "$name" -- sleep 0.1 > /dev/null 2>&1; then
        perf stat -x, -a -e task-clock -G "$name" -o perf.csv -- sleep 2 2> /dev/null &
        perfpid=$!
    else
        perfpid=""
        skip_check "perf stat -G cannot count here: CPU% against perf"
    fi
    "$PMUTOP" -b -P host -n 4 -d 0.5 -G "$name" --format json > live.json 2> live.err
    expect_eq "-G: exit status" $? 0
    [ -n "$perfpid" ] && wait "$perfpid"
    python3 - live.json "$name" perf.csv <<'PY' > live.out 2>&1
import json, os, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
rows = frames[-1]["cgroups"]
assert [c["cgroup"] for c in rows] == ["/", "/" + sys.argv[2]], rows # the root, the machine's whole, first
assert rows[1]["procs"] == 1 and frames[-1]["cgroup_fds"] > 0, (rows, frames[-1]["cgroup_fds"])
mine = [c["cpu_pct"] for f in frames for c in f["cgroups"] if c["cgroup"] != "/"]
assert None not in mine, mine # counted from the start, as perf stat -G
cpu = sum(mine) / len(mine)
root = [c["cpu_pct"] for f in frames for c in f["cgroups"] if c["cgroup"] == "/"]
assert all(r >= m - 1 for r, m in zip(root, mine)), (root, mine) # a child within its parent
if os.path.exists(sys.argv[3]):
    for l in open(sys.argv[3]):
        f = l.split(",")
        if len(f) > 6 and f[2].startswith("task-clock"):
            perf = float(f[0]) / 2e3 * 100 # ms over 2 s: a CPU percent
            assert abs(cpu - perf) <= 0.15 * perf + 5, "CPU%% %.1f, perf stat -a -G %.1f" % (cpu, perf)
            print("cgroup %s: CPU%% %.1f, perf stat -a -G %.1f" % (sys.argv[2], cpu, perf))
print("ok")
PY
    if tail -n 1 live.out | grep -qx ok; then ok; else fail "live -G: $(cat live.out) $(cat live.err)"; fi
    cat live.out
    # a task's row says its cgroup, in the hierarchy perf counts by
    "$PMUTOP" -b -P host -n 2 -d 0.3 --tasks 8 --format json > tasks.json
    python3 - tasks.json "$busy" "$name" <<'PY' && ok || fail "--tasks: the busy loop's cgroup: $(tail -c 400 tasks.json)"
import json, sys
rows = [t for t in json.loads(open(sys.argv[1]).read().splitlines()[-1])["tasks"] if t["pid"] == int(sys.argv[2])]
assert rows and rows[0].get("cgroup") == "/" + sys.argv[3], rows
PY
    # -C: the cgroups counted on those CPUs only, a counter fewer per CPU left out
    ncpu=$(grep -c '^processor' /proc/cpuinfo)
    "$PMUTOP" -b -P host -n 1 -d 0.2 -G "$name" --format json > all.json
    "$PMUTOP" -b -P host -n 1 -d 0.2 -G "$name" -C 0 --format json > one.json
    python3 - all.json one.json "$ncpu" <<'PY' && ok || fail "-G -C 0: $(tail -c 300 one.json)"
import json, sys
every = json.loads(open(sys.argv[1]).read().splitlines()[-1])["cgroup_fds"]
one = json.loads(open(sys.argv[2]).read().splitlines()[-1])["cgroup_fds"]
assert one * int(sys.argv[3]) == every, (one, every, sys.argv[3])
PY
    # descriptors run out: the rows say so, the cgroups are still listed, the run goes on
    subs=""
    for k in a b c d e f g h; do mkdir "$cgdir/$k" && subs="$subs${subs:+,}$name/$k"; done
    (ulimit -n 20 && exec "$PMUTOP" -b -P host -n 1 -d 0.2 -G "$subs" --format json) > few.json 2> few.err
    expect_eq "-G under ulimit -n 20: exit status" $? 0
    python3 - few.json <<'PY' && ok || fail "-G under ulimit -n 20: $(tail -c 400 few.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
assert len(last["cgroups"]) == 9, len(last["cgroups"])
assert any("too many open files" in (c.get("why") or "") for c in last["cgroups"]), last["cgroups"][:3]
assert [c["procs"] for c in last["cgroups"] if c["cgroup"] == "/"][0] > 1, last["cgroups"] # still listed
PY
    for k in a b c d e f g h; do rmdir "$cgdir/$k"; done
    # a cgroup named with control bytes: shown escaped, never sent to the terminal
    evil=$(printf 'e\033[2Jvil')
    mkdir "$cgdir/$evil"
    "$PMUTOP" -b -P host -n 1 -d 0.2 -G "$name/$evil" > evil.txt 2>&1
    expect_eq "-G a cgroup of control bytes: exit status" $? 0
    if grep -q "$(printf '\033')" evil.txt; then fail "-G a cgroup of control bytes: a control byte reached the text"; else ok; fi
    expect_grep "-G a cgroup of control bytes: shown escaped" 'e\\x1b\[2Jvil' evil.txt
    rmdir "$cgdir/$evil"
    "$PMUTOP" -b -P host -n 1 -d 0.2 -G "$name/nope" > /dev/null 2> bad.err
    expect_eq "-G a cgroup that is not: usage error" $? 2
    expect_grep "-G a cgroup that is not: said" "no such cgroup" bad.err
    kill "$busy"
    wait "$busy" 2> /dev/null
    busy=""
    rmdir "$cgdir"
    expect_eq "the test's cgroup removed" "$(test -d "$cgdir" && echo left)" ""
    cgdir=""
elif [ -n "$cgdir" ]; then
    skip_check "$cgdir cannot be made (a read-only cgroup file system?): no live checks"
    cgdir=""
fi

# ---- the simulated machine's cgroups ----
"$PMUTOP" --demo spr -b -n 2 --fake-clock --cgroups -M core.ipc,TopdownL1 --format json > sim.json
expect_eq "--demo spr --cgroups: exit status" $? 0
python3 - sim.json <<'PY' && ok || fail "--demo spr --cgroups: $(tail -c 600 sim.json)"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert all(f["cgroups"][0]["cpu_pct"] is not None for f in frames), "the first interval counted"
rows = {c["cgroup"]: c for c in frames[-1]["cgroups"]}
cpus = [c["cpu_pct"] for c in frames[-1]["cgroups"]]
assert cpus == sorted(cpus, reverse=True), cpus
def parent(p):
    return "/" if p.count("/") == 1 else p.rsplit("/", 1)[0]
kids = {}
for p in rows:
    if p != "/":
        kids.setdefault(parent(p), []).append(rows[p])
assert "/kubepods.slice/pod-stream" in rows and len(kids["/system.slice"]) == 3, sorted(rows)
for p, ks in kids.items(): # a cgroup counts its descendants: its CPU their sum, its IPC between theirs
    assert rows[p]["procs"] == sum(k["procs"] for k in ks), (p, rows[p], ks)
    if p == "/": # the root is the machine: its tasks' cgroups a part of it
        assert rows[p]["cpu_pct"] >= sum(k["cpu_pct"] for k in ks) - 1e-6, (rows[p], ks)
        continue
    assert abs(rows[p]["cpu_pct"] - sum(k["cpu_pct"] for k in ks)) < 1e-6 * rows[p]["cpu_pct"] + 1e-9, (p, rows[p], ks)
    assert min(k["ipc"] for k in ks) - 1e-9 <= rows[p]["ipc"] <= max(k["ipc"] for k in ks) + 1e-9, (p, rows[p], ks)
# ... and the machine is what the panes count, on the same interval: its IPC the core pane's
# (perf's tma_info_thread_ipc), its retiring and backend bound perf's TMA level 1, and its
# frontend bound and bad speculation theirs together (perf moves the frontend's dropped
# uops, INT_MISC.UOP_DROPPING, to bad speculation; the four metrics' split does not)
machine = {m["metric"]: m["value"] for m in frames[-1]["metrics"] if m["instance"] == "all"}
root = rows["/"]
assert abs(root["ipc"] - machine["core.ipc"]) <= 0.01 * machine["core.ipc"], (root, machine)
# its share of the machine's cycles (the session's own cycles counters on every CPU) is
# all of them, and its children's a part
assert abs(root["cycles_share"] - 100) <= 1, root
assert sum(k["cycles_share"] for k in kids["/"]) <= root["cycles_share"] + 1e-6, kids["/"]
assert abs(root["retiring"] - machine["tma_retiring"]) <= 0.5, (root, machine)
assert abs(root["backend_bound"] - machine["tma_backend_bound"]) <= 0.5, (root, machine)
assert abs(root["frontend_bound"] + root["bad_speculation"] - machine["tma_frontend_bound"] - machine["tma_bad_speculation"]) <= 0.5, (root, machine)
# TopDown level 1 (the demo's cores have perf metrics: its tree's cpu PMU lists slots and
# topdown-*): a row's four shares sum to 100 %, a parent's lie between its children's
# (their slots summed), and the streaming container is the backend-bound one
td = ("retiring", "bad_speculation", "frontend_bound", "backend_bound")
for c in rows.values():
    assert abs(sum(c[k] for k in td) - 100) < 1e-6, c
for p, ks in kids.items():
    for k in td:
        assert p == "/" or min(x[k] for x in ks) - 1e-9 <= rows[p][k] <= max(x[k] for x in ks) + 1e-9, (p, k, rows[p], ks)
assert rows["/kubepods.slice"]["backend_bound"] > rows["/system.slice"]["backend_bound"], rows
# the cost: a counter per CPU and event for each cgroup: the generic five, and slots with
# the four metrics
per = frames[-1]["cgroup_fds"] / (10 * len(rows))
assert per == int(per) and per > 1, frames[-1]["cgroup_fds"]
print(int(per))
PY
# the SPR model on its tree without slots (a core without perf metrics): the model's
# TopDown is not counted, as the live probe would not open it
cp -r "$TOP_SRCDIR/profiles/machines/spr" noslots
rm noslots/sys/bus/event_source/devices/cpu/events/slots
"$PMUTOP" --sim --sysfs-root noslots --model noslots/model.ini -b -n 2 --fake-clock --cgroups=2 -M core.ipc \
    --format json > noslots.json 2> noslots.err
python3 - noslots.json <<'PY' && ok || fail "a tree without slots: TopDown counted: $(tail -c 400 noslots.json) $(cat noslots.err)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
assert last["cgroups"] and all("retiring" not in c and c["ipc"] is not None for c in last["cgroups"]), last["cgroups"]
PY
# a cgroup whose name holds control bytes (a directory's name may hold any byte): JSON
# and CSV carry it escaped, never raw
printf '\033]0;owned\007' > esc.txt
sed -i "s|^cgroup = kubepods.slice/pod-stream/stream|cgroup = kubepods.slice/pod-$(cat esc.txt)stream|" noslots/model.ini
for fmt in json csv; do
    "$PMUTOP" --sim --sysfs-root noslots --model noslots/model.ini -b -n 2 --fake-clock --cgroups -M core.ipc \
        --format $fmt > "esc.$fmt" 2> esc.err
    expect_eq "--format $fmt, a cgroup named with control bytes: exit" $? 0
    if grep -q "$(printf '\033')\|$(printf '\007')" "esc.$fmt"; then fail "--format $fmt: a control byte of a cgroup's name reached the output"; else ok; fi
    expect_grep "--format $fmt: the cgroup escaped, there" 'pod-\\*x1b\]0;owned' "esc.$fmt"
done
# no perf metrics (Tegra410's Neoverse cores): no TopDown figures, and the cost the five
[ -d "$TOP_SRCDIR/profiles/machines/tegra410/sys/bus/event_source/devices/cpu" ] &&
    fail "the Tegra410 tree has an Intel cpu PMU: the check below means nothing" || ok
"$PMUTOP" --demo -b -n 2 --fake-clock --cgroups=2 --format json > arm.json
python3 - arm.json <<'PY' && ok || fail "--demo --cgroups: TopDown where the CPU has no perf metrics: $(tail -c 400 arm.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
assert all("retiring" not in c and c["ipc"] is not None for c in last["cgroups"]), last["cgroups"]
assert last["cgroup_fds"] % (5 * len(last["cgroups"])) == 0, last["cgroup_fds"]
PY
# ... and its root is the machine as the Cores (Arm) pane counts it
"$PMUTOP" --demo -b -n 2 --fake-clock --cgroups=2 -M core.arm_ipc --format json > armipc.json
python3 - armipc.json <<'PY' && ok || fail "--demo --cgroups: the root is not the machine: $(tail -c 400 armipc.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
machine = {m["metric"]: m["value"] for m in last["metrics"] if m["instance"] == "all"}
root = [c for c in last["cgroups"] if c["cgroup"] == "/"][0]
assert abs(root["ipc"] - machine["core.arm_ipc"]) <= 0.01 * machine["core.arm_ipc"], (root, machine)
PY
# each task's row names its cgroup, a row of the cgroups' whose CPU holds the task's
"$PMUTOP" --demo spr -b -n 2 --fake-clock --cgroups --tasks 5 -M core.ipc --format json > both.json
python3 - both.json <<'PY' && ok || fail "--tasks with --cgroups: a task's cgroup: $(tail -c 600 both.json)"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
cg = {c["cgroup"]: c for c in last["cgroups"]}
for t in last["tasks"]:
    assert t["cgroup"] in cg, (t, sorted(cg))
    assert cg[t["cgroup"]]["cpu_pct"] >= t["cpu_pct"] - 1e-6, (t, cg[t["cgroup"]])
assert {t["cgroup"] for t in last["tasks"]} >= {"/kubepods.slice/pod-stream/stream", "/init.scope"}, last["tasks"]
PY
"$PMUTOP" --demo spr -b -n 1 --fake-clock -G /kubepods.slice/pod-stream,system.slice/ -M core.ipc --format csv > sim.csv
python3 - sim.csv <<'PY' && ok || fail "-G --format csv: $(head -c 300 sim.csv)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert "cgroup" in rows[0] and "pid" not in rows[0], rows[0]
cg = [r for r in rows if r["profile"] == "cgroups"]
assert {r["cgroup"] for r in cg} == {"/", "/kubepods.slice/pod-stream", "/system.slice"}, cg[:3]
assert all(r["cgroup"] == "" for r in rows if r["profile"] != "cgroups")
ipc = {r["cgroup"]: float(r["value"]) for r in cg if r["metric"] == "cgroup.ipc"}
assert ipc["/system.slice"] > ipc["/kubepods.slice/pod-stream"], ipc # the service beside the streaming job
PY
"$PMUTOP" --demo spr -b -n 1 --fake-clock -G nope > /dev/null 2> bad.err
expect_eq "-G nope: usage error" $? 2
expect_grep "-G nope: the model's cgroups named" "no such cgroup in the simulated machine (its model's: /, " bad.err
for bad in "," "a,,b" ""; do
    "$PMUTOP" --demo spr -b -n 1 -G "$bad" > /dev/null 2> bad.err
    expect_eq "-G '$bad': usage error" $? 2
    expect_grep "-G '$bad': said" "want cgroup names, comma-separated" bad.err
done
"$PMUTOP" -b -n 1 -G / -p 1 > /dev/null 2> bad.err
expect_eq "-G with -p: usage error" $? 2
expect_grep "-G with -p: said" "counts cgroups on every CPU" bad.err
"$PMUTOP" --demo spr -b -n 1 --cgroups=0 > /dev/null 2> bad.err
expect_eq "--cgroups=0: usage error" $? 2
expect_grep "--cgroups=0: said" "want 1 to 200 cgroups" bad.err

# ---- the view ----
for size in "80 24" "120 40"; do
    PMUTOP_ARGS="--demo spr -d 0.5"
    # shellcheck disable=SC2086
    start $size LANG=C.UTF-8 TERM=xterm-256color
    see "$size: the monitor" "TopDown"
    keys G
    see "$size: G opens the view, its cost said" "Cgroups: top 9 by CPU, [0-9]* counters open"
    see "$size: the root first, counted" "[0-9][0-9.]* *5 .* / *│"
    sort_by IPC && ok || fail "$size: > does not reach the IPC column"
    screen
    first=$(grep -m1 -E "│ *[0-9.]+ +[0-9]+ +[0-9.]+ " "$scratch/screen.txt" | awk '{ print $(NF - 1) }')
    expect_eq "$size: by IPC, the service (2.6) leads" "$first" "/system.slice/api-server.service"
    keys / s y s Enter
    see "$size: filtered by path" "/system.slice/postgresql.service"
    unseen "$size: the filter leaves the others out" "kubepods"
    keys H
    see "$size: H said, not done" "a cgroup's row is the cgroup"
    keys G
    unseen "$size: G closes the view" "Cgroups: top"
    keys q
    quit_ok "$size: quit"
done
# the Tasks view names each task's cgroup, and filters by it
PMUTOP_ARGS="--demo spr -d 0.5"
start 120 40 LANG=C.UTF-8
see "T view: the monitor" "TopDown"
keys T
see "T view: a task's cgroup beside its command" "stream  *[^ ]*/kubepods.slice/pod-stream/stream"
keys / k u b e Enter
see "T view: filtered by cgroup" "4211 batch"
unseen "T view: the filter leaves the services out" "api-server"
keys Escape q # Esc closes the view, q quits
quit_ok "T view: quit"
# -G in the monitor: it opens on the Cgroups view of those, the root beside them
PMUTOP_ARGS="--demo spr -d 0.5 -G system.slice"
start 100 30 LANG=C.UTF-8
see "-G: the monitor opens on the Cgroups view" "Cgroups: top 2 by CPU"
see "-G: ... the cgroup named" "1573.0 *3 .* /system.slice"
keys G
see "-G: G closes it, the panes under it" "TopDown"
keys q
quit_ok "-G monitor: quit"
# a recording made without them: G says so
"$PMUTOP" --demo spr -b -n 2 --fake-clock -w plain.pmrec > /dev/null
PMUTOP_ARGS="-r plain.pmrec"
start 100 30 LANG=C.UTF-8
see "replay: the monitor" "REPLAY"
keys G
see "replay without cgroups: G says so" "no cgroups in this recording"
keys q
quit_ok "replay: quit"
# ---- the cgroups in a recording: kept as shown, replayed as shown ----
"$PMUTOP" --demo spr -b -n 3 --fake-clock --cgroups=4 -M core.ipc --format json -w cgroups.pmrec > rec.json
expect_eq "--cgroups with -w: exit status" $? 0
"$PMUTOP" -r cgroups.pmrec -b --cgroups --format json > replayed.json
expect_eq "-r --cgroups: exit status" $? 0
python3 - rec.json replayed.json <<'PY' && ok || fail "-r --cgroups: the rows are not those recorded: $(tail -c 400 replayed.json)"
import json, sys
rec = [json.loads(l)["cgroups"] for l in open(sys.argv[1])]
rep = [json.loads(l)["cgroups"] for l in open(sys.argv[2])]
assert rec[1:] == rep[1:] and len(rec[-1]) == 4 and rec[-1][0]["cgroup"] == "/", (rec, rep)
PY
"$PMUTOP" -r cgroups.pmrec -b --cgroups=2 --format json > top2.json
python3 - top2.json <<'PY' && ok || fail "-r --cgroups=2: not the top two recorded: $(tail -c 300 top2.json)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][-1]["cgroups"]
assert [c["cgroup"] for c in rows] == ["/", "/kubepods.slice"], rows
PY
"$PMUTOP" record --info cgroups.pmrec > info.txt
expect_grep "record --info: the cgroups kept said" "^cgroups  *kept" info.txt
"$PMUTOP" record --info plain.pmrec > info.txt
expect_grep "record --info: none said" "^cgroups  *none" info.txt
"$PMUTOP" -r plain.pmrec -b --cgroups > /dev/null 2> none.err
expect_eq "-r --cgroups on a recording without cgroups: usage error" $? 2
expect_grep "-r --cgroups on a recording without cgroups: said" "this recording kept no cgroups" none.err
"$PMUTOP" -r cgroups.pmrec -b -G / > /dev/null 2> none.err
expect_eq "-r -G: usage error" $? 2
expect_grep "-r -G: said" "a replay shows the cgroups as recorded" none.err
# the monitor's Cgroups view on a replay: the recorded rows
PMUTOP_ARGS="-r cgroups.pmrec"
start 100 30 LANG=C.UTF-8
see "replay: the monitor" "REPLAY"
keys G
see "replay: G opens the Cgroups view" "Cgroups: top"
keys Left # a step: that sample's cgroups as recorded
see "replay: the recorded rows" "2660.0 *1 .*/kubepods.slice"
see "replay: ... said to be as recorded" "Cgroups: top 4 by CPU, as recorded"
keys G q
quit_ok "replay view: quit"
finish
