#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One hardware counter per encoding and CPU. The TopDown pane's Neoverse figures are
# perf's own metrics (one definition per metric): beside perf's TopdownL1 they are the
# same values on the same counters, nothing opened twice. An event a hand group counts on
# its own that perf's group counts too (the Cores (Arm) pane's clock reads CPU_CYCLES,
# which TopdownL1 groups) reads that group's counter. The demo's model gives each CPU six
# general counters and the cycle counter (counters = 6): opened twice, the events would
# count in turn.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$scratch"
[ -f "$TOP_BUILDDIR/catalogue/arm-neoverse-n2-v2.ini" ] || skip "perf's catalogue is not built"

HOME="$scratch" "$PMUTOP" --demo -b --fake-clock -n 3 -M TopdownL1,topdown.retiring --format json --raw > l1.json 2> l1.err
expect_eq "perf's TopdownL1 and the TopDown pane's retiring: exit" $? 0
python3 - l1.json > l1.out 2>&1 << 'PY'
import json, sys
from collections import defaultdict
frames = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = frames[-1]
names = {m["metric"] for m in last["metrics"]}
for want in ("retiring", "topdown.retiring"):  # perf's Neoverse name, the pane's
    if want not in names:
        print("no %s among %s" % (want, sorted(names)[:20]))
turns = [c for c in last["counters"] if c["running_ns"] != c["enabled_ns"]]
if turns:
    print("%d counters counted in turn, e.g. %s" % (len(turns), turns[0]))
same = defaultdict(list)
for c in last["counters"]:
    same[(c["pmu"], c["config"], c["config1"], c["config2"], c["cpu"])].append(c["delta"])
shared = {k: v for k, v in same.items() if len(v) > 1}
two = [(k, v) for k, v in shared.items() if len(set(v)) != 1]
if two:
    print("%d counters counted twice, e.g. %s %s" % (len(two), two[0][0], two[0][1]))
# both definitions on the same counts: perf's retiring is the pane's retiring
vals = defaultdict(dict)
for m in last["metrics"]:
    if m["metric"] in ("retiring", "topdown.retiring") and m.get("value") is not None:
        vals[m["instance"]][m["metric"]] = m["value"]
for inst in ("socket0", "socket1"):
    v = vals.get(inst, {})
    if len(v) != 2:
        print("%s: not both values: %s" % (inst, v))
    elif abs(v["retiring"] - v["topdown.retiring"]) > 1e-6 * v["topdown.retiring"]:  # both in % of slots
        print("%s: perf's retiring %s, the pane's %s" % (inst, v["retiring"], v["topdown.retiring"]))
print("%d shared encodings" % len(shared))
PY
grep -q "^0 shared encodings" l1.out && ! grep -v "shared encodings" l1.out | grep -q . && ok ||
    fail "perf's TopDown and the pane's: one definition, one set of counters: $(cat l1.out) $(head -c 300 l1.err)"

# the Arm core pane's clock beside TopdownL1: its CPU_CYCLES is perf's group's counter
HOME="$scratch" "$PMUTOP" --demo -b --fake-clock -n 3 -M TopdownL1,core.arm_ghz --format json --raw > ghz.json 2> ghz.err
expect_eq "perf's TopdownL1 and the Arm core clock: exit" $? 0
python3 - ghz.json > ghz.out 2>&1 << 'PY'
import json, sys
from collections import defaultdict
last = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
cpus = {c["cpu"] for c in last["counters"] if c["pmu"].startswith("armv8")}
same = defaultdict(list)
for c in last["counters"]:
    same[(c["pmu"], c["config"], c["config1"], c["config2"], c["cpu"])].append(c["delta"])
shared = {k: v for k, v in same.items() if len(v) > 1}
if {k[4] for k in shared} != cpus or {k[1] for k in shared} != {"0x11"}:
    print("not each CPU's CPU_CYCLES (0x11) read twice: %s" % sorted(shared)[:3])
if any(len(set(v)) != 1 for v in shared.values()):
    print("a shared counter read two counts: %s" % [v for v in shared.values() if len(set(v)) != 1][:2])
turns = [c for c in last["counters"] if c["running_ns"] != c["enabled_ns"]]
if turns:
    print("%d counters counted in turn, e.g. %s" % (len(turns), turns[0]))
print("%d shared on %d CPUs" % (len(shared), len(cpus)))
PY
grep -q "shared on" ghz.out && ! grep -v "shared on" ghz.out | grep -q . && ok ||
    fail "one counter per encoding: $(cat ghz.out) $(head -c 300 ghz.err)"

# no encoding is opened twice on one PMU and CPU: over every demo's --dry-run, each line
# not marked reads:INSTANCE (it reads that group's counter) opens a counter; no two such
# lines have the same PMU, encoding and CPUs (perf's catalogue beside a hand profile: the
# EPYC demo's data fabric, 72 events a socket in both; Sapphire Rapids' CHA clock)
for demo in "" spr xeon grace epyc hip09 bluefield2 bluefield3; do
    "$PMUTOP" --demo $demo --dry-run > "dry-$demo.tsv" 2> "dry-$demo.err" || { fail "--demo $demo --dry-run: $(head -c 300 "dry-$demo.err")"; continue; }
    awk -F'\t' '$4 != "!" && $NF !~ /^reads:/ { split($3, p, "/"); k = p[1]
        for (i = 4; i < NF; i++) if ($i ~ /^(type|config|config1|config2|cpus|exclude_[a-z]*)=/) k = k " " $i
        print k }' "dry-$demo.tsv" | sort | uniq -d > "twice-$demo.txt"
    expect_eq "--demo $demo: encodings opened twice on one PMU and CPU" "$(wc -l < "twice-$demo.txt") $(head -n 2 "twice-$demo.txt" | tr '\n' ' ')" "0 "
done
# ... and where it reads another's, that group counts the same encoding on the same CPUs
python3 - dry-epyc.tsv << 'PY' && ok || fail "--demo epyc: a reads: line whose partner does not count it"
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
key = lambda r: (r[2].split("/")[0],) + tuple(f for f in r[3:-1] if f.split("=")[0] in ("type", "config", "config1", "config2", "cpus"))
opened = {(r[0], key(r)) for r in rows if r[3] != "!" and not r[-1].startswith("reads:")}
reads = [(r[-1][len("reads:"):], key(r)) for r in rows if r[-1].startswith("reads:")]
assert reads, "the EPYC demo's data fabric is counted by two groups: some event should read another's"
bad = [x for x in reads if x not in opened]
assert not bad, bad[:3]
PY

# the hardware's counters (src/sim/sim_counters.c, from the drivers): what a screen
# opens past them on one PMU and CPU is counted in turn, as the kernel rotates, and every
# instance whose counters took turns says so on its values (coverage below 1: the
# monitor's "multiplexed NN%", batch's "(multiplexed)"). On every demo's default screen.
for demo in "" spr xeon grace epyc hip09; do
    "$PMUTOP" --demo $demo -b -n 2 --fake-clock --format json --raw > "turns-$demo.jsonl" 2> "turns-$demo.err" ||
        { fail "--demo $demo: $(head -c 300 "turns-$demo.err")"; continue; }
    python3 - "turns-$demo.jsonl" "dry-$demo.tsv" > "turns-$demo.out" << 'PY' && ok || fail "--demo $demo: rotation not said: $(head -n 3 "turns-$demo.out")"
import json, sys
from collections import defaultdict
last = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
worst = defaultdict(lambda: 1.0)
for c in last["counters"]:
    if c["enabled_ns"]:
        worst[c["instance"]] = min(worst[c["instance"]], c["running_ns"] / c["enabled_ns"])
said = defaultdict(lambda: 1.0)
for m in last["metrics"]:
    if m.get("value") is not None:
        said[m["instance"]] = min(said[m["instance"]], m.get("coverage", 1.0))
bad = [i for i, w in worst.items() if w < 0.999 and i in said and said[i] > 0.999]
for i in bad[:3]:
    print("%s: counters ran %.2f of the time, its values say %.2f" % (i, worst[i], said[i]))
sys.exit(1 if bad else 0)
PY
done
# the EPYC demo on a Genoa's counters (arch/x86/events/amd/uncore.c: 4 a UMC, 16 DF): its
# memory pane's five UMC events take turns on four counters, 80 % each
python3 - turns-epyc.jsonl << 'PY' && ok || fail "--demo epyc: the UMC's five events do not share four counters"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
umc = [c for c in last["counters"] if c["pmu"] == "amd_umc_0" and c["instance"] == "socket0/umc0"]
assert len(umc) == 5, umc
for c in umc:
    assert abs(c["running_ns"] / c["enabled_ns"] - 4 / 5) < 1e-3, c
PY

finish
