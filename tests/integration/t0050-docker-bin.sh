#!/bin/sh
# t0050-docker-bin: every call abbench makes to the docker CLI goes through
# one docker_bin() that honours $ABBENCH_DOCKER, the host's too: the
# daemon's version among a run's config lines (hostinfo), the runtime
# binary of a runtime name, the containers `abbench env` counts
# (envcheck). A fake CLI logs its calls; no daemon is needed.
. "${ABBENCH_SRCDIR:-.}/tests/integration/lib.sh"

fake=$TEST_TMP/fake-docker
calls=$TEST_TMP/calls
cat >"$fake" <<EOF2
#!/bin/sh
echo "\$*" >>"$calls"
case "\$1" in
version) echo 99.0-fake ;;
ps) printf 'c1\nc2\nc3\n' ;;
info) echo '{"fakert":{"path":"$TEST_TMP/fakert"}}' ;;
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
fast_slow_exp "$exp" ab 1
sed -i 's/^\[arm fast\]$/[arm fast]\nruntime = fakert/' "$exp"
"$ABBENCH" run "$exp" --db "$db" --quiet >"$TEST_TMP/run.out" 2>&1
ok $? "a command run with a fake docker CLI"
exp_out=$("$ABBENCH" db --db "$db" export 1 2>&1)
like "$exp_out" '^docker: 99\.0-fake$' \
    "the run's config names the daemon's version from \$ABBENCH_DOCKER"
like "$exp_out" 'fakert version 7\.7' \
    "a runtime name's binary is found through \$ABBENCH_DOCKER's info"
grep -q '^version --format' "$calls" && grep -q '^info --format' "$calls"
ok $? "version and info went to the fake CLI"

done_testing
