#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build libperf (the kernel's tools/lib/perf) from Debian's linux-source package into DEST,
# as a static library with libapi folded in, plus a libperf.pc that links them statically.
# libperf is not packaged in Debian 12; nothing is downloaded but the Debian package itself.
# Usage: build-libperf.sh DEST [HOST]   (HOST: configure's, aarch64-linux-gnu for arm64:
# built with the kernel's ARCH and CROSS_COMPILE, by Debian's crossbuild-essential-arm64)
set -eu
dest=${1:?usage: build-libperf.sh DEST [HOST]}
host=${2:-}
case $dest in /*) ;; *) dest=$(pwd)/$dest ;; esac
cross=""
case $host in
"" | x86_64-*) ;;
aarch64-*) cross="ARCH=arm64 CROSS_COMPILE=$host-" ;;
*) echo "build-libperf: no kernel ARCH known for host $host" >&2; exit 1 ;;
esac

if [ -f "$dest/lib/pkgconfig/libperf.pc" ] && [ -f "$dest/lib/libperf.a" ] && [ -d "$dest/pmu-events/arch/x86" ] && [ -f "$dest/kernel-events/arm_pmuv3.c" ] &&
    [ "$(cat "$dest/host" 2>/dev/null)" = "$host" ]; then
    exit 0        # already built for this host: a second configure costs nothing
fi

tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$tarball" ]; then
    echo "build-libperf: no /usr/src/linux-source-*.tar.xz; install it with: apt-get install linux-source-6.12" >&2
    exit 1
fi
top=$(basename "$tarball" .tar.xz)
work="$dest/src"
rm -rf "$dest"
mkdir -p "$work"
echo "build-libperf: extracting tools/ from $tarball" >&2
# the drivers' generic-event maps too (the tests' oracle for what perf's cache-misses counts)
maps="$top/arch/x86/events/intel/core.c $top/arch/x86/events/amd/core.c $top/drivers/perf/arm_pmuv3.c"
# shellcheck disable=SC2086
tar -xJf "$tarball" -C "$work" \
    "$top/tools" "$top/include/uapi" "$top/include/linux" "$top/scripts" "$top/Makefile" $maps 2>/dev/null ||
    tar -xJf "$tarball" -C "$work" --wildcards "$top/tools/*" "$top/include/*" "$top/scripts/*" "$top/Makefile" $maps

# install_lib + install_headers + install_pkgconfig, never plain install (it wants asciidoc).
# shellcheck disable=SC2086
make -s -C "$work/$top/tools/lib/perf" $cross prefix="$dest" libdir_relative=lib \
    install_lib install_headers install_pkgconfig >"$dest/build.log" 2>&1 || {
    cat "$dest/build.log" >&2; exit 1; }
cp "$work/$top/tools/lib/api/libapi.a" "$dest/lib/"
# The .so has an unversioned SONAME: link statically, so remove it and the stale .pc.
rm -f "$dest"/lib/libperf.so* "$dest/lib/pkgconfig/libperf.pc"
cat >"$dest/lib/pkgconfig/libperf.pc" <<PC
prefix=$dest
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: libperf
Description: perf library (static, built from $top)
Version: 0.0.1
Libs: \${libdir}/libperf.a \${libdir}/libapi.a
Cflags: -I\${includedir}
PC
# perf's event and metric definitions (JSON) for the tests' oracles: x86 and arm64 only
mkdir -p "$dest/pmu-events/arch"
cp -r "$work/$top/tools/perf/pmu-events/arch/x86" "$work/$top/tools/perf/pmu-events/arch/arm64" "$dest/pmu-events/arch/"
mkdir -p "$dest/kernel-events"
cp "$work/$top/arch/x86/events/intel/core.c" "$dest/kernel-events/intel-core.c"
cp "$work/$top/arch/x86/events/amd/core.c" "$dest/kernel-events/amd-core.c"
cp "$work/$top/drivers/perf/arm_pmuv3.c" "$dest/kernel-events/arm_pmuv3.c"
rm -rf "$work"
echo "$host" > "$dest/host"
echo "build-libperf: installed in $dest${host:+ for $host}" >&2
