#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0050-docker-bin: every call abbench makes to the docker CLI goes through
# one docker_bin() that honours $ABBENCH_DOCKER, the host's too: the
# daemon's version among a run's config lines (hostinfo), the runtime
# binary of a runtime name, the containers `abbench env` counts
# (envcheck). A fake CLI logs its calls; no daemon is needed.
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

fake=$TEST_TMP/fake-docker
calls=$TEST_TMP/calls
# A container exists only once $TEST_TMP/late, counted down by each
# inspect, reaches 0: a create dockerd finishes after the CLI that asked
# died. rm of a container that does not exist fails as docker's does.
cat >"$fake" <<EOF2
#!/bin/sh
echo "\$*" >>"$calls"
case "\$1" in
version) echo 99.0-fake ;;
ps) printf 'c1\nc2\nc3\n' ;;
info) echo '{"fakert":{"path":"$TEST_TMP/fakert"},"runc":{"path":"runc"}}' ;;
run) exec sleep 1000 ;;
inspect)
	[ "\$2" = -f ] || exit 0
	n=\$(cat "$TEST_TMP/late" 2>/dev/null || echo 0)
	[ "\$n" -gt 0 ] && { echo \$((n - 1)) >"$TEST_TMP/late"; exit 1; }
	echo 0123456789ab ;;
rm)
	n=\$(cat "$TEST_TMP/late" 2>/dev/null || echo 0)
	[ "\$n" -gt 0 ] && { echo "Error: No such container: \$4" >&2; exit 1; }
	echo "removed \$4" >>"$calls" ;;
esac
exit 0
EOF2
printf '#!/bin/sh\necho "fakert version 7.7"\n' >"$TEST_TMP/fakert"
chmod +x "$fake" "$TEST_TMP/fakert"
export ABBENCH_DOCKER=$fake

out=$("$ABBENCH" env 2>&1)
like "$out" 'docker: 3 running containers' \
    "abbench env counts the containers through \$ABBENCH_DOCKER"
grep -qx 'ps -q' "$calls"
ok $? "and asked it 'ps -q'"

exp=$TEST_TMP/ab.ini
db=$TEST_TMP/t.db
# A runtime that a workload uses: a gobench program handed {runtime}
# (a runtime on a command arm is refused, since no workload uses it).
printf '#!/bin/sh\necho "BenchmarkFake-1 1 100 ns/op"\n' \
    >"$TEST_TMP/prog"
chmod +x "$TEST_TMP/prog"
cat >"$exp" <<EOI
[experiment]
name = ab
rounds = 1
[arm fast]
runtime = fakert
[arm slow]
[workload prog]
type = gobench
args = $TEST_TMP/prog {runtime}
EOI
"$ABBENCH" run "$exp" --db "$db" --quiet >"$TEST_TMP/run.out" 2>&1
ok $? "a command run with a fake docker CLI"
exp_out=$("$ABBENCH" db --db "$db" export 1 2>&1)
like "$exp_out" '^docker: 99\.0-fake$' \
    "the run's config names the daemon's version from \$ABBENCH_DOCKER"
like "$exp_out" 'fakert version 7\.7' \
    "a runtime name's binary is found through \$ABBENCH_DOCKER's info"
grep -q '^version --format' "$calls" && grep -q '^info --format' "$calls"
ok $? "version and info went to the fake CLI"

# Killed while `docker run` is in flight; the daemon makes the container
# only later (inspect fails 4 times, 1 s): restore still removes it.
cat >"$TEST_TMP/su.ini" <<EOI
[experiment]
name = t0050-late
rounds = 1
[arm runc]
runtime = runc
[workload startup]
type = startup
image = abbench/tools
measure = run
timeout = 60s
EOI
"$ABBENCH" run "$TEST_TMP/su.ini" --db "$db" --quiet >"$TEST_TMP/su.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 150 ] && ! grep -q '^run --name' "$calls"; do
	sleep 0.2
	i=$((i + 1))
done
name=$(sed -n 's/^run --name \([^ ]*\) .*/\1/p' "$calls" | head -1)
ok "$([ -n "$name" ]; echo $?)" "the run's docker run is in flight ($name)"
kill -9 $pid
wait $pid 2>/dev/null
pkill -f "^sleep 1000$" 2>/dev/null
echo 4 >"$TEST_TMP/late"
(cd / && "$ABBENCH" restore) >"$TEST_TMP/r.out" 2>&1
grep -q "^removed $name\$" "$calls"
ok $? "restore removed the container created after the run died"
like "$(cat "$TEST_TMP/r.out")" "removed container '$name'" "and says so"

done_testing
