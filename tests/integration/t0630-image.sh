#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scripts/build-image from scratch (a private image repository and rootfs
# directory, no network): it succeeds, is idempotent, and the image runs
# `fio --version` under runc and runsc; the rootfs runs it with the oci
# executor's runtimes too.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd fio busybox runc runsc
require_dockerd
plan 9

repo=abbench-test/tools$$
export ABBENCH_IMAGE_REPO=$repo ABBENCH_IMAGE_DIR=$TEST_TMP/images
cleanup_images() {
	for t in $(docker images --format '{{.Repository}}:{{.Tag}}' "$repo"); do
		timeout 60 docker rmi -f "$t" >/dev/null 2>&1
	done
	lib_cleanup
}
trap cleanup_images EXIT

out=$(unshare -n "$ABBENCH_SRCDIR/scripts/build-image" --print 2>&1 ||
    "$ABBENCH_SRCDIR/scripts/build-image" --print 2>&1)
ok $? "build-image succeeds"
tag=$(echo "$out" | sed -n 's/^image=//p')
rootfs=$(echo "$out" | sed -n 's/^rootfs=//p')
like "$tag" "^$repo:[0-9a-f]{12}$" "the image is tagged by content hash"
test -x "$rootfs/usr/bin/fio" && test -L "$ABBENCH_IMAGE_DIR/current"
ok $? "the rootfs directory and its current link exist"
out2=$("$ABBENCH_SRCDIR/scripts/build-image" 2>&1)
like "$out2" "image $tag exists" "a second build skips the existing image"
v=$(timeout 120 docker run --rm --network=none "$repo:latest" fio --version)
is "$v" "$(fio --version)" "fio --version under runc"
v=$(timeout 120 docker run --rm --network=none --runtime=runsc "$repo:latest" \
    fio --version)
is "$v" "$(fio --version)" "fio --version under runsc"
v=$(timeout 60 docker run --rm --network=none "$repo:latest" dd --version |
    head -1)
like "$v" "coreutils" "dd is GNU dd (oflag=dsync)"

# The rootfs directory through the oci executor, runc and runsc.
cat >"$TEST_TMP/oci.ini" <<EOF2
[experiment]
name = t-oci
rounds = 1
[arm runc]
runtime = runc
[arm runsc]
runtime = runsc
runtime-args = --root=$TEST_TMP/runsc-root --network=none --platform=ptrace
[workload version]
type = command
executor = oci
image = $rootfs
args = fio --version
EOF2
"$ABBENCH" run "$TEST_TMP/oci.ini" --db "$TEST_TMP/db" >"$TEST_TMP/oci.out" 2>&1
ok $? "fio --version in the rootfs under oci runc and runsc"
is "$(sqlite3 "$TEST_TMP/db" "SELECT count(*) FROM samples
    WHERE status = 'ok'")" 2 "both samples ok"
done_testing
