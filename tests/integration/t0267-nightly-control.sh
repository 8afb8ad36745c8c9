#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A nightly control arm ([experiment] control = ARM): every other arm is
# judged on its ratio to the control, night by night, so a night on which
# the machine is slower for both arms is no change, and a change in one arm
# alone still is. Two experiments run every night on the same program:
# `ctl` names the control arm `ref`, `plain` does not.
#
#   nights 1-6   both arms at their level
#   night 7      the machine 60% slower for both arms (a MOCK of a slower
#                night: both programs are told to report 1.6x; a real
#                machine's slowdown cannot be ordered here on demand)
#   nights 8-9   back
#   night 10     `head` alone 30% slower (a regression), and after it
#
# `plain` alarms on night 7 (the machine, read as a regression: what the
# control is for) and on night 10; `ctl` alarms on night 10 only, its
# line says `ratio to ref`, and the control's own rows are printed as
# `control` and fail nothing. Then --json and abbench history name the
# ratio and the control, calibrate takes the experiment (its A/A copy has
# no control), and a control that names no arm, or the only arm, is an
# input error naming file, line and key.
#
# The values are a fixed function of the arm, night and round (a gobench
# program reading the night from a file), as in t0265: the noise written
# down, not measured, so the test cannot flake.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd awk
require_cmd python3

cat > "$TEST_TMP/bench.sh" <<'EOF2'
# bench.sh NIGHTFILE ROUND: one gobench line for $ARM this night and round.
n=$(cat "$1")
awk -v n="$n" -v r="$2" -v arm="$ARM" 'BEGIN {
	# Night-to-night variation (+-0.45%), round-to-round noise (+-2%).
	v = 1000 * (1 + ((n * 37) % 7 - 3) * 0.0015)
	v *= 1 + ((r * 13 + n * 5 + (arm == "head")) % 9 - 4) * 0.005
	if (n == 7)
		v *= 1.6
	if (arm == "head" && n >= 10)
		v *= 1.3
	printf "BenchmarkParse 1 %.1f ns/op\n", v
}'
EOF2
for name in ctl plain; do
	{
		printf '[experiment]\nname = %s\nrounds = 8\n' "$name"
		[ "$name" = ctl ] && printf 'control = ref\n'
		printf '\n[arm ref]\nenv.ARM = ref\n\n[arm head]\nenv.ARM = head\n'
		printf '\n[workload Parse]\ntype = gobench\n'
		printf 'args = sh %s/bench.sh %s/night {round}\n' "$TEST_TMP" \
		    "$TEST_TMP"
	} > "$TEST_TMP/$name.ini"
done

ctl_alarms=""
plain_alarms=""
ctl_errors=0
night=1
while [ "$night" -le 12 ]; do
	echo "$night" > "$TEST_TMP/night"
	for name in ctl plain; do
		out=$("$ABBENCH" nightly "$TEST_TMP/$name.ini" \
		    --db "$TEST_TMP/$name.db" --quiet --threshold 3 \
		    2>"$TEST_TMP/err")
		rc=$?
		printf '%s\n' "$out" > "$TEST_TMP/$name-$night.out"
		diag "$name night $night (exit $rc): $out"
		[ "$rc" -eq 2 ] && diag "$(cat "$TEST_TMP/err")"
		if [ "$rc" -ne 0 ]; then
			[ "$name" = ctl ] && ctl_alarms="$ctl_alarms $night"
			[ "$name" = plain ] && plain_alarms="$plain_alarms $night"
		fi
		[ "$rc" -eq 2 ] && ctl_errors=$((ctl_errors + 1))
	done
	night=$((night + 1))
done
is "$ctl_errors" 0 "every night of both experiments ran without an error"
is "$plain_alarms" " 7 10" "without a control: alarms on the machine's night 7 and on night 10"
is "$ctl_alarms" " 10" "with the control: one alarm, on head's night 10; none on the machine's night 7"
file_like "$TEST_TMP/plain-7.out" '^regressed +head:Parse +sec/op +new change at night 7' \
    "without a control the machine's night reads as head regressed"
file_like "$TEST_TMP/ctl-7.out" '^control +ref:Parse +sec/op .*new change at night 7' \
    "with it, the control's row shows the machine's change, as control"
file_like "$TEST_TMP/ctl-7.out" '^(unchanged|inconclusive.*) +head:Parse +sec/op +ratio to ref: ' \
    "and head, judged on its ratio to ref, is not a change on night 7"
# Its ratio moved by its own noise only (+-2% a round), not by the 60%.
d7=$(sed -n 's/^.* head:Parse .*; \([-+][0-9.]*\)% vs [0-9]* nights.*/\1/p' "$TEST_TMP/ctl-7.out")
ok "$(echo "$d7" | awk 'NF == 1 && $1 > -3 && $1 < 3 { good = 1 } END { exit !good }'; echo $?)" \
    "head's ratio to ref on night 7 is within 3% of its reference ($d7%)"
file_like "$TEST_TMP/ctl-10.out" '^regressed +head:Parse +sec/op +ratio to ref: new change at night 10 \(run 10\): \+(29|30|31)\.[0-9]+%' \
    "head's own regression on night 10: regressed, ratio to ref, +30%"
file_like "$TEST_TMP/ctl-11.out" 'head:Parse +sec/op +ratio to ref: .*known change at night 10' \
    "night 11: head's change is known, no second alarm"

js=$("$ABBENCH" nightly --no-run last --db "$TEST_TMP/ctl.db" --json --quiet)
printf '%s' "$js" > "$TEST_TMP/n.json"
sums=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["arm"]: r for r in d["rows"]}
print(d["control"], rows["ref"]["verdict"], rows["ref"]["ratio_to_control"],
      rows["head"]["ratio_to_control"], d["regressed"] + d["improved"])
' "$TEST_TMP/n.json")
is "$sums" "ref control False True 0" "--json: the control, its row's verdict, which row is a ratio; the control is counted in no verdict"

hj=$("$ABBENCH" history --db "$TEST_TMP/ctl.db" last --json)
printf '%s' "$hj" > "$TEST_TMP/h.json"
hs=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for s in sorted(d["series"], key=lambda s: s["arm"]):
    m = [n["median"] for n in s["nights"]]
    print(s["arm"], s["ratio_to"], s["control"], len(s["alarms"]),
          "%.1f" % (m[9] / m[5]))
' "$TEST_TMP/h.json" | tr '\n' ';')
is "$hs" "head ref False 1 1.3;ref None True 0 1.0;" "history: head's series is its ratio to ref (night 10 at 1.3 of night 6) with its one alarm; ref's is the control's, with none"
"$ABBENCH" history --db "$TEST_TMP/ctl.db" last -o "$TEST_TMP/h.html" \
    >/dev/null 2>"$TEST_TMP/err"
file_like "$TEST_TMP/h.html" 'sec/op &divide; ref' "the history page says the ratio"

out=$("$ABBENCH" calibrate "$TEST_TMP/ctl.ini" --db "$TEST_TMP/cal.db" \
    --repeats 2 --rounds 4 --quiet 2>&1)
rc=$?
[ "$rc" -eq 0 ] || diag "$out"
is "$rc" 0 "calibrate takes an experiment with a control (its A/A copy has none)"

# Input errors, each refused before anything is stored: the file, the
# line and the key named, exit 2.
while IFS='|' read -r cmd file head want what; do
	second=
	[ "$file" = two ] && second='[arm head]\n'
	printf '[experiment]\n%b\n[arm ref]\n%b[workload Parse]\ntype = gobench\nargs = true\n' \
	    "$head" "$second" > "$TEST_TMP/$file.ini"
	out=$("$ABBENCH" "$cmd" "$TEST_TMP/$file.ini" --db "$TEST_TMP/bad.db" 2>&1)
	rc=$?
	is "$rc" 2 "$what: exit 2"
	like "$out" "$file.ini:$want" "$what: file, line and key named"
done <<'EOF2'
nightly|two|name = bad\ncontrol = nosuch|3: control: no arm is named 'nosuch'|a control naming no arm
run|one|name = one\n\ncontrol = ref|4: control: the control arm 'ref' is the only arm|a control that is the only arm
EOF2
[ ! -e "$TEST_TMP/bad.db" ] ||
    is "$("$ABBENCH" db ls --db "$TEST_TMP/bad.db" | grep -c -e bad -e one)" 0 \
    "nothing stored for the refused files"
done_testing
