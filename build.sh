#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One entry point for the README's quick start, on a fresh Debian 12 machine (as root).
#   ./build.sh            install what is missing, configure once, build ./pmutop
#   ./build.sh check      ... and run the whole test suite (make check)
#   ./build.sh asan       ... the test suite again, built with ASan+UBSan in build-asan/
#   ./build.sh tsan       ... the threaded parts' tests, built with ThreadSanitizer in build-tsan/
#   ./build.sh bench      ... and make bench
#   ./build.sh fuzz [S]   ... and the libFuzzer targets, S seconds each (default 15)
#   ./build.sh valgrind   ... the test suite under valgrind memcheck (no error, no leak)
#   ./build.sh soak       ... an hour of the demo recording, scraped and filtered (make soak)
#   ./build.sh arm64      ... and an arm64 build (Debian's cross toolchain) in build-arm64/,
#                         its tests under qemu-user against this build (tests/arm64.sh)
#   ./build.sh deb [ARCH...]     ... the Debian packages (this machine's architecture and
#                         arm64 unless named) in build-deb/, lintian, then each
#                         installed, run (arm64's under qemu) and purged (tests/debian.sh)
#   ./build.sh static [ARCH...]  ... one file to copy: dist/pmutop-*-static-ARCH.tar.gz,
#                         pmutop linked statically (amd64 and arm64 unless named), each run
#                         where no library is (tests/static.sh: an empty root, qemu-aarch64)
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -eu
cd "$(dirname "$0")"

PKGS="gcc make autoconf automake pkg-config xz-utils libinih-dev check libncurses-dev
      libsensors-dev libsqlite3-dev libzstd-dev libmicrohttpd-dev linux-source-6.12 tmux linux-perf
      util-linux procps python3"
# the tests' real parts: the sqlite3 tool, a Prometheus server and promtool, curl; strace;
# zstd (to craft a hostile recording); universal-ctags (the layout check measures functions)
case ${1:-} in check|asan|tsan|valgrind|soak) PKGS="$PKGS sqlite3 prometheus curl strace zstd universal-ctags man-db groff-base" ;; esac
case ${1:-} in bench|valgrind) PKGS="$PKGS valgrind" ;; esac
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang libclang-rt-14-dev"
[ "${1:-}" = static ] && PKGS="$PKGS zlib1g-dev curl" # SQLite's static library needs zlib's
[ "${1:-}" = deb ] && PKGS="$PKGS debhelper dpkg-dev lintian man-db curl"
static_arm64=no # (static and deb: for arm64 too unless ARCHs are named without it)
case ${1:-} in static|deb) { [ $# -lt 2 ] || echo "$*" | grep -qw arm64; } && static_arm64=yes ;; esac
if [ "${1:-}" = arm64 ] || [ $static_arm64 = yes ]; then # the cross toolchain, the libraries for arm64, qemu to run them
    dpkg --print-foreign-architectures | grep -qx arm64 || { [ "$(id -u)" = 0 ] && dpkg --add-architecture arm64 ||
        sudo dpkg --add-architecture arm64; }
    PKGS="$PKGS tmux crossbuild-essential-arm64 qemu-user libncurses-dev:arm64 libsensors-dev:arm64
          libsqlite3-dev:arm64 libzstd-dev:arm64 libmicrohttpd-dev:arm64 libinih-dev:arm64 check:arm64"
    if [ $static_arm64 = yes ]; then PKGS="$PKGS zlib1g-dev:arm64"; fi
fi

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
[ -f Makefile ] || ./configure --quiet --enable-werror
jobs=$(nproc 2>/dev/null || echo 2)
make -s -j"$jobs"
top_libperf=$(pwd)/libperf-local

# Print each suite's closing line and a total, then fail if anything failed. A test that
# cannot run here prints "SKIP: why": it counts as skipped, never as passed.
summary() {
    for log in "$1"/tests/*.log; do
        [ "$(basename "$log")" = test-suite.log ] && continue
        line=$(grep -E '^[0-9]+%: Checks:|^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
        skips=$(grep -c '^SKIP: ' "$log" || true)
        echo "  $(basename "$log" .log): ${line:-$(tail -n 1 "$log")}$([ "$skips" -gt 0 ] && echo ", $skips skipped")"
    done
    awk '/^[0-9]+%: Checks:/ { gsub(",", ""); p += $3 - $5 - $7; f += $5 + $7 }
         /^[0-9]+ passed, [0-9]+ failed/ { p += $1; f += $3 }
         /^SKIP: / { s++ }
         END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' "$1"/tests/*.log
}

run_check() { # DIR (TESTS in the environment: only those)
    rm -f "$1"/tests/*.log # a build that fails must not leave the last run's results
    if ! make -s -C "$1" -j"$jobs" check ${TESTS:+TESTS="$TESTS"} > "$1/check.out" 2>&1; then
        grep -E 'error|Error' "$1/check.out" | grep -v '^FAIL\|^# ' | head -n 20
        summary "$1"
        for log in "$1"/tests/*.log; do
            grep -qE '^(FAIL|ERROR)' "$log" 2>/dev/null && { echo "--- $log"; tail -n 40 "$log"; }
        done
        exit 1
    fi
    summary "$1"
}

# sanitized DIR FLAGS: a VPATH build in DIR/obj from a pristine copy of the sources (make
# distdir), so the in-tree build above stays as it is; then cd there
sanitized() {
    top=$(pwd)
    rm -rf "$1/src" && mkdir -p "$1"
    make -s distdir distdir="$1/src" > /dev/null
    mkdir -p "$1/obj"
    cd "$1/obj"
    if [ ! -f Makefile ]; then
        PKG_CONFIG_PATH="$top/libperf-local/lib/pkgconfig" ../src/configure --quiet --enable-werror \
            CFLAGS="-O1 -g $2 -fno-omit-frame-pointer" LDFLAGS="$2"
    fi
    make -s -j"$jobs" > /dev/null
}

case "${1:-}" in
"") ;;
check) run_check . ;;
asan)
    sanitized build-asan "-fsanitize=address,undefined -fno-sanitize-recover=undefined"
    export ASAN_OPTIONS=detect_leaks=1
    run_check . ;;
tsan)
    # the threads: the exporter's HTTP thread and the recorder's writer against the
    # refresh; any report fails the test that made it (exit code 66)
    sanitized build-tsan "-fsanitize=thread"
    export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
    TESTS="tests/check_record tests/check_hwmon tests/test_exporter.sh tests/test_record.sh" run_check . ;;
bench) make -s bench ;;
fuzz) sh tests/fuzz/run.sh "${2:-15}" ;;
valgrind)
    make -s -j"$jobs" check TESTS= > /dev/null # the Check programs, built, not run
    sh tests/valgrind.sh . . ;;
soak) make -s soak ;;
arm64)
    # a VPATH build for aarch64-linux-gnu from a pristine copy (configure builds libperf
    # for arm64 from the same linux-source), warning-free with -Werror, char unsigned as
    # arm64's is; then its tests under qemu-aarch64 against the x86_64 build above
    top=$(pwd)
    rm -rf build-arm64/src && mkdir -p build-arm64
    make -s distdir distdir=build-arm64/src > /dev/null
    mkdir -p build-arm64/obj && cd build-arm64/obj
    [ -f Makefile ] || PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
        ../src/configure --quiet --enable-werror --host=aarch64-linux-gnu CFLAGS="-O2 -g -Wchar-subscripts"
    make -s -j"$jobs" > /dev/null
    make -s -j"$jobs" check TESTS= > /dev/null # the Check programs, built for arm64, not run
    cd "$top"
    TOP_SRCDIR="$top" sh tests/arm64.sh "$top/build-arm64/obj" "$top/pmutop" ;;
deb)
    # from a pristine copy of the tree with debian/; the Check tests ran in ./build.sh
    # check (nocheck here: a package built by hand, dpkg-buildpackage -b, runs them)
    shift
    if [ $# -eq 0 ]; then # this machine's, and arm64's where that is another
        set -- "$(dpkg --print-architecture)"
        [ "$1" = arm64 ] || set -- "$1" arm64
    fi
    rm -rf build-deb && mkdir -p build-deb
    make -s distdir distdir=build-deb/pmutop > /dev/null
    debs=""
    for arch in "$@"; do
        lp=$top_libperf; [ "$arch" = "$(dpkg --print-architecture)" ] || lp=$(pwd)/build-arm64/obj/libperf-local
        (cd build-deb/pmutop && PKG_CONFIG_PATH="$lp/lib/pkgconfig" DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
            dpkg-buildpackage -us -uc -b -a"$arch" -Pnocheck > "../dpkg-buildpackage-$arch.log" 2>&1) ||
            { tail -n 30 "build-deb/dpkg-buildpackage-$arch.log" >&2; exit 1; }
        debs="$debs $(ls build-deb/pmutop_*_"$arch".deb)"
    done
    # shellcheck disable=SC2086
    sh tests/debian.sh $debs ;;
static)
    shift
    [ $# -gt 0 ] || set -- amd64 arm64
    tarballs=""
    for arch in "$@"; do
        sh tools/build-static.sh "$arch"
        tarballs="$tarballs $(ls -t dist/pmutop-*-static-"$arch".tar.gz | head -n 1)"
    done
    # shellcheck disable=SC2086
    sh tests/static.sh $tarballs ;;
*) echo "usage: ./build.sh [check|asan|tsan|bench|fuzz [SECONDS]|valgrind|soak|arm64|deb|static [amd64|arm64]...]" >&2; exit 2 ;;
esac
