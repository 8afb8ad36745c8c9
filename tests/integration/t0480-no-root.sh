#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# No root needed for what needs none: as nobody, with no writable cgroup
# hierarchy, a command experiment runs every sample (in abbench's own
# cgroup, one warning saying what is then not measured); the quickstart's
# dd fallback works; what does need root (a host setting, drop-caches, an
# arm's cpu limit) is refused before the first sample at its file:line,
# with nothing touched and no database made; so is executor = oci.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd setpriv sqlite3
[ "$(id -u)" -eq 0 ] || skip_all "needs root to become nobody"
RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups --"
$RUNAS true 2>/dev/null || skip_all "setpriv cannot drop to uid 65534"

chmod 755 "$TEST_TMP"
W=$TEST_TMP/w
mkdir "$W" && chmod 777 "$W"
cd "$W" || exit 1
nobody() {
	$RUNAS env HOME="$W" ABBENCH_STATE_DIR="$W/state" "$@"
}
# A build tree nobody cannot reach (a clone in a 0700 mktemp -d): the same
# programs, copied where nobody can run them (abbench finds its helpers
# beside itself, libexec_find).
if ! nobody "$ABBENCH" --version > /dev/null 2>&1; then
	bdir=$(dirname "$ABBENCH")
	T=$TEST_TMP/tree
	for sub in . payload payload/cpu payload/idle; do
		mkdir -p "$T/$sub" && chmod 755 "$T/$sub" || exit 1
		find "$bdir/$sub" -maxdepth 1 -type f -perm -u+x \
		    -exec cp -p {} "$T/$sub/" \;
	done
	chmod -R a+rX "$T"
	ABBENCH=$T/$(basename "$ABBENCH")
	diag "nobody cannot reach $bdir: running a copy in $T"
fi
nobody "$ABBENCH" --version > /dev/null 2>&1 || skip_all "nobody cannot run $ABBENCH"

printf '[experiment]\nname = nr\nrounds = 3\n\n[arm fast]\nargs = true\n\n[arm slow]\nargs = sleep 0.01\n\n[workload Cmd]\ntype = command\nreport = time user sys rss\n' > nr.ini
chmod 644 nr.ini
nobody "$ABBENCH" run nr.ini --db "$W/nr.db" > out 2> err
is "$?" 0 "a command experiment as nobody exits 0"
is "$(sqlite3 nr.db "SELECT count(DISTINCT plan_idx) FROM samples WHERE status = 'ok'")" 6 "every sample ok (6 of 6)"
is "$(sqlite3 nr.db "SELECT count(*) FROM samples WHERE status != 'ok'")" 0 "no failed sample"
is "$(grep -c 'cgroup' err)" 1 "one line about cgroups"
like "$(cat err)" "warning: cannot make cgroups below '[^']*': Permission denied: programs run in abbench's own cgroup, not one of their own: their cgroup CPU time and memory are not measured apart" "the warning says what is not measured"
like "$(sqlite3 nr.db "SELECT min(value) FROM samples WHERE unit = 'max-rss-B'")" "^[0-9]+(\.[0-9]+)?$" "rss still measured"

# No state directory (a $HOME that does not exist, no $ABBENCH_STATE_DIR):
# the fatal error alone, the cgroup warning not before it (newcomer's
# friction 16: the warning came first and hid what to do).
$RUNAS env -u ABBENCH_STATE_DIR -u XDG_STATE_HOME HOME="$W/no-home" \
    "$ABBENCH" run nr.ini --db "$W/nh.db" > out 2> err
is "$?" 2 "no state directory as nobody: exit 2"
like "$(cat err)" "cannot make abbench's state directory '$W/no-home/[^']*'.*set \\\$ABBENCH_STATE_DIR" "no state directory: the error says what to set"
is "$(grep -c 'cgroup' err)" 0 "no state directory: no cgroup warning before the error"
[ ! -e "$W/nh.db" ]
ok $? "no state directory: no database made"

# The quickstart's fallback, its scratch file in our directory.
sed "s|/var/tmp/abbench-quickstart.dat|$W/qs.dat|" \
    "$ABBENCH_SRCDIR/experiments/quickstart-dd.ini" > qs.ini
chmod 644 qs.ini
nobody "$ABBENCH" run qs.ini --db "$W/qs.db" --until rounds --rounds 2 > out 2> err
is "$?" 0 "quickstart-dd as nobody exits 0"
is "$(sqlite3 qs.db "SELECT count(DISTINCT plan_idx) FROM samples WHERE status = 'ok'")" 4 "quickstart-dd: every sample ok"

refused() {	# NAME INI REGEX
	chmod 644 "$2"
	nobody "$ABBENCH" run "$2" --db "$W/$1.db" > out 2> err
	is "$?" 2 "$1 as nobody: exit 2"
	like "$(cat err)" "$3" "$1: refused at its key's line, saying what to do"
	[ ! -e "$W/$1.db" ]
	ok $? "$1: before anything is touched (no database)"
}
before=$(cat /sys/kernel/mm/transparent_hugepage/enabled)
printf '[experiment]\nname = hs\nrounds = 2\n\n[arm a]\nargs = true\nhost.thp.enabled = never\n\n[arm b]\nargs = true\nhost.thp.enabled = always\n\n[workload Cmd]\ntype = command\n' > hs.ini
refused hs hs.ini "^abbench: hs\.ini:7: host\.thp\.enabled: changing a host setting needs root .*run it as root"
is "$(cat /sys/kernel/mm/transparent_hugepage/enabled)" "$before" "hs: THP untouched"

printf '[experiment]\nname = dc\nrounds = 2\ndrop-caches = yes\n\n[arm a]\nargs = true\n\n[workload Cmd]\ntype = command\n' > dc.ini
refused dc dc.ini "^abbench: dc\.ini:4: drop-caches: dropping the page cache needs root .*set drop-caches = no"

printf '[experiment]\nname = lim\nrounds = 2\n\n[arm a]\nargs = true\ncpu = 0.5\n\n[workload Cmd]\ntype = command\n' > lim.ini
refused lim lim.ini "^abbench: lim\.ini:7: cpu: a limit needs a cgroup per program: .*run abbench as root"

# Issue 54, newcomer friction 6: executor = oci as nobody ran every
# sample, each failing, runsc's own log on the terminal.
printf '[experiment]\nname = oc\nrounds = 2\n\n[arm a]\nruntime = runc\n\n[workload s]\ntype = startup\nexecutor = oci\nimage = /nonexistent\n' > oc.ini
refused oci oc.ini "^abbench: oc\.ini:10: executor: 'oci' needs root \(abbench is uid 65534\).*run abbench as root"

# As root the same command experiment still gets cgroups: no warning.
ABBENCH_STATE_DIR=$W/rstate "$ABBENCH" run nr.ini --db "$W/root.db" > out 2> err
ok $? "as root"
grep -q 'cannot make cgroups' err
is "$?" 1 "as root: no cgroup warning"
done_testing
