#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 54, newcomer friction 10: a failed sample's error named a sandbox
# log (runsc.log....boot.txt) that could not be found: a bare name, in a
# bundle removed with the container. The logs of a failed call are now
# kept in the state directory and the error names the kept file's path.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
. "$ABBENCH_SRCDIR/tests/integration/lifecycle-lib.sh"
require_root
require_cmd runsc busybox sqlite3
[ -x "$TOUCHMEM" ] || skip_all "no touchmem"
cd "$TEST_TMP" || exit 1
lc_rootfs
cat >t.ini <<EOI
[experiment]
name = t1152
rounds = 1
[arm a]
runtime = runsc
[arm b]
runtime = runsc
[workload w]
type = command
executor = oci
image = $LC_ROOTFS
args = /nonexistent
EOI
"$ABBENCH" run t.ini --db t.db --quiet >out 2>&1
is "$?" 1 "a run whose samples fail: exit 1"
err=$(sqlite3 t.db "SELECT error FROM samples WHERE arm = 'a' LIMIT 1")
path=$(printf '%s\n' "$err" | sed -n 's/^sandbox log \(.*\) (kept; last lines):$/\1/p')
like "$path" "^$ABBENCH_STATE_DIR/sandbox-logs/[^/]+/runsc\.log\.[0-9.-]+\.boot\.txt\$" \
    "the error names the kept log by its full path"
ok "$(test -s "$path"; echo $?)" "  a file that exists after the run"
like "$(cat "$path" 2>/dev/null)" "Error opening /nonexistent" \
    "  with what the error quotes"
is "$(ls "$(dirname "$path")" | grep -c '^runsc\.log\.')" 3 \
    "  beside the call's other runsc logs (run, gofer, boot)"
done_testing
