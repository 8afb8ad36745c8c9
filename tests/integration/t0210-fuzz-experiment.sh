#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t0210-fuzz-experiment: build the libFuzzer target of the experiment loader
# (tests/fuzz/fuzz-experiment.c) with clang and run it for FUZZ_SECONDS
# (default 15) on a corpus of the shipped and test experiment files. Any
# crash, leak, sanitizer report or broken invariant fails the test; the
# input that did it is kept in the build directory. A longer run is
# described at the top of the target.
. "${ABBENCH_SRCDIR:-.}/tests/integration/fuzz-lib.sh"

fuzz_init fuzz-experiment 15

# The flags and libraries of this build, as make knows them.
printf '%s\n' 'fuzz-print-cflags:' \
    '	@echo $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(INIH_CFLAGS)' \
    'fuzz-print-libs:' '	@echo $(LDADD) $(LIBS)' >"$FUZZ_TMP/vars.mk"
mk() {
	# Not the outer make's flags: no "Entering directory" lines.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
	    -C "$builddir" -f Makefile -f "$FUZZ_TMP/vars.mk" "$1" \
	    2>/dev/null | tail -n 1
}
cflags=$(mk fuzz-print-cflags)
libs=$(mk fuzz-print-libs)
if [ -z "$libs" ] || [ ! -f "$builddir/libabbench.a" ]; then
	fuzz_not_built "cannot read the build's flags"
fi

# experiment.c, experiment-read.c and util.c instrumented; the rest comes
# from libabbench.a (its copies of those are not pulled in: their symbols
# are defined).
# shellcheck disable=SC2086
fuzz_build clang -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined $cflags \
    "$srcdir/tests/fuzz/fuzz-experiment.c" "$srcdir/harness/core/experiment.c" \
    "$srcdir/harness/core/experiment-read.c" \
    "$srcdir/lib/util.c" $libs -o "$FUZZ_TMP/fuzz-experiment"

for f in "$srcdir"/tests/data/experiments/*.ini "$srcdir"/experiments/*.ini
do
	[ -f "$f" ] && cp "$f" "$FUZZ_TMP/corpus/"
done
fuzz_run "fuzz experiment_parse" "$srcdir/tests/fuzz/experiment.dict"
fuzz_done
