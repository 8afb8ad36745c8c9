#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every directory abbench makes for fio is journaled and removed (issue
# 25, item 6): dir = MNT/newdir/sub (two levels missing) runs, and both
# are gone at the end; a run killed with SIGKILL leaves them journaled and
# `abbench restore` removes them; a dir that cannot be made (under a
# regular file, on a read-only mount) is refused at load: exit 2,
# FILE:LINE: dir, no run row.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

# Any scheduler: what is checked is the directories, not the disk's speed.
require_scheduler none
require_cmd fio sqlite3

make_loop 128 none || { diag "cannot make a loop device"; exit 1; }

exp() {
	printf '[experiment]\nname = fiodir\nrounds = %s\n[arm a]\n[workload F]\ntype = fio\nexecutor = local\ndir = %s\nsize = 8m\nrw = randread\nbs = 4k\nduration = %s\n' \
	    "$2" "$1" "$3" > "$TEST_TMP/f.ini"
}

exp "$LOOP_MNT/newdir/sub" 1 0.5s
"$ABBENCH" run --quiet --db "$TEST_TMP/f.db" "$TEST_TMP/f.ini" > "$TEST_TMP/o1" 2>&1
rc=$?
is "$rc" 0 "dir = MNT/newdir/sub (two missing levels): the run succeeds"
[ $rc = 0 ] || sed 's/^/# /' "$TEST_TMP/o1"
ok "$([ ! -e "$LOOP_MNT/newdir" ]; echo $?)" "  and removes what it made (newdir is gone)"
# duration = 0.5s is fio's runtime (its sec/op row with one container):
# passed as "0.500s", fio 3.33 read 0 s and ran one pass of the file.
rt=$(sqlite3 "$TEST_TMP/f.db" "SELECT value FROM samples WHERE unit = 'sec/op' AND status = 'ok'")
ok "$(awk -v v="$rt" 'BEGIN { exit !(v >= 0.495 && v < 1) }'; echo $?)" \
    "  duration = 0.5s: fio ran 0.5 s ($rt s)"
is "$(sqlite3 "$TEST_TMP/f.db" "SELECT group_concat(target, ' ') FROM journal WHERE kind = 'mkdir' ORDER BY id")" \
    "$LOOP_MNT/newdir $LOOP_MNT/newdir/sub" "  both levels were journaled (kind mkdir)"
is "$(sqlite3 "$TEST_TMP/f.db" "SELECT count(*) FROM journal WHERE state != 'restored'")" 0 \
    "  and marked restored"

# Killed: the directories stay journaled, restore removes them.
exp "$LOOP_MNT/killed/sub" 100 1s
"$ABBENCH" run --quiet --db "$TEST_TMP/k.db" "$TEST_TMP/f.ini" > "$TEST_TMP/o2" 2>&1 &
kpid=$!
# Killed in a sample: its fio runs in the directories (at most 30 s; the
# test slept 1 s after they were made, hoping fio had started).
i=0
until pgrep -f -- "--directory=$LOOP_MNT/killed/sub" > /dev/null || [ $i -ge 1500 ]; do
	sleep 0.02
	i=$((i + 1))
done
kill -9 $kpid
wait $kpid 2>/dev/null
ok "$([ -d "$LOOP_MNT/killed/sub" ]; echo $?)" "a run killed with SIGKILL left its directories"
"$ABBENCH" restore > "$TEST_TMP/r" 2>&1
is "$?" 0 "restore exits 0"
ok "$([ ! -e "$LOOP_MNT/killed" ]; echo $?)" "  and removes them"
grep -q "removed directory '$LOOP_MNT/killed' it made" "$TEST_TMP/r"
ok $? "  saying so"

# Something of the user's in a directory it made is left.
mkdir -p "$LOOP_MNT/user"
: > "$LOOP_MNT/user/keep"
exp "$LOOP_MNT/user/new" 1 0.5s
"$ABBENCH" run --quiet --db "$TEST_TMP/u.db" "$TEST_TMP/f.ini" > "$TEST_TMP/o3" 2>&1
is "$?" 0 "dir under an existing user directory: the run succeeds"
ok "$([ -f "$LOOP_MNT/user/keep" ] && [ ! -e "$LOOP_MNT/user/new" ]; echo $?)" \
    "  removes only what it made"

# Directories that cannot be made: refused at load.
: > "$TEST_TMP/afile"
exp "$TEST_TMP/afile/sub" 1 0.5s
"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" "$TEST_TMP/f.ini" > "$TEST_TMP/o4" 2>&1
is "$?" 2 "dir under a regular file: exit 2"
like "$(cat "$TEST_TMP/o4")" "f.ini:[0-9]+: .*dir: cannot create '$TEST_TMP/afile/sub': '$TEST_TMP/afile' is not a directory" \
    "  at load, naming the file, line and key"
# Killed while fio writes the data files (before any sample): nothing of
# that fio is left. Its jobs were forked processes, and one outlived the
# kill (fio's own process dies with abbench; the job it forked waited on
# a futex for it forever, in no cgroup restore knows of).
exp "$LOOP_MNT/prep" 1 0.5s
sed -i 's/^size = 8m$/size = 96m/' "$TEST_TMP/f.ini"
"$ABBENCH" run --quiet --db "$TEST_TMP/k.db" "$TEST_TMP/f.ini" > "$TEST_TMP/o6" 2>&1 &
pid=$!
# Writing: its fio has made its job (a forked process whose parent is
# fio, or a second thread), which waits for fio's go and then writes: the
# moment a kill left the forked job behind.
writing() {
	for w_p in $(pgrep -f -- "--directory=$LOOP_MNT/prep .*--rw=write"); do
		w_pp=$(awk '/^PPid:/ { print $2 }' "/proc/$w_p/status" 2>/dev/null)
		[ "$(cat "/proc/$w_pp/comm" 2>/dev/null)" = fio ] && return 0
		[ "$(ls "/proc/$w_p/task" 2>/dev/null | wc -l)" -ge 2 ] && return 0
	done
	return 1
}
i=0
while ! writing && [ $i -lt 400 ]; do sleep 0.02; i=$((i + 1)); done
ok "$(writing; echo $?)" "a run of 96 MiB has started the fio job that writes its data"
kill -9 $pid
wait $pid 2>/dev/null
i=0
while pgrep -f -- "--directory=$LOOP_MNT/prep" >/dev/null && [ $i -lt 150 ]; do
	sleep 0.02
	i=$((i + 1))
done
is "$(pgrep -f -- "--directory=$LOOP_MNT/prep" | wc -l | tr -d ' ')" 0 \
    "  killed there (kill -9): no fio process is left"
"$ABBENCH" restore --db "$TEST_TMP/k.db" > "$TEST_TMP/o7" 2>&1
is "$?" 0 "  restore exits 0"
ok "$([ ! -e "$LOOP_MNT/prep" ]; echo $?)" "  and removes the directory and its files"

# Two local fio runs held to overlap-min = 1: a sample either overlapped
# wholly (its overlap row is 1) or failed, its error saying how far apart
# the runs were released and how long each ran. 3 good rounds: a failed
# one is made up (2 make-up rounds at most), unless all 3 failed (as
# beside a CPU burner: then it is the host, and nothing is made up).
exp "$LOOP_MNT/ov" 3 0.5s
printf 'containers = 2\noverlap-min = 1\n' >> "$TEST_TMP/f.ini"
"$ABBENCH" run --quiet --db "$TEST_TMP/ov.db" "$TEST_TMP/f.ini" > "$TEST_TMP/o8" 2>&1
ov_ok=$(sqlite3 "$TEST_TMP/ov.db" "SELECT count(*) FROM samples
    WHERE benchmark LIKE 'F/c2/overlap%' AND status = 'ok' AND value = 1")
ov_bad=$(sqlite3 "$TEST_TMP/ov.db" "SELECT count(DISTINCT plan_idx) FROM samples
    WHERE status = 'failed' AND error GLOB 'the 2 fio runs overlapped only [0-9]*% of the longest (overlap-min 100%; released [0-9]* ms apart, ran [0-9]* to [0-9]* ms): *'")
diag "overlap-min = 1: $ov_ok samples overlapped wholly, $ov_bad failed; $(sqlite3 "$TEST_TMP/ov.db" "SELECT error FROM samples WHERE status = 'failed' LIMIT 1")"
ov_n=$(sqlite3 "$TEST_TMP/ov.db" "SELECT count(DISTINCT plan_idx) FROM samples")
is "$((ov_ok + ov_bad))" "$ov_n" "overlap-min = 1: each of the $ov_n samples overlapped wholly or failed saying how far apart the runs were released and how long they ran"
ok "$([ "$ov_ok" -eq 3 ] || [ "$ov_n" -eq 5 ] || { [ "$ov_ok" -eq 0 ] && [ "$ov_n" -eq 3 ]; }; echo $?)" \
    "  3 good samples, or 3 rounds and 2 make-up rounds, or 3 failed rounds and none ($ov_ok good of $ov_n)"

mkdir "$TEST_TMP/ro"
if mount -t tmpfs -o ro,size=1m tmpfs "$TEST_TMP/ro" 2>/dev/null; then
	exp "$TEST_TMP/ro/sub" 1 0.5s
	"$ABBENCH" run --quiet --db "$TEST_TMP/n.db" "$TEST_TMP/f.ini" > "$TEST_TMP/o5" 2>&1
	is "$?" 2 "dir on a read-only mount: exit 2"
	like "$(cat "$TEST_TMP/o5")" "dir: cannot create '$TEST_TMP/ro/sub'.*[Rr]ead-only" \
	    "  at load, saying why"
	umount "$TEST_TMP/ro"
else
	pass "# SKIP no tmpfs mount here"
	pass "# SKIP no tmpfs mount here"
fi
is "$(sqlite3 "$TEST_TMP/n.db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" 0 \
    "the refused runs wrote no run row"
done_testing
