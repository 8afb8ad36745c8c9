#!/bin/sh
# t0310-fuzz-benchfmt: build the libFuzzer target of the benchfmt reader,
# the query parsers and the stat pipeline (tests/fuzz/fuzz-benchfmt.c)
# with clang, all of its sources instrumented, and run it for FUZZ_SECONDS
# (default 20) on a corpus of benchstat vector inputs.  Any crash, leak,
# sanitizer report or broken invariant fails the test; the input that did
# it is kept in the build directory.  A longer run is described at the top
# of the target.

srcdir=${ABBENCH_SRCDIR:-.}
builddir=${ABBENCH_BUILDDIR:-.}
shared=${ABBENCH_SHARED:-$srcdir/../shared}
seconds=${FUZZ_SECONDS:-20}

if ! command -v clang >/dev/null 2>&1; then
	echo "1..0 # SKIP clang is not installed"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t0310.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{ (void)d; (void)n; return 0; }
EOF
if ! clang -fsanitize=fuzzer "$tmp/probe.c" -o "$tmp/probe" \
    >/dev/null 2>&1; then
	echo "1..0 # SKIP clang has no libFuzzer"
	exit 0
fi

echo "1..3"

s=$srcdir/stats
set -- clang -g -O1 -ffp-contract=off -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -I"$builddir" -I"$srcdir" \
    "$srcdir/tests/fuzz/fuzz-benchfmt.c" "$srcdir/harness/util.c" \
    "$s/strpool.c" "$s/uniprop.c" "$s/unitab.c" "$s/benchfmt.c" \
    "$s/benchunit.c" "$s/gomath.c" "$s/query.c" "$s/benchproc.c" \
    "$s/benchtab.c" "$s/benchstat.c" "$s/benchmath.c" "$s/quantile.c" \
    "$s/utest.c" "$s/texttab.c" -lm -o "$tmp/fuzz-benchfmt"
if "$@" >"$tmp/build.log" 2>&1; then
	echo "ok 1 - build the fuzz target"
else
	echo "not ok 1 - build the fuzz target"
	echo "# $*"
	sed 's/^/# /' "$tmp/build.log" | tail -20
	echo "not ok 2 - fuzz the benchfmt reader # SKIP not built"
	echo "ok 3 - no crash inputs # SKIP not built"
	exit 1
fi

mkdir "$tmp/corpus"
if [ -d "$shared/benchstat-vectors/vectors" ]; then
	find "$shared/benchstat-vectors/vectors" -name '*.txt' -size -8k \
	    ! -name 'expected*' -exec cp {} "$tmp/corpus/" ';' 2>/dev/null
fi
for d in "$srcdir"/tests/data/benchstat/*/; do
	for f in "$d"*.txt; do
		case $f in
		*/expected.txt) ;;
		*) [ -f "$f" ] && cp "$f" "$tmp/corpus/$(basename "$d")-$(basename "$f")" ;;
		esac
	done
done
printf '.name:/a|b/ OR -.unit:B/op\n/format@alpha,.name\nBenchmarkA-8 1 5 ns/op\n' \
    > "$tmp/corpus/seed-queries"

echo "# (cd $tmp && ./fuzz-benchfmt -max_total_time=$seconds -max_len=8192" \
    "-timeout=10 -rss_limit_mb=2048 -dict=.../benchfmt.dict corpus)"
if (cd "$tmp" && ./fuzz-benchfmt -max_total_time="$seconds" \
    -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$tmp/" \
    -dict="$srcdir/tests/fuzz/benchfmt.dict" corpus) \
    >"$tmp/fuzz.log" 2>&1; then
	echo "ok 2 - fuzz the benchfmt reader for ${seconds}s"
	grep -E '^(Done|stat::number_of_executed_units)' "$tmp/fuzz.log" |
	    sed 's/^/# /'
	rc=0
else
	echo "not ok 2 - fuzz the benchfmt reader for ${seconds}s"
	grep -v '^#' "$tmp/fuzz.log" | tail -40 | sed 's/^/# /'
	rc=1
fi

found=0
for a in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-*; do
	[ -f "$a" ] || continue
	found=1
	cp "$a" "$builddir/fuzz-benchfmt-$(basename "$a")"
	echo "# kept $builddir/fuzz-benchfmt-$(basename "$a")"
done
if [ "$found" = 0 ]; then
	echo "ok 3 - no crash inputs"
else
	echo "not ok 3 - no crash inputs"
	rc=1
fi
exit "$rc"
