#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench stat -filter` on hostile regexps: nested repeats past Go's
# limits are rejected with Go's message at once (one of them used to grow
# abbench to 24 GB), and the largest patterns Go accepts, patterns that
# make backtracking engines explode and 27000 \pL run in bounded time and
# memory.  Peak RSS is measured with /usr/bin/time; the budget is far
# below what expanding the repetitions would take.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd /usr/bin/time timeout python3

cd "$TEST_TMP" || exit 1
# 64 MB, or 256 MB for a sanitizer build (its shadow memory; and freed
# memory is held in quarantine, so keep that small).
limit=65536
if nm "$ABBENCH" 2>/dev/null | grep -q __asan_init; then
	limit=262144
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
	export ASAN_OPTIONS
fi

python3 - <<'EOF'
long = "a" * 60000
with open("in.txt", "w") as f:
    f.write("BenchmarkAaaa 1 5 ns/op\nBenchmarkB 1 6 ns/op\n")
    f.write("Benchmark%s 1 7 ns/op\n" % long)
with open("pl.re", "w") as f:
    f.write("\\pL" * 27000)
with open("x3000.re", "w") as f:
    f.write("(?:" + "x" * 3000 + "){1000}")
with open("x4000.re", "w") as f:
    f.write("(?:" + "x" * 4000 + "){1000}")
with open("deep.re", "w") as f:
    f.write("(" * 1001 + "a" + ")" * 1001)
EOF

# run_re NAME REGEXP: abbench stat -filter .name:/REGEXP/ in.txt, with
# its exit status in rc, stderr's first line in err1, the rows in rows
# and the peak RSS in KB in rss.
run_re() {
	timeout 60 /usr/bin/time -f %M -o rss.out "$ABBENCH" stat \
	    -filter ".name:/$2/" in.txt > out 2> err
	rc=$?
	err1=$(head -n 1 err)
	rows=$(grep -c ' ± ' out)
	rss=$(tail -n 1 rss.out)
	case $rss in
	''|*[!0-9]*) rss=999999999 ;;
	esac
	[ "$rss" -le "$limit" ]
	ok $? "$1: peak RSS ${rss} KB <= $limit KB"
}

E="benchstat: parsing -filter: syntax error: error parsing regexp"

run_re "(a{1000}){1000}" '(a{1000}){1000}'
is "$rc:$err1" "0:$E: invalid repeat count: \`{1000}\`" \
    "(a{1000}){1000}: Go's error"
run_re "(a{100}){100}" '(a{100}){100}'
is "$rc:$err1" "0:$E: invalid repeat count: \`{100}\`" \
    "(a{100}){100}: Go's error"

run_re "((a{10}){10}){10}" '((a{10}){10}){10}'
is "$rc:$err1:$rows" "0::1" "((a{10}){10}){10}: matches the long name only"

run_re "27000 \\pL" "$(cat pl.re)"
like "$err1" "^$E: expression too large: " "27000 \\pL: expression too large"

run_re "(?:x*3000){1000}" "$(cat x3000.re)"
is "$rc:$err1:$rows" "0::0" "(?:x*3000){1000}: within Go's budget, no match"
run_re "(?:x*4000){1000}" "$(cat x4000.re)"
like "$err1" "^$E: expression too large: " \
    "(?:x*4000){1000}: over Go's size budget"

run_re "1001 nested groups" "$(cat deep.re)"
like "$err1" "^$E: expression nests too deeply: " \
    "1001 nested groups: nests too deeply"

# Backtracking engines take exponential time on these; ours is linear.
for re in '^(a*)*$' '^(a|aa)*$' '^(a+)+b$' '(?i)^(\pL|a)*$'; do
	start=$(date +%s)
	run_re "$re" "$re"
	end=$(date +%s)
	[ "$rc" = 0 ] && [ $((end - start)) -le 20 ]
	ok $? "$re: done in $((end - start)) s"
done
is "$rows" "3" "(?i)^(\\pL|a)*\$ matches every name"

done_testing
