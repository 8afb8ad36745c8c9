#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 9 (the brief's 8): run 3 printed MDE 71.6%
# at its end; after a later `calibrate`, `power 3` and `report 3` said
# 107%. A stored run's MDE comes from what was there when it ran: the
# latest calibration made before it (none here: its own baseline arm),
# not one made later, which power names ("made after this run") and
# takes only when asked (--latest-calibration).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1
db=$TEST_TMP/c.db
printf '[experiment]\nname = aa\nrounds = 6\norder = alternate\n\n[arm base]\n[arm other]\n\n[workload True]\ntype = command\nargs = /bin/true\n' >aa.ini
"$ABBENCH" run aa.ini --db "$db" --quiet >out 2>&1
ok $? "a run, no calibration yet" || diag "$(cat out)"
before=$("$ABBENCH" power --db "$db" 1 2>&1)
like "$before" "^noise: from the run's baseline arm 'base'" \
    "power: the run's own noise"
"$ABBENCH" calibrate aa.ini --db "$db" --repeats 2 --quiet >out 2>&1
rc=$?
ok "$([ "$rc" = 0 ] || [ "$rc" = 1 ]; echo $?)" "a calibration after the run ($rc)"
after=$("$ABBENCH" power --db "$db" 1 2>&1)
is "$(printf '%s\n' "$after" | grep -v '^noise: not from')" "$before" \
    "power of the run after the calibration: the same numbers"
like "$after" "^noise: not from calibration run 2, made after this run \\(--latest-calibration uses it\\)" \
    "and it names the later calibration it did not use"
is "$("$ABBENCH" power --db "$db" 1 --json | python3 -c 'import json, sys
print(json.load(sys.stdin)["noise"].get("later_calibration_run"))')" 2 \
    "power --json names it too"
like "$("$ABBENCH" power --db "$db" 1 --latest-calibration 2>&1)" \
    "^noise: from calibration run 2 of 'aa'" "--latest-calibration takes it"
"$ABBENCH" run aa.ini --db "$db" --quiet >out 2>&1
ok $? "a run after the calibration"
like "$("$ABBENCH" power --db "$db" 3 2>&1)" \
    "^noise: from calibration run 2 of 'aa'" \
    "a run after the calibration uses it"
done_testing
