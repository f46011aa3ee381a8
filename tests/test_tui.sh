#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The full-screen monitor driven as a person would: in tmux, with keys, reading the
# screen. Each check waits (with a deadline) for what a person would see.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/tui_lib.sh"

PMUTOP_ARGS="--demo -d 0.2"
start 120 40 LANG=C.UTF-8
see "start: header" "source: sim"
see "start: UCF pane" "UCF bandwidth"
see "start: per-socket columns" "socket0 .*socket1"
see "start: PCIe table" "S1 RC5 (000e:00)"
see "start: a bandwidth value" "SLC read .*GB/s"
# the header counts what opens counters: --dry-run's (instance, group) pairs, not the
# TopDown rows whose values are perf's (perf's instances count those)
n=$("$PMUTOP" --demo --dry-run 2> /dev/null | awk -F'\t' 'NF > 3 { print $1 "\t" $2 }' | sort -u | wc -l)
see "start: the header's counter groups are --dry-run's" " $n counter groups"

keys h
see "help opens" "pmutop help"
see "help lists the filter key" "F4 f .*filter editor"
see "help lists Ctrl-L" "Ctrl-L"
keys x
unseen "help closes" "pmutop help"
# F1 is context help: the focused metric first, the keys at the second press
keys F1
see "F1 on a focused row: its metric" "The metric (F1 h: keys"
# the event as opened on the row's instance: socket0's PMU, not the group's pattern
see "F1 on a focused row: the instance's PMU" "slc_bytes_rd  *nvidia_ucf_pmu_0/slc_bytes_rd/ (config=0x[0-9a-f]*)  [0-9.]*G"
unseen "F1 on a focused row: not the keys' help" "pmutop help"
keys F1
see "F1 again: the keys' help" "pmutop help"
keys x
unseen "F1's help closes" "pmutop help"

# focus moves: the filter editor opens on the focused row's group and instance
keys f
see "filter editor on UCF socket0" "Filters: ucf socket0 (nvidia_ucf_pmu_0)"
keys Escape
keys Tab Tab f
see "Tab Tab focuses the PCIe table" "Filters: socket0/rc0 (pcie nvidia_pcie_pmu_0_rc_0, pcie_tgt"
# the row shows PCIe and PCIe-TGT columns: both groups' filters are here
see "PCIe-TGT filters reachable from the RC row" "dst_rp_mask .*\[pcie_tgt\]"
keys Escape Down f
see "Down moves to the next RC" "Filters: socket0/rc1 (pcie"
keys Escape BTab BTab f
see "Shift-Tab goes back to UCF" "Filters: ucf socket0"

# a filter change shows in the pane, first as a change, then as the active filter
text ' '
keys a
see "filter applied" "ucf socket0: src_loc_cpu=0x1"
see "pane shows the active filter" "socket0 src_loc_cpu=0x1"

# root complexes are labelled with their lspci segment and bus; Enter lists root ports
see "bars of one unit share a scale, and say it" "UCF bandwidth ─*  *bar = [0-9]* GB/s"
see "RC label" "S0 RC3 (0004:00)"
keys Tab Tab Down Enter
see "root ports of RC1, each with its own bandwidth" "RP1 0002:80:00.0 *[0-9.]* MB/s *[0-9.]* MB/s"
see "a root port with no device behind it carries nothing" "RP4 0002:e0:00.0 *0.00 GB/s *0.00 GB/s"
see "device behind a root port" "0002:81:00.0 3D controller (GPU)"
keys Enter BTab BTab

# a root-port mask set live shows on the RC's row and in the filter
keys Tab Tab Down Down f
see "editor on socket0/rc2" "Filters: socket0/rc2 (pcie"
keys Right
text ' '
keys a
see "root-port mask applied" "socket0/rc2: pcie src_rp_mask=0x2 pcie_tgt all"
see "RC row marked filtered" "S0 RC2 (0003:00)\*"
see "filtered row says which filter" "filters: pcie src_rp_mask=0x2"
keys f
see "editor shows the mask" "src_rp_mask      .1"
keys d a
see "mask cleared" "socket0/rc2: pcie all pcie_tgt all"
keys BTab BTab

# a refused combination says why and changes nothing
keys Tab Tab f
see "editor on pcie" "Filters: socket0/rc0 (pcie"
text ' '
keys Down Enter
text '27:01.1'
keys Enter a
see "refusal names the constraint" "src_bdf and src_rp_mask are mutually exclusive"
keys Escape
# a device listed behind the root ports can be picked as the BDF filter
keys Down f Down
text 'p'
see "pick a device as the BDF" "picked 0002:81:00.0"
see "the BDF is the device's" "src_bdf .*81:00.0 (0x8100)"
keys Escape
see "nothing changed" "filters unchanged"

# + and - change the interval
text '+'
see "interval up" "interval 0.5s"
text '-'
text '-'
see "interval down" "interval 0.1s"

# find a metric
text '/'
see "find prompt" "Find metric:"
text 'dlink'
keys Enter
see "find jumps" "found dlink.in_rd_latency"
text '/'
text 'c2c'
keys Enter
see "find from the focused pane" "found c2c.in_rd_latency"
text 'n'
see "n finds the next match" "found c2c.in_wr_latency"
# metrics of a hidden pane are found too (clocks are in "other metrics", hidden by default)
text '/'
text 'clock'
keys Enter
see "find in a hidden pane" "found cmem.freq in .*other metrics, a hidden pane"
# its blocks show each group's metrics under that group's instances only, and titles that
# repeat across groups say which
text '/'
text 'pcie_tgt.read_rate'
keys Enter
see "other metrics: repeated titles say their group" "Read requests (pcie_tgt)"
screen
grep -q "SLC read requests *n/a" "$scratch/screen.txt" && fail "other metrics: UCF rows n/a under a root complex" || ok
text '/'
text 'dlink'
keys Enter
see "find again" "found dlink.in_rd_latency"

# resize at any time, including to a terminal too small to use
T resize-window -t 0 -x 80 -y 24
see "80x24" "F1Help.*F10Quit"
see "80x24 keeps the found row on screen" "DLink CXL read latency"
T resize-window -t 0 -x 40 -y 10
see "40x10" "terminal too small"
T resize-window -t 0 -x 120 -y 40
see "back to 120x40" "PCIe root complexes"
# a sparkline keeps its width before it has history (a faint baseline, not blanks)
# (polled like see: the capture may come between the resize and its redraw)
i=0
while :; do
    screen
    w1=$(grep -m1 "^ SLC read" "$scratch/screen.txt" | grep -o "[·▁▂▃▄▅▆▇█]*\$" | wc -m)
    [ "$w1" -ge 10 ] || [ $i -ge 60 ] && break
    sleep 0.1; i=$((i + 1))
done
[ "$w1" -ge 10 ] && ok || fail "sparkline column narrower than its width: $w1"
# at 60 columns the key bar keeps help and quit, and says there is more below
T resize-window -t 0 -x 60 -y 24
see "60 columns: key bar keeps quit" "F1Help.*F10Quit"
see "60 columns: more below" "↓[0-9]*% *$"
T resize-window -t 0 -x 120 -y 40
keys h
see "help before resize" "pmutop help"
T resize-window -t 0 -x 90 -y 30
see "resize inside a dialog" "pmutop help"
keys x

keys q
quit_ok "quit"

# at 80 columns the filter editor is narrower than its hint: the hint wraps, nothing is cut
PMUTOP_ARGS="--demo"
start 80 24 LANG=C.UTF-8
see "80x24: first pane" "SLC read"
# the header drops whole fields, least telling first, never cuts one in the middle
see "80x24 header: whole fields" "^ pmutop  tegra410  source: sim+sensors  interval 1s  *[0-9:]*$"
keys F4
see "80x24 filter editor" "Filters: ucf"
see "80x24 filter hint wraps whole" "│ (all)\. *│"
keys Escape Tab Tab F4
# two groups' PMU names do not fit the box's title: the groups alone, whole
see "80x24 PCIe editor's title whole" "┌─ Filters: socket0/rc0 (pcie, pcie_tgt) ─*┐"
keys Escape BTab BTab
# help is taller than 24 lines: it says there is more and scrolls to its last line
keys h
see "80x24 help says it scrolls" "pmutop help (Up/Down/PgUp/PgDn/Home/End scroll"
see "80x24 help: more below" "more ↓"
unseen "80x24 help: the legend's end is below" "a applies, Esc cancels"
# a line longer than the box wraps under its text, not cut ("formula and inputs, thres")
see "80x24 help: a long line's end wraps under its text" "│                  inputs, threshold (else, or F1 again: this help) *│"
keys End
see "80x24 help: End shows the legend's end" "a applies, Esc cancels"
unseen "80x24 help: End, the first key is above" "│ F1 i ?  "
keys Home
see "80x24 help: Home shows the first key" "│ F1 i ?  "
keys NPage NPage NPage NPage
see "80x24 help scrolls to the legend's end" "a applies, Esc cancels"
see "80x24 help: the record key fits" "pmrec, or stop (replay: -r) *│"
see "80x24 help: the legend fits" "n/a  unavailable *│"
unseen "80x24 help: nothing more below" "more ↓"
keys Up
see "80x24 help: arrows scroll, not close" "pmutop help"
keys x
unseen "80x24 help closes on another key" "pmutop help"
# scrolled into a pane's middle (a page down moves the screen by its height less two
# lines: into the Latency pane's socket0 rows), its title stays on the top line above them
keys Down Down Down Down Down Down NPage
see "80x24 scrolled: a page down, the Latency pane's middle" "^ CLink in read latency"
screen
if sed -n 4p "$scratch/screen.txt" | grep -q "^─ Latency ─" && sed -n 5p "$scratch/screen.txt" | grep -q "^[a-z ]"; then ok
else fail "80x24 scrolled: the pane's title sticks above its first shown row:"; cat "$scratch/screen.txt" >&2; fi
keys q
quit_ok "80x24 quit"

# pause freezes the display: on a model whose SLC read traffic grows every refresh (well
# past the display dead-band), values stay put while paused and move again once resumed
printf '[pmu nvidia_ucf_pmu_*]\nrate.slc_bytes_rd = 1e9 * (1 + 10 * t)\n' > "$scratch/grow.ini"
PMUTOP_ARGS="--demo --model $scratch/grow.ini -d 0.2"
start 120 40 LANG=C.UTF-8
see "pause: start" "SLC read .*GB/s"
snap() { screen; grep "SLC read " "$scratch/screen.txt" > "$scratch/$1"; }
tick() { # wait until the header clock moves on: at least one refresh interval passed
    c=$(head -n 1 "$scratch/screen.txt" | grep -o '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]')
    wait_gone "$c" 4 || fail "the header clock stopped"
}
text ' '
see "paused" "PAUSED"
snap frozen1; tick; snap frozen2
cmp -s "$scratch/frozen1" "$scratch/frozen2" && ok || fail "values changed while paused"
text ' '
unseen "resumed" "PAUSED"
snap live1; tick; snap live2
cmp -s "$scratch/live1" "$scratch/live2" && fail "values did not move once resumed (the check above proves nothing)" || ok
keys q
quit_ok "pause quit"
PMUTOP_ARGS="--demo -d 0.2"

# a storm of 1 000 SIGWINCH in about a second (a window being dragged): still running,
# still drawing at the real size, and it quits cleanly
start 100 30 LANG=C.UTF-8
see "winch: start" "UCF bandwidth"
p=$(pmutop_pid)
i=0
while [ $i -lt 1000 ]; do kill -WINCH "$p" 2> /dev/null || break; i=$((i + 1)); done
expect_eq "winch: all 1000 delivered to a live process" "$i" 1000
T resize-window -t 0 -x 90 -y 28 2> /dev/null
kill -WINCH "$p"
see "winch: redrawn at the new size" "F10Quit"
screen
w=$(LC_ALL=C.UTF-8 wc -L < "$scratch/screen.txt")
[ "$w" -le 90 ] && ok || fail "winch: a line of $w columns on a 90-column screen"
keys q
quit_ok "winch storm"

# SIGHUP (an ssh connection dropping) exits cleanly
start 100 30 LANG=C.UTF-8
see "second start" "UCF bandwidth"
kill -HUP "$(pmutop_pid)" || fail "no pmutop to signal"
quit_ok "SIGHUP"

# Ctrl-\ (SIGQUIT, as the terminal sends it) quits as q does, the terminal restored
start 100 30 LANG=C.UTF-8
see "start for Ctrl-\\" "UCF bandwidth"
keys 'C-\'
quit_ok "Ctrl-\\ (SIGQUIT)"

# a mouse click focuses the row under it (X10 mouse report: ESC [ M button x y, each
# plus 32, 1-based); mouse is on by default outside ssh
start 120 40 LANG=C.UTF-8 SSH_CONNECTION=
see "mouse: start" "S0 RC5 (0006:00)"
row=$(grep -n "S0 RC5 (0006:00)" "$scratch/screen.txt" | cut -d: -f1)
click() { text "$(printf '\033[M%b%b%b' "\0$(printf %o $((32 + $1)))" "\0$(printf %o $((33 + $2)))" "\0$(printf %o $((33 + $3)))")"; }
click 0 5 $((row - 1))
click 3 5 $((row - 1))
keys f
see "click focused the RC" "Filters: socket0/rc5 (pcie"
keys Escape q
quit_ok "mouse quit"

# a crash restores the terminal before dying, and says so
start 100 30 LANG=C.UTF-8
see "third start" "UCF bandwidth"
kill -SEGV "$(pmutop_pid)" || fail "no pmutop to crash"
see "crash reported" "pmutop: crashed; the terminal was restored"
see "crash: exit status is the signal's" "EXITED=139"
see "crash: canonical mode restored" "^icanon$"
see "crash: echo restored" "^echo$"

# the NIC pane: switch SICL 0 from global to func mode with a BDF, live; then a mode that
# leaves some statistics n/a
PMUTOP_ARGS="--demo hip09 -d 0.2"
start 120 40 LANG=C.UTF-8
see "NIC pane" "NIC packet rates"
see "global mode in the title" "sicl0 mode=global"
# two blocks side by side at 120 columns leave no room for bars: no "bar =" either
see "the NIC pane without bars" "SSU->RPU bandwidth  *[0-9.]* GB/s"
unseen "no 'bar =' where no bar is drawn" "NIC packet rates.*bar ="
keys f
see "NIC filter editor" "Filters: nic sicl0"
text '   '
see "mode cycled to func" "mode .*< func >"
keys Down Down Down Enter
text '35:00.1'
keys Enter
text 'a'
see "func mode applied" "nic sicl0: mode=func,bdf=0x3501"
see "the pane title says the mode and its values" "sicl0 mode=func,bdf=0x3501"
see "func: RPU latency not supported" "RPU latency *n/a (mode not supported"
keys f
text ' '
see "next mode offered is func-queue" "mode .*< func-queue >"
text ' '
see "func-intr, which no event supports, is not offered" "mode .*< global >"
keys Escape q
quit_ok "nic quit"

# BlueField: choose which event a block's counter watches, from its event_list
PMUTOP_ARGS="--demo bluefield2 -d 0.2"
start 120 40 LANG=C.UTF-8
see "BlueField tiles pane" "Tiles: home node and memory"
see "hwmon source in the header" "source: hwmon"
see "rotation shown on the L3 halves" "l3cachehalf0 multiplexed"
keys f
see "tile filter editor" "Filters: tile tile0 (bfperf_tile0)"
see "the editor says how to choose" "step through the block's event_list"
keys Right
see "Right steps to the list's next event" "watch .*< HNF_REQUESTS >"
keys Left Left
see "Left wraps to the end of the list" "watch .*< RXDAT_RN >"
keys Enter
see "the prompt asks for an event, not a BDF" "watch = _ .*an event's name or number"
text 'memory_writes'
keys Enter
see "a typed name, any case" "watch .*< MEMORY_WRITES >"
text 'a'
see "applied" "tile tile0: watch=MEMORY_WRITES"
see "the row says what it watches" "tile0 watch=MEMORY_WRITES"
see "the chosen event counts" "Chosen event  \[[^]]*\] *[1-9][0-9.]*M /s"
keys q
quit_ok "bluefield quit"

# four LLT tiles repeat one six-metric block: at 100x35 they are a table (a row per tile,
# titles on two lines), not 28 lines of blocks
PMUTOP_ARGS="--demo bluefield3 -d 0.2"
start 100 35 LANG=C.UTF-8
see "tiles as a table: two-line titles" "^ *Requests  *Memory  *Directory *$"
see "tiles as a table: a row per tile" "^ llt3  *[0-9.]*M /s  *[0-9.]*M /s  *[0-9.]*M /s  *[0-9.]* %  *[0-9.]* GHz  *[0-9.]*k /s$"
keys q
quit_ok "bluefield3 quit"

# a BlueField block that goes away (its files, on a plain copy counted for real): its
# pane says "gone", the others count on, and it is back once its files are
rm -rf "$scratch/bfcopy" && cp -R "$TOP_SRCDIR/profiles/machines/bluefield2" "$scratch/bfcopy"
PMUTOP_ARGS="--sysfs-root $scratch/bfcopy -d 0.2"
start 120 40 LANG=C.UTF-8
see "copy counted" "Tiles: home node and memory"
mv "$scratch/bfcopy/sys/class/hwmon/hwmon0/tile1" "$scratch/tile1.away"
see "the pane says gone" "gone: bfperf_tile1 stopped answering"
see "tile0 still has values while tile1 is n/a" "HNF requests .*[0-9] /s .*HNF requests .* n/a"
mv "$scratch/tile1.away" "$scratch/bfcopy/sys/class/hwmon/hwmon0/tile1"
unseen "back once its files are" "gone: bfperf_tile1" 10
keys q
quit_ok "gone quit"
# recording from the monitor with w, then replaying it: pause, step, speed, jump, ends
cd "$scratch"
PMUTOP_ARGS="--demo hip09 -d 0.2"
start 120 40 LANG=C.UTF-8
see "live monitor" "NIC packet rates"
keys w
see "w starts a recording" "recording to pmutop-[0-9]\{8\}-[0-9]\{6\}\.pmrec"
see "the header says it records" "REC pmutop-.*pmrec ([1-9][0-9]* samples*)"
wait_for "REC pmutop-.*pmrec ([1-9][0-9] samples)" 10
keys w
see "w stops it" "recording stopped"
keys q
quit_ok "record quit"
rec=$(ls "$scratch"/pmutop-*.pmrec 2> /dev/null | head -n 1)
if [ -n "$rec" ]; then
    ok
    nrec=$("$PMUTOP" record --info "$rec" | awk '/^samples/ { print $2 }')
    [ "${nrec:-0}" -ge 5 ] && ok || fail "the recording from w holds $nrec samples"
    PMUTOP_ARGS="-r $rec"
    start 120 40 LANG=C.UTF-8
    see "replay header" "REPLAY"
    see "replay position" "\[.*\]  [0-9-]* [0-9:]*  [0-9]*/$nrec  "
    see "replay keys hint" "Space pause, Left/Right step"
    keys h
    see "replay help: its own keys first" "In a replay these keys come first"
    see "replay help: the jump key" "g  *jump to HH:MM\\[:SS\\], +5m or -90s"
    # one key, one meaning: the keys a replay takes are not listed again for the panes
    unseen "replay help: Right is not also 'next pane'" "Tab Right"
    unseen "replay help: Space is not also 'pause the display'" "pause / resume the display"
    unseen "replay help: Home is not also 'first row'" "first row"
    see "replay help: Tab still moves between panes" "Tab  *next pane"
    keys x
    unseen "replay help closes" "In a replay these keys come first"
    keys Space
    see "paused" "PAUSED"
    keys Home
    see "Home: the first sample" "  1/$nrec  "
    keys Right Right
    see "Right steps forward" "  3/$nrec  "
    keys Left
    see "Left steps back" "  2/$nrec  "
    # the sample's own values, over its recorded interval (the clock going back used to
    # leave every value a dash)
    see "a step back shows its sample's values" " bandwidth  *[0-9.]* [KMG]B/s"
    unseen "a step back: no value missing" " - [KMG]*B/s"
    keys .
    see ". steps forward (mpv's frame step)" "  3/$nrec  "
    T send-keys -t 0 Right Right Right # a burst, as a held key sends it
    see "three Rights in a burst step three samples" "  6/$nrec  "
    keys Left Left Left
    see "back to the third" "  3/$nrec  "
    keys End
    see "End: the last sample" "  $nrec/$nrec  "
    keys End
    see "End again: the last sample's values still" " bandwidth  *[0-9.]* [KMG]B/s"
    unseen "End again: no value missing" " - [KMG]*B/s"
    keys ']' ']'
    see "] speeds up" "4x"
    keys '[' '[' '[' '['
    see "[ slows down to a quarter" "0.25x"
    keys +
    see "+ is speed in a replay, as the header says" "0.5x"
    keys -
    see "- slows it again" "0.25x"
    keys g
    text '-1s'
    keys Enter
    see "g jumps back a second (five 0.2 s samples, give or take the live timing)" "  \\($((nrec - 6))\\|$((nrec - 5))\\)/$nrec  "
    keys f
    see "no filter changes in a replay" "a replay shows what was counted"
    keys Home Space
    see "resumed, it plays on" "  [2-9]/$nrec  "
    keys q
    quit_ok "replay quit"
else
    fail "w made no recording in $scratch"
fi
cd - > /dev/null

# rows Enter adds under a root complex count in the scroll range: the bottom of the
# screen is still reached (the measure once left them out, and End stopped short)
PMUTOP_ARGS="--demo -d 0.5"
start 120 40 LANG=C.UTF-8
see "expand: PCIe pane" "S0 RC2"
keys Tab Tab Down Down Enter
see "expand: RC2's devices shown" "NVMe controller"
keys Tab Tab End
see "expand: End reaches the last TopDown row" "^ all  *[RBFS]"
see "expand: the scroll mark at the end" "100%"
keys q
quit_ok "expand quit"

# a recording whose last chunk is damaged: the true range in the header, End goes to the
# last sample there is, the damage said on screen, and Home plays it again
if command -v sqlite3 > /dev/null; then
    "$PMUTOP" --demo hip09 -b -n 150 --fake-clock -w "$scratch/dmg.pmrec" > /dev/null
    sqlite3 "$scratch/dmg.pmrec" "UPDATE chunks SET data = zeroblob(10) WHERE id = (SELECT max(id) FROM chunks)"
    PMUTOP_ARGS="-r $scratch/dmg.pmrec"
    start 120 40 LANG=C.UTF-8
    see "damaged tail: the true range" "  1/120  [0-9:]*-[0-9:]*  1x"
    unseen "damaged tail: no range ending at midnight" "-00:00:00"
    keys End
    see "damaged tail: End goes to the last readable sample" "  120/120  "
    see "damaged tail: said on screen" "samples after [0-9:]* (121 to 150) are damaged"
    keys Home
    see "damaged tail: Home plays again" "  [1-9]/120  "
    keys q
    see "damaged replay quit: exit status 1" "EXITED=1"
    start 80 24 LANG=C.UTF-8
    see "80x24 replay: the position line whole" "  1/120  [0-9:]*-[0-9:]*  1x"
    keys q
    # the file is damaged: the run ends non-zero, as a batch replay of it does
    see "damaged replay quit: exit status 1" "EXITED=1"
    see "damaged replay quit: canonical mode restored" "^icanon$"
    see "damaged replay quit: echo restored" "^echo$"
else
    skip_check "a damaged replay in the monitor: the sqlite3 tool is not installed"
fi
PMUTOP_ARGS="--demo -d 0.2"

# a hybrid CPU (Alder Lake: P-cores and E-cores, TopDown each its own way): the rows of
# each kind, and "all" and "socket0" of every CPU, weighted by slots; Enter's level 2 is
# the P-cores' only, and the blended rows say so
sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" "$scratch/hybrid" adl pkg yes 4 > /dev/null
PMUTOP_ARGS="--sysfs-root $scratch/hybrid --sim -d 0.2"
start 120 40 LANG=C.UTF-8
see "hybrid: P-cores' row" "^ all-pcores  *R"
see "hybrid: E-cores' row" "^ all-ecores  *R"
see "hybrid: every CPU's row" "^ all  *R"
unseen "hybrid: no failed group" "failed"
text '/'
text 'retiring'
keys Enter Enter
see "hybrid: level 2 of the P-cores" "level 2  *lll"
see "hybrid: a blend says why it has no level 2" "not on every CPU of this row: see the rows it blends"
keys q
quit_ok "hybrid quit"
PMUTOP_ARGS="--demo -d 0.2"

# ASCII: a temperature in C, not ?C (? marks an unreadable value)
start 120 60 LANG=C
see "ASCII: degrees as C" "Temperature  *[0-9.]* C "
unseen "ASCII: no ?C" "?C"
keys q
quit_ok "ascii degrees quit"

# 80x24, plain ASCII, no colour, vt100: readable, and no UTF-8 glyphs
start 80 24 LANG=C NO_COLOR=1 TERM=vt100
see "vt100 ascii" "SLC read .*\[|"
screen
LC_ALL=C grep -q "$(printf '\342')" "$scratch/screen.txt" && fail "UTF-8 glyphs with LANG=C" || ok
T capture-pane -e -p -t 0 > "$scratch/esc.txt"
grep -q "$(printf '\033')\[3[0-7]" "$scratch/esc.txt" && fail "colour with NO_COLOR" || ok
keys q
quit_ok "vt100 quit"

for term in xterm-256color xterm screen tmux-256color linux; do
    start 100 30 LANG=C.UTF-8 TERM=$term
    see "TERM=$term" "UCF bandwidth"
    keys F10
    quit_ok "TERM=$term quit"
done

# setup choices survive a restart
start 100 30 LANG=C
see "setup: start" "UCF bandwidth"
keys F2
see "setup opens" "Setup"
keys Down Down Right Right
see "bar style hashes" "Bar style .*hashes"
keys Escape
see "settings saved" "settings saved to"
# metrics no pane lists are one setup switch away, and that choice is kept too
keys s
see "setup lists the other metrics" "\[ \] NVIDIA Tegra410 uncore: other metrics"
keys Down Down Down Down Down Down Down Down
see "the other metrics row" "\[ \] NVIDIA Tegra410 uncore: other metrics"
text ' '
keys Escape
text '/'
text 'slc_read_rate'
keys Enter
see "other metrics shown" "SLC read requests .*req/cyc"
keys q
quit_ok "setup quit"
grep -q "^bars=hashes$" "$HOME/.config/pmutop/pmutoprc" && ok || fail "pmutoprc lacks bars=hashes"
grep -q "^show_pane=tegra410/other$" "$HOME/.config/pmutop/pmutoprc" && ok || fail "pmutoprc lacks show_pane"
start 120 40 LANG=C
see "hashes after restart" "SLC read .*\[##"
keys s
see "setup shows the saved choice" "Bar style .*hashes"
keys Escape q
quit_ok "restart quit"

# ASCII chosen in setup holds in a UTF-8 locale, dialog boxes included; a 0.01 s interval
# is shown as such
cp "$HOME/.config/pmutop/pmutoprc" "$scratch/pmutoprc.saved"
echo "charset=ascii" >> "$HOME/.config/pmutop/pmutoprc"
PMUTOP_ARGS="--demo -d 0.01"
start 100 30 LANG=C.UTF-8
see "0.01 s interval shown" "interval 0.01s"
keys h
see "help in ASCII" "+- pmutop help"
screen
LC_ALL=C grep -q "$(printf '\342\224')" "$scratch/screen.txt" && fail "box-drawing glyphs with charset=ascii" || ok
keys Escape q
quit_ok "ascii quit"
cp "$scratch/pmutoprc.saved" "$HOME/.config/pmutop/pmutoprc"
PMUTOP_ARGS="--demo -d 0.2"

# the host profile on this machine: real counters, per-CPU rows behind Enter. What the
# screen says of RAPL and TopDown is what this host has (a cloud VM may have no power
# PMU, one with no events, or only energy-psys; no core PMU): asked of its sysfs
devs=/sys/bus/event_source/devices
PMUTOP_ARGS="-d 0.2"
start 100 30 LANG=C.UTF-8
see "host pane" "Context switches .*/s"
see "tsc" "TSC frequency .*GHz"
if [ ! -d "$devs/power" ]; then
    see "missing PMU said" "no 'power' PMU"
elif [ -e "$devs/power/events/energy-pkg" ]; then
    see "package power counted" "Package power .* W"
else
    unseen "package power not on this machine: no row (e says why)" "Package power"
fi
if ls -d "$devs"/cpu "$devs"/cpu_core "$devs"/armv8_pmuv3* "$devs"/armv8_neoverse* > /dev/null 2>&1; then
    skip_check "this host has a core PMU: 'TopDown unavailable: no core PMU' is checked on a fake VM tree below"
else
    see "no core PMU: TopDown says so" "TopDown unavailable: no core PMU"
fi
unseen "what the host lacks is no failure" "failed (e: errors)"
# per-CPU rows fill the room there is (a few CPUs fit); Enter takes them back, and Enter
# again shows them
if [ "$(grep -c '^processor' /proc/cpuinfo)" -le 8 ]; then
    see "room to spare: per-CPU rows shown" "cpu0"
    keys Enter
    see "Enter: summaries" "showing summaries"
    unseen "summaries: no per-CPU rows" "cpu0"
    keys Enter
    see "Enter expands per CPU" "cpu0"
else
    skip_check "per-CPU rows at 100x30: this host has more than 8 CPUs"
fi
keys e
see "error view" "Errors and warnings"
[ -d "$devs/power" ] || see "error view names the missing PMU" "no PMU matches 'power'"
keys Escape q
quit_ok "host quit"
# a pane hidden is a group closed: hiding the Host pane in setup closes its counters (the
# process's perf_event descriptors), 'w' (a recording wants every counter) opens them all
# again until it stops, and showing the pane opens them and shows its values again
perf_fds() { ls -l "/proc/$(pmutop_pid)/fd" 2> /dev/null | grep -c 'perf_event'; }
fds_are() { # WHAT TEST: within a deadline
    i=0
    while [ $i -lt 60 ] && ! [ "$(perf_fds)" $2 ]; do sleep 0.1; i=$((i + 1)); done
    [ "$(perf_fds)" $2 ] && ok || fail "$1: $(perf_fds) perf descriptors"
}
cd "$scratch" # (w's recording goes here)
PMUTOP_ARGS="-d 0.2"
start 120 40 LANG=C.UTF-8
# (the host profile is the fallback: a machine another profile matches has no Host pane)
if ! wait_for "Context switches .*/s" 6; then
    skip_check "no Host pane on this host (another profile matches it): a hidden pane's counters are not tried"
elif [ "$(perf_fds)" -gt 0 ]; then
    open_fds=$(perf_fds)
    toggle_host_pane() { # in setup: down to the Host pane's row (counted from Colour, the
        keys F2            # first row) and switch it
        see "setup for the Host pane" "Host (host/host)"
        n=$(awk '/Colour  / { c = NR } /\[.\] Host \(host\/host\)/ { h = NR } END { print h - c - 1 }' "$scratch/screen.txt")
        i=0; while [ $i -lt "$n" ]; do keys Down; i=$((i + 1)); done
        keys Space Escape
    }
    toggle_host_pane
    unseen "the Host pane hidden" "Context switches .*/s"
    fds_are "its counters closed" "-eq 0"
    keys w
    see "w: recording" "recording to "
    fds_are "recording: every counter open again" "-eq $open_fds"
    keys w
    see "w again: stopped" "recording stopped"
    fds_are "the recording stopped: the hidden pane's counters closed again" "-eq 0"
    toggle_host_pane
    see "the Host pane shown again, counting" "Context switches  *[0-9.]*k* /s"
    fds_are "its counters open again" "-eq $open_fds"
else
    skip_check "no perf_event descriptors here (perf counts nothing on this host): a hidden pane's counters are not tried"
fi
keys q
quit_ok "hidden pane quit"
cd - > /dev/null

# the host variants a user's machine or a CI runner may be, on fake trees (gen-host.sh):
# a VM with a RAPL PMU that has no events, one with no power or msr PMU at all
sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" "$scratch/vm-empty" vm empty yes 2
PMUTOP_ARGS="--sysfs-root $scratch/vm-empty --sim -d 0.2"
start 100 30 LANG=C.UTF-8
see "empty RAPL PMU: the host pane counts" "Context switches .*/s"
unseen "empty RAPL PMU: no package power row (not on this machine)" "Package power"
see "empty RAPL PMU: header says it is not here" "some not on this machine (e)"
unseen "empty RAPL PMU: no failure in the header" "failed (e: errors)"
see "no core PMU: TopDown says so" "TopDown unavailable: no core PMU"
keys e
see "error view: not on this machine, apart" "unavailable: host/power all: PMU power has none of the events"
unseen "error view: nothing failed" "No errors"
keys Escape q
quit_ok "empty RAPL quit"
sh "$TOP_SRCDIR/tests/fixtures/gen-host.sh" "$scratch/vm-bare" vm none no 2
PMUTOP_ARGS="--sysfs-root $scratch/vm-bare --sim -d 0.2"
start 100 30 LANG=C.UTF-8
see "no power PMU: the host pane counts" "Context switches .*/s"
see "missing PMU said" "no 'power' PMU"
unseen "no sensors: no Sensors pane (pmutop(1))" "Sensors"
unseen "no sensors: nothing says 'nothing to show'" "nothing to show"
keys e
see "error view names the missing PMU" "no PMU matches 'power'"
see "error view names the missing msr PMU" "no PMU matches 'msr'"
keys Escape q
quit_ok "no power PMU quit"

# a C2C link to a CPU has no write events: the pane says which event and the peer
sh "$TOP_SRCDIR/tests/fixtures/gen-tegra410.sh" "$scratch/cpu-peer" 2 4 1
c2c="$scratch/cpu-peer/sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_1"
rm "$c2c"/events/*_wr_* "$c2c/format/gpu_mask"
echo nr_cpu=1 > "$c2c/peer"
PMUTOP_ARGS="--sim --sysfs-root $scratch/cpu-peer -d 0.2"
start 120 40 LANG=C.UTF-8
see "CPU peer: write latency absent, with the reason" "C2C in write latency *n/a: no in_wr_cum_outs, nr_cpu=1"
see "GPU peer: write latency present" "C2C in write latency  *[0-9.]* ns"
keys q
quit_ok "cpu peer quit"

# TopDown: per socket on Tegra410's Neoverse cores; level 2 and per-CPU rows on SPR
PMUTOP_ARGS="--demo -d 0.2"
start 120 40 LANG=C.UTF-8
text '/'
text 'retiring'
keys Enter
see "TopDown pane on the Neoverse cores" "socket1 *R*S*F*B* *R *[0-9]*% S *[0-9]*% F *[0-9]*% B *[0-9]*%"
# the last pane: c adds its CPU rows below the screen's end, and scrolls to them
keys c
see "c scrolls to the first row it adds" "^ cpu0  *R*S*F*B* *R *[0-9]*%"
keys q
quit_ok "tegra topdown quit"
# The first screen at 120x40 is what each demo is for (README): the machine's own panes
# (its uncore), then perf's TopDown tree, then cores and sensors, the host last, and panes
# that can only say what is missing below those with figures
first_screen() { # DEMO PATTERN...: each pattern on the first screen
    fs_demo=$1
    shift
    PMUTOP_ARGS="--demo $fs_demo -d 0.2"
    start 120 40 LANG=C.UTF-8
    for fs_pat; do see "--demo $fs_demo at 120x40: the first screen shows '$fs_pat'" "$fs_pat"; done
    keys q
    quit_ok "--demo $fs_demo first screen quit"
}
rm -f "$HOME/.config/pmutop/pmutoprc"
# (the Cores pane as pcm-memory's table: socket0, socket1 and all side by side, not all's
# block below repeating every row)
first_screen spr "^─ TopDown (perf's TMA" "tma_[a-z_]* <== " "^─ Cores (IPC" "^socket0 .*  socket1 .*  all "
first_screen tegra410 "^─ UCF bandwidth" "^─ Latency" "^─ PCIe root complexes"
first_screen xeon "^─ Memory (c: per channel)" "^─ Socket links (UPI"
first_screen epyc "^─ Memory (UMC" "^─ Memory by requester (data fabric)"
first_screen grace "^─ Memory (SCF)" "^─ IO (PCIe)"
first_screen hip09 "^─ NIC packet rates"
first_screen bluefield3 "^─ Last-level cache tiles" "^─ Memory: miss machines"
# PgDn/PgUp page the screen as htop's lists do: a pane that fits (the tree at the top of
# --demo spr) no longer takes the key while the screen stands still
PMUTOP_ARGS="--demo spr -d 0.2"
start 120 40 LANG=C.UTF-8
see "spr 120x40: the tree's pane first" "^─ TopDown (perf's TMA"
keys NPage
unseen "spr 120x40: PgDn moves the screen past the tree" "^─ TopDown (perf's TMA"
keys PPage
see "spr 120x40: PgUp brings the tree back" "^─ TopDown (perf's TMA"
keys q
quit_ok "spr paging quit"
# Tab to a pane that does not show whole brings its title to the top line, its rows below
# (not its title alone at the bottom): epyc's xGMI pane, the fourth, at the first screen's
# foot
PMUTOP_ARGS="--demo epyc -d 0.2"
start 120 40 LANG=C.UTF-8
see "epyc: the UMC pane first" "^─ Memory (UMC"
keys Tab Tab Tab
see "epyc: Tab to the xGMI pane: its title on the top line" "^─ Socket links (xGMI)"
screen
sed -n 4p "$scratch/screen.txt" | grep -q "^─ Socket links (xGMI)" && sed -n 6p "$scratch/screen.txt" | grep -q "^ xGMI out" && ok ||
    { fail "epyc: Tab to the xGMI pane puts its title on the top line, its rows below:"; cat "$scratch/screen.txt" >&2; }
keys q
quit_ok "epyc Tab quit"
PMUTOP_ARGS="--demo spr -d 0.2"
start 120 90 LANG=C NO_COLOR=1 # room to spare below every pane
see "SPR TopDown letters in monochrome, pcm's (S bad speculation, B backend)" "socket0[ ~0-9%]*RRRR*SS*FF*BBBB"
see "SPR TopDown legend: pcm's letters" "R Retiring  S Bad speculation  F Frontend bound  B Stalled in backend"
see "spare room holds per-CPU rows, and the rest is counted" "[0-9]* more CPUs (c shows them all"
text '/'
text 'topdown.retiring' # the stacked pane's (perf's tree, above it, has tma_retiring)
keys Enter Enter
see "level 2 under level 1" "level 2 *ll*hh*pp*c*ww*aa*oo*mm"
see "level 2 letters explained, none meaning two things" "a Fetch latency"
# the level-2 bar is as long as level 1's, so each child sits under its parent
screen
l1=$(grep -m1 "^ socket0 " "$scratch/screen.txt" | grep -o "[RBFS]*" | awk '{ print length }' | sort -n | tail -n 1)
l2=$(grep -m1 "^ *\`- level 2 " "$scratch/screen.txt" | grep -o "[lhpcwaom][lhpcwaom]*" | awk '{ print length }' | sort -n | tail -n 1)
expect_eq "level-2 bar as long as level 1's" "$l2" "$l1"
text 'c'
see "per-CPU rows" "cpu3 "
text 'o'
see "sorted" "CPUs sorted by Retiring"
# sorted rows hold their order on noise: the same order over two refreshes
snap_order() { screen; grep -o "^ cpu[0-9]*" "$scratch/screen.txt" | tr -d ' ' | tr '\n' ' '; }
o1=$(snap_order); tick; tick; o2=$(snap_order)
expect_eq "sorted rows stay put on noise" "$o2" "$o1"
keys q
quit_ok "spr quit"

# more than 64 CPUs (the Tegra410 demo's 144): a per-CPU group counts in its socket rows,
# no row a CPU (bind_cpu_sums.c: memory as sockets), until c counts again with a row a
# CPU and opens the pane showing them
cd "$scratch" # (w's recording goes here)
PMUTOP_ARGS="--demo -d 0.2"
start 120 40 LANG=C.UTF-8
see "Tegra410: each CPU's counters, as perf's groups a CPU" "^ 207 counter groups"
text '/'
text 'topdown.retiring'
keys Enter
see "Tegra410: TopDown offers to count per CPU" "c: count per CPU"
screen
grep -q "^ cpu[0-9]" "$scratch/screen.txt" && fail "Tegra410: CPU rows before c" || ok
rm -f "$scratch"/pmutop-*.pmrec
keys w # a recording of socket rows: its replay binds so, and says -A has no CPU's row
wait_for "REC pmutop-.*pmrec ([3-9] samples)" 10
text 'c'
see "Tegra410: not while recording" "stop recording (w) before counting per CPU"
keys w
see "Tegra410: recording stopped" "recording stopped"
text 'c'
see "Tegra410: c counts again and shows every CPU" "showing every CPU"
see "Tegra410: a row a CPU" "^ cpu3 "
see "Tegra410: the same counters" "^ 207 counter groups"
keys q
quit_ok "Tegra410 counted per CPU"
# the size is the monitor's (ui/term_size.c: curses' own screen is one cell): LINES and
# COLUMNS where set, as curses takes them, junk ignored (the terminal's then)
PMUTOP_ARGS="--demo"
start 100 30 LANG=C.UTF-8 LINES=20 COLUMNS=70
see "LINES=20 COLUMNS=70: the key bar on line 20" "F1Help"
screen
expect_eq "LINES=20: the key bar's line" "$(grep -n "^F1Help" "$scratch/screen.txt" | cut -d: -f1)" 20
expect_eq "COLUMNS=70: the widest line" "$(LC_ALL=C.UTF-8 wc -L < "$scratch/screen.txt")" 70
keys q
quit_ok "LINES/COLUMNS quit"
start 100 30 LANG=C.UTF-8 LINES=junk COLUMNS=99999999
see "junk LINES/COLUMNS: the terminal's size" "F1Help"
screen
expect_eq "junk LINES: the key bar on the terminal's last line" "$(grep -n "^F1Help" "$scratch/screen.txt" | cut -d: -f1)" 30
keys q
quit_ok "junk LINES/COLUMNS quit"
rec=$(ls "$scratch"/pmutop-*.pmrec 2> /dev/null | head -n 1)
"$PMUTOP" record --info "$rec" > "$scratch/sums-info.txt" 2>&1
expect_grep "Tegra410: the recording says how it counted" "^cpu rows  *none: per-CPU groups counted in their socket rows" "$scratch/sums-info.txt"
"$PMUTOP" -r "$rec" -b --format csv -A > "$scratch/sums-replay.csv" 2> "$scratch/sums-replay.err"
expect_eq "Tegra410: its replay: exit status" $? 0
expect_grep "Tegra410: its replay's socket rows" ",topdown.retiring,socket0,[0-9]" "$scratch/sums-replay.csv"
grep -q ",cpu[0-9]*," "$scratch/sums-replay.csv" && fail "Tegra410: a replay of socket rows printed CPU rows" || ok
expect_grep "Tegra410: -A on it says why no CPU's row" "no CPU's row was kept" "$scratch/sums-replay.err"
cd - > /dev/null

# a multiplexed group: values scaled and marked, the coverage said
printf '[pmu nvidia_ucf_pmu_*]\nrunning = 0.5\n' > "$scratch/mux.ini"
PMUTOP_ARGS="--demo --model $scratch/mux.ini -d 0.2"
start 120 40 LANG=C.UTF-8
see "multiplexed coverage shown" "socket0 multiplexed 50%"
see "multiplexed values marked" "SLC read .*[0-9]~ [GMK]B/s"
keys q
quit_ok "mux quit"

# text from files reaches the screen cell by cell: a C1 control (U+009B, CSI) and a stray
# byte become '?', a wide character takes two cells and the columns after it stay put
mkdir -p "$scratch/wide"
cp -R "$TOP_SRCDIR/profiles/machines/tegra410/sys" "$scratch/wide/"
printf 'Socket 0 \302\23331m \346\270\251\345\272\246\n' > "$scratch/wide/sys/class/hwmon/hwmon0/temp1_label"
printf 'Socket 1 \23331m SoC\n' > "$scratch/wide/sys/class/hwmon/hwmon2/temp1_label"
PMUTOP_ARGS="--sim --sysfs-root $scratch/wide -d 0.2"
start 120 40 LANG=C.UTF-8
keys End
see "a C1 control as '?', a wide label in two cells each" "soc_thermal0/Socket 0 ?31m 温度 "
see "a stray byte as '?'" "soc_thermal1/Socket 1 ?31m SoC$"
# the next column starts where it does on a row of narrow labels
before() { grep "$1" "$scratch/screen.txt" | sed "s|$2.*||" | LC_ALL=C.UTF-8 wc -L; }
expect_eq "the column after a wide label stays put" "$(before soc_thermal0/ soc_thermal1/)" "$(before power_meter0/ power_meter1/)"
keys q
quit_ok "wide labels quit"

# Arm's TopDown has no level 2: its pane does not offer one
PMUTOP_ARGS="--demo -d 0.2"
start 120 40 LANG=C.UTF-8
keys End
see "Arm TopDown shown" "R Retiring  S Bad speculation"
grep "R Retiring" "$scratch/screen.txt" | grep -q "Enter: level 2" && fail "Arm's TopDown offers a level 2 it has not" || ok
keys q
quit_ok "arm quit"

# the Xeon demo: memory, socket links and IO per socket, channels on 'c'; at 120x40 and
# at 80x24
PMUTOP_ARGS="--demo xeon -d 0.2"
start 120 40 LANG=C.UTF-8
# perf's MB/s shown as GB/s once above 999 (three digits, as everywhere)
see "xeon: memory per socket" "Memory read .* [0-9.]*~* GB/s .*Memory read .* [0-9.]*~* GB/s"
see "xeon: socket links" "UPI transmit .* [0-9.]* GB/s"
see "xeon: IO stacks" "IIO read .* [0-9.]* GB/s"
see "xeon: IO stacks' free-running bytes" "IIO in (to CPU) .* [0-9.]* GB/s .*IIO in (to CPU)"
see "xeon: the bar scale beside what Enter does" "Memory (c: per channel) ─* bar = [0-9.]* GB/s  \[Enter: details\] ─$"
keys End
see "xeon: TopDown too" "TopDown (share of pipeline slots)"
text '/'
text 'Freq capped: power'
keys Enter
see "xeon: the PCU's limits per socket" "Freq capped: power  *\[.*\] *[0-9.]*~* % .*Freq capped: power"
see "xeon: cores in C0 per socket" "Cores in C0 .* [0-9.]*~* cores"
keys q
quit_ok "xeon 120x40 quit"
# the Memory pane's members on 'c' are its channels: the LLC slices, whose directory
# writes need a mesh-to-memory unit of the same name, have no row there (not an n/a)
start 120 70 LANG=C.UTF-8
text 'c'
see "xeon: channels on c" "socket1/ch7"
see "xeon: the Memory pane's end in sight" "Socket links (UPI"
grep -q "socket0/cha0" "$scratch/screen.txt" && fail "xeon: an LLC slice in the Memory pane" || ok
grep -q "n/a: no its events" "$scratch/screen.txt" && fail "xeon: a slice said 'n/a: no its events'" || ok
keys q
quit_ok "xeon 120x70 quit"
start 80 24 LANG=C.UTF-8
see "xeon 80x24: memory" "Memory read .* [0-9.]* GB/s"
text 'c'
see "xeon: a channel's row on c" "socket1/ch0"
see "xeon: c says what its rows are" "showing every row like socket0/ch0"
if [ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ]; then
    # a channel's memory bandwidth is perf's metric on perf's CAS events (xeon.ini's perf =)
    keys /
    text "Memory read"
    keys Enter i
    see "xeon, i: the channel's memory read is perf's" "defined here as perf's memory_bandwidth_read (perf-sapphirerapids)"
    see "xeon, i: perf's CAS event on the channel's own PMU" "UNC_M_CAS_COUNT.RD  *uncore_imc_0/event=0x5,umask=0xcf/"
    keys Escape
fi
keys q
quit_ok "xeon 80x24 quit"

# an Ice Lake-SP: its IIO stacks named with the root bus its driver's dieN prints
XEON_MODEL=icx sh "$TOP_SRCDIR/tests/fixtures/gen-xeon.sh" "$scratch/icx" 2 4 6 3 4 2
PMUTOP_ARGS="--sim --sysfs-root $scratch/icx -d 0.2"
start 120 40 LANG=C.UTF-8
text '/'
text 'IIO in'
keys Enter
see "icx: the IO pane" "found iio_inbound_bandwidth"
text 'c'
see "icx: a stack with its PCI segment, root bus and device" "^socket0/iio2 (0000:2a) NVMe controller  *socket1/iio2 (0000:aa) NVMe controller"
grep -q "iio1 (0000:15) [A-Za-z]" "$scratch/screen.txt" && fail "icx: a device named on a bus that has none" || ok
grep -q "IIO read" "$scratch/screen.txt" && fail "icx: SPR's IIO metrics shown (n/a) on an Ice Lake" || ok
# Enter on a stack's row lists the devices on its root bus and behind its bridges
keys Down Down Down Down
see "icx: the title says Enter shows a stack's devices" "\[Enter: its devices\]"
keys Enter
see "icx: Enter lists the stack's devices" "^ *0000:aa:02.0 PCI bridge *\$"
see "icx: ... and the device behind the bridge" "^ *└ 0000:ab:00.0 NVMe controller *\$"
see "icx: the bus's integrated function, named as lspci would" "0000:aa:00.0 system peripheral"
see "icx: the title says Enter hides them" "\[Enter: hide its devices\]"
keys Enter
unseen "icx: Enter again hides them" "0000:ab:00.0 NVMe controller"
keys q
quit_ok "icx quit"

# the EPYC demo: memory controllers, the data fabric by requester, IO, xGMI and L3 per
# socket; at 120x40 and 80x24
PMUTOP_ARGS="--demo epyc -d 0.2"
start 120 40 LANG=C.UTF-8
see "epyc: memory per socket" "Memory read .* [0-9.]*~* GB/s .*Memory read .* [0-9.]*~* GB/s"
see "epyc: fabric by requester per socket" "Local CPU read .* [0-9.]*~* GB/s .*Local CPU read .* [0-9.]*~* GB/s"
# a row the machine cannot count is left out: Zen has no generic LLC event
text '/'
text 'L1D MPKI'
keys Enter
see "epyc: the Cores pane" "L1D MPKI  *[0-9.]* "
unseen "epyc: no LLC MPKI row (no generic LLC event on Zen)" "LLC MPKI"
text '/'
text 'L3 read miss latency'
keys Enter
see "epyc: L3 per socket" "L3 read miss latency .* [0-9]* cycles .*L3 read miss latency"
keys End
if [ -f "$TOP_BUILDDIR/catalogue/amdzen4.ini" ]; then
    # perf's pipeline tree is this CPU's TopDown: no pane above it saying TopDown is missing
    see "epyc: perf's TopDown tree, AMD's pipeline utilisation (not TMA)" "TopDown (perf's pipeline utilisation"
    unseen "epyc: no 'TopDown unavailable' beside the tree" "TopDown unavailable"
else
    see "epyc: TopDown says why not" "TopDown unavailable: no core PMU whose TopDown pmutop knows"
fi
keys q
quit_ok "epyc 120x40 quit"
start 80 24 LANG=C.UTF-8
see "epyc 80x24: memory" "Memory read .* [0-9.]*~* GB/s"
text 'c'
# (a UMC's five events take turns on its four counters: the row says so)
see "epyc: a controller's row on c" "^socket0/umc0\( multiplexed 80%\)\?$"
# its values are evaluated again once shown (collapsed, the engine skips members' values)
wait_for "^ Memory read  *\[.*\] *[0-9.]*~* GB/s" 6
screen
if awk '/^socket0\/umc0( multiplexed 80%)?$/ { getline; print; exit }' "$scratch/screen.txt" | grep -q "Memory read .* [0-9.][0-9.]*~* GB/s"; then ok
else fail "epyc: a controller's values once c shows it:"; cat "$scratch/screen.txt" >&2; fi
keys q
quit_ok "epyc 80x24 quit"

# the Grace demo: memory (SCF), PCIe with the root ports it counts, the socket links with
# CNVLink's remote sockets, per socket, at 120x40
PMUTOP_ARGS="--demo grace -d 0.2"
start 120 40 LANG=C.UTF-8
see "grace: memory per socket" "Memory read .*GB/s .*Memory read .*GB/s"
see "grace: PCIe says which root ports" "socket0 root_port=0x3ff"
see "grace: links" "C2C0 read .*GB/s"
see "grace: CNVLink's remote sockets" "cnvlink: rem_socket=0xf"
# a metric with a max of its own (100 %) draws its bar against it
see "grace: a percentage's bar" "SCF miss ratio *\[[#█|]"
# the filter editor says 0 is refused on a mask whose range starts at 1 (not "default")
keys Tab F4
see "grace: root ports' range said" "root_port takes 1..0x3ff: 0 is refused"
keys Escape
keys q
quit_ok "grace quit"

# an EPYC's memory controllers (one PMU each): sockets first, the controllers on 'c'
sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" "$scratch/epyc" 2 8 "12 11"
PMUTOP_ARGS="--sim --sysfs-root $scratch/epyc -d 0.2"
start 120 40 LANG=C.UTF-8
see "epyc: memory per socket" "^socket0  .*socket1"
grep -q "socket0/umc0" "$scratch/screen.txt" && fail "epyc: controllers shown before 'c'" || ok
text 'c'
see "epyc: a controller's row on c" "socket0/umc0"
keys q
quit_ok "epyc quit"
# a Zen 5: its L3 with perf's Zen 5 latencies, the overall one in ns where Zen 4's is
# in core clocks (no "cycles" row, nor an n/a: that variant is another generation's)
EPYC_MODALIAS="cpu:type:x86,ven0002fam001Amod0002:feature:,0000" sh "$TOP_SRCDIR/tests/fixtures/gen-epyc.sh" "$scratch/zen5" 2 8 "12 12"
PMUTOP_ARGS="--sim --sysfs-root $scratch/zen5 -d 0.2"
start 120 50 LANG=C.UTF-8
keys End
see "zen 5: local DRAM latency per socket" "Local DRAM miss latency  *[0-9]*~* ns .*Local DRAM miss latency"
see "zen 5: the L3 read miss latency in ns" "L3 read miss latency  *[0-9]*~* ns"
unseen "zen 5: no latency in Zen 4's unit" "latency  *[0-9.]* *cycles"
keys q
quit_ok "zen 5 quit"

# Arm's core figures (the Tegra410 demo's Neoverse V2 cores): a pane hidden at first, as
# its counters would take TopDown's in turn, the Cores pane saying where it is; shown (as
# setup keeps it, show_pane=), IPC, clock and misses per kilo-instruction per socket
rm -f "$HOME/.config/pmutop/pmutoprc"
PMUTOP_ARGS="--demo -d 0.2"
start 120 40 LANG=C.UTF-8
keys End
see "arm cores: the Cores pane says where they are" "no x86 core PMU here (a VM without a virtual PMU?); setup (F2) shows Cores"
unseen "arm cores: hidden at first" "─ Cores (Arm; counted in turn"
keys b
see "b without a TopDown tree says how to have one" "no TopDown tree here (perf's catalogue: -M"
keys /; text arm_ipc; keys Enter
see "find: a metric of the pane hidden by default says how to count it" "core.arm_ipc is in Cores (Arm; counted in turn with TopDown), counted once shown: setup (F2)"
keys q
quit_ok "arm cores, hidden, quit"
# a machine whose tree has no core PMU at all (the hip09 demo, a NIC's fixture): setup has
# no Cores (Arm) to offer, so the Cores pane does not send the user there
PMUTOP_ARGS="--demo hip09 -d 0.2"
start 120 40 LANG=C.UTF-8
keys End
see "hip09: the Cores pane says what is missing" "no x86 core PMU here (a VM without a virtual PMU?)"
unseen "hip09: no setup entry promised" "setup (F2) shows"
keys q
quit_ok "hip09 cores quit"
PMUTOP_ARGS="--demo -d 0.2"
# shown from setup: the monitor counts a pane hidden by default only once it is shown
# (its metrics left out until then, as a run without a screen leaves them), so closing
# setup starts counting again with it, and pmutoprc keeps it
setup_row() { # PATTERN: how many Downs from setup's first row (Colour) to the row, once drawn
    wait_for "$1" || { fail "setup never showed '$1'"; return; }
    awk -v pat="$1" '/Colour  *</ { c = NR } c && index($0, pat) { print NR - c - 1; exit }' "$scratch/screen.txt"
}
start 120 40 LANG=C.UTF-8
keys F2
see "setup lists the Cores (Arm) pane, not shown" "\[ \] Cores (Arm; counted in turn with TopDown) (core/core_arm)"
n=$(setup_row "(core/core_arm)")
i=0; while [ "$i" -lt "${n:-0}" ]; do keys Down; i=$((i + 1)); done
keys Space
see "setup: the Cores (Arm) pane counted from closing, said (setup's box covers the rest)" "^ Cores (Arm; counted in"
see "setup: the Cores (Arm) pane marked shown" "\[x\] Cores (Arm; counted in turn with TopDown) (core/core_arm)"
keys Escape
keys End
see "arm cores shown from setup: counted again, IPC per socket" "^ IPC  *[0-9]\.[0-9]*~* .* IPC  *[0-9]\.[0-9]*~* "
grep -q "^show_pane=core/core_arm$" "$HOME/.config/pmutop/pmutoprc" && ok || fail "pmutoprc lacks show_pane=core/core_arm"
keys q
quit_ok "arm cores shown from setup, quit"
rm -f "$HOME/.config/pmutop/pmutoprc"
# recording (and serving) beside the monitor: the recording gets what pmutop record would
# count, the hidden pane's counters stay closed, TopDown keeps every counter
PMUTOP_ARGS="--demo -d 0.2 -w $scratch/arm-hidden.db"
start 120 40 LANG=C.UTF-8
keys End
see "arm cores hidden, recording: TopDown shown" "^ socket0  *RR*SS*FF*BB* "
unseen "arm cores hidden, recording: TopDown not counted in turn" "~55%\|multiplexed"
keys F2
n=$(setup_row "(core/core_arm)")
i=0; while [ "$i" -lt "${n:-0}" ]; do keys Down; i=$((i + 1)); done
keys Space
see "arm cores hidden, recording: setup will not count them now (setup's box covers the rest)" "^ stop recording (w) bef"
keys Escape
keys q
quit_ok "arm cores hidden, recording, quit"
PMUTOP_ARGS="--demo -d 0.2"
mkdir -p "$HOME/.config/pmutop"
printf 'show_pane=core/core_arm\n' > "$HOME/.config/pmutop/pmutoprc"
start 120 40 LANG=C.UTF-8
keys End
see "arm cores: shown" "Cores (Arm; counted in turn with TopDown)"
see "arm cores: IPC per socket" "^ IPC  *[0-9]\.[0-9]*~* .* IPC  *[0-9]\.[0-9]*~* "
see "arm cores: the clock" "^ Clock  *[0-9.]* GHz"
see "arm cores: L2 misses" "^ L2 MPKI  *[0-9.]*"
see "arm cores: LLC misses" "^ LLC MPKI  *[0-9.]*"
see "arm cores: mispredicts" "^ Br MPKI  *[0-9.]* "
# eleven events for six counters: the demo's cores count TopDown's and these in turn
# (the model's counters = 6: each 6/11 of the time), and both panes say so; TopDown
# hidden, these have them all
see "arm cores: counted in turn, said" "^socket0 multiplexed 55%"
see "arm cores: a multiplexed value marked" "^ IPC  *[0-9.]*~"
see "arm cores: TopDown's rows say their share too" "^ socket0 ~55%  "
keys q
quit_ok "arm cores, shown, quit"
printf 'show_pane=core/core_arm\nhide_pane=topdown/topdown\n' > "$HOME/.config/pmutop/pmutoprc"
start 120 40 LANG=C.UTF-8
keys End
see "arm cores, TopDown hidden: shown" "^ IPC  *[0-9]\.[0-9]*  "
unseen "arm cores, TopDown hidden: the counters theirs" "multiplexed\|~55%"
keys q
quit_ok "arm cores, TopDown hidden, quit"
# perf's TopdownL1 counted beside the TopDown pane (setup's count_group=): its events on
# their own read the pane's group's counters, so neither counts in turn; with the pane
# hidden (its group closed) they open counters of their own and keep their values
if [ -f "$TOP_BUILDDIR/catalogue/arm-neoverse-n2-v2.ini" ]; then
    printf 'count_group=TopdownL1\n' > "$HOME/.config/pmutop/pmutoprc"
    start 120 40 LANG=C.UTF-8
    keys End
    see "TopdownL1 beside TopDown: perf's tree" "^   retiring  *[0-9.]* %  *[0-9.]* %"
    see "TopdownL1 beside TopDown: the pane" "^ socket0  *RR*SS*FF*BB* "
    unseen "TopdownL1 beside TopDown: one counter an event, none in turn" "~\|multiplexed"
    keys q
    quit_ok "TopdownL1 beside TopDown, quit"
    printf 'count_group=TopdownL1\nhide_pane=topdown/topdown\n' > "$HOME/.config/pmutop/pmutoprc"
    start 120 40 LANG=C.UTF-8
    keys End
    see "TopdownL1, the pane hidden: counters of its own" "^   retiring  *[0-9.]* %  *[0-9.]* %"
    keys q
    quit_ok "TopdownL1, the pane hidden, quit"
else
    skip_check "TopdownL1 beside TopDown: perf's catalogue is not built"
fi
rm -f "$HOME/.config/pmutop/pmutoprc"

# -M in the monitor: the chosen metrics (and what they read) have rows, no other metric
# of the profile does (they counted nothing: their rows were all n/a)
if [ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ]; then
    sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" spr "$scratch/spr-m" 2 4 > /dev/null
    mkdir -p "$scratch/spr-m/proc"
    printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\nstepping\t: 8\n\n' > "$scratch/spr-m/proc/cpuinfo"
    PMUTOP_ARGS="--sim --sysfs-root $scratch/spr-m -M TopdownL1 -d 0.2"
    start 120 40 LANG=C.UTF-8
    see "-M TopdownL1 in the monitor: perf's level 1" "tma_backend_bound.* [0-9.]*^* %"
    unseen "-M TopdownL1 in the monitor: no metric it did not choose" "n/a: no \|tma_memory_bound"
    # b: the top level's shares as one bar of letters, each node's letter before its name
    # (level 1 in pcm's letters: F frontend, S bad speculation, B backend, R retiring);
    # each letter's run is its node's share of the four (within a character's rounding)
    keys b
    see "tree bars: the nodes lettered as pcm letters them" "^ *B tma_backend_bound "
    see "tree bars: bad speculation is pcm's S" "^ *S tma_bad_speculation "
    see "tree bars: the top level's bar" "^   B*S*F*R* *$"
    python3 - "$scratch/screen.txt" << 'PYEOF' && ok || fail "tree bars: a letter's run is not its node's share"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
bar = next(l.strip() for l in lines if re.fullmatch(r"   B+S+F+R+ *", l))
vals = {m.group(1): float(m.group(2)) for l in lines
        for m in [re.match(r" *[-+\u25be\u25b8]? *([BSFR]) tma_\w+(?: <==)? +([0-9.]+)", l)] if m}
total = sum(vals.values())
assert len(vals) == 4 and total > 0, vals
for k, v in vals.items():
    assert abs(bar.count(k) - v / total * len(bar)) <= 1.5, (k, bar.count(k), v, total, len(bar))
PYEOF
    keys b
    unseen "tree bars: b again, none" "^   B*S*F*R* *$"
    keys q
    quit_ok "-M monitor quit"
    # setup (F2) offers perf's metric groups for this CPU: choosing TopdownL1 counts it
    # from when setup closes (the same process counts again: its PID, the tree pane, the
    # header's profiles), kept in the settings file for the next start; unchoosing drops it
    # (the groups follow the panes, before the metrics: TopdownL1 is the first row saying it)
    up_to_group() { keys F2 /; text "TopdownL1"; keys Enter; }
    rm -f "$HOME/.config/pmutop/pmutoprc"
    PMUTOP_ARGS="--sim --sysfs-root $scratch/spr-m -d 0.2"
    start 120 50 LANG=C.UTF-8
    see "setup groups: the monitor without perf's catalogue" "host + core"
    unseen "setup groups: none counted at first" "perf-sapphirerapids"
    pid_before=$(pmutop_pid)
    up_to_group
    see "setup groups: perf's groups offered" "\[ \] TopdownL1"
    keys Space
    see "setup groups: chosen" "\[x\] TopdownL1"
    keys Escape
    see "setup groups: counted once setup closes" "+ perf-sapphirerapids"
    keys Home # perf's tree comes first, above the core pane
    see "setup groups: its tree" "tma_backend_bound.* %"
    expect_eq "setup groups: the same process" "$(pmutop_pid)" "$pid_before"
    kill -0 "$pid_before" 2> /dev/null && ok || fail "setup groups: the monitor is gone"
    expect_grep "setup groups: kept in the settings" "^count_group=TopdownL1$" "$HOME/.config/pmutop/pmutoprc"
    keys q
    quit_ok "setup groups quit"
    start 120 50 LANG=C.UTF-8
    see "setup groups: counted at the next start" "+ perf-sapphirerapids"
    up_to_group
    see "setup groups: shown chosen" "\[x\] TopdownL1"
    keys Space Escape
    unseen "setup groups: unchosen, not counted" "perf-sapphirerapids"
    if grep -q "count_group" "$HOME/.config/pmutop/pmutoprc"; then fail "setup groups: still in the settings"; else ok; fi
    keys q
    quit_ok "setup groups, unchosen, quit"
    # a group this CPU's catalogue lacks (a typo, or a file from another machine) is said
    # in the error view, not dropped silently; the others are counted
    printf 'count_group=TopdownL1\ncount_group=TopdownL9\n' > "$HOME/.config/pmutop/pmutoprc"
    start 120 50 LANG=C.UTF-8
    see "setup groups: the known one counted" "+ perf-sapphirerapids"
    see "setup groups: an unknown one warned of" "1 warning: press e"
    keys e
    see "setup groups: the warning names it" "count_group=TopdownL9: perf-sapphirerapids has no metric group"
    keys Escape q
    quit_ok "setup groups, unknown, quit"
    rm -f "$HOME/.config/pmutop/pmutoprc"
    # find ('/') past what is counted: perf's catalogue, by words of a description; setup
    # opens on the smallest group holding the metric, and Space counts it
    start 120 50 LANG=C.UTF-8
    keys /; text "dram bandwidth"; keys Enter
    see "find: a catalogue metric not counted" "tma_mem_bandwidth is not counted"
    see "find: the smallest group holding it" "Space counts it with perf's group tma_dram_bound_group (2 metrics)"
    keys Space Escape
    see "find: its group counted" "+ perf-sapphirerapids"
    keys /; text tma_mem_bandwidth; keys Enter
    see "find: found, counted" "found tma_mem_bandwidth in "
    keys q
    quit_ok "find in the catalogue quit"
    # counted but its row hidden (setup's Metrics shown): said so, not offered to count
    # (Space on its group would stop counting it)
    printf 'count_group=tma_dram_bound_group\nhide_metric=perf-sapphirerapids/tma_mem_bandwidth\n' > "$HOME/.config/pmutop/pmutoprc"
    start 120 50 LANG=C.UTF-8
    keys /; text tma_mem_bandwidth; keys Enter
    see "find: counted, row hidden, said" "tma_mem_bandwidth is counted, its row hidden"
    unseen "find: counted, not offered" "Space counts it"
    keys q
    quit_ok "find, counted and hidden, quit"
    rm -f "$HOME/.config/pmutop/pmutoprc"
    # perf's long names (45 characters) where a pane has no bars: each row keeps what
    # tells it from the others (l1d, l2, l3 fill; with and without core_), cut in the
    # middle only past the room before its value, "~" in ASCII
    PMUTOP_ARGS="--sim --sysfs-root $scratch/spr-m -M tma_info_memory_core_l1d_cache_fill_bw_2t,tma_info_memory_core_l2_cache_fill_bw_2t,tma_info_memory_l1d_cache_fill_bw -d 0.2"
    start 120 40 LANG=C.UTF-8
    see "a long name loses a little of its middle" " tma_inf[a-z_]*…[a-z_]*core_l1d_cache_fill_bw_2t [0-9.]"
    see "its sibling, told apart" " tma_inf[a-z_]*…[a-z_]*core_l2_cache_fill_bw_2t [0-9.]"
    see "a name that fits, whole" " tma_info_memory_l1d_cache_fill_bw  *[0-9.]"
    keys q
    quit_ok "long names quit"
    start 100 24 LANG=C
    see "two sockets in 100 columns: a long name loses its middle" " tma[a-z_]*~l1d_cache_fill_bw_2t [0-9.]"
    see "two sockets in 100 columns: its sibling too, told apart" " tma[a-z_]*~l2_cache_fill_bw_2t [0-9.]"
    see "two sockets in 100 columns: the shorter one by its end" " tma[a-z_]*~[a-z_]*l1d_cache_fill_bw [0-9.]"
    keys q
    quit_ok "long names in 100 columns quit"
    # perf's TopDown as a tree: level 1 and 2, the nodes past perf's thresholds open, the
    # bottleneck marked, Enter opens and closes a node; the values the batch output's
    PMUTOP_ARGS="--sim --sysfs-root $scratch/spr-m -M TopdownL1,TopdownL2 -d 0.2"
    for lang in C.UTF-8 C; do
        start 100 30 LANG=$lang
        see "TopDown tree ($lang): its pane" "TopDown (perf's TMA"
        # the simulated tree's header: its name, not this host's, and no CPU meter of
        # this host's /proc (the tree has none)
        see "--sim --sysfs-root: the tree named in the header" "^ pmutop  sim spr-m "
        unseen "--sim --sysfs-root: no CPU meter of this host" "^ CPU \["
        if [ $lang = C ]; then open='-' shut='+'; else open='▾' shut='▸'; fi
        see "TopDown tree ($lang): backend bound past its threshold, open" "^ $open tma_backend_bound "
        see "TopDown tree ($lang): its children under it" "^     tma_memory_bound "
        see "TopDown tree ($lang): a node not past its threshold, closed" "^ $shut tma_bad_speculation "
        see "TopDown tree ($lang): a bottleneck marked as toplev marks it" "tma_[a-z_]* <== "
        see "TopDown tree ($lang): a child's share of its parent" "tma_memory_bound .* 50% of parent"
        keys Enter # the first row: backend bound closes
        see "TopDown tree ($lang): Enter closes a node" "^ $shut tma_backend_bound "
        unseen "TopDown tree ($lang): its children gone" "tma_memory_bound"
        keys Down Enter # bad speculation opens
        see "TopDown tree ($lang): Enter opens a node" "^     tma_branch_mispredicts "
        keys '*'
        see "TopDown tree ($lang): * opens every node (backend bound, closed by Enter, too)" "^     tma_memory_bound "
        keys '*'
        unseen "TopDown tree ($lang): * again closes them" "tma_memory_bound"
        keys q
        quit_ok "TopDown tree quit ($lang)"
    done
    "$PMUTOP" --sim --sysfs-root "$scratch/spr-m" -M TopdownL1,TopdownL2 -b -n 1 --format csv > "$scratch/td.csv"
    want=$(awk -F, '$4 == "tma_backend_bound" && $5 == "all" { printf "%.1f", $6 }' "$scratch/td.csv")
    PMUTOP_ARGS="--sim --sysfs-root $scratch/spr-m -M TopdownL1,TopdownL2 -d 0.2"
    start 100 30 LANG=C.UTF-8
    see "TopDown tree: the batch output's value (tma_backend_bound, all: $want)" "tma_backend_bound  *$want^* % "
    # i on a node: what the metric is, perf's threshold, its formula's inputs this interval
    keys Down Down i
    see "metric view: the focused metric on its instance" "tma_memory_bound   on all: [0-9.]* %"
    see "metric view: perf's description" "fraction of slots the Memory subsystem"
    see "metric view: perf's threshold and its verdict here" "threshold (perf's): tma_memory_bound>0.2 && tma_backend_bound>0.2   not past it here"
    # the config is the kernel's alias (event=0x00,umask=0x87: umask at bits 8-15), as perf opens it
    see "metric view: an input, its encoding and its delta" "td.topdown_mem_bound  *cpu/topdown-mem-bound/ (config=0x8700)  [0-9.]*G"
    keys Escape
    unseen "metric view: Esc closes it" "The metric ("
    keys F1
    see "metric view: F1 on a node opens it too" "tma_memory_bound   on all: [0-9.]* %"
    keys h
    see "metric view: h there opens the keys' help" "pmutop help"
    keys Escape
    keys q
    quit_ok "metric view quit"
    # at 80x24 the view is taller than its box: End brings its last line to the box's last
    # row, no blank lines past it; Home its first again
    start 80 24 LANG=C.UTF-8
    see "80x24 tree drawn" "tma_backend_bound"
    keys Down Down i
    see "80x24 metric view opens" "│ tma_[a-z_]*   on all: [0-9.]*^* %"
    keys End
    see "80x24 metric view: End shows its last input" "│ *tma_info_thread_slots  *[0-9.]*[kMG]* *│"
    unseen "80x24 metric view: End, its first line above" "│ tma_[a-z_]*   on all:"
    screen
    if grep -B1 "└" "$scratch/screen.txt" | head -1 | grep -q "│ *[^ │]"; then ok
    else fail "80x24 metric view: after End its last line is the box's last row, no blank past it:"; cat "$scratch/screen.txt" >&2; fi
    keys Home
    see "80x24 metric view: Home, its first line again" "│ tma_[a-z_]*   on all: [0-9.]*^* %"
    keys NPage
    see "80x24 metric view: PgDn pages down" "tma_info_thread_slots"
    keys Escape q
    quit_ok "80x24 metric view quit"
    # the Sapphire Rapids demo counts perf's TopDown levels 1-3 and draws their tree
    PMUTOP_ARGS="--demo spr -d 0.2"
    start 120 40 LANG=C.UTF-8
    # setup offers the panes this machine can show: not Arm's core pane on an x86 one
    keys F2
    see "--demo spr setup: the x86 core pane offered" "core/core)"
    unseen "--demo spr setup: Arm's core pane not offered" "core/core_arm"
    keys Escape
    keys Home # perf's tree is the first pane on a machine with no uncore profile
    see "--demo spr: perf's TopDown tree" "TopDown (perf's TMA"
    # (Home again until the tree's end is on screen: the first frames' "multiplexed" lines
    # and per-CPU rows move the layout, later under ASan)
    tries=0 # (wait_for counts with i)
    while [ $tries -lt 10 ] && ! wait_for "tma_[a-z_]* <== " 1; do keys Home; tries=$((tries + 1)); done
    see "--demo spr: a bottleneck at start (before the streaming phase)" "tma_[a-z_]* <== "
    # c: the CPUs as columns beside the machine's, a page at a time; o: ordered by the
    # focused node, highest first; after the last page, the sockets again
    keys c
    see "--demo spr tree, c: the first CPUs beside the machine" "^  *all  *cpu0  *cpu1  *cpu2 "
    see "--demo spr tree, c: the pane says what c and o do" "c: more CPUs  o: sort"
    keys c
    see "--demo spr tree, c again: the next CPUs" "^  *all  *cpu[4-9]  *cpu[5-9]  *cpu[6-9]"
    keys / ; text "tma_backend_bound"; keys Enter o
    see "--demo spr tree, o: the CPUs by the focused node" "CPUs by tma_[a-z_]*, highest first"
    node=$(sed -n 's/.*CPUs by \(tma_[a-z_]*\), highest first.*/\1/p' "$scratch/screen.txt" | head -n 1)
    # (the CPUs' values come with the next refresh: none are computed while none is shown)
    see "--demo spr tree, o: $node's values per CPU" " $node  *[0-9.]*^* %  *[0-9.]*^* %  *[0-9.]*^* % "
    # that node's row: its CPU columns (after "all") from the highest down
    awk -v node="$node" '$0 ~ " " node " " { sub(/.* tma_[a-z_]* (<== )?/, ""); gsub(/\^/, ""); n = 0
            for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+$/) v[++n] = $i
            for (i = 3; i <= n; i++) if (v[i] + 0 > v[i - 1] + 0.05) bad = 1; found = n >= 3 }
         END { exit !(found && !bad) }' "$scratch/screen.txt" && ok ||
        fail "--demo spr tree, o: $node's CPU columns not highest first: $(grep " $node " "$scratch/screen.txt")"
    i=0
    while [ $i -lt 30 ] && ! grep -q "^  *all  *socket0  *socket1 *$" "$scratch/screen.txt"; do
        keys c; sleep 0.1; screen; i=$((i + 1))
    done
    see "--demo spr tree: c past the last CPUs, the sockets again" "^  *all  *socket0  *socket1 *$"
    keys q
    quit_ok "--demo spr quit"
    # the EPYC demo counts perf's Zen 4 pipeline utilisation (PipelineL1, L2) as a tree:
    # five level-1 nodes, each level-2 pair under its parent (perf has no thresholds for
    # AMD: nothing is opened or marked until asked)
    PMUTOP_ARGS="--demo epyc -d 0.2"
    start 120 40 LANG=C.UTF-8
    tab_to "TopDown (perf's pipeline utilisation" # below the uncore's panes, the demo's story
    see "--demo epyc: perf's pipeline tree" "TopDown (perf's pipeline utilisation"
    see "--demo epyc: a level-1 node, closed" "^ ▸ backend_bound  *[0-9.]*~* %"
    see "--demo epyc: SMT contention, a leaf" "^   smt_contention  *[0-9.]*~* %"
    unseen "--demo epyc: no bottleneck marked (perf has no AMD thresholds)" "<=="
    keys '*'
    see "--demo epyc: * opens the nodes: memory's share of backend bound" "^     backend_bound_memory  *[0-9.]*~* %.*% of parent"
    keys q
    quit_ok "--demo epyc quit"
    # the Tegra410 demo with perf's TopDown for its Neoverse V2 cores (-M TopdownL1, the
    # level perf's Arm JSON has): four leaves in perf's unit, "percent of slots", drawn as
    # %; no thresholds in perf's Arm JSON, so none marked
    PMUTOP_ARGS="--demo -M TopdownL1 -d 0.2"
    start 120 40 LANG=C.UTF-8
    tab_to "TopDown (perf's pipeline utilisation"
    see "Tegra410 demo: perf's TopDown tree" "TopDown (perf's pipeline utilisation"
    for node in backend_bound bad_speculation frontend_bound retiring; do
        see "Tegra410 demo: $node, a leaf, per socket and all, in %" "^   $node  *[0-9.]* %  *[0-9.]* %  *[0-9.]* % *$"
    done
    unseen "Tegra410 demo: perf's unit cut to fit ('percent of slots' as %)" "percen"
    unseen "Tegra410 demo: no bottleneck marked (perf's Arm JSON has no thresholds)" "<=="
    keys q
    quit_ok "Tegra410 demo quit"
    # at 80x24 a socket's column gives way before a node's name is cut
    PMUTOP_ARGS="--demo spr -d 0.2"
    start 80 24 LANG=C.UTF-8
    see "--demo spr at 80x24: its first frame drawn" "F10Quit"
    keys Home
    see "--demo spr at 80x24: the tree drops a socket's column (its names are not cut)" "^  *all  *socket0 *$"
    see "--demo spr at 80x24: a whole name" "tma_ports_utilization  *[0-9.]*~*^* %"
    # / with the words of a node's name: it opens, and the screen scrolls to it
    unseen "--demo spr at 80x24: DRAM bound not shown (under a closed node)" "tma_dram_bound"
    keys /; text "dram bound"; keys Enter
    see "--demo spr at 80x24: /dram bound finds it by its name's words" "found tma_dram_bound"
    see "--demo spr at 80x24: the found node on screen" "^  *tma_dram_bound  *[0-9.]*~*^* %"
    keys q
    quit_ok "--demo spr 80x24 quit"
    # a hybrid's tree (Alder Lake): each kind of core a column, the machine's first; a node
    # of the E-cores alone (Gracemont's resource bound) opened and marked by their own
    # threshold, its share of its parent from their column; the batch output's values
    sh "$TOP_SRCDIR/tests/fixtures/gen-cpu.sh" adl "$scratch/adl-m" 1 8 > /dev/null
    mkdir -p "$scratch/adl-m/proc"
    printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 151\nstepping\t: 2\n\n' > "$scratch/adl-m/proc/cpuinfo"
    "$PMUTOP" --sim --sysfs-root "$scratch/adl-m" -M TopdownL1,TopdownL2 -b -n 1 --format csv > "$scratch/adl.csv"
    want=$(awk -F, '$4 == "tma_resource_bound" && $5 == "all-ecores" { printf "%.1f", $6 }' "$scratch/adl.csv")
    PMUTOP_ARGS="--sim --sysfs-root $scratch/adl-m -M TopdownL1,TopdownL2 -d 0.2"
    start 120 40 LANG=C.UTF-8
    see "hybrid tree: a column for each kind's machine-wide sum, first" "^  *all-pcores  *all-ecores  *socket0-pcores  *socket0-ecores *$"
    see "hybrid tree: the bottleneck, one" "tma_[a-z_]* <==  *[0-9.n/]*^* %"
    see "hybrid tree: the E-cores' own node, past their threshold, with the batch's value ($want)" \
        "tma_resource_bound \(<== \)\? *n/a  *$want~*^ % .*% of parent"
    expect_eq "hybrid tree: one bottleneck marked" "$(grep -c '<==' "$scratch/screen.txt")" 1
    # its CPUs as columns (c), by number, then (o) by the focused node, highest first: the
    # E-cores (cpu4-7) lead for frontend bound, where the batch output has them higher
    fe_p=$(awk -F, '$4 == "tma_frontend_bound" && $5 == "all-pcores" { print $6 }' "$scratch/adl.csv")
    fe_e=$(awk -F, '$4 == "tma_frontend_bound" && $5 == "all-ecores" { print $6 }' "$scratch/adl.csv")
    python3 -c "import sys; sys.exit(0 if float('$fe_e') > float('$fe_p') + 1 else 1)" && ok ||
        fail "hybrid tree: the model no longer has the E-cores more frontend bound ($fe_e vs $fe_p)"
    keys c
    see "hybrid tree, c: the CPUs by number after the machine's columns" "^  *all-pcores  *all-ecores  *cpu0  *cpu1 *$"
    keys / ; text "tma_frontend_bound"; keys Enter o
    see "hybrid tree, o on frontend bound: an E-core's column first" "^  *all-pcores  *all-ecores  *cpu[4-7]  *cpu[4-7] *$"
    keys q
    quit_ok "hybrid tree quit"
    # / finds a metric by the words of perf's description, opening the nodes above it
    PMUTOP_ARGS="--sim --sysfs-root $scratch/spr-m -M TopdownL1,TopdownL2,TopdownL3 -d 0.2"
    start 120 40 LANG=C.UTF-8
    see "find by description: the tree" "tma_memory_bound"
    unseen "find by description: DRAM bound under a closed node" "tma_dram_bound"
    keys /
    text "external memory loads"
    keys Enter
    see "find by description: found" "found tma_dram_bound"
    see "find by description: its node shown" "^       tma_dram_bound "
    keys q
    quit_ok "TopDown tree values quit"
else
    skip_check "no build-tree catalogue (needs python3 and the pmu-events JSON)"
fi

# the core pane: pcm's first screen on the Sapphire Rapids demo (every fourth CPU idle 95 %
# of the time: C0 76 %, C1 2.4 %, C6 21 % over all), per socket and, with Enter, per CPU
PMUTOP_ARGS="--demo spr -d 0.2"
start 120 40 LANG=C.UTF-8
see "core pane: its title" "Cores (IPC, clock, misses, C-states, power)"
see "core pane: IPC" "IPC  *2\.4[0-9] "
see "core pane: the clock while busy (APERF/MPERF)" "Busy clock  *2\.40 GHz"
see "core pane: the clock with idle time in it" " Clock  *1\.8[0-9] GHz"
see "core pane: over the base clock" "Over base  *1\.14 "
see "core pane: C0" " C0  *76\.[0-9] %"
see "core pane: core C6" " C6  *21\.[0-9] %"
see "core pane: L1D misses a thousand instructions" "L1D MPKI  *[0-9][0-9.]*~* "
if [ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ]; then # perf's alone (tests/test_core_perf.sh: its values)
    see "core pane: L2 misses a thousand instructions, perf's" "L2 MPKI  *[0-9][0-9.]*~* "
fi
see "core pane: mispredicts a thousand instructions" "Br MPKI  *[34]\.[0-9]"
see "core pane: DRAM power" "DRAM power  *[0-9.]* W"
keys Tab Enter NPage # (its CPUs below perf's tree, which comes first)
see "core pane: Enter shows each CPU (an idle one: C6 85.5 %)" " C6  *85\.5 %"
if [ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ]; then
    # i says which definition a figure has: perf's, with perf's formula and events
    keys /
    text "L2 MPKI"
    keys Enter i
    see "core pane, i: the definition is perf's" "defined here as perf's tma_info_memory_l2mpki (perf-sapphirerapids)"
    see "core pane, i: perf's formula and its events" "MEM_LOAD_RETIRED.L2_MISS  *cpu/event=0xd1,umask=0x10/"
    keys Escape
fi
keys q
quit_ok "core pane quit"
# ... in ASCII, monochrome, at 80x24
start 80 24 LANG=C NO_COLOR=1
keys Tab
see "core pane (ASCII, 80x24): IPC" "IPC  *2\.4[0-9] "
see "core pane (ASCII, 80x24): C0" " C0  *76\.[0-9] %"
keys q
quit_ok "core pane ASCII quit"
# ... and on a machine without a core PMU (a VM's: software events, a TSC and RAPL's psys
# alone), it says why it is empty instead of rows of n/a
mkdir -p "$scratch/vm/sys/bus/event_source/devices"
cp -r "$TOP_SRCDIR/profiles/machines/spr/sys/devices" "$scratch/vm/sys/"
cp -r "$TOP_SRCDIR/profiles/machines/spr/sys/bus/event_source/devices/software" \
    "$TOP_SRCDIR/profiles/machines/spr/sys/bus/event_source/devices/msr" "$scratch/vm/sys/bus/event_source/devices/"
rm "$scratch/vm/sys/bus/event_source/devices/msr/events/aperf" "$scratch/vm/sys/bus/event_source/devices/msr/events/mperf"
PMUTOP_ARGS="--sim --sysfs-root $scratch/vm -d 0.2"
start 100 30 LANG=C.UTF-8
see "core pane without a core PMU: why" "no x86 core PMU here (a VM without a virtual PMU?"
unseen "core pane without a core PMU: no rows of n/a" " IPC "
keys q
quit_ok "core pane VM quit"

# a value past its MetricThreshold, in any pane: marked '^' (monochrome) and red, as perf
# colours it; one within its threshold is not
cat > "$scratch/thr.ini" <<'EOF2'
[profile]
name = thr
[group ucf]
pmu = nvidia_ucf_pmu_{socket}
events = slc_access_rd
[metric ucf.busy]
title = Past its threshold
formula = slc_access_rd / elapsed_s
threshold = ucf.busy > 1
[metric ucf.calm]
title = Within its threshold
formula = slc_access_rd / elapsed_s
threshold = ucf.calm < 1
[pane thr]
title = Thresholds
style = values
metrics = ucf.busy ucf.calm
EOF2
PMUTOP_ARGS="--demo -P $scratch/thr.ini -d 0.2"
start 100 30 LANG=C NO_COLOR=1
see "threshold: a value past it marked" "Past its threshold  *[0-9.]*G^"
see "threshold: a value within it not marked" "Within its threshold  *[0-9.]*G  "
keys q
quit_ok "threshold mono quit"
start 100 30 LANG=C.UTF-8 TERM=xterm-256color
see "threshold (colour): drawn" "Past its threshold  *[0-9.]*G^"
T capture-pane -e -p -t 0 > "$scratch/colour.txt"
grep "Past its threshold" "$scratch/colour.txt" | grep -q "$(printf '\033')\[[0-9;]*31m *[0-9.]*G^" && ok ||
    fail "threshold (colour): the value past it is not red: $(grep 'Past its threshold' "$scratch/colour.txt" | od -c | head -n 3)"
keys q
quit_ok "threshold colour quit"

# one bottleneck, as toplev marks it: from level 1 down, the largest share among the nodes
# past their thresholds, to the deepest such node (three were marked: core bound, DRAM
# bound, few-uops instructions); every node open (*), at a height that shows them all
PMUTOP_ARGS="--demo spr -d 0.2"
start 150 200 LANG=C NO_COLOR=1
keys End
see "--demo spr: perf's tree" "TopDown (perf's TMA"
keys '*'
see "--demo spr, every node open: level 3 shown" " tma_mite "
# (the nodes just opened count from now: their first values, and the mark, a frame later)
see "--demo spr, every node open: a bottleneck marked" " <== "
screen
python3 - "$scratch/screen.txt" << 'PYEOF' && ok || fail "--demo spr: not toplev's one bottleneck"
import re, sys
rows = []  # (depth, name, share on the machine, past its threshold, marked)
for l in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    m = re.match(r"^ ( *)[-+ ] (tma_\w+)( <==)? +([0-9.]+)~?(\^?) %", l)
    if m:
        rows.append((len(m.group(1)) // 2, m.group(2), float(m.group(4)), m.group(5) == "^", bool(m.group(3))))
marked = [r[1] for r in rows if r[4]]
assert len(marked) == 1, ("marked", marked)
want, at = None, -1  # the path: the largest past its threshold among each node's children,
while True:        # below level 1 not within 5 % of the slots of the next (toplev's find_bn)
    depth = rows[at][0] + 1 if at >= 0 else 0
    kids, k = [], at + 1
    while k < len(rows) and (at < 0 or rows[k][0] >= depth):
        if rows[k][0] == depth and rows[k][3]:
            kids.append(k)
        k += 1
    kids.sort(key=lambda i: -rows[i][2])
    if not kids or (at >= 0 and len(kids) > 1 and rows[kids[0]][2] - rows[kids[1]][2] <= 5):
        break
    at = kids[0]
    want = rows[at][1]
assert marked == [want], (marked, want)
PYEOF
keys q
quit_ok "one bottleneck quit"

# a terminal that cannot move the cursor is refused before anything is drawn
PMUTOP_ARGS="--demo"
start 80 24 LANG=C.UTF-8 TERM=dumb
see "TERM=dumb refused" "the terminal (TERM=dumb) is unknown or cannot move the cursor; use -b"
see "TERM=dumb exit status" "EXITED=1"

# too small from the start
PMUTOP_ARGS="--demo"
start 40 10 LANG=C.UTF-8
see "too small at start" "terminal too small"
keys q
quit_ok "small quit"

# at 80 columns a message too long for its line drops a clause, never cuts a word ("(w
# stops; pmutop -r pmutop-20261128-" was cut there)
mkdir -p "$scratch/m80" && cd "$scratch/m80"
PMUTOP_ARGS="--demo hip09 -d 0.2"
start 80 24 LANG=C.UTF-8
see "80 columns: live" "NIC packet rates"
keys w
see "80 columns: the recording message whole, its hint's first clause" "^ recording to pmutop-[0-9]\{8\}-[0-9]\{6\}\.pmrec (w stops) *$"
unseen "80 columns: no word cut at the edge" "pmutop -r pmutop-"
keys w
see "80 columns: stopped" "recording stopped"
keys q
quit_ok "80 columns message quit"
cd "$scratch"

# keys whatever TERM says: from another terminal (ssh) or tmux with TERM=xterm-256color,
# End arrives as ESC [ 4 ~ (sent raw here, as bytes): End, not Esc and three keys (which
# closed setup, and in a replay set the speed to 0.5x); a sequence nobody knows is said
# and ignored whole
PMUTOP_ARGS="--demo -d 0.2"
start 100 30 LANG=C.UTF-8 TERM=xterm-256color
see "keys: the monitor" "UCF bandwidth"
keys F2
see "keys: setup open" "Setup (Left/Right/Space change"
T send-keys -t 0 -H 1b 5b 34 7e
# (the last rows are metrics': perf's groups come before them, the settings first)
see "keys: ESC [ 4 ~ is End: setup at its last rows" "\[x\] .* (.*)"
unseen "keys: ... past the settings" "Colour  "
unseen "keys: ... past perf's groups" "perf's metric groups counted"
see "keys: ... and setup still open" "Setup (Left/Right/Space change"
unseen "keys: ... setup not closed by its Esc" "settings saved"
# (literal characters: tmux itself drops a key sequence it does not know)
T send-keys -t 0 -l "$(printf '\033[99~')"
see "keys: an unknown sequence not acted on: setup still open" "Setup (Left/Right/Space change"
T send-keys -t 0 -H 1b 5b 35 7e 1b 5b 36 7e
see "keys: ESC [ 5 ~ and ESC [ 6 ~ page setup" "Setup (Left/Right/Space change"
keys Escape
see "keys: Esc alone still closes setup" "settings saved"
T send-keys -t 0 -l "$(printf '\033[99~')"
see "keys: an unknown sequence said on the message line" "is not known (TERM=xterm-256color?): ignored"
keys q
quit_ok "keys quit"

# setup finds a row by what it says: / and letters (perf's metric groups come after
# hundreds of metrics), Enter ends the find and Space toggles the row found; Esc during a
# find ends the find, not setup
rm -f "$HOME/.config/pmutop/pmutoprc"
PMUTOP_ARGS="--demo spr -d 0.2"
start 100 30 LANG=C.UTF-8
see "setup find: the monitor" "TopDown (perf's TMA"
# perf's groups come before the hundreds of metrics: TopdownL4 is a few pages down (22
# rows a page at 30 lines; 14 rows of settings and panes above the groups)
n=$("$PMUTOP" list metricgroups --demo spr | grep -n "^TopdownL4 " | cut -d: -f1)
keys F2
i=0
while [ "$i" -le $(((14 + ${n:-0}) / 22)) ]; do keys NPage; i=$((i + 1)); done
see "setup: perf's groups before the metrics, TopdownL4 a few pages down" "\[ \] TopdownL4 "
keys Home
see "setup: Home at the first row" "Colour  "
keys /
text "nosuchrow"
see "setup find: the query in the title" "Setup: find nosuchrow_"
keys Escape
see "setup find: Esc ends the find, setup stays" "Setup (Left/Right/Space change, / find"
keys /
text "TopdownL4"
see "setup find: the group found, far down the list" "\[ \] TopdownL4 "
keys Enter Space
see "setup find: Space toggles the row found" "\[x\] TopdownL4 "
keys q
unseen "setup find: q closes setup after the find (counting starts again)" "Setup (Left/Right"
grep -q "^count_group=TopdownL4$" "$HOME/.config/pmutop/pmutoprc" 2> /dev/null && ok ||
    fail "setup find: the group chosen is kept (count_group=TopdownL4)"
keys q
quit_ok "setup find quit"
rm -f "$HOME/.config/pmutop/pmutoprc"

finish
