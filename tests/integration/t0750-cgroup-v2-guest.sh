#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cgroup v2 for real: the v2 paths run against Debian's 6.1 kernel booted
# under qemu (scripts/v2-guest: cgroup_no_v1=all, the host's / read-only,
# a bfq virtio disk), in one boot: env, the local executor's cgroups from
# a service's cgroup (no internal processes; per sample: a limited cgroup
# removed, a leftover process killed), arm cpu and memory limits,
# delegation checked at load (a controller the parent did not give),
# cpu-steady quotas leaf/parent/none under runc, kill -9 and restore
# (also of a run that moved into <run>/self: its cgroup's subtree_control
# put back),
# fio weights on bfq (io.bfq.weight) and mq-deadline (io.weight), and the
# kernel's refusals said so. The checks are
# tests/integration/v2-guest-checks.sh, printing TAP from inside the
# guest; this test passes their output and status on.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/v2-lib.sh"

require_v2_guest
require_cmd sqlite3 runc fio
start=$(date +%s)
v2_guest "$ABBENCH_SRCDIR/tests/integration/v2-guest-checks.sh" \
    "$ABBENCH" "$ABBENCH_SRCDIR" "$TEST_TMP" >"$TEST_TMP/v2.out" \
    2>"$TEST_TMP/v2.err"
rc=$?
cat "$TEST_TMP/v2.out"
# The guest's time, or when it never ended its console and its last
# picture of what ran (scripts/v2-guest-init's watchdog).
sed 's/^/# /' "$TEST_TMP/v2.err"
echo "# t0750: the guest session took $(( $(date +%s) - start )) s"
if [ $rc = 125 ]; then
	n=$(grep -cE '^(not )?ok' "$TEST_TMP/v2.out")
	echo "not ok $((n + 1)) - the v2 guest ended and reported its status"
	echo "1..$((n + 1))"
	exit 1
fi
exit $rc
