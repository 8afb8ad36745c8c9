#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 3: `abbench run -- sleep 0.01 -- sleep 0.02
# --rounds 2 --quiet` took --rounds 2 --quiet as arm B's argv, silently,
# and ran 10 rounds of failing samples. The grammar: a command given as
# several operands may not hold a word that is one of run's flags or an
# [experiment] key: refused (exit 2, naming the word and the arm) before
# anything runs; a command given as one operand keeps such words; run
# --help says so.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db

"$ABBENCH" run --db "$DB" -- true -- sh -c true --rounds 2 --quiet \
    >out 2>&1
is $? 2 "run's flags after the last command: exit 2"
like "$(cat out)" "command 2 \\(arm B\\): '--rounds' is abbench run's flag" \
    "the error names the word and the arm"
like "$(cat out)" "before the first \"--\"" "and says where flags go"
[ ! -e "$DB" ] || is "$(sqlite3 "$DB" 'SELECT count(*) FROM runs' 2>&1)" \
    0 "nothing ran"
"$ABBENCH" run --db "$DB" -- true --warmup=1 -- true >out 2>&1
is $? 2 "an [experiment] key in the first command: exit 2"
like "$(cat out)" "command 1 \\(arm A\\): '--warmup=1'" "named as written"
"$ABBENCH" run --db "$DB" --rounds 1 --quiet -- true \
    -- 'sh -c "exit 0" --rounds' >out 2>&1
ok $? "a command given as one operand keeps a --rounds word" ||
    diag "$(cat out)"
"$ABBENCH" run --db "$DB" --rounds 1 --quiet -- true -- sh -c true \
    --no-such-flag >out 2>&1
ok $? "a word that is no flag of abbench stays the command's" ||
    diag "$(cat out)"
like "$("$ABBENCH" run --help 2>&1)" "flags go before the first --" \
    "run --help states the grammar"
done_testing
