#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Odd names through every JSON output of a store (issue 58: one JSON
# writer, lib/jsonw): benchmark names and a config value with ", \, %,
# <, control bytes, a byte that is not UTF-8 and valid UTF-8 (the vector
# tests/data/benchstat/json_odd_names), imported under an arm label that
# is not UTF-8 either. `stat --db -format json`, `power --json` and `db
# ls --json` are valid UTF-8 JSON that python3 reads, every row is there
# (power --json dropped the row of the 0xFF name: jansson refused it and
# the row went missing; db ls --json refused the run, exit 2), the byte
# as U+FFFD, and stat's JSON from the store is the vector's, byte for
# byte.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd python3
plan 9

V=$ABBENCH_SRCDIR/tests/data/benchstat/json_odd_names
DB=$TEST_TMP/t.db
cd "$TEST_TMP" || exit 1
cp "$V/old.txt" "$V/new.txt" .
bad=$(printf 'cand\377<%%"x')
"$ABBENCH" db --db "$DB" import old.txt "$bad=new.txt" > out 2>&1
ok $? "import under an arm label that is not UTF-8" || sed 's/^/# /' out

# check FILE WHAT: FILE is strict UTF-8 JSON; print WHAT of it.
check() {
	python3 - "$1" "$2" <<'EOP'
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
what = sys.argv[2]
if what == "power":
    names = sorted(r["benchmark"] for r in d["rows"])
elif what == "ls":
    names = d["runs"][0]["arms"]
else:
    names = sorted(r["name"] for t in d["tables"] for r in t["rows"])
print("|".join(names).encode("unicode_escape").decode())
EOP
}
want='Back\\slash-2|Bad\ufffdName-2|Ctl\x01\x1fX-2|Lt<script>-2|Micro\xb5s-2|Pct%sx%d-2|Quote"d-2'

"$ABBENCH" power --db "$DB" --json --reps 20 last > power.json 2> err
ok $? "power --json exits 0" || sed 's/^/# /' err
is "$(check power.json power 2>&1)" "$want" \
    "power --json: valid UTF-8 JSON, every row, the byte as U+FFFD"

"$ABBENCH" db --db "$DB" ls --json > ls.json 2> err
ok $? "db ls --json exits 0" || sed 's/^/# /' err
is "$(check ls.json ls 2>&1)" 'old.txt|cand\ufffd<%"x' \
    "db ls --json: the arm label with the byte as U+FFFD"

"$ABBENCH" stat --db "$DB" -format json last > stat.json 2> err
ok $? "stat --db -format json exits 0" || sed 's/^/# /' err
is "$(check stat.json stat 2>&1)" "$want" \
    "stat -format json: valid UTF-8 JSON, every row"
grep -q '"name": "Ctl\\u0001\\u001FX-2"' stat.json &&
    grep -q '"name": "Quote\\"d-2"' stat.json &&
    grep -q '"name": "Back\\\\slash-2"' stat.json
ok $? "stat -format json: the escapes lib/jsonw.h documents"
"$ABBENCH" stat -format json old.txt new.txt > files.json 2>/dev/null
cmp -s files.json "$V/expected.txt"
ok $? "stat -format json on the files: the vector's bytes"

done_testing
