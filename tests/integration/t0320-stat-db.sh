#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `abbench stat --db FILE RUN[:ARM]...`: runs imported into the store and
# compared straight from it must give exactly what benchstat gives on the
# original files; arm selection, labels with several runs, and errors.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

VEC=$ABBENCH_SRCDIR/tests/data/benchstat-vectors/vectors
[ -d "$VEC/two_files_basic" ] || skip_all "no benchstat vectors"
cd "$TEST_TMP" || exit 1
cp "$VEC/two_files_basic/old.txt" "$VEC/two_files_basic/new.txt" .
DB=$TEST_TMP/t.db

"$ABBENCH" db --db "$DB" import old.txt new.txt > /dev/null
ok $? "import two files as one run"

"$ABBENCH" stat --db "$DB" last > out 2> err
ok $? "stat --db exits 0"
cmp -s out "$VEC/two_files_basic/expected.txt"
ok $? "stat --db RUN prints benchstat's table for the files"
is "$(cat err)" "" "no stderr"

"$ABBENCH" stat --db="$DB" -format csv 1 > out 2> err
"$ABBENCH" stat -format csv old.txt new.txt > want 2> /dev/null
cmp -s out want
ok $? "--db=FILE, benchstat flags after it, run by id, CSV"

"$ABBENCH" stat --db "$DB" last:new.txt > out 2> err
"$ABBENCH" stat new.txt > want 2> /dev/null
cmp -s out want
ok $? "RUN:ARM selects one arm, labelled with the arm"

"$ABBENCH" stat --db "$DB" 1:new.txt last > out 2> err
head -n 4 out | grep -q '│ *1:new.txt *│ *last:old.txt *│ *last:new.txt *│'
ok $? "several selectors: columns SEL for RUN:ARM, RUN:ARM for RUN"

"$ABBENCH" stat --db "$DB" last:nope > out 2> err
is "$?" "2" "unknown arm: exit 2"
like "$(cat err)" "run 'last:nope' has no arm 'nope'" "unknown arm: message"

"$ABBENCH" stat --db "$DB" 999 > out 2> err
is "$?" "2" "unknown run: exit 2"
is "$(wc -c < out | tr -d ' ')" "0" "unknown run: no output"

"$ABBENCH" stat --db "$TEST_TMP/none.db" last > out 2> err
is "$?" "2" "missing database: exit 2"
[ ! -e "$TEST_TMP/none.db" ]
ok $? "missing database: not created"

done_testing
