#!/bin/sh
# t0210-fuzz-experiment: build the libFuzzer target of the experiment loader
# (tests/fuzz/fuzz-experiment.c) with clang and run it for FUZZ_SECONDS
# (default 15) on a corpus of the shipped and test experiment files. Any
# crash, leak, sanitizer report or broken invariant fails the test; the
# input that did it is kept in the build directory. A longer run is
# described at the top of the target.

srcdir=${ABBENCH_SRCDIR:-.}
builddir=${ABBENCH_BUILDDIR:-.}
seconds=${FUZZ_SECONDS:-15}

if ! command -v clang >/dev/null 2>&1; then
	echo "1..0 # SKIP clang is not installed"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t0210.XXXXXX") || exit 1
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

# The flags and libraries of this build, as make knows them.
cat >"$tmp/vars.mk" <<'EOF'
fuzz-print-cflags:
	@echo $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(INIH_CFLAGS)
fuzz-print-libs:
	@echo $(LDADD) $(LIBS)
EOF
mk() {
	# Not the outer make's flags: no "Entering directory" lines.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
	    -C "$builddir" -f Makefile -f "$tmp/vars.mk" "$1" 2>/dev/null |
	    tail -n 1
}
cflags=$(mk fuzz-print-cflags)
libs=$(mk fuzz-print-libs)
if [ -z "$libs" ] || [ ! -f "$builddir/libabbench.a" ]; then
	echo "not ok 1 - build the fuzz target # cannot read the build's flags"
	echo "not ok 2 - fuzz experiment_parse # SKIP not built"
	echo "ok 3 - no crash inputs # SKIP not built"
	exit 1
fi

# experiment.c and util.c instrumented; the rest comes from libabbench.a
# (its copies of those two are not pulled in: their symbols are defined).
# shellcheck disable=SC2086
set -- clang -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined $cflags \
    "$srcdir/tests/fuzz/fuzz-experiment.c" "$srcdir/harness/experiment.c" \
    "$srcdir/harness/util.c" $libs -o "$tmp/fuzz-experiment"
if (cd "$builddir" && "$@") >"$tmp/build.log" 2>&1; then
	echo "ok 1 - build the fuzz target"
else
	echo "not ok 1 - build the fuzz target"
	echo "# (cd $builddir && $*)"
	sed 's/^/# /' "$tmp/build.log" | tail -20
	echo "not ok 2 - fuzz experiment_parse # SKIP not built"
	echo "ok 3 - no crash inputs # SKIP not built"
	exit 1
fi

mkdir "$tmp/corpus"
for f in "$srcdir"/tests/data/experiments/*.ini "$srcdir"/experiments/*.ini
do
	[ -f "$f" ] && cp "$f" "$tmp/corpus/"
done

echo "# (cd $tmp && ./fuzz-experiment -max_total_time=$seconds" \
    "-timeout=10 -rss_limit_mb=2048 -dict=.../experiment.dict corpus)"
if (cd "$tmp" && ./fuzz-experiment -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$tmp/" \
    -dict="$srcdir/tests/fuzz/experiment.dict" corpus) \
    >"$tmp/fuzz.log" 2>&1; then
	echo "ok 2 - fuzz experiment_parse for ${seconds}s"
	grep -E '^(Done|stat::number_of_executed_units)' "$tmp/fuzz.log" |
	    sed 's/^/# /'
	rc=0
else
	echo "not ok 2 - fuzz experiment_parse for ${seconds}s"
	grep -v '^#' "$tmp/fuzz.log" | tail -40 | sed 's/^/# /'
	rc=1
fi

found=0
for a in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-*; do
	[ -f "$a" ] || continue
	found=1
	cp "$a" "$builddir/fuzz-experiment-$(basename "$a")"
	echo "# kept $builddir/fuzz-experiment-$(basename "$a")"
done
if [ "$found" = 0 ]; then
	echo "ok 3 - no crash inputs"
else
	echo "not ok 3 - no crash inputs"
	rc=1
fi
exit "$rc"
