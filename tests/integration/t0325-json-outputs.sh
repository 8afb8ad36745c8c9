#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Machine-readable output (issue 24 item 9): `stat -format json`,
# `power --json` and `db ls --json` parse as JSON (python3 -m json.tool
# and, for the fields, python3's json module) and hold what the text
# holds, in the schema the README documents.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"
require_cmd python3
DB=$TEST_TMP/t.db
N=$(nproc)

# `true` against `sleep 0.01`, a real rise: the run stops by the rule
# (decided different, or the test fails, by max-rounds 12), n its rounds.
fast_slow_exp "$TEST_TMP/e.ini" t0325 6
"$ABBENCH" run "$TEST_TMP/e.ini" --db "$DB" --until decided --max-rounds 12 \
    --quiet >"$TEST_TMP/out" 2>&1
ok $? "a fast/slow run succeeds"
n=$(sqlite3 "$DB" "SELECT count(*) FROM samples WHERE arm = 'fast' AND
    status = 'ok'")
like "$("$ABBENCH" db show --db "$DB" last 2>&1)" \
    "Cmd-$N sec/op slow vs fast: different after $n good rounds" \
    "the rise is decided different by max-rounds 12 ($n rounds)"

# stat -format json: valid, the same numbers as the text table.
"$ABBENCH" stat --db "$DB" -format json last >"$TEST_TMP/stat.json" \
    2>"$TEST_TMP/stat.err"
ok $? "stat -format json exits 0"
python3 -m json.tool "$TEST_TMP/stat.json" >/dev/null 2>&1
ok $? "stat -format json is JSON (python3 -m json.tool)"
got=$(python3 - "$TEST_TMP/stat.json" "$n" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tables"] if t["unit"] == "sec/op"][0]
row = t["rows"][0]
base, other = row["cells"]
assert base["n"] == len(base["values"]) == int(sys.argv[2]), base
assert base["lo"] <= base["center"] <= base["hi"], base
assert sorted(base["values"]) == base["values"]
assert "vs_base" not in base and "p" in other
print(t["columns"], row["name"], other["vs_base"][0],
      other["significant"], round(other["delta_pct"]) > 0,
      t["geomean"][1]["ratio"] > 1, "goos" in t["config"])
EOP
)
is "$got" "['fast', 'slow'] Cmd-$N + True True True True" \
    "stat json: columns, row, a significant rise, geomean ratio, config"
"$ABBENCH" stat --db "$DB" last >"$TEST_TMP/stat.txt" 2>&1
center=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]));
print(d['tables'][0]['rows'][0]['cells'][0]['ci'])" "$TEST_TMP/stat.json")
like "$(grep "^Cmd-$N " "$TEST_TMP/stat.txt")" " ± $center " \
    "stat json: the CI the text table prints ($center)"
# File mode takes it too; other formats keep benchstat's message.
"$ABBENCH" db export --db "$DB" last >"$TEST_TMP/exp.txt" 2>/dev/null
"$ABBENCH" stat -format json "$TEST_TMP/exp.txt" | python3 -m json.tool \
    >/dev/null 2>&1
ok $? "stat -format json on a file is JSON"
"$ABBENCH" stat -format xml "$TEST_TMP/exp.txt" >"$TEST_TMP/out" 2>&1
like "$(cat "$TEST_TMP/out")" "format must be text or csv" \
    "-format xml: benchstat's message"

# power --json
"$ABBENCH" power --db "$DB" --json --reps 50 last >"$TEST_TMP/power.json" \
    2>"$TEST_TMP/power.err"
ok $? "power --json exits 0"
python3 -m json.tool "$TEST_TMP/power.json" >/dev/null 2>&1
ok $? "power --json is JSON"
got=$(python3 - "$TEST_TMP/power.json" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rows"][0]
print(d["run"]["name"], d["noise"]["from"], d["noise"]["baseline_arm"],
      d["test"]["reps"], d["effect"], r["unit"], r["n_base"], r["n_other"],
      r["rounds"] is None or r["rounds"] >= 2,
      r["mde"] is None or r["mde"] > 0)
EOP
)
is "$got" "t0325 baseline fast 50 0.02 sec/op $n $n True True" \
    "power json: run, noise source, test, rows"
"$ABBENCH" power --db "$DB" --reps 50 last >"$TEST_TMP/power.txt" 2>&1
mad=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]));
v = d['rows'][0]['mad_rel']
print('%.0f%%' % (100 * v) if v >= 10 else '%.3g%%' % (100 * v))" \
    "$TEST_TMP/power.json")
like "$(grep "^Cmd-$N" "$TEST_TMP/power.txt")" "$mad" \
    "power json: the MAD/median the text prints ($mad)"

# db ls --json
"$ABBENCH" db ls --db "$DB" --json >"$TEST_TMP/ls.json" 2>&1
ok $? "db ls --json exits 0"
python3 -m json.tool "$TEST_TMP/ls.json" >/dev/null 2>&1
ok $? "db ls --json is JSON"
got=$(python3 - "$TEST_TMP/ls.json" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
print(len(d["runs"]), r["id"], r["name"], r["status"], r["arms"],
      r["samples"], r["failed"], r["fleet"], r["started"][-1],
      r["started"] <= r["ended"], len(r["uuid"]))
EOP
)
is "$got" "1 1 t0325 done ['fast', 'slow'] $((2 * n)) 0 None Z True 36" \
    "db ls json: id, name, status, arms, counts, times, uuid"
"$ABBENCH" db show --db "$DB" --json last >"$TEST_TMP/out" 2>&1
is "$?" 2 "db show --json: exit 2"
like "$(cat "$TEST_TMP/out")" "--json goes with ls" "and says where it goes"

done_testing
