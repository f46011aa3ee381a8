#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: wall-clock and instruction figures ("bench: NAME VALUE UNIT").
# usage: run.sh BUILDDIR SRCDIR
set -eu
b=$1 src=$2 # (the loops below reuse the positional parameters)
bin="$b/bench/bench_refresh"
"$bin" sim 2000
TERM=xterm-256color "$bin" draw 300
BENCH_LOCALE=C.UTF-8 TERM=xterm-256color "$bin" draw 300 |
    awk '/_refresh / { print "bench: demo_refresh_redraw_120x40_utf8_wall " $3 " us" }
         /_rss / { print "bench: demo_rss " $3 " KiB" }' 
BENCH_UNCORE_ONLY=1 "$bin" sim 2000
"$bin" host 200 || echo "bench: host_refresh unavailable (perf_event_open refused)"
# steady-state CPU per refresh against perf stat -I on the same events, at 1 s and 0.1 s
sh "$src/bench/cpu_vs_perf.sh" "$b/pmutop" 1000 1s "${BENCH_CPU_SECONDS:-10}"
sh "$src/bench/cpu_vs_perf.sh" "$b/pmutop" 100 0.1s "${BENCH_CPU_SECONDS:-10}"
# the same in text, whose heading shows the CPU-utilisation meter (a /proc/stat read)
sh "$src/bench/cpu_vs_perf.sh" "$b/pmutop" 1000 1s_text "${BENCH_CPU_SECONDS:-10}" text |
    grep -v whole_process
if command -v valgrind > /dev/null; then
    ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
           awk '/Collected :/ { print $4 }'; }
    base=$(ir "$bin" sim 0)
    with=$(ir "$bin" sim 100)
    echo "bench: sim_tegra410_refresh_instructions $(( (with - base) / 100 )) instructions"
    for variant in "0 120x40" "0 80x24" "1 120x40" "1 80x24"; do # in UTF-8, as the headline
        set -- $variant
        name=$([ "$1" = 1 ] && echo sim_tegra410_uncore || echo sim_tegra410)
        base=$(BENCH_LOCALE=C.UTF-8 BENCH_UNCORE_ONLY=$1 BENCH_SIZE=$2 ir "$bin" draw 1)
        with=$(BENCH_LOCALE=C.UTF-8 BENCH_UNCORE_ONLY=$1 BENCH_SIZE=$2 ir "$bin" draw 51)
        echo "bench: ${name}_refresh_with_redraw_$2_instructions $(( (with - base) / 50 )) instructions"
    done
    # the budget's headline: the whole demo redrawn at 120x40 as a UTF-8 terminal draws it
    for loc in C.UTF-8:utf8 C:ascii; do
        base=$(BENCH_LOCALE=${loc%%:*} ir "$bin" draw 1)
        with=$(BENCH_LOCALE=${loc%%:*} ir "$bin" draw 51)
        echo "bench: demo_refresh_redraw_120x40_${loc##*:}_instructions $(( (with - base) / 50 )) instructions"
    done
    # the real `pmutop --demo` (sensors and all) in a 120x40 UTF-8 tmux pane: 10 and 60
    # frames, 50 apart, so start-up cancels
    if command -v tmux > /dev/null; then
        mon_ir() { # FRAMES [DEMO [KEYS]]: KEYS typed as it starts (read at its first frame)
            m_log=$(mktemp) m_rc=$(mktemp)
            tmux -L pmutop-bench-ir new-session -d -x 120 -y 40 "env LANG=C.UTF-8 TERM=xterm-256color \
                valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file=$m_log \
                '$b/pmutop' --demo ${2:-} -n $1 -d 0.01 --fake-clock; echo \$? > $m_rc"
            [ -n "${3:-}" ] && tmux -L pmutop-bench-ir send-keys -t 0 "$3"
            m_wait=0 # poll for the pane's exit, at most ten minutes
            while [ ! -s "$m_rc" ] && [ $m_wait -lt 3000 ]; do sleep 0.2; m_wait=$((m_wait + 1)); done
            awk '/Collected :/ { print $4 }' "$m_log"
            rm -f "$m_log" "$m_rc"
        }
        base=$(mon_ir 10)
        with=$(mon_ir 60)
        echo "bench: monitor_demo_120x40_utf8_instructions $(( (with - base) / 50 )) instructions"
        # --demo spr with perf's TopDown levels 1-3 (the catalogue's 233 counter groups)
        # and every node of the tree open ('*')
        base=$(mon_ir 10 spr '*')
        with=$(mon_ir 60 spr '*')
        echo "bench: monitor_spr_tree_open_120x40_utf8_instructions $(( (with - base) / 50 )) instructions"
        # the Tasks view (T) open on --demo spr, 20 tasks at most: the table sampled, its
        # tasks' counts read and the view drawn each refresh, beside the session's
        base=$(mon_ir 10 spr T)
        with=$(mon_ir 60 spr T)
        echo "bench: monitor_spr_tasks_view_120x40_utf8_instructions $(( (with - base) / 50 )) instructions"
    fi
    # scale: a generated 16-socket x 144-CPU Tegra410-like tree (Neoverse V2 cores), the
    # refresh's instructions per counter
    scale=$(mktemp -d)
    sh "$src/tests/fixtures/gen-cpu.sh" neoverse-v2 "$scale" 16 144 > /dev/null
    sh "$src/tests/fixtures/gen-tegra410.sh" "$scale" 16 144 6 > /dev/null
    n=$(BENCH_SYSFS_ROOT=$scale "$bin" sim 1 | awk '/_counters / { print $3 }')
    base=$(BENCH_SYSFS_ROOT=$scale ir "$bin" sim 0)
    with=$(BENCH_SYSFS_ROOT=$scale ir "$bin" sim 10)
    echo "bench: scale_16x144_instructions_per_counter $(( (with - base) / 10 / n )) instructions ($n counters)"
    # the same as the monitor refreshes it for its default view (sockets, no per-CPU rows:
    # their values are not evaluated, the sums are)
    base=$(BENCH_NO_DETAILS=1 BENCH_SYSFS_ROOT=$scale ir "$bin" sim 0)
    with=$(BENCH_NO_DETAILS=1 BENCH_SYSFS_ROOT=$scale ir "$bin" sim 10)
    echo "bench: scale_16x144_monitor_view_instructions_per_counter $(( (with - base) / 10 / n )) instructions ($n counters)"
    rm -rf "$scale"
    base=$(BENCH_UNCORE_ONLY=1 ir "$bin" sim 0)
    with=$(BENCH_UNCORE_ONLY=1 ir "$bin" sim 100)
    echo "bench: sim_tegra410_uncore_refresh_instructions $(( (with - base) / 100 )) instructions"
    # a live refresh of the host profile in batch text, user space (perf stat -I: ~40 k)
    base=$(ir "$b/pmutop" -P host -b -d 0.01 -n 10)
    with=$(ir "$b/pmutop" -P host -b -d 0.01 -n 210)
    if [ -n "$base" ] && [ -n "$with" ]; then
        echo "bench: host_refresh_instructions $(( (with - base) / 200 )) instructions"
    fi
else
    echo "bench: instructions unavailable (install valgrind)"
fi
# resident memory as a user runs it: the real `pmutop --demo` (sensors, recorder and all)
# in a 120x40 UTF-8 tmux pane, 300 refreshes at 0.02 s, its peak RSS (VmHWM, read until
# it exits; a parent's wait4 would count the parent's own pages from before the exec)
if command -v tmux > /dev/null; then
    rss_dir=$(mktemp -d)
    tmux -L pmutop-bench-rss new-session -d -x 120 -y 40 "env LANG=C.UTF-8 TERM=xterm-256color \
        sh -c 'echo \$\$ > $rss_dir/pid; exec \"$b/pmutop\" --demo -n 300 -d 0.02'; touch $rss_dir/done"
    rss_wait=0 rss=""
    while [ ! -e "$rss_dir/done" ] && [ $rss_wait -lt 600 ]; do
        p=$(cat "$rss_dir/pid" 2> /dev/null || true)
        h=$([ -z "$p" ] || awk '/^VmHWM:/ { print $2 }' "/proc/$p/status" 2> /dev/null || true)
        [ -z "$h" ] || rss=$h
        sleep 0.1; rss_wait=$((rss_wait + 1))
    done
    echo "bench: monitor_demo_120x40_utf8_rss ${rss:-unavailable} KiB"
    tmux -L pmutop-bench-rss kill-server 2> /dev/null || true
    rm -rf "$rss_dir"
fi
# first frame: start to the first byte of the first interval printed, demo machine, no
# waiting; the median of nine after one run that warms the page cache (a cold first run
# reads the binary and the demo's tree from disk: that is the disk, not pmutop)
sync # the scale tree's removal and the recordings above: their write-back is not pmutop's
python3 "$src/bench/first_frame.py" 9 "$b/pmutop" --demo -b -n 1 -d 0.01 --fake-clock --format json
# ... and its instructions, start to exit (wall time here swings twofold from day to day;
# this does not), with the system calls and page faults the kernel adds to them
if command -v valgrind > /dev/null; then
    ff=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b/pmutop" --demo -b -n 1 -d 0.01 --fake-clock \
        --format json 2>&1 > /dev/null | awk '/Collected :/ { print $4 }')
    echo "bench: demo_first_frame_instructions $ff instructions"
fi
if command -v strace > /dev/null; then
    sc=$(strace -c -f "$b/pmutop" --demo -b -n 1 -d 0.01 --fake-clock --format json 2>&1 > /dev/null |
        awk '$NF == "total" { print $4 }')
    echo "bench: demo_first_frame_syscalls $sc count"
fi
if command -v perf > /dev/null; then # page faults: each a trap to the hypervisor in a VM (base/heap.h)
    pf=$(perf stat -x, -e page-faults "$b/pmutop" --demo -b -n 1 -d 0.01 --fake-clock --format json 2>&1 > /dev/null |
        awk -F, '/page-faults/ { print $1 }')
    echo "bench: demo_first_frame_page_faults $pf count"
fi
# the same on a machine perf's catalogue knows: the Sapphire Rapids demo (224 CPUs, its
# uncore, perf's TopDown levels 1-3 from the 140 KB sapphirerapids profile)
python3 "$src/bench/first_frame.py" 9 "$b/pmutop" --demo spr -b -n 1 -d 0.01 --fake-clock --format json |
    sed 's/demo_first_frame/spr_first_frame/'
if command -v valgrind > /dev/null; then
    ff=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b/pmutop" --demo spr -b -n 1 -d 0.01 --fake-clock \
        --format json 2>&1 > /dev/null | awk '/Collected :/ { print $4 }')
    echo "bench: spr_first_frame_instructions $ff instructions"
fi
if command -v perf > /dev/null; then
    pf=$(perf stat -x, -e page-faults "$b/pmutop" --demo spr -b -n 1 -d 0.01 --fake-clock --format json 2>&1 > /dev/null |
        awk -F, '/page-faults/ { print $1 }')
    echo "bench: spr_first_frame_page_faults $pf count"
fi
# recordings: bytes per counter per sample in the chunks (the demo, its 0.2 % noise
# included; and its counters at steady rates), the refresh's cost, seeking a 24 h file
rec=$(mktemp -d)
"$b/pmutop" --demo -b -n 600 --fake-clock --format csv -w "$rec/demo.pmrec" > /dev/null
"$b/pmutop" record --info "$rec/demo.pmrec" |
    awk '/chunks:/ { print "bench: record_bytes_per_counter_sample " $5 " B" }'
# the whole file after a clean close, against the information floor of the same data
"$b/pmutop" record --info "$rec/demo.pmrec" | awk -v z="$(stat -c %s "$rec/demo.pmrec")" \
    '/^samples/ { s = $2 } /^counters/ { c = $2 } END { printf "bench: record_file_bytes_per_counter_sample_600 %.3f B\n", z / s / c }'
jitter=$(awk -F' *= *' '/^jitter/ { print $2; exit }' "$src/profiles/machines/tegra410/model.ini")
echo "bench: record_floor_bytes_per_counter_sample $("$b/pmutop" --demo -b -n 61 --fake-clock --format json --raw |
    python3 "$src/bench/record_floor.py" "$jitter") B"
# the live host profile, 3 000 samples at 0.01 s, the whole file
if "$b/pmutop" -P host -b -n 3000 -d 0.01 --format csv -w "$rec/host.pmrec" > /dev/null 2>&1; then
    "$b/pmutop" record --info "$rec/host.pmrec" | awk -v z="$(stat -c %s "$rec/host.pmrec")" \
        '/^samples/ { s = $2 } /^counters/ { c = $2 } END { printf "bench: record_host_file_bytes_per_counter_sample_3000 %.3f B\n", z / s / c }'
else
    echo "bench: record_host_file_bytes_per_counter_sample_3000 unavailable (perf_event_open refused)"
fi
"$b/pmutop" --sim --sysfs-root "$src/profiles/machines/tegra410" -b -n 600 --fake-clock --format csv \
    -w "$rec/steady.pmrec" > /dev/null
"$b/pmutop" record --info "$rec/steady.pmrec" |
    awk '/chunks:/ { print "bench: record_bytes_per_steady_counter_sample " $5 " B" }'
"$bin" record 600
"$b/bench/bench_record" "$rec/24h.pmrec" 1098 24 keep
# the jump as an instruction count (its twin): 200 jumps in the same file under callgrind,
# counting only the jump (finding the moment, decoding its chunk)
if command -v valgrind > /dev/null; then
    irs=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=seek_once \
          "$b/bench/bench_record" "$rec/24h.pmrec" 1098 24 seek 2>&1 | awk '/Collected :/ { print $4 }')
    [ -n "$irs" ] && echo "bench: record_seek_24h_instructions $(( irs / 200 )) instructions"
fi
rm -rf "$rec"
"$bin" export 20
# the same render as an instruction count, which does not swing with the machine and the
# hour as its wall time does: only exporter_render's own instructions, over 10 renders
if command -v valgrind > /dev/null; then
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=exporter_render "$bin" export 10 2>&1)
    irs=$(echo "$out" | awk '/Collected :/ { print $4 }')
    series=$(echo "$out" | awk '/exporter_series/ { print $3 }')
    [ -n "$irs" ] && [ "${series:-0}" -gt 0 ] &&
        echo "bench: exporter_render_10k_series_instructions $(( irs / 10 * 10000 / series )) instructions"
fi
# what the monitor sends to the terminal (what an ssh link carries): demo at 120x40, 1 s
if command -v tmux > /dev/null && [ "${BENCH_TTY_SECONDS:-30}" -gt 0 ]; then
    s=${BENCH_TTY_SECONDS:-30}
    sock="pmutop-bench-$$"
    out=$(mktemp)
    home=$(mktemp -d)
    tmux -L "$sock" new-session -d -x 120 -y 40 "HOME=$home LANG=C.UTF-8 TERM=xterm-256color $b/pmutop --demo -d 1; sleep 600"
    sleep 3
    tmux -L "$sock" pipe-pane -t 0 -o "cat >> $out"
    sleep "$s"
    tmux -L "$sock" pipe-pane -t 0
    tmux -L "$sock" kill-server
    echo "bench: tty_bytes_per_second $(( $(wc -c < "$out") / s )) B/s"
    echo "bench: demo_tty_bytes_per_second $(( $(wc -c < "$out") / s )) B/s"
    rm -rf "$out" "$home"
    # the same at 80x24, and on the NIC and BlueField demos, as long each: a sparkline
    # moves once a bucket (4 s on the BlueField demo, 44 of them at once), and a third of
    # the time swung by whether two or three of those fell in it (318-359 B/s)
    for v in "tegra410 80 24" "hip09 120 40" "bluefield2 120 40"; do
        set -- $v
        out=$(mktemp)
        home=$(mktemp -d)
        tmux -L "$sock" new-session -d -x "$2" -y "$3" "HOME=$home LANG=C.UTF-8 TERM=xterm-256color $b/pmutop --demo $1 -d 1; sleep 600"
        sleep 3
        tmux -L "$sock" pipe-pane -t 0 -o "cat >> $out"
        sleep "$s"
        tmux -L "$sock" pipe-pane -t 0
        tmux -L "$sock" kill-server
        echo "bench: demo_${1}_${2}x${3}_tty_bytes_per_second $(( $(wc -c < "$out") / s )) B/s"
        rm -rf "$out" "$home"
    done
fi
