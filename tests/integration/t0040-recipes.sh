#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0040-recipes: the scaled-down recipes in the headers of experiments/
# still do what they say (docs/recipes.md records them run). A header's
# recipe of the form
#
#   sed -e 'EXPR' [-e 'EXPR' ...] experiments/NAME.ini >FILE
#
# (continued over lines ending in a backslash) must name an existing file,
# and each of its expressions must change a line of the experiment itself,
# not only of its comments: an expression that no longer matches (a key
# respaced, an arm renamed) would leave the full-size experiment running
# where the header promises a quick one. bfq-fio-matrix's quick recipe
# keeps exactly the 16 bindfs workloads of the 48 (they are the first 16
# sections), each at 16 MiB.
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

cd "$ABBENCH_SRCDIR" || exit 1

# The sed recipes of a header, one per line (continuations joined).
header_seds() {
	awk '!/^;/ { exit }
	{
		sub(/^;[ \t]*/, "")
		if (cont != "") { $0 = cont " " $0; cont = "" }
		if (/\\$/) { sub(/[ \t]*\\$/, ""); cont = $0; next }
		if (/^sed / && /experiments\//) print
	}' "$1"
}

# The single-quoted expressions of a sed command line, one per line.
sed_exprs() {
	printf '%s\n' "$1" | grep -o "\-e '[^']*'" | sed -e "s/^-e '//" -e "s/'\$//"
}

# The experiment without its comments.
body() {
	grep -v '^;' "$1"
}

nrecipes=0
for f in experiments/*.ini; do
	name=$(basename "$f" .ini)
	header_seds "$f" >"$TEST_TMP/recipes"
	while IFS= read -r cmd; do
		nrecipes=$((nrecipes + 1))
		src=$(printf '%s\n' "$cmd" | grep -o 'experiments/[A-Za-z0-9_.-]*\.ini' | head -n 1)
		test -f "$src"
		ok $? "$name: the recipe's input $src exists"
		sed_exprs "$cmd" >"$TEST_TMP/exprs"
		test -s "$TEST_TMP/exprs"
		ok $? "$name: the recipe has -e expressions"
		while IFS= read -r e; do
			body "$src" >"$TEST_TMP/before"
			sed -e "$e" "$TEST_TMP/before" >"$TEST_TMP/after" 2>"$TEST_TMP/err"
			rc=$?
			if [ $rc -eq 0 ] && ! cmp -s "$TEST_TMP/before" "$TEST_TMP/after"; then
				pass "$name: sed -e '$e' changes the experiment"
			else
				fail "$name: sed -e '$e' changes the experiment"
				diag "sed exit $rc: $(cat "$TEST_TMP/err")"
			fi
		done <"$TEST_TMP/exprs"
	done <"$TEST_TMP/recipes"
done
# Seven headers carry one (bfq-fio-matrix, bfq-concurrent-fio,
# gofer-memory, idle-container-memory, docker-run-startup,
# checkpoint-restore, quota-steady-state): fewer means the extraction broke.
[ "$nrecipes" -ge 7 ]
ok $? "found the headers' sed recipes ($nrecipes)"

# bfq-fio-matrix's quick version, applied as the header writes it.
f=experiments/bfq-fio-matrix.ini
cmd=$(header_seds "$f" | head -n 1)
set --
while IFS= read -r e; do
	set -- "$@" -e "$e"
done <<EOF
$(sed_exprs "$cmd")
EOF
sed "$@" "$f" >"$TEST_TMP/quick.ini"
is "$(grep -c '^\[workload ' "$TEST_TMP/quick.ini")" 16 \
    "bfq-fio-matrix quick: 16 workloads"
is "$(grep '^benchmark' "$TEST_TMP/quick.ini" | grep -vc 'filesystem\.bindfs$')" 0 \
    "bfq-fio-matrix quick: every workload is a bindfs one"
grep '^benchmark' "$f" | grep 'filesystem\.bindfs$' >"$TEST_TMP/all-bindfs"
grep '^benchmark' "$TEST_TMP/quick.ini" >"$TEST_TMP/quick-bench"
cmp -s "$TEST_TMP/all-bindfs" "$TEST_TMP/quick-bench"
ok $? "bfq-fio-matrix quick: exactly the full file's bindfs rows, in order"
is "$(grep '^size' "$TEST_TMP/quick.ini" | sort -u)" "size = 16m" \
    "bfq-fio-matrix quick: 16 MiB per job"
done_testing
