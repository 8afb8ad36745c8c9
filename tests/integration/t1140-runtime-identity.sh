#!/bin/sh
# What a gVisor engineer asks for first about the runtime (issue 24 item 9):
# the identity of each arm's runtime binary (path and sha256, in `db show`
# and the report), the platform as a key that matrixes (OCI; docker
# refused at load), and the sandbox's own log kept with a failed sample.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
require_root
require_cmd runsc busybox sqlite3 sha256sum
[ -x "$TOUCHMEM" ] || skip_all "touchmem is not built"
lc_rootfs
DB=$TEST_TMP/t.db

# Two copies of one runsc binary at different paths: one version, two
# paths, one digest.
cp "$(command -v runsc)" "$TEST_TMP/runsc-a"
cp "$(command -v runsc)" "$TEST_TMP/runsc-b"
want=$(sha256sum "$(command -v runsc)" | cut -d' ' -f1)
cat >"$TEST_TMP/ident.ini" <<EOI
[experiment]
name = t1140-ident
rounds = 1

[arm a]
runtime = $TEST_TMP/runsc-a

[arm b]
runtime = $TEST_TMP/runsc-b

[workload startup]
type = startup
executor = oci
image = $LC_ROOTFS
EOI
"$ABBENCH" run "$TEST_TMP/ident.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
ok $? "a run with two copies of runsc succeeds"
"$ABBENCH" db show --db "$DB" last >"$TEST_TMP/show" 2>&1
for arm in a b; do
	is "$(sed -n "s/^ *runtime-path-$arm: //p" "$TEST_TMP/show")" \
	    "$TEST_TMP/runsc-$arm" "db show: arm $arm's runtime path"
	is "$(sed -n "s/^ *runtime-sha256-$arm: //p" "$TEST_TMP/show")" \
	    "$want" "db show: arm $arm's runtime sha256 is sha256sum's"
done
"$ABBENCH" report --db "$DB" last -o "$TEST_TMP/r.md" >/dev/null 2>&1
is "$(grep -c "runtime-sha256-[ab]: $want" "$TEST_TMP/r.md")" 2 \
    "the report shows both digests"
# A symlink is resolved: the binary measured, not the name given.
ln -s "$TEST_TMP/runsc-b" "$TEST_TMP/runsc-link"
sed "s|runsc-b\$|runsc-link|" "$TEST_TMP/ident.ini" >"$TEST_TMP/link.ini"
"$ABBENCH" run "$TEST_TMP/link.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
"$ABBENCH" db show --db "$DB" last >"$TEST_TMP/show" 2>&1
is "$(sed -n "s/^ *runtime-path-b: //p" "$TEST_TMP/show")" \
    "$TEST_TMP/runsc-b" "a symlinked runtime is stored as its target"

done_testing
