#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54 item 10, what they asked for: `abbench run -- 'CMD A' -- 'CMD
# B'` with no file — each command an argv split without a shell (blanks,
# quotes, backslash; ", %, \, <, $ and * reach the program as written),
# interleaved, stored, tabulated, with --until decided and a file's exit
# statuses — and `abbench compare RUN RUN`, the same output as `stat --db
# FILE RUN RUN`.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
# A program that writes its argv, one word per line, to $OUT (once).
cat >dump <<'EOT'
#!/bin/sh
[ "$1" = --version ] && exit 1	# abbench asks it for the run's config
[ -e "$OUT" ] && exit 0
for w in "$@"; do printf '[%s]\n' "$w"; done >"$OUT"
EOT
chmod +x dump
q() { sqlite3 "$DB" "$1"; }

OUT=$TEST_TMP/a.out OUT_B=$TEST_TMP/b.out
export OUT
"$ABBENCH" run --db "$DB" --rounds 4 -- \
    "./dump 'a b' \"q\\\"d\" 100% x\\<y '\$HOME' * back\\\\slash ''" \
    -- true >out 2>err
ok $? "an inline run exits 0" || diag "$(cat err)"
printf '%s\n' '[a b]' '[q"d]' '[100%]' '[x<y]' '[$HOME]' '[*]' \
    '[back\slash]' '[]' >want
is "$(cat a.out)" "$(cat want)" \
    "the command's argv: split at blanks and quotes, no shell"
like "$(cat err)" "^arm A: \./dump 'a b' 'q\"d' 100% x<y \\\$HOME \\* 'back\\\\slash' ''\$" \
    "arm A's argv is printed first"
file_like err "^arm B: true\$" "and arm B's"
is "$(q "SELECT name || ' ' || experiment_path FROM runs")" "inline inline" \
    "stored as the experiment inline"
is "$(q "SELECT count(*) FROM samples WHERE status = 'ok'")" 8 \
    "stored: 4 rounds x 2 arms"
is "$(q "SELECT group_concat(arm, '') FROM (SELECT arm FROM samples
    ORDER BY round, position)")" ABBAABBA "interleaved: AB BA AB BA"
like "$(cat out)" "│ +A +│ +B +│" "the table: one column per command"
like "$(cat out)" "^cmd-2 " "and a row of the workload cmd"

# Several operands between two -- are one argv as they are.
rm -f a.out
"$ABBENCH" run --db "$DB" --rounds 1 --quiet -- ./dump '"x"' "a  b" \
    -- true >out 2>err
ok $? "an argv given as operands"
is "$(cat a.out)" "$(printf '%s\n' '["x"]' '[a  b]')" "taken word for word"

# The exit statuses of a file.
"$ABBENCH" run --db "$DB" --rounds 1 --quiet -- true -- false >out 2>err
is $? 1 "a command that fails: exit 1"
"$ABBENCH" run --db "$DB" --rounds 1 --quiet -- true -- \
    ./no-such-program >out 2>err
is $? 2 "a program that is not there: exit 2"
like "$(cat err)" "arm 'B': './no-such-program': no such file" \
    "the error names the arm and the program"
"$ABBENCH" run --db "$DB" -- true -- "echo 'oops" >out 2>err
is $? 2 "an unclosed quote: exit 2"
like "$(cat err)" "command 2: echo 'oops: missing closing '" \
    "the error names the command"
"$ABBENCH" run --db "$DB" -- true -- >out 2>err
is $? 2 "an empty command: exit 2"
like "$(cat err)" "command 2 is empty" "said so"
printf '[experiment]\nname = f\n[arm a]\nargs = true\n[workload c]\ntype = command\n' >f.ini
"$ABBENCH" run f.ini --db "$DB" -- true >out 2>err
is $? 2 "a file and inline commands: exit 2"
like "$(cat err)" "inline commands after \"--\" stand for the experiment" \
    "one or the other"
"$ABBENCH" run --db "$DB" -- "$(printf "echo 'a\\nb'")" >out 2>err
is $? 2 "a word with a line break: exit 2"
like "$(cat err)" "command 1: a word with a line break" "said so"
n=$(q "SELECT count(*) FROM runs")

# --until decided, as for a file.
"$ABBENCH" run --db "$DB" --until decided --max-rounds 12 -- true -- \
    'sleep 0.05' >out 2>err
ok $? "--until decided on inline commands" || diag "$(cat err)"
like "$(cat err)" "cmd-2 sec/op B vs A: different after [0-9]+ good rounds" \
    "the rule decided the row"
is "$(q "SELECT value FROM run_config WHERE run_id = (SELECT max(id) FROM
    runs) AND key = 'set.stop'")" decided "stored with the run (set.stop)"
is "$(q "SELECT count(*) FROM runs")" $((n + 1)) "one run more"

# compare RUN RUN: stat --db FILE RUN RUN's output, byte for byte.
"$ABBENCH" run --db "$DB" --rounds 4 --quiet -- true -- 'sleep 0.01' \
    >/dev/null 2>&1
r=$(q "SELECT max(id) FROM runs")
"$ABBENCH" run --db "$DB" --rounds 4 --quiet -- true -- 'sleep 0.01' \
    >/dev/null 2>&1
"$ABBENCH" compare --db "$DB" "$r" $((r + 1)) >cmp.out 2>cmp.err
ok $? "compare RUN RUN"
"$ABBENCH" stat --db "$DB" "$r" $((r + 1)) >stat.out 2>stat.err
is "$(cat cmp.out)" "$(cat stat.out)" "compare prints stat --db's tables"
like "$(cat cmp.out)" "│ +$r:A +│ +$r:B +│ +$((r + 1)):A +│ +$((r + 1)):B +│" \
    "every arm of both runs, in one table"
ABBENCH_DB=$DB "$ABBENCH" compare "$r" inline@last >cmp2.out 2>&1
"$ABBENCH" stat --db "$DB" "$r" inline@last >stat2.out 2>&1
is "$(cat cmp2.out)" "$(cat stat2.out)" "compare: \$ABBENCH_DB and NAME@last"
like "$(cat cmp2.out)" "inline@last:B" "NAME@last names the newest inline run"
"$ABBENCH" compare --db "$DB" "$r" >out 2>err
is $? 2 "compare with one run: exit 2"
like "$(cat err)" "compare: expected two runs" "said so"
"$ABBENCH" compare --db "$DB" "$r" 9999 >out 2>err
is $? 2 "compare with a missing run: exit 2"
"$ABBENCH" compare --help >out 2>&1
like "$(cat out)" "stat --db FILE RUN RUN" "compare --help says what it is"

done_testing
