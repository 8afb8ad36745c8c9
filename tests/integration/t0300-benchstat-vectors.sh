#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench stat` against the recorded outputs of Go's benchstat: every case
# of the benchstat vectors (tests/data/benchstat-vectors, via their
# check.sh --strict, one TAP line per case), our own vectors in
# tests/data/benchstat (usage, flag and syntax errors, config and Unit
# quirks derived from the spec, and the differences a differential test
# found), and cases made on the fly: over-long lines, standard input, a
# directory as input.  Everything it reads is in the repository.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd cmp diff bash

CHECK=$ABBENCH_SRCDIR/tests/data/benchstat-vectors/check.sh
OURS=$ABBENCH_SRCDIR/tests/data/benchstat
[ -f "$CHECK" ] || skip_all "no benchstat vectors at $CHECK"

# The recorded vectors.
bash "$CHECK" "$ABBENCH stat" --strict --verbose > "$TEST_TMP/check.out" 2>&1
check_rc=$?
n=0
while IFS= read -r line; do
	case $line in
	PASS\ *)
		pass "vector ${line#PASS }"
		n=$((n + 1))
		;;
	FAIL\ *)
		fail "vector ${line#FAIL }"
		n=$((n + 1))
		;;
	"    "*)
		diag "$line"
		;;
	esac
done < "$TEST_TMP/check.out"
[ "$n" -ge 41 ]
ok $? "check.sh ran all shipped cases ($n)"
[ "$check_rc" -eq 0 ]
ok $? "check.sh exits 0"

# run_case DIR NAME: run one vector folder like check.sh --strict does.
run_case() {
	rc_dir=$1 rc_name=$2
	if [ -f "$rc_dir/stdin" ]; then
		rc_in=$rc_dir/stdin
	else
		rc_in=/dev/null
	fi
	(
		cd "$rc_dir" || exit 99
		set --
		while IFS= read -r a; do
			set -- "$@" "$a"
		done < args
		"$ABBENCH" stat "$@"
	) < "$rc_in" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
	rc_rc=$?
	rc_want=$(tr -d '[:space:]' < "$rc_dir/exit_code")
	if ! cmp -s "$TEST_TMP/out" "$rc_dir/expected.txt"; then
		fail "$rc_name: stdout"
		diff "$rc_dir/expected.txt" "$TEST_TMP/out" | head -20 |
		    sed 's/^/# /'
	elif [ -f "$rc_dir/stderr_lines" ] && ! head -n "$(cat \
	    "$rc_dir/stderr_lines")" "$rc_dir/expected.stderr" |
	    cmp -s - "$TEST_TMP/err"; then
		# Go's stderr goes on with what cannot be reproduced (a
		# goroutine trace): only its first stderr_lines lines count.
		fail "$rc_name: stderr"
		diff "$rc_dir/expected.stderr" "$TEST_TMP/err" | head -20 |
		    sed 's/^/# /'
	elif [ ! -f "$rc_dir/stderr_lines" ] &&
	    ! cmp -s "$TEST_TMP/err" "$rc_dir/expected.stderr"; then
		fail "$rc_name: stderr"
		diff "$rc_dir/expected.stderr" "$TEST_TMP/err" | head -20 |
		    sed 's/^/# /'
	elif [ "$rc_rc" != "$rc_want" ]; then
		fail "$rc_name: exit status $rc_rc, want $rc_want"
	else
		pass "$rc_name"
	fi
}

for d in "$OURS"/*/; do
	d=${d%/}
	run_case "$d" "ours/$(basename "$d")"
done

# Cases made here.
T=$TEST_TMP/gen
mkdir -p "$T"

# The NUL vectors were derived from the rule that a NUL byte is data like
# any other: the same inputs with every NUL made \x01 (and "\x00" in the
# flags "\x01") print the same bytes with \x01 made NUL again.
for d in "$OURS"/nul_*/; do
	d=${d%/}
	n=$(basename "$d")
	mkdir -p "$T/$n"
	for f in "$d"/*; do
		case ${f##*/} in
		args) sed 's/\\x00/\\x01/g' "$f" > "$T/$n/args" ;;
		*) tr '\000' '\001' < "$f" > "$T/$n/${f##*/}" ;;
		esac
	done
	(
		cd "$T/$n" || exit 99
		set --
		while IFS= read -r a; do
			set -- "$@" "$a"
		done < args
		"$ABBENCH" stat "$@"
	) < /dev/null > "$TEST_TMP/out1" 2> "$TEST_TMP/err1"
	# (A message quotes "\x01" where it quoted "\x00".)
	tr '\001' '\000' < "$TEST_TMP/out1" | sed 's/\\x01/\\x00/g' |
	    cmp -s - "$d/expected.txt" &&
	    tr '\001' '\000' < "$TEST_TMP/err1" | sed 's/\\x01/\\x00/g' |
	    cmp -s - "$d/expected.stderr"
	ok $? "$n: NUL made \\x01 gives the same output"
done
cd "$T" || exit 1

# A line of 65535 bytes is fine, one of 65536 is fatal; syntax errors
# read before it are still printed, and no table at all.
{
	echo "BenchmarkBad x 1 ns/op"
	echo "BenchmarkA 1 5 ns/op"
	head -c 65536 /dev/zero | tr '\0' 'x'
	echo
	echo "BenchmarkA 1 6 ns/op"
} > long.txt
"$ABBENCH" stat long.txt > out 2> err
rc=$?
is "$(cat err)" "long.txt:1: parsing iteration count: invalid syntax
benchstat: long.txt:2: bufio.Scanner: token too long" "65536-byte line: error"
is "$(wc -c < out | tr -d ' ')" "0" "65536-byte line: no table"
is "$rc" "0" "65536-byte line: exit 0"
{
	echo "BenchmarkA 1 5 ns/op"
	printf 'x%.0s' $(seq 1 65534)
	echo
} > ok.txt
"$ABBENCH" stat ok.txt > out 2> err
is "$(cat err)" "" "65535-byte line: no error"
grep -q '^A  ' out
ok $? "65535-byte line: the table is printed"

# Standard input: "-" and "lbl=-" read it; a second "-" sees its end.
printf 'BenchmarkA 1 5 ns/op\nBenchmarkA 1 6 ns/op\n' > in.txt
"$ABBENCH" stat - < in.txt > out 2> err
grep -q '│  *- *│' out
ok $? "stdin is labelled '-'"
"$ABBENCH" stat x=- y=- < in.txt > out 2> err
is "$(cat err)" "" "two stdin inputs: no error"
grep -q '│  *x  *│' out && ! grep -q ' y ' out
ok $? "the second stdin input is empty (only column x)"

# A directory: open succeeds, the read fails (as Go reports it).
mkdir dir
"$ABBENCH" stat in.txt dir > out 2> err
rc=$?
is "$(cat err)" "benchstat: dir:0: read dir: is a directory" "directory input"
is "$rc$(wc -c < out | tr -d ' ')" "00" "directory input: exit 0, no output"

# Unreadable file (skipped as root, who can read anything).
if [ "$(id -u)" != 0 ]; then
	cp in.txt secret.txt
	chmod 000 secret.txt
	"$ABBENCH" stat secret.txt > out 2> err
	is "$(cat err)" "benchstat: open secret.txt: permission denied" \
	    "unreadable file"
fi

done_testing
