#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The application suites (workload `app`) on the real programs, scaled
# down: sysbench, hackbench, redis (server + benchmark in one sandbox),
# nginx + ab, apache2 + ab (Httpd), abbench's syscallbench and its Node and
# Ruby web applications reading redis (ab -k), in their own
# offline images, under runc (every row) and runsc (one row each); dd's
# own throughput in kB/s from a local run. Samples are
# stored under gVisor's names (with Go's -N suffix) and units, and
# `abbench stat` lines abbench's export up with the rows copied from the
# reports (tests/data/reports/001-*.txt, and 003-network.txt for the
# three units of the Node rows).
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_root
require_cmd sqlite3 sysbench hackbench redis-server redis-benchmark nginx ab \
    iperf3 apache2 node ruby puma
require_dockerd runsc
N=$(nproc)
DB=$TEST_TMP/t.db
for a in sysbench hackbench redis nginx iperf httpd syscallbench node ruby; do
	"$ABBENCH_SRCDIR/scripts/build-image" --app $a >"$TEST_TMP/img.$a" 2>&1 ||
	    { sed 's/^/# /' "$TEST_TMP/img.$a"; skip_all "cannot build abbench/$a"; }
done

cat >"$TEST_TMP/runc.ini" <<EOI
[experiment]
name = t1200-runc
pkg = gvisor.dev/gvisor/test/benchmarks/base
rounds = 1
timeout = 60s

[arm runc]
runtime = runc

[workload Sysbench]
type = app
app = sysbench
testname = CPU Memory Mutex
ops = 100
memory-total = 16m

[workload Sysbench16]
type = app
app = sysbench
benchmark = Sysbench
testname = CPU Memory
threads = 16
ops = 100
memory-total = 16m

[workload Hackbench]
type = app
app = hackbench
ipcMode = pipe socket
processMode = thread process
groups = 1
ops = 20

[workload Redis]
type = app
app = redis
operation = LPUSH LRANGE_100 SET
ops = 500
clients = 5

[workload NginxDocSize]
type = app
app = nginx
filesize = 10Kb 1Mb
concurrency = 1 100
filesystem = bind tmpfs
ops = 100

[workload IperfOneConnection]
type = app
app = iperf
operation = Download Upload
bytes = 32m

[workload Httpd]
type = app
app = httpd
filesize = 10Kb 1Mb
concurrency = 1 100
ops = 100

[workload Syscallbench]
type = app
app = syscallbench
syscall = getpid getpidopt
ops = 100000

[workload Node]
type = app
app = node
concurrency = 1 5 10 25
ops = 50

[workload Ruby]
type = app
app = ruby
concurrency = 1 5 10 25
ops = 4
workers = 2

[workload DDSync]
type = app
app = dd
executor = local
args = dd if=/dev/zero of=$TEST_TMP/dd.img bs=512 count=200 oflag=dsync
EOI
"$ABBENCH" run "$TEST_TMP/runc.ini" --db "$DB" --quiet >"$TEST_TMP/out" 2>&1
ok $? "runc: every application runs (exit 0)" ||
    sed 's/^/# /' "$TEST_TMP/out" | tail -20
is "$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = 1 AND
    status != 'ok'")" 0 "runc: no failed sample"

# The rows and units, exactly as the reports name them (-N: this host).
sqlite3 "$DB" "SELECT DISTINCT benchmark || ' ' || unit FROM samples
    WHERE run_id = 1 AND status = 'ok' ORDER BY 1" >"$TEST_TMP/rows"
sort >"$TEST_TMP/want" <<EOW
DDSync-$N kB/s
DDSync-$N sec/op
Hackbench/ipcMode.pipe/processMode.process-$N sec/op
IperfOneConnection/operation.Download/bytes=32m-$N bandwidth.bytes_per_second
IperfOneConnection/operation.Upload/bytes=32m-$N bandwidth.bytes_per_second
Hackbench/ipcMode.pipe/processMode.thread-$N sec/op
Hackbench/ipcMode.socket/processMode.process-$N sec/op
Hackbench/ipcMode.socket/processMode.thread-$N sec/op
Httpd/filesize.10Kb/concurrency.1-$N average_latency.s
Httpd/filesize.10Kb/concurrency.1-$N requests_per_second.QPS
Httpd/filesize.10Kb/concurrency.1-$N sec/op
Httpd/filesize.10Kb/concurrency.100-$N average_latency.s
Httpd/filesize.10Kb/concurrency.100-$N requests_per_second.QPS
Httpd/filesize.10Kb/concurrency.100-$N sec/op
Httpd/filesize.1Mb/concurrency.1-$N average_latency.s
Httpd/filesize.1Mb/concurrency.1-$N requests_per_second.QPS
Httpd/filesize.1Mb/concurrency.1-$N sec/op
Httpd/filesize.1Mb/concurrency.100-$N average_latency.s
Httpd/filesize.1Mb/concurrency.100-$N requests_per_second.QPS
Httpd/filesize.1Mb/concurrency.100-$N sec/op
NginxDocSize/filesize.10Kb/concurrency.1/filesystem.bind-$N average_latency.s
NginxDocSize/filesize.10Kb/concurrency.1/filesystem.bind-$N requests_per_second.QPS
NginxDocSize/filesize.10Kb/concurrency.1/filesystem.bind-$N sec/op
NginxDocSize/filesize.10Kb/concurrency.1/filesystem.tmpfs-$N average_latency.s
NginxDocSize/filesize.10Kb/concurrency.1/filesystem.tmpfs-$N requests_per_second.QPS
NginxDocSize/filesize.10Kb/concurrency.1/filesystem.tmpfs-$N sec/op
NginxDocSize/filesize.10Kb/concurrency.100/filesystem.bind-$N average_latency.s
NginxDocSize/filesize.10Kb/concurrency.100/filesystem.bind-$N requests_per_second.QPS
NginxDocSize/filesize.10Kb/concurrency.100/filesystem.bind-$N sec/op
NginxDocSize/filesize.10Kb/concurrency.100/filesystem.tmpfs-$N average_latency.s
NginxDocSize/filesize.10Kb/concurrency.100/filesystem.tmpfs-$N requests_per_second.QPS
NginxDocSize/filesize.10Kb/concurrency.100/filesystem.tmpfs-$N sec/op
NginxDocSize/filesize.1Mb/concurrency.1/filesystem.bind-$N average_latency.s
NginxDocSize/filesize.1Mb/concurrency.1/filesystem.bind-$N requests_per_second.QPS
NginxDocSize/filesize.1Mb/concurrency.1/filesystem.bind-$N sec/op
NginxDocSize/filesize.1Mb/concurrency.1/filesystem.tmpfs-$N average_latency.s
NginxDocSize/filesize.1Mb/concurrency.1/filesystem.tmpfs-$N requests_per_second.QPS
NginxDocSize/filesize.1Mb/concurrency.1/filesystem.tmpfs-$N sec/op
NginxDocSize/filesize.1Mb/concurrency.100/filesystem.bind-$N average_latency.s
NginxDocSize/filesize.1Mb/concurrency.100/filesystem.bind-$N requests_per_second.QPS
NginxDocSize/filesize.1Mb/concurrency.100/filesystem.bind-$N sec/op
NginxDocSize/filesize.1Mb/concurrency.100/filesystem.tmpfs-$N average_latency.s
NginxDocSize/filesize.1Mb/concurrency.100/filesystem.tmpfs-$N requests_per_second.QPS
NginxDocSize/filesize.1Mb/concurrency.100/filesystem.tmpfs-$N sec/op
Node/concurrency.1-$N average_latency.s
Node/concurrency.1-$N requests_per_second.QPS
Node/concurrency.1-$N sec/op
Node/concurrency.5-$N average_latency.s
Node/concurrency.5-$N requests_per_second.QPS
Node/concurrency.5-$N sec/op
Node/concurrency.10-$N average_latency.s
Node/concurrency.10-$N requests_per_second.QPS
Node/concurrency.10-$N sec/op
Node/concurrency.25-$N average_latency.s
Node/concurrency.25-$N requests_per_second.QPS
Node/concurrency.25-$N sec/op
Ruby/concurrency.1-$N average_latency.s
Ruby/concurrency.1-$N requests_per_second.QPS
Ruby/concurrency.1-$N sec/op
Ruby/concurrency.5-$N average_latency.s
Ruby/concurrency.5-$N requests_per_second.QPS
Ruby/concurrency.5-$N sec/op
Ruby/concurrency.10-$N average_latency.s
Ruby/concurrency.10-$N requests_per_second.QPS
Ruby/concurrency.10-$N sec/op
Ruby/concurrency.25-$N average_latency.s
Ruby/concurrency.25-$N requests_per_second.QPS
Ruby/concurrency.25-$N sec/op
Redis/operation.LPUSH-$N max_latency_ms
Redis/operation.LPUSH-$N rps
Redis/operation.LRANGE_100-$N max_latency_ms
Redis/operation.LRANGE_100-$N rps
Redis/operation.SET-$N max_latency_ms
Redis/operation.SET-$N rps
Sysbench/testname.CPU-$N cpu_events.events_per_second
Sysbench/testname.CPU-$N sec/op
Sysbench/testname.CPU/threads.16-$N cpu_events.events_per_second
Sysbench/testname.CPU/threads.16-$N sec/op
Sysbench/testname.Memory-$N memory_operations.ops_per_second
Sysbench/testname.Memory-$N sec/op
Sysbench/testname.Memory/threads.16-$N memory_operations.ops_per_second
Sysbench/testname.Memory/threads.16-$N sec/op
Sysbench/testname.Mutex-$N sec/op
Syscallbench/syscall.getpid-$N sec/op
Syscallbench/syscall.getpidopt-$N sec/op
EOW
LC_ALL=C sort -o "$TEST_TMP/rows" "$TEST_TMP/rows"
LC_ALL=C sort -o "$TEST_TMP/want" "$TEST_TMP/want"
diff "$TEST_TMP/want" "$TEST_TMP/rows" >"$TEST_TMP/diff"
ok $? "runc: every row under the report's name and unit"
[ -s "$TEST_TMP/diff" ] && sed 's/^/# /' "$TEST_TMP/diff"
is "$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = 1 AND
    benchmark = 'Redis/operation.SET-$N' AND unit = 'rps'")" 1 \
    "runc: one value per sample"

# Plausible values: the parsers read the right numbers.
range() {	# BENCH UNIT LO HI: samples outside [LO, HI]
	sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = 1 AND
	    benchmark = '$1' AND unit = '$2' AND (value < $3 OR value > $4)"
}
is "$(range "Sysbench/testname.CPU-$N" sec/op 1e-5 0.1)" 0 \
    "sysbench CPU: 10 us .. 100 ms per event"
is "$(range "Sysbench/testname.Memory-$N" sec/op 0.01 100)" 0 \
    "sysbench Memory: 10 ms .. 100 s per GiB"
is "$(range "Hackbench/ipcMode.pipe/processMode.thread-$N" sec/op 1e-5 1)" 0 \
    "hackbench: 10 us .. 1 s per loop"
is "$(range "Redis/operation.SET-$N" rps 100 1e7)" 0 "redis: 100 .. 10M rps"
is "$(range "NginxDocSize/filesize.10Kb/concurrency.1/filesystem.tmpfs-$N" \
    requests_per_second.QPS 10 1e7)" 0 "nginx: 10 .. 10M requests/s"
is "$(range "IperfOneConnection/operation.Upload/bytes=32m-$N" \
    bandwidth.bytes_per_second 1e6 1e11)" 0 "iperf: 1 MB/s .. 100 GB/s"
is "$(range "Httpd/filesize.1Mb/concurrency.1-$N" \
    requests_per_second.QPS 10 1e7)" 0 "httpd: 10 .. 10M requests/s"
is "$(range "Node/concurrency.1-$N" requests_per_second.QPS 10 1e6)" 0 \
    "node: 10 .. 1M pages/s"
is "$(range "Ruby/concurrency.5-$N" requests_per_second.QPS 10 1e6)" 0 \
    "ruby: 10 .. 1M pages/s"
# Ruby's op is one request of each client (gVisor's b.N * c): sec/op is
# c / QPS, Node's 1 / QPS (ab's time taken includes no start-up).
is "$(sqlite3 "$DB" "SELECT count(*) FROM samples a JOIN samples b
    ON a.plan_idx = b.plan_idx AND a.run_id = b.run_id
    WHERE a.run_id = 1 AND a.unit = 'sec/op'
    AND b.unit = 'requests_per_second.QPS' AND a.benchmark = b.benchmark
    AND ((a.benchmark = 'Ruby/concurrency.25-$N'
      AND abs(a.value * b.value / 25 - 1) < 0.05)
    OR (a.benchmark = 'Node/concurrency.25-$N'
      AND abs(a.value * b.value - 1) < 0.05))")" 2 \
    "sec/op: Node's per request, Ruby's per request of each client"
is "$(range "Syscallbench/syscall.getpid-$N" sec/op 1e-8 1e-5)" 0 \
    "syscallbench under runc: 10 ns .. 10 us per getpid"
is "$(range "Syscallbench/syscall.getpidopt-$N" sec/op 1e-8 1e-5)" 0 \
    "syscallbench under runc: 10 ns .. 10 us per inline getpid"
# dd: 102400 bytes; kB/s and the time dd printed agree.
is "$(sqlite3 "$DB" "SELECT count(*) FROM samples a JOIN samples b
    ON a.plan_idx = b.plan_idx AND a.run_id = b.run_id
    WHERE a.run_id = 1 AND a.benchmark = 'DDSync-$N' AND a.unit = 'kB/s'
    AND b.benchmark = 'DDSync-$N' AND b.unit = 'sec/op'
    AND abs(a.value * b.value - 102.4) < 1")" 1 \
    "dd: kB/s x seconds = 102.4 kB (dd's kB is 1000 bytes)"

# benchstat lines abbench's rows up with the reports' (-N ignored).
"$ABBENCH" db export --db "$DB" 1 >"$TEST_TMP/export" 2>"$TEST_TMP/err"
ok $? "db export"
for f in base database network; do
	"$ABBENCH" stat -table "" -ignore /gomaxprocs,/bytes \
	    "report=$ABBENCH_SRCDIR/tests/data/reports/001-$f.txt" \
	    "abbench=$TEST_TMP/export" >"$TEST_TMP/stat.$f" 2>&1
	nrows=0
	nmiss=0
	for row in $(sed -n 's/^Benchmark\([^ ]*\)-16 .*/\1/p' \
	    "$ABBENCH_SRCDIR/tests/data/reports/001-$f.txt" |
	    sed 's|/bytes=[^/]*||'); do
		nrows=$((nrows + 1))
		grep -E "^$row +[0-9].* \(p=[0-9.]+ n=" "$TEST_TMP/stat.$f" \
		    >/dev/null || { nmiss=$((nmiss + 1)); diag "not lined up: $row"; }
	done
	ok $([ $nrows -gt 2 ] && [ $nmiss = 0 ]; echo $?) \
	    "stat lines up all $nrows rows of reference/001 ($f) with abbench's"
done
# reference/003 shows the Node rows in three units: each lines up.
"$ABBENCH" stat -table "" -ignore /gomaxprocs \
    "report=$ABBENCH_SRCDIR/tests/data/reports/003-network.txt" \
    "abbench=$TEST_TMP/export" >"$TEST_TMP/stat.003" 2>&1
nmiss=0
for c in 1 5 10 25; do
	[ "$(grep -cE "^Node/concurrency\.$c +[0-9].* \(p=[0-9.]+ n=" \
	    "$TEST_TMP/stat.003")" = 3 ] ||
	    { nmiss=$((nmiss + 1)); diag "not in 3 units: Node/concurrency.$c"; }
done
for u in sec/op average_latency.s requests_per_second.QPS; do
	grep -qE "│ +$u +│" "$TEST_TMP/stat.003" ||
	    { nmiss=$((nmiss + 1)); diag "no $u table"; }
done
is "$nmiss" 0 "stat lines up the Node rows of reference/003 in sec/op,\
 average_latency.s and requests_per_second.QPS"

# runsc runs them too (one row each), in the same images.
cat >"$TEST_TMP/runsc.ini" <<EOI
[experiment]
name = t1200-runsc
rounds = 1
timeout = 90s

[arm runsc]
runtime = runsc

[workload Sysbench]
type = app
app = sysbench
testname = CPU
ops = 100

[workload Hackbench]
type = app
app = hackbench
ipcMode = pipe
processMode = thread
groups = 1
ops = 20

[workload Redis]
type = app
app = redis
operation = SET
ops = 300
clients = 5

[workload NginxDocSize]
type = app
app = nginx
filesize = 10Kb
concurrency = 1
filesystem = tmpfs
ops = 50

[workload Httpd]
type = app
app = httpd
filesize = 10Kb
concurrency = 1
ops = 50

[workload Syscallbench]
type = app
app = syscallbench
syscall = getpid
ops = 20000

[workload Node]
type = app
app = node
concurrency = 1
ops = 50

[workload Ruby]
type = app
app = ruby
concurrency = 1
ops = 20
workers = 2
EOI
"$ABBENCH" run "$TEST_TMP/runsc.ini" --db "$DB" --quiet >"$TEST_TMP/out2" 2>&1
ok $? "runsc: every application runs (exit 0)" ||
    sed 's/^/# /' "$TEST_TMP/out2" | tail -20
is "$(sqlite3 "$DB" "SELECT count(DISTINCT benchmark) FROM samples
    WHERE run_id = 2 AND status = 'ok' AND benchmark IN (
    'Sysbench/testname.CPU-$N', 'Hackbench/ipcMode.pipe/processMode.thread-$N',
    'Redis/operation.SET-$N',
    'NginxDocSize/filesize.10Kb/concurrency.1/filesystem.tmpfs-$N',
    'Httpd/filesize.10Kb/concurrency.1-$N',
    'Syscallbench/syscall.getpid-$N', 'Node/concurrency.1-$N',
    'Ruby/concurrency.1-$N')")" 8 \
    "runsc: the eight rows stored under the report's names"

# ffmpeg: one transcode of a 1 s video under runc (its image is large).
if command -v ffmpeg >/dev/null 2>&1 &&
    "$ABBENCH_SRCDIR/scripts/build-image" --app ffmpeg >"$TEST_TMP/img.ff" 2>&1; then
	cat >"$TEST_TMP/ffmpeg.ini" <<EOI
[experiment]
name = t1200-ffmpeg
rounds = 1
timeout = 120s
[arm runc]
runtime = runc
[workload Ffmpeg]
type = app
app = ffmpeg
ops = 1
EOI
	"$ABBENCH" run "$TEST_TMP/ffmpeg.ini" --db "$DB" --quiet \
	    >"$TEST_TMP/out4" 2>&1
	ok $? "ffmpeg: the transcode runs (exit 0)"
	is "$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE run_id = 3
	    AND benchmark = 'Ffmpeg-$N' AND unit = 'sec/op' AND value > 0.01
	    AND value < 100")" 1 "ffmpeg: Ffmpeg-N sec/op (rtime) stored"
else
	diag "ffmpeg missing or its image failed: scripts/setup --all"
	fail "ffmpeg: the image builds (scripts/setup --all installs ffmpeg)"
fi

# A bad key is an input error naming file, line and key; nothing stored.
cat >"$TEST_TMP/bad.ini" <<EOI
[experiment]
rounds = 1
[arm a]
runtime = runc
[workload Redis]
type = app
app = redis
EOI
"$ABBENCH" run "$TEST_TMP/bad.ini" --db "$DB" --quiet >"$TEST_TMP/out3" 2>&1
is $? 2 "redis without operation: exit 2"
like "$(cat "$TEST_TMP/out3")" "bad.ini:[0-9]+: operation:" \
    "the error names file:line: key"
left=0
for u in $(sqlite3 "$DB" "SELECT uuid FROM runs"); do
	left=$((left + $(timeout 30 docker ps -aq \
	    --filter "label=abbench.run=$u" | wc -l)))
	left=$((left + $(ls -d /var/tmp/abbench-app-*-"$u" 2>/dev/null | wc -l)))
done
is "$left" 0 "no container and no bind-mount scratch directory left"
done_testing
