#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checked before the first sample: the README's own example (a program
# that is not there) is refused with file:line, exit 2 and no database;
# a program on $PATH or by path that cannot run likewise; an arm's runtime
# or runtime-args that no workload uses is an error at its line (a
# gobench program taking {runtime} uses it); `restore --db` of a missing
# file exits 2.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
cd "$TEST_TMP" || exit 1

# The README's example experiment, as printed there.
sed -n '/^\[experiment\]$/,/^```$/p' "$ABBENCH_SRCDIR/README.md" | sed '/^```$/d' > my.ini
like "$(cat my.ini)" "/usr/local/bin/mytool --old-path" "the README's example"
[ ! -e /usr/local/bin/mytool ] || skip_all "/usr/local/bin/mytool exists here"
"$ABBENCH" run my.ini --db "$TEST_TMP/my.db" > out 2> err
is "$?" 2 "mytool absent: exit 2"
like "$(cat err)" "^abbench: my\.ini:10: args: arm 'before': '/usr/local/bin/mytool': no such file$" "named at the arm's args line"
[ ! -e my.db ]
ok $? "before the first sample: no database"

printf '[experiment]\nname = p\nrounds = 1\n\n[arm a]\nargs = true\n\n[arm b]\nargs = no-such-tool-xyz --flag\n\n[workload Cmd]\ntype = command\n' > path.ini
"$ABBENCH" run path.ini --db "$TEST_TMP/p.db" > out 2> err
is "$?" 2 "a name not on \$PATH: exit 2"
like "$(cat err)" "path\.ini:9: args: arm 'b': 'no-such-tool-xyz': not found on \\\$PATH" "named, with its line"

printf 'data\n' > notexec
printf '[experiment]\nname = x\nrounds = 1\n\n[arm a]\n\n[workload Cmd]\ntype = command\nargs = ./notexec\n' > nx.ini
"$ABBENCH" run nx.ini --db "$TEST_TMP/x.db" > out 2> err
is "$?" 2 "a file that is not executable: exit 2"
like "$(cat err)" "nx\.ini:9: args: arm 'a': '\./notexec': cannot run it: Permission denied" "at the workload's args line"
mkdir adir
sed 's|./notexec|./adir|' nx.ini > dir.ini
"$ABBENCH" run dir.ini --db "$TEST_TMP/x.db" > out 2> err
is "$?" 2 "a directory: exit 2"

printf '[experiment]\nname = g\nrounds = 1\n\n[arm a]\n\n[workload G]\ntype = gobench\nargs = /no/such/bench -test.bench=.\n' > gb.ini
"$ABBENCH" run gb.ini --db "$TEST_TMP/g.db" > out 2> err
is "$?" 2 "gobench: a missing program: exit 2"
like "$(cat err)" "gb\.ini:9: args: arm 'a': '/no/such/bench': no such file" "gobench: named"

# Arm keys no workload uses.
printf '[experiment]\nname = rt\nrounds = 1\n\n[arm a]\nargs = true\nruntime = runsc\nruntime-args = --platform=ptrace\n\n[workload Cmd]\ntype = command\n' > rt.ini
"$ABBENCH" run rt.ini --db "$TEST_TMP/rt.db" > out 2> err
is "$?" 2 "runtime on a command workload: exit 2"
like "$(cat err)" "^abbench: rt\.ini:7: runtime: no workload uses it" "named at its line"
[ ! -e rt.db ]
ok $? "nothing stored (no runtime-version-a line)"
sed '/^runtime = /d' rt.ini > rta.ini
"$ABBENCH" run rta.ini --db "$TEST_TMP/rt.db" > out 2> err
is "$?" 2 "runtime-args alone: exit 2"
like "$(cat err)" "rta\.ini:7: runtime-args: no workload uses it" "runtime-args named at its line"
printf '[experiment]\nname = gr\nrounds = 1\n\n[arm a]\nruntime = rt-a\n\n[workload G]\ntype = gobench\nargs = sh -c "echo BenchmarkX 1 {runtime} ns/op"\n' > gr.ini
sed -i 's/{runtime} ns/1{runtime} ns/; s/rt-a/7/' gr.ini
"$ABBENCH" run gr.ini --db "$TEST_TMP/gr.db" --quiet > out 2> err
ok $? "gobench passing {runtime}: accepted and run"
is "$(sqlite3 gr.db "SELECT value FROM samples WHERE unit = 'sec/op'")" "1.7e-08" "{runtime} reached the program"

"$ABBENCH" restore --db "$TEST_TMP/nosuch.db" > out 2> err
is "$?" 2 "restore --db of a missing file: exit 2"
like "$(cat err)" "cannot open '.*nosuch\.db'" "and says so"
[ ! -e nosuch.db ]
ok $? "not created"
done_testing
