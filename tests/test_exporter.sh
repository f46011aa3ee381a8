#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pmutop serve under a real Prometheus (Debian's prometheus, promtool): the exposition
# passes promtool, a 1 s scrape gives up == 1, PromQL's rate() of an exported byte counter
# agrees with pmutop's own gauge and a recording rule from pmutop rules with both (the
# default model's fixed rates make them exact), a cgroup's CPU (serve --cgroups) is its
# children's sum in PromQL and its IPC rule pmutop's own figure, counters never decrease
# over 1000 scrapes,
# and hostile clients (1000 connections, a 1 MB header, a slow one) neither stop it nor
# grow it. Every process is ended by its PID.
. "$TOP_SRCDIR/tests/lib.sh"
command -v promtool > /dev/null && command -v prometheus > /dev/null || skip "Debian's prometheus package is not installed"
command -v curl > /dev/null || skip "curl is not installed"
cd "$scratch"
pids=""
trap 'for p in $pids; do kill $p 2> /dev/null; done; rm -rf "$scratch"' EXIT
tree="$TOP_SRCDIR/profiles/machines/tegra410"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# (under ASan, freed memory waits in a quarantine: keep it small so RSS means memory held)
ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=4" \
    "$PMUTOP" serve --sim --sysfs-root "$tree" --listen 127.0.0.1:0 -d 0.1 2> serve.err &
spid=$!
pids="$spid"
port_known() { grep -q "(port [0-9]*)\|cannot listen" serve.err; }
wait_until "pmutop serve says its port" 10 port_known || { cat serve.err >&2; finish; exit 1; }
grep -q "cannot listen" serve.err && skip "no port can be bound on 127.0.0.1 here: $(cat serve.err)"
port=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' serve.err)
url=http://127.0.0.1:$port/metrics
has_values() { curl -sf "$url" | grep -q '^pmutop_ucf_mem_read_bw_bytes_per_second{'; }
wait_until "the first values" 10 has_values

curl -sf "$url" > text.txt
promtool check metrics < text.txt > lint.out 2>&1
expect_eq "promtool check metrics: no problem" "$(cat lint.out)" ""
expect_grep "counters end in _total" '^pmutop_ucf_mem_bytes_rd_total{pmu="nvidia_ucf_pmu_0",socket="0",name="socket0"} ' text.txt
expect_grep "gauges in base units" '^# TYPE pmutop_ucf_mem_read_bw_bytes_per_second gauge' text.txt
expect_grep "build info" '^pmutop_build_info{version="' text.txt
expect_grep "counting state" '^pmutop_instance_counting{.*group="ucf"} 1' text.txt
grep -q 'instance="' text.txt && fail "the label 'instance' belongs to Prometheus" || ok
# a time stamp would be a third field after the labels
awk '!/^#/ { sub(/\{.*\}/, ""); if (NF != 2) bad = 1 } END { exit bad }' text.txt && ok || fail "no timestamps"
expect_eq "no per-CPU series unless asked" "$(grep -c 'cpu="' text.txt)" 0
[ "$(grep -vc '^#' text.txt)" -lt 10000 ] && ok || fail "under 10000 series"
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' "$url" > om.txt
expect_eq "OpenMetrics ends with # EOF" "$(tail -n 1 om.txt)" "# EOF"
expect_grep "OpenMetrics units" '^# UNIT pmutop_ucf_mem_read_bw_bytes_per_second bytes_per_second' om.txt
expect_grep "OpenMetrics counter family without _total" '^# TYPE pmutop_ucf_mem_bytes_rd counter' om.txt
# q=0 is "not acceptable" (RFC 9110): the text format then
curl -sf -H 'Accept: application/openmetrics-text; q=0, text/plain' "$url" > om0.txt
[ "$(tail -n 1 om0.txt)" != "# EOF" ] && ok || fail "Accept: OpenMetrics;q=0 was answered in OpenMetrics"
expect_eq "only GET" "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url")" 405
# a body announced on /metrics is refused before it is read (a trickled gigabyte held a
# connection past every limit), and a transfer coding nobody knows is not waited for:
# each answered at once, the client's 4 s deadline only a guard; so are a thousand query
# parameters (/metrics reads none; Prometheus's scrape params are a few)
python3 - "$port" << 'PY' && ok || fail "a body on /metrics is not refused at once"
import socket, sys
def ask(head):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=4)
    s.sendall(head.encode())
    got = s.recv(200).decode(errors="replace")
    s.close()
    return got.split("\r\n")[0]
for head, want in (("POST /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000000\r\n\r\n", " 413 "),
                   ("GET /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000000\r\n\r\n", " 413 "),
                   ("GET /metrics HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: xchunked\r\n\r\n", " 501 "),
                   # a thousand query parameters filled libmicrohttpd's pool: no answer at all
                   ("GET /metrics?" + "&".join(["a"] * 1000) + " HTTP/1.1\r\nHost: t\r\n\r\n", " 400 "),
                   ("GET /metrics?" + "&".join(["a"] * 64) + " HTTP/1.1\r\nHost: t\r\n\r\n", " 200 ")):
    line = ask(head)
    assert want in line, (head.split("\r\n")[0], line)
PY
expect_eq "unknown path" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/nope")" 404
curl -sf "http://127.0.0.1:$port/" | grep -q 'href="/metrics"' && ok || fail "/ links /metrics"

# the recording rules pass promtool
# (a short window: the test cannot wait the default minute for a full one; long enough
# that pmutop's 0.1 s refresh steps, seen by 1 s scrapes, stay under 1 %)
"$PMUTOP" rules --window 20s --sim --sysfs-root "$tree" > rules.yml
promtool check rules --lint-fatal rules.yml > rules.out 2>&1 && ok || fail "promtool check rules: $(cat rules.out)"
# ... on every demo (sensors' power from power or energy files is one rule, not two)
for demo in $("$PMUTOP" list machines | awk '{ print $1 }'); do
    "$PMUTOP" rules --demo="$demo" > "rules-$demo.yml" 2> "rules-$demo.err" || fail "rules --demo=$demo: $(cat "rules-$demo.err")"
    promtool check rules --lint-fatal "rules-$demo.yml" > rules.out 2>&1 && ok || fail "promtool check rules --demo=$demo: $(cat rules.out)"
done

# serve_demo NAME ARGS...: pmutop serve on a demo, its port in $dport, its PID in $dpid
serve_demo() {
    sd_name=$1; shift
    # the last server of this demo said its port in this file: gone before this one
    # starts, or the wait below can read the old port before the new process truncates
    # the file (a dead port: HTTP 000 for the whole deadline, as CI saw under load)
    rm -f "serve-$sd_name.err"
    "$PMUTOP" serve --demo="$sd_name" --listen 127.0.0.1:0 -d 0.1 "$@" 2> "serve-$sd_name.err" &
    dpid=$!
    pids="$pids $dpid"
    sd_known() { grep -q "(port [0-9]*)" "serve-$sd_name.err"; }
    wait_until "pmutop serve --demo=$sd_name says its port" 10 sd_known || return 1
    dport=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' "serve-$sd_name.err")
}
stop_demo() { kill "$dpid"; wait "$dpid" 2> /dev/null; }

# every demo's exposition: promtool-clean and named as Prometheus' naming guide says
# (lower case, one unit suffix in base units, no unit-less duplicates of a metric)
for demo in $("$PMUTOP" list machines | awk '{ print $1 }'); do
    serve_demo "$demo" || continue
    scraped() { curl -sf "http://127.0.0.1:$dport/metrics" > "expo-$demo.txt" && grep -q '_per_second{' "expo-$demo.txt"; }
    wait_until "--demo=$demo: values" 10 scraped
    stop_demo
    promtool check metrics < "expo-$demo.txt" > lint.out 2>&1
    expect_eq "--demo=$demo: promtool check metrics" "$(cat lint.out)" ""
    grep -v '^#' "expo-$demo.txt" | sed 's/[{ ].*//' | sort -u > "names-$demo.txt"
    bad=$(grep -E '[A-Z]|_value(_|$)|_bytes_bytes|_pps_per|_w_watts|_ghz_hertz|_ns_seconds' "names-$demo.txt" | head -n 5 | tr '\n' ' ')
    expect_eq "--demo=$demo: series names" "$bad" ""
done
expect_grep "energy counters in joules" '^pmutop_power_energy_pkg_joules_total' names-spr.txt

# every metric of perf's Sapphire Rapids catalogue: its series named by the one rule
# pmutop(1) states (pmutop_ + the name lower-cased, any other character one '_', a word
# promtool reads as a unit joined to the word before, the unit's base-unit suffix once),
# written here from the manual, and its HELP beginning with perf's own name, so grep
# finds tma_ms_switches (pmutop_tmams_switches_ratio)
if [ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ]; then
    "$PMUTOP" list --demo=spr metrics -P perf > spr-metrics.txt 2> /dev/null
    "$PMUTOP" --demo=spr -P perf -b -n 2 --fake-clock --format json 2> /dev/null | tail -n 1 > spr-values.json
    serve_demo spr -P perf
    scraped_all() { curl -sf "http://127.0.0.1:$dport/metrics" > expo-spr-perf.txt && grep -q '^pmutop_tma_retiring_ratio{.*} [0-9]' expo-spr-perf.txt; }
    wait_until "--demo=spr -P perf: values" 20 scraped_all
    stop_demo
    python3 - spr-metrics.txt expo-spr-perf.txt spr-values.json > names.out << 'PY' && ok || fail "series names: $(head -c 600 names.out)"
import json, re, sys
valued = {m["metric"] for m in json.load(open(sys.argv[3]))["metrics"] if m.get("value") is not None}
UNITS = {"GB/s": "bytes_per_second", "MB/s": "bytes_per_second", "B/s": "bytes_per_second", "ns": "seconds",
         "us": "seconds", "ms": "seconds", "s": "seconds", "%": "ratio", "GHz": "hertz", "MHz": "hertz",
         "W": "watts", "J": "joules", "/s": "per_second", "x": "ratio", "MiB": "bytes"}
SAID = {"bytes_per_second": "_bytes", "watts": "_w", "hertz": ("_ghz", "_mhz", "_hz"), "seconds": "_ns"}
ABBREV = {"s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb", "m", "h", "d"}
def series(name, unit):
    n = re.sub(r"_+", "_", re.sub(r"[^a-z0-9_]", "_", ("pmutop_" + name).lower())).rstrip("_")
    words = n.split("_")
    out = words[:2]
    for w in words[2:]:
        if w in ABBREV:
            out[-1] += w
        else:
            out.append(w)
    n = "_".join(out)
    suffix = UNITS.get(unit, "")
    if suffix and not n.endswith(suffix):
        for said in (SAID.get(suffix, ()) if isinstance(SAID.get(suffix), tuple) else (SAID.get(suffix, ""),)):
            if said and n.endswith(said):
                n = n[: -len(said)]
                break
        n += "_" + suffix
    return n
helps = {}
for line in open(sys.argv[2]):
    if line.startswith("# HELP "):
        fam, _, text = line[7:].partition(" ")
        helps[fam] = text
checked, bad = 0, []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 3 or "perf-sapphirerapids" not in f or line.rstrip().endswith("(not on this machine)"):
        continue
    name, unit = f[0], f[1] if f[1] != "perf-sapphirerapids" else ""
    if name not in valued:  # no value on this demo (SMIs): no series either
        continue
    want = series(name, unit)
    if want not in helps:
        bad.append("%s: no series %s" % (name, want))
    elif not helps[want].startswith(name):
        bad.append("%s: %s's help does not begin with it: %s" % (name, want, helps[want][:60]))
    checked += 1
print("%d metrics checked; %s" % (checked, bad[:5]))
sys.exit(1 if bad or checked < 200 else 0)
PY
    expect_grep "tma_ms_switches: one '_' joined, its help says perf's name" "^# HELP pmutop_tmams_switches_ratio tma_ms_switches" expo-spr-perf.txt
else
    skip_check "perf's catalogue is not built: its series names are not checked"
fi
# the TopDown pane's rows whose values are perf's (Neoverse, Sapphire Rapids) count
# where perf's instances count: a row showing a value is not 'not counting'
for dg in tegra410:arm_v2 spr:perfmetrics; do
    d=${dg%%:*} g=${dg#*:}
    grep "^pmutop_instance_counting{.*group=\"$g\"}" "expo-$d.txt" > "counting-$g.txt"
    expect_eq "--demo=$d: TopDown's $g rows counting" "$(awk '{ print $2 }' "counting-$g.txt" | sort -u | tr '\n' ' ')" "1 "
    grep -q '^pmutop_topdown_retiring_ratio{.*name="all"} [0-9]' "expo-$d.txt" && ok || fail "--demo=$d: no retiring value"
done
# perf's TopDown tree (--demo spr counts levels 1-3): each node's series carries its path
expect_grep "a TopDown node's path as a label" \
    '^pmutop_tma_dram_bound_ratio{.*node="tma_backend_bound/tma_memory_bound/tma_dram_bound"' expo-spr.txt
expect_grep "a level-1 node: its own name" '^pmutop_tma_retiring_ratio{.*node="tma_retiring"' expo-spr.txt
expect_grep "a PMU's clock frequency in hertz" '^pmutop_nic_hw_clk_freq_hertz' names-hip09.txt
expect_grep "ECC errors are a rate" '^pmutop_bf_ecc_single_errors_per_second' names-bluefield2.txt

# a counter whose event the user chose: exported by its role, the event as a label, and
# the filters said by pmutop_filter_info
serve_demo bluefield2 -f tile@tile0:watch=A72_ACCESS
chosen() { curl -sf "http://127.0.0.1:$dport/metrics" > chosen.txt && grep -q '^pmutop_tile_watch_total{' chosen.txt; }
# (CI saw no series here for 30 s, the server alive and HTTP 000: serve_demo had read
# the port of the loop's bluefield2 server, since stopped; it now removes the file first)
wait_until "the chosen event's series" 30 chosen || {
    if kill -0 "$dpid" 2> /dev/null; then
        echo "(serve alive, HTTP $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$dport/metrics"))" >&2
    else
        echo "(serve exited)" >&2
    fi
    cat serve-bluefield2.err >&2
}
stop_demo
expect_grep "the chosen event is a label" '^pmutop_tile_watch_total{pmu="bfperf_tile0",.*event="A72_ACCESS"} ' chosen.txt
expect_grep "its metric too" '^pmutop_bf_tile_watch_per_second{pmu="bfperf_tile0",.*event="A72_ACCESS"} ' chosen.txt
expect_grep "the filters as an info series" '^pmutop_filter_info{pmu="bfperf_tile0",.*filters="watch=A72_ACCESS"} 1$' chosen.txt
grep -q '^pmutop_tile_watch_total{pmu="bfperf_tile1",.*event="DISABLE"} ' chosen.txt && ok || fail "the default event named"

# a scrape before the first frame is 503, not an empty 200 that makes every series stale
serve_demo tegra410 -d 60
expect_eq "no frame yet: 503" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$dport/metrics")" 503
stop_demo

# where it serves, said with the port as bound; every address is said to be open to all
"$PMUTOP" serve --demo --listen localhost:0 -n 1 -d 0.1 > /dev/null 2> where.err
expect_grep "localhost is the loopback, the bound port said" "serving http://127.0.0.1:[1-9][0-9]*/metrics (port [1-9]" where.err
"$PMUTOP" serve --demo --listen :0 -n 1 -d 0.1 > /dev/null 2> where.err
expect_grep "every address: said, with a warning" "serving http://0.0.0.0:[1-9][0-9]*/metrics .*on every address.*no authentication" where.err

# a socket row counting its CPUs (bind_cpu_sums.c: serve without --per-cpu, no CPU's
# row) is the same series as the sum of the CPUs' rows (--per-cpu): the same names and
# labels, no pmu label a sum has not
for how in sums percpu; do
    if [ $how = sums ]; then serve_bg rows-$how.err --demo; else serve_bg rows-$how.err --demo --per-cpu; fi
    dpid=$served_pid dport=$served_port
    rows_scraped() { curl -sf "http://127.0.0.1:$dport/metrics" > "rows-$how.txt" && grep -q '_per_second{' "rows-$how.txt"; }
    wait_until "serve $how: a scrape" 10 rows_scraped
    stop_demo
    grep -v '^#' "rows-$how.txt" | grep -v 'cpu="' | sed 's/ [^ ]*$//' | sort > "series-$how.txt"
done
expect_eq "socket rows counting their CPUs: the series of the CPUs' sums" "$(diff series-percpu.txt series-sums.txt | head -5)" ""
[ "$(wc -l < series-sums.txt)" -gt 100 ] && ok || fail "serve --demo: $(wc -l < series-sums.txt) series"

# label values from files (a sensor label with quotes, a backslash) are escaped, and the
# exposition still passes promtool
cp -R "$tree" esc
printf 'Socket 0 "SoC" \\ edge\n' > esc/sys/class/hwmon/hwmon0/temp1_label
serve_bg esc.err --sim --sysfs-root esc
dpid=$served_pid eport=$served_port
esc_values() { curl -sf "http://127.0.0.1:$eport/metrics" > esc.txt && grep -q '^pmutop_sensors_temp_celsius{' esc.txt; }
wait_until "the escaped label's value" 10 esc_values
stop_demo
expect_grep "quotes and backslashes escaped" 'label="Socket 0 \\"SoC\\" \\\\ edge"' esc.txt
promtool check metrics < esc.txt > lint.out 2>&1
expect_eq "escaped labels: promtool check metrics" "$(cat lint.out)" ""

# slow clients (slowloris: a header byte a second) from many addresses cannot take
# /metrics away: 120 of them while a scraper scrapes once a second (every answer under
# 1 s), each closed once its request has taken the limit's 5 s; 50 parallel scrapes from
# one address are all answered. With --http-limits 16,4,2 (every connection held by
# trickling clients), a scrape still gets in, when the guard closes the slowest.
slow_test() { # PORT SLOW_CLIENTS SCRAPE_SECONDS MAX_ANSWER_SECONDS
    python3 - "$@" <<'PY'
import socket, sys, time, threading, urllib.request
port, nslow, secs, worst_ok = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
slow = []
for i in range(nslow):  # 127.0.0.2 ... : many addresses, each under the per-address limit
    s = socket.socket()
    s.bind(("127.0.0.%d" % (2 + i % 250), 0))
    s.settimeout(2)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    slow.append(s)
stop = time.time() + secs
def trickle():
    while time.time() < stop:
        for s in slow:
            try:
                s.send(b"a")
            except OSError:
                pass
        time.sleep(1)
t = threading.Thread(target=trickle)
t.start()
worst = 0
while time.time() < stop:
    t0 = time.time()
    body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10).read()
    assert b"pmutop_build_info" in body
    worst = max(worst, time.time() - t0)
    time.sleep(max(0, 1 - (time.time() - t0)))
t.join()
closed = 0
for s in slow:  # the guard shut them down: the server said nothing, or closed
    try:
        s.settimeout(0.5)
        closed += s.recv(100) == b""
    except OSError:
        closed += 1
print("worst scrape %.3f s, %d of %d slow clients closed" % (worst, closed, nslow))
assert worst < worst_ok, worst
assert closed == nslow, closed
PY
}
# the demo served, once it answers: its port in $sport
serve_answering() {
    serve_demo tegra410 "$@"
    sport=$dport
    wait_until "its first frame" 10 curl -sf "http://127.0.0.1:$sport/metrics" -o /dev/null
}
serve_answering
slow_test "$sport" 120 10 1 > slow.out 2>&1 && ok || fail "120 slow clients: $(tail -n 5 slow.out)"
python3 - "$sport" <<'PY' && ok || fail "50 parallel scrapes from one address: not all answered"
import sys, urllib.request
from concurrent.futures import ThreadPoolExecutor
port = int(sys.argv[1])
def scrape(_):
    return b"pmutop_build_info" in urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10).read()
with ThreadPoolExecutor(50) as ex:
    assert all(ex.map(scrape, range(50)))
PY
stop_demo
serve_answering --http-limits 16,4,2
slow_test "$sport" 16 8 4 > slow2.out 2>&1 && ok || fail "every connection held by slow clients: $(tail -n 5 slow2.out)"
stop_demo
"$PMUTOP" serve --demo --http-limits 16,32,2 -n 1 > /dev/null 2> err.out
expect_eq "bad --http-limits: a usage error" $? 2
expect_grep "bad --http-limits said" "want CLIENTS,PER_ADDRESS,SECONDS" err.out
"$PMUTOP" --demo -b -n 1 --listen abc > /dev/null 2> err.out
expect_eq "bad --listen: a usage error" $? 2
expect_grep "bad --listen said" "want ADDRESS:PORT" err.out
"$PMUTOP" --demo -b -n 1 --http-limits garbage > /dev/null 2> err.out
expect_eq "--http-limits garbage without --listen: refused" $? 2
"$PMUTOP" --demo -b -n 1 --http-limits 16,4,2 > /dev/null 2> err.out
expect_eq "--http-limits without an exporter: refused" $? 2
expect_grep "--http-limits without an exporter: said" "needs --listen" err.out

# a local user holding every slot from the scraper's own address (127.0.0.1) cannot take
# /metrics away: 1 000 connections, half idle, half trickling a header byte now and then,
# reconnecting as they are closed, for 30 s, under the default limits; a scrape a second
# from 127.0.0.1 is answered every time within 1 s (the oldest idle gives way to it)
serve_answering -d 0.5
hport=$sport
python3 - "$hport" 1000 30 > hog.out 2>&1 <<'PY' && ok || fail "1000 local connections took /metrics: $(tail -n 5 hog.out)"
import os, resource, selectors, socket, sys, time, threading, urllib.request
port, n, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, n + 256)), hard))
stop = time.time() + secs
held = {}  # socket -> trickles?
opened = 0
def connect(trickle):
    global opened
    s = socket.socket()
    # closed with a reset: no TIME_WAIT left behind (the churn must not use up this
    # machine's ephemeral ports under the other tests running beside this one)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.setblocking(False)
    try:
        s.connect_ex(("127.0.0.1", port))
    except OSError:
        s.close()
        return
    held[s] = trickle
    opened += 1
def hog():
    k = 0
    while time.time() < stop:
        for s, trickle in list(held.items()):  # closed by the server: open another
            try:
                if trickle:
                    s.send(b"GET /metrics HTTP/1.1\r\nX: " if k == 0 else b"a")
                elif s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                    raise OSError
            except BlockingIOError:
                continue
            except OSError:
                s.close()
                del held[s]
        for _ in range(100):  # back up to n, at most 500 new connections a second
            if len(held) >= n or time.time() >= stop:
                break
            connect(len(held) % 2 == 0)
        k += 1
        time.sleep(0.2)
# the hog is a process of its own (an attacker is another program): as a thread it
# shared the scraper's interpreter lock, and held it between the scraper's connect and
# its request while a burst of connections took the scraper's slot
hog_pid = os.fork()
if hog_pid == 0:
    hog()
    for s in held:
        s.close()
    print("%d connections opened by the hog" % opened, flush=True)
    os._exit(0)
time.sleep(2)  # every slot taken before the first scrape
worst, failed, scrapes = 0.0, 0, 0
while time.time() < stop - 1:
    t0 = time.time()
    scrapes += 1
    try:
        body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=1).read()
        assert b"pmutop_build_info" in body
        worst = max(worst, time.time() - t0)
    except Exception as e:
        failed += 1
        print("scrape failed:", e)
    time.sleep(max(0, 1 - (time.time() - t0)))
os.waitpid(hog_pid, 0)
print("%d scrapes, %d failed, worst %.3f s" % (scrapes, failed, worst))
assert failed == 0 and scrapes >= 25 and worst < 1, (failed, scrapes, worst)
PY
stop_demo

# a real Prometheus scraping every second, pmutop serve on the tree and on a BlueField
# demo (whose gauges, sensors and hwmon counters have rules of their own, and its
# cgroups' counters theirs: --cgroups)
serve_demo bluefield2 --cgroups
bfport=$dport bfpid=$dpid
"$PMUTOP" rules --window 20s --demo=bluefield2 --cgroups > rules-bf.yml
grep -q "record: pmutop:cgroup_ipc:rate20s" rules-bf.yml && ok || fail "rules --cgroups: no cgroup rules"
"$PMUTOP" rules --window 20s --demo=bluefield2 | grep -q "pmutop:cgroup_" && fail "rules without --cgroups: cgroup rules" || ok
# ... and the cgroups' TopDown level 1 where the CPU has perf metrics (the SPR demo's),
# not where it has none (BlueField's)
serve_demo spr --cgroups -M core.ipc
sprport=$dport
"$PMUTOP" rules --window 20s --demo=spr -M core.ipc --cgroups > rules-spr.yml
grep -q "record: pmutop:cgroup_backend_bound:rate20s" rules-spr.yml && ok || fail "rules --cgroups on perf metrics: no TopDown rules"
grep -q "cgroup_backend_bound" rules-bf.yml && fail "rules --cgroups without perf metrics: TopDown rules" || ok
# ... and perf's TopDown tree on a Sapphire Rapids tree (the default model's fixed rates):
# its rules read other groups' counters (td.*) and other metrics' records by name, perf's
# max(x, 0) and its if/else on the machine's #smt_on, in the order they read each other
td_args="--sim --sysfs-root $TOP_SRCDIR/profiles/machines/spr -M TopdownL1,TopdownL2,TopdownL3"
"$PMUTOP" rules --window 20s $td_args > rules-td.yml
promtool check rules --lint-fatal rules-td.yml > rules.out 2>&1 && ok || fail "promtool check rules (TopDown): $(cat rules.out)"
[ "$(grep -c 'record: pmutop:tma_' rules-td.yml)" -ge 40 ] && ok ||
    fail "40 or more of perf's TopDown metrics have rules: $(grep -c 'record: pmutop:tma_' rules-td.yml)"
rm -f serve-td.err
"$PMUTOP" serve $td_args --listen 127.0.0.1:0 -d 0.1 2> serve-td.err &
tdpid=$!
pids="$pids $tdpid"
td_known() { grep -q "(port [0-9]*)" serve-td.err; }
wait_until "pmutop serve -M TopdownL1,TopdownL2,TopdownL3 says its port" 10 td_known
tdport=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' serve-td.err)
pport=$(free_port)
cat > prom.yml <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ["$scratch/rules.yml", "$scratch/rules-bf.yml", "$scratch/rules-td.yml", "$scratch/rules-spr.yml"]
scrape_configs:
  - job_name: pmutop
    static_configs: [{ targets: ["127.0.0.1:$port"] }]
  - job_name: pmutop-bluefield
    static_configs: [{ targets: ["127.0.0.1:$bfport"] }]
  - job_name: pmutop-topdown
    static_configs: [{ targets: ["127.0.0.1:$tdport"] }]
  - job_name: pmutop-spr
    static_configs: [{ targets: ["127.0.0.1:$sprport"] }]
EOF
prometheus --config.file=prom.yml --storage.tsdb.path=tsdb --web.listen-address=127.0.0.1:$pport > prom.log 2>&1 &
ppid=$!
pids="$pids $ppid"
q() { curl -sfG "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
      python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'; }
up_is_1() { [ "$(q 'up{job="pmutop"}')" = 1 ]; }
wait_until "Prometheus: up == 1" 60 up_is_1 && ok
# rate() is right once its window is full of scrapes: 23 s of them for a 20 s window
enough() { cnt=$(q 'count_over_time(pmutop_ucf_mem_bytes_rd_total{name="socket0"}[23s])'); [ "${cnt:-0}" -ge 22 ]; }
wait_until "twenty-three seconds of scrapes" 90 enough
rule_has_value() { [ -n "$(q 'pmutop:ucf_mem_read_bw_bytes_per_second:rate20s{name="socket0"}')" ]; }
wait_until "the recording rule evaluates" 30 rule_has_value
# every recording rule returns data in the real Prometheus (a rate() of a gauge, or two
# rules with one name, return nothing or clash)
grep -ho 'record: [^ ]*' rules.yml rules-bf.yml rules-td.yml rules-spr.yml | cut -d' ' -f2 | sort -u > records.txt
[ -s records.txt ] && ok || fail "no recording rules"
python3 - "$pport" records.txt <<'PY' && ok || fail "recording rules without data in Prometheus (see above)"
import json, sys, time, urllib.parse, urllib.request
port, records = sys.argv[1], [l.strip() for l in open(sys.argv[2]) if l.strip()]
def has_data(rec):
    url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode({"query": rec}))
    return bool(json.load(urllib.request.urlopen(url, timeout=5))["data"]["result"])
deadline = time.time() + 30   # a deadline, not a sleep: rules evaluate every second
missing = records
while missing and time.time() < deadline:
    missing = [r for r in missing if not has_data(r)]
    if missing:
        time.sleep(0.5)
for r in missing:
    print("no data: " + r, file=sys.stderr)
sys.exit(1 if missing else 0)
PY
rate=$(q 'rate(pmutop_ucf_mem_bytes_rd_total{name="socket0"}[20s])')
gauge=$(q 'pmutop_ucf_mem_read_bw_bytes_per_second{name="socket0"}')
rule=$(q 'pmutop:ucf_mem_read_bw_bytes_per_second:rate20s{name="socket0"}')
within() { python3 -c "import sys; a,b=float('$1'),float('$2'); sys.exit(0 if b and abs(a-b)<=0.01*abs(b) else 1)" 2> /dev/null; }
within "$rate" "$gauge" && ok || fail "rate() of the byte counter ($rate) vs pmutop's gauge ($gauge)"
within "$rule" "$gauge" && ok || fail "the recording rule ($rule) vs pmutop's gauge ($gauge)"
# perf's TopDown nodes: the rule (from counters, imports and other records) is pmutop's gauge
for node in tma_memory_bound tma_l1_bound tma_core_bound; do
    rule=$(q "pmutop:${node}_ratio:rate20s{name=\"all\"}")
    gauge=$(q "pmutop_${node}_ratio{name=\"all\"}")
    within "$rule" "$gauge" && ok || fail "$node: the recording rule ($rule) vs pmutop's gauge ($gauge)"
done
# the cgroups: a parent's CPU the sum of its children's as Prometheus computes it, and
# a cgroup's IPC rule pmutop's own figure for it
parent=$(q 'rate(pmutop_cgroup_cpu_seconds_total{job="pmutop-bluefield",cgroup="/system.slice"}[20s])')
children=$(q 'sum(rate(pmutop_cgroup_cpu_seconds_total{job="pmutop-bluefield",cgroup=~"/system.slice/[^/]+"}[20s]))')
within "$parent" "$children" && ok || fail "a cgroup's CPU ($parent) vs the sum of its children's ($children)"
rule=$(q 'pmutop:cgroup_ipc:rate20s{cgroup="/system.slice/snap.service"}')
"$PMUTOP" --demo bluefield2 -b -n 2 --fake-clock --cgroups --format json > bf-cgroups.json
own=$(python3 -c 'import json,sys; f=[json.loads(l) for l in open(sys.argv[1])][-1]; print([c["ipc"] for c in f["cgroups"] if c["cgroup"] == "/system.slice/snap.service"][0])' bf-cgroups.json)
within "$rule" "$own" && ok || fail "the cgroup IPC rule ($rule) vs pmutop's figure ($own)"
# a container's backend bound, as Prometheus computes it from the four metrics' slots
rule=$(q 'pmutop:cgroup_backend_bound:rate20s{cgroup="/kubepods.slice"}')
"$PMUTOP" --demo spr -b -n 2 --fake-clock --cgroups --format json > spr-cgroups.json
own=$(python3 -c 'import json,sys; f=[json.loads(l) for l in open(sys.argv[1])][-1]; print([c["backend_bound"] / 100 for c in f["cgroups"] if c["cgroup"] == "/kubepods.slice"][0])' spr-cgroups.json)
within "$rule" "$own" && ok || fail "the cgroup backend-bound rule ($rule) vs pmutop's figure ($own)"
kill "$tdpid" # its server's work is done: not beside the floods below
wait "$tdpid" 2> /dev/null

# counters never decrease across 1000 scrapes; hostile clients do not stop or grow it
rss() { awk '/^VmRSS:/ { print $2 }' /proc/$spid/status; }
rss0=$(rss)
python3 - "$port" <<'PY' && ok || fail "1000 scrapes: a counter went down, or a scrape failed"
import sys, urllib.request
last = {}
for i in range(1000):
    text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode()
    for line in text.splitlines():
        if line.startswith("#") or "_total{" not in line:
            continue
        key, value = line.rsplit(" ", 1)
        v = float(value)
        assert v >= last.get(key, 0.0), (key, last.get(key), v)
        last[key] = v
assert last
PY
python3 - "$port" <<'PY' && ok || fail "hostile clients: it stopped serving"
import socket, sys, time, urllib.request
port = int(sys.argv[1])
many = []
for i in range(1000):                        # far more connections than it accepts
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        many.append(s)
    except OSError:
        pass
slow = socket.create_connection(("127.0.0.1", port), timeout=2)
slow.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")   # slowloris: never finishes
big = socket.create_connection(("127.0.0.1", port), timeout=5)
try:
    big.sendall(b"GET /metrics HTTP/1.1\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n")
    answer = big.recv(64)
except OSError:
    answer = b"closed"
assert not answer.startswith(b"HTTP/1.1 200"), answer
for s in many:
    s.close()
# once the flood is gone, a normal scrape is served, while the slow client still waits
deadline = time.time() + 15
while True:
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=2).read().decode()
        break
    except OSError:
        assert time.time() < deadline
        time.sleep(0.1)
assert "pmutop_build_info" in text
slow.close()
big.close()
PY
rss1=$(rss)
[ $((rss1 - rss0)) -lt 20000 ] && ok || fail "memory grew from $rss0 to $rss1 KiB under hostile clients"
kill -0 $spid 2> /dev/null && ok || fail "pmutop serve died"
kill $ppid $spid $dpid $bfpid
wait $dpid $bfpid 2> /dev/null
wait $spid
expect_eq "pmutop serve ends cleanly on SIGTERM" $? 0
wait $ppid 2> /dev/null
pids=""

# a port that cannot be bound: said, exit 1
"$PMUTOP" serve --demo --listen 127.0.0.1:$pport -n 1 2> /dev/null > /dev/null &
holder=$!
pids="$holder"
"$PMUTOP" serve --demo --listen 999.1.1.1:80 -n 1 2> err.out
expect_eq "bad address exit" $? 2
expect_grep "bad address said" "not an IPv4 address" err.out
kill $holder 2> /dev/null; wait $holder 2> /dev/null
pids=""
# two profiles that define one metric name: both served, the later told apart by its
# profile (the second's values were lost: one series per name and labels)
for n in one two; do
    printf '[profile]\nname = dup%s\n[group sw]\npmu = software\nevents = context-switches\n[metric sw.dup_rate]\nformula = context_switches / elapsed_s\n' "$n" > "dup-$n.ini"
done
sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" duphost vm pkg yes 2 > /dev/null
"$PMUTOP" serve --sim --sysfs-root duphost -P ./dup-one.ini -P ./dup-two.ini --listen 127.0.0.1:0 -d 0.1 2> dup.err &
dpid=$!
pids="$pids $dpid"
dup_port_known() { grep -q "(port [0-9]*)" dup.err; }
if wait_until "the two-profile exporter says its port" 10 dup_port_known; then
    durl=http://127.0.0.1:$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' dup.err)/metrics
    dup_values() { [ "$(curl -sf "$durl" | grep -c '^pmutop_sw_dup_rate{')" -ge 2 ]; }
    wait_until "a metric two profiles define: both profiles' series" 10 dup_values
    curl -sf "$durl" | grep -q '^pmutop_sw_dup_rate{.*profile="duptwo"' && ok ||
        fail "the second profile's series is not labelled with its profile: $(curl -sf "$durl" | grep '^pmutop_sw_dup_rate')"
fi
kill "$dpid"
wait "$dpid" 2> /dev/null

finish
