#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# abbench plot: gnuplot fed a script on stdin draws, per benchmark and unit,
# the samples of each arm and the samples in run order, and per matrix the
# grouped bars of the change per combination; every file is a valid PNG or
# SVG; a failing gnuplot is an error (exit 1) that names it.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd gnuplot

db=$TEST_TMP/m.db
# A matrix Fio/bs=X/fs=Y in two files (arms), 6 values each, plus a name
# that needs sanitizing.
for arm in before after; do
	f=1; [ $arm = after ] && f=13
	{
		echo "pkg: plot test"
		for bs in 4k 64k; do
			for fs in rootfs tmpfs; do
				for i in 1 2 3 4 5 6; do
					echo "BenchmarkFio/bs=$bs/fs=$fs 1 $((40000 + 100 * i + 1000 * f)) iops"
				done
			done
		done
		for i in 1 2 3 4 5 6; do
			echo "BenchmarkOdd/x=a:b*c 1 0.00$((10 + i * f)) sec/op"
		done
	} > "$TEST_TMP/$arm.txt"
done
"$ABBENCH" db import --db "$db" before="$TEST_TMP/before.txt" \
    after="$TEST_TMP/after.txt" \
    >/dev/null
ok $? "a matrix imports"

out=$("$ABBENCH" plot --db "$db" last -o "$TEST_TMP/png")
is "$?" 0 "plot exits 0 (gnuplot exited 0 for every plot)"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 6 \
    "5 benchmarks x samples + 1 matrix = 6 files (an import has no times)"
bad=0
for f in $out; do
	[ -f "$f" ] || { bad=1; diag "missing $f"; continue; }
	sig=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || { bad=1; diag "not a PNG: $f"; }
done
is "$bad" 0 "every file exists and starts with the PNG signature"
like "$out" "/Fio\.iops\.matrix\.png" "the matrix plot is drawn"
like "$out" "/Fio_bs-4k_fs-rootfs\.iops\.samples\.png" \
    "file names are sanitized from benchmark and unit"
is "$(printf '%s\n' "$out" | grep -c '[:*]')" 0 "no ':' or '*' in file names"

out=$("$ABBENCH" plot --db "$db" last -o "$TEST_TMP/svg" --format svg)
is "$?" 0 "plot --format svg exits 0"
bad=0
for f in $out; do
	head -c 5 "$f" | grep -q '<?xml' || { bad=1; diag "no xml: $f"; }
	tail -c 8 "$f" | grep -q '</svg>' || { bad=1; diag "no end: $f"; }
done
is "$bad" 0 "every SVG is a complete document"
m=$TEST_TMP/svg/Fio.iops.matrix.svg
file_like "$m" "Fio matrix, change vs before \(iops\) - host [^,]+, run 1 import" \
    "the matrix title names benchmark, unit, host and run"
file_like "$m" "bs=64k/fs=tmpfs" "the matrix has a bar per combination"
file_like "$m" "after vs before" "the matrix bars are the arm against the baseline"
s=$TEST_TMP/svg/Odd_x-a_b_c.sec_op.samples.svg
file_like "$s" ">msec/op<" "the axis carries benchstat's scaling (msec/op)"
file_like "$s" "median, 95% CI" "the samples plot shows the median and CI"

# A gnuplot that fails: exit 1, named in the message.
"$ABBENCH" plot --db "$db" last -o "$TEST_TMP/bad" --gnuplot false \
    >/dev/null 2>"$TEST_TMP/err"
is "$?" 1 "a failing gnuplot exits 1"
like "$(cat "$TEST_TMP/err")" "gnuplot exited 1" "the message names gnuplot's status"
# One gnuplot draws every plot; a plot it cannot draw (here: gnuplot fails
# on any script that draws Odd) does not stop the others, drawn each alone.
mkdir -p "$TEST_TMP/gpodd"
cat > "$TEST_TMP/gpodd/gnuplot" <<EOG
#!/bin/sh
f=\$(mktemp "$TEST_TMP/gpodd/s.XXXXXX")
cat > "\$f"
grep -q 'Odd_x' "\$f" && { echo "cannot draw Odd" >&2; exit 1; }
exec "$(command -v gnuplot)" < "\$f"
EOG
chmod +x "$TEST_TMP/gpodd/gnuplot"
out=$("$ABBENCH" plot --db "$db" last -o "$TEST_TMP/odd" --format svg \
    --gnuplot "$TEST_TMP/gpodd/gnuplot" 2>"$TEST_TMP/err")
is "$?" 1 "one plot gnuplot cannot draw: exit 1"
like "$(cat "$TEST_TMP/err")" "1 plot could not be drawn \(5 drawn\).*Odd_x" \
    "the message names it and counts the others"
is "$(printf '%s\n' "$out" | grep -c 'svg$')" 5 "the 5 others are listed"
ok "$([ ! -e "$TEST_TMP/odd/Odd_x-a_b_c.sec_op.samples.svg" ]; echo $?)" \
    "and the one it could not draw is not left behind"
is "$(ls "$TEST_TMP/gpodd"/s.* | wc -l | tr -d ' ')" 7 \
    "gnuplot ran once for all 6, then once for each alone"
"$ABBENCH" plot --db "$db" 99 -o "$TEST_TMP/x" >/dev/null 2>&1
is "$?" 2 "an unknown run exits 2"
"$ABBENCH" plot --db "$db" last --format gif >/dev/null 2>&1
is "$?" 2 "an unknown format exits 2"

# A real run: samples in run order from the stored start times.
exp=$TEST_TMP/ab.ini
fast_slow_exp "$exp" plotab 4
if "$ABBENCH" run "$exp" --db "$TEST_TMP/r.db" --quiet >/dev/null 2>&1; then
	out=$("$ABBENCH" plot --db "$TEST_TMP/r.db" last -o "$TEST_TMP/r" \
	    --format svg)
	is "$?" 0 "a real run plots"
	is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 2 \
	    "a real run: samples and time plots"
	# Cmd-N: the benchmark carries the host's CPUs as Go's -GOMAXPROCS
	# suffix (none when there is one).
	t=$TEST_TMP/r/Cmd.sec_op.time.svg
	[ "$(nproc)" -gt 1 ] && t=$TEST_TMP/r/Cmd-$(nproc).sec_op.time.svg
	file_like "$t" "seconds into the run" \
	    "the time plot's axis is the run's time"
else
	fail "abbench run of a command experiment"
fi

done_testing
