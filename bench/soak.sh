#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make soak: the simulated Tegra410 in the monitor for SOAK_SECONDS (default 3600) at 20
# refreshes a second, recording, its exporter scraped every second, a filter toggled and
# the window resized every second, counting restarted (setup shows a hidden pane, then
# hides it) every ten; resident memory said each minute. Prints "soak: NAME VALUE UNIT" lines and fails when resident memory grows
# after warm-up, descriptors grow, a scrape fails, the recording does not replay whole or a
# refresh came later than twice its interval while a probe process that only sleeps was on
# time (bench/lateness.py: a stall of the whole machine, such as a VM's host holding it
# back, is reported apart, not blamed on pmutop). Usage: soak.sh BUILDDIR SRCDIR. Needs
# tmux, curl, python3.
set -eu
b=$1 src=$2
secs=${SOAK_SECONDS:-3600}
# warm-up: the sparklines' history (240 values) full, the recorder's first chunks written
warm=$(( secs >= 600 ? 120 : secs / 2 ))
interval_ms=50
for tool in tmux curl python3; do
    command -v $tool > /dev/null || { echo "soak: needs $tool" >&2; exit 2; }
done
dir=$(mktemp -d)
sock="pmutop-soak-$$"
port=$(( 20000 + $$ % 20000 ))
T() { tmux -L "$sock" "$@"; }
probe=""
trap '[ -n "$probe" ] && kill "$probe" 2> /dev/null; T kill-server 2> /dev/null || true; [ -n "${SOAK_KEEP:-}" ] && echo "soak: kept $dir" || rm -rf "$dir"' EXIT

# pmutop records its own PID (exec keeps it), so the soak watches and ends exactly it
T new-session -d -x 120 -y 40 "echo \$\$ > $dir/pid; exec env HOME=$dir LANG=C.UTF-8 \
TERM=xterm-256color $b/pmutop --demo -d 0.05 -w $dir/soak.pmrec --listen 127.0.0.1:$port"
i=0
while [ ! -s "$dir/pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
pid=$(cat "$dir/pid")
# the control: a process that only sleeps one interval at a time, noting its late wake-ups
python3 "$src/bench/lateness.py" probe "$dir/stalls" "$interval_ms" &
probe=$!
# the exporter's first answer: it listens once the first frame is out
i=0
until curl -sf -m 2 -o /dev/null "http://127.0.0.1:$port/metrics" || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
fds() { ls "/proc/$pid/fd" | wc -l; }

failed_scrapes=0 toggles=0 restarts=0 resizes=0 minute=0 rss_max=0 rss_warm=0 fds_warm=0
start=$(date +%s)
t=0
while [ $t -lt "$secs" ]; do
    kill -0 "$pid" 2> /dev/null || { echo "soak: pmutop exited after $t s" >&2; exit 1; }
    curl -sf -m 2 -o /dev/null "http://127.0.0.1:$port/metrics" || failed_scrapes=$((failed_scrapes + 1))
    # the filter editor on the selected row: toggle its first filter, apply
    T send-keys -t 0 f; T send-keys -t 0 -l ' '; T send-keys -t 0 a
    toggles=$((toggles + 1))
    # every tenth turn counting restarts: setup's switch of the hidden "other metrics"
    # pane (its ninth row), shown then hidden; and the window is resized every turn (12
    # restarts and 300 resizes once took the monitor from 16 to 114 MB)
    if [ $((toggles % 10)) = 0 ]; then
        T send-keys -t 0 s Down Down Down Down Down Down Down Down; T send-keys -t 0 -l ' '; T send-keys -t 0 Escape
        restarts=$((restarts + 1))
    fi
    if [ $((toggles % 2)) = 0 ]; then T resize-window -t 0 -x 100 -y 30; else T resize-window -t 0 -x 120 -y 40; fi
    resizes=$((resizes + 1))
    r=$(rss)
    [ "$r" -gt "$rss_max" ] && rss_max=$r
    # the first sample at or after warm-up (a turn of this loop takes a little over 1 s)
    if [ $t -ge "$warm" ] && [ "$rss_warm" -eq 0 ]; then rss_warm=$r; fds_warm=$(fds); fi
    # resident memory each minute, to see a slope, not only the two ends
    if [ $t -ge $((minute * 60)) ]; then echo "soak: rss_minute_$minute $r KiB"; minute=$((minute + 1)); fi
    sleep 1
    t=$(( $(date +%s) - start ))
done
rss_end=$(rss) fds_end=$(fds)
T send-keys -t 0 q
i=0
while kill -0 "$pid" 2> /dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2> /dev/null && { echo "soak: pmutop did not quit" >&2; kill "$pid"; exit 1; }

recorded=$("$b/pmutop" record --info "$dir/soak.pmrec" | awk '/^samples/ { print $2 }')
events=$(sqlite3 "$dir/soak.pmrec" "select count(*) from events where kind like 'filter%'" 2> /dev/null || echo "?")
kill "$probe" 2> /dev/null
wait "$probe" 2> /dev/null || true
probe=""
"$b/pmutop" -r "$dir/soak.pmrec" -b --format json > "$dir/replay.json" 2> "$dir/replay.err"
awk '
    { n++; if (match($0, /"interval_ns":[0-9]+/)) {
          v = substr($0, RSTART + 14, RLENGTH - 14) + 0
          if (n > 1 && v > max) max = v } }
    END { printf "%d %.1f\n", n, max / 1e6 }' "$dir/replay.json" > "$dir/replay"
read -r replayed max_ms < "$dir/replay"
python3 "$src/bench/lateness.py" judge "$dir/replay.json" "$dir/stalls" "$interval_ms" > "$dir/late"
grep '^late refresh' "$dir/late" | sed 's/^/soak: /' || true
set -- $(tail -n 1 "$dir/late") # late N machine M
late=$2 machine=$4

echo "soak: seconds $t s"
echo "soak: rss_after_warmup $rss_warm KiB"
echo "soak: rss_end $rss_end KiB"
echo "soak: rss_max $rss_max KiB"
echo "soak: fds_after_warmup $fds_warm count"
echo "soak: fds_end $fds_end count"
echo "soak: scrapes_failed $failed_scrapes count"
echo "soak: filter_toggles $toggles count"
echo "soak: counting_restarts $restarts count"
echo "soak: resizes $resizes count"
echo "soak: filter_events_recorded $events count"
echo "soak: samples_recorded $recorded count"
echo "soak: samples_replayed $replayed count"
echo "soak: longest_interval $max_ms ms"
echo "soak: intervals_over_twice_the_interval $late count"
echo "soak: of_them_while_the_machine_stalled $machine count"
status=0
[ $((rss_end - rss_warm)) -le 512 ] || { echo "soak: FAIL resident memory grew after warm-up"; status=1; }
[ "$fds_end" -le "$fds_warm" ] || { echo "soak: FAIL descriptors grew"; status=1; }
[ "$failed_scrapes" -eq 0 ] || { echo "soak: FAIL scrapes failed"; status=1; }
[ "$replayed" = "$recorded" ] || { echo "soak: FAIL the recording did not replay whole"; status=1; }
[ ! -s "$dir/replay.err" ] || { echo "soak: FAIL the replay said: $(head -c 300 "$dir/replay.err")"; status=1; }
[ "$late" -eq "$machine" ] || { echo "soak: FAIL refreshes later than twice their interval while the machine was not"; status=1; }
exit $status
