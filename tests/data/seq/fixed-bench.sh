#!/bin/sh
# fixed-bench.sh ARM ROUND KIND: one Go benchmark line whose value is a
# fixed function of the arm, the round and the kind, so that a run of
# `--until decided` is the same every time (t0445):
#   flat    both arms 1000..1010 ns: equivalent within 2%
#   big     arm b 50% slower: different
#   near    arm b 1.5% slower, spread 3%: decided late or not at all
#   small   arm b 4 ns (0.4%) slower than flat: p = 0.13 at 6 rounds
#           and within 2%, but a change at 16 (p = 0.003)
#   failat  like flat, but arm b fails in round 3 (a make-up round)
#   fail    arm b always fails
#   mostfail arm b fails but in round 2
#   two     like flat, and a second line Noisy whose arms differ by 10% +-30%
#   zero    like flat, with Go's -benchmem `0 B/op 0 allocs/op` in both arms
#   regime  the level falls 4x from {round} 13 (a disk out of burst
#           credits) and the effect with it: every arm but a 3x arm a
#           before, 5% slower after
#   step    the level doubles from {round} 16, every arm but a 10% slower
#           throughout
#   wide    `runsc do` times written to the ns and spread by load over
#           0.4-0.7 s (issue 54, friction 5): gaps of 17 ms and more
arm=$1 round=$2 kind=$3
sleep "${SEQ_SLEEP:-0}"
v=$((1000 + (round * 37) % 11))
case $kind in
big)	[ "$arm" = b ] && v=$((v + 500)) ;;
small)	[ "$arm" = b ] && v=$((v + 4)) ;;
near)	v=$((1000 + (round * 37) % 31))
	[ "$arm" = b ] && v=$((v + 15)) ;;
failat)	if [ "$arm" = b ] && [ "$round" = 3 ]; then
		echo "--- FAIL: BenchmarkFailat" >&2
		exit 1
	fi ;;
fail)	if [ "$arm" = b ]; then
		echo "broken" >&2
		exit 1
	fi ;;
regime)	if [ "$round" -le 12 ]; then
		v=$((4 * v))
		[ "$arm" != a ] && v=$((3 * v))
	else
		[ "$arm" != a ] && v=$((v + 50))
	fi ;;
wide)	if [ "$arm" = a ]; then
		set -- 395874673 431220517 498311042 612004981
	else
		set -- 413402777 467730118 541198305 700321446
	fi
	shift $((round % 4))
	v=$1 ;;
step)	[ "$arm" != a ] && v=$((v + 100))
	[ "$round" -ge 16 ] && v=$((2 * v)) ;;
mostfail)
	if [ "$arm" = b ] && [ "$round" != 2 ]; then
		echo "mostly broken" >&2
		exit 1
	fi ;;
esac
if [ "$kind" = two ]; then
	n=$((1000 + (round * 53) % 600))
	[ "$arm" = b ] && n=$((n + 100))
	echo "BenchmarkNoisy 1 $n ns/op"
fi
name=$(printf '%s' "$kind" | cut -c1 | tr a-z A-Z)$(printf '%s' "$kind" | cut -c2-)
if [ "$kind" = zero ]; then
	echo "Benchmark$name 1 $v ns/op 0 B/op 0 allocs/op"
else
	echo "Benchmark$name 1 $v ns/op"
fi
