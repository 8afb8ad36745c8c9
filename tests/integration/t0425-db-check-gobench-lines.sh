#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `db check` on a valid gobench run whose program prints 3 lines of one
# benchmark per invocation (-test.count=3, documented as allowed) finds no
# problem: the lines share their execution. It called each plan entry
# corrupt ("plan entry 0 has 3 ok samples of DockerTrue sec/op"), exit 1.
# A plan entry stored ok by two executions is still a problem.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/g.db
cat > three.sh <<'EOF2'
#!/bin/sh
echo "goos: linux"
echo "BenchmarkDockerTrue 1 0.0011 sec/op"
echo "BenchmarkDockerTrue 1 0.0012 sec/op"
echo "BenchmarkDockerTrue 1 0.0013 sec/op"
EOF2
chmod +x three.sh
printf '[experiment]\nname = three\nrounds = 4\n\n[arm a]\n\n[arm b]\n\n[workload g]\ntype = gobench\nargs = %s/three.sh\n' "$TEST_TMP" > three.ini
"$ABBENCH" run three.ini --db "$DB" --quiet > /dev/null 2>&1
ok $? "a gobench run, 3 lines per invocation"
is "$(sqlite3 "$DB" "SELECT count(*) || ' ' || count(DISTINCT plan_idx) FROM samples WHERE status = 'ok'")" \
    "24 8" "24 values from 8 invocations"
"$ABBENCH" db --db "$DB" check > out 2>&1
is "$?" 0 "db check: exit 0"
like "$(cat out)" "^ok: .*1 run, 8 samples$" "db check: ok, 8 samples"
grep -q 'plan entry' out
is "$?" 1 "db check: no plan entry called corrupt"

# The same entry stored ok twice, by two executions: a problem.
# (schema 9: one more value of the entry, from an execution whose times
# differ, as store_sample_add counts it in executions.nx)
sqlite3 "$DB" "INSERT INTO sample_values SELECT run_id, series_id, plan_idx, 3,
    value + 1, status, error, config_id, orig_value FROM sample_values
    WHERE plan_idx = 3 AND k = 0;
    UPDATE executions SET nv = nv + 1, nx = nx + 1 WHERE plan_idx = 3;
    UPDATE sample_runs SET nok = nok + 1"
"$ABBENCH" db --db "$DB" check > out 2>&1
is "$?" 1 "a sample stored twice: db check exits 1"
like "$(cat out)" "run 1: plan entry 3 has ok samples of DockerTrue sec/op from 2 executions" \
    "db check names the entry and its 2 executions"
is "$(grep -c 'plan entry' out)" 1 "... and only that entry"
done_testing
