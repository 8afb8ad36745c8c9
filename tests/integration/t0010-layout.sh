#!/bin/sh
# t0010-layout: the floors of the source tree point down only (README,
# "Layout"). Each check is a grep over the sources that prints what breaks
# the rule, so a failure names the file and line.
#
#   lib/                 includes nothing of ours but lib/
#   stats/, results/     include nothing of harness/ or workloads/
#   workloads/           includes nothing of harness/core or the commands
#   harness/exec, host   include nothing of harness/core or the commands
#   sqlite3_*            only in results/
#   workloads/           never compare an executor's name: they ask its
#                        capabilities (exec_ops.caps) instead
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

cd "$ABBENCH_SRCDIR" || exit 1

# Print the lines of FILES... matching REGEX (comments are not code).
code_grep() {
	re=$1
	shift
	grep -nE "$re" "$@" /dev/null 2>/dev/null | grep -vE ':[0-9]+:\s*(/?\*|//)'
}

# none DESC REGEX FILE...: no line of the files matches.
none() {
	desc=$1 re=$2
	shift 2
	hits=$(code_grep "$re" "$@")
	if [ -z "$hits" ]; then
		pass "$desc"
	else
		fail "$desc"
		printf '%s\n' "$hits" | sed 's/^/#   /'
	fi
}

src() {
	find "$@" -name '*.[ch]' 2>/dev/null | sort
}

# The checks must see real files (a typo in a path would pass them).
n=$(src lib stats results workloads harness | wc -l)
[ "$n" -gt 100 ]
ok $? "the tree has its sources ($n files)"

none "lib/ includes only lib/" \
    '#include "(harness|stats|results|workloads)/' $(src lib)
none "stats/ includes nothing of harness/, results/ or workloads/" \
    '#include "(harness|results|workloads)/' $(src stats)
none "results/ includes nothing of harness/ or workloads/" \
    '#include "(harness|workloads)/' $(src results)
none "workloads/ include neither harness/core nor the commands" \
    '#include "harness/(core/|[^/]*")' $(src workloads)
none "harness/exec includes neither harness/core, host nor the commands" \
    '#include "(harness/(core/|host/|[^/]*")|workloads/)' $(src harness/exec)
none "harness/host includes neither harness/core nor the commands" \
    '#include "(harness/(core/|[^/]*")|workloads/)' $(src harness/host)
none "harness/core includes no command" \
    '#include "harness/[^/]*"' $(src harness/core)
none "no sqlite3_ call outside results/" \
    'sqlite3_|<sqlite3\.h>' $(src lib stats harness workloads)
none "no workload compares or looks up an executor's name" \
    '(strn?cmp|strcasecmp|exec_lookup)\([^;]*"(local|docker|oci)"' \
    $(src workloads)

done_testing
