#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Round trip through the store: for every benchstat vector that benchstat
# reads without error, `db import` its input files, `db export -o DIR`,
# and check that the exported files mean the same to benchstat's reader
# (labels, config in order, names, units, exact values, Unit metadata) and
# that `abbench stat` prints the same table from them as from the
# originals, with the vector's own flags.
. "$ABBENCH_SRCDIR/tests/integration/lib.sh"

VECTORS=$ABBENCH_SRCDIR/tests/data/benchstat-vectors/vectors
CANON=$ABBENCH_BUILDDIR/tests/helpers/bf-canon
[ -d "$VECTORS" ] || skip_all "no benchstat vectors at '$VECTORS'"
[ -x "$CANON" ] || skip_all "tests/helpers/bf-canon is not built"

# abbench stat may not exist yet in a partial tree; it is then skipped.
STAT_OK=yes
if "$ABBENCH" stat "$VECTORS/two_files_basic/old.txt" 2>&1 >/dev/null |
    grep -q 'not implemented'; then
	STAT_OK=no
fi

# export -o's file name for an arm.
file_of() {
	fo=$(printf '%s' "$1" | tr / _)
	case $fo in ''|.*) fo=_$fo ;; esac
	case $fo in *.txt) ;; *) fo=$fo.txt ;; esac
	printf '%s\n' "$fo"
}

n=0
for dir in "$VECTORS"/*/; do
	v=$(basename "$dir")
	[ "$(cat "$dir/exit_code")" = 0 ] || continue
	[ -s "$dir/expected.stderr" ] && continue
	[ -e "$dir/stdin" ] && continue

	# Split the argument lines into input files and flags.
	: > "$TEST_TMP/files"
	: > "$TEST_TMP/flags"
	while IFS= read -r a; do
		p=$a
		case $a in *=*) p=${a#*=} ;; esac
		if [ -f "$dir/$p" ]; then
			printf '%s\n' "$a" >> "$TEST_TMP/files"
		else
			printf '%s\n' "$a" >> "$TEST_TMP/flags"
		fi
	done < "$dir/args"
	[ -s "$TEST_TMP/files" ] || continue
	n=$((n + 1))

	db=$TEST_TMP/$v.db
	out=$TEST_TMP/$v.out
	# Import from inside the vector directory, as benchstat was run.
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done < "$TEST_TMP/files"
	(cd "$dir" && "$ABBENCH" db --db "$db" import "$@") \
	    > "$TEST_TMP/import.out" 2> "$TEST_TMP/import.err"
	ok $? "$v: db import"
	"$ABBENCH" db --db "$db" export last -o "$out" > /dev/null \
	    2> "$TEST_TMP/export.err"
	ok $? "$v: db export -o"

	# The exported arguments: LABEL=FILE once per distinct label.
	: > "$TEST_TMP/exported"
	: > "$TEST_TMP/labels"
	: > "$TEST_TMP/seen"
	while IFS= read -r a; do
		case $a in
		*=*) l=${a%%=*} ;;
		*)
			cnt=$(grep -cxF -- "$a" "$TEST_TMP/files")
			if [ "$cnt" -gt 1 ]; then
				seen=$(grep -cxF -- "$a" "$TEST_TMP/seen")
				printf '%s\n' "$a" >> "$TEST_TMP/seen"
				l="$a#$seen"
			else
				l=$a
			fi
			;;
		esac
		grep -qxF -- "$l" "$TEST_TMP/labels" && continue
		printf '%s\n' "$l" >> "$TEST_TMP/labels"
		printf '%s=%s\n' "$l" "$(file_of "$l")" >> "$TEST_TMP/exported"
	done < "$TEST_TMP/files"

	set --
	while IFS= read -r a; do set -- "$@" "$a"; done < "$TEST_TMP/exported"
	(cd "$out" && "$CANON" "$@") > "$TEST_TMP/canon.new" 2>&1
	rc_new=$?
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done < "$TEST_TMP/files"
	(cd "$dir" && "$CANON" "$@") > "$TEST_TMP/canon.old" 2>&1
	if [ $rc_new -eq 0 ] && cmp -s "$TEST_TMP/canon.old" \
	    "$TEST_TMP/canon.new"; then
		pass "$v: exports read back as the originals"
	else
		fail "$v: exports read back as the originals"
		diff "$TEST_TMP/canon.old" "$TEST_TMP/canon.new" | head -10 |
		    sed 's/^/# /'
	fi

	if [ $STAT_OK = no ]; then
		echo "ok $((LIB_TESTS + 1)) - $v: abbench stat tables # SKIP" \
		    "abbench stat is not implemented yet"
		LIB_TESTS=$((LIB_TESTS + 1))
		continue
	fi
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done < "$TEST_TMP/flags"
	while IFS= read -r a; do set -- "$@" "$a"; done < "$TEST_TMP/files"
	(cd "$dir" && "$ABBENCH" stat "$@") > "$TEST_TMP/stat.old" \
	    2> "$TEST_TMP/stat.old.err"
	rc_old=$?
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done < "$TEST_TMP/flags"
	while IFS= read -r a; do set -- "$@" "$a"; done < "$TEST_TMP/exported"
	(cd "$out" && "$ABBENCH" stat "$@") > "$TEST_TMP/stat.new" \
	    2> "$TEST_TMP/stat.new.err"
	rc_new=$?
	# benchstat read these inputs without error: so must abbench stat.
	if [ $rc_old -eq 0 ] && [ $rc_new -eq 0 ] &&
	    [ -s "$TEST_TMP/stat.old" ] &&
	    cmp -s "$TEST_TMP/stat.old" "$TEST_TMP/stat.new" &&
	    cmp -s "$TEST_TMP/stat.old.err" "$TEST_TMP/stat.new.err"; then
		pass "$v: abbench stat prints the same from the export"
	else
		fail "$v: abbench stat prints the same from the export"
		diag "exit $rc_old vs $rc_new"
		diff "$TEST_TMP/stat.old" "$TEST_TMP/stat.new" | head -10 |
		    sed 's/^/# /'
		head -3 "$TEST_TMP/stat.old.err" "$TEST_TMP/stat.new.err" |
		    sed 's/^/# /'
	fi
done
[ $n -ge 30 ]
ok $? "at least 30 vectors tried ($n)"
done_testing
