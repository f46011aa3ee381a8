#!/bin/sh
# debian.sh DEB... - the Debian packages ./build.sh deb made: lintian finds no error or
# warning (its info and pedantic tags are printed; debian/*lintian-overrides says why the
# remaining ones stay), and the package for this machine's architecture installs, runs
# from its installed paths (a demo in batch, perf's catalogue, a recording replayed,
# serve scraped), leaves its services disabled, and purges leaving nothing behind.
# Another architecture's package: its files are this one's, its binary runs under qemu.
# Prints 'N passed, N failed'.
. "$(dirname "$0")/lib.sh" # ok, fail, expect_grep, finish; $scratch (our cleanup removes it)
started=""
installed=no
cleanup() {
    for p in $started; do kill "$p" 2> /dev/null; done
    [ $installed = yes ] && dpkg --purge pmutop > /dev/null 2>&1
    rm -rf "$scratch"
}
trap cleanup EXIT
native=$(dpkg --print-architecture)

files_of() { dpkg -c "$1" | awk '{ print $6 }' | sed 's|^\./|/|' | grep -v '/$' | sort; }

lint() { # DEB
    lintian --fail-on error,warning -I --pedantic "$1" > "$scratch/lintian" 2>&1
    status=$?
    grep -v "running with root privileges" "$scratch/lintian" | sed "s|^|  lintian $(basename "$1"): |"
    [ $status -eq 0 ] && ok || fail "lintian $(basename "$1"): errors or warnings (above)"
}

native_package() { # DEB
    files_of "$1" > "$scratch/files"
    if dpkg -s pmutop > /dev/null 2>&1; then
        echo "SKIP: pmutop is installed here already: not installing $(basename "$1") over it"
        return
    fi
    dpkg -i "$1" > "$scratch/install" 2>&1 && { installed=yes; ok; } ||
        { fail "dpkg -i $(basename "$1"): $(tail -c 400 "$scratch/install")"; return; }
    cd "$scratch" || return
    env -u PMUTOP_PROFILE_PATH -u PMUTOP_CATALOGUE_PATH -u PMUTOP_MACHINE_PATH \
        /usr/bin/pmutop --demo -b -n 2 --fake-clock --format csv > demo.csv 2>&1
    expect_grep "installed: the demo, from /usr/share/pmutop" ",tegra410,ucf.slc_read_bw,socket0," demo.csv
    /usr/bin/pmutop --demo=spr -M TopdownL1 -b -n 1 --fake-clock --format csv > cat.csv 2>&1
    expect_grep "installed: perf's catalogue" ",perf-sapphirerapids,tma_retiring," cat.csv
    /usr/bin/pmutop --demo -b -n 3 --fake-clock -w r.db -o /dev/null > rec 2>&1 && ok ||
        fail "installed: record: $(head -c 300 rec)"
    /usr/bin/pmutop -r r.db -b --format csv > replay.csv 2>&1
    expect_grep "installed: replay" ",ucf.slc_read_bw,socket0," replay.csv
    port=$((20000 + $$ % 20000))
    /usr/bin/pmutop serve --demo --listen "127.0.0.1:$port" > serve 2>&1 &
    started="$started $!"
    i=0
    while [ $i -lt 50 ] && ! curl -sf "http://127.0.0.1:$port/metrics" > metrics 2> /dev/null; do
        sleep 0.2; i=$((i + 1))
    done
    expect_grep "installed: serve's /metrics" "^pmutop_" metrics
    kill $started 2> /dev/null && wait $started 2> /dev/null
    started=""
    man -w pmutop > man.txt 2>&1
    expect_grep "installed: pmutop(1)" "/usr/share/man/man1/pmutop.1" man.txt
    for u in pmutop-record pmutop-exporter; do
        [ -f "/lib/systemd/system/$u.service" ] && ok || fail "installed: $u.service"
        if command -v systemctl > /dev/null && [ -d /run/systemd/system ]; then
            [ "$(systemctl is-enabled "$u" 2> /dev/null)" != enabled ] && ok || fail "$u enabled on install"
        fi
    done
    dpkg --purge pmutop > purge 2>&1 && { installed=no; ok; } || fail "dpkg --purge: $(tail -c 300 purge)"
    left=""
    while read -r f; do [ -e "$f" ] && left="$left $f"; done < files
    [ -z "$left" ] && ok || fail "purge left:$left"
    [ ! -e /usr/share/pmutop ] && [ ! -e /etc/default/pmutop-record ] && ok || fail "purge left /usr/share/pmutop or /etc/default"
    dpkg -s pmutop > /dev/null 2>&1 && fail "still known to dpkg after purge" || ok
}

foreign_package() { # DEB NATIVE_DEB
    files_of "$1" > "$scratch/foreign"
    files_of "$2" > "$scratch/native-files"
    diff "$scratch/native-files" "$scratch/foreign" > "$scratch/fdiff" && ok ||
        fail "$(basename "$1"): not the files of $(basename "$2"): $(head -c 300 "$scratch/fdiff")"
    command -v qemu-aarch64 > /dev/null || { echo "SKIP: no qemu-aarch64 for $(basename "$1")"; return; }
    mkdir -p "$scratch/f" && dpkg -x "$1" "$scratch/f"
    PMUTOP_PROFILE_PATH="$scratch/f/usr/share/pmutop/profiles" PMUTOP_MACHINE_PATH="$scratch/f/usr/share/pmutop/machines" \
        qemu-aarch64 "$scratch/f/usr/bin/pmutop" --demo -b -n 2 --fake-clock --format csv > "$scratch/f.csv" 2>&1
    expect_grep "$(basename "$1"): its binary runs the demo (qemu)" ",tegra410,ucf.slc_read_bw,socket0," "$scratch/f.csv"
}

debs=""
for d in "$@"; do debs="$debs $(cd "$(dirname "$d")" && pwd)/$(basename "$d")"; done
nat=""
for d in $debs; do case $d in *_"$native".deb) nat=$d ;; esac; done
for d in $debs; do
    lint "$d"
    case $d in
    *_"$native".deb) native_package "$d" ;;
    *_arm64.deb) [ -n "$nat" ] && foreign_package "$d" "$nat" ;;
    esac
done
finish
