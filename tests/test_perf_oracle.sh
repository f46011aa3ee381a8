#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The real perf tool as the oracle for encoding: bind-mount a fixture's PMU directory over
# /sys/bus/event_source/devices in a private mount namespace and let `perf stat -vv` print
# the perf_event_attr it builds for each event string pmutop opens (perf then fails to
# open it, which is fine). Every event and every filter the profiles use is compared.
. "$TOP_SRCDIR/tests/lib.sh"
command -v perf > /dev/null || skip "perf is not installed"
command -v unshare > /dev/null || skip "unshare is not installed"
unshare -m true 2> /dev/null || skip "mount namespaces are not allowed here"
cd "$scratch"

# Every event of every instance as bound by default, then with each filter of one
# instance of each group set (one at a time: some are mutually exclusive).
{
    "$PMUTOP" --demo --dry-run | grep -v '	sensor_' # sensors are files, not perf events
    for f in src_loc_cpu=1 src_loc_noncpu=1 src_rem=1 dst_loc_cmem=1 dst_loc_gmem=1 dst_loc_other=1 dst_rem=1; do
        "$PMUTOP" --demo --dry-run -f "ucf@socket1:$f" | grep '^socket1	ucf'
    done
    for f in src_rp_mask=0xa5 src_bdf=27:01.1 dst_loc_cmem=1 dst_loc_gmem=1 dst_loc_pcie_p2p=1 dst_loc_pcie_cxl=1 dst_rem=1; do
        "$PMUTOP" --demo --dry-run -f "pcie@socket0/rc4:$f" | grep '^socket0/rc4	pcie	'
    done
    for f in dst_rp_mask=0x81 dst_addr_base=0x10000,dst_addr_mask=0xfff00; do
        "$PMUTOP" --demo --dry-run -f "pcie_tgt@socket1/rc1:$f" | grep '^socket1/rc1	pcie_tgt'
    done
    "$PMUTOP" --demo --dry-run -f "c2c@socket0:gpu_mask=0x2" | grep '^socket0	c2c'
} | sort -t "$(printf "\t")" -u -k3,3 > events.tsv
n=$(wc -l < events.tsv)
[ "$n" -gt 200 ] && ok || fail "expected hundreds of distinct events, got $n"
grep -q '	!	' events.tsv && fail "an instance could not be bound: $(grep '	!	' events.tsv | head -n 3)"

# oracle TREE EVENTS.tsv: run perf on every event string of the file against TREE (perf
# prints an attr's non-zero fields only: no type line is type 0, a legacy hardware event).
# The exclude bits are compared where a modifier (":k", "/u") decides them: without one,
# perf sets exclude_guest on every event (its event_attr_init) and pmutop does not (it
# counts a guest's time too, pmutop(1) BUGS)
oracle() {
    devices="$(cd "$1/sys/bus/event_source/devices" && pwd)"
    cut -f3 "$2" > strings.txt
    unshare -m sh -c "mount --bind '$devices' /sys/bus/event_source/devices && while read -r ev; do
        perf stat -vv -e \"\$ev\" -a true 2>&1 | awk -v ev=\"\$ev\" '
            /^perf_event_attr:/ { if (seen) exit; seen = 1; t = \"0\"; c = \"0x0\"; c1 = \"0x0\"; c2 = \"0x0\"; next }
            seen && \$1 == \"type\" { t = \$2 }
            seen && \$1 == \"config\" { c = \$2 }
            seen && /config1 }/ { c1 = \$NF }
            seen && /config2 }/ { c2 = \$NF }
            seen && \$1 ~ /^exclude_(user|kernel|hv|guest)\$/ { x = x \"\\t\" \$1 \"=\" \$2; m += \$1 != \"exclude_guest\" }
            END { printf \"%s\\ttype=%s\\tconfig=%s\\tconfig1=%s\\tconfig2=%s%s\\n\", ev, t, c, c1, c2, m ? x : \"\" }'
    done < strings.txt" > perf.tsv 2> perf.err || skip "perf could not run in the namespace: $(head -c 300 perf.err)"
    # ours: the event and its attr, without --dry-run's CPUs and role columns
    awk -F '\t' -v OFS='\t' '{ n = NF; if ($n ~ /^(single|leader|member|reads:.*)$/) n--; if ($n ~ /^cpus=/) n--; s = $3
        for (i = 4; i <= n; i++) s = s OFS $i; print s }' "$2" > ours.tsv
    if cmp -s ours.tsv perf.tsv; then
        ok
    else
        fail "pmutop and perf disagree on $1:"
        diff ours.tsv perf.tsv | head -n 20 >&2
    fi
}
oracle "$DEMO" events.tsv

# perf's rules for terms: decimal values are base 10 (010 is ten, 08 is eight), a raw
# config= ORs into an alias's bits (before or after it) while a second config= replaces
# the first, name= takes any text
for ev in 'nvidia_ucf_pmu_0/event=010/' 'nvidia_ucf_pmu_0/event=08/' 'nvidia_ucf_pmu_0/slc_bytes_rd,config=0x7/' \
          'nvidia_ucf_pmu_0/config=0x7,mem_bytes_rd/' 'nvidia_ucf_pmu_0/mem_bytes_rd,name=foo/' \
          'nvidia_pcie_pmu_0_rc_1/rd_bytes,config1=0x3/' 'nvidia_ucf_pmu_0/config=1,config=2/' \
          'nvidia_ucf_pmu_0/event=1,config=2/' 'nvidia_ucf_pmu_0/config=2,event=1/' \
          'nvidia_pcie_pmu_0_rc_1/config1=0x5,rd_bytes,config1=0x2/'; do
    "$PMUTOP" encode --sysfs-root "$DEMO" "$ev" | sed 's/^/x\tterms\t/'
done > terms.tsv
# and perf's modifiers: u, k and h, alone and together, after the terms or a legacy name
for ev in 'nvidia_ucf_pmu_0/mem_bytes_rd/k' 'nvidia_ucf_pmu_0/event=0x1/u' 'nvidia_ucf_pmu_0/event=0x1/uk' \
          'nvidia_ucf_pmu_0/event=0x1/h' 'nvidia_ucf_pmu_0/event=0x1/kh' 'cpu-clock:k' 'cycles:u' \
          L1-dcache-loads L1-dcache-load-misses L1-icache-load-misses LLC-loads LLC-load-misses \
          dTLB-load-misses iTLB-load-misses branch-load-misses; do  # ... and its generic cache events
    "$PMUTOP" encode --sysfs-root "$DEMO" "$ev" | sed 's/^/x\tterms\t/'
done >> terms.tsv
[ "$(wc -l < terms.tsv)" -eq 25 ] && ok || fail "pmutop refused a term, modifier or event perf accepts: $(cat terms.tsv)"
oracle "$DEMO" terms.tsv
# ... and both refuse one alias given twice
# (perf prints no attr at all: empty fields)
printf 'x\tterms\tnvidia_ucf_pmu_0/mem_bytes_rd,mem_bytes_rd/\ttype=\tconfig=\tconfig1=\tconfig2=\n' > twice.tsv
oracle "$DEMO" twice.tsv
"$PMUTOP" encode --sysfs-root "$DEMO" 'nvidia_ucf_pmu_0/mem_bytes_rd,mem_bytes_rd/' > /dev/null 2> twice.err
expect_eq "an alias twice is refused" $? 1
expect_grep "an alias twice: why" "two events in one" twice.err

# HNS3: every event of the NIC profile under every filter mode the driver has (the mode's
# companion values included), on a tree as the driver prints it
sh "$TOP_SRCDIR/tests/fixtures/gen-hns3.sh" nic 0 2
for f in mode=global mode=port,port=1 mode=port-tc,port=2,tc=3 mode=func,bdf=35:00.1 mode=func-queue,bdf=35:00.2,queue=5; do
    "$PMUTOP" --sim --sysfs-root nic -P hip09-hns3 --dry-run -f "nic@sicl0:$f"
done | grep '^sicl0' | sort -t "$(printf "\t")" -u -k3,3 > nic.tsv
m=$(wc -l < nic.tsv)
[ "$m" -ge 60 ] && ok || fail "nic: expected every event under several modes, got $m"
oracle nic nic.tsv
n=$((n + m))
# ... driven by intent: what the user asks for (-f) against the terms hns3-pmu.rst gives for
# that mode, written here from the document and never from what pmutop built. perf encodes
# the document's string; pmutop's opened attr must be the same, event by event.
while IFS='|' read -r intent doc; do
    "$PMUTOP" --sim --sysfs-root nic -P hip09-hns3 --dry-run -f "nic@sicl0:$intent" > intent.tsv 2> intent.err \
        || fail "hns3 $intent refused: $(cat intent.err)"
    grep '^sicl0' intent.tsv | awk -F'\t' -v doc="$doc" 'BEGIN { OFS = "\t" }
        { split($3, a, "[/,]"); $3 = a[1] "/" a[2] "," doc "/"; print }'
done > nic-intent.tsv <<'EOF'
mode=global|global=1
mode=port,port=1|port=1,tc=0xF
mode=port,port=0|port=0,tc=0xF
mode=port-tc,port=2,tc=3|port=2,tc=3
mode=port-tc,port=0,tc=0|port=0,tc=0
mode=port-tc,port=3,tc=7|port=3,tc=7
mode=func,bdf=35:00.1|bdf=0x3501,queue=0xFFFF
mode=func-queue,bdf=35:00.2,queue=5|bdf=0x3502,queue=5
mode=func-queue,bdf=35:00.1,queue=2|bdf=0x3501,queue=2
mode=func-queue,bdf=35:00.3,queue=0|bdf=0x3503,queue=0
mode=port,port=1,queue=3,bdf=35:00.1|port=1,tc=0xF
mode=global,port=2,tc=1|global=1
mode=func,bdf=35:00.2,tc=4,port=3|bdf=0x3502,queue=0xFFFF
EOF
m=$(wc -l < nic-intent.tsv)
[ "$m" -ge 100 ] && ok || fail "hns3 intents: expected every counted event under 13 intents, got $m"
oracle nic nic-intent.tsv
n=$((n + m))
# a mode without the values the document says it must have counts nothing (the driver
# would pick another mode, or another queue); a mode no event supports is refused
for intent in mode=func-queue,bdf=35:00.1 mode=port-tc,port=1 mode=port,tc=3 mode=func; do
    "$PMUTOP" --sim --sysfs-root nic -P hip09-hns3 --dry-run -f "nic@sicl0:$intent" | grep '^sicl0' > none.tsv
    [ ! -s none.tsv ] && ok || fail "hns3 $intent opened events without its required values: $(head -n 1 none.tsv)"
done
for intent in mode=port-tc,port=1,tc=15 mode=func-queue,bdf=35:00.1,queue=0xffff mode=func-intr,bdf=35:00.1,intr=0; do
    "$PMUTOP" --sim --sysfs-root nic -P hip09-hns3 --dry-run -f "nic@sicl0:$intent" > /dev/null 2> refused.err
    expect_eq "hns3 $intent is refused (a usage error)" $? 2
done
expect_grep "func-intr: why" "mode func-intr is accepted by none of its events" refused.err
# ... and all 110 events the driver has, each with every mode's terms, through encode
for ev in $(ls nic/sys/bus/event_source/devices/hns3_pmu_sicl_2/events); do
    for terms in global=1 tc=0xf,port=2 tc=3,port=1 queue=0xffff,bdf=0x3701 bdf=0x3702,queue=7; do
        "$PMUTOP" encode --sysfs-root nic "hns3_pmu_sicl_2/$ev,$terms/" | sed 's/^/x\tnic\t/'
    done
done > nic-all.tsv
m=$(wc -l < nic-all.tsv)
[ "$m" -eq 550 ] && ok || fail "nic: expected 110 events x 5 modes, got $m"
oracle nic nic-all.tsv
n=$((n + m))

# TopDown on every Intel family: perf metrics (Sapphire Rapids, Ice Lake), generic events
# (Skylake), hybrid P- and E-cores (Alder Lake, event files without newlines)
for kind in spr icl skl adl; do
    sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" $kind "cpu-$kind" 1 4
    "$PMUTOP" --sim --sysfs-root "cpu-$kind" --dry-run -P topdown | sort -t "$(printf "\t")" -u -k3,3 > "td-$kind.tsv"
    m=$(wc -l < "td-$kind.tsv")
    [ "$m" -gt 0 ] && ok || fail "$kind: no TopDown events bound"
    grep -q '	!	' "td-$kind.tsv" && fail "$kind: $(grep '	!	' "td-$kind.tsv" | head -n 1)"
    oracle "cpu-$kind" "td-$kind.tsv"
    n=$((n + m))
done
# every distinct event string a profile opens on a tree: at least MIN, none refused (!),
# each encoded as perf does
profile_oracle() { # NAME PROFILE MIN WHAT
    "$PMUTOP" --sim --sysfs-root "$1" --dry-run -P "$2" | sort -t "$(printf "\t")" -u -k3,3 > "$1.tsv"
    m=$(wc -l < "$1.tsv")
    [ "$m" -ge "$3" ] && ok || fail "$1: expected $4, got $m"
    grep -q '	!	' "$1.tsv" && fail "$1: $(grep '	!	' "$1.tsv" | head -n 1)"
    oracle "$1" "$1.tsv"
    n=$((n + m))
}
# perf's catalogue: every event a generated profile opens (Sapphire Rapids' and Skylake-SP's
# metrics: perf's JSON encodings, offcore_rsp=, frontend=, ldlat=, cmask and edge terms, the
# TSX aliases, msr and C-state events, the uncore's with their split umask, ch_mask and
# fc_mask, a CHA event's config1) encoded as perf encodes the same string on the same tree
arch="${PERF_EVENTS_DIR:-}/arch/x86"
if command -v python3 > /dev/null && [ -f "$arch/mapfile.csv" ]; then
    for cat in sapphirerapids:spr:spr:143:8 skylakex:skl:skx:85:4; do
        IFS=: read -r dir kind uncore model step <<SPEC
$cat
SPEC
        python3 "$TOP_SRCDIR/tools/gen-catalogue.py" "$arch" catalogue "$dir" > /dev/null
        sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" "$kind" "$dir" 1 2
        XEON_MODEL=$uncore sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" "$dir" 1 2 2 1 1 2 # and its uncore
        mkdir -p "$dir/proc"
        printf 'vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\nstepping\t: %d\n\n' "$model" "$step" > "$dir/proc/cpuinfo"
        profile_oracle "$dir" "catalogue/$dir.ini" 170 "170 or more core and uncore events of perf's catalogue"
    done
else
    skip_check "the catalogue's events: python3 or perf's pmu-events JSON is missing"
fi
# Xeon uncore (Sapphire Rapids, as the drivers print it: events without a newline, box
# ids with a hole, three sockets): every event the xeon profile opens, per socket
sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" xeon 3 4 6 3 4 2
mv xeon/sys/bus/event_source/devices/uncore_imc_5 xeon/sys/bus/event_source/devices/uncore_imc_9
profile_oracle xeon xeon 144 "144 IMC, UPI, IIO (free-running too), CHA, M2M and PCU events"
# ... and an Ice Lake-SP's (its own CAS codes, CHA umask field, clock-tick, M2M and PCU
# events): 6 IMCs x 2, 3 UPI x 2, 2 CHAs x 24, 3 M2Ms x 1, 4 free-running IIO stacks x 8
# inbound, the PCU's 7
XEON_MODEL=icx sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" icx 2 4 6 3 4 2
profile_oracle icx xeon 108 "108 IMC, UPI, CHA, M2M, free-running IIO and PCU events"

# Grace uncore (PMUs suffixed by NUMA node, here 0 and 4): every event the grace profile
# opens, with the root ports and remote sockets it sets (6.12 counts nothing on a filter
# of 0) and with a filter of the user's
sh "$TOP_SRCDIR/tests/fixtures/gen-grace.sh" grace 2 4 "0 4"
{
    "$PMUTOP" --sim --sysfs-root grace --dry-run
    "$PMUTOP" --sim --sysfs-root grace --dry-run -f pcie@socket1:root_port=0x5 -f cnvlink@socket1:rem_socket=0x2 | grep '^socket1	\(pcie\|cnvlink\)'
} | sort -t "$(printf "\t")" -u -k3,3 > grace.tsv
m=$(wc -l < grace.tsv)
[ "$m" -ge 50 ] && ok || fail "grace: expected every SCF, PCIe, C2C and CNVLink event, got $m"
grep -q 'nvidia_pcie_pmu_4/rd_bytes_loc,root_port=0x3ff/' grace.tsv && grep -q 'nvidia_cnvlink_pmu_0/rd_bytes_loc,rem_socket=0xf/' grace.tsv &&
    ok || fail "grace: PCIe and CNVLink events must name every root port and remote socket"
oracle grace grace.tsv
n=$((n + m))

# AMD EPYC memory controllers: no events/ in sysfs, perf's JSON encodings with rdwrmask
sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" epyc 2 8 "12 11"
"$PMUTOP" --sim --sysfs-root epyc --dry-run | sort -t "$(printf "\t")" -u -k3,3 > epyc.tsv
m=$(wc -l < epyc.tsv)
[ "$m" -ge 100 ] && ok || fail "epyc: expected five events on each of 23 UMCs, got $m"
oracle epyc epyc.tsv
n=$((n + m))
# ... and a Zen 5's (its own data fabric events and L3 group)
EPYC_MODALIAS="cpu:type:x86,ven0002fam001Amod0002:feature:,0000" sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" zen5 2 8 "12 12"
"$PMUTOP" --sim --sysfs-root zen5 --dry-run | grep -v "	umc	" | sort -t "$(printf "\t")" -u -k3,3 > zen5.tsv
m=$(wc -l < zen5.tsv)
[ "$m" -eq 100 ] && ok || fail "zen 5: expected 92 data fabric and 8 L3 events, got $m"
oracle zen5 zen5.tsv
n=$((n + m))

# the host profile on this machine's own sysfs (software events, msr/tsc/, RAPL if any)
"$PMUTOP" --dry-run -P host | sort -t "$(printf "\t")" -u -k3,3 > host.tsv
m=$(wc -l < host.tsv)
[ "$m" -ge 4 ] && ok || fail "host: expected the software events and the TSC, got $m"
cut -f3 host.tsv > strings.txt
while read -r ev; do
    perf stat -vv -e "$ev" -a true 2>&1 | awk -v ev="$ev" '
        /^perf_event_attr:/ { if (seen) exit; seen = 1; t = "?"; c = "0x0"; c1 = "0x0"; c2 = "0x0"; next }
        seen && $1 == "type" { t = $2 }
        seen && $1 == "config" { c = $2 }
        seen && /config1 }/ { c1 = $NF }
        seen && /config2 }/ { c2 = $NF }
        END { printf "%s\ttype=%s\tconfig=%s\tconfig1=%s\tconfig2=%s\n", ev, t, c, c1, c2 }'
done < strings.txt > perf-host.tsv
# an event pmutop says this machine lacks ("!": a RAPL PMU without energy-pkg, as cloud
# VMs have) is one perf cannot open either: no perf_event_attr from it
awk -F '\t' '$4 == "!" { printf "%s\ttype=\tconfig=\tconfig1=\tconfig2=\n", $3; next }
              { print $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 }' host.tsv > ours-host.tsv
if cmp -s ours-host.tsv perf-host.tsv; then ok; else fail "host events differ from perf:"; diff ours-host.tsv perf-host.tsv >&2; fi
# the same on host variants this machine is not: each event string perf is asked for on
# a fake tree with a RAPL PMU that has no events, or only energy-psys
for v in empty psys; do
    sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" "host-$v" vm "$v" yes 2
    "$PMUTOP" --sim --sysfs-root "host-$v" --dry-run -P host | awk -F '\t' '$2 == "power"' > "power-$v.tsv"
    devs="$scratch/host-$v/sys/bus/event_source/devices"
    case $v in
    empty) want="power/energy-pkg/ power/energy-psys/" ;;
    psys) want="power/energy-psys/" ;;
    esac
    expect_eq "host variant $v: the power events pmutop asks for" "$(cut -f3 "power-$v.tsv" | tr '\n' ' ')" "$want "
    lacks=$(awk -F '\t' '$4 == "!"' "power-$v.tsv" | wc -l)
    expect_eq "host variant $v: events said to be not on this machine" "$lacks" "$([ $v = empty ] && echo 2 || echo 0)"
    while IFS="$(printf '\t')" read -r _ _ ev mark _; do
        got=$(unshare -m sh -c "mount --bind '$devs' /sys/bus/event_source/devices && perf stat -vv -e '$ev' -a true" 2>&1 |
              grep -c '^perf_event_attr:')
        if [ "$mark" = "!" ]; then expect_eq "host variant $v: perf cannot open $ev either" "$got" 0
        else [ "$got" -ge 1 ] && ok || fail "host variant $v: perf did not open $ev, which pmutop opens"; fi
    done < "power-$v.tsv"
done
n=$((n + m))

# A formula that adds a term to a named event (cpu@RS.EMPTY,umask=1@ in perf's Sapphire
# Rapids metrics: Intel's RS.EMPTY_RESOURCE, umask 1): perf's parser ORs the term into the
# event's own umask (0x07 | 1: RS.EMPTY itself, 0x7a5), pmutop counts what is written
# (0x1a5, as Intel's EVENT:u0x1 means), and each metric that reads it says so in `list
# metrics -v`. perf's side from perf itself, its JSON picked by PERF_CPUID on the SPR tree
if [ -d "$TOP_BUILDDIR/catalogue" ] && [ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ]; then
    devs="$(cd "$TOP_SRCDIR/profiles/machines/spr/sys/bus/event_source/devices" && pwd)"
    perf_rs=$(unshare -m sh -c "mount --bind '$devs' /sys/bus/event_source/devices &&
        PERF_CPUID=GenuineIntel-6-8F-8 perf stat -vv -e 'cpu/RS.EMPTY,umask=1/' -a true" 2>&1 | awk '$1 == "config" { print $2; exit }')
    if [ -n "$perf_rs" ]; then
        expect_eq "perf ORs a term into its event's: cpu/RS.EMPTY,umask=1/" "$perf_rs" 0x7a5
    else
        skip_check "this perf does not know Sapphire Rapids' RS.EMPTY (PERF_CPUID): its ORed umask not seen"
    fi
    "$PMUTOP" --demo spr --dry-run -P perf -M tma_ports_utilized_0 | awk -F '\t' '$1 == "cpu0" && $3 ~ /event=0xa5/' > rs.tsv
    expect_eq "pmutop counts cpu@RS.EMPTY,umask=1@ as written" "$(cut -f5 rs.tsv)" "config=0x1a5"
    "$PMUTOP" list --demo spr metrics -v -P perf > rs-list.txt 2> /dev/null
    expect_grep "list metrics -v: the departure said on the metric" "^tma_ports_utilized_0 .*Departs from perf: cpu@RS.EMPTY,umask=1@ is umask=1 here, as written; perf 6.12 ORs it into the event's umask=0x7, counting umask=0x7" rs-list.txt
else
    skip_check "perf's catalogue is not built: the ORed umask is not compared"
fi

echo "compared $n event strings with perf"
finish
