#!/bin/sh
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
	"$ABBENCH" run --help "$t" | grep -q "^\[workload NAME\] keys of type $t:"
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

done_testing
