#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 2: what differs between arms was recorded
# nowhere tables and stores look. Two inline arms of one program
# (`runsc do` and `runsc --overlay do`) had the same program-WHO lines,
# so `db show` could not tell them apart and `compare` of two runs of
# other commands made one table; an arm's env.NAME was in no export.
# Each arm's argv (args-WHO) and environment (env-WHO) are config lines:
# in the export, in `db show`, and two runs whose arms ran other
# commands split the table.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
key() { sed -n "s/^$1: //p" "$2"; }

"$ABBENCH" run --db "$DB" --rounds 2 --quiet -- 'sh -c true' \
    -- "sh -c 'true; true'" >out 2>&1
ok $? "an inline run of two commands of one program" || diag "$(cat out)"
"$ABBENCH" db export --db "$DB" 1 >e1.txt 2>err
ok $? "export"
is "$(key args-a e1.txt)" "sh -c true" "arm A's argv is a config line"
is "$(key args-b e1.txt)" "sh -c 'true; true'" \
    "arm B's argv, its blank-holding word quoted"
"$ABBENCH" db show --db "$DB" 1 >show 2>&1
like "$(sed -n '/^config:/,/^$/p' show)" "args-B: sh -c 'true; true'" \
    "db show tells the arms apart"

"$ABBENCH" run --db "$DB" --rounds 2 --quiet -- 'sh -c true' \
    -- 'sh -c :' >out 2>&1
ok $? "a second inline run: arm B runs another command"
"$ABBENCH" compare --db "$DB" 1 2 >cmp 2>&1
ok $? "compare 1 2" || diag "$(cat cmp)"
is "$(grep -c '^args-b: ' cmp)" 2 \
    "arms that ran other commands: two tables, each naming its argv"
"$ABBENCH" run --db "$DB" --rounds 2 --quiet -- 'sh -c true' \
    -- "sh -c 'true; true'" >out 2>&1
ok $? "a third run of the first run's commands"
"$ABBENCH" compare --db "$DB" 1 3 >cmp 2>&1
is "$(grep -c 'vs base' cmp)" 1 "the same commands: one table"

cat >env.ini <<EOI
[experiment]
name = t1153
rounds = 2

[arm small]
args = true

[arm big]
args = true
env.BIG = 1
env.NAME = "two words"

[workload Cmd]
type = command
EOI
"$ABBENCH" run env.ini --db "$DB" --quiet >out 2>&1
ok $? "a run whose arm sets its environment" || diag "$(cat out)"
"$ABBENCH" db export --db "$DB" last >e4.txt 2>err
is "$(key env-big e4.txt)" "BIG=1 'NAME=two words'" \
    "the arm's env.NAME keys are a config line"
is "$(key env-small e4.txt)" "" "an arm with no env.NAME: no line"
"$ABBENCH" db show --db "$DB" last >show 2>&1
like "$(sed -n '/^config:/,/^$/p' show)" "env-big: BIG=1" \
    "db show names the arm's environment"
done_testing
