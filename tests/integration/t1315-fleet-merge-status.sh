#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fleet status shows the merge job and Slurm's state of it (issue #53: a
# cancelled merge job was printed as "merge job N -> DIR/fleet.db", as if
# it would still merge). On the real local Slurm: a shape held running,
# the merge job pending on it (Dependency, once Slurm has judged it);
# after fleet cancel both are
# CANCELLED, and status says so for the merge job too.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm

HOLD=$TEST_TMP/hold
touch "$HOLD"
EXP=$TEST_TMP/merge.ini
# Each sample waits while the hold file exists (at most 120 s).
cat >"$EXP" <<INI
[experiment]
name = t1315-merge
rounds = 3

[arm a]
args = /bin/sh -c "i=0; while [ -e $HOLD ] && [ \$i -lt 1200 ]; do sleep 0.1; i=\$((i + 1)); done"

[workload Cmd]
type = command
INI

out=$("$ABBENCH" fleet submit "$EXP" --partitions c2 --dir "$SHARED")
is "$?" 0 "fleet submit"
ID=$(fleet_id "$out")
FDIR=$SHARED/$ID
M=$(printf '%s\n' "$out" | sed -n 's/^merge job \([0-9]*\).*/\1/p')
like "$M" '^[0-9]+$' "the merge job's id ($M)"

merge_line() {
	"$ABBENCH" fleet status "$FDIR" 2>/dev/null | grep '^  merge job '
}
merge_state_is() {	# merge_state_is STATE: status shows it
	merge_line | grep -q "^  merge job $M $1\\b"
}
wait_for 60 merge_state_is PENDING
ok $? "status: the merge job is PENDING while the shape runs" ||
    diag "$(merge_line)"
# Slurm's reason for a job just submitted is not yet its dependency's:
# for a moment it says Resources (8 dependent jobs submitted by hand
# behind a running one, 17:23 UTC: 5 read Resources at once, all 8
# Dependency 0.3 s later; the clean-clone check read status 76 ms after
# the submission and saw Resources). The reason status prints is
# Slurm's: compared once Slurm has judged the dependency.
slurm_reason_is() {
	[ "$(squeue -h -t all -j "$M" -o %r 2>/dev/null)" = "$1" ]
}
wait_for 30 slurm_reason_is Dependency
ok $? "Slurm: the merge job waits on its dependency" ||
    diag "$(scontrol show job -o "$M" 2>&1)"
like "$(merge_line)" "^  merge job $M PENDING \\(Dependency\\) -> $FDIR/fleet.db\$" \
    "with Slurm's reason and where it merges"

"$ABBENCH" fleet cancel -q "$FDIR"
is "$?" 0 "fleet cancel"
wait_for 60 merge_state_is CANCELLED
ok $? "status: the merge job is CANCELLED" || diag "$(merge_line)"
is "$(squeue -h -t all -j "$M" -o %T 2>/dev/null)" CANCELLED \
    "(as Slurm says)"
shape_cancelled() {
	"$ABBENCH" fleet status "$FDIR" 2>/dev/null |
	    grep -q '^  c2/1 .* CANCELLED '
}
# A running shape may be COMPLETING a moment longer than its merge job.
wait_for 60 shape_cancelled
ok $? "and the shape is CANCELLED" ||
    diag "$("$ABBENCH" fleet status "$FDIR" 2>&1)"
rm -f "$HOLD"
done_testing
