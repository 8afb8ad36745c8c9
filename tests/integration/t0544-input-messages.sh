#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Input mistakes get the message that fixes them, exit 2:
#  - one duration grammar, Go's time.ParseDuration plus "min", in files
#    and flags, with one message: `timeout = 5 minutes` was "has several
#    values: a matrix is only allowed in a [workload] section"; 2sec and
#    1h30m were refused while 1min was taken; a bare 1 was silently 1 s;
#  - "did you mean" for keys, types, subcommands and flags, go test's
#    -count mapped to --rounds; `run --help comand` took the typo for a
#    file and exited 0;
#  - a host setting's error names its own file:line:key, not the line of
#    the arm's first host.block key.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
exp_timeout() {
	printf '[experiment]\nname = in\nrounds = 1\ntimeout = %s\n\n[arm a]\nargs = true\n\n[workload Cmd]\ntype = command\n' "$1" > in.ini
}
run_err() {
	"$ABBENCH" run "$@" --db "$DB" --quiet > out 2> err
}

exp_timeout "5 minutes"
run_err in.ini
is "$?" 2 "timeout = 5 minutes: exit 2"
like "$(cat err)" "in\.ini:4: timeout: invalid duration '5 minutes': .*did you mean '5m'\?" \
    "file:line:key, the duration's message, did you mean 5m"
grep -q matrix err
is "$?" 1 "... not a matrix message"
file_msg=$(sed 's/^abbench: in\.ini:4: //' err)
exp_timeout "1s"
run_err in.ini --timeout "5 minutes"
is "$?" 2 "--timeout '5 minutes': exit 2"
is "$(sed 's/^abbench: run: //' err)" "$file_msg" "the flag gets the file's message"

for v in 2sec 1; do
	exp_timeout "$v"
	run_err in.ini
	is "$?" 2 "timeout = $v: exit 2"
done
like "$(cat err)" "invalid duration '1': .*did you mean '1s'\?" "a bare 1 is no longer silently seconds"
exp_timeout 2sec
run_err in.ini
like "$(cat err)" "did you mean '2s'\?" "2sec: did you mean 2s"
for v in 1h30m 1min 1.5s 250ms; do
	exp_timeout "$v"
	run_err in.ini
	is "$?" 0 "timeout = $v runs"
done
exp_timeout 1s
run_err in.ini --timeout 1h30m
is "$?" 0 "--timeout 1h30m runs"

# Keys, types, subcommands, flags.
printf '[experiment]\nname = in\nrounds = 1\n\n[arm a]\nargs = true\n\n[workload Cmd]\ntype = command\nreprot = time\n' > k.ini
run_err k.ini
is "$?" 2 "reprot: exit 2"
like "$(cat err)" "k\.ini:10: reprot: unknown key in \[workload Cmd\] \(type command\); did you mean 'report'\?" \
    "reprot: file:line:key, did you mean report"
printf '[experiment]\nname = in\nrouds = 1\n\n[arm a]\nargs = true\n\n[workload Cmd]\ntype = comand\n' > k2.ini
run_err k2.ini
like "$(cat err)" "k2\.ini:3: rouds: .*did you mean 'rounds'\?" "rouds: did you mean rounds"
sed 's/^rouds/rounds/' k2.ini > k3.ini
run_err k3.ini
is "$?" 2 "type = comand: exit 2"
like "$(cat err)" "k3\.ini:9: type: unknown workload type 'comand': did you mean 'command'\?" \
    "comand: did you mean command"
"$ABBENCH" reprot > out 2> err
is "$?" 2 "abbench reprot: exit 2"
like "$(cat err)" "did you mean 'report'\?" "subcommand: did you mean report"

exp_timeout 1s
for f in "-count 5" "--count 5" "-count=5"; do
	# shellcheck disable=SC2086
	run_err in.ini $f
	is "$?" 2 "run $f: exit 2"
	like "$(cat err)" "did you mean '--rounds 5'\?" "run $f: did you mean --rounds 5"
done
run_err in.ini --roudns 5
like "$(cat err)" "unknown option '--roudns': did you mean '--rounds'\?" "--roudns: did you mean --rounds"
run_err in.ini --wiat-lock
like "$(cat err)" "did you mean '--wait-lock'\?" "--wiat-lock: did you mean --wait-lock"
is "$(sqlite3 "$DB" "SELECT count(*) FROM runs")" 5 "only the 5 good timeouts started a run"

"$ABBENCH" run --help comand > out 2> err
is "$?" 2 "run --help comand: exit 2"
like "$(cat err)" "did you mean 'command'\?" "run --help comand: did you mean command"
is "$(wc -c < out | tr -d ' ')" 0 "... and no usage printed as if all were well"
"$ABBENCH" run --help command > out 2> err
is "$?" 0 "run --help command: exit 0"

# A host setting's error at its own line (root: a loop device).
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 > /dev/null &&
    make_loop 64 mq-deadline; then
	printf '[experiment]\nname = h\nrounds = 1\n\n[arm a]\nhost.block.path = %s\nhost.block.scheduler = mq-deadline\nhost.block.slice_idle = 0\nargs = true\n\n[workload Cmd]\ntype = command\n' "$LOOP_MNT" > h.ini
	run_err h.ini
	is "$?" 2 "a tunable the scheduler lacks: exit 2"
	like "$(cat err)" "h\.ini:8: host\.block\.slice_idle: .*has no tunable 'slice_idle'" \
	    "named at line 8, its own key (not the scheduler's line 7)"
	is "$(cat "$LOOP_SYSFS/scheduler" | sed 's/.*\[\(.*\)\].*/\1/')" mq-deadline \
	    "nothing was touched"
else
	diag "not root or no loop device: the host line check is skipped"
fi
done_testing
