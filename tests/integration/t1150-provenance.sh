#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54 item 5, provenance: every arm's executable has its path,
# sha256 and version (when --version answers, within a timeout) in the
# run's config lines and its export — the runtime, the program of a
# command or gobench workload, and the tool a wrapper runs (sh -c 'tool',
# timeout 20 tool) — and so do an arm's platform and runtime-args. The
# keys are named after the arm (or the workload whose argv all arms
# share), as runtime-version-ARM: two runs of one experiment on one host
# still compare in one table.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
require_cmd sha256sum sqlite3
cd "$TEST_TMP" || exit 1
DB=$TEST_TMP/t.db
mkdir bin
# A tool with a version, and one whose --version never answers: programs
# (a script is never asked --version: its body would run), built here.
require_cmd "${CC:-cc}"
cat >mytool.c <<'EOT'
#include <stdio.h>
#include <string.h>
int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		puts("mytool 1.2.3");
		puts("Copyright nobody");
		return 0;
	}
	puts("BenchmarkTool 1 100 ns/op");
	return 0;
}
EOT
cat >slowver.c <<'EOT'
#include <string.h>
#include <unistd.h>
int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0)
		sleep(60);
	return 0;
}
EOT
"${CC:-cc}" -o bin/mytool mytool.c && "${CC:-cc}" -o bin/slowver slowver.c
ok $? "the tools build"
# A script that counts its runs: never asked --version.
cat >bin/counted <<EOT
#!/bin/sh
echo "\$*" >> $TEST_TMP/counted.log
EOT
chmod +x bin/counted
PATH=$TEST_TMP/bin:$PATH
export PATH
sum() { sha256sum "$1" | cut -d' ' -f1; }
key() { sed -n "s/^$1: //p" "$2"; }

cat >cmd.ini <<EOI
[experiment]
name = t1150-cmd
rounds = 1

[arm direct]
args = $TEST_TMP/bin/mytool run

[arm shell]
args = sh -c "mytool run"

[arm slow]
args = timeout 20 slowver

[arm script]
args = $TEST_TMP/bin/counted run

[workload cmd]
type = command
EOI
t0=$(date +%s)
"$ABBENCH" run cmd.ini --db "$DB" --quiet >out 2>&1
ok $? "a command run whose arms run tools" || diag "$(cat out)"
t1=$(date +%s)
ok "$(test $((t1 - t0)) -lt 40; echo $?)" \
    "a --version that never answers is given up on ($((t1 - t0)) s)"
"$ABBENCH" db export --db "$DB" last >cmd.txt
is "$(key program-direct cmd.txt)" "$TEST_TMP/bin/mytool" \
    "export: the program as written"
is "$(key program-path-direct cmd.txt)" "$TEST_TMP/bin/mytool" \
    "export: the program's path"
is "$(key program-sha256-direct cmd.txt)" "$(sum bin/mytool)" \
    "export: the program's sha256"
is "$(key program-version-direct cmd.txt)" "mytool 1.2.3" \
    "export: the program's version (its first lines, not the copyright)"
is "$(key program-path-shell cmd.txt)" "$(readlink -f "$(command -v sh)")" \
    "a shell: its binary"
is "$(key tool-shell cmd.txt)" mytool "the shell's script runs mytool"
is "$(key tool-path-shell cmd.txt)" "$TEST_TMP/bin/mytool" \
    "the tool found on PATH: its path"
is "$(key tool-sha256-shell cmd.txt)" "$(sum bin/mytool)" "the tool's sha256"
is "$(key tool-version-shell cmd.txt)" "mytool 1.2.3" "the tool's version"
is "$(key program-path-slow cmd.txt)" "$(readlink -f "$(command -v timeout)")" \
    "timeout: its binary"
is "$(key tool-path-slow cmd.txt)" "$TEST_TMP/bin/slowver" \
    "timeout 20 slowver: the tool is slowver, not 20"
is "$(key tool-sha256-slow cmd.txt)" "$(sum bin/slowver)" "slowver's sha256"
is "$(grep -c '^tool-version-slow:' cmd.txt)" 0 \
    "no version of a tool whose --version did not answer"
is "$(key program-sha256-script cmd.txt)" "$(sum bin/counted)" \
    "a script: its sha256"
is "$(grep -c '^program-version-script:' cmd.txt)" 0 \
    "a script is not asked --version"
is "$(sort -u counted.log)" "run" "  (its body ran for its samples only: $(wc -l < counted.log) run(s), never with --version)"

# A gobench workload whose argv every arm shares: keys of the workload.
cat >gb.ini <<EOI
[experiment]
name = t1150-gb
rounds = 1

[arm one]
[arm two]

[workload gb]
type = gobench
args = timeout 20 mytool {arm}
EOI
"$ABBENCH" run gb.ini --db "$DB" --quiet >out 2>&1
ok $? "a gobench run through a wrapper" || diag "$(cat out)"
"$ABBENCH" db export --db "$DB" last >gb.txt
is "$(key program-gb gb.txt)" timeout "gobench: the workload's program"
is "$(key tool-path-gb gb.txt)" "$TEST_TMP/bin/mytool" \
    "gobench: the tool the wrapper runs"
is "$(key tool-version-gb gb.txt)" "mytool 1.2.3" "gobench: its version"
is "$(grep -c -E '^(program|tool)(-[a-z0-9]+)?-(one|two):' gb.txt)" 0 \
    "arms that share the workload's argv get no keys of their own"

# Two runs of one experiment on one host: one table.
"$ABBENCH" run cmd.ini --db "$DB" --quiet >out 2>&1
"$ABBENCH" db export --db "$DB" last >cmd2.txt
is "$(grep -v -e '^Benchmark' -e '^arm:' cmd.txt)" \
    "$(grep -v -e '^Benchmark' -e '^arm:' cmd2.txt)" \
    "two runs of one experiment: the same config lines"
r2=$(sqlite3 "$DB" "SELECT max(id) FROM runs")
"$ABBENCH" stat --db "$DB" $((r2 - 2)) "$r2" >stat.out 2>&1
ok $? "stat --db of both runs"
is "$(grep -c 'vs base' stat.out)" 1 "two runs of one experiment: one table"
"$ABBENCH" stat -col arm cmd.txt >arms.out 2>&1
is "$(grep -c 'vs base' arms.out)" 1 "the arms of one run: one table"

# An OCI arm's platform and runtime flags (runsc), and its runtime.
if [ "$(id -u)" = 0 ] && command -v runsc >/dev/null &&
    command -v busybox >/dev/null && [ -x "$TOUCHMEM" ]; then
	lc_rootfs
	cat >oci.ini <<EOI
[experiment]
name = t1150-oci
rounds = 1

[arm runsc-ptrace]
runtime = runsc
platform = ptrace
runtime-args = --network=none --watchdog-action=log

[arm runsc]
runtime = runsc

[workload startup]
type = startup
executor = oci
image = $LC_ROOTFS
EOI
	"$ABBENCH" run oci.ini --db "$DB" --quiet >out 2>&1
	ok $? "an oci run with a platform and runtime flags" ||
	    diag "$(cat out)"
	"$ABBENCH" db export --db "$DB" last >oci.txt
	is "$(key platform-runsc-ptrace oci.txt)" "ptrace (arm)" \
	    "export: the arm's platform"
	is "$(key runtime-args-runsc-ptrace oci.txt)" \
	    "--network=none --watchdog-action=log" "export: its runtime flags"
	is "$(grep -c -E '^runtime-args-runsc:' oci.txt)" 0 \
	    "the other arm sets no flags: no key"
	is "$(grep -c -E '^platform-runsc: .* \(runsc default\)$' oci.txt)" \
	    1 "its platform is runsc's default (t1151)"
	is "$(key runtime-sha256-runsc oci.txt)" \
	    "$(sum "$(readlink -f "$(command -v runsc)")")" \
	    "export: the runtime's sha256"
else
	for i in 1 2 3 4 5; do
		pass "# SKIP oci needs root, runsc, busybox and touchmem"
	done
fi

done_testing
