#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# static.sh TARBALL... - the static builds (tools/build-static.sh) where no library is:
# amd64 in an empty root (only the unpacked tarball, /proc, /sys and /dev bound: chroot
# in a private mount namespace), arm64 under qemu-aarch64 with no sysroot. Each runs a
# demo in batch, lists its machines, records and replays, serves /metrics (amd64: to a
# curl outside the root) and draws the monitor in tmux from the terminfo it carries.
# Prints 'N passed, N failed'; a check that cannot run here says SKIP.
. "$(dirname "$0")/lib.sh" # ok, fail, expect_grep, finish; $scratch (our cleanup removes it)
started=""
cleanup() {
    for p in $started; do kill "$p" 2> /dev/null; done
    [ -n "${sock:-}" ] && tmux -L "$sock" kill-server 2> /dev/null
    umount -R "$scratch/root/proc" "$scratch/root/sys" "$scratch/root/dev" 2> /dev/null
    rm -rf "$scratch"
}
trap cleanup EXIT

# run_in ROOT CMD...: the command inside ROOT, nothing of this machine's filesystem but
# /proc, /sys and /dev
run_in() {
    r=$1; shift
    unshare -m --propagation private sh -c 'r=$1; shift
        for d in proc sys dev; do mount --rbind "/$d" "$r/$d"; done
        exec chroot "$r" "$@"' sh "$r" "$@"
}

# spawn_in ROOT CMD... &: the same in the background, the subshell replaced by it (exec
# all the way down), so that $! is the command itself and the cleanup ends it by PID:
# a subshell's PID would be killed and leave the command running
spawn_in() {
    r=$1; shift
    exec unshare -m --propagation private sh -c 'r=$1; shift
        for d in proc sys dev; do mount --rbind "/$d" "$r/$d"; done
        exec chroot "$r" "$@"' sh "$r" "$@"
}

amd64() { # TARBALL
    root=$scratch/root
    mkdir -p "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/opt"
    tar -C "$root/opt" -xzf "$1"
    bin=/opt/$(basename "$1" .tar.gz)/bin/pmutop
    if ! run_in "$root" "$bin" --version > "$scratch/v" 2>&1; then
        if grep -q "unshare\|chroot\|mount" "$scratch/v"; then
            echo "SKIP: no private mount namespace or chroot here: $(head -c 200 "$scratch/v")"
            return
        fi
        fail "amd64: --version in an empty root: $(head -c 300 "$scratch/v")"
        return
    fi
    ok
    ls "$root" | sort | tr '\n' ' ' > "$scratch/ls"
    expect_grep "amd64: the root holds nothing else" "^dev opt proc sys tmp $" "$scratch/ls"
    run_in "$root" "$bin" --demo -b -n 2 --fake-clock --format csv > "$scratch/demo.csv" 2>&1
    expect_grep "amd64: the demo's metrics, its profiles beside the binary" ",tegra410,ucf.slc_read_bw,socket0," "$scratch/demo.csv"
    run_in "$root" "$bin" list machines > "$scratch/machines" 2>&1
    expect_grep "amd64: the demo machines beside the binary" "^spr$" "$scratch/machines"
    run_in "$root" "$bin" --demo=spr -M TopdownL1 -b -n 1 --fake-clock --format csv > "$scratch/cat.csv" 2>&1
    expect_grep "amd64: perf's catalogue beside the binary" ",perf-sapphirerapids,tma_retiring," "$scratch/cat.csv"
    run_in "$root" "$bin" --demo -b -n 3 --fake-clock -w /tmp/r.db -o /dev/null > "$scratch/rec" 2>&1 && ok ||
        fail "amd64: record (SQLite, zstd linked in): $(head -c 300 "$scratch/rec")"
    run_in "$root" "$bin" -r /tmp/r.db -b --format csv > "$scratch/replay.csv" 2>&1
    expect_grep "amd64: replay" ",ucf.slc_read_bw,socket0," "$scratch/replay.csv"
    # the exporter (libmicrohttpd linked in, no TLS), scraped from outside the root
    port=$((20000 + $$ % 20000))
    spawn_in "$root" "$bin" serve --demo --listen "127.0.0.1:$port" > "$scratch/serve" 2>&1 &
    serve_pid=$!
    started="$started $serve_pid"
    i=0
    while [ $i -lt 50 ] && ! curl -sf "http://127.0.0.1:$port/metrics" > "$scratch/metrics" 2> /dev/null; do
        sleep 0.2; i=$((i + 1))
    done
    expect_grep "amd64: serve's /metrics" "^pmutop_" "$scratch/metrics"
    kill "$serve_pid" 2> /dev/null && wait "$serve_pid" 2> /dev/null
    started=""
    pgrep -f "serve --demo --listen 127.0.0.1:$port" > /dev/null && fail "amd64: serve outlived its kill by PID" || ok
    # the monitor in a terminal whose description only the tarball has
    if command -v tmux > /dev/null; then
        sock=pmutop-static-$$
        tmux -L "$sock" new-session -d -x 100 -y 30 "env TERM=xterm-256color LANG=C.UTF-8 unshare -m --propagation private sh -c 'for d in proc sys dev; do mount --rbind /\$d $root/\$d; done; exec chroot $root $bin --demo'; sleep 30"
        i=0
        while [ $i -lt 50 ]; do
            tmux -L "$sock" capture-pane -p > "$scratch/screen" 2> /dev/null
            grep -q "F1Help" "$scratch/screen" && break
            sleep 0.2; i=$((i + 1))
        done
        expect_grep "amd64: the monitor draws from the tarball's terminfo" "F1Help" "$scratch/screen"
        tmux -L "$sock" kill-server 2> /dev/null
    else
        echo "SKIP: no tmux for the monitor check"
    fi
}

arm64() { # TARBALL
    command -v qemu-aarch64 > /dev/null || { echo "SKIP: no qemu-aarch64 for the arm64 static build"; return; }
    mkdir -p "$scratch/a64"
    tar -C "$scratch/a64" -xzf "$1"
    bin=$scratch/a64/$(basename "$1" .tar.gz)/bin/pmutop
    # no sysroot: qemu finds no loader and no library, which a static binary needs not
    qemu-aarch64 -L "$scratch/nothing" "$bin" --demo -b -n 2 --fake-clock --format csv > "$scratch/a64.csv" 2>&1
    expect_grep "arm64: the demo with no library" ",tegra410,ucf.slc_read_bw,socket0," "$scratch/a64.csv"
    qemu-aarch64 -L "$scratch/nothing" "$bin" --demo -b -n 3 --fake-clock -w "$scratch/a64.db" -o /dev/null > "$scratch/a64rec" 2>&1 && ok ||
        fail "arm64: record: $(head -c 300 "$scratch/a64rec")"
    qemu-aarch64 -L "$scratch/nothing" "$bin" -r "$scratch/a64.db" -b --format csv > "$scratch/a64replay.csv" 2>&1
    expect_grep "arm64: replay" ",ucf.slc_read_bw,socket0," "$scratch/a64replay.csv"
}

for t in "$@"; do
    case $t in
    *-static-amd64.tar.gz) amd64 "$t" ;;
    *-static-arm64.tar.gz) arm64 "$t" ;;
    *) fail "not a static tarball: $t" ;;
    esac
done
finish
