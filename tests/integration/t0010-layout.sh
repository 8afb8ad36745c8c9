#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0010-layout: the floors of the source tree point down only
# (docs/architecture.md, "Layout"). Each check is a grep over the sources
# that prints what breaks the rule, so a failure names the file and line.
#
#   lib/                 includes nothing of ours but lib/
#   lib/goregexp/        (Go's regexp and Unicode tables) stands on lib/:
#                        no other file of lib/ includes it
#   stats/, results/     include nothing of exec/, host/, harness/ or
#                        workloads/
#   exec/                includes nothing of host/, workloads/ or harness/
#   host/                includes nothing of workloads/ or harness/
#   workloads/           includes nothing of harness/
#   harness/core/        includes nothing of harness/ but harness/core/
#   harness/fleet/       includes no command, analysis nor run core
#   harness/analysis/    includes no command nor fleet (it stands on the
#                        run core, the store and the statistics)
#   payload/             (programs run in sandboxes or as children)
#                        includes nothing of ours but lib/ and the spawn
#                        helper's protocol (exec/spawn-serve.h); nothing
#                        includes payload/
#   sqlite3_*            only in results/
#   workloads/           never compare an executor's name: they ask its
#                        capabilities (exec_ops.caps) instead; never list
#                        executor names as choices (the registry does)
#   workloads/, host/    call no oci_ verb nor include exec-oci.h: the
#                        runtime's steps are exec_ops.steps
#   workloads/, host/    name no docker function, exec_docker_ or the
#                        program "docker": what they need of a container
#                        daemon is a hook of exec_ops (startup-bench,
#                        gVisor's docker benchmark, is a payload/ program)
#   workloads/           read their keys from their options structs
#                        (wl_opts), not by name with a string getter: only
#                        keys.c, which defines them, names the getters
#   every .c and .h      at most 1200 lines (the house's limit), but the
#                        generated ones (lib/goregexp/unitab.c:
#                        gen-unitab.mjs)
#   every cmd_*_exec     at most 80 lines, its name line to its closing
#                        brace: a command is its flags table and a few
#                        named steps (issue 58)
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
	none_but "$desc" "$re" '^$' "$@"
}

# none_but DESC REGEX ALLOWED FILE...: no line of the files matches REGEX
# but those that match ALLOWED too.
none_but() {
	desc=$1 re=$2 allowed=$3
	shift 3
	hits=$(code_grep "$re" "$@" | grep -vE "$allowed")
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
n=$(src lib stats results exec host workloads harness payload | wc -l)
[ "$n" -gt 100 ]
ok $? "the tree has its sources ($n files)"

none "lib/ includes only lib/" \
    '#include "(harness|exec|host|stats|results|workloads)/' $(src lib)
none "stats/ includes nothing of harness/, exec/, host/, results/ or workloads/" \
    '#include "(harness|exec|host|results|workloads)/' $(src stats)
none "results/ includes nothing of harness/, exec/, host/ or workloads/" \
    '#include "(harness|exec|host|workloads)/' $(src results)
none "exec/ includes nothing of host/, workloads/ or harness/" \
    '#include "(harness|host|workloads)/' $(src exec)
none "host/ includes nothing of workloads/ or harness/" \
    '#include "(harness|workloads)/' $(src host)
none "workloads/ include nothing of harness/" \
    '#include "harness/' $(src workloads)
none "lib/ includes nothing of lib/goregexp/ (the port stands on lib/)" \
    '#include "lib/goregexp/' $(src lib | grep -v '^lib/goregexp/')
none "harness/core/ includes nothing of harness/ but harness/core/" \
    '#include "harness/([^/]*"|analysis/|fleet/)' $(src harness/core)
none "harness/fleet/ includes no command, analysis nor run core" \
    '#include "harness/([^/]*"|analysis/|core/)' $(src harness/fleet)
none "harness/analysis/ includes no command nor fleet" \
    '#include "harness/([^/]*"|fleet/)' $(src harness/analysis)
none_but "payload/ includes nothing of ours but lib/ and exec/spawn-serve.h" \
    '#include "(harness|exec|host|stats|results|workloads)/' \
    '#include "exec/spawn-serve\.h"' $(src payload)
none "nothing outside payload/ includes payload/" \
    '#include "payload/' $(src lib stats results exec host workloads harness)
none "no sqlite3_ call outside results/" \
    'sqlite3_|<sqlite3\.h>' \
    $(src lib stats exec host harness workloads payload)
none "no workload compares or looks up an executor's name" \
    '(strn?cmp|strcasecmp|exec_lookup)\([^;]*"(local|docker|oci)"' \
    $(src workloads)
none "no executor names listed as choices in workloads/" \
    '"[^"]*\b(local|docker|oci) (local|docker|oci)\b[^"]*"' $(src workloads)
none "workloads/ call no string getter of keys (they read wl_opts)" \
    '\b(workload_get|arm_get|workload_get_[a-z]+)\(|WL_TABLE_DEFAULT' \
    $(src workloads | grep -vE '^workloads/(keys\.c|workload\.h)$')
none "no typed getter or WL_TABLE_DEFAULT is left anywhere" \
    '\bworkload_get_(int|float|duration|size|bool|words)\b|WL_TABLE_DEFAULT' \
    $(src lib stats results exec host workloads harness tests)
# A user-facing key (the checkpoint's OPT_BOOL("docker", ...)) is a word,
# not a program or a call.
none "workloads/ and host/ name no docker function nor run \"docker\"" \
    '(^|[^(])"docker"|\b[a-z_0-9]+\("docker"|\bexec_docker_|'\
'\bdocker_[a-z_]+\(|exec-docker\.h' \
    $(src workloads host)
none "exec-docker.h is gone: the docker executor is its ops table" \
    'exec-docker\.h' $(src lib stats results exec host workloads harness)
# The runtime's steps are reached through exec_ops.steps (issue 58): no
# side door to one executor's verbs.
none "workloads/ and host/ call no executor's runtime verbs (oci_*)" \
    '\boci_[a-z_]+\(|exec-oci\.h|\bexec_oci_' $(src workloads host)

# The house's limit on a file's length: every hand-written C source or
# header, the tests' too. Generated files are named here, one by one.
max_lines=1200
generated='lib/goregexp/unitab.c'
long=$(find lib stats results exec host workloads harness payload bench tests \
    -name '*.[ch]' 2>/dev/null | sort | while read -r f; do
	case " $generated " in *" $f "*) continue ;; esac
	n=$(wc -l <"$f")
	[ "$n" -le "$max_lines" ] || printf '%s: %s lines\n' "$f" "$n"
done)
if [ -z "$long" ]; then
	pass "no hand-written .c or .h over $max_lines lines"
else
	fail "no hand-written .c or .h over $max_lines lines"
	printf '%s\n' "$long" | sed 's/^/#   /'
fi
for f in $generated; do
	[ -f "$f" ] && grep -q 'Generated by' "$f"
	ok $? "$f, excepted from the limit, is generated (says so)"
done

# A command's exec is a few named steps: at most 80 lines from the line
# of its name to its closing brace (the house's style: a function's name
# starts its line, its closing brace ends it in column 0).
max_exec=80
execs=$(awk '
	FNR == 1 { name = "" }
	/^cmd_[a-z_]*_exec\(/ { name = $0; sub(/\(.*/, "", name); start = FNR }
	/^}/ && name != "" {
		printf "%s:%s %d\n", FILENAME, name, FNR - start + 1
		name = ""
	}' harness/cmd*.c)
n=$(printf '%s\n' "$execs" | grep -c 'exec [0-9]')
long=$(printf '%s\n' "$execs" | awk -v max="$max_exec" '$2 > max')
if [ "$n" -ge 10 ] && [ -z "$long" ]; then
	pass "every cmd_*_exec is at most $max_exec lines ($n of them)"
else
	fail "every cmd_*_exec is at most $max_exec lines ($n of them)"
	printf '%s\n' "$long" | sed 's/^/#   /'
fi

done_testing
