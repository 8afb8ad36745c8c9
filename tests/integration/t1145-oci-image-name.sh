#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54 item 6: executor = oci takes the image name every other executor
# takes (abbench/tools, abbench/tools:HASH, abbench/NAME), finding the
# rootfs directory scripts/build-image wrote for it under
# $ABBENCH_IMAGE_DIR, and says what to build when it is not there.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
require_root
require_cmd runc busybox sqlite3
[ -x "${TOUCHMEM:-}" ] || skip_all "touchmem is not built"
lc_rootfs
unset ABBENCH_ROOTFS
# build-image's layout, in a directory of this test's own.
images=$TEST_TMP/images
mkdir -p "$images"
mv "$LC_ROOTFS" "$images/rootfs-0123456789ab"
ln -s rootfs-0123456789ab "$images/current"
ln -s rootfs-0123456789ab "$images/redis-rootfs-ba9876543210"
export ABBENCH_IMAGE_DIR=$images
DB=$TEST_TMP/t.db

exp() {
	cat >"$TEST_TMP/$1.ini" <<EOI
[experiment]
name = t1145-$1
rounds = 1

[arm runc]
runtime = runc

[workload hello]
type = command
executor = oci
image = $2
args = cat /proc/self/cgroup
EOI
}

for image in abbench/tools abbench/tools:latest abbench/tools:0123456789ab \
    abbench/redis:ba9876543210; do
	exp img "$image"
	"$ABBENCH" run "$TEST_TMP/img.ini" --db "$DB" --quiet \
	    >"$TEST_TMP/out" 2>&1
	ok $? "image = $image: the run succeeds" || diag "$(cat "$TEST_TMP/out")"
	is "$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id =
	    (SELECT max(id) FROM runs) AND status = 'ok'")" 1 \
	    "image = $image: its sample is ok"
done

# Not built: the directory it looked for and the command that makes it.
exp app abbench/nginx
"$ABBENCH" run "$TEST_TMP/app.ini" --db "$TEST_TMP/no.db" >"$TEST_TMP/out" 2>&1
is $? 2 "an image not built: exit 2"
like "$(cat "$TEST_TMP/out")" \
    "rootfs '$images/nginx-current' not found: build it with scripts/build-image --app nginx" \
    "the error names the directory and the command"
exp tag abbench/tools:ffffffffffff
"$ABBENCH" run "$TEST_TMP/tag.ini" --db "$TEST_TMP/no.db" >"$TEST_TMP/out" 2>&1
like "$(cat "$TEST_TMP/out")" \
    "rootfs '$images/rootfs-ffffffffffff' not found: build it with scripts/build-image\$" \
    "a tag not built: its directory"
# A name build-image never makes.
exp other busybox:latest
"$ABBENCH" run "$TEST_TMP/other.ini" --db "$TEST_TMP/no.db" >"$TEST_TMP/out" 2>&1
is $? 2 "another registry's image: exit 2"
like "$(cat "$TEST_TMP/out")" \
    "image 'busybox:latest': executor 'oci' takes a rootfs directory" \
    "the error says what oci takes"
ok "$(test ! -e "$TEST_TMP/no.db"; echo $?)" "nothing ran"

done_testing
