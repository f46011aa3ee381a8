#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The systemd units, hardened: systemd-analyze's own rating of each (offline: systemd
# need not run here), every system call pmutop serve and pmutop record make on this
# host allowed by the unit's SystemCallFilter (strace's count against systemd's own list
# of the groups), and the one capability the units grant doing the job: as nobody with
# CAP_PERFMON alone, pmutop counts this host system-wide (and, where the kernel's
# perf_event_paranoid forbids it to a user, nobody without it cannot).
. "$TOP_SRCDIR/tests/lib.sh"
command -v systemd-analyze > /dev/null || skip "systemd-analyze is not installed"
systemd-analyze security --help 2>&1 | grep -q -- '--offline' || skip "this systemd-analyze has no --offline"
cd "$scratch"
units="$TOP_BUILDDIR/systemd"

# expand GROUP...: the system calls systemd's filter groups name, each on a line
expand() {
    python3 - "$@" <<'PY'
import subprocess, sys
seen, calls = set(), set()
def walk(name):
    if name in seen:
        return
    seen.add(name)
    text = subprocess.run(["systemd-analyze", "syscall-filter", name], capture_output=True, text=True).stdout
    for line in text.splitlines()[1:]:
        word = line.strip()
        if word.startswith("@"):
            walk(word)
        elif word and not word.startswith("#"):
            calls.add(word)
for arg in sys.argv[1:]:
    walk(arg) if arg.startswith("@") else calls.add(arg)
print("\n".join(sorted(calls)))
PY
}

for unit in exporter record; do
    f="$units/pmutop-$unit.service"
    [ -f "$f" ] || { fail "no built unit $f"; continue; }
    level=$(systemd-analyze security --offline=true "$f" 2>&1 | sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p')
    echo "pmutop-$unit.service: exposure $level"
    python3 -c "import sys; sys.exit(0 if float('${level:-99}') <= 2.0 else 1)" && ok ||
        fail "pmutop-$unit.service: exposure ${level:-unknown}, above 2.0 ('OK' in systemd's words)"
    expect_eq "pmutop-$unit.service: its one capability" "$(sed -n 's/^CapabilityBoundingSet=//p' "$f")" CAP_PERFMON
    expect_eq "pmutop-$unit.service: a user of its own, not root" "$(sed -n 's/^DynamicUser=//p' "$f")" yes
    # shellcheck disable=SC2046 # the filter's words, one argument each
    expand $(sed -n 's/^SystemCallFilter=//p' "$f") > "allowed-$unit.txt"
    [ -s "allowed-$unit.txt" ] && ok || fail "pmutop-$unit.service: no SystemCallFilter"
done

# what the services do on this host, under strace: each system call allowed
if command -v strace > /dev/null && command -v python3 > /dev/null; then
    calls() { awk 'NR > 2 && $NF != "total" && $NF !~ /^-/ { print $NF }' "$1" | sort -u; }
    strace -f -qq -c -o serve.strace "$PMUTOP" serve --listen 127.0.0.1:0 -n 3 -d 0.1 > /dev/null 2> serve.err
    calls serve.strace > serve.calls
    [ -s serve.calls ] && ok || fail "no system calls seen of pmutop serve: $(head -c 300 serve.err)"
    expect_eq "pmutop serve: every system call in the exporter unit's filter" \
        "$(comm -23 serve.calls allowed-exporter.txt | tr '\n' ' ')" ""
    strace -f -qq -c -o record.strace "$PMUTOP" record -o rec.pmrec -n 3 -d 0.1 > /dev/null 2> record.err
    calls record.strace > record.calls
    [ -s record.calls ] && ok || fail "no system calls seen of pmutop record: $(head -c 300 record.err)"
    expect_eq "pmutop record: every system call in the record unit's filter" \
        "$(comm -23 record.calls allowed-record.txt | tr '\n' ' ')" ""
else
    skip_check "strace or python3 is not installed: the system calls are not checked"
fi

# CAP_PERFMON alone: what the units give instead of root
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && setpriv --inh-caps=+perfmon true 2> /dev/null; then
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    as_nobody --inh-caps=-all,+perfmon --ambient-caps=-all,+perfmon --bounding-set=-all,+perfmon \
        "$PMUTOP" -b -n 2 -d 0.1 --format csv > cap.csv 2> cap.err
    expect_eq "as nobody with CAP_PERFMON alone: it counts" "$?" 0
    grep -q ',live,host,host\.[a-z_]*,all,[0-9.e+-]*,.*,ok$' cap.csv && ok ||
        fail "as nobody with CAP_PERFMON alone: no value of this host's: $(head -c 300 cap.err)"
    if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
        as_nobody --inh-caps=-all --bounding-set=-all "$PMUTOP" -b -n 1 -d 0.1 > /dev/null 2> nocap.err
        [ $? -ne 0 ] && ok || fail "as nobody without CAP_PERFMON it counted (perf_event_paranoid >= 1)"
        expect_grep "without CAP_PERFMON: the way out said" "CAP_PERFMON" nocap.err
    fi
else
    skip_check "not root, or no setpriv, or a kernel without CAP_PERFMON: the capability is not tried"
fi
finish
