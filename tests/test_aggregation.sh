#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# perf stat's aggregation choices in batch text and CSV, on the same frames (the simulated
# Xeon, fake clock: every run below sees the same counts): the default prints
# what perf stat -a does (no member of a sum: no CPU's row), -A every CPU's too,
# --per-socket the sockets' and not the machine's; JSON carries every row whatever is
# chosen. The rows printed hold the frame's values (JSON's), and a socket's row is its
# CPUs' by the metric's rule (IPC: their instructions over their cycles, from the raw
# counts). -C counts core events on those CPUs only: a socket's row then sums those, and
# the uncore counts on as before.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is needed to read the JSON"
cd "$scratch"
run() { # NAME ARGS...: two intervals of the SPR demo
    name=$1
    shift
    "$PMUTOP" --demo xeon -b -n 2 --fake-clock -M core.ipc,tma_retiring,memory_bandwidth_read "$@" > "$name" 2> "$name.err" ||
        fail "$name: pmutop $*: $(head -c 300 "$name.err")"
}
run all.json --format json --raw
run default.csv --format csv
run every.csv --format csv -A
run socket.csv --format csv --per-socket
run default.txt
run c03.json --format json --raw -C 0-3
run c03.csv --format csv -A -C 0-3

python3 - all.json default.csv every.csv socket.csv c03.json c03.csv <<'PY' > check.out 2>&1
import csv, json, sys
alljs, default, every, socket, c03js, c03csv = sys.argv[1:]
def last_json(f):
    return [json.loads(l) for l in open(f) if l.startswith("{")][-1]
def rows(f):
    r = list(csv.DictReader(open(f)))
    t = r[-1]["time"]
    return {(x["metric"], x["instance"]): x["value"] for x in r if x["time"] == t}
fr = last_json(alljs)
vals = {(m["metric"], m["instance"]): m["value"] for m in fr["metrics"]}
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)
d, e, s = rows(default), rows(every), rows(socket)
cpu_rows = lambda r: [k for k in r if k[1].startswith("cpu")]
check(not cpu_rows(d), "default: CPU rows printed: %s" % cpu_rows(d)[:3])
check(("core.ipc", "socket0") in d and ("core.ipc", "all") in d, "default: no socket or machine row: %s" % sorted(d)[:6])
check(len(cpu_rows(e)) >= 56, "-A: %d CPU rows, want every CPU's" % len(cpu_rows(e)))
check(("core.ipc", "all") not in s and ("core.ipc", "socket1") in s, "--per-socket: %s" % sorted(s)[:6])
check(any(k[0] == "memory_bandwidth_read" for k in d), "default: the uncore's rows left out")
for name, r in (("default", d), ("-A", e), ("--per-socket", s)):
    for k, v in r.items():
        if v != "" and vals.get(k) is not None:
            check(abs(float(v) - vals[k]) <= 1e-6 * abs(vals[k]) + 1e-9, "%s %s: %s, the frame's %s" % (name, k, v, vals[k]))
# a socket's IPC is its CPUs' instructions over their cycles (ratio of sums)
def ipc_of(frame, cpus):
    c = {}
    for x in frame["counters"]:
        if x["pmu"] == "cpu" and x["instance"] in cpus:
            c.setdefault(x["event"], 0.0)
            c[x["event"]] += x["delta"]
    # (the core pane's IPC is perf's tma_info_thread_ipc on this CPU: its events)
    ins = c.get("INST_RETIRED.ANY", 0.0)
    cyc = c.get("CPU_CLK_UNHALTED.THREAD", 0.0)
    return ins / cyc if cyc else None
# the demo's socket 0 is CPUs 0-27 (its topology files)
want = ipc_of(fr, {"cpu%d" % i for i in range(28)})
check(want and abs(vals[("core.ipc", "socket0")] - want) <= 1e-6 * want, "socket0 IPC %s, its CPUs' ratio of sums %s" % (vals[("core.ipc", "socket0")], want))
# -C 0-3: socket0 is those four CPUs; the uncore as without -C
c = last_json(c03js)
cv = {(m["metric"], m["instance"]): m["value"] for m in c["metrics"]}
cc = rows(c03csv)
check(sorted(k[1] for k in cc if k[0] == "core.ipc" and k[1].startswith("cpu")) == ["cpu0", "cpu1", "cpu2", "cpu3"],
      "-C 0-3 -A: CPU rows %s" % sorted(k[1] for k in cc if k[1].startswith("cpu")))
want = ipc_of(c, {"cpu0", "cpu1", "cpu2", "cpu3"})
check(want and abs(cv[("core.ipc", "socket0")] - want) <= 1e-6 * want, "-C 0-3: socket0 IPC %s, CPUs 0-3's %s" % (cv[("core.ipc", "socket0")], want))
check(("core.ipc", "socket1") not in cv or cv[("core.ipc", "socket1")] is None, "-C 0-3: socket1 counted")
for k, v in vals.items():
    if k[0] == "memory_bandwidth_read" and v is not None:
        check(cv.get(k) == v, "-C 0-3: the uncore's %s %s, without -C %s" % (k, cv.get(k), v))
print("\n".join(bad) if bad else "ok")
PY
if [ "$(cat check.out)" = ok ]; then ok; else fail "aggregation: $(head -c 1500 check.out)"; fi

# Where no output shows a CPU's row (text and CSV by default, --per-socket), a per-CPU
# group's socket rows count its CPUs themselves (bind_cpu_sums.c), no row a CPU: each value
# must be the one -A's rows give, which sum the CPUs' own rows, to the last digit (the same
# counts summed by socket or by CPU), on every demo and with -C
demos=$("$PMUTOP" list machines)
for d in $demos; do
    for how in sums every persocket c03 c03every; do
        case $how in
        sums) a="" ;; every) a="-A" ;; persocket) a="--per-socket" ;; c03) a="-C 0-3" ;; c03every) a="-C 0-3 -A" ;;
        esac
        # shellcheck disable=SC2086 # the options are words
        "$PMUTOP" --demo "$d" -b -n 4 --fake-clock --format csv $a > "$how-$d.csv" 2> "$how-$d.err" ||
            fail "$d $a: $(head -c 300 "$how-$d.err")"
    done
done
# ... and perf's metrics that read the TSC, one thread's ticks (per_thread: the mean of
# the CPUs that counted) and the topology's literals, on the SPR demo
tsc=tma_info_system_core_frequency,tma_info_system_cpu_utilization,tma_info_thread_ipc
"$PMUTOP" --demo spr -b -n 4 --fake-clock --format csv -M $tsc > sums-tsc.csv 2> tsc.err
"$PMUTOP" --demo spr -b -n 4 --fake-clock --format csv -M $tsc -A > every-tsc.csv 2>> tsc.err
grep -q "tma_info_system_core_frequency,socket0,2\.[0-9]" sums-tsc.csv && ok ||
    fail "SPR: no 2.x GHz core frequency on socket0's row counting its CPUs: $(head -c 300 sums-tsc.csv tsc.err)"
# ... and a hybrid's (Alder Lake's P- and E-cores: each kind's socket rows, the machine's
# a blend of the two weighed by their slots)
sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" adl adl 2 8 > /dev/null
"$PMUTOP" --sim --sysfs-root adl -P topdown -P core -b -n 3 --fake-clock --format csv > sums-adl.csv 2> adl.err
"$PMUTOP" --sim --sysfs-root adl -P topdown -P core -b -n 3 --fake-clock --format csv -A > every-adl.csv 2>> adl.err
expect_grep "ADL: a blend of socket rows counting their CPUs" ",topdown.retiring,all,[0-9]" sums-adl.csv
python3 - $demos tsc adl <<'PY' > sums.out 2>&1
import csv, sys
bad = []
def rows(f):
    times, out = [], {}
    for x in csv.DictReader(open(f)):
        if x["time"] not in times:
            times.append(x["time"])
        out[(times.index(x["time"]), x["profile"], x["metric"], x["instance"])] = (x["value"], x["unit"], x["state"])
    return out
for d in sys.argv[1:]:
    every = rows("every-%s.csv" % d)
    for how in ("sums", "persocket", "c03") if d not in ("tsc", "adl") else ("sums",):
        ref = rows("c03every-%s.csv" % d) if how == "c03" else every
        got = rows("%s-%s.csv" % (how, d))
        if not got:
            bad.append("%s %s: no rows" % (d, how))
        for k, v in got.items():
            if ref.get(k) != v:
                bad.append("%s %s %s: %s, -A's %s" % (d, how, k, v, ref.get(k)))
print("\n".join(bad[:20]) if bad else "ok")
PY
if [ "$(cat sums.out)" = ok ]; then ok; else fail "socket rows counting their CPUs against -A's: $(head -c 1500 sums.out)"; fi

# --per-core and --per-node on the Xeon demo's tree given SMT siblings (CPU c and c+14 of
# a socket share a core) and two NUMA nodes a socket (sub-NUMA clustering): a core's row
# is its two CPUs' instructions over their cycles, a node's its fourteen CPUs'
cp -R "$TOP_SRCDIR/profiles/machines/xeon" smt
chmod -R u+w smt
for c in $(seq 0 55); do
    s=$((c / 28)) i=$((c % 28 % 14))
    sib="$((s * 28 + i)),$((s * 28 + i + 14))"
    printf '%s\n' "$sib" > "smt/sys/devices/system/cpu/cpu$c/topology/core_cpus_list"
done
for n in 0 1 2 3; do
    mkdir -p "smt/sys/devices/system/node/node$n"
    printf '%d-%d\n' $((n * 14)) $((n * 14 + 13)) > "smt/sys/devices/system/node/node$n/cpulist"
done
for per in core node; do
    "$PMUTOP" --sim --sysfs-root smt --model smt/model.ini -b -n 2 --fake-clock -M core.ipc --per-$per \
        --format json --raw > "per-$per.json" 2> "per-$per.err" || fail "--per-$per: $(head -c 300 "per-$per.err")"
    "$PMUTOP" --sim --sysfs-root smt --model smt/model.ini -b -n 2 --fake-clock -M core.ipc --per-$per \
        --format csv > "per-$per.csv" 2>> "per-$per.err"
done
python3 - per-core.json per-node.json per-core.csv per-node.csv <<'PY' > per.out 2>&1
import csv, json, sys
bad = []
def last(f):
    return [json.loads(l) for l in open(f) if l.startswith("{")][-1]
def ipc(fr, cpus):
    c = {}
    for x in fr["counters"]:
        if x["pmu"] == "cpu" and x["instance"] in cpus:
            c[x["event"]] = c.get(x["event"], 0.0) + x["delta"]
    return c["INST_RETIRED.ANY"] / c["CPU_CLK_UNHALTED.THREAD"]
for kind, f, groups in (("core", sys.argv[1], {"core%d" % (s * 28 + i): ["cpu%d" % (s * 28 + i), "cpu%d" % (s * 28 + i + 14)] for s in (0, 1) for i in range(14)}),
                        ("node", sys.argv[2], {"node%d" % n: ["cpu%d" % c for c in range(n * 14, n * 14 + 14)] for n in range(4)})):
    fr = last(f)
    vals = {m["instance"]: m["value"] for m in fr["metrics"] if m["metric"] == "core.ipc"}
    for name, cpus in groups.items():
        want = ipc(fr, set(cpus))
        if name not in vals or abs(vals[name] - want) > 1e-6 * want:
            bad.append("%s: %s %s, its CPUs' %s" % (kind, name, vals.get(name), want))
for kind, f, n in (("core", sys.argv[3], 28), ("node", sys.argv[4], 4)):
    r = list(csv.DictReader(open(f)))
    t = r[-1]["time"]
    inst = sorted({x["instance"] for x in r if x["time"] == t and x["metric"] == "core.ipc"})
    if len(inst) != n or not all(i.startswith(kind) for i in inst):
        bad.append("--per-%s CSV rows: %s" % (kind, inst[:6]))
print("\n".join(bad) if bad else "ok")
PY
if [ "$(cat per.out)" = ok ]; then ok; else fail "--per-core/--per-node: $(head -c 1500 per.out)"; fi

# text: a handful of lines an interval, not one a CPU
n=$(awk '/ interval / { n++ } n == 2' default.txt | wc -l)
[ "$n" -lt 20 ] && ok || fail "default text: $n lines an interval"

# -C kept in a recording: its replay binds those CPUs alone; a recording whose CPUs this
# machine (the recorded one) has not is refused, said as the recording's
"$PMUTOP" --demo xeon -b -n 2 --fake-clock -M core.ipc -C 0-1 -w c01.pmrec > /dev/null 2> c01.err
"$PMUTOP" -r c01.pmrec -b -A --format csv > c01.csv 2>> c01.err
expect_eq "-C 0-1 recorded, replayed: its CPUs' rows alone" \
    "$(awk -F, '$4 == "core.ipc" && $5 ~ /^cpu/ { print $5 }' c01.csv | sort -u | paste -s -d' ' -)" "cpu0 cpu1"
if command -v sqlite3 > /dev/null; then
    sqlite3 c01.pmrec "UPDATE meta SET value = '0-999' WHERE key = 'cpus'"
    "$PMUTOP" -r c01.pmrec -b > /dev/null 2> bad-cpus.err
    expect_eq "a recording's CPUs not on its machine: exit status" $? 2
    expect_grep "a recording's CPUs not on its machine: said as the recording's" \
        "the recording's CPUs (-C) 0-999: CPU 56 is not online here" bad-cpus.err
else
    skip_check "sqlite3 is not installed: a recording's bad CPUs"
fi

# -C: what is refused
"$PMUTOP" --demo xeon -b -n 1 --fake-clock -C 99 > /dev/null 2> c99.err
expect_eq "-C a CPU not online: usage error" $? 2
expect_grep "-C a CPU not online: said" "CPU 99 is not online here (online: 0-55)" c99.err
"$PMUTOP" -b -C 0 -- true > /dev/null 2> ctask.err
expect_eq "-C with a command: usage error" $? 2
expect_grep "-C with a command: said" "-C counts CPUs" ctask.err
finish
