#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A real A/A series: 30 nights of `abbench nightly` into one database, the
# same cheap command every night (a shell loop on this machine, with
# whatever load the machine has), nothing changed: its wall time (noisy
# under load) and its CPU time (cpu: user + sys). Every alarm (exit 1, or
# a line regressed or improved) is a false one, and is counted and shown.
#
# The nights are seconds apart, not a day: consecutive nights share the
# machine's state of the moment, and the machine does change speed for
# seconds at a time. A clean-clone check (2026-12-07, three other qemu
# guests on the machine) saw the same loop take +63-70% more wall and
# user time on nights 14, 16, 18, 24 and 26, each night's 8 samples tight
# (z = +15 to +26): 5 alarms, each a real change of what was measured. At
# load 3 (15:17 UTC) the loop's user time drifted 2.8 -> 2.58 ms over 8
# nights and the two-night test called -5.9% on it. A benchmark measured
# alone cannot tell a slower machine from a regression; so, as a nightly
# job on a shared machine should be, the loop is judged against a control
# arm (`control = ...`: the same loop, interleaved with it in every
# round), on its ratio to it night by night. Measured the same way at
# load 3.7, 30 nights: the ratio's night-to-night spread was 11.3% of its
# level for wall time (18.4% alone) and 1.5% for user time (3.0% alone);
# the control's own series had a change at night 29 (+6.1%) that did not
# reach the ratio. Two runs of this test at load 1.3-2.5 (16:03 UTC):
# the control saw 3 and 6 changes of the machine, the ratios none.
# The loop's user time is no measure here: the kernel splits a process's
# CPU time between user and system by which of them its clock ticks (4 ms
# apart at HZ 250) fell in, so a 3 ms program's user time is its whole
# CPU time or 0 (beside 3 CPU burners, 16:04 UTC, the median of one
# night's user times fell to a quarter of the control's). cpu, user +
# sys, is exact to the ns: the test measures it.
#
# The rule's rate over generated years (t-nightly-sim) is 0.2-0.5 a
# series-year: 60 series-nights expect 0.1. Up to 2 alarms pass, 3 or
# more fail (under 0.1% at one alarm in 360 series-nights). The control's
# own lines (the machine's changes) are printed as `control` and are
# neither alarms nor counted here.
# (The peak RSS of the same loop is bimodal here, 1.43 or 1.60 MB: the
# median of 8 runs jumps between the modes, one alarm in 90 series-nights;
# such a metric needs more rounds a night.)
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

db=$TEST_TMP/aa.db
cat > "$TEST_TMP/aa.ini" <<'EOF2'
[experiment]
name = aa
rounds = 8
control = control

[arm main]
args = sh -c "i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done"

[arm control]
args = sh -c "i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done"

[workload Loop]
type = command
report = time cpu
EOF2

alarms=0
changes=0
errors=0
judged=0
machine=0
night=1
while [ "$night" -le 30 ]; do
	out=$("$ABBENCH" nightly "$TEST_TMP/aa.ini" --db "$db" --quiet \
	    2>"$TEST_TMP/err")
	rc=$?
	case $rc in
	2) errors=$((errors + 1)); diag "night $night: $(cat "$TEST_TMP/err")" ;;
	esac
	if [ "$rc" -eq 1 ] || printf '%s\n' "$out" | grep -Eq '^(regressed|improved)'; then
		alarms=$((alarms + 1))
		diag "false alarm on night $night: $out"
	fi
	# The judged series' lines (the control's are the machine's).
	main=$(printf '%s\n' "$out" | grep -v '^control ')
	printf '%s\n' "$main" | grep -Eq ' vs [0-9]+ nights?, (night|two-night) test' &&
	    judged=$((judged + 1))
	changes=$((changes + $(printf '%s\n' "$main" | grep -c 'new change')))
	machine=$((machine + $(printf '%s\n' "$out" | grep '^control ' | grep -c 'new change')))
	printf '%s\n' "$out" >> "$TEST_TMP/verdicts"
	night=$((night + 1))
done
diag "30 A/A nights of 2 series: $judged nights judged, $alarms false alarms, $changes changes of any size found; the control (the machine) had $machine"
diag "verdicts: $(sed 's/ (too noisy.*//; s/  .*//' "$TEST_TMP/verdicts" | sort | uniq -c | tr -s ' \n' ' ;')"
diag "last night: $(tail -n 3 "$TEST_TMP/verdicts")"
is "$errors" 0 "30 nights ran and were judged without an error"
ok "$([ "$judged" -ge 20 ]; echo $?)" "at least 20 of the nights were judged against earlier ones ($judged)"
ok "$([ "$alarms" -le 2 ]; echo $?)" "at most 2 false alarms in 30 A/A nights of 2 series ($alarms)"
# The same nights' change points (abbench history) of the judged series
# (the ratios): every one is false.
# 3 runs by hand (2026-12-07, load 15-18): none in 180 series-nights.
if command -v python3 >/dev/null 2>&1; then
	cps=$("$ABBENCH" history --db "$db" last --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
judged = [s for s in d["series"] if not s["control"]]
print(sum(len(s["change_points"]) for s in judged))
for s in judged:
    for c in s["change_points"]:
        print("%s %s: night %d %+.1f%% p=%.2g" % (s["benchmark"], s["unit"],
              c["night"], 100 * c["rel"], c["p"]), file=sys.stderr)
' 2>"$TEST_TMP/cps")
	[ -s "$TEST_TMP/cps" ] && diag "change points: $(cat "$TEST_TMP/cps")"
	ok "$([ "${cps:-99}" -le 2 ]; echo $?)" "at most 2 false change points in the history of 30 A/A nights of 2 series (${cps:-none})"
else
	diag "no python3: the change points are not counted"
fi
js=$("$ABBENCH" nightly --no-run last --db "$db" --json --quiet)
like "$js" '"reference_nights": [0-9]+' "--json: the reference's nights"
done_testing
