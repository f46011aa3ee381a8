# SPDX-License-Identifier: GPL-2.0-only
# lib.sh - shared by the shell tests (automake: exit 0 pass, 77 skip, other fail).
set -u
PMUTOP=${PMUTOP:-./pmutop}
TOP_SRCDIR=${TOP_SRCDIR:-.}
DEMO="$TOP_SRCDIR/profiles/machines/tegra410"
failures=0
checks=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pmutop-sh-XXXXXX")
trap 'rm -rf "$scratch"' EXIT

ok() { checks=$((checks + 1)); }
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); checks=$((checks + 1)); }
skip() { echo "SKIP: $*"; exit 77; }
# one check that cannot run here: reported (and counted by build.sh) as skipped, not passed
skip_check() { echo "SKIP: $*"; }
# expect_eq WHAT GOT WANT
expect_eq() { if [ "$2" = "$3" ]; then ok; else fail "$1: got '$2', want '$3'"; fi; }
# expect_grep WHAT PATTERN FILE
expect_grep() { if grep -q -- "$2" "$3"; then ok; else fail "$1: no '$2' in: $(head -c 600 "$3")"; fi; }
# The SPR demo against perf's JSON: python3, perf's x86 JSON ($arch) and the catalogue
# built, or a skip; then in the scratch directory, HOME there, $spr the demo's tree.
use_spr_catalogue() {
    command -v python3 > /dev/null || skip "python3 is not installed"
    arch="${PERF_EVENTS_DIR:-}/arch/x86"
    [ -f "$arch/mapfile.csv" ] || skip "perf's pmu-events JSON not found in '$arch'"
    [ -f "$TOP_BUILDDIR/catalogue/sapphirerapids.ini" ] || skip "perf's catalogue is not built"
    cd "$scratch" || exit 1
    export HOME="$scratch"
    spr="$TOP_SRCDIR/profiles/machines/spr"
}
# serve_bg ERRFILE ARGS...: pmutop serve ARGS on a free port of 127.0.0.1, in the
# background, its PID in served_pid (and added to pids, which the test's trap ends) and its
# port, once it says it, in served_port (empty if it could not listen)
serve_bg() {
    sb_err=$1; shift
    "$PMUTOP" serve "$@" --listen 127.0.0.1:0 -d 0.1 2> "$sb_err" &
    served_pid=$!
    pids="${pids:-} $served_pid"
    sb_known() { grep -q "(port [0-9]*)\|cannot listen" "$sb_err"; }
    wait_until "pmutop serve $* says its port" 10 sb_known
    served_port=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' "$sb_err")
}
# wait_until WHAT SECONDS COMMAND...: a deadline, not a sleep for time to pass
wait_until() {
    wu_what=$1 wu_n=$(( $2 * 10 )); shift 2
    wu_i=0
    while [ $wu_i -lt $wu_n ]; do "$@" > /dev/null 2>&1 && return 0; sleep 0.1; wu_i=$((wu_i + 1)); done
    fail "$wu_what: not within the deadline"
    return 1
}
finish() {
    echo "$((checks - failures)) passed, $failures failed"
    [ "$failures" -eq 0 ]
}
