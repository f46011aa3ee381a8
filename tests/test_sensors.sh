#!/bin/sh
# CPU temperature through libsensors, which always reads the real /sys: in a private mount
# namespace, a tmpfs over /sys/class holds a fake coretemp hwmon device.
. "$TOP_SRCDIR/tests/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root for a mount namespace"
unshare -m --propagation private true 2> /dev/null || skip "mount namespaces are not allowed here"
cd "$scratch"
unshare -m --propagation private sh -c '
    mount -t tmpfs none /sys/class || exit 3
    mkdir -p /sys/class/hwmon/hwmon0 /sys/class/hwmon/hwmon1
    echo coretemp > /sys/class/hwmon/hwmon0/name
    echo 41000 > /sys/class/hwmon/hwmon0/temp1_input
    echo "Package id 0" > /sys/class/hwmon/hwmon0/temp1_label
    echo 67000 > /sys/class/hwmon/hwmon0/temp2_input
    echo "Core 3" > /sys/class/hwmon/hwmon0/temp2_label
    echo nvme > /sys/class/hwmon/hwmon1/name
    echo 80000 > /sys/class/hwmon/hwmon1/temp1_input
    "$PMUTOP" -b -n 1 -d 0.1 -p host > live.out 2> live.err
    "$PMUTOP" --demo -b -n 1 --fake-clock > demo.out 2>&1
' || skip "could not mount a tmpfs over /sys/class"
# the hottest CPU sensor, not the NVMe drive
expect_grep "temperature in the header" "67°C (coretemp)" live.out
grep -q "80°C" live.out && fail "a drive temperature taken for the CPU" || ok
grep -q "°C" demo.out && fail "a simulated machine showed this host's temperature" || ok
finish
