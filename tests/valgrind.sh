#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The whole test suite under valgrind memcheck: every Check suite (each test in the child
# Check forks, checked for leaks when it exits), and every shell test with pmutop started
# through valgrind. Any memory error or definite/indirect leak makes that run exit 99, which fails
# its test. Usage: tests/valgrind.sh BUILDDIR SRCDIR [TEST...] (./build.sh valgrind).
set -u
b=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
shift 2
vg="valgrind -q --vgdb=no --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect"
vg="$vg --errors-for-leak-kinds=definite,indirect --suppressions=$src/tests/valgrind.supp"
out="$b/valgrind"
rm -rf "$out" && mkdir -p "$out"
# the report goes to a descriptor of its own: a log file valgrind opened itself could take
# the place of a standard output a test closed; the directory is everyone's because a
# test runs pmutop as 'nobody'
cat > "$out/pmutop" <<EOF
#!/bin/sh
exec $vg --log-fd=9 "$b/pmutop" "\$@" 9> "$out/pmutop-\$\$.vg"
EOF
chmod +x "$out/pmutop"
chmod 1777 "$out"
tests=${*:-$(cd "$b" && ls tests/check_* | grep -v '\.' ; cd "$src" && ls tests/test_*.sh)}
pass=0 failed=""
for t in $tests; do
    name=$(basename "$t")
    case $name in
    check_*) $vg "$b/tests/$name" > "$out/$name.log" 2>&1 ;;
    *) PMUTOP="$out/pmutop" TOP_SRCDIR="$src" sh "$src/tests/$name" > "$out/$name.log" 2>&1 ;;
    esac
    rc=$?
    # a pmutop run that reported errors fails the test even where the test ignored its status
    reports=$(find "$out" -name 'pmutop-*.vg' -size +0 2> /dev/null | head -n 1)
    if { [ $rc -eq 0 ] || [ $rc -eq 77 ]; } && [ -z "$reports" ]; then
        pass=$((pass + 1))
        echo "  $name: $(tail -n 1 "$out/$name.log")"
    else
        failed="$failed $name"
        echo "  $name: FAILED (exit $rc) - $out/$name.log"
        [ -n "$reports" ] && { echo "    valgrind reports:"; cat $(find "$out" -name 'pmutop-*.vg' -size +0) | head -n 40; }
        mkdir -p "$out/reports-$name" && find "$out" -maxdepth 1 -name 'pmutop-*.vg' -size +0 -exec mv {} "$out/reports-$name/" \;
    fi
    find "$out" -maxdepth 1 -name 'pmutop-*.vg' -delete
done
echo "valgrind: $pass passed, $(echo $failed | wc -w) failed${failed:+:$failed}"
[ -z "$failed" ]
