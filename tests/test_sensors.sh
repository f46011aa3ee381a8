#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Sensors: from a tree's files (no libsensors: any root), and through libsensors, which
# always reads the real /sys: in a private mount namespace, a tmpfs over /sys/class
# holds fake hwmon devices (a coretemp with temperatures, power, energy and a fan; an
# NVMe drive; BlueField's bfperf, which has no sensor files).
. "$TOP_SRCDIR/tests/lib.sh"
cd "$scratch"

# a plain tree: the files as the drivers print them (m°C, µW, µJ, RPM)
sh "$TOP_SRCDIR/tests/fixtures/gen-sensors.sh" tree 2
"$PMUTOP" -b -n 1 -d 0.05 --sysfs-root tree -P sensors --format csv > files.csv 2> files.err
expect_eq "a tree's sensors count without --sim" $? 0
expect_grep "temperature from millidegrees" ",sensors.temp,soc_thermal1/Socket 1 SoC,45,°C,ok" files.csv
expect_grep "power from microwatts" ",sensors.power,power_meter0/Socket 0 module,250,W,ok" files.csv
expect_grep "a fan" ",sensors.fan,fan_controller/System fan,4200,RPM,ok" files.csv
expect_grep "power from an energy counter (it does not move in a file)" ",sensors.power,power_meter0/Socket 0 CPU,0,W,ok" files.csv
# the exporter's labels: the socket from the device's NUMA node, none for a machine-wide one
if command -v curl > /dev/null; then
    "$PMUTOP" serve --sysfs-root tree -P sensors --listen 127.0.0.1:0 -d 0.2 2> serve.err &
    spid=$!
    i=0
    while [ $i -lt 100 ] && ! grep -q "(port [0-9]*)" serve.err; do sleep 0.05; i=$((i + 1)); done
    port=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' serve.err)
    i=0
    while [ $i -lt 100 ] && ! curl -sf "http://127.0.0.1:$port/metrics" 2> /dev/null | grep -q '^pmutop_sensors_temp_celsius'; do
        sleep 0.05; i=$((i + 1))
    done
    curl -sf "http://127.0.0.1:$port/metrics" > sensors.prom
    kill $spid; wait $spid
    expect_grep "exported in base units, socket from numa_node" '^pmutop_sensors_temp_celsius{pmu="[^"]*",socket="1",chip="soc_thermal1",label="Socket 1 SoC",name="soc_thermal1/Socket 1 SoC"} 45$' sensors.prom
    expect_grep "a machine-wide fan, no socket" '^pmutop_sensors_fan_rpm{pmu="[^"]*",chip="fan_controller",label="System fan",name="fan_controller/System fan"} 4200$' sensors.prom
else
    skip_check "no curl: the exporter's sensor labels are not checked"
fi
"$PMUTOP" --sysfs-root tree -P sensors --dry-run > dry.tsv
expect_grep "a machine-wide sensor has no socket" "fan_controller/System fan" dry.tsv
# the demo's sensors move with its model
"$PMUTOP" --demo -b -n 30 --fake-clock --format csv > demo.csv
python3 - demo.csv <<'PY' && ok || fail "the demo's sensors follow the model"
import csv, sys
t = [float(r["value"]) for r in csv.DictReader(open(sys.argv[1])) if r["metric"] == "sensors.temp" and r["instance"].startswith("soc_thermal0")]
assert len(t) == 30 and min(t) >= 45 and max(t) > min(t) + 5, t
PY

[ "$(id -u)" = 0 ] || { skip_check "needs root for a mount namespace: libsensors is not exercised"; finish; exit $?; }
unshare -m --propagation private true 2> /dev/null || { skip_check "mount namespaces are not allowed here"; finish; exit $?; }
unshare -m --propagation private sh -c '
    mount -t tmpfs none /sys/class || exit 3
    mkdir -p /sys/class/hwmon/hwmon0 /sys/class/hwmon/hwmon1
    echo coretemp > /sys/class/hwmon/hwmon0/name
    echo 41000 > /sys/class/hwmon/hwmon0/temp1_input
    echo "Package id 0" > /sys/class/hwmon/hwmon0/temp1_label
    echo 67000 > /sys/class/hwmon/hwmon0/temp2_input
    echo "Core 3" > /sys/class/hwmon/hwmon0/temp2_label
    echo 12500000 > /sys/class/hwmon/hwmon0/power1_input
    echo 1800 > /sys/class/hwmon/hwmon0/fan1_input
    echo nvme > /sys/class/hwmon/hwmon1/name
    echo 80000 > /sys/class/hwmon/hwmon1/temp1_input
    mkdir -p /sys/class/hwmon/hwmon2/tile0
    echo bfperf > /sys/class/hwmon/hwmon2/name
    echo "0x45: HNF_REQUESTS" > /sys/class/hwmon/hwmon2/tile0/event_list
    "$PMUTOP" -b -n 1 -d 0.1 -P host > live.out 2> live.err
    "$PMUTOP" -b -n 1 -d 0.1 -P sensors --format csv > sensors.csv 2> sensors.err
    "$PMUTOP" --demo -b -n 1 --fake-clock > demo.out 2>&1
' || skip "could not mount a tmpfs over /sys/class"
# the hottest CPU sensor, not the NVMe drive
expect_grep "temperature in the header" "67°C (coretemp)" live.out
grep -q "80°C" live.out && fail "a drive temperature taken for the CPU" || ok
grep -q "°C (" demo.out && fail "a simulated machine showed this host's temperature" || ok
# every sensor through libsensors, as sensors(1) prints them; bfperf is not one
expect_grep "libsensors: a temperature with its label" ",sensors.temp,coretemp-[a-z]*-[0-9a-f]*/Package id 0,41,°C,ok" sensors.csv
expect_grep "libsensors: the hottest core" ",sensors.temp,coretemp-[a-z]*-[0-9a-f]*/Core 3,67,°C,ok" sensors.csv
expect_grep "libsensors: power" ",sensors.power,coretemp-[a-z]*-[0-9a-f]*/power1,12.5,W,ok" sensors.csv
expect_grep "libsensors: a fan" ",sensors.fan,coretemp-[a-z]*-[0-9a-f]*/fan1,1800,RPM,ok" sensors.csv
expect_grep "libsensors: the drive too" ",sensors.temp,nvme-[a-z]*-[0-9a-f]*/temp1,80,°C,ok" sensors.csv
grep -q bfperf sensors.csv && fail "bfperf taken for a sensor device" || ok
finish
