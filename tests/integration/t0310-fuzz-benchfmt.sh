#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0310-fuzz-benchfmt: build the libFuzzer target of the benchfmt reader,
# the query parsers and the stat pipeline (tests/fuzz/fuzz-benchfmt.c)
# with clang, all of its sources instrumented, and run it for FUZZ_SECONDS
# (default 20) on a corpus of benchstat vector inputs.  Any crash, leak,
# sanitizer report or broken invariant fails the test; the input that did
# it is kept in the build directory.  A longer run is described at the top
# of the target.
. "${ABBENCH_SRCDIR:-.}/tests/integration/fuzz-lib.sh"

fuzz_init fuzz-benchfmt 20

s=$srcdir/stats g=$srcdir/lib/goregexp
fuzz_build clang -g -O1 -ffp-contract=off \
    -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -I"$builddir" -I"$srcdir" \
    "$srcdir/tests/fuzz/fuzz-benchfmt.c" "$srcdir/lib/util.c" "$srcdir/lib/jsonw.c" \
    "$s/strpool.c" "$g/uniprop.c" "$g/unitab.c" "$s/benchfmt.c" \
    "$s/benchunit.c" "$s/gomath.c" "$g/goregexp.c" "$g/goregexp-parse.c" \
    "$g/goregexp-class.c" "$s/query.c" \
    "$s/benchproc.c" \
    "$s/benchtab.c" "$s/benchtab-render.c" "$s/benchtab-md.c" "$s/benchstat.c" "$s/benchmath.c" "$s/quantile.c" \
    "$s/utest.c" "$s/texttab.c" -ljansson -lm -o "$FUZZ_TMP/fuzz-benchfmt"

c=$FUZZ_TMP/corpus
if [ -d "$srcdir/tests/data/benchstat-vectors/vectors" ]; then
	find "$srcdir/tests/data/benchstat-vectors/vectors" -name '*.txt' -size -8k \
	    ! -name 'expected*' -exec cp {} "$c/" ';' 2>/dev/null
fi
for d in "$srcdir"/tests/data/benchstat/*/; do
	for f in "$d"*.txt; do
		case $f in
		*/expected.txt) ;;
		*) [ -f "$f" ] &&
		    cp "$f" "$c/$(basename "$d")-$(basename "$f")" ;;
		esac
	done
done
printf '.name:/a|b/ OR -.unit:B/op\n/format@alpha,.name\nBenchmarkA-8 1 5 ns/op\n' \
    > "$c/seed-queries"
# Go regexps: Unicode classes, folding, repeats near the limits.
printf '.name:/(?i)^\\p{Greek}|\\PL{2,}$/\nx\nBenchmark\316\262eta 1 5 ns/op\nBenchmarkK 1 6 ns/op\n' \
    > "$c/seed-regexp"
printf '(a{10}){10}|[[:^alpha:]]*?\\Q.\\E\\b\n.name\nBenchmarkInv\377X 1 5 x\n' \
    > "$c/seed-repeat"
# NUL bytes in a config value, a name, a sub-benchmark value and a unit.
{
	printf '*\n.name /k\nnote: a\000b\n'
	printf 'BenchmarkA\000/k=v\000-4 1 5 x\000y\nBenchmarkA/k=v 1 6 x\n'
	printf 'Unit x\000y assume=exact\n'
} > "$c/seed-nul"

fuzz_run "fuzz the benchfmt reader" "$srcdir/tests/fuzz/benchfmt.dict" \
    -max_len=8192
fuzz_done
