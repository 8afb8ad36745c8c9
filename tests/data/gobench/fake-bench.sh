#!/bin/sh
# A stand-in for a Go benchmark binary: prints Go benchmark format with
# config lines, `go test -v` noise, several benchmarks and units, and a
# failing benchmark, then exits 1 as `go test` does on a failure.
# Usage: fake-bench.sh ARM ROUND RUNTIME LOG
# Its numbers depend on ARM and ROUND so a test can check what was stored;
# "ARM ROUND RUNTIME" is appended to LOG to show what reached the argv.
arm=$1 round=$2 rt=$3 log=$4
echo "$arm $round $rt" >> "$log"
base=1000
[ "$arm" = after ] && base=800
echo "goos: linux"
echo "goarch: amd64"
echo "pkg: example.com/fake"
echo "=== RUN   BenchmarkStartup"
echo "BenchmarkStartup"
echo "BenchmarkStartup/mode=cold-2         	       1	$((base + round * 3)) ns/op	     $((base * 2)) B/op	      12 allocs/op"
echo "BenchmarkStartup/mode=warm-2         	       1	$((base / 2 + round)) ns/op	     $((base * 2)) B/op	      $((10 + round % 2)) allocs/op"
echo "BenchmarkSize-2   	       1	$((base / 10 + round)).5 MB/s"
echo "--- FAIL: BenchmarkBroken"
echo "    fake_test.go:12: connection refused"
echo "FAIL"
echo "something went wrong in BenchmarkBroken" >&2
echo "FAIL	example.com/fake	0.005s"
exit 1
