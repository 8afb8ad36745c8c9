#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0020-options: the options tables serve the experiment file, the command
# line and the help alike: `abbench run --help TYPE` and `abbench help
# workloads` list every key with its default; `--KEY=VALUE` sets an
# [experiment] key as the file would, checked by the same table.
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1

out=$("$ABBENCH" run --help fio)
ok $? "run --help fio exits 0"
like "$out" '^  iodepth = integer .*\(default: 1\)' \
    "run --help fio lists iodepth with its default"
like "$out" '^  timeout = duration' "and the keys every workload takes"

types=$("$ABBENCH" help workloads | sed -n 's/^workload type \([^:]*\):.*/\1/p' |
    tr '\n' ' ')
# Every type of the table in workloads/workload.c, and no other.
want=$(sed -n 's/^extern const struct workload_ops wl_\(.*\)_ops;/\1/p' \
    "$ABBENCH_SRCDIR/workloads/workload.c" | tr _ - | sort | tr '\n' ' ')
got=$(printf '%s\n' $types | sort | tr '\n' ' ')
[ -n "$want" ]
ok $? "workload.c declares the types"
is "$got" "$want" "help workloads names every type"
for t in $types; do
	"$ABBENCH" run --help "$t" | grep -q "^\[workload NAME\] keys of type $t "
	ok $? "run --help $t lists the keys of $t"
done

"$ABBENCH" run --help | grep -A2 '^  rounds = integer' | grep -q 'default: 10)'
ok $? "run --help lists the [experiment] keys with their defaults"
out=$("$ABBENCH" run --help)
like "$out" '^  host\.block\.scheduler  ' "and the host settings an arm may set"
like "$out" '^  host\.sysctl\.NAME  ' "prefixes named as such"

cat >e.ini <<'INI'
[experiment]
name = opts
rounds = 2
warmup = 1
[arm a]
[arm b]
[workload w]
type = command
args = true
INI

"$ABBENCH" run e.ini --db o.db --quiet --warmup=0 --rounds 1 >/dev/null 2>&1
ok $? "run with --warmup=0 --rounds 1 exits 0"
n=$(sqlite3 o.db "SELECT count(*) FROM samples")
is "$n" 2 "--warmup=0 overrides the file: 1 round x 2 arms, no warm-up"

err=$("$ABBENCH" run e.ini --db o.db --timeout=abc 2>&1)
is $? 2 "--timeout=abc exits 2"
like "$err" "timeout: invalid duration 'abc'" "and names the key and the value"
err=$("$ABBENCH" run e.ini --db o.db --seed -1 2>&1)
is $? 2 "--seed -1 exits 2 (the table's unsigned integer)"
err=$("$ABBENCH" run e.ini --db o.db --no-such-key=1 2>&1)
is $? 2 "an unknown --KEY=VALUE exits 2"
n=$(sqlite3 o.db "SELECT count(*) FROM runs")
is "$n" 1 "refused command lines store nothing"

NCPU=$(nproc)
# Workload keys from the command line: --KEY=VALUE in every workload whose
# type has it, --WORKLOAD.KEY=VALUE in one; checked as the file's are.
cat >w.ini <<'INI'
[experiment]
name = wopts
rounds = 1
[arm a]
[workload one]
type = command
args = true
report = time
[workload one.two]
type = command
args = true
report = time
INI
"$ABBENCH" run w.ini --db w.db --quiet --report="time user" >/dev/null 2>&1
ok $? "--report='time user' is a workload key"
is "$(sqlite3 w.db "SELECT group_concat(DISTINCT benchmark || ':' || unit) FROM (SELECT * FROM samples ORDER BY benchmark, unit)")" \
    "one-$NCPU:sec/op,one-$NCPU:user-sec/op,one.two-$NCPU:sec/op,one.two-$NCPU:user-sec/op" "it is set in every workload that has the key"
is "$(sqlite3 w.db "SELECT value FROM run_config WHERE key = 'set.report'")" "time user" "and stored with the run"
"$ABBENCH" run w.ini --db w2.db --quiet --one.two.report=user >/dev/null 2>&1
ok $? "--one.two.report=user names one workload (whose name has a dot)"
is "$(sqlite3 w2.db "SELECT group_concat(DISTINCT benchmark || ':' || unit) FROM (SELECT * FROM samples ORDER BY benchmark, unit)")" \
    "one-$NCPU:sec/op,one.two-$NCPU:user-sec/op" "only that workload changes"
err=$("$ABBENCH" run w.ini --db w3.db --ok-status=300 2>&1)
is "$?:$err" "2:abbench: w.ini: ok-status: 300 is out of range [0, 255]" "a bad workload value exits 2 naming the key"
err=$("$ABBENCH" run w.ini --db w3.db --one.fio-args=x 2>&1)
is "$?:$err" "2:abbench: w.ini: --one.fio-args=x: the workload's type has no such key (abbench run --help TYPE lists them)" \
    "a key the named workload's type lacks exits 2"
err=$("$ABBENCH" run w.ini --db w3.db --type=fio 2>&1)
is "$?:$err" "2:abbench: w.ini: --type=fio: a workload's type cannot be set from the command line" "the type cannot be changed"
is "$(ls w3.db 2>/dev/null | wc -l)" 0 "refused workload keys store nothing"

done_testing
