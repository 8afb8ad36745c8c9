#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 11: an arm without `platform` recorded
# none, so `runsc` (default) against `platform = ptrace` on a
# ptrace-default runsc was an A/A comparison nothing said. Every runsc
# arm's effective platform is a config line, with where it comes from:
# the arm's `platform`, a --platform in its runtime-args, docker's
# daemon.json runtimeArgs for its runtime name, or `runsc flags`' default.
# Two arms written differently that run the same runtime, flags and
# platform get a warning.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
require_root
require_cmd runsc busybox sqlite3
[ -x "$TOUCHMEM" ] || skip_all "no touchmem"
cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
key() { sed -n "s/^$1: //p" "$2"; }
# The binary's own default, as `runsc flags` prints it.
def=$(timeout 10 runsc flags 2>&1 | sed -n \
    '/^ *-platform /{n;s/.*(default "\([a-z]*\)").*/\1/p;}')
[ -n "$def" ] || def=$(timeout 10 runsc flags 2>&1 |
    sed -n 's/^ *-platform .*(default "\([a-z]*\)").*/\1/p')
ok "$(test -n "$def"; echo $?)" "runsc flags names its default ($def)"
lc_rootfs
cat >oci.ini <<EOI
[experiment]
name = t1151
rounds = 1

[arm plain]
runtime = runsc

[arm set]
runtime = runsc
platform = $def

[arm flag]
runtime = runsc
runtime-args = --platform $def

[workload startup]
type = startup
executor = oci
image = $LC_ROOTFS
EOI
"$ABBENCH" run oci.ini --db "$DB" >out 2>&1
ok $? "an oci run of three runsc arms" || diag "$(cat out)"
"$ABBENCH" db export --db "$DB" last >oci.txt
is "$(key platform-plain oci.txt)" "$def (runsc default)" \
    "an arm without platform: runsc's default, said so"
is "$(key platform-set oci.txt)" "$def (arm)" "the arm's platform"
is "$(key platform-flag oci.txt)" "$def (runtime-args)" \
    "a --platform among the runtime-args"
is "$(grep -c "arms 'plain' and 'set' run the same runtime" out)" 1 \
    "runsc against platform = $def (its default): an A/A, warned"
is "$(grep -c "arms 'plain' and 'flag' run the same runtime" out)" 1 \
    "runsc against --platform $def: warned too"
is "$(sqlite3 "$DB" "SELECT count(*) FROM warnings WHERE text LIKE
    '%an A/A comparison%'")" 3 "the warnings are stored with the run"

# Docker's runtimeArgs for a runtime name. A mock: the daemon's own
# daemon.json cannot be changed here (it is shared, and dockerd would
# have to restart); ABBENCH_DOCKER_DAEMON_JSON names a copy to read.
if docker info >/dev/null 2>&1 &&
    docker info --format '{{json .Runtimes}}' | grep -q '"runsc"'; then
	cat >daemon.json <<EOI
{"runtimes": {"runsc": {"path": "$(command -v runsc)",
    "runtimeArgs": ["--network=none", "--platform=$def"]}}}
EOI
	lc_image
	cat >docker.ini <<EOI
[experiment]
name = t1151-docker
rounds = 1

[arm runc]
runtime = runc

[arm runsc]
runtime = runsc

[workload startup]
type = startup
image = $LC_IMAGE
EOI
	ABBENCH_DOCKER_DAEMON_JSON=$TEST_TMP/daemon.json \
	    "$ABBENCH" run docker.ini --db "$DB" --quiet >out 2>&1
	ok $? "a docker run" || diag "$(cat out)"
	"$ABBENCH" db export --db "$DB" last >docker.txt
	is "$(key platform-runsc docker.txt)" \
	    "$def (daemon.json runtimeArgs)" "docker's runtimeArgs"
	is "$(grep -c '^platform-runc:' docker.txt)" 0 "runc: no platform"
else
	for i in 1 2 3; do pass "# SKIP docker with a runsc runtime"; done
fi
done_testing
