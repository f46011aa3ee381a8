#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every example of README's "Usage" block runs here and shows what its comment says. The
# examples are read from README.md itself: one the table below has no check for fails the
# test, so a new example comes with its check. Examples that run until stopped are given
# -n (and the demo's fake clock) or stopped by the PID this test started.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/tui_lib.sh"
command -v python3 > /dev/null || skip "python3 is not installed"
command -v curl > /dev/null || skip "curl is not installed"
cd "$scratch" || exit 1
pids=""
trap 'for p in $pids; do kill "$p" 2> /dev/null; done; T kill-server 2> /dev/null; rm -rf "$scratch"' EXIT
p="$PMUTOP"

# the block: from "pmutop   # the monitor" to its closing fence; each example's command
awk '/^pmutop  *# the monitor/ { on = 1 } on && /^```/ { exit } on && /^pmutop/' "$TOP_SRCDIR/README.md" |
    sed 's/  *#.*//' > examples.txt
expect_eq "README's usage block found" "$(test -s examples.txt && echo yes)" yes

# pmutop: the monitor on this machine's PMUs (the live source, the host profile)
ex_monitor() {
    PMUTOP_ARGS=""
    start 100 30 LANG=C.UTF-8
    see "pmutop: the monitor, counting this machine" "source: live"
    keys q
    quit_ok "pmutop: quit"
}
# pmutop -b -n 5: five intervals of live counters, the host profile on any machine
ex_batch() {
    "$p" -b -n 5 -d 0.1 > batch.txt 2> batch.err
    expect_eq "-b -n 5: exit" $? 0
    expect_eq "-b -n 5: five intervals" "$(grep -c ' interval [0-9.]* s  source live' batch.txt)" 5
    # (the host profile where nothing else matches; a server's uncore profile otherwise:
    # some metric row, whichever this host has)
    expect_grep "-b -n 5: metric rows" "^  [a-zA-Z_][a-zA-Z0-9_.]*  " batch.txt
}
# one JSON line with every counter's raw delta
ex_json_raw() {
    "$p" -b --format json --raw -n 1 -d 0.1 > raw.json 2> /dev/null
    python3 - raw.json <<'PY' && ok || fail "--format json --raw -n 1: one line, each counter's raw delta"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
d = json.loads(lines[0])
assert len(lines) == 1 and d["counters"] and all("delta" in c and "config" in c for c in d["counters"])
PY
}
# UCF traffic from local CPUs only: socket0's read bandwidth falls, socket1's stays
ex_ucf_filter() {
    "$p" --demo -b -n 1 --fake-clock -M ucf.slc_read_bw --format csv > all.csv 2> /dev/null
    "$p" --demo -b -n 1 --fake-clock -M ucf.slc_read_bw --format csv -f ucf@socket0:src_loc_cpu=1 > loc.csv 2> /dev/null
    v() { awk -F, -v i="$2" '$5 == i { print $6 }' "$1"; }
    expect_eq "-f ucf@socket0:src_loc_cpu=1: socket0 reads less" \
        "$(awk -v a="$(v loc.csv socket0)" -v b="$(v all.csv socket0)" 'BEGIN { print (a > 0 && a < b) ? "less" : a " of " b }')" less
    expect_eq "-f ucf@socket0:src_loc_cpu=1: socket1 as before" "$(v loc.csv socket1)" "$(v all.csv socket1)"
}
# one RC's root port 1: the NIC behind it (the PCI map: socket 1's RC4 has an Ethernet
# controller on RP1 and nothing on RP0 and RP2)
ex_pcie_filter() {
    "$p" list pci --demo > pci.txt
    expect_grep "the demo's socket1 RC4: an Ethernet controller behind root port 1" \
        "^000d:40:00.0: .*RP=01, RC=04, Socket=01" pci.txt
    for mask in 0x2 0x5; do
        "$p" --demo -b -n 1 --fake-clock -M pcie.read_bw --format csv -f "pcie@socket1/rc4:src_rp_mask=$mask" \
            > "rp$mask.csv" 2> /dev/null
    done
    v() { awk -F, -v i="$2" '$5 == i { print $6 }' "$1"; }
    expect_eq "src_rp_mask=0x2: the RC's traffic is root port 1's" "$(v rp0x2.csv socket1/rc4)" "$(v rp0x2.csv socket1/rc4/rp1)"
    expect_eq "src_rp_mask=0x2: traffic there" "$(awk -v a="$(v rp0x2.csv socket1/rc4)" 'BEGIN { print (a > 0) }')" 1
    expect_eq "src_rp_mask=0x5 (ports 0 and 2, no device): none" "$(v rp0x5.csv socket1/rc4)" 0
}
# as perf would open it: each term where the driver's format file puts it
ex_encode() {
    "$p" encode --demo 'nvidia_pcie_pmu_0_rc_4/rd_bytes,src_bdf=0x0180,src_bdf_en=1/' > enc.txt
    fmt="$DEMO/sys/bus/event_source/devices/nvidia_pcie_pmu_0_rc_4/format"
    want=$(python3 - "$fmt" <<'PY'
import sys
def put(spec, value):
    word, bits = spec.strip().split(":")
    lo = int(bits.split("-")[0])
    return word, value << lo
acc = {}
for term, value in (("src_bdf", 0x0180), ("src_bdf_en", 1)):
    word, v = put(open(f"{sys.argv[1]}/{term}").read(), value)
    acc[word] = acc.get(word, 0) | v
print(hex(acc["config1"]))
PY
)
    expect_grep "encode: config1 as the format files place src_bdf and src_bdf_en ($want)" "config1=$want	" enc.txt
}
# one PCIe function's traffic on the hip09 NIC: sicl0's rate falls to its share
ex_nic_filter() {
    "$p" --demo hip09 -b -n 1 --fake-clock -M nic.ssu_rpu.bw --format csv > nic-all.csv 2> /dev/null
    "$p" --demo hip09 -b -n 1 --fake-clock -M nic.ssu_rpu.bw --format csv -f nic@sicl0:mode=func,bdf=35:00.1 \
        > nic-func.csv 2> /dev/null
    v() { awk -F, -v i="$2" '$5 == i { print $6 }' "$1"; }
    expect_eq "-f nic@sicl0:mode=func,bdf=...: one function's share of sicl0" \
        "$(awk -v a="$(v nic-func.csv sicl0)" -v b="$(v nic-all.csv sicl0)" 'BEGIN { print (a > 0 && a < b) ? "share" : a " of " b }')" share
}
# every event string pmutop would open
ex_dry_run() {
    "$p" --demo --dry-run > dry.txt 2> /dev/null
    expect_grep "--dry-run: the UCF's event strings" "	nvidia_ucf_pmu_0/slc_bytes_rd/	" dry.txt
}
# record while watching, then replay it in the same monitor
ex_watch_record() {
    PMUTOP_ARGS="--demo -d 0.2 -w demo.pmrec"
    start 100 30 LANG=C.UTF-8
    see "--demo -w: recording, said on screen" "demo.pmrec"
    wait_until "--demo -w: samples in the file" 10 sh -c "\"$p\" record --info demo.pmrec | grep -q 'samples *[1-9]'"
    keys q
    quit_ok "--demo -w: quit"
}
ex_replay_monitor() {
    PMUTOP_ARGS="-r demo.pmrec"
    start 100 30 LANG=C.UTF-8
    see "-r: the replay's keys" "Space pause, Left/Right step"
    see "-r: the recorded demo's panes" "UCF bandwidth"
    keys q
    quit_ok "-r: quit"
}
# as batch printed it live: the replayed minute's lines are the live run's
ex_replay_range() {
    "$p" --demo -b -n 150 --fake-clock --format json -w long.pmrec > live.json 2> /dev/null
    "$p" -r long.pmrec -b --format json --begin +1m --end +2m > range.json 2> /dev/null
    n=$(wc -l < range.json)
    expect_eq "--begin +1m --end +2m: a minute of 1 s samples" "$(awk -v n="$n" 'BEGIN { print (n >= 60 && n <= 61) }')" 1
    expect_eq "--begin +1m --end +2m: each line as batch printed it live" \
        "$(grep -vxFf live.json range.json | wc -l)" 0
}
# recompute a recording through another profile: a metric the recorded run did not have,
# from the counts the live run printed (--raw: each counter's delta)
ex_replay_profile() {
    cat > my.ini <<'EOF'
[profile]
name = my
[group ucf]
pmu = nvidia_ucf_pmu_{socket}
instance = socket{socket}
events = slc_bytes_rd mem_bytes_rd
[metric ucf.slc_over_mem]
formula = slc_bytes_rd / mem_bytes_rd
EOF
    rm -f demo.pmrec # (the monitor's, above: -w refuses to write over a file)
    "$p" --demo -b -n 3 --fake-clock --format json --raw -w demo.pmrec > demo-live.json 2> /dev/null
    "$p" -r demo.pmrec -b -P my.ini --format csv > mine.csv 2> mine.err
    expect_eq "-r -P my.ini: exit" $? 0
    python3 - demo-live.json mine.csv <<'PY' && ok || fail "-r -P my.ini: slc_bytes_rd / mem_bytes_rd of the recorded counts"
import csv, json, sys
live = [json.loads(line) for line in open(sys.argv[1])]
mine = [r for r in csv.DictReader(open(sys.argv[2])) if r["metric"] == "ucf.slc_over_mem" and r["instance"] == "socket0"]
assert len(mine) == len(live) == 3
for frame, row in zip(live, mine):
    d = {c["event"]: c["delta"] for c in frame["counters"] if c["pmu"] == "nvidia_ucf_pmu_0"}
    want = d["slc_bytes_rd"] / d["mem_bytes_rd"]
    assert abs(float(row["value"]) - want) <= 1e-6 * want, (row["value"], want)
PY
}
# no screen: a rotating recording; stopped by its PID, its file replays
ex_record_rotate() {
    "$p" record -o host.pmrec --rotate 1h --keep 24 2> record.err &
    rpid=$!
    pids="$pids $rpid"
    has_sample() { f=$(ls host-*.pmrec 2> /dev/null | head -n 1); [ -n "$f" ] && "$p" record --info "$f" | grep -q 'samples *[1-9]'; }
    wait_until "record --rotate: a file named by its start, with a sample" 15 has_sample
    kill -TERM "$rpid"
    wait "$rpid"
    expect_eq "record --rotate: SIGTERM ends it cleanly" $? 0
    f=$(ls host-*.pmrec 2> /dev/null | head -n 1)
    "$p" -r "$f" -b -n 1 > /dev/null 2>&1
    expect_eq "record --rotate: its file replays" $? 0
}
# host, kernel, profiles, time range, samples, size
ex_record_info() {
    "$p" record --info demo.pmrec > info.txt
    for what in host kernel profiles samples size; do
        expect_grep "record --info says the $what" "^ *$what" info.txt
    done
    expect_grep "record --info says the time range" "^to  .*([0-9]* s)" info.txt
}
# Prometheus /metrics on 127.0.0.1:9741 (the default port; another test or program may
# hold it: then said as a skip), and the monitor and /metrics from the same frames
port_free() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",9741)); s.close()' 2> /dev/null; }
scraped() { curl -sf http://127.0.0.1:9741/metrics | grep -q '^pmutop_'; }
ex_serve() {
    port_free || { skip_check "pmutop serve: 127.0.0.1:9741 is taken here"; return; }
    "$p" serve 2> serve.err &
    spid=$!
    pids="$pids $spid"
    wait_until "pmutop serve: /metrics on 127.0.0.1:9741" 15 scraped && ok
    kill -TERM "$spid"
    wait "$spid"
    expect_eq "pmutop serve: SIGTERM ends it cleanly" $? 0
}
ex_listen() {
    port_free || { skip_check "pmutop --listen: 127.0.0.1:9741 is taken here"; return; }
    PMUTOP_ARGS="--listen 127.0.0.1:9741"
    start 100 30 LANG=C.UTF-8
    see "--listen: the monitor" "source: live"
    wait_until "--listen: /metrics beside the monitor" 15 scraped && ok
    keys q
    quit_ok "--listen: quit"
}
# recording rules: the metrics from the counters
ex_rules() {
    "$p" rules > pmutop.rules.yml
    expect_grep "rules: a rule group" "^groups:" pmutop.rules.yml
    expect_grep "rules: a metric's record from the counters" "record: pmutop:[a-z0-9_]*:rate1m" pmutop.rules.yml
    if command -v promtool > /dev/null; then
        promtool check rules pmutop.rules.yml > promtool.out 2>&1 && ok || fail "promtool check rules: $(cat promtool.out)"
    else
        skip_check "promtool is not installed: the rules file is not checked by Prometheus"
    fi
}
ex_lists() {
    for what in pmus events profiles metrics machines pci; do
        "$p" list "$what" > "list-$what.txt" 2> /dev/null
        expect_eq "list $what: exit" $? 0
    done
    for what in pmus profiles metrics machines; do
        expect_eq "list $what: says something" "$(test -s "list-$what.txt" && echo yes)" yes
    done
    "$p" list metrics --all > all.txt 2> /dev/null
    expect_eq "list metrics --all: every one, more than this machine's" \
        "$(awk -v a="$(wc -l < all.txt)" -v b="$(wc -l < list-metrics.txt)" 'BEGIN { print (a > b) }')" 1
    "$p" list metrics -v > v.txt 2> /dev/null
    expect_grep "list metrics -v: formulae" "formula" v.txt
}

# a command counted: its own output where it was, pmutop's on standard error, the summary
# of the whole run at its end, its exit status
ex_command() {
    head -c 3000000 /dev/urandom > data.tar
    "$p" -b -- gzip -k -9 data.tar > gz.out 2> gz.err
    expect_eq "-b -- gzip: the command's status" $? 0
    expect_eq "-b -- gzip: the command did its work" "$(test -s data.tar.gz && echo yes)" yes
    expect_grep "-b -- gzip: the summary" "Performance counter stats for 'gzip -k -9 data.tar' (pid [0-9]*), which exited with status 0" gz.err
}
# the top tasks after each interval: a table of ten, the busiest first
ex_tasks() {
    "$p" -b --tasks 10 -n 3 -d 0.3 > tasks.txt 2> tasks.err
    expect_eq "--tasks 10 -n 3: exit" $? 0
    expect_eq "--tasks 10 -n 3: a table an interval" "$(grep -c '^  tasks: top 10 by CPU' tasks.txt)" 3
    expect_grep "--tasks 10 -n 3: its columns" "PID USER  *CPU%  *THR .*IPC  *[A-Z0-9]*-MPKI  BR-MPKI .*COMMAND" tasks.txt
}
# the top cgroups after each interval, or why there are none to count here
ex_cgroups() {
    "$p" -b --cgroups=5 -n 3 -d 0.3 > cgroups.txt 2> cgroups.err
    status=$?
    if [ $status = 2 ] && grep -q "no cgroup hierarchy with the perf_event controller is mounted" cgroups.err; then
        skip_check "--cgroups=5: this host mounts no perf_event cgroup hierarchy (said, exit 2)"
        return
    fi
    expect_eq "--cgroups=5 -n 3: exit" $status 0
    expect_eq "--cgroups=5 -n 3: a table an interval" "$(grep -c '^  cgroups: [1-5] by CPU' cgroups.txt)" 3
    expect_grep "--cgroups=5 -n 3: its columns" "CPU%  *PROCS .*IPC  *[A-Z0-9]*-MPKI  BR-MPKI .*CGROUP" cgroups.txt
    expect_grep "--cgroups=5 -n 3: the root first" "^ *[0-9.]*  *[0-9]* .*  /$" cgroups.txt
}
# a running process, in the monitor: whose counts, and its end said
ex_pid() {
    sh -c 'while :; do :; done' &
    busy=$!
    pids="$pids $busy"
    PMUTOP_ARGS="-p $busy -d 0.3"
    start 100 30 LANG=C.UTF-8
    see "-p PID: the header says whose counts" "counting pid $busy"
    kill "$busy"
    see "-p PID: its end said" "what was counted ended"
    keys q
    quit_ok "-p PID: quit"
}

while IFS= read -r example <&3; do
    case $example in
    "pmutop") ex_monitor ;;
    "pmutop -b -n 5") ex_batch ;;
    "pmutop -b --format json --raw -n 1") ex_json_raw ;;
    "pmutop -b -- gzip -k -9 data.tar") ex_command ;;
    "pmutop -p 1234") ex_pid ;;
    "pmutop -b --tasks 10 -n 3") ex_tasks ;;
    "pmutop -b --cgroups=5 -n 3") ex_cgroups ;;
    "pmutop --demo -b -f ucf@socket0:src_loc_cpu=1") ex_ucf_filter ;;
    "pmutop --demo -b -f pcie@socket1/rc4:src_rp_mask=0x2") ex_pcie_filter ;;
    "pmutop encode --demo 'nvidia_pcie_pmu_0_rc_4/rd_bytes,src_bdf=0x0180,src_bdf_en=1/'") ex_encode ;;
    "pmutop --demo hip09 -b -f nic@sicl0:mode=func,bdf=35:00.1") ex_nic_filter ;;
    "pmutop --demo --dry-run") ex_dry_run ;;
    "pmutop --demo -w demo.pmrec") ex_watch_record ;;
    "pmutop -r demo.pmrec") ex_replay_monitor ;;
    "pmutop -r demo.pmrec -b --format json --begin +1m --end +2m") ex_replay_range ;;
    "pmutop -r demo.pmrec -b -P my.ini") ex_replay_profile ;;
    "pmutop record -o host.pmrec --rotate 1h --keep 24") ex_record_rotate ;;
    "pmutop record --info demo.pmrec") ex_record_info ;;
    "pmutop serve") ex_serve ;;
    "pmutop --listen 127.0.0.1:9741") ex_listen ;;
    "pmutop rules > pmutop.rules.yml") ex_rules ;;
    "pmutop list pmus|events|profiles|metrics|machines|pci") ex_lists ;;
    *) fail "README example without a check here: '$example'" ;;
    esac < /dev/null
done 3< examples.txt
finish
