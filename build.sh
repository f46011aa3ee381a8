#!/bin/sh
# One entry point for the README's quick start, on a fresh Debian 12 machine (as root).
#   ./build.sh            install what is missing, configure once, build ./pmutop
#   ./build.sh check      ... and run the whole test suite (make check)
#   ./build.sh asan       ... the test suite again, built with ASan+UBSan in build-asan/
#   ./build.sh bench      ... and make bench
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -eu
cd "$(dirname "$0")"

PKGS="gcc make autoconf automake pkg-config xz-utils libinih-dev check libncurses-dev
      libsensors-dev linux-source-6.12 tmux linux-perf util-linux"
[ "${1:-}" = bench ] && PKGS="$PKGS valgrind"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "build.sh: installing$missing" >&2
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ -x configure ] && [ configure -nt configure.ac ] || ./bootstrap >/dev/null 2>&1 || ./bootstrap
[ -f Makefile ] || ./configure --quiet
jobs=$(nproc 2>/dev/null || echo 2)
make -s -j"$jobs"

case "${1:-}" in
"") ;;
check) make -s -j"$jobs" check || { cat tests/*.log 2>/dev/null | tail -n 80; exit 1; } ;;
asan)
    mkdir -p build-asan
    cd build-asan
    [ -f Makefile ] || PKG_CONFIG_PATH="$(cd .. && pwd)/libperf-local/lib/pkgconfig" ../configure --quiet \
        CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
        LDFLAGS="-fsanitize=address,undefined"
    make -s -j"$jobs"
    ASAN_OPTIONS=detect_leaks=1 make -s -j"$jobs" check || { cat tests/*.log 2>/dev/null | tail -n 80; exit 1; } ;;
bench) make -s bench ;;
*) echo "usage: ./build.sh [check|asan|bench]" >&2; exit 2 ;;
esac
