#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build-static.sh ARCH - one file to copy: dist/pmutop-VERSION-static-ARCH.tar.gz holding
# bin/pmutop linked statically (no library needed where it runs), share/pmutop (profiles,
# demo machines, perf's catalogue: found beside the binary, wherever it is unpacked),
# share/terminfo (the common terminals, for a machine with none) and the man pages.
# ARCH is amd64 or arm64 (Debian's cross toolchain). Run from ./build.sh static [ARCH],
# which installs what it needs; then tests/static.sh checks the result in an empty root.
#
# Debian's libmicrohttpd.a needs GnuTLS, whose p11-kit and libunistring ship no static
# library: libmicrohttpd is built here from Debian's own source package without TLS
# (pmutop serves plain HTTP; TLS belongs to the proxy in front), once per ARCH.
set -eu
arch=${1:-amd64}
top=$(cd "$(dirname "$0")/.." && pwd)
case $arch in
amd64) host="" triplet=x86_64-linux-gnu ;;
arm64) host=aarch64-linux-gnu triplet=aarch64-linux-gnu ;;
*) echo "build-static.sh: ARCH is amd64 or arm64, not '$arch'" >&2; exit 2 ;;
esac
out=$top/build-static-$arch
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p "$out"

# libmicrohttpd without TLS, from the source package of the version Debian ships, found
# through the machine's own apt sources (their deb lines, as deb-src)
mhd=$out/mhd
if [ ! -f "$mhd/lib/libmicrohttpd.a" ]; then
    src=$out/mhd-src
    rm -rf "$src" && mkdir -p "$src/lists/partial" "$src/parts"
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" > "$src/parts/$(basename "$f")"
    done
    [ -f /etc/apt/sources.list ] && sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "$src/sources.list"
    touch "$src/sources.list"
    apt="-o Dir::Etc::SourceList=$src/sources.list -o Dir::Etc::SourceParts=$src/parts -o Dir::State::Lists=$src/lists"
    # shellcheck disable=SC2086
    apt-get -qq $apt update
    # shellcheck disable=SC2086
    (cd "$src" && apt-get -qq $apt source --download-only libmicrohttpd 2> /dev/null)
    (cd "$src" && tar xf libmicrohttpd_*.orig.tar.*)
    cd "$src"/libmicrohttpd-*/
    ./configure --quiet ${host:+--host=$host} --prefix="$mhd" --enable-static --disable-shared \
        --disable-https --without-gnutls --disable-doc --disable-examples --disable-curl > /dev/null
    make -s -j"$jobs" install > /dev/null
    cd "$top"
fi

# pmutop from a pristine copy of the tree (as distcheck's), linked statically
rm -rf "$out/src" && (cd "$top" && make -s distdir distdir="$out/src" > /dev/null)
mkdir -p "$out/obj" && cd "$out/obj"
pc=$mhd/lib/pkgconfig
# the libperf ./build.sh (amd64) or ./build.sh arm64 built already, for ARCH (its first
# object's ELF machine: 62 x86-64, 183 AArch64), rather than building it a third time
want=62; [ "$arch" = arm64 ] && want=183
for d in "$top/libperf-local" "$top/build-arm64/obj/libperf-local"; do
    a=$d/lib/libperf.a
    [ -f "$a" ] && [ "$(ar p "$a" "$(ar t "$a" | head -n 1)" | od -An -j18 -N2 -tu2 | tr -d ' ')" = "$want" ] &&
        pc=$pc:$d/lib/pkgconfig
done
[ -f Makefile ] || PKG_CONFIG_LIBDIR=$pc:/usr/lib/$triplet/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig \
    ../src/configure --quiet --enable-werror --enable-static-binary ${host:+--host=$host} --prefix=/ CFLAGS="-O2" \
    LDFLAGS="-L$mhd/lib" # before the system's directory, which holds Debian's libmicrohttpd.a with TLS
make -s -j"$jobs" > /dev/null
stage=$out/stage
rm -rf "$stage" && make -s install-strip DESTDIR="$stage" > /dev/null
# the terminals people run pmutop in, for a machine without their descriptions
for t in xterm xterm-256color screen screen-256color tmux tmux-256color vt100 vt220 linux rxvt-unicode-256color dumb; do
    f=$(find /usr/share/terminfo /lib/terminfo -name "$t" 2> /dev/null | head -n 1)
    [ -n "$f" ] || continue
    d=$stage/share/terminfo/$(basename "$(dirname "$f")")
    mkdir -p "$d" && cp "$f" "$d/"
done
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' config.h)
name=pmutop-$version-static-$arch
mkdir -p "$top/dist" && rm -rf "$out/$name" && mv "$stage" "$out/$name"
tar -C "$out" --owner=0 --group=0 --numeric-owner --sort=name -czf "$top/dist/$name.tar.gz" "$name"
echo "$top/dist/$name.tar.gz: $(du -k "$top/dist/$name.tar.gz" | cut -f1) KiB; bin/pmutop $(du -k "$out/$name/bin/pmutop" | cut -f1) KiB"
