#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# debian.sh DEB... - the Debian packages ./build.sh deb made: lintian finds no error or
# warning (its info and pedantic tags are printed; debian/*lintian-overrides says why the
# remaining ones stay), and the package for this machine's architecture installs, runs
# from its installed paths (a demo in batch, perf's catalogue, a recording replayed,
# serve scraped), leaves its services disabled, and purges leaving nothing behind.
# Another architecture's package (arm64 on amd64): its files are this one's, and where dpkg
# takes that architecture (dpkg --add-architecture) it installs the same way, apt bringing
# its libraries for that architecture, and its installed binary runs the same checks under
# qemu-aarch64. Prints 'N passed, N failed'.
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

# install DEB: dpkg, or apt where the package's architecture is not this machine's (its
# libraries for that architecture come from the archive, as a user's apt would bring them)
install_package() { # DEB
    if dpkg -s pmutop > /dev/null 2>&1; then
        echo "SKIP: pmutop is installed here already: not installing $(basename "$1") over it"
        return 1
    fi
    case $1 in
    *_"$native".deb) dpkg -i "$1" > "$scratch/install" 2>&1 ;;
    *) DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$1" > "$scratch/install" 2>&1 ;;
    esac && { installed=yes; ok; return 0; }
    installed=yes # half-installed: purged by cleanup
    fail "installing $(basename "$1"): $(tail -c 400 "$scratch/install")"
    return 1
}

# the installed package, run from its installed paths (RUN: empty, or the emulator)
installed_package() { # DEB [RUN]
    deb=$1 run=${2:-} what="installed $(basename "$1")"
    files_of "$deb" > "$scratch/files"
    install_package "$deb" || return
    mkdir -p "$scratch/$(basename "$deb")" && cd "$scratch/$(basename "$deb")" || return
    env -u PMUTOP_PROFILE_PATH -u PMUTOP_CATALOGUE_PATH -u PMUTOP_MACHINE_PATH \
        $run /usr/bin/pmutop --demo -b -n 2 --fake-clock --format csv > demo.csv 2>&1
    expect_grep "$what: the demo, from /usr/share/pmutop" ",tegra410,ucf.slc_read_bw,socket0," demo.csv
    $run /usr/bin/pmutop --demo=spr -M TopdownL1 -b -n 1 --fake-clock --format csv > cat.csv 2>&1
    expect_grep "$what: perf's catalogue" ",perf-sapphirerapids,tma_retiring," cat.csv
    $run /usr/bin/pmutop --demo -b -n 3 --fake-clock -w r.db -o /dev/null > rec 2>&1 && ok ||
        fail "$what: record: $(head -c 300 rec)"
    $run /usr/bin/pmutop -r r.db -b --format csv > replay.csv 2>&1
    expect_grep "$what: replay" ",ucf.slc_read_bw,socket0," replay.csv
    port=$((20000 + $$ % 20000))
    $run /usr/bin/pmutop serve --demo --listen "127.0.0.1:$port" > serve 2>&1 &
    started="$started $!"
    i=0
    while [ $i -lt 100 ] && ! curl -sf "http://127.0.0.1:$port/metrics" > metrics 2> /dev/null; do
        sleep 0.2; i=$((i + 1))
    done
    expect_grep "$what: serve's /metrics" "^pmutop_" metrics
    kill $started 2> /dev/null && wait $started 2> /dev/null
    started=""
    man -w pmutop > man.txt 2>&1
    expect_grep "$what: pmutop(1)" "/usr/share/man/man1/pmutop.1" man.txt
    for u in pmutop-record pmutop-exporter; do
        [ -f "/lib/systemd/system/$u.service" ] && ok || fail "$what: $u.service"
        if command -v systemctl > /dev/null && [ -d /run/systemd/system ]; then
            [ "$(systemctl is-enabled "$u" 2> /dev/null)" != enabled ] && ok || fail "$u enabled on install"
        fi
    done
    dpkg --purge pmutop > purge 2>&1 && { installed=no; ok; } || fail "dpkg --purge: $(tail -c 300 purge)"
    left=""
    while read -r f; do [ -e "$f" ] && left="$left $f"; done < "$scratch/files"
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
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        echo "SKIP: dpkg here does not take arm64 packages (dpkg --add-architecture arm64)"
        return
    fi
    installed_package "$1" qemu-aarch64
}

debs=""
for d in "$@"; do debs="$debs $(cd "$(dirname "$d")" && pwd)/$(basename "$d")"; done
nat=""
for d in $debs; do case $d in *_"$native".deb) nat=$d ;; esac; done
for d in $debs; do
    lint "$d"
    case $d in
    *_"$native".deb) installed_package "$d" ;;
    *_arm64.deb) [ -n "$nat" ] && foreign_package "$d" "$nat" ;;
    esac
done
finish
