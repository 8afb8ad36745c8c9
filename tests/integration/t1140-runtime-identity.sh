#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
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

# A docker runtime name: the binary docker runs for it (docker info's
# path), resolved.
if timeout 20 docker info >/dev/null 2>&1 &&
    img=$(docker images --format '{{.Repository}}:{{.Tag}}' |
    grep -m1 '^abbench/tools:'); then
	dpath=$(docker info --format '{{json .Runtimes}}' | python3 -c '
import json, sys; print(json.load(sys.stdin)["runsc"]["path"])')
	dpath=$(readlink -f "$(command -v "$dpath")")
	cat >"$TEST_TMP/dock-id.ini" <<EOI
[experiment]
name = t1140-docker-ident
rounds = 1

[arm d]
runtime = runsc

[workload startup]
type = startup
image = $img
EOI
	"$ABBENCH" run "$TEST_TMP/dock-id.ini" --db "$DB" --quiet \
	    >"$TEST_TMP/out" 2>&1
	"$ABBENCH" db show --db "$DB" last >"$TEST_TMP/show" 2>&1
	is "$(sed -n "s/^ *runtime-path-d: //p" "$TEST_TMP/show")" "$dpath" \
	    "docker runtime 'runsc': the path docker runs"
	is "$(sed -n "s/^ *runtime-sha256-d: //p" "$TEST_TMP/show")" \
	    "$(sha256sum "$dpath" | cut -d' ' -f1)" \
	    "docker runtime 'runsc': its sha256"
else
	pass "# SKIP no docker daemon or tools image"
	pass "# SKIP no docker daemon or tools image"
fi

# The platform as a key: a matrix of two rows per benchmark. kvm hangs
# at 100% CPU on a VM whose /dev/kvm cannot run it (ENVIRONMENT.md,
# pitfall 1), and fails at create on one without /dev/kvm (a fresh CI
# machine): either way the sample is stored as failed with its reason,
# not as a value.
cat >"$TEST_TMP/plat.ini" <<EOI
[experiment]
name = t1140-platform
rounds = 1
timeout = 6s

[arm runsc]
runtime = runsc

[workload startup]
type = startup
executor = oci
image = $LC_ROOTFS
platform = ptrace kvm
EOI
"$ABBENCH" run "$TEST_TMP/plat.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
rc=$?
run=$(lc_last_run "$DB")
is "$(sqlite3 "$DB" "SELECT group_concat(p, ' ') FROM (SELECT DISTINCT
    substr(benchmark, instr(benchmark, 'platform=') + 9, 6) AS p FROM
    samples WHERE run_id = $run AND benchmark LIKE '%/platform=%'
    ORDER BY p)" | sed 's/-[0-9]*//g')" "kvm ptrace" \
    "platform = ptrace kvm: one workload per platform, each sampled"
is "$(lc_count "$DB" "$run" runsc OCITotal/platform=ptrace sec/op)" 1 \
    "ptrace: an OCITotal sample"
ok=$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = $run AND
    benchmark LIKE '%platform=kvm%' AND status = 'ok'")
if [ "$ok" -gt 0 ]; then
	pass "kvm works on this host ($ok ok samples)"
	pass "# SKIP kvm did not fail here"
	pass "# SKIP kvm did not fail here"
else
	is "$rc" 1 "kvm failed: the run exits 1"
	err=$(sqlite3 "$DB" "SELECT status || ': ' || error FROM samples
	    WHERE run_id = $run AND benchmark LIKE '%platform=kvm%'")
	like "$err" \
	    "^(failed|timeout): 'runsc [a-z]+ [^']*' (timed out|exited|killed)" \
	    "kvm stored as failed, with its reason"
	# runsc got the flag: its own log says which platform it ran, or,
	# on a host without /dev/kvm, its create names the platform it
	# could not open ("opening device file for platform \"kvm\"").
	like "$err" \
	    'loader\.go.*Platform: kvm|opening device file for platform \\?"kvm' \
	    "the failure quotes runsc on its platform (kvm)"
fi
lc_no_leftovers "$DB" "$run" "platform matrix with a hung kvm"

# The arm's platform wins over the workload's.
sed -e 's/^platform = .*/platform = kvm/' \
    -e 's/^runtime = runsc$/runtime = runsc\nplatform = ptrace/' \
    "$TEST_TMP/plat.ini" >"$TEST_TMP/armplat.ini"
"$ABBENCH" run "$TEST_TMP/armplat.ini" --db "$DB" --quiet \
    >"$TEST_TMP/out" 2>&1
ok $? "an arm's platform = ptrace wins over the workload's kvm"

# Refused when the file is loaded: docker cannot pass a runtime flag per
# container; runc has no platform; a platform runsc does not have.
sed 's/^executor = oci/executor = docker/' "$TEST_TMP/plat.ini" \
    >"$TEST_TMP/dock.ini"
"$ABBENCH" run "$TEST_TMP/dock.ini" --db "$TEST_TMP/no.db" \
    >"$TEST_TMP/out" 2>&1
is "$?" 2 "platform with executor docker: exit 2"
like "$(cat "$TEST_TMP/out")" \
    "dock.ini:[0-9]+: platform: executor 'docker' cannot pass runtime flags.*runsc install --runtime=runsc-ptrace -- --platform=ptrace" \
    "the error says what to do instead"
sed 's/^runtime = runsc$/runtime = runc/' "$TEST_TMP/plat.ini" \
    >"$TEST_TMP/runc.ini"
"$ABBENCH" run "$TEST_TMP/runc.ini" --db "$TEST_TMP/no.db" \
    >"$TEST_TMP/out" 2>&1
is "$?" 2 "platform with runc: exit 2"
like "$(cat "$TEST_TMP/out")" "platform: arm 'runsc' runs 'runc', not runsc" \
    "the error names the arm and its runtime"
sed 's/^platform = .*/platform = ptrace qemu/' "$TEST_TMP/plat.ini" \
    >"$TEST_TMP/bad.ini"
"$ABBENCH" run "$TEST_TMP/bad.ini" --db "$TEST_TMP/no.db" \
    >"$TEST_TMP/out" 2>&1
is "$?" 2 "platform = qemu: exit 2"
like "$(cat "$TEST_TMP/out")" "bad.ini:[0-9]+: platform: 'qemu'" \
    "the error names the value"
ok "$(test ! -e "$TEST_TMP/no.db"; echo $?)" "nothing ran"

# A sample that fails under runsc keeps the end of the sandbox's own log
# (runsc --debug-log into the run's directory).
cat >"$TEST_TMP/fail.ini" <<EOI
[experiment]
name = t1140-fail
rounds = 1

[arm broken]
runtime = runsc
cmd = /nonexistent

[workload startup]
type = startup
executor = oci
image = $LC_ROOTFS
EOI
"$ABBENCH" run "$TEST_TMP/fail.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
is "$?" 1 "a run whose sample fails under runsc exits 1"
run=$(lc_last_run "$DB")
err=$(sqlite3 "$DB" "SELECT error FROM samples WHERE run_id = $run AND
    status != 'ok'")
like "$err" "sandbox log [^ ]*/runsc\.log\.[0-9.-]+\.boot\.txt \(kept; last lines\)" \
    "the failure carries the sandbox's boot log"
like "$err" "loader\.go.*Error opening /nonexistent" \
    "the sandbox's own words: why the program did not start"
lc_no_leftovers "$DB" "$run" "failed sample with its sandbox log"
# sandbox-log = off: runsc gets no --debug-log, the error only its stderr.
sed 's/^executor = oci/executor = oci\nsandbox-log = off/' \
    "$TEST_TMP/fail.ini" >"$TEST_TMP/off.ini"
"$ABBENCH" run "$TEST_TMP/off.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
run=$(lc_last_run "$DB")
err=$(sqlite3 "$DB" "SELECT error FROM samples WHERE run_id = $run AND
    status != 'ok'")
like "$err" "nonexistent" "sandbox-log = off: the runtime's error"
ok "$(echo "$err" | grep -q 'sandbox log'; test $? -ne 0; echo $?)" \
    "sandbox-log = off: no sandbox log"

done_testing
