#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A `command` run never runs docker (issue 26). 100 samples of /bin/true
# execute `docker` zero times: not after each sample (the sweep of
# labelled containers is for workloads whose program says it starts them,
# starts-containers, and goes through the daemon's socket), nor at the
# run's start (the daemon's version) or end (the sweep), both through the
# socket too. Counted twice: a `docker` shim first on $PATH that records
# its calls, and strace's execve calls. With $DOCKER_HOST at a dead
# socket and a `docker` that sleeps 10 s the run is not held up either.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3

mkdir "$TEST_TMP/bin"
real=$(command -v docker || echo false)
cat > "$TEST_TMP/bin/docker" <<EOS
#!/bin/sh
echo "docker \$*" >> "$TEST_TMP/docker.calls"
exec $real "\$@"
EOS
chmod +x "$TEST_TMP/bin/docker"
cat > "$TEST_TMP/true.ini" <<EOI
[experiment]
name = t0590
rounds = 100
[arm only]
args = /bin/true
[workload True]
type = command
EOI

PATH="$TEST_TMP/bin:$PATH" "$ABBENCH" run "$TEST_TMP/true.ini" \
    --db "$TEST_TMP/t.db" --quiet
ok $? "the run succeeds"
is "$(sqlite3 "$TEST_TMP/t.db" "SELECT count(*) FROM samples WHERE status = 'ok'")" \
    100 "100 samples"
is "$(cat "$TEST_TMP/docker.calls" 2>/dev/null | wc -l | tr -d ' ')" 0 \
    "no docker executed (shim first on \$PATH)"
# The shim catches what goes by $PATH: itself when called.
PATH="$TEST_TMP/bin:$PATH" docker version >/dev/null 2>&1
is "$(wc -l < "$TEST_TMP/docker.calls" | tr -d ' ')" 1 \
    "(the shim records a call made by \$PATH)"
rm -f "$TEST_TMP/docker.calls"
# The daemon's version is still among the run's config lines when one
# answers on the socket.
if [ -S /var/run/docker.sock ] && [ -z "${DOCKER_HOST:-}" ] &&
    timeout 20 docker version >/dev/null 2>&1; then
	is "$(sqlite3 "$TEST_TMP/t.db" "SELECT value FROM run_config WHERE key = 'docker'")" \
	    "$(docker version --format '{{.Server.Version}}')" \
	    "the daemon's version, asked on its socket"
else
	pass "# SKIP no docker daemon: its version is not asked"
fi

if command -v strace >/dev/null 2>&1; then
	# LeakSanitizer (an --enable-asan build) cannot work under ptrace.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace -f -qq -e trace=execve -o "$TEST_TMP/strace" \
	    "$ABBENCH" run "$TEST_TMP/true.ini" --db "$TEST_TMP/s.db" --quiet
	ok $? "the run succeeds under strace"
	ok "$([ "$(grep -c 'execve("/bin/true"' "$TEST_TMP/strace")" -ge 100 ]; echo $?)" \
	    "strace sees the 100 executions of /bin/true"
	is "$(grep -c 'execve("[^"]*docker"' "$TEST_TMP/strace")" 0 \
	    "and no execve of docker, not even an attempt along \$PATH"
else
	pass "# SKIP strace is not installed"
	pass "# SKIP strace is not installed"
	pass "# SKIP strace is not installed"
fi

# No daemon, and a docker that hangs: nothing waits for either.
cat > "$TEST_TMP/bin/docker" <<EOS
#!/bin/sh
echo "docker \$*" >> "$TEST_TMP/docker.calls"
sleep 10
EOS
t0=$(date +%s)
DOCKER_HOST=unix://$TEST_TMP/dead.sock PATH="$TEST_TMP/bin:$PATH" \
    "$ABBENCH" run "$TEST_TMP/true.ini" --db "$TEST_TMP/d.db" --quiet
ok $? "the run succeeds with no daemon on \$DOCKER_HOST"
t1=$(date +%s)
is "$(cat "$TEST_TMP/docker.calls" 2>/dev/null | wc -l | tr -d ' ')" 0 \
    "no docker executed"
ok "$([ $((t1 - t0)) -lt 10 ]; echo $?)" \
    "not held up by the hanging docker (took $((t1 - t0)) s)"
is "$(sqlite3 "$TEST_TMP/d.db" "SELECT count(*) FROM run_config WHERE key = 'docker'")" \
    0 "no daemon: no version line"
done_testing
