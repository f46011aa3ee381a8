#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# perf's whole catalogue, every CPU directory perf 6.12 ships (x86 and arm64): for each
# line of mapfile.csv a fake tree of that CPU (its core PMU as the kernel prints it, the
# model perf's get_cpuid_str gives, picked so that perf's first matching line is that
# directory's; arm64: its MIDR), on which the build's catalogue must
#  - be picked by the CPU alone (-P perf, list metrics), as perf picks its JSON;
#  - list perf's metrics: every MetricName of the directory listed or named in the file's
#    head with its reason, nothing listed that perf does not define;
#  - agree with perf's MetricExpr (tests/perf_metrics.py) on every value it shows, from
#    the simulator's --raw deltas;
#  - obey the laws under the default model (tests/catalogue_laws.py): every share within
#    0-100 %, nothing negative, TopDown level 1 all of the slots, no node of perf's tree
#    above its parent, on every row. The
#    default model names perf's events (events = perf) for Intel from Sandy Bridge on,
#    the Atoms, AMD Zen, Arm's Neoverse, Ampere's and HiSilicon's cores.
# The uncore of the Xeons and EPYCs is test_catalogue.sh's (trees with their boxes).
. "$TOP_SRCDIR/tests/lib.sh"
# a minute of arithmetic: niced, so that the tests timing a server beside it under make -j
# (test_exporter.sh's flood) keep their CPU
renice -n 10 $$ > /dev/null 2>&1 || :
command -v python3 > /dev/null || skip "python3 is not installed"
base="${PERF_EVENTS_DIR:-}/arch"
[ -f "$base/x86/mapfile.csv" ] && [ -f "$base/arm64/mapfile.csv" ] ||
    skip "perf's pmu-events JSON not found in '$base' (build-libperf.sh keeps it)"
cd "$scratch"

# each directory's CPU: x86 DIR VENDOR FAMILY MODEL STEPPING | arm64 DIR MIDR, from perf's
# own matching (arch/x86/util/header.c strcmp_cpuid_str: "%s-%u-%X-%X", the stepping
# ignored where the line names none, the whole string matched; the first line wins)
python3 - "$base" > cpus.txt <<'PY'
import os, re, sys
base = sys.argv[1]
def rows(arch):
    for line in open(os.path.join(base, arch, "mapfile.csv")):
        r = line.strip().split(",")
        if len(r) == 4 and r[3] == "core" and not line.startswith(("#", "Family-model")):
            yield r
x86 = list(rows("x86"))
def first(cpuid):
    for r in x86:
        rx = r[0].replace("[[:xdigit:]]", "[0-9A-Fa-f]")
        if re.fullmatch(rx, cpuid if rx.count("-") == 3 else cpuid.rsplit("-", 1)[0]):
            return r[2]
seen = set()
for r in x86:
    vendor, fam = r[0].split("-")[0], int(r[0].split("-")[1])
    hit = next(((m, s) for m in range(256) for s in range(16)
                if first("%s-%d-%X-%X" % (vendor, fam, m, s)) == r[2]), None)
    if r[2] not in seen and hit:
        seen.add(r[2])
        print("x86", r[2], vendor, fam, hit[0], hit[1])
for r in rows("arm64"):
    print("arm64", r[2], r[0])
PY
[ "$(wc -l < cpus.txt)" -gt 60 ] && ok || fail "perf's mapfiles gave $(wc -l < cpus.txt) CPUs"

# the core PMU the kernel gives each (intel/core.c: perf metrics from Ice Lake, level 2
# from Sapphire Rapids, hybrids as cpu_core + cpu_atom)
kind_of() {
    case $1 in
    alderlake|meteorlake|lunarlake) echo adl ;;
    sapphirerapids|emeraldrapids|graniterapids) echo spr ;;
    icelake|icelakex|tigerlake|rocketlake) echo icl ;;
    amdzen*) echo amd ;;
    */*) echo neoverse-v2 ;;
    *) echo skl ;;
    esac
}
total_cpus=0 total_values=0
while read -r arch cpu a b c d; do
    name=$(echo "$cpu" | tr / -) kind=$(kind_of "$cpu") tree="t-$name-$a"
    if [ "$kind" = adl ]; then shape="1 8"; else shape="1 4"; fi # one socket: test_catalogue.sh has two
    case $cpu in # an Atom's caps/pmu_name, as the kernel's intel_pmu_init names it
    alderlaken) pmu_name=gracemont ;;
    sierraforest | grandridge) pmu_name=crestmont ;;
    elkhartlake | snowridgex) pmu_name=tremont ;;
    meteorlake) pmu_name=meteorlake_hybrid ;;
    alderlake) pmu_name=alderlake_hybrid ;;
    *) pmu_name=skylake ;;
    esac
    # shellcheck disable=SC2086
    PMU_NAME=$pmu_name MIDR=$a sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" "$kind" "$tree" $shape > /dev/null
    if [ "$arch" = x86 ]; then
        mkdir -p "$tree/proc"
        printf 'processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: CPU\nstepping\t: %d\n\n' \
            "$a" "$b" "$c" "$d" > "$tree/proc/cpuinfo"
    fi
    ini="$TOP_BUILDDIR/catalogue/$name.ini"
    "$PMUTOP" list metrics --sysfs-root "$tree" > "$tree.list" 2> "$tree.list.err"
    python3 - "$base/$arch/$cpu" "$ini" "perf-$name" "$tree.list" > "$tree.names" <<'PY'
import glob, json, os, re, sys
cpu_dir, ini, prof, listing = sys.argv[1:5]
entries = [e for f in glob.glob(cpu_dir + "/*.json") for e in json.load(open(f)) if isinstance(e, dict)]
perf = {e["MetricName"] for e in entries if "MetricName" in e}
# arm64: a directory's {"ArchStdEvent": "backend_bound"} is sbsa.json's metric of that name
sbsa = os.path.join(os.path.dirname(os.path.dirname(cpu_dir)), "sbsa.json")
std = {m["MetricName"].lower(): m["MetricName"] for m in (json.load(open(sbsa)) if os.path.exists(sbsa) else [])
       if "MetricName" in m}
perf |= {std[e["ArchStdEvent"].lower()] for e in entries if e.get("ArchStdEvent", "").lower() in std}
head = open(ini).read().split("[profile]")[0]
left = {re.sub(r" \((cpu_core|cpu_atom)\)$", "", l[4:].split(": ", 1)[0])
        for l in head.splitlines() if l.startswith("; - ")}
listed = {l.split()[0] for l in open(listing) if prof in l.split()[1:]}
ours = {n.replace("%", "pct").replace(" ", ""): n for n in perf}
unknown = sorted(listed - set(ours))
unsaid = sorted(n for n in perf if n.replace("%", "pct").replace(" ", "") not in listed and n not in left)
print("perf %d listed %d unknown %s unsaid %s" % (len(perf), len(listed), unknown[:3], unsaid[:3]))
PY
    total_cpus=$((total_cpus + 1))
    if ! grep -q "unknown \[\] unsaid \[\]$" "$tree.names"; then
        fail "$cpu ($a): list metrics is not perf's metrics: $(cat "$tree.names") $(head -c 200 "$tree.list.err")"
        continue
    fi
    ok
    # the issue's floor: 95 % of perf's metrics on the CPUs performance engineers run
    case " sapphirerapids emeraldrapids graniterapids icelakex skylakex cascadelakex alderlake amdzen2 amdzen3 amdzen4 amdzen5 arm/neoverse-n1 arm/neoverse-v1 arm/neoverse-n2-v2 " in
    *" $cpu "*)
        read -r _ nperf _ nlisted _ < "$tree.names"
        [ $((nlisted * 100)) -ge $((nperf * 95)) ] && ok || fail "$cpu: $nlisted of $nperf perf metrics, below 95 %" ;;
    esac
    grep -q "^perf 0 " "$tree.names" && continue # perf has events but no metrics for it
    grep -q "listed 0 " "$tree.names" && { fail "$cpu ($a): none of perf's metrics listed"; continue; }
    if ! grep " perf-$name " "$tree.list" | grep -qv "(not on this machine)$"; then
        echo "$cpu ($a): $(cut -d' ' -f1-4 "$tree.names"), none on this tree (its metrics are the uncore's)"
        continue
    fi
    if ! "$PMUTOP" --sysfs-root "$tree" --sim -P perf -b -n 2 --fake-clock --format json --raw > "$tree.jsonl" 2> "$tree.err"; then
        fail "$cpu ($a): -P perf on its tree: $(head -c 300 "$tree.err")"
        continue
    fi
    awk '/^\[metric / { if (n != "") print n "\t" p; n = substr($2, 1, length($2) - 1); p = n }
         /^perf_name = / { p = substr($0, 13) } END { if (n != "") print n "\t" p }' "$ini" > "$tree.map"
    if python3 "$TOP_SRCDIR/tests/perf_metrics.py" "$base/$arch" "$cpu" "$tree" "$tree.jsonl" "$tree.map" > "$tree.out"; then
        ok
    else
        fail "$cpu ($a): pmutop differs from perf's MetricExpr: $(grep -v agreed "$tree.out" | head -n 3)"
    fi
    if python3 "$TOP_SRCDIR/tests/catalogue_laws.py" "$base/$arch/$cpu" "$tree.jsonl" "$cpu" "$ini" > "$tree.laws"; then
        ok
    else
        fail "$cpu ($a): the default model breaks a law: $(head -n 3 "$tree.laws" | tr '\n' ' ')"
    fi
    n=$(sed -n 's/^\([0-9]*\) values agreed.*/\1/p' "$tree.out")
    total_values=$((total_values + ${n:-0}))
    echo "$cpu ($a): $(cut -d' ' -f1-4 "$tree.names"), $(tail -n 1 "$tree.out")"
done < cpus.txt
echo "$total_cpus CPUs of perf's mapfiles, $total_values values agreed with perf's MetricExpr"
finish
