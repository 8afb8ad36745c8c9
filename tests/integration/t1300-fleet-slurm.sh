#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A fleet on the real local Slurm: a small experiment with a `command` and
# a `cpu-steady` workload over partitions c2 (one replica) and c4 (two),
# each job --exclusive, then the afterany merge job. All jobs done, the
# merged fleet.db holds 3 runs with distinct partitions and job ids and
# every where-it-ran key, the cross-shape table has one row per shape with
# both arms, collecting twice adds nothing, the job script holds no data,
# and a bad partition is refused before anything is submitted.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/fleet-lib.sh"

require_slurm

# The burner reports every 0.25 s (not 1 s): its window (0.5 s) is not
# rounded up to 1 s, nor its start to the next whole second: a job's run
# took 3.3 s instead of 7.8 s.
EXP=$TEST_TMP/mini.ini
cat >"$EXP" <<'INI'
[experiment]
name = t1300-fleet
rounds = 2

[arm fast]
args = true

[arm slow]
args = sleep 0.01

[workload Cmd]
type = command

[workload Burn]
type      = cpu-steady
program   = burner
sandboxes = 1
quota     = none
warmup    = 0.2s
window    = 0.5s
report-every = 0.25s
perf      = no
INI

# Refused before anything is submitted: exit 2, the partition named.
"$ABBENCH" fleet submit "$EXP" --partitions c2,nosuch --dir "$SHARED" \
    >"$TEST_TMP/bad.out" 2>&1
is "$?" 2 "an unknown partition: exit 2"
like "$(cat "$TEST_TMP/bad.out")" "no partition 'nosuch'" \
    "the unknown partition is named"
is "$(ls "$SHARED" | wc -l | tr -d ' ')" 0 "nothing was created for it"
"$ABBENCH" fleet submit "$EXP" --partitions 'c2,a/b%x' --dir "$SHARED" \
    >"$TEST_TMP/bad2.out" 2>&1
is "$?" 2 "a partition with a slash: exit 2"
like "$(cat "$TEST_TMP/bad2.out")" "partition 'a/b%x' is not a partition name" \
    "... naming it whole (the list is freed after the message)"

out=$("$ABBENCH" fleet submit "$EXP" --partitions c2,c4:2 --dir "$SHARED" \
    --time 10 --wait 2>"$TEST_TMP/wait.err")
rc=$?
is "$rc" 0 "fleet submit --wait exits 0 when every shape is done"
[ "$rc" = 0 ] || diag "$out $(cat "$TEST_TMP/wait.err") $(cat "$SHARED"/*/logs/* 2>/dev/null)"
ID=$(fleet_id "$out")
FDIR=$SHARED/$ID
like "$ID" '^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$' "the fleet id is printed ($ID)"
for s in c2/1 c4/1 c4/2; do
	j=$(fleet_jobid "$out" "$s")
	like "$j" '^[0-9]+$' "$s: its job id is printed ($j)"
done
like "$out" 'merge job [0-9]+' "the merge job id is printed"
like "$(cat "$TEST_TMP/wait.err")" 'c2/1 done +c4/1 done +c4/2 done +merge done' \
    "--wait's live line ends with every shape and the merge done"
like "$(cat "$TEST_TMP/wait.err")" '(pending|running)' \
    "--wait's live line showed shapes pending or running first"

# Every job done, as Slurm says.
for s in c2/1 c4/1 c4/2; do
	j=$(fleet_jobid "$out" "$s")
	is "$(squeue -h -t all -j "$j" -o %T)" COMPLETED "$s: job $j COMPLETED"
done
m=$(printf '%s\n' "$out" | sed -n 's/^merge job \([0-9]*\).*/\1/p')
is "$(squeue -h -t all -j "$m" -o %T)" COMPLETED "the merge job COMPLETED"
last_end=$(for s in c2/1 c4/1 c4/2; do squeue -h -t all -j "$(fleet_jobid "$out" "$s")" -o %e; done | sort | tail -n 1)
merge_start=$(squeue -h -t all -j "$m" -o %S)
ok "$([ ! "$merge_start" \< "$last_end" ]; echo $?)" \
    "the merge job started after the last shape ended ($merge_start >= $last_end)"
like "$(scontrol show job -o "$(fleet_jobid "$out" c4/2)")" 'OverSubscribe=NO' \
    "the shape jobs had the node to themselves (--exclusive)"

DB=$FDIR/fleet.db
is "$(db_count "$DB" "SELECT count(*) FROM runs WHERE status = 'done'")" 3 \
    "fleet.db holds 3 done runs"
is "$(db_count "$DB" "SELECT group_concat(value, ' ') FROM (SELECT value FROM run_config WHERE key = 'partition' ORDER BY value)")" \
    "c2 c4 c4" "their partitions: c2, c4, c4"
is "$(db_count "$DB" "SELECT count(DISTINCT value) FROM run_config WHERE key = 'job-id'")" 3 \
    "3 distinct Slurm job ids"
is "$(db_count "$DB" "SELECT count(*) FROM run_config WHERE key = 'fleet-id' AND value = '$ID'")" 3 \
    "every run records the fleet id"
for k in node vcpus memory cpu kernel abbench-version fleet-replica; do
	is "$(db_count "$DB" "SELECT count(*) FROM run_config WHERE key = '$k' AND value <> ''")" 3 \
	    "every run records $k"
done
is "$(db_count "$DB" "SELECT value FROM run_config WHERE key = 'vcpus' LIMIT 1")" \
    "$(nproc)" "vcpus is the node's"
is "$(db_count "$DB" "SELECT count(*) FROM samples WHERE status = 'ok' AND benchmark GLOB 'Cmd-[0-9]*'")" 12 \
    "3 runs x 2 rounds x 2 arms of Cmd"
ok "$([ "$(db_count "$DB" "SELECT count(*) FROM samples WHERE status = 'ok' AND unit = 'work/s'")" -eq 12 ]; echo $?)" \
    "and of the cpu-steady burner (work/s)"

# The cross-shape table: shapes on rows, arms on columns.
"$ABBENCH" stat --db "$DB" -table .fullname -row partition -col arm all \
    >"$TEST_TMP/table" 2>&1
ok $? "abbench stat --db fleet.db -row partition -col arm all"
cmd=$(awk '/^\.fullname: Cmd/ { on = 1; next } /^\.fullname:/ { on = 0 } on' "$TEST_TMP/table")
like "$(printf '%s\n' "$cmd" | sed -n 1p)" 'fast .*slow' "Cmd: a column per arm"
is "$(printf '%s\n' "$cmd" | grep -c '^c2 ')" 1 "Cmd: one row for c2"
is "$(printf '%s\n' "$cmd" | grep -c '^c4 ')" 1 "Cmd: one row for c4 (its two replicas pooled)"
like "$(printf '%s\n' "$cmd" | grep '^c4 ')" 'n=4' "c4's row pools both replicas (n=4)"
burn=$(awk '/^\.fullname: Burner/ { on = 1 } on' "$TEST_TMP/table")
nc2=$(printf '%s\n' "$burn" | grep -c '^c2 ')
is "$(printf '%s\n' "$burn" | grep -c '^c4 ')" "$nc2" "Burner: as many c4 rows as c2 rows"
ok "$([ "$nc2" -ge 3 ]; echo $?)" "Burner: a row per shape in each unit's table ($nc2 units)"
like "$(printf '%s\n' "$burn" | grep -A3 'work/s' | head -4)" 'fast.*slow|work/s' \
    "Burner: work/s has both arms"
"$ABBENCH" stat --db "$DB" -table .fullname -row vcpus -col arm all \
    >"$TEST_TMP/vtable" 2>&1
is "$(awk '/^\.fullname: Cmd/ { on = 1; next } /^\.fullname:/ { on = 0 } on' "$TEST_TMP/vtable" | grep -c "^$(nproc) ")" 1 \
    "-row vcpus: one row for this host's vcpus"

# report: the run's report has the fleet's cross-shape table.
"$ABBENCH" report --db "$DB" last -o "$TEST_TMP/r.md" >/dev/null 2>&1
ok $? "abbench report of a fleet run"
shapes=$(sed -n '/^## Across the fleet/,/^## P-values/p' "$TEST_TMP/r.md")
like "$shapes" "The 3 runs of fleet $ID" "the report has the fleet's cross-shape section"
is "$(printf '%s\n' "$shapes" | grep -c '^c4 ')" \
    "$(printf '%s\n' "$shapes" | grep -c '^c2 ')" "... a c4 row wherever there is a c2 row"
like "$(printf '%s\n' "$shapes" | grep -m1 'fast')" 'fast.*slow' "... and arms on columns"

# plot: each metric against vcpus, one line per arm.
if command -v gnuplot >/dev/null 2>&1; then
	"$ABBENCH" plot --db "$DB" --x vcpus all -o "$TEST_TMP/plots" \
	    >"$TEST_TMP/plots.out" 2>&1
	ok $? "abbench plot --x vcpus all"
	is "$(grep -c '\.shapes\.png$' "$TEST_TMP/plots.out")" \
	    "$(db_count "$DB" "SELECT count(*) FROM (SELECT DISTINCT benchmark, unit FROM samples WHERE status = 'ok')")" \
	    "one shapes plot per benchmark and unit"
	f=$(grep -m1 -E 'Cmd(-[0-9]+)?\.sec_op\.shapes\.png$' "$TEST_TMP/plots.out")
	is "$(head -c 4 "$f" | od -An -c | tr -d ' ')" '211PNG' "Cmd's is a PNG"
	"$ABBENCH" plot --db "$DB" --x partition all -o "$TEST_TMP/plots" \
	    >/dev/null 2>"$TEST_TMP/plotbad.err"
	is "$?" 2 "plot --x of a key that is not a number: exit 2"
	like "$(cat "$TEST_TMP/plotbad.err")" "no numeric config key 'partition'" \
	    "... naming the key"
fi

# Collecting twice adds nothing.
before=$(db_count "$DB" "SELECT count(*) FROM samples")
c1=$("$ABBENCH" fleet collect "$ID" --dir "$SHARED")
is "$?" 0 "collect: exit 0"
c2=$("$ABBENCH" fleet collect "$FDIR")
is "$?" 0 "collect again: exit 0"
like "$c2" 'merged 0 new runs \(0 samples\)' "collect again merges nothing"
is "$(db_count "$DB" "SELECT count(*) FROM samples")" "$before" "no sample added"
is "$(db_count "$DB" "SELECT count(*) FROM runs")" 3 "still 3 runs"

# A fleet whose shapes ran different builds is warned about.
"$ABBENCH" fleet collect "$FDIR" -q >/dev/null 2>"$TEST_TMP/same.err"
is "$(grep -c 'mixes abbench versions' "$TEST_TMP/same.err")" 0 \
    "one build everywhere: no version warning"
ver=$(db_count "$FDIR/runs/c4-2.db" "SELECT abbench_version FROM runs")
sqlite3 "$FDIR/runs/c4-2.db" "UPDATE runs SET abbench_version = '0.0.1-other'"
"$ABBENCH" fleet collect "$FDIR" -q >/dev/null 2>"$TEST_TMP/mix.err"
is "$?" 0 "collect of a fleet of mixed versions: still exit 0"
like "$(cat "$TEST_TMP/mix.err")" "warning: fleet $ID mixes abbench versions: .*0\.0\.1-other" \
    "collect warns that the fleet mixes abbench versions"
sqlite3 "$FDIR/runs/c4-2.db" "UPDATE runs SET abbench_version = '$ver'"

# Listed from the store.
like "$("$ABBENCH" db ls --db "$DB")" "FLEET.*
.*$ID" "db ls shows the fleet id"
st=$("$ABBENCH" fleet status --dir "$SHARED")
like "$st" "$ID +t1300-fleet +3 +3 +0 +0" "fleet status lists the fleet: 3 shapes, 3 done"
st=$("$ABBENCH" fleet status "$ID" --dir "$SHARED")
is "$(printf '%s\n' "$st" | grep -c 'done *[0-9]* *COMPLETED')" 3 "fleet status: 3 shapes done, COMPLETED"

# The job script: 0700, in the fleet directory, no data in it.
is "$(stat -c %a "$FDIR/job")" 700 "the job script is mode 0700"
ok "$(grep -qF -e "$ID" -e "$SHARED" -e mini.ini "$FDIR/job"; [ $? -eq 1 ]; echo $?)" \
    "the job script holds no fleet id, path or file name"

done_testing
