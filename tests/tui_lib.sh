# SPDX-License-Identifier: GPL-2.0-only
# tui_lib.sh - the monitor driven as a person would: pmutop in tmux (a server of its own
# per start), keys sent, the screen read with a deadline. Sourced after lib.sh by the
# tests that watch the monitor (test_tui.sh, test_readme.sh).
command -v tmux > /dev/null || skip "tmux is not installed"
sock="pmutop-test-$$"
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$scratch"' EXIT
export HOME="$scratch/home"
mkdir -p "$HOME"
unset XDG_CONFIG_HOME

# start W H ENV... : pmutop in a shell that reports its exit status and the tty state
start() {
    w=$1 h=$2
    shift 2
    T kill-server 2> /dev/null
    while T has-session 2> /dev/null; do sleep 0.1; done
    # a server of its own each time: a new session must not reach the old server while
    # it is still going away (under ASan that race lost a whole section once)
    starts=$((${starts:-0} + 1))
    sock="pmutop-test-$$-$starts"
    rm -f "$scratch/pid"
    # (the wrapper survives Ctrl-\ as an interactive shell does: not in the foreground job)
    T new-session -d -x "$w" -y "$h" "env $* sh -c 'trap : QUIT; sh \"$scratch/launch.sh\" $PMUTOP_ARGS; echo EXITED=\$?; stty -a | tr \" ;\" \"\\n\\n\" | grep -x -e icanon -e -icanon -e echo -e -echo; exec sleep 60'"
}
# pmutop records its own PID (exec keeps it), so a test signals exactly what it started
cat > "$scratch/launch.sh" <<EOF
echo \$\$ > "$scratch/pid"
exec "$PMUTOP" "\$@"
EOF
pmutop_pid() { cat "$scratch/pid" 2> /dev/null; }
screen() { T capture-pane -p -t 0 > "$scratch/screen.txt" 2> /dev/null; }
wait_for() { # PATTERN [SECONDS]
    n=$(( ${2:-6} * 10 )); i=0
    while [ $i -lt $n ]; do
        screen
        grep -q -- "$1" "$scratch/screen.txt" && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
wait_gone() { # PATTERN [SECONDS]
    n=$(( ${2:-6} * 10 )); i=0
    while [ $i -lt $n ]; do
        screen
        grep -q -- "$1" "$scratch/screen.txt" || return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
see() { if wait_for "$2" "${3:-6}"; then ok; else fail "$1: no '$2' on screen:"; cat "$scratch/screen.txt" >&2; fi; }
unseen() { if wait_gone "$2" "${3:-6}"; then ok; else fail "$1: '$2' still on screen"; fi; }
# one key at a time, a pause after Escape: ncurses would read ESC followed at once by an
# escape sequence as one unknown sequence (no person types that fast)
# sort_by COLUMN: > until the view's title says it sorts by COLUMN (the columns a view
# shows, and so how many presses that takes, follow what the machine counts)
sort_by() {
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
        keys '>'
        wait_for "sort $1" 1 && return 0
    done
    return 1
}
keys() {
    for k; do
        T send-keys -t 0 "$k"
        [ "$k" = Escape ] && sleep 0.1
    done
}
text() { T send-keys -t 0 -l -- "$1"; }
tab_to() { # PATTERN: Tab from pane to pane until PATTERN shows (at most a dozen panes)
    tt=0
    while [ $tt -lt 12 ] && ! wait_for "$1" 1; do keys Tab; tt=$((tt + 1)); done
}
quit_ok() { # the program quit and left the terminal as it found it
    see "$1: exit status" "EXITED=0"
    see "$1: canonical mode restored" "^icanon$"
    see "$1: echo restored" "^echo$"
}

