#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vcpus is the CPUs a run may use: a run confined to one CPU (taskset, as a
# Slurm node's cpuset does) records vcpus 1, cpus-online the machine's
# count, and its benchmark names end in -1 (GOMAXPROCS's count); an
# unconfined run records nproc's count and no cpus-online.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

require_cmd taskset sqlite3 nproc
all=$(nproc --all)
[ "$(nproc)" = "$all" ] ||
    skip_all "this test itself runs confined to $(nproc) of $all CPUs"
[ "$all" -ge 2 ] || skip_all "one CPU: nothing to confine"

cat >"$TEST_TMP/e.ini" <<'INI'
[experiment]
name = t0206-vcpus
rounds = 1

[arm a]
args = true

[workload Cmd]
type = command
INI
q() {	# q DB KEY: the run's config value
	sqlite3 "$1" "SELECT value FROM run_config WHERE key = '$2'"
}

taskset -c 0 "$ABBENCH" run "$TEST_TMP/e.ini" --db "$TEST_TMP/one.db" \
    --quiet >/dev/null 2>"$TEST_TMP/one.err"
ok $? "a run confined to CPU 0"
is "$(q "$TEST_TMP/one.db" vcpus)" 1 "vcpus: 1"
is "$(q "$TEST_TMP/one.db" cpus-online)" "$all" "cpus-online: $all"
is "$(sqlite3 "$TEST_TMP/one.db" "SELECT DISTINCT benchmark FROM samples")" \
    Cmd-1 "its benchmark is Cmd-1"

"$ABBENCH" run "$TEST_TMP/e.ini" --db "$TEST_TMP/all.db" --quiet \
    >/dev/null 2>"$TEST_TMP/all.err"
ok $? "an unconfined run"
is "$(q "$TEST_TMP/all.db" vcpus)" "$all" "vcpus: $all"
is "$(q "$TEST_TMP/all.db" cpus-online)" "" "no cpus-online"
is "$(sqlite3 "$TEST_TMP/all.db" "SELECT DISTINCT benchmark FROM samples")" \
    "Cmd-$all" "its benchmark is Cmd-$all"

done_testing
