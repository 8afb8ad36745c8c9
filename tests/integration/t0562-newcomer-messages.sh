#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What a newcomer walking through the README met in silence or with the
# wrong hint: a run whose samples all failed compared by `stat --db`
# (nothing printed, exit 0), an arm whose samples all failed dropped from
# the tables without a word, a database given to stat as a benchfmt file
# (nothing printed, exit 0), a command's letters swapped (no suggestion),
# a docker socket that refuses the user (told to start a running daemon).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

cd "$TEST_TMP" || exit 1
cat > fail.ini <<EOI
[experiment]
name = allfail
rounds = 3
[arm base]
args = /bin/false
[arm kvm]
args = /bin/false
[workload W]
type = command
EOI
sed -e 's/allfail/halffail/' -e '0,/\/bin\/false/s//\/bin\/true/' fail.ini \
    > half.ini

# 1. A run with no ok sample: said on stderr, exit 1 (a failed sample's).
"$ABBENCH" run fail.ini --db f.db --quiet > /dev/null 2>&1
"$ABBENCH" stat --db f.db 1 > out 2> err
is "$?" "1" "all samples failed: stat --db exits 1"
is "$(wc -c < out | tr -d ' ')" "0" "all samples failed: nothing on stdout"
is "$(cat err)" "abbench: run 1 has no ok samples (6 failed): nothing to compare (abbench db show 1 lists the failures)" \
    "all samples failed: says why"
"$ABBENCH" stat --db f.db last:kvm > out 2> err
is "$?" "1" "one arm selected, all failed: exit 1"
like "$(cat err)" "run 1 has no ok samples in arm 'kvm' .3 failed." \
    "one arm selected, all failed: names the arm"

# 2. An arm with no ok sample: left out, said after the tables; standard
# output is the table of the arm that has values, as benchstat prints it.
"$ABBENCH" run half.ini --db h.db --quiet > /dev/null 2>&1
"$ABBENCH" stat --db h.db 1 > out 2> err
is "$?" "0" "one arm failed: exit 0"
is "$(cat err)" "abbench: arm 'kvm': no ok samples (3 failed): left out" \
    "one arm failed: said on stderr"
grep -q '│ *base *│' out && grep -q '^W' out && ! grep -q '│ *kvm' out
ok $? "one arm failed: the table shows only the arm with values"

# 3. A database passed as a file: its SQLite header says what it is.
cp h.db abbench.db
"$ABBENCH" stat abbench.db > out 2> err
is "$?" "2" "database as a file: exit 2"
is "$(cat err)" "abbench: stat: 'abbench.db' is an abbench database: did you mean --db abbench.db last?" \
    "database as a file: suggests --db"
"$ABBENCH" stat old=h.db > out 2> err
is "$?" "2" "database as a labelled file: exit 2"
printf 'BenchmarkX 1 5 ns/op\n' > x.txt
"$ABBENCH" stat x.txt > out 2> err
is "$?" "0" "a benchfmt file is still read"

# 4. Swapped letters are one edit, even in a short name.
"$ABBENCH" rnu > out 2> err
is "$?" "2" "rnu: exit 2"
is "$(cat err)" "abbench: unknown command 'rnu': did you mean 'run'? (try abbench --help)" \
    "rnu: did you mean 'run'?"
"$ABBENCH" plto > out 2> err
like "$(cat err)" "did you mean 'plot'" "plto: did you mean 'plot'?"
"$ABBENCH" stats > out 2> err
like "$(cat err)" "did you mean 'stat'" "stats: still 'stat'"
"$ABBENCH" xyz > out 2> err
is "$(cat err)" "abbench: unknown command 'xyz' (try abbench --help)" \
    "xyz: nothing near, no suggestion"

# 5. The docker CLI's own words say whether the daemon is down or the
# user may not use its socket (a fake CLI: no daemon is needed).
cat > st.ini <<EOI
[experiment]
name = st
rounds = 1
[arm runc]
runtime = runc
[workload s]
type = startup
executor = docker
EOI
printf '#!/bin/sh\necho "%s" >&2\nexit 1\n' \
    'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: dial unix /var/run/docker.sock: connect: permission denied' \
    > denied
printf '#!/bin/sh\necho "%s" >&2\nexit 1\n' \
    'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?' \
    > down
chmod +x denied down
ABBENCH_DOCKER=$TEST_TMP/denied "$ABBENCH" run st.ini --db s.db --quiet \
    > out 2> err
is "$?" "2" "docker socket refused: exit 2"
like "$(cat err)" "needs root or the docker group" \
    "docker socket refused: root or the docker group"
! grep -q start-dockerd err
ok $? "docker socket refused: not told to start the daemon"
ABBENCH_DOCKER=$TEST_TMP/down "$ABBENCH" run st.ini --db s.db --quiet \
    > out 2> err
like "$(cat err)" "start it with scripts/start-dockerd" \
    "docker daemon down: told to start it"

done_testing
