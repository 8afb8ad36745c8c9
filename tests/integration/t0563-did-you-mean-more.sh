#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 13: no "did you mean" for an unknown section
# ([arms x]), a bad flag value (--until decide), an unknown arm in RUN:ARM
# (stat, db export), or an image that is not there (image =
# abbench/toolz: the images there are, docker's and build-image's rootfs
# directories for executor oci).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
cd "$TEST_TMP" || exit 1

cat >sect.ini <<EOI
[experiment]
name = t0563
[arms x]
EOI
"$ABBENCH" run sect.ini >out 2>&1
is "$?" 2 "an unknown section: exit 2"
like "$(cat out)" "sect.ini:3: unknown section \[arms x\].*; did you mean '\[arm x\]'\?" \
    "[arms x]: did you mean [arm x]"

cat >cmd.ini <<EOI
[experiment]
name = t0563
rounds = 2
[arm base]
args = true
[arm next]
args = true
[workload w]
type = command
EOI
"$ABBENCH" run cmd.ini --until decide --db t.db >out 2>&1
is "$?" 2 "--until decide: exit 2"
like "$(cat out)" "'decide' is not one of: rounds decided; did you mean 'decided'\?" \
    "--until decide: did you mean decided"
"$ABBENCH" run cmd.ini --db t.db --quiet >out 2>&1
ok $? "a run to select from" || diag "$(cat out)"
"$ABBENCH" stat --db t.db last:nxet >out 2>&1
is "$?" 2 "stat RUN:ARM of no arm: exit 2"
like "$(cat out)" "has no arm 'nxet' \(its arms: base, next\); did you mean 'next'\?" \
    "stat RUN:ARM: the run's arms, and the nearest"
"$ABBENCH" db export --db t.db --arm bsae last >out 2>&1
like "$(cat out)" "has no arm 'bsae' \(its arms: base, next\); did you mean 'base'\?" \
    "db export --arm: the same"

# Executor oci: build-image's images whose rootfs is there (a directory
# of images of this test's own: ABBENCH_IMAGE_DIR).
if [ "$(id -u)" = 0 ] && command -v runc >/dev/null; then
	mkdir -p img/current img/redis-current
	cat >oci.ini <<EOI
[experiment]
name = t0563-oci
rounds = 1
[arm a]
[arm b]
[workload w]
type = startup
executor = oci
image = abbench/toolz
EOI
	ABBENCH_IMAGE_DIR=$TEST_TMP/img ABBENCH_ROOTFS= \
	    "$ABBENCH" run oci.ini --db t.db >out 2>&1
	is "$?" 2 "oci, no such image: exit 2"
	like "$(cat out)" "not found: build it with .*; did you mean 'abbench/tools'\?" \
	    "oci image = abbench/toolz: did you mean abbench/tools"
	sed -i 's/toolz/rdis/' oci.ini
	ABBENCH_IMAGE_DIR=$TEST_TMP/img ABBENCH_ROOTFS= \
	    "$ABBENCH" run oci.ini --db t.db >out 2>&1
	like "$(cat out)" "; did you mean 'abbench/redis'\?" \
	    "oci: any image of build-image's that is there"
else
	for i in 1 2 3; do pass "# SKIP oci needs root and runc"; done
fi

# Docker: the project's images the daemon has (one of this test's own).
if [ "$(id -u)" = 0 ] && command -v busybox >/dev/null &&
    docker info >/dev/null 2>&1 && [ -x "$TOUCHMEM" ]; then
	lc_image
	cat >dk.ini <<EOI
[experiment]
name = t0563-docker
rounds = 1
[arm a]
[arm b]
[workload w]
type = startup
image = abbench/lc-tset
EOI
	"$ABBENCH" run dk.ini --db t.db >out 2>&1
	is "$?" 2 "docker, no such image: exit 2"
	like "$(cat out)" "docker image 'abbench/lc-tset' not found.*; did you mean 'abbench/lc-test'\?" \
	    "docker: did you mean the image that is there"
else
	for i in 1 2; do pass "# SKIP docker needs root, busybox, a daemon"; done
fi
done_testing
