#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# As nobody: a state directory abbench cannot make is named, with the
# variable that moves it (it said only "cannot create '/root/.local':
# Permission denied"); a missing $HOME is reported, not made by abbench;
# and the end of a run of a local `command` workload, which looks for
# containers its program may have left, knows that a user whose podman
# cannot work (no home) has none (it warned "'podman ps' exited 1").
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd setpriv sqlite3
[ "$(id -u)" -eq 0 ] || skip_all "needs root to become nobody"
RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups --"
$RUNAS true 2>/dev/null || skip_all "setpriv cannot drop to uid 65534"

chmod 755 "$TEST_TMP"
W=$TEST_TMP/w
mkdir "$W" && chmod 777 "$W"
cd "$W" || exit 1
# A build tree nobody cannot reach: its programs copied where nobody can.
# Tried as every run below starts it (env execs it, as nobody).
if ! $RUNAS env "$ABBENCH" --version > /dev/null 2>&1; then
	bdir=$(dirname "$ABBENCH")
	T=$TEST_TMP/tree
	for sub in . payload payload/cpu payload/idle; do
		mkdir -p "$T/$sub" && chmod 755 "$T/$sub" || exit 1
		find "$bdir/$sub" -maxdepth 1 -type f -perm -u+x \
		    -exec cp -p {} "$T/$sub/" \;
	done
	chmod -R a+rX "$T"
	ABBENCH=$T/$(basename "$ABBENCH")
fi
$RUNAS env "$ABBENCH" --version > /dev/null 2>&1 || skip_all "nobody cannot run $ABBENCH"

printf '[experiment]\nname = nh\nrounds = 1\n\n[arm a]\nargs = true\n\n[workload Cmd]\ntype = command\n' > nh.ini
chmod 644 nh.ini

# A home nobody cannot write (root's), no $ABBENCH_STATE_DIR.
$RUNAS env -u ABBENCH_STATE_DIR -u XDG_STATE_HOME HOME=/root \
    "$ABBENCH" run nh.ini --db "$W/a.db" --quiet > out 2> err
is "$?" 2 "an unwritable home: exit 2"
like "$(cat err)" "state directory '/root/\.local/state/abbench'" "the message names the state directory"
like "$(cat err)" "ABBENCH_STATE_DIR" "... and the variable that moves it"

# A home that does not exist: reported, not made.
$RUNAS env -u ABBENCH_STATE_DIR -u XDG_STATE_HOME HOME="$W/nohome" \
    "$ABBENCH" run nh.ini --db "$W/b.db" --quiet > out 2> err
is "$?" 2 "a missing home: exit 2"
like "$(cat err)" "\\\$HOME '$W/nohome' does not exist" "the message says the home is missing"
[ -e "$W/nohome" ]
is "$?" 1 "abbench did not make the home"

# $ABBENCH_STATE_DIR that cannot be made: named as that.
$RUNAS env HOME="$W" ABBENCH_STATE_DIR=/root/st \
    "$ABBENCH" run nh.ini --db "$W/c.db" --quiet > out 2> err
is "$?" 2 "an unwritable ABBENCH_STATE_DIR: exit 2"
like "$(cat err)" "state directory '/root/st' \(\\\$ABBENCH_STATE_DIR\): cannot create '/root/st'" \
    "the message names it and the variable"

# A local command run with a home podman cannot use: no podman warning.
command -v podman > /dev/null ||
    diag "podman is not installed: the engine check below cannot fail here"
$RUNAS env HOME=/nonexistent ABBENCH_STATE_DIR="$W/state" \
    "$ABBENCH" run nh.ini --db "$W/d.db" > out 2> err
is "$?" 0 "a local command run as nobody with HOME=/nonexistent"
grep -i 'podman\|docker' err
is "$?" 1 "no container engine warning at its end"
done_testing
