#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cpu-steady under runsc on the real cgroups (v1 here): 2 sandboxes with
# cpu=0.25 as a leaf quota (docker --cpus) and as a parent quota
# (--cgroup-parent below a cgroup made for the sample). Every metric is
# present and plausible, the burner was throttled, and nothing the run
# made is left: no cgroup named after the run in any hierarchy, no
# container labelled with it. Each quota's sample measures 1 s after a
# 0.5 s warm-up (3 s after 1 s before): the quota holds from the start
# and every check is a rate or a count that 1 s shows (10 periods of
# 100 ms, each throttled under 0.25 CPU), with the same bounds.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd runsc sqlite3
require_dockerd runsc
# The programs are bind-mounted: any image will do.
any_image

DB=$TEST_TMP/q.db
cat >"$TEST_TMP/q.ini" <<EOF
[experiment]
name = t0710
rounds = 1
timeout = 3m

[arm runsc]
runtime = runsc

[workload Burn]
type      = cpu-steady
executor  = docker
image     = $IMAGE
program   = burner
sandboxes = 2
quota     = leaf parent
cpu       = 0.25
warmup    = 0.5s
window    = 1s
EOF

"$ABBENCH" run "$TEST_TMP/q.ini" --db "$DB" --quiet >"$TEST_TMP/run.out" 2>&1
ok $? "abbench run of 2 runsc sandboxes, leaf and parent quotas" ||
    diag "$(cat "$TEST_TMP/run.out")"
"$ABBENCH" db export --db "$DB" 1 >"$TEST_TMP/export" 2>&1
ok $? "export"

val() {	# val NAME UNIT
	awk -v n="Benchmark$1" -v u="$2" '$1 == n {
	    for (i = 3; i < NF; i += 2) if ($(i + 1) == u) print $i }' \
	    "$TEST_TMP/export"
}
gt() {	# gt VALUE LIMIT
	awk -v v="$1" -v l="$2" 'BEGIN { exit !(v != "" && v + 0 > l + 0) }'
}

for q in leaf parent; do
	n=Burner/vcpus=$(nproc)/sandboxes=2/cpu=0.25/quota=$q
	for u in overhead/app-cpu host-ctxsw/s work/s app-cpus sandbox-cpus \
	    throttled-periods throttled-sec; do
		v=$(val "$n" "$u")
		[ -n "$v" ]
		ok $? "$q: $u present ($v)"
	done
	gt "$(val "$n" work/s)" 0; ok $? "$q: work/s > 0"
	o=$(val "$n" overhead/app-cpu)
	gt "$o" 0 && ! gt "$o" 5; ok $? "$q: 0 < overhead/app-cpu < 5 ($o)" ||
	    diag "$(grep "quota=$q" "$TEST_TMP/run.out")"
	gt "$(val "$n" host-ctxsw/s)" 100; ok $? "$q: host-ctxsw/s > 100"
	gt "$(val "$n" throttled-periods)" 0
	ok $? "$q: the burner was throttled ($(val "$n" throttled-periods))"
	# 2 x 0.25 CPU at most, give or take the sandbox's own overhead.
	c=$(val "$n" sandbox-cpus)
	gt "$c" 0.05 && ! gt "$c" 0.6
	ok $? "$q: sandbox-cpus within the quota ($c)"
done

uuid=$(sqlite3 "$DB" "select uuid from runs")
short=$(echo "$uuid" | cut -c1-8)
[ -n "$short" ]; ok $? "run uuid ($short)"
left=$(find /sys/fs/cgroup -maxdepth 4 -type d -name "abbench-$short*" \
    2>/dev/null)
[ -z "$left" ]; ok $? "no cgroup of the run is left${left:+: $left}"
c=$(docker ps -aq --filter "label=abbench.run=$uuid")
[ -z "$c" ]; ok $? "no container of the run is left"
done_testing
