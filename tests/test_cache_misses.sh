#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The tasks' and cgroups' cache misses are perf's cache-misses (PERF_COUNT_HW_CACHE_MISSES),
# which each core PMU driver maps to an event of its own: the oracle is the kernel's maps
# (linux-source 6.12, kept by build-libperf.sh: arch/x86/events/intel/core.c,
# arch/x86/events/amd/core.c, drivers/perf/arm_pmuv3.c) read through perf's JSON for the
# event they name (Intel's 0x412e is LONGEST_LAT_CACHE.MISS, "missed L3"; Zen's 0x0964
# is l2_cache_req_stat.ic_dc_miss_in_l2; Arm's is L1D_CACHE_REFILL). Each demo's column,
# JSON key, CSV name and exporter HELP name that level (SPR and Xeon LLC, EPYC L2,
# Tegra410 and Grace L1D; BlueField and HIP09, whose trees have no core PMU, perf's own
# name); so does this host's, by the vendor its /proc/cpuinfo says.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 > /dev/null || skip "python3 is needed to read perf's JSON"
maps="${PERF_EVENTS_DIR:-}/../kernel-events"
x86="${PERF_EVENTS_DIR:-}/arch/x86"
[ -f "$maps/arm_pmuv3.c" ] || skip "the kernel's generic-event maps are not in '$maps' (build-libperf.sh keeps them)"
[ -f "$x86/mapfile.csv" ] || skip "perf's pmu-events JSON not found in '$x86'"
cd "$scratch"
pids=""
trap 'for p in $pids; do kill $p 2> /dev/null; done; rm -rf "$scratch"' EXIT

# vendor -> the level its driver's cache-misses counts, from the kernel's map and perf's JSON
python3 - "$maps" "$x86" > levels.txt 2> levels.err <<'PY'
import glob, json, re, sys
maps, x86 = sys.argv[1:]
def mapped(path, table):
    text = open(path).read()
    body = text[text.index(table):]
    return re.search(r"\[PERF_COUNT_HW_CACHE_MISSES\]\s*=\s*([0-9A-Za-z_x]+)", body).group(1)
def json_event(directory, config):
    code, umask = config & 0xff, (config >> 8) & 0xff
    for f in glob.glob("%s/%s/*.json" % (x86, directory)):
        for e in json.load(open(f)):
            try:
                if int(e["EventCode"], 16) == code and int(e.get("UMask", "0"), 16) == umask:
                    return e["EventName"] + " " + e.get("BriefDescription", "")
            except (KeyError, ValueError):
                pass
    raise SystemExit("no event %#x in %s" % (config, directory))
def level(text):
    for pattern, name in ((r"\bL3\b|last.level", "LLC"), (r"\bL2\b|_l2\b", "L2"), (r"L1D", "L1D")):
        if re.search(pattern, text, re.I):
            return name
    raise SystemExit("no cache level in: " + text)
intel = json_event("sapphirerapids", int(mapped(maps + "/intel-core.c", "intel_perfmon_event_map"), 16))
amd = json_event("amdzen4", int(mapped(maps + "/amd-core.c", "amd_zen4_perfmon_event_map"), 16))
arm = mapped(maps + "/arm_pmuv3.c", "armv8_pmuv3_perf_map")
print("GenuineIntel", level(intel))
print("AuthenticAMD", level(amd))
print("arm", level(arm))
PY
expect_eq "the kernel's maps and perf's JSON read" $? 0
cat levels.err >&2
want_of() { awk -v v="$1" '$1 == v { print $2 }' levels.txt; }
expect_eq "Intel's cache-misses is the last level (the oracle)" "$(want_of GenuineIntel)" LLC
expect_eq "Zen's cache-misses is L2 (the oracle)" "$(want_of AuthenticAMD)" L2
expect_eq "arm_pmuv3's cache-misses is L1D (the oracle)" "$(want_of arm)" L1D

# each demo: text column, JSON key, CSV name (the cgroups' and the tasks')
check_demo() { # DEMO LEVEL (empty: perf's own name)
    column="${2:-CACHE}-MPKI"
    key=$(printf '%s_mpki' "${2:-cache}" | tr 'A-Z' 'a-z')
    "$PMUTOP" --demo "$1" -b -n 1 --fake-clock --tasks 3 > "$1.txt" 2> "$1.err"
    expect_eq "--demo $1 --tasks: exit" $? 0
    expect_grep "--demo $1: the tasks' column" " IPC  *$column  BR-MPKI  COMMAND" "$1.txt"
    "$PMUTOP" --demo "$1" -b -n 1 --fake-clock --cgroups=3 --format json > "$1.json" 2> "$1.err"
    expect_eq "--demo $1: the cgroups' JSON key" \
        "$(python3 -c 'import json,sys; print(sorted(json.loads(open(sys.argv[1]).readline())["cgroups"][0]))' "$1.json" |
           grep -c "'$key'")" 1
    "$PMUTOP" --demo "$1" -b -n 1 --fake-clock --tasks 2 --format csv > "$1.csv" 2> "$1.err"
    expect_grep "--demo $1: the tasks' CSV name" ",tasks,task\.$key," "$1.csv"
}
check_demo spr "$(want_of GenuineIntel)"
check_demo xeon "$(want_of GenuineIntel)"
check_demo epyc "$(want_of AuthenticAMD)"
check_demo tegra410 "$(want_of arm)"
check_demo grace "$(want_of arm)"
check_demo bluefield3 ""
check_demo hip09 ""

# the exporter's family is perf's name; its HELP says the level (Tegra410's cores: L1D)
if command -v curl > /dev/null; then
    serve_bg serve.err --demo --cgroups
    spid=$served_pid port=$served_port
    has_cache() { curl -sf "http://127.0.0.1:$port/metrics" > metrics.txt && grep -q '^pmutop_cgroup_cache_misses_total{' metrics.txt; }
    if [ -n "$port" ] && wait_until "the cgroups' series" 15 has_cache; then
        ok
        expect_grep "serve: the HELP names the level" \
            "^# HELP pmutop_cgroup_cache_misses_total .*on this CPU $(want_of arm) misses" metrics.txt
    else
        fail "serve --demo --cgroups: no pmutop_cgroup_cache_misses_total: $(cat serve.err)"
    fi
    kill "$spid"
    wait "$spid" 2> /dev/null
    pids=""
else
    skip_check "curl is not installed: the exporter's HELP"
fi

# this host: the vendor its kernel says, else an Arm core PMU, else perf's name
vendor=$(sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
case $vendor in
GenuineIntel) want=$(want_of GenuineIntel) ;;
AuthenticAMD | HygonGenuine) want=$(want_of AuthenticAMD) ;;
*) if ls /sys/bus/event_source/devices 2> /dev/null | grep -q '^armv[89]_'; then want=$(want_of arm); else want=""; fi ;;
esac
"$PMUTOP" -b -n 1 -d 0.2 --tasks 2 > host.txt 2> host.err
expect_eq "this host --tasks: exit" $? 0
# (a host with perf metrics adds TopDown's columns before the command)
expect_grep "this host ($vendor): the tasks' column" " IPC  *${want:-CACHE}-MPKI  BR-MPKI .*COMMAND" host.txt
finish
