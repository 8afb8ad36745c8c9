#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The sweep of labelled containers (issue 26). A gobench program that
# counts the containers labelled with its run ({run}), then leaves one:
#  - starts-containers (gobench's default): each sample's container is
#    removed after that sample, so every sample counts 0, and the run says
#    it removed them;
#  - starts-containers = no: no sweep after a sample (sample k counts
#    k - 1), but the run's end removes all of them.
# Both through the daemon's socket: the `docker` abbench could run is a
# shim that records its calls (the program calls the real one by path).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd sqlite3
require_dockerd
any_image
DB=$TEST_TMP/t.db
real=$(command -v docker)

labelled() {
	docker ps -a -q --filter "label=abbench.run=$1" | wc -l | tr -d ' '
}

cat > "$TEST_TMP/prog.sh" <<EOP
#!/bin/sh
n=\$($real ps -a -q --filter label=abbench.run=\$1 | wc -l)
$real create --label abbench.run=\$1 $IMAGE true >/dev/null || exit 1
echo "BenchmarkLeft-2 1 \$n left/op"
EOP
chmod +x "$TEST_TMP/prog.sh"
mkdir "$TEST_TMP/bin"
cat > "$TEST_TMP/bin/docker" <<EOS
#!/bin/sh
echo "docker \$*" >> "$TEST_TMP/docker.calls"
exec $real "\$@"
EOS
chmod +x "$TEST_TMP/bin/docker"
cat > "$TEST_TMP/g.ini" <<EOI
[experiment]
name = t0585
rounds = 3
[arm a]
[workload prog]
type = gobench
args = $TEST_TMP/prog.sh {run}
EOI
run_uuid() {
	sqlite3 "$DB" "SELECT uuid FROM runs WHERE id = (SELECT max(id) FROM runs)"
}
counts() {
	sqlite3 "$DB" "SELECT group_concat(v, ' ') FROM (SELECT CAST(value AS INTEGER) AS v FROM samples WHERE run_id = (SELECT max(id) FROM runs) ORDER BY round)"
}

PATH="$TEST_TMP/bin:$PATH" "$ABBENCH" run "$TEST_TMP/g.ini" --db "$DB" \
    > "$TEST_TMP/a.out" 2>&1
ok $? "the run succeeds"
is "$(counts)" "0 0 0" "each sample's container was removed after it"
is "$(grep -c "removed container '[0-9a-f]*' left by the sample" "$TEST_TMP/a.out")" \
    3 "the run says so, once per sample"
is "$(labelled "$(run_uuid)")" 0 "none left"

PATH="$TEST_TMP/bin:$PATH" "$ABBENCH" run "$TEST_TMP/g.ini" --db "$DB" \
    --starts-containers=no > "$TEST_TMP/b.out" 2>&1
ok $? "the run succeeds with starts-containers = no"
is "$(counts)" "0 1 2" "no sweep after a sample"
is "$(grep -c "removed container '[0-9a-f]*' left by the run" "$TEST_TMP/b.out")" \
    3 "the run's end removed the three"
is "$(labelled "$(run_uuid)")" 0 "none left"
is "$(cat "$TEST_TMP/docker.calls" 2>/dev/null | wc -l | tr -d ' ')" 0 \
    "abbench executed no docker"
done_testing
