#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 15: Chromium refuses to run as root without
# --no-sandbox. Wherever the project runs or tells to run chromium (the
# docs, the tests, the scripts), it passes --no-sandbox when, and only
# when, the user is root (`id -u` is 0), and the docs say why.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
cd "$ABBENCH_SRCDIR" || exit 1
files=$(grep -l -E '(^|[ (])chromium +--' README.md docs/*.md \
    tests/integration/*.sh scripts/* 2>/dev/null | grep -v t0013)
ok "$(test -n "$files"; echo $?)" "chromium is run somewhere ($(echo $files))"
for f in $files; do
	is "$(grep -E '(^|[ (])chromium +--' "$f" | grep -c -- '--no-sandbox')" 0 \
	    "$f: no unconditional --no-sandbox on a chromium line"
	file_like "$f" 'id -u.*= 0.*--no-sandbox' \
	    "$f: --no-sandbox when id -u is 0"
done
file_like docs/guide.md 'Running as root without' \
    "the guide says why (Chromium's own message)"
done_testing
