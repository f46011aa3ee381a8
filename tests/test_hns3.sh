#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The HiSilicon HNS3 NIC PMU on a tree written as the driver prints it: pair arithmetic,
# filter modes (the driver's companions, per-event acceptance from filtermode/), BDF
# bounds, the document's forms tolerated, every metric against the document's formula.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$scratch"
sh "$TOP_SRCDIR/tests/fixtures/gen-hns3.sh" tree 0 2
model="$TOP_SRCDIR/tests/fixtures/hns3-const.ini"
run() { "$PMUTOP" --sim --sysfs-root tree --model "$model" -P hip09-hns3 -b -n 2 --fake-clock --format csv "$@"; }
value() { # METRIC INSTANCE FILE: the last interval's value
    awk -F, -v m="$1" -v i="$2" '$4 == m && $5 == i { v = $6 } END { print v }' "$3"
}
close() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && (a - b) <= 1e-9 * b && (b - a) <= 1e-9 * b) }'; }

# pair arithmetic: counter 0 / counter 1, time in hw_clk_freq ticks
run > global.csv
for check in "nic.ssu_rpu.bw sicl0 8" "nic.ssu_rpu.pps sicl2 1000000" "nic.tpu_ssu.bw sicl0 2" \
             "nic.rpu.latency sicl0 1000" "nic.msix.intr_rate sicl2 50000"; do
    set -- $check
    got=$(value "$1" "$2" global.csv)
    close "$got" "$3" && ok || fail "$1 $2: got '$got', want $3"
done
# the mode goes with its companion values: port mode tc=0xf, func mode queue=0xffff
"$PMUTOP" --sim --sysfs-root tree -P hip09-hns3 --dry-run -f nic@sicl0:mode=port,port=1 > port.tsv
expect_grep "port mode sets tc=0xf" "sicl0	nic	hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,tc=0xf,port=0x1/" port.tsv
"$PMUTOP" --sim --sysfs-root tree -P hip09-hns3 --dry-run -f nic@sicl0:mode=func,bdf=35:00.1 > func.tsv
expect_grep "func mode sets queue=0xffff and the BDF" "bw_ssu_rpu_byte_num,queue=0xffff,bdf=0x3501/	type=[0-9]*	config=0x2	config1=0xffff350100" func.tsv
expect_grep "BDF as 0x3501 too" "bdf=0x3501" func.tsv
"$PMUTOP" --sim --sysfs-root tree -P hip09-hns3 --dry-run -f nic@sicl0:mode=global > global.tsv
grep "^sicl0" global.tsv | grep -q "bdf=\|port=" && fail "global mode carries another mode's filters" || ok
# a function's share in func mode; a mode some statistics do not support leaves them n/a
run -f nic@sicl0:mode=func,bdf=35:00.1 > func.csv
got=$(value nic.ssu_rpu.bw sicl0 func.csv)
close "$got" 2 && ok || fail "func mode: a quarter of 8 GB/s, got '$got'"
run -f nic@sicl2:mode=port,port=1 --format json > port.json
python3 - port.json <<'PY' && ok || fail "port mode: n/a with the reason where the event does not support it"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
v = {m["metric"]: m for m in o["metrics"] if m["instance"] == "sicl2"}
assert abs(v["nic.ssu_rpu.bw"]["value"] - 8 * 0.3) < 1e-6, v["nic.ssu_rpu.bw"]
for name in ("nic.rpu.latency", "nic.msix.intr_rate"):
    assert v[name]["state"] == "unavailable" and "not supported by this event" in v[name]["reason"], v[name]
inst = [i for i in o["instances"] if i["instance"] == "sicl2"][0]
assert inst["filters"] == {"mode": "port", "port": "0x1"}, inst
PY
# func mode without a BDF would be another mode to the driver: n/a, saying what it needs
run -f nic@sicl0:mode=func --format json > nobdf.json
grep -q '"metric":"nic.ssu_rpu.bw","instance":"sicl0","value":null,"unit":"GB/s","state":"unavailable","reason":"mode func needs bdf set"' nobdf.json \
    && ok || fail "func mode without a BDF: $(head -c 300 nobdf.json)"
# refusals: a BDF outside bdf_min..bdf_max, with the range; a mode that does not exist
run -f nic@sicl0:mode=func,bdf=36:00.1 > /dev/null 2> err.out
expect_eq "BDF out of range exit (a usage error)" $? 2
expect_grep "BDF out of range names the range" "outside hns3_pmu_sicl_0's range 35:00.0..35:00.3 (bdf_min..bdf_max)" err.out
run -f nic:mode=fast > /dev/null 2> err.out
expect_eq "unknown mode exit (a usage error)" $? 2
expect_grep "unknown mode lists the modes" "'fast' is not one of global, port, port-tc, func, func-queue, func-intr" err.out
# the document's forms are read too: padded config, '/'-separated filtermode
cp -R tree doc
d=doc/sys/bus/event_source/devices/hns3_pmu_sicl_0
printf 'config=0x%05x\n' 0x2 > $d/events/bw_ssu_rpu_byte_num
printf 'global/port/port-tc/func/func-queue/\n' > $d/filtermode/bw_ssu_rpu_byte_num
printf 'global/\n' > $d/filtermode/dly_rpu_time
"$PMUTOP" --sim --sysfs-root doc -P hip09-hns3 --dry-run -f nic@sicl0:mode=port,port=1 > doc.tsv
expect_grep "padded config read" "bw_ssu_rpu_byte_num,tc=0xf,port=0x1/	type=[0-9]*	config=0x2	" doc.tsv
"$PMUTOP" --sim --sysfs-root doc --model "$model" -P hip09-hns3 -b -n 2 --fake-clock --format csv -f nic@sicl0:mode=port,port=1 > doc.csv
expect_grep "slash-separated modes read" "nic.rpu.latency,sicl0,,ns,unavailable" doc.csv
got=$(value nic.ssu_rpu.bw sicl0 doc.csv)
close "$got" 2.4 && ok || fail "doc forms: port 1's 0.3 of 8 GB/s, got '$got'"
# the demo
"$PMUTOP" --demo hip09 -b -n 1 --fake-clock --format csv > demo.csv
expect_grep "demo hip09" ",sim+sensors,hip09-hns3,nic.ssu_rpu.bw,sicl2,[0-9.]*,GB/s,ok" demo.csv

# every NIC metric is hns3-pmu.rst's formula on the raw deltas: counter 0 / counter 1 of
# an event pair (config bits 0-15 equal, bit 16 picks the counter), times are ticks of
# hw_clk_freq; pairs found by encoding, never by pmutop's names. In every mode.
for f in "" "-f nic@sicl0:mode=port,port=1" "-f nic@sicl2:mode=func,bdf=37:00.1"; do
    # shellcheck disable=SC2086
    "$PMUTOP" --demo hip09 -b -n 3 --fake-clock --format json --raw $f > raw.json
    python3 - raw.json "$TOP_SRCDIR/profiles/machines/hip09/sys/bus/event_source/devices" <<'PY' && ok || fail "NIC metrics against the document's formula ($f)"
import json, os, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
pairs = {}
for c in o["counters"]:
    cfg = int(c["config"], 16)
    pairs.setdefault((c["instance"], c["pmu"], cfg & 0xffff), {})[cfg >> 16 & 1] = c
# which statistic each metric reads: the pair whose counter-0 event the statistic names
stat = {"nic.ssu_rpu.bw": "bw_ssu_rpu", "nic.ssu_rpu.pps": "pps_ssu_rpu", "nic.tpu_ssu.bw": "bw_tpu_ssu",
        "nic.tpu_ssu.pps": "pps_tpu_ssu", "nic.roce_ssu.bw": "bw_roce_ssu", "nic.wr_fbd.bw": "bw_wr_fbd",
        "nic.rpu.latency": "dly_rpu", "nic.msix.intr_rate": "pps_intr_msix_nic"}
checked = 0
for m in o["metrics"]:
    if m["metric"] not in stat or m.get("state", "ok") != "ok":
        continue
    pair = [p for k, p in pairs.items() if k[0] == m["instance"] and p[0]["event"].startswith(stat[m["metric"]] + "_")]
    assert len(pair) == 1, (m, pair)
    c0, c1 = pair[0][0], pair[0][1]
    hz = float(open(os.path.join(sys.argv[2], c0["pmu"], "hw_clk_freq")).read())
    ratio = c0["delta"] / c1["delta"]            # the document: counter 0 / counter 1
    want = {"bw": ratio * hz / 1e9, "pps": ratio * hz, "dly": ratio / hz * 1e9}[stat[m["metric"]].split("_")[0]]
    assert abs(m["value"] - want) <= 1e-9 * abs(want), (m, want)
    checked += 1
assert checked >= 8, checked
PY
done
finish
