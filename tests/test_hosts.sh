#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The machines a user or a CI runner may have, as fake trees: a VM with a RAPL PMU that
# has no events, or only energy-psys, or none; no msr PMU; a core PMU or a hybrid one;
# Xeon uncore PMUs under CPU models whose encodings differ (perf's mapfile.csv and JSON
# are the oracle for which model a tree is and what its events mean); an AMD tree whose
# model is only in /proc/cpuinfo, or nowhere. The live host is whatever it is: the other
# tests ask it, these do not depend on it.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$scratch"
gen() { sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" "$@"; }
batch() { # TREE ARGS...: one simulated interval in batch text; status in $status
    t=$1
    shift
    "$PMUTOP" --sysfs-root "$t" --sim --fake-clock -b -n 1 "$@" > out.txt 2> err.txt
    status=$?
}

# a RAPL PMU with no events: counted what there is, said what is not, exit 0
gen empty vm empty yes 4
batch empty -P host
expect_eq "empty RAPL: exit status" "$status" 0
expect_grep "empty RAPL: software events counted" "host.context_switches  *all  *[0-9]" out.txt
expect_grep "empty RAPL: said as not on this machine" "n/a power all: PMU power has none of the events energy-pkg, energy-psys (not on this machine)" out.txt
grep -q "^  ! " out.txt && fail "empty RAPL: a failure line in: $(cat out.txt)" || ok
"$PMUTOP" --sysfs-root empty --sim --fake-clock -b -n 1 -P host --format json > out.json
expect_grep "empty RAPL: JSON says unavailable, not error" '"instance":"all","filters":{},"unavailable":"PMU power has none' out.json
grep -q '"error"' out.json && fail "empty RAPL: JSON has an error" || ok

# energy-psys only (this kind of VM): platform power counted, package power absent
gen psys vm psys yes 4
batch psys -P host
expect_eq "psys only: exit status" "$status" 0
expect_grep "psys only: platform power counted" "host.psys_w  *all  *[0-9.]* W" out.txt
grep -q "host.power_w" out.txt && fail "psys only: package power shown without energy-pkg" || ok
grep -q "not on this machine\|^  ! " out.txt && fail "psys only: something said missing: $(cat out.txt)" || ok

# a full RAPL PMU: both
gen pkg vm pkg yes 4
batch pkg -P host
expect_grep "RAPL: package power counted" "host.power_w  *all  *[0-9.]* W" out.txt

# no power and no msr PMU at all: the software events still count
gen bare vm none no 4
batch bare -P host
expect_eq "no power, no msr: exit status" "$status" 0
expect_grep "no power, no msr: software events counted" "host.page_faults  *all  *[0-9]" out.txt
expect_grep "no msr: said" "n/a tsc: no PMU matches 'msr'" out.txt
expect_grep "no power: said" "n/a power: no PMU matches 'power'" out.txt

# a core PMU (Sapphire Rapids) and a hybrid one (Alder Lake): TopDown counts on each
gen core spr pkg yes 4
batch core
expect_grep "core PMU: TopDown counted" "topdown.retiring  *socket0  *[0-9.]* %" out.txt
gen hybrid adl pkg yes 4
batch hybrid
expect_grep "hybrid: P-core TopDown" "^  *all-pcores  *[0-9.]* %" out.txt
expect_grep "hybrid: E-core TopDown" "all-ecores  *[0-9.]* %" out.txt
expect_grep "hybrid: TopDown of every CPU" "^  *all  *[0-9.]* %" out.txt
gen vmonly vm pkg yes 4
batch vmonly
grep -q "topdown\." out.txt && fail "no core PMU: TopDown values without a core PMU" || ok

# The machine literals perf's metrics read (#num_cpus_online, #num_packages, #num_cores,
# #smt_on, #num_dies, #system_tsc_freq) against lscpu (util-linux), which reads the same
# kernel files its own way: on fake topologies (lscpu --sysroot) and on this host.
# facts TREE: pmutop's literals as NAME=VALUE lines in facts.txt ("" for the live host)
facts() {
    if [ -n "$1" ]; then set -- --sysfs-root "$1" --sim --fake-clock; else set --; fi
    "$PMUTOP" "$@" -P "$TOP_SRCDIR/tests/fixtures/facts.ini" -b -n 1 --format csv 2> facts.err |
        awk -F, 'NR > 1 { sub("host.", "", $4); print $4 "=" $6 }' > facts.txt
}
fact() { sed -n "s/^$1=//p" facts.txt; }
# lscpu_says ROOT: cpus, cores, sockets and threads a core as lscpu counts them
lscpu_says() {
    if [ -n "$1" ]; then set -- --sysroot "$1"; else set --; fi
    lscpu "$@" -p=cpu,core,socket,online | awk -F, '!/^#/ && $4 != "N" { n++; c[$2 "," $3]; s[$3] }
        END { nc = 0; for (k in c) nc++; ns = 0; for (k in s) ns++; print n, nc, ns, n / nc }'
}
check_topology() { # ROOT LABEL: literals agree with lscpu and with the kernel's own ids
    root=$1 label=$2
    facts "$root"
    set -- $(lscpu_says "$root")
    expect_eq "$label: #num_cpus_online as lscpu" "$(fact num_cpus_online)" "$1"
    expect_eq "$label: #num_cores as lscpu" "$(fact num_cores)" "$2"
    expect_eq "$label: #num_packages as lscpu" "$(fact num_packages)" "$3"
    sysfs=${root:-}/sys/devices/system/cpu
    if [ -e "$sysfs/smt/active" ]; then want=$(cat "$sysfs/smt/active"); else want=$([ "$4" -gt 1 ] && echo 1 || echo 0); fi
    expect_eq "$label: #smt_on as smt/active, else lscpu's threads a core" "$(fact smt_on)" "$want"
}
if command -v lscpu > /dev/null; then
    sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" topo-pmus vm pkg yes 1 > /dev/null
    for shape in "2 2 3 2 none" "1 1 4 1 none" "1 1 4 2 no" "4 1 2 2 yes"; do
        set -- $shape
        t="topo-$1-$2-$3-$4-$5"
        sh "$TOP_SRCDIR/tests/fixtures/gen-topology.sh" "$t" "$@"
        mkdir -p "$t/sys/bus/event_source" && cp -R topo-pmus/sys/bus/event_source/devices "$t/sys/bus/event_source/"
        check_topology "$PWD/$t" "topology $shape"
        # dies: the kernel's (package, die) ids, a view of its own; the TSC from the model name
        dies=$(for c in "$t"/sys/devices/system/cpu/cpu[0-9]*; do
                   echo "$(cat "$c/topology/physical_package_id"),$(cat "$c/topology/die_id")"; done | sort -u | wc -l)
        expect_eq "topology $shape: #num_dies as the kernel's die ids" "$(fact num_dies)" "$dies"
        expect_eq "topology $shape: #system_tsc_freq from the model name's @ 2.10GHz" "$(fact tsc_freq)" 2100000000
    done
    # this host: if its software events open here
    facts ""
    if [ -s facts.txt ]; then
        check_topology "" "this host"
    else
        skip_check "the literals on this host: pmutop could not count here ($(head -c 200 facts.err))"
    fi
else
    skip_check "machine literals against lscpu: lscpu is not installed"
fi

# numeric order everywhere: instances of PMUs numbered past 9
sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" order 1 2 2 1 12 12 > /dev/null
"$PMUTOP" --sysfs-root order --sim --fake-clock -b -n 1 --format csv -A | awk -F, '$4 == "iio_bandwidth_read" { print $5 }' > order.txt
expect_eq "IIO stacks in numeric order" "$(grep -v socket0$ order.txt | grep -v ^all | sed 's|socket0/iio||' | tr '\n' ' ')" \
    "0 1 2 3 4 5 6 7 8 9 10 11 "

# Xeon uncore under each CPU model: perf's mapfile.csv says which JSON the tree's CPU
# gets; only Sapphire/Emerald Rapids' (and Ice Lake-SP's own groups) may be opened
map="${PERF_EVENTS_DIR:-}/arch/x86/mapfile.csv"
perf_dir_of() { # CPUID: perf's directory for it (its regex, whole or without the stepping)
    python3 - "$map" "$1" <<'EOF'
import csv, re, sys
cpuid = sys.argv[2]
bare = cpuid.rsplit("-", 1)[0] if cpuid.count("-") == 3 else cpuid
for row in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#")):
    rx = row[0].replace("[[:xdigit:]]", "[0-9A-Fa-f]") if row else ""  # POSIX class, as regcomp
    if len(row) > 3 and row[3] == "core" and (re.fullmatch(rx, cpuid) or re.fullmatch(rx, bare)):
        print(row[2]); break
EOF
}
spr_cas="uncore_imc_0/event=0x05,umask=0xcf/"
if [ ! -f "$map" ]; then
    skip_check "perf's mapfile.csv is not at $map"
else
    for m in spr:sapphirerapids emr:emeraldrapids icx:icelakex skx:skylakex clx:cascadelakex gnr:graniterapids; do
        model=${m%%:*} want=${m#*:}
        XEON_MODEL=$model sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" "x-$model" 1 2 2 1 2 2 > /dev/null
        cpuid=$("$PMUTOP" list profiles --sysfs-root "x-$model" | sed -n 's/^CPU model \([^ ]*\) .*/\1/p')
        expect_eq "$model: perf's directory for the tree's CPU ($cpuid)" "$(perf_dir_of "$cpuid")" "$want"
        "$PMUTOP" --sysfs-root "x-$model" --sim --dry-run > "dry-$model.tsv" 2> "dry-$model.err"
        n=$(grep -c "uncore_imc_0/" "dry-$model.tsv")
        case $model in
        spr|emr|icx) [ "$n" -gt 0 ] && ok || fail "$model: its memory controllers are not counted" ;;
        *) expect_eq "$model: events opened on its memory controllers" "$n" 0
           expect_grep "$model: said once why" "not counted: this CPU is $cpuid" "dry-$model.err"
           expect_eq "$model: said once" "$(grep -c 'not counted' "dry-$model.err")" 1
           "$PMUTOP" list pmus --sysfs-root "x-$model" > "pmus-$model.txt"
           expect_grep "$model: list pmus says why" "uncore_imc_0 .*(xeon: not for this CPU model)" "pmus-$model.txt" ;;
        esac
        # what perf's own JSON for this CPU calls a read CAS: Sapphire Rapids' encoding
        # opened elsewhere would count something else (Skylake-SP: a refresh)
        cas=$(python3 -c '
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*.json"):
    for e in json.load(open(f)):
        if isinstance(e, dict) and e.get("EventName") in ("UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT_SCH0.RD"):
            print("event=0x%02x,umask=0x%x" % (int(e["EventCode"], 16), int(e["UMask"], 16))); sys.exit()
' "${PERF_EVENTS_DIR}/arch/x86/$want")
        if grep -q "$spr_cas" "dry-$model.tsv"; then
            expect_eq "$model: the CAS encoding opened is perf's for this CPU" "event=0x05,umask=0xcf" "$cas"
        else
            ok
        fi
    done
fi

# AMD: the model from /proc/cpuinfo below the tree when there is no modalias; neither:
# the data fabric and L3 are not counted, and that is said
sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" amd 1 4 "12" > /dev/null
rm amd/sys/devices/system/cpu/modalias
"$PMUTOP" --sysfs-root amd --sim --dry-run > amd-none.tsv 2> amd-none.err
grep -q "	df	\|	l3	" amd-none.tsv && fail "AMD, no model: data fabric or L3 opened" || ok
expect_grep "AMD, no model: said why" "the CPU model is unknown" amd-none.err
mkdir -p amd/proc
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC 9654 96-Core Processor\nstepping\t: 1\n\n' > amd/proc/cpuinfo
"$PMUTOP" --sysfs-root amd --sim --dry-run > amd-info.tsv 2> amd-info.err
expect_grep "AMD, model in /proc/cpuinfo: data fabric counted" "	df	amd_df/" amd-info.tsv
expect_grep "AMD, model in /proc/cpuinfo: L3 counted" "	l3	amd_l3/" amd-info.tsv
grep -q "not counted" amd-info.err && fail "AMD, model in /proc/cpuinfo: still said unknown" || ok
expect_eq "AMD: perf's directory for the model read" \
    "$(perf_dir_of "$("$PMUTOP" list profiles --sysfs-root amd | sed -n 's/^CPU model \([^ ]*\) .*/\1/p')")" amdzen4
finish
