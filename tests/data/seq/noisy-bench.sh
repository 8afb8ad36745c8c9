#!/bin/sh
# noisy-bench.sh ARM ROUND: a Go benchmark that one invocation prints three
# times (as -test.count=3 does), its values a fixed function of the arm,
# the round and the line, so that a run of `--until decided` is the same
# every time (t0251): both arms 1000..1400 ns (+-20%), each its own
# sequence, no change between them: at 12 rounds neither a change nor "no
# change within 2%" can be shown, and the three lines of an invocation
# differ, so that one value per execution (their median) is not one per
# line.
arm=$1 round=$2
for k in 0 1 2; do
	if [ "$arm" = a ]; then
		v=$((1000 + (round * 53 + k * 71) % 401))
	else
		v=$((1000 + (round * 29 + k * 67 + 100) % 401))
	fi
	echo "BenchmarkNoisy 1 $v ns/op"
done
