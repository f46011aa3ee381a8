#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# perf's catalogue (tools/gen-catalogue.py): profiles generated from perf 6.12's JSON for
# Intel server CPUs, checked against perf's own definitions: every metric a generated
# profile shows, on a generated tree of that CPU under the simulator (whose default rates
# differ per event, so terms do not cancel), evaluated again from the --raw deltas by
# tests/perf_metrics.py (perf's MetricExpr, its events by perf's encodings), never by the
# generator's code. Also: the same input gives the same bytes; a profile binds only the
# CPU models perf's mapfile.csv gives its directory; what it leaves out is said, and its
# share of perf's core metrics does not fall below today's.
. "$TOP_SRCDIR/tests/lib.sh"
# a minute of arithmetic: niced, so that the tests timing a server beside it under make -j
# (test_exporter.sh's flood) keep their CPU
renice -n 10 $$ > /dev/null 2>&1 || :
command -v python3 > /dev/null || skip "python3 is not installed"
arch="${PERF_EVENTS_DIR:-}/arch/x86"
[ -f "$arch/mapfile.csv" ] || skip "perf's pmu-events JSON not found in '$arch' (build-libperf.sh keeps it)"
cd "$scratch"
gen="$TOP_SRCDIR/tools/gen-catalogue.py"
# metric_map INI: each metric's name and perf's (perf_name where a '%' or space made them
# differ), a tab between, as perf_metrics.py pairs them
metric_map() {
    awk '/^\[metric / { if (n != "") print n "\t" p; n = substr($2, 1, length($2) - 1); p = n }
         /^perf_name = / { p = substr($0, 13) } END { if (n != "") print n "\t" p }' "$1"
}
# cpuinfo DIR FAMILY MODEL STEPPING: the model perf's get_cpuid_str reads
cpuinfo() {
    mkdir -p "$1/proc"
    printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: Intel(R) Xeon(R) CPU\nstepping\t: %d\n\n' \
        "$2" "$3" "$4" > "$1/proc/cpuinfo"
}
# CPU_DIR:TREE_KIND:UNCORE:MODEL:STEPPING:FLOOR (the percentage of perf's metrics kept
# today: all of them): a core PMU (gen-cpu.sh) and the uncore of that Xeon (gen-xeon.sh), 2 sockets
for spec in sapphirerapids:spr:spr:143:8:100 emeraldrapids:spr:emr:207:2:100 icelakex:icl:icx:106:6:100 \
            skylakex:skl:skx:85:4:100 cascadelakex:skl:clx:85:7:100; do
    IFS=: read -r cpu kind uncore model step floor <<SPEC
$spec
SPEC
    python3 "$gen" "$arch" out "$cpu" > cover.txt
    python3 "$gen" "$arch" again "$cpu" > /dev/null
    cmp -s "out/$cpu.ini" "again/$cpu.ini" && ok || fail "$cpu: two runs of the generator differ"
    kept=$(sed -n "s/^$cpu: \([0-9]*\) of \([0-9]*\) .*/\1/p" cover.txt)
    total=$(sed -n "s/^$cpu: \([0-9]*\) of \([0-9]*\) .*/\2/p" cover.txt)
    echo "$cpu: $kept of $total perf metrics (the rest, with reasons, head out/$cpu.ini)"
    [ "${kept:-0}" -gt 0 ] && [ $((kept * 100)) -ge $((total * floor)) ] && ok ||
        fail "$cpu: $kept of $total perf metrics, below the floor of $floor %"
    left=$(grep -c "^; - " "out/$cpu.ini")
    expect_eq "$cpu: every metric left out is said with its reason" "$left" "$((total - kept))"
    sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" "$kind" "$cpu" 2 4 > /dev/null
    XEON_MODEL=$uncore sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" "$cpu" 2 4 > /dev/null
    cpuinfo "$cpu" 6 "$model" "$step"
    if "$PMUTOP" --sysfs-root "$cpu" --sim -P "out/$cpu.ini" -b -n 3 --fake-clock --format json --raw > "$cpu.jsonl" 2> "$cpu.err"; then
        ok
    else
        fail "$cpu: pmutop on the generated profile: $(head -c 300 "$cpu.err")"
    fi
    metric_map "out/$cpu.ini" > "$cpu.map"
    if python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" "$cpu" "$cpu" "$cpu.jsonl" "$cpu.map" > "$cpu.out"; then
        ok
    else
        fail "$cpu: the generated metrics differ from perf's MetricExpr:"
        head -n 12 "$cpu.out" >&2
    fi
    # ... and each value's verdict against perf's MetricThreshold (past it: a bottleneck)
    grep -q "^[1-9][0-9]* thresholds agreed" "$cpu.out" && ok || fail "$cpu: no value's threshold was compared with perf's"
    tail -n 2 "$cpu.out"
done
# #SYSTEM_TSC_FREQ as perf reads it off the live machine (CPUID 0x15, else the model
# name's "@ 2.00GHz"): where neither says, no value, never a frequency of 0; where the
# model name says, perf's cpu_operating_frequency is the busy clock (its cycles over its
# reference cycles at the TSC's rate), which tma_info_system_core_frequency measures
# apart from it, on every row
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M cpu_operating_frequency -b -n 2 --fake-clock \
    --format csv > tscf-none.csv 2>&1
expect_eq "no TSC frequency known: cpu_operating_frequency has no value on any row, never 0" \
    "$(awk -F, '$4 == "cpu_operating_frequency" { print ($6 == "" && $8 == "no value") ? "none" : "value " $5 "=" $6 }' tscf-none.csv | sort -u)" "none"
# (the model name's rate is the one the default model's TSC ticks at)
ghz=$(awk '/^rate.tsc = / { printf "%.2f", $3 / 1e9; exit }' "$TOP_SRCDIR/profiles/machines/default-model.ini")
sed -i "s/^model name.*/model name\t: Intel(R) Xeon(R) CPU @ ${ghz}GHz/" sapphirerapids/proc/cpuinfo
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M cpu_operating_frequency,tma_info_system_core_frequency \
    -b -n 2 --fake-clock --format csv > tscf.csv 2>&1
awk -F, '$8 == "ok" && $4 == "cpu_operating_frequency" { f[$5] = $6 } $8 == "ok" && $4 == "tma_info_system_core_frequency" { c[$5] = $6 }
    END { n = 0; for (i in f) { n++; if (!(i in c) || f[i] < 0.99 * c[i] || f[i] > 1.01 * c[i]) { print i, f[i], c[i]; bad = 1 } }
          exit bad || n < 3 }' tscf.csv > tscf.out && ok ||
    fail "cpu_operating_frequency (the model name's TSC rate) is not the busy clock on every row: $(head -n 3 tscf.out) $(head -c 200 tscf.csv)"
sed -i 's/^model name.*/model name\t: Intel(R) Xeon(R) CPU/' sapphirerapids/proc/cpuinfo

# -M as perf stat -M: TopdownL1 counts perf's TopdownL1 metrics (those the catalogue has),
# what they read by name and nothing else, opens only the events those read, and agrees
# with perf's MetricExpr
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M TopdownL1 -b -n 3 --fake-clock --format json --raw \
    > l1.jsonl 2> l1.err && ok || fail "-M TopdownL1: $(head -c 300 l1.err)"
python3 - "$arch/sapphirerapids" out/sapphirerapids.ini l1.jsonl > l1-check.txt <<'PY'
import glob, json, re, sys
cpu_dir, ini, out = sys.argv[1:4]
perf = {m["MetricName"]: m for f in glob.glob(cpu_dir + "/*metrics*.json") for m in json.load(open(f)) if "MetricName" in m}
ours = set(re.findall(r"^\[metric (\S+)\]", open(ini).read(), re.M))
group = {n for n, m in perf.items() if "TopdownL1" in m.get("MetricGroup", "").split(";")} & ours
reads = set(group)
while True:  # what they read by name, as perf's MetricExpr write it
    more = {t for n in reads for t in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", perf[n]["MetricExpr"]) if t in perf} - reads
    if not more:
        break
    reads |= more
shown = {m["metric"] for m in json.loads(open(out).read().splitlines()[-1])["metrics"]}
print("group", len(group), "shown", len(shown), "missing", sorted(group - shown), "extra", sorted(shown - reads))
PY
expect_grep "-M TopdownL1: every TopdownL1 metric and only what they read" "^group [1-9][0-9]* shown [0-9]* missing \[\] extra \[\]$" l1-check.txt
cat l1-check.txt
# perf's MetricConstraint: where the NMI watchdog is on (the tree's proc/sys/kernel), the
# chosen metrics perf's JSON says it would not group while the watchdog runs
# (NO_GROUP_EVENTS_NMI) are named, as perf names them, and no other; with it off, nothing
nmi=$(python3 -c '
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*metrics*.json")):
    for m in json.load(open(f)):
        if m.get("MetricConstraint") in ("NO_GROUP_EVENTS_NMI", "NO_NMI_WATCHDOG") and "MetricName" in m:
            print(m["MetricName"])' "$arch/sapphirerapids" | sort | head -n 2 | tr '\n' ,)
mkdir -p sapphirerapids/proc/sys/kernel
for on in 1 0; do
    echo $on > sapphirerapids/proc/sys/kernel/nmi_watchdog
    "$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M "${nmi}TopdownL1" -b -n 1 --fake-clock \
        > /dev/null 2> nmi-$on.err
done
named=$(sed -n "s/.*NMI watchdog is on: .* so perf's \(.*\) count their.*/\1/p" nmi-1.err | sed 's/, /\n/g' | sort | paste -sd,)
expect_eq "the NMI watchdog on: perf's NO_GROUP_EVENTS_NMI metrics among those chosen, named" "$named" "${nmi%,}"
grep -q "NMI watchdog" nmi-0.err && fail "the NMI watchdog off: still said: $(cat nmi-0.err)" || ok
rm -r sapphirerapids/proc/sys
metric_map out/sapphirerapids.ini > l1.map
python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" sapphirerapids sapphirerapids l1.jsonl l1.map > l1.out && ok ||
    fail "-M TopdownL1 differs from perf's MetricExpr: $(head -n 3 l1.out)"
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M TopdownL1 --dry-run | cut -f3 | sort -u > l1-events.txt
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini --dry-run | cut -f3 | sort -u > all-events.txt
expect_eq "-M TopdownL1 opens perf's TopdownL1 events: slots, the four level-1 topdown events and INT_MISC.UOP_DROPPING" \
    "$(tr '\n' ' ' < l1-events.txt)" \
    "cpu/event=0xad,umask=0x10/ cpu/slots/ cpu/topdown-bad-spec/ cpu/topdown-be-bound/ cpu/topdown-fe-bound/ cpu/topdown-retiring/ "
[ "$(wc -l < all-events.txt)" -gt 100 ] && ok || fail "the whole profile opens $(wc -l < all-events.txt) events"

# a recording made under -M replays (the same metrics chosen again: only their counters
# are in it), the same values as the run that wrote it
"$PMUTOP" record --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M TopdownL1 -n 3 --fake-clock -o l1.pmrec \
    > rec.err 2>&1 && ok || fail "record -M TopdownL1: $(head -c 300 rec.err)"
"$PMUTOP" -r l1.pmrec -b --format csv > l1-replay.csv 2> replay.err && ok || fail "replay of a -M recording: $(head -c 300 replay.err)"
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M TopdownL1 -b -n 3 --fake-clock --format csv > l1-live.csv
expect_eq "replay of a -M recording: the live run's values" "$(cut -d, -f3- l1-replay.csv | md5sum)" "$(cut -d, -f3- l1-live.csv | md5sum)"

# perf's modified events (CPU_CLK_UNHALTED.THREAD_P:k beside CPU_CLK_UNHALTED.THREAD_P): a
# counter each, live and in a recording (one config, two counters), each as perf reads it
m=tma_info_system_kernel_utilization,tma_info_system_kernel_cpi,tma_info_system_ipfarbranch,tma_info_thread_cpi
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M $m --dry-run | cut -f3 | sort -u > mod-events.txt
expect_grep "-M kernel_utilization opens CPU_CLK_UNHALTED.THREAD_P:k as perf writes it" "^cpu/event=0x3c/k$" mod-events.txt
expect_grep "... and BR_INST_RETIRED.FAR_BRANCH:u" "^cpu/event=0xc4,umask=0x40/u$" mod-events.txt
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M $m -b -n 3 --fake-clock --format json --raw > mod.jsonl
python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" sapphirerapids sapphirerapids mod.jsonl l1.map > mod.out && ok ||
    fail "modified events differ from perf's MetricExpr: $(head -n 3 mod.out)"
grep -q "^[1-9][0-9]* values agreed" mod.out && ok || fail "no modified metric was compared: $(cat mod.out)"
"$PMUTOP" record --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M $m -n 3 --fake-clock -o mod.pmrec > rec.err 2>&1
"$PMUTOP" -r mod.pmrec -b --format csv > mod-replay.csv 2> replay.err && ok || fail "replay of modified events: $(head -c 300 replay.err)"
"$PMUTOP" --sysfs-root sapphirerapids --sim -P out/sapphirerapids.ini -M $m -b -n 3 --fake-clock --format csv > mod-live.csv
expect_eq "replay of modified events: the live run's values" "$(cut -d, -f3- mod-replay.csv | md5sum)" "$(cut -d, -f3- mod-live.csv | md5sum)"

# perf's catalogue picked by the CPU model, as perf stat -M picks its JSON: -M names perf's
# metrics and groups with no -p, list metrics lists them, -P perf is this CPU's file; a
# Skylake-SP gets skylakex's (not cascadelakex's, though both name model 0x55)
export PMUTOP_CATALOGUE_PATH="$scratch/out"
"$PMUTOP" --sysfs-root sapphirerapids --sim -M TopdownL1 -b -n 2 --fake-clock --format csv > auto.csv 2> auto.err &&
    ok || fail "-M TopdownL1 without -p: $(head -c 300 auto.err)"
expect_eq "-M TopdownL1 without -p: perf's level 1 from this CPU's catalogue file" \
    "$(awk -F, 'NR > 1 && $5 == "all" { print $3 "/" $4 }' auto.csv | sort -u | grep -c '^perf-sapphirerapids/tma_\(retiring\|bad_speculation\|frontend_bound\|backend_bound\)$')" 4
"$PMUTOP" --sysfs-root skylakex --sim -M TopdownL1 -b -n 1 --fake-clock --format csv > skx-auto.csv 2>&1
expect_eq "-M on a Skylake-SP: skylakex's file" "$(awk -F, 'NR > 1 { print $3 }' skx-auto.csv | sort -u)" perf-skylakex
# one definition per metric: a name xeon.ini and perf both define is perf's
"$PMUTOP" --sysfs-root sapphirerapids --sim -M memory_bandwidth_read -b -n 1 --fake-clock --format csv > one.csv 2>&1
expect_eq "-M a metric xeon.ini defines too: perf's definition alone" \
    "$(awk -F, 'NR > 1 { print $3 }' one.csv | sort -u | tr '\n' ' ')" "perf-sapphirerapids "
"$PMUTOP" list metrics --sysfs-root sapphirerapids > auto-list.txt
expect_grep "list metrics: this CPU's perf metrics too" "^tma_retiring  *% *perf-sapphirerapids " auto-list.txt
expect_grep "list metrics: its uncore ones" "^memory_bandwidth_read  *MB/s *perf-sapphirerapids " auto-list.txt
cols=$(awk '/ MB\/s / { print index($0, " MB/s ") }' auto-list.txt | sort -u | wc -l)
expect_eq "list metrics: one unit column, however long perf's names" "$cols" 1
# a VM without a core PMU (the same tree, no cpu/): perf's file for this CPU model is still
# listed, as perf list lists it, each metric marked, and why said once
mkdir -p vm && cp -R sapphirerapids/sys sapphirerapids/proc vm/ && rm -rf vm/sys/bus/event_source/devices/cpu
"$PMUTOP" list metrics --sysfs-root vm > vm-list.txt 2> vm-list.err
expect_eq "list metrics on a VM without a core PMU: exit status" $? 0
expect_grep "list metrics on a VM: perf's TopDown listed, marked" "^tma_retiring  *% *perf-sapphirerapids .*(not on this machine)" vm-list.txt
expect_grep "list metrics on a VM: why, once" "its PMU (cpu) is not on this machine .*: its metrics are listed, none counts here" vm-list.err
expect_eq "list metrics on a VM: said once" "$(wc -l < vm-list.err)" 1
"$PMUTOP" --sysfs-root sapphirerapids --sim -P perf --dry-run > perf-p.txt 2>&1 && ok || fail "-P perf: $(head -c 300 perf-p.txt)"
mkdir -p nomodel && cp -R sapphirerapids/sys nomodel/ && rm nomodel/sys/devices/system/cpu/modalias
"$PMUTOP" --sysfs-root nomodel --sim -P perf -b -n 1 > nomodel.out 2>&1
expect_eq "-P perf where the model is unknown: exit status" $? 1
expect_grep "-P perf where the model is unknown: said" "perf's catalogue has no profile for this CPU (none names its model" nomodel.out
"$PMUTOP" --sysfs-root nomodel --sim -M TopdownL1 -b -n 1 > nomodel-m.out 2>&1
expect_eq "-M TopdownL1 where the model is unknown: exit status" $? 2
# a VM of a known model without a core PMU: -M says the catalogue's file is there but
# cannot count, not merely that no metric has the name
mkdir -p nocore && cp -R sapphirerapids/sys sapphirerapids/proc nocore/ && rm -r nocore/sys/bus/event_source/devices/cpu
"$PMUTOP" --sysfs-root nocore --sim -M TopdownL1 -b -n 1 > nocore.out 2>&1
expect_eq "-M on a model without its core PMU: exit status" $? 2
expect_grep "-M on a model without its core PMU: why" "perf-sapphirerapids for this CPU, but its PMU (cpu) is not on this machine" nocore.out
"$PMUTOP" --sysfs-root nocore --sim -P perf -b -n 1 > nocore-p.out 2>&1
expect_eq "-P perf on a model without its core PMU: exit status" $? 1
expect_grep "-P perf on a model without its core PMU: why" "perf-sapphirerapids for this CPU, but its PMU (cpu) is not on this machine" nocore-p.out
# list metricgroups -P perf: every group perf's JSON for this CPU names, with as many
# metrics as it gives it (perf list metricgroups; what -M takes)
"$PMUTOP" list metricgroups --sysfs-root sapphirerapids -P perf > groups.txt 2>&1
expect_eq "list metricgroups -P perf: exit status" $? 0
python3 - "$arch/sapphirerapids" > groups-perf.txt <<'PY'
import collections, glob, json, sys
n = collections.Counter()
for f in glob.glob(sys.argv[1] + "/*metrics.json"):
    for m in json.load(open(f)):
        for g in set(filter(None, m.get("MetricGroup", "").split(";"))):
            n[g] += 1
for g in sorted(n, key=str.lower):
    print(g, n[g])
PY
expect_eq "list metricgroups: perf's groups and their sizes" "$(awk '{ print $1, $2 }' groups.txt)" "$(cat groups-perf.txt)"
# list metrics -P perf: this CPU's file, as for the monitor's -p; a profile not there fails
"$PMUTOP" list metrics --sysfs-root sapphirerapids -P perf > list-p-perf.txt 2>&1
expect_eq "list metrics -P perf: exit status" $? 0
expect_grep "list metrics -P perf: this CPU's catalogue" "^tma_retiring  *% *perf-sapphirerapids " list-p-perf.txt
# -M prints what was asked, as perf stat -M: TopdownL2,TopdownL3 are perf's metrics of
# those groups, not the level-1 parents and helpers their formulae read (counted; in JSON)
"$PMUTOP" --demo=spr -M TopdownL2,TopdownL3 -b -n 2 --fake-clock 2> /dev/null | awk '/^  [a-z]/ { print $1 }' | sort -u > asked.txt
python3 - "$arch/sapphirerapids" asked.txt > asked.out <<'PY'
import glob, json, sys
want = {m["MetricName"] for f in glob.glob(sys.argv[1] + "/*metrics.json") for m in json.load(open(f))
        if {"TopdownL2", "TopdownL3"} & set(m.get("MetricGroup", "").split(";"))}
got = set(open(sys.argv[2]).read().split())
print("missing %s extra %s" % (sorted(want - got)[:5], sorted(got - want)[:5]))
PY
expect_eq "-M TopdownL2,TopdownL3 prints perf's metrics of those groups, nothing else" "$(cat asked.out)" "missing [] extra []"
# every metric perf gives a unit shows one: its ScaleUnit's, or where it has none the unit
# its description ends with ("... for unhalted processors [GHz]", "[GB / sec]", "(in core
# cycles)": tma_info_system_core_frequency had none)
python3 - "$arch/sapphirerapids" list-p-perf.txt > units.out <<'PY'
import glob, json, re, sys
perf = {}
for f in glob.glob(sys.argv[1] + "/*metrics.json"):
    for m in json.load(open(f)):
        brief = m.get("BriefDescription", "")
        said = re.search(r"(\[(GB / sec|MB / sec|GHz|GHZ|in nanoseconds)\]|\(in (core )?cycles\))\s*\.?$", brief)
        su = re.sub(r"^[0-9.eE+-]+", "", m.get("ScaleUnit", "")).strip()
        if su or said:
            perf[m["MetricName"].replace("%", "pct").replace(" ", "")] = su or said.group(0)
listed = {l.split()[0]: l.split()[1] for l in open(sys.argv[2]) if " perf-sapphirerapids " in l}
unitless = sorted(n for n in perf if n in listed and listed[n] == "perf-sapphirerapids")
print("%d with a unit, %d listed without: %s" % (len(perf), len(unitless), unitless[:5]))
PY
grep -q "listed without: \[\]" units.out && ok || fail "list metrics: metrics perf gives a unit shown without: $(cat units.out)"
"$PMUTOP" list metrics --sysfs-root nocore -P perf > list-nocore.txt 2>&1
expect_eq "list metrics -P perf without the core PMU: exit status" $? 1
expect_grep "list metrics -P perf without the core PMU: why" "but its PMU (cpu) is not on this machine" list-nocore.txt
"$PMUTOP" list metrics --sysfs-root sapphirerapids -P no-such-profile > list-nosuch.txt 2>&1
expect_eq "list metrics -P a profile not there: exit status" $? 1
expect_grep "list metrics -P a profile not there: said" "no profile 'no-such-profile'" list-nosuch.txt
unset PMUTOP_CATALOGUE_PATH

# list metrics -P FILE -v: the catalogue's metrics with perf's descriptions, groups and
# formulae, as perf list shows them
"$PMUTOP" list metrics --sysfs-root sapphirerapids -P out/sapphirerapids.ini -v > list.txt
expect_eq "list metrics -p: every metric of the profile" "$(grep -c '^[A-Za-z]' list.txt)" "$(grep -c '^\[metric ' out/sapphirerapids.ini)"
expect_grep "list metrics: perf's description" "^tma_retiring .*fraction of slots utilized by useful work" list.txt
expect_grep "list metrics -v: perf's groups" "^    groups: .*TopdownL1" list.txt
expect_grep "list metrics -v: the formula and its scale" "^    formula@core = td.topdown_retiring/.*(shown times 100)" list.txt

# perf takes mapfile.csv's first line that names a CPU: a Milan (AuthenticAMD-25-1-1) is
# amdzen3's though amdzen4's expression names it too, a Genoa (25-11-1) amdzen4's
python3 "$gen" "$arch" out amdzen3 amdzen4 > /dev/null
amd_core_pmu() { # DIR FAMILY MODEL: an AMD core PMU as the kernel prints it, the CPU's model
    d="$1/sys/bus/event_source/devices/cpu"
    mkdir -p "$d/format" "$1/proc"
    echo 4 > "$d/type"
    echo config:0-7,32-35 > "$d/format/event"; echo config:8-15 > "$d/format/umask"
    echo config:18 > "$d/format/edge"; echo config:23 > "$d/format/inv"; echo config:24-31 > "$d/format/cmask"
    printf 'vendor_id\t: AuthenticAMD\ncpu family\t: %d\nmodel\t\t: %d\nstepping\t: 1\n\n' "$2" "$3" > "$1/proc/cpuinfo"
}
amd_core() { # DIR MODEL: ... on a machine of one CPU
    mkdir -p "$1/sys/devices/system/cpu/cpu0/topology"
    echo 0 > "$1/sys/devices/system/cpu/online"; echo 0 > "$1/sys/devices/system/cpu/cpu0/topology/physical_package_id"
    amd_core_pmu "$1" 25 "$2"
}
amd_core milan 1
amd_core genoa 17
for case in milan:amdzen3:amdzen4 genoa:amdzen4:amdzen3; do
    IFS=: read -r tree mine other <<SPEC
$case
SPEC
    "$PMUTOP" --sysfs-root "$tree" --sim -P "out/$mine.ini" -b -n 1 --fake-clock > "$tree-$mine.txt" 2>&1 &&
        ok || fail "$tree: $mine's profile does not count: $(head -c 300 "$tree-$mine.txt")"
    "$PMUTOP" --sysfs-root "$tree" --sim -P "out/$other.ini" -b -n 1 --fake-clock > "$tree-$other.txt" 2>&1
    expect_grep "$tree: not $other's (perf's first line)" "not for this CPU model\|other CPU models" "$tree-$other.txt"
done

# AMD's catalogue against perf's MetricExpr, core and uncore (amd_l3 per CCX, amd_df per
# socket, amd_umc per memory controller, numbered across the sockets): a 2-socket Genoa
# (amdzen4) and a Turin (amdzen5, family 0x1a)
for spec in amdzen4:25:17:100 amdzen5:26:2:100; do
    IFS=: read -r cpu family model floor <<SPEC
$spec
SPEC
    python3 "$gen" "$arch" out "$cpu" > cover.txt
    kept=$(sed -n "s/^$cpu: \([0-9]*\) of \([0-9]*\) .*/\1/p" cover.txt)
    total=$(sed -n "s/^$cpu: \([0-9]*\) of \([0-9]*\) .*/\2/p" cover.txt)
    echo "$cpu: $kept of $total perf metrics"
    [ "${kept:-0}" -gt 0 ] && [ $((kept * 100)) -ge $((total * floor)) ] && ok ||
        fail "$cpu: $kept of $total perf metrics, below the floor of $floor %"
    EPYC_MODALIAS="cpu:type:x86,ven0002fam00$(printf %x "$family")mod$(printf %04x "$model"):feature:,0000" \
        sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" "$cpu-tree" 2 16 "12 12" > /dev/null
    amd_core_pmu "$cpu-tree" "$family" "$model"
    if "$PMUTOP" --sysfs-root "$cpu-tree" --sim -P "out/$cpu.ini" -b -n 3 --fake-clock --format json --raw > "$cpu.jsonl" 2> "$cpu.err"; then
        ok
    else
        fail "$cpu: pmutop on the generated profile: $(head -c 300 "$cpu.err")"
    fi
    metric_map "out/$cpu.ini" > "$cpu.map"
    python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" "$cpu" "$cpu-tree" "$cpu.jsonl" "$cpu.map" > "$cpu.out" && ok ||
        { fail "$cpu: the generated metrics differ from perf's MetricExpr:"; head -n 12 "$cpu.out" >&2; }
    tail -n 2 "$cpu.out"
done

# a hybrid (Alder Lake): each kind of core's metrics on its own PMU (cpu_core, cpu_atom),
# their sums apart (all-pcores, all-ecores), a metric both define with a formula each
python3 "$gen" "$arch" out alderlake > cover.txt
cat cover.txt
kept=$(sed -n "s/^alderlake: \([0-9]*\) of \([0-9]*\) .*/\1/p" cover.txt)
total=$(sed -n "s/^alderlake: \([0-9]*\) of \([0-9]*\) .*/\2/p" cover.txt)
[ "${kept:-0}" -gt 0 ] && [ $((kept * 100)) -ge $((total * 95)) ] && ok || fail "alderlake: $kept of $total perf metrics, below 95 %"
sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" adl adl 1 8 > /dev/null
cpuinfo adl 6 151 2
if PMUTOP_CATALOGUE_PATH="$scratch/out" "$PMUTOP" --sysfs-root adl --sim -P perf -b -n 3 --fake-clock --format json --raw \
    > adl.jsonl 2> adl.err; then ok; else fail "alderlake: $(head -c 300 adl.err)"; fi
metric_map out/alderlake.ini > adl.map
python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$arch" alderlake adl adl.jsonl adl.map > adl.out && ok ||
    { fail "alderlake: the generated metrics differ from perf's MetricExpr:"; head -n 12 adl.out >&2; }
tail -n 1 adl.out
grep -q '"metric":"tma_retiring","instance":"all-ecores"' adl.jsonl && grep -q '"metric":"tma_retiring","instance":"all-pcores"' adl.jsonl &&
    ok || fail "alderlake: tma_retiring of each kind of core"
# of neither kind: C-state residencies over every CPU (perf -a), the TSC per kind of core
# for a kind's metrics (its core frequency)
for want in '"metric":"C6_Pkg_Residency","instance":"all"' '"metric":"C6_Core_Residency","instance":"all"' \
            '"metric":"tma_info_system_core_frequency","instance":"all-pcores"'; do
    grep -q "$want" adl.jsonl && ok || fail "alderlake: no $want"
done
# perf's names with a '%' (pct in pmutop's, which Prometheus and formulae take): -M takes perf's
PMUTOP_CATALOGUE_PATH="$scratch/out" "$PMUTOP" --sysfs-root adl --sim -M 'tma_info_bottleneck_%_load_miss_bound_cycles' -b -n 1 \
    --fake-clock --format csv > pct.csv 2> pct.err
expect_eq "-M with perf's name tma_info_bottleneck_%_load_miss_bound_cycles" \
    "$(awk -F, 'NR > 1 && $5 == "all-ecores" { print $4 }' pct.csv)" tma_info_bottleneck_pct_load_miss_bound_cycles

# Arm's catalogue (perf's arm64 JSON: ArchStdEvent resolved through the architecture's
# events and sbsa.json's metrics) on Neoverse trees picked by their MIDR, perf's
# strcmp_cpuid_str() answered per class of CPUs (N2 before r0p3, N2 r0p3 on, V2)
aarch="${PERF_EVENTS_DIR:-}/arch/arm64"
for spec in arm/neoverse-n2-v2:0x00000000410fd490 arm/neoverse-n2-v2:0x00000000410fd493 \
            arm/neoverse-n2-v2:0x00000000410fd4f0 arm/neoverse-n1:0x00000000413fd0c1 arm/neoverse-v1:0x00000000411fd401; do
    cpu=${spec%%:*} midr=${spec#*:}
    python3 "$gen" "$aarch" out "$cpu" > cover.txt
    kept=$(sed -n "s|^$cpu: \([0-9]*\) of \([0-9]*\) .*|\1|p" cover.txt)
    total=$(sed -n "s|^$cpu: \([0-9]*\) of \([0-9]*\) .*|\2|p" cover.txt)
    echo "$cpu ($midr): $kept of $total perf metrics"
    [ "${kept:-0}" -gt 0 ] && [ $((kept * 100)) -ge $((total * 95)) ] && ok ||
        fail "$cpu: $kept of $total perf metrics, below 95 %"
    tree=arm-$midr
    MIDR=$midr sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" neoverse-v2 "$tree" 2 4 > /dev/null
    # picked by the MIDR alone: -P perf, as -M does
    if PMUTOP_CATALOGUE_PATH="$scratch/out" "$PMUTOP" --sysfs-root "$tree" --sim -P perf -b -n 3 --fake-clock --format json --raw \
        > "$tree.jsonl" 2> "$tree.err"; then ok; else fail "$cpu on $midr: $(head -c 300 "$tree.err")"; fi
    ini="out/$(echo "$cpu" | tr / -).ini"
    metric_map "$ini" > "$tree.map"
    python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$aarch" "$cpu" "$tree" "$tree.jsonl" "$tree.map" > "$tree.out" && ok ||
        { fail "$cpu on $midr: the generated metrics differ from perf's MetricExpr:"; head -n 12 "$tree.out" >&2; }
    tail -n 1 "$tree.out"
done
PMUTOP_CATALOGUE_PATH="$scratch/out" "$PMUTOP" --sysfs-root arm-0x00000000410fd4f0 --sim -M TopdownL1 -b -n 1 --fake-clock \
    --format csv > arm-m.csv 2>&1
expect_eq "-M TopdownL1 on a Neoverse V2: perf's level 1 from its catalogue file" \
    "$(awk -F, 'NR > 1 && $5 == "all" { print $3 "/" $4 }' arm-m.csv | sort -u | tr '\n' ' ')" \
    "perf-arm-neoverse-n2-v2/backend_bound perf-arm-neoverse-n2-v2/bad_speculation perf-arm-neoverse-n2-v2/frontend_bound perf-arm-neoverse-n2-v2/retiring "

# the Sapphire Rapids demo's streaming phase: perf's own MetricThreshold (from its JSON)
# says DRAM bound is the bottleneck on the whole machine at 25 s, and not at 1 s
"$PMUTOP" --demo spr -b -n 26 --fake-clock --format json > spr-demo.jsonl 2> spr-demo.err &&
    ok || fail "--demo spr: $(head -c 300 spr-demo.err)"
python3 - "$arch/sapphirerapids" spr-demo.jsonl > spr-demo.txt <<'PY'
import glob, json, re, sys
perf = {m["MetricName"]: m for f in glob.glob(sys.argv[1] + "/*metrics*.json") for m in json.load(open(f)) if "MetricName" in m}
frames = [json.loads(l) for l in open(sys.argv[2])]
def past(frame, name):
    vals = {m["metric"]: m.get("value") for m in frame["metrics"] if m["instance"] == "all" and m["profile"] == "perf-sapphirerapids"}
    expr = re.sub(r"[A-Za-z_][A-Za-z0-9_]*", lambda t: repr(vals[t.group(0)] / 100) if t.group(0) in vals else t.group(0),
                  perf[name]["MetricThreshold"]).replace("&", " and ").replace("|", " or ")
    return eval(expr, {"__builtins__": {}})
print("t1", past(frames[0], "tma_dram_bound"), "t25", past(frames[-1], "tma_dram_bound"))
PY
expect_eq "--demo spr: perf's threshold marks DRAM bound while the odd CPUs stream, not before" "$(cat spr-demo.txt)" "t1 False t25 True"

# a profile binds only the models its directory is for: Skylake-SP is not Cascade Lake
cpuinfo skylakex 6 85 4
"$PMUTOP" --sysfs-root skylakex --sim -P out/cascadelakex.ini -b -n 1 --fake-clock > clx-on-skx.txt 2>&1
expect_grep "Cascade Lake's profile on a Skylake-SP: not for this model" "not for this CPU model\|other CPU models" clx-on-skx.txt
finish
