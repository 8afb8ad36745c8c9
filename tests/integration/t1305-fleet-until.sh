#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fleet submit --until decided: the rule reaches every shape's run. On the
# real local Slurm, two fixed-value gobench workloads (one equal in both
# arms, one that differs) decided at 4 and 8 rounds stop each shape's run
# there, not at the file's 12 rounds; the fleet keeps the rule (run_keys)
# for resubmits, the job's argv carries it as --set stop=decided, and a bad
# --until or a rule the file cannot take is refused before any submit.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm

EXP=$TEST_TMP/go.ini
cat >"$EXP" <<'INI'
[experiment]
name = t1305-fleet-until
rounds = 12

[arm a]
[arm b]

[workload Same]
type = gobench
args = sh -c "echo BenchmarkSame 1 1234 ns/op"

[workload Arm]
type = gobench
args = sh -c "case {arm} in a) echo BenchmarkArm 1 100 ns/op;; *) echo BenchmarkArm 1 200 ns/op;; esac"
INI

"$ABBENCH" fleet submit "$EXP" --partitions c2 --dir "$SHARED" \
    --until maybe >"$TEST_TMP/bad.out" 2>&1
is "$?" 2 "--until maybe: exit 2"
sed 's/^rounds = 12$/rounds = 12\norder = sequential/' "$EXP" > "$TEST_TMP/seq.ini"
"$ABBENCH" fleet submit "$TEST_TMP/seq.ini" --partitions c2 --dir "$SHARED" \
    --until decided >"$TEST_TMP/bad2.out" 2>&1
is "$?" 2 "--until decided on an order = sequential file: exit 2"
like "$(cat "$TEST_TMP/bad2.out")" "interleaved order" "... saying why"
is "$(ls "$SHARED" | wc -l | tr -d ' ')" 0 "nothing was created for them"

out=$("$ABBENCH" fleet submit "$EXP" --partitions c2,c4 --dir "$SHARED" \
    --time 10 --until decided --max-rounds 16 --wait 2>"$TEST_TMP/wait.err")
rc=$?
is "$rc" 0 "fleet submit --until decided --max-rounds 16 --wait: exit 0"
[ "$rc" = 0 ] || diag "$out $(cat "$TEST_TMP/wait.err") $(cat "$SHARED"/*/logs/* 2>/dev/null)"
ID=$(fleet_id "$out")
FDIR=$SHARED/$ID
is "$(db_count "$FDIR/fleet.db" "SELECT replace(run_keys, char(10), ' ') FROM fleets")" \
    "stop=decided max-rounds=16" "the fleet keeps the rule for resubmits"
like "$(scontrol show job -o "$(fleet_jobid "$out" c4/1)")" \
    "fleet job .*--set stop=decided --set max-rounds=16 " \
    "the shape job's command line carries the rule"

DB=$FDIR/fleet.db
is "$(db_count "$DB" "SELECT count(*) FROM runs WHERE status = 'done'")" 2 \
    "fleet.db holds 2 done runs"
for p in c2 c4; do
	r=$(db_count "$DB" "SELECT run_id FROM run_config WHERE key = 'partition' AND value = '$p'")
	is "$(db_count "$DB" "SELECT count(*) FROM samples WHERE run_id = $r AND benchmark = 'Same'")" 8 \
	    "$p: Same stopped at 4 rounds (equivalent), not 12"
	is "$(db_count "$DB" "SELECT count(*) FROM samples WHERE run_id = $r AND benchmark = 'Arm'")" 16 \
	    "$p: Arm stopped at 8 rounds (different), not 12"
	is "$(db_count "$DB" "SELECT group_concat(benchmark || ':' || verdict || '@' || good_rounds, ' ') FROM (SELECT benchmark, verdict, good_rounds FROM decisions d WHERE run_id = $r AND look = (SELECT max(look) FROM decisions WHERE run_id = $r AND workload = d.workload) ORDER BY benchmark)")" \
	    "Arm:different@8 Same:equivalent@4" "$p: the decisions are stored with the run"
	is "$(db_count "$DB" "SELECT value FROM run_config WHERE run_id = $r AND key = 'set.stop'")" \
	    decided "$p: the run records set.stop = decided"
done
done_testing
