#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The crun executor (exec/exec-crun.c, issue 58: a second runtime-level
# executor behind exec_ops.steps), for real. crun refuses every
# container on a hybrid cgroup host (a v1 host whose cgroup2 hierarchy
# holds a controller: this one's holds hugetlb): there the run is
# refused when the file is loaded, exit 2, saying so. The runs themselves
# go in the cgroup v2 guest (scripts/v2-guest: the host's / read-only, so
# the host's crun), one boot: startup under executor = crun, an arm on
# crun (the executor's runtime) and one naming runc, 2 rounds (each
# round's containers made and removed anew), every OCI* row stored for
# both and in 1 ms .. 30 s, the containers of the arm without a runtime
# run by crun, nothing left (cgroups, journal); checkpoint under crun
# refused at load (Debian's crun has no CRIU: no checkpoint step).
# The guest's checks print as diagnostics under one line here.
if [ "${1:-}" = --in-guest ]; then
	# Inside the guest: sh t1105-startup-crun.sh --in-guest ABBENCH SRCDIR
	ABBENCH=$2 ABBENCH_SRCDIR=$3 ABBENCH_BUILDDIR=$(dirname "$2")
	export ABBENCH ABBENCH_SRCDIR ABBENCH_BUILDDIR
fi
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

if [ "${1:-}" = --in-guest ]; then
	R=$TEST_TMP/rootfs DB=$TEST_TMP/t.db
	is "$(stat -f -c %T /sys/fs/cgroup)" cgroup2fs "the guest runs cgroup v2"
	mkdir -p "$R/bin" "$R/proc" "$R/dev" "$R/sys" "$R/tmp" "$R/etc"
	cp "$(command -v busybox)" "$R/bin/busybox"
	for a in sh true; do ln -sf busybox "$R/bin/$a"; done
	cat >"$TEST_TMP/e.ini" <<EOI
[experiment]
name = t1105
rounds = 2

[arm crun]

[arm runc]
runtime = runc

[workload s]
type = startup
image = $R
executor = crun
EOI
	"$ABBENCH" run "$TEST_TMP/e.ini" --db "$DB" --quiet \
	    >"$TEST_TMP/out" 2>&1
	ok $? "startup under executor = crun: the run succeeds" ||
	    sed 's/^/# /' "$TEST_TMP/out"
	for arm in crun runc; do
		n=$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE arm =
		    '$arm' AND status = 'ok' AND benchmark LIKE 'OCI%' AND
		    value BETWEEN 0.001 AND 30")
		is "$n" 8 "arm $arm: OCICreate, OCIStart, OCIDelete, OCITotal x 2 rounds, 1 ms .. 30 s"
	done
	# The containers as journaled: RUNTIME<TAB>ROOT<TAB>ID.
	for rt in crun runc; do
		n=$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE kind =
		    'oci-container' AND target LIKE '$rt	%'")
		is "$n" 2 "2 containers run by $rt (the crun arm names none)"
	done
	is "$(sqlite3 "$DB" "SELECT count(*) FROM journal WHERE state <> 'restored'")" 0 \
	    "every journaled object (crun's containers too) was removed"
	is "$(find /sys/fs/cgroup -type d -name 'abbench-*' | head -3)" "" \
	    "no cgroup of the run left"
	sed 's/^type = startup/type = checkpoint/' "$TEST_TMP/e.ini" \
	    >"$TEST_TMP/c.ini"
	"$ABBENCH" run "$TEST_TMP/c.ini" --db "$DB" >"$TEST_TMP/out" 2>&1
	is "$?" 2 "checkpoint under executor = crun: exit 2 at load"
	like "$(cat "$TEST_TMP/out")" \
	    "c.ini:[0-9]+: executor: 'crun' has no checkpoint step" \
	    "naming file:line:key and the step it lacks"
	done_testing
	exit
fi

. "$ABBENCH_SRCDIR/tests/integration/v2-lib.sh"
require_root
require_cmd crun runc busybox sqlite3

# This host: hybrid, refused at load; otherwise crun may run here.
R=$TEST_TMP/rootfs
mkdir -p "$R"
printf '[experiment]\nname = h\n[arm a]\n[workload s]\ntype = startup\nimage = %s\nexecutor = crun\n' \
    "$R" >"$TEST_TMP/h.ini"
if [ -n "$(tr -d ' \n' </sys/fs/cgroup/unified/cgroup.controllers \
    2>/dev/null)" ]; then
	"$ABBENCH" run "$TEST_TMP/h.ini" --db "$TEST_TMP/h.db" \
	    >"$TEST_TMP/h.out" 2>&1
	is "$?" 2 "a hybrid cgroup host: executor = crun refused, exit 2"
	like "$(cat "$TEST_TMP/h.out")" \
	    "h.ini:[0-9]+: workload 's': crun cannot run on this host: its cgroup2 hierarchy has controllers \([a-z ]+\) beside v1's" \
	    "naming what crun refuses there"
fi

require_v2_guest
v2_guest "$ABBENCH_SRCDIR/tests/integration/t1105-startup-crun.sh" \
    --in-guest "$ABBENCH" "$ABBENCH_SRCDIR" >"$TEST_TMP/g.out" \
    2>"$TEST_TMP/g.err"
rc=$?
sed 's/^/# guest: /' "$TEST_TMP/g.out" "$TEST_TMP/g.err"
[ $rc = 0 ] && grep -q '^1\.\.[1-9]' "$TEST_TMP/g.out" &&
    ! grep -q '^not ok' "$TEST_TMP/g.out"
ok $? "in the cgroup v2 guest: every check passes ($(grep -c '^ok' "$TEST_TMP/g.out") ok, exit $rc)"
done_testing
