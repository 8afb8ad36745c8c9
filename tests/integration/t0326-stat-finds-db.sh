#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench stat` finds its database as every other command does: --db
# anywhere on the line, $ABBENCH_DB, ./abbench.db; an unreadable one is
# exit 2 with abbench's message; `stat --help` is abbench's help followed
# by benchstat's flags; files stay benchstat's (usage and errors).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1
unset ABBENCH_DB
fast_slow_exp fs.ini fs 3
mkdir here
"$ABBENCH" run fs.ini --db here/abbench.db --quiet > /dev/null 2>&1
ok $? "a run into here/abbench.db"
"$ABBENCH" stat --db here/abbench.db last > want 2> /dev/null
ok $? "stat --db FILE last"
grep -q '│ *fast *│ *slow' want
ok $? "the reference table has both arms"

(cd here && "$ABBENCH" stat last) > out 2> err
is "$?" 0 "./abbench.db: stat last exits 0"
cmp -s out want
ok $? "./abbench.db: stat last is the table of --db"

ABBENCH_DB=$TEST_TMP/here/abbench.db "$ABBENCH" stat last > out 2> err
is "$?" 0 "\$ABBENCH_DB: stat last exits 0"
cmp -s out want
ok $? "\$ABBENCH_DB: the same table"

"$ABBENCH" stat last --db here/abbench.db > out 2> err
cmp -s out want
ok $? "--db after the run"
"$ABBENCH" stat -col arm last --db=here/abbench.db > out 2> err
ok $? "--db=FILE last, after a benchstat flag"

uuid=$(sqlite3 here/abbench.db "SELECT substr(uuid, 1, 8) FROM runs" 2>/dev/null)
if [ -n "$uuid" ]; then
	(cd here && "$ABBENCH" stat "$uuid") > out 2> err
	cmp -s out want
	ok $? "a UUID prefix with ./abbench.db"
fi

"$ABBENCH" stat last > out 2> err
is "$?" 2 "no database anywhere: exit 2"
like "$(cat err)" "^abbench: stat: cannot read database 'abbench.db'" "abbench's message, naming the database"
is "$(cat out)" "" "nothing on stdout"

"$ABBENCH" stat --db nosuch.db 1 > out 2> err
is "$?" 2 "--db of a missing file: exit 2"
[ ! -e nosuch.db ]
ok $? "and not created"

# Files stay benchstat's, even with a database around.
printf 'BenchmarkX 1 10 ns/op\n' > old.txt
ABBENCH_DB=$TEST_TMP/here/abbench.db "$ABBENCH" stat old.txt nosuch.txt > out 2> err
is "$?" 0 "a missing file: benchstat's exit 0"
is "$(cat err)" "benchstat: open nosuch.txt: no such file or directory" "and benchstat's message"
# A flag after the files is a file (Go's flag rules): benchstat's message
# and exit alone to a script; on a terminal, a hint after it (newcomer's
# friction 10).
"$ABBENCH" stat old.txt old.txt -format json > out 2> err
is "$?" 0 "a flag after the files: benchstat's exit 0"
is "$(cat err)" "benchstat: open -format: no such file or directory" "a flag after the files: benchstat's message alone, not on a terminal"
# script(1): util-linux's, in Debian's essential bsdutils.
script -qec "\"$ABBENCH\" stat old.txt old.txt -format json" /dev/null > tty 2>&1
is "$?" 0 "a flag after the files on a terminal: exit 0"
is "$(tr -d '\r' < tty)" "benchstat: open -format: no such file or directory
abbench: hint: '-format' came after a file, so it was read as one (flags go before the files, as in Go's benchstat: abbench stat -format ... OLD NEW)" "on a terminal: the hint after benchstat's message"
script -qec "\"$ABBENCH\" stat old.txt nosuch.txt" /dev/null > tty 2>&1
is "$(tr -d '\r' < tty)" "benchstat: open nosuch.txt: no such file or directory" "a missing file that is no flag: no hint"
"$ABBENCH" stat > out 2> err
is "$?" 2 "no operands: benchstat's usage, exit 2"
like "$(head -n 1 err)" "^Usage: benchstat " "benchstat's usage"
"$ABBENCH" stat -h > out 2> err
is "$?" 0 "-h: benchstat's"
like "$(head -n 1 err)" "^Usage: benchstat " "-h prints benchstat's usage"

"$ABBENCH" stat --help > out 2> err
is "$?" 0 "--help exits 0"
like "$(head -n 1 out)" "^usage: abbench stat " "--help: abbench's usage first"
grep -q -- '--db FILE' out && grep -q 'NAME@last' out && grep -q 'ABBENCH_DB' out
ok $? "--help names --db, the run selectors and \$ABBENCH_DB"
grep -q -- '^  -confidence level' out
ok $? "--help ends with benchstat's flags"
done_testing
