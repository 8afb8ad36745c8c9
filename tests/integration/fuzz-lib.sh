# Shared by the libFuzzer tests (t0210, t0310), sourced first (not with
# lib.sh): three TAP tests, build, fuzz, no crash input.
#
#   fuzz_init NAME          skip unless clang has libFuzzer; FUZZ_TMP (a
#                           private directory, removed at exit) with an
#                           empty corpus/; prints the plan. The target is
#                           $FUZZ_TMP/NAME. Sets srcdir, builddir and
#                           seconds ($FUZZ_SECONDS, else $1 of fuzz_init's
#                           second argument).
#   fuzz_not_built WHY      tests 1-3 when there is nothing to build with;
#                           exits 1
#   fuzz_build CMD...       build the target with CMD in the build
#                           directory (test 1); exits 1 when it fails
#   fuzz_run DESC DICT [FLAG...]
#                           run the target for $seconds on the corpus with
#                           the dictionary (test 2)
#   fuzz_done               keep crash, leak, timeout and oom inputs in the
#                           build directory as NAME-*, test 3, and exit

srcdir=${ABBENCH_SRCDIR:-.}
builddir=${ABBENCH_BUILDDIR:-.}
FUZZ_RC=0

fuzz_init() {
	FUZZ_NAME=$1
	seconds=${FUZZ_SECONDS:-$2}
	if ! command -v clang >/dev/null 2>&1; then
		echo "1..0 # SKIP clang is not installed"
		exit 0
	fi
	FUZZ_TMP=$(mktemp -d "${TMPDIR:-/tmp}/$FUZZ_NAME.XXXXXX") || exit 1
	trap 'rm -rf "$FUZZ_TMP"' EXIT
	cat >"$FUZZ_TMP/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{ (void)d; (void)n; return 0; }
EOF
	if ! clang -fsanitize=fuzzer "$FUZZ_TMP/probe.c" \
	    -o "$FUZZ_TMP/probe" >/dev/null 2>&1; then
		echo "1..0 # SKIP clang has no libFuzzer"
		exit 0
	fi
	mkdir "$FUZZ_TMP/corpus"
	echo "1..3"
}

fuzz_not_built() {
	echo "not ok 1 - build the fuzz target # $1"
	echo "not ok 2 - fuzz # SKIP not built"
	echo "ok 3 - no crash inputs # SKIP not built"
	exit 1
}

fuzz_build() {
	if (cd "$builddir" && "$@") >"$FUZZ_TMP/build.log" 2>&1; then
		echo "ok 1 - build the fuzz target"
		return 0
	fi
	echo "not ok 1 - build the fuzz target"
	echo "# (cd $builddir && $*)"
	sed 's/^/# /' "$FUZZ_TMP/build.log" | tail -20
	echo "not ok 2 - fuzz # SKIP not built"
	echo "ok 3 - no crash inputs # SKIP not built"
	exit 1
}

fuzz_run() {
	fuzz_desc=$1
	fuzz_dict=$2
	shift 2
	echo "# (cd $FUZZ_TMP && ./$FUZZ_NAME -max_total_time=$seconds $*" \
	    "-timeout=10 -rss_limit_mb=2048 -dict=.../$(basename \
	    "$fuzz_dict") corpus)"
	if (cd "$FUZZ_TMP" && "./$FUZZ_NAME" -max_total_time="$seconds" \
	    "$@" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$FUZZ_TMP/" -dict="$fuzz_dict" corpus) \
	    >"$FUZZ_TMP/fuzz.log" 2>&1; then
		echo "ok 2 - $fuzz_desc for ${seconds}s"
		grep -E '^(Done|stat::number_of_executed_units)' \
		    "$FUZZ_TMP/fuzz.log" | sed 's/^/# /'
	else
		echo "not ok 2 - $fuzz_desc for ${seconds}s"
		grep -v '^#' "$FUZZ_TMP/fuzz.log" | tail -40 | sed 's/^/# /'
		FUZZ_RC=1
	fi
}

fuzz_done() {
	fuzz_found=0
	for a in "$FUZZ_TMP"/crash-* "$FUZZ_TMP"/leak-* \
	    "$FUZZ_TMP"/timeout-* "$FUZZ_TMP"/oom-*; do
		[ -f "$a" ] || continue
		fuzz_found=1
		cp "$a" "$builddir/$FUZZ_NAME-$(basename "$a")"
		echo "# kept $builddir/$FUZZ_NAME-$(basename "$a")"
	done
	if [ "$fuzz_found" = 0 ]; then
		echo "ok 3 - no crash inputs"
	else
		echo "not ok 3 - no crash inputs"
		FUZZ_RC=1
	fi
	exit "$FUZZ_RC"
}
