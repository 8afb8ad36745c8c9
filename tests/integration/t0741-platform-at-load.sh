#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A runsc platform the host cannot give is refused when the experiment is
# loaded (issue #53, finding 10): `platform = systrap` with a runsc that
# does not know it, and `platform = kvm` without /dev/kvm (a mount
# namespace whose /dev has none), exit 2 at FILE:LINE: platform, before
# anything is made (no database); they used to fail every sample and exit
# 1. platform = ptrace still runs.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_root
require_cmd runsc busybox unshare
plan 8

rootfs=$TEST_TMP/rootfs
mkdir -p "$rootfs/bin" "$rootfs/proc" "$rootfs/dev" "$rootfs/sys" \
    "$rootfs/tmp"
cp "$(command -v busybox)" "$rootfs/bin/busybox"
ln -sf busybox "$rootfs/bin/true"

# exp NAME ARM_PLATFORM WORKLOAD_PLATFORM: line 7 is the arm's platform,
# line 13 the workload's.
exp() {
	cat > "$TEST_TMP/$1.ini" <<EOI
[experiment]
name = t0741-$1
rounds = 1
[arm gvisor]
runtime = runsc
runtime-args = --root=$TEST_TMP/runsc-root
${2:+platform = $2}
[workload t]
type = command
executor = oci
image = $rootfs
args = true
${3:+platform = $3}
EOI
}

# systrap: this runsc (2022-12) does not know it.
if runsc --root="$TEST_TMP/probe" --platform=systrap list >/dev/null 2>&1; then
	pass "# SKIP this runsc knows systrap"
	pass "# SKIP this runsc knows systrap"
	pass "# SKIP this runsc knows systrap"
else
	exp systrap "" systrap
	"$ABBENCH" run "$TEST_TMP/systrap.ini" --db "$TEST_TMP/s.db" \
	    > "$TEST_TMP/systrap.out" 2>&1
	is "$?" 2 "platform = systrap on a runsc without it: exit 2"
	file_like "$TEST_TMP/systrap.out" \
	    "^abbench: $TEST_TMP/systrap\\.ini:13: platform: runsc 'runsc' cannot use platform 'systrap': unknown platform: systrap" \
	    "  at the workload's platform line, with runsc's reason" ||
	    sed 's/^/# /' "$TEST_TMP/systrap.out"
	[ ! -e "$TEST_TMP/s.db" ]
	ok $? "  before anything is made (no database)"
fi

# kvm with no /dev/kvm: a private /dev of a few devices in a mount
# namespace of its own.
exp kvm kvm ""
cat > "$TEST_TMP/nokvm.sh" <<'EOS'
set -e
mkdir -p "$TEST_TMP/olddev"
mount --bind /dev "$TEST_TMP/olddev"
mount -t tmpfs none /dev
for n in null zero full random urandom; do
	touch "/dev/$n"
	mount --bind "$TEST_TMP/olddev/$n" "/dev/$n"
done
umount -l "$TEST_TMP/olddev"
[ ! -e /dev/kvm ]
set +e
"$ABBENCH" run "$TEST_TMP/kvm.ini" --db "$TEST_TMP/k.db"
EOS
unshare -m --propagation private sh "$TEST_TMP/nokvm.sh" > "$TEST_TMP/kvm.out" 2>&1
is "$?" 2 "platform = kvm without /dev/kvm: exit 2"
file_like "$TEST_TMP/kvm.out" \
    "^abbench: $TEST_TMP/kvm\\.ini:7: platform: kvm needs /dev/kvm: No such file or directory" \
    "  at the arm's platform line" || sed 's/^/# /' "$TEST_TMP/kvm.out"
[ ! -e "$TEST_TMP/k.db" ]
ok $? "  before anything is made (no database)"

# ptrace: accepted, and the run goes.
exp ptrace ptrace ""
"$ABBENCH" run "$TEST_TMP/ptrace.ini" --db "$TEST_TMP/p.db" --quiet \
    > "$TEST_TMP/ptrace.out" 2>&1
ok $? "platform = ptrace runs" || sed 's/^/# /' "$TEST_TMP/ptrace.out"
is "$(sqlite3 "$TEST_TMP/p.db" "SELECT group_concat(DISTINCT status) FROM samples")" ok \
    "  its sample is ok"
done_testing
