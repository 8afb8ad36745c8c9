/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for stats/texttab: the two_files_basic benchstat table built
 * by hand from the logical grid of spec §10.2, the negative-spacing quirk,
 * span widening, rune-based widths, and cells laid out by position
 * whatever order they were added in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/texttab.h"
#include "tests/unit/tap.h"

#define VBAR	" \xe2\x94\x82 "	/* " │ " */
#define VBAR_E	" \xe2\x94\x82"		/* " │" */
#define PM	" \xc2\xb1 "		/* " ± " */
#define MU	"\xc2\xb5"		/* "µ" */

/* S(e) of spec §10.2: grid column of column e's center. */
static int
grid_s(int e)
{
	return e == 0 ? 1 : 4 + 6 * (e - 1);
}

#define BAR	"\xe2\x94\x82"		/* "│" */

static const char *const two_files_basic =
    "                      " BAR "   old.txt   " BAR
    "               new.txt               " BAR "\n"
    "                      " BAR "   sec/op    " BAR
    "   sec/op     vs base                " BAR "\n"
    "Encode/format=json-48   1.734" MU PM "3%   1.436" MU PM
    "2%  -17.16% (p=0.000 n=10)\n"
    "Encode/format=gob-48    3.090" MU PM "4%   3.065" MU PM
    "2%        ~ (p=0.631 n=10)\n"
    "Decode/format=json-48   5.391" MU PM "3%   5.416" MU PM
    "2%        ~ (p=0.869 n=10)\n"
    "Decode/format=gob-48    2.908" MU PM "3%   3.048" MU PM
    "2%   +4.82% (p=0.001 n=10)\n"
    "Marshal-48              89.77n" PM "3%   87.76n" PM
    "2%        ~ (p=0.089 n=10)\n"
    "geomean                 1.498" MU "        1.448" MU
    "        -3.29%\n";

/* The same table is the body of the vector's expected.txt. */
static void
check_vector_file(const char *table)
{
	const char	*dirs[2];
	char		 path[4096], buf[8192];
	FILE		*f = NULL;
	size_t		 n;
	int		 i;
	const char	*body;

	dirs[0] = getenv("ABBENCH_SRCDIR");
	dirs[1] = ".";
	for (i = 0; i < 2 && f == NULL; i++) {
		if (dirs[i] == NULL || *dirs[i] == '\0')
			continue;
		snprintf(path, sizeof(path), "%s/tests/data/benchstat-vectors/"
		    "vectors/two_files_basic/expected.txt", dirs[i]);
		f = fopen(path, "r");
	}
	if (!tap_ok(f != NULL, "open two_files_basic/expected.txt"))
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	/* Skip the three "key: value" config lines. */
	body = buf;
	for (i = 0; i < 3 && body != NULL; i++) {
		body = strchr(body, '\n');
		if (body != NULL)
			body++;
	}
	tap_str_eq(table, body, "table equals the vector's expected.txt");
}

static void
test_two_files_basic(void)
{
	static const char *const rows[5][7] = {
		{ "Encode/format=json-48", "1.734" MU, "3%", "1.436" MU, "2%",
		    "-17.16%", "(p=0.000 n=10)" },
		{ "Encode/format=gob-48", "3.090" MU, "4%", "3.065" MU, "2%",
		    "~", "(p=0.631 n=10)" },
		{ "Decode/format=json-48", "5.391" MU, "3%", "5.416" MU, "2%",
		    "~", "(p=0.869 n=10)" },
		{ "Decode/format=gob-48", "2.908" MU, "3%", "3.048" MU, "2%",
		    "+4.82%", "(p=0.001 n=10)" },
		{ "Marshal-48", "89.77n", "3%", "87.76n", "2%", "~",
		    "(p=0.089 n=10)" },
	};
	struct texttab	*t = texttab_new();
	const int	 ncol = 2, e_edge = grid_s(ncol + 1);
	char		*out;
	int		 e, r, row = 0;

	/* Shrink columns: S(0)+1, S(0)+2 and S(e)+1..S(e)+5. */
	texttab_set_shrink(t, grid_s(0) + 1);
	texttab_set_shrink(t, grid_s(0) + 2);
	for (e = 1; e < ncol; e++)
		for (r = 1; r <= 5; r++)
			texttab_set_shrink(t, grid_s(e) + r);

	/* Header: one level (.file), one node per column. */
	texttab_cell(t, row, grid_s(0), grid_s(1) - grid_s(0), "old.txt",
	    VBAR, TT_CENTER);
	texttab_cell(t, row, grid_s(1), grid_s(2) - grid_s(1), "new.txt",
	    VBAR, TT_CENTER);
	texttab_cell(t, row, e_edge, 1, "", VBAR_E, TT_LEFT);
	row++;

	/* Unit row. */
	for (e = 0; e < ncol; e++) {
		texttab_cell(t, row, grid_s(e), 3, "sec/op", VBAR, TT_CENTER);
		if (e > 0)
			texttab_cell(t, row, grid_s(e) + 3, 3, "vs base", "  ",
			    TT_LEFT);
	}
	texttab_cell(t, row, e_edge, 1, "", VBAR_E, TT_LEFT);
	row++;

	for (r = 0; r < 5; r++, row++) {
		texttab_cell(t, row, 0, 1, rows[r][0], NULL, TT_LEFT);
		for (e = 0; e < ncol; e++) {
			texttab_cell(t, row, grid_s(e), 1, rows[r][1 + 2 * e],
			    NULL, TT_RIGHT);
			texttab_cell(t, row, grid_s(e) + 1, 1,
			    rows[r][2 + 2 * e], PM, TT_RIGHT);
			texttab_cell(t, row, grid_s(e) + 2, 1, "", NULL,
			    TT_LEFT);
			if (e > 0) {
				texttab_cell(t, row, grid_s(e) + 3, 1,
				    rows[r][5], NULL, TT_RIGHT);
				texttab_cell(t, row, grid_s(e) + 4, 1,
				    rows[r][6], NULL, TT_LEFT);
				texttab_cell(t, row, grid_s(e) + 5, 1, "",
				    NULL, TT_LEFT);
			}
		}
	}

	/* Geomean row. */
	texttab_cell(t, row, 0, 1, "geomean", NULL, TT_LEFT);
	texttab_cell(t, row, grid_s(0), 1, "1.498" MU, NULL, TT_RIGHT);
	texttab_cell(t, row, grid_s(1) - 1, 1, "", NULL, TT_LEFT);
	texttab_cell(t, row, grid_s(1), 1, "1.448" MU, NULL, TT_RIGHT);
	texttab_cell(t, row, grid_s(1) + 3, 1, "-3.29%", NULL, TT_RIGHT);
	texttab_cell(t, row, grid_s(2) - 1, 1, "", NULL, TT_LEFT);

	out = texttab_format(t);
	tap_str_eq(out, two_files_basic, "two_files_basic table");
	check_vector_file(out);
	free(out);
	texttab_free(t);
}

/* The worked example of the negative-spacing quirk (vs base overflows). */
static void
test_negative_spacing(void)
{
	struct texttab	*t = texttab_new();
	char		*out;
	int		 c;
	const char	*want =
	    " " VBAR "   u    " VBAR "   u      vs base         " VBAR_E "\n"
	    "a   1.0" PM "1%   2.0" PM "2%\n";

	for (c = 2; c <= 9; c++)
		if (c != 4)
			texttab_set_shrink(t, c);
	texttab_cell(t, 0, 1, 3, "u", VBAR, TT_CENTER);
	texttab_cell(t, 0, 4, 3, "u", VBAR, TT_CENTER);
	texttab_cell(t, 0, 7, 3, "vs base", "  ", TT_LEFT);
	texttab_cell(t, 0, 16, 1, "", VBAR_E, TT_LEFT);
	texttab_cell(t, 1, 0, 1, "a", NULL, TT_LEFT);
	texttab_cell(t, 1, 1, 1, "1.0", NULL, TT_RIGHT);
	texttab_cell(t, 1, 2, 1, "1%", PM, TT_RIGHT);
	texttab_cell(t, 1, 4, 1, "2.0", NULL, TT_RIGHT);
	texttab_cell(t, 1, 5, 1, "2%", PM, TT_RIGHT);
	out = texttab_format(t);
	tap_str_eq(out, want, "negative spacing prints |spacing| blanks");
	free(out);
	texttab_free(t);
}

static void
test_spans(void)
{
	struct texttab	*t;
	char		*out;

	/* A wide span grows its non-shrink columns evenly, rounding up. */
	t = texttab_new();
	texttab_cell(t, 0, 0, 1, "a", NULL, TT_LEFT);
	texttab_cell(t, 0, 1, 1, "b", NULL, TT_LEFT);
	texttab_cell(t, 1, 0, 2, "abcdefg", NULL, TT_RIGHT);
	texttab_cell(t, 2, 0, 1, "x", NULL, TT_RIGHT);
	texttab_cell(t, 2, 1, 1, "y", NULL, TT_RIGHT);
	out = texttab_format(t);
	/*
	 * ws = {1, 2}; the span needs 7: the wider col1 first gets
	 * ceil(7/2) = 4, then col0 the remaining 3.
	 */
	tap_str_eq(out, "a   b\nabcdefg\n  x   y\n", "span widening");
	free(out);
	texttab_free(t);

	/* Shrink columns never grow; widths count runes not bytes. */
	t = texttab_new();
	texttab_set_shrink(t, 1);
	texttab_cell(t, 0, 0, 1, "\xc2\xb5\xc2\xb5", NULL, TT_RIGHT);
	texttab_cell(t, 0, 1, 1, "", NULL, TT_LEFT);
	texttab_cell(t, 1, 0, 2, "wide!", NULL, TT_CENTER);
	texttab_cell(t, 2, 0, 1, "z", NULL, TT_RIGHT);
	out = texttab_format(t);
	tap_str_eq(out, "   \xc2\xb5\xc2\xb5\nwide!\n    z\n",
	    "shrink column and rune widths");
	free(out);
	texttab_free(t);

	/* Empty cells vanish; blank rows still end in a newline. */
	t = texttab_new();
	texttab_cell(t, 0, 0, 1, "a", NULL, TT_LEFT);
	texttab_cell(t, 0, 1, 1, "", NULL, TT_LEFT);
	texttab_cell(t, 2, 0, 1, "b", NULL, TT_LEFT);
	out = texttab_format(t);
	tap_str_eq(out, "a\n\nb\n", "no trailing blanks, empty row kept");
	free(out);
	texttab_free(t);

	t = texttab_new();
	out = texttab_format(t);
	tap_str_eq(out, "", "empty table prints nothing");
	free(out);
	texttab_free(t);
}

/* The cells of test_order, in the order of idx[]. */
static char *
format_cells(const int *idx, int n, int wide)
{
	static const struct {
		int		 row, col, span;
		const char	*value;
		enum tt_align	 align;
	} cells[] = {
		{ 0, 0, 1, "a", TT_LEFT }, { 0, 1, 1, "bb", TT_RIGHT },
		{ 0, 2, 1, "c", TT_CENTER }, { 1, 0, 2, "ddddddd", TT_RIGHT },
		{ 1, 2, 1, "e", TT_LEFT }, { 2, 1, 1, "ff", TT_RIGHT },
		{ 3, 0, 300, "g", TT_LEFT },
	};
	struct texttab	*t = texttab_new();
	char		*out;
	int		 i;

	for (i = 0; i < n; i++) {
		if (!wide && cells[idx[i]].span == 300)
			continue;
		texttab_cell(t, cells[idx[i]].row, cells[idx[i]].col,
		    cells[idx[i]].span, cells[idx[i]].value, NULL,
		    cells[idx[i]].align);
	}
	out = texttab_format(t);
	texttab_free(t);
	return out;
}

/*
 * Cells laid out by position whatever the order they were added in, and
 * spans far apart (a counting sort takes the usual few spans).
 */
static void
test_order(void)
{
	static const int	 fwd[] = { 0, 1, 2, 3, 4, 5, 6 };
	static const int	 rev[] = { 6, 5, 4, 3, 2, 1, 0 };
	static const int	 mix[] = { 3, 0, 5, 6, 2, 4, 1 };
	const char		*want = "a    bb c\nddddddd e\n     ff\n";
	char			*a, *b, *c;
	int			 wide;

	for (wide = 0; wide <= 1; wide++) {
		a = format_cells(fwd, 7, wide);
		b = format_cells(rev, 7, wide);
		c = format_cells(mix, 7, wide);
		if (!wide)
			tap_str_eq(a, want, "cells in position order");
		else
			tap_str_eq(a, "a    bb c\nddddddd e\n     ff\ng\n",
			    "a span of 300 columns");
		tap_str_eq(b, a, "cells added last to first (wide %d)", wide);
		tap_str_eq(c, a, "cells added out of order (wide %d)", wide);
		free(a);
		free(b);
		free(c);
	}
}

int
main(void)
{
	test_two_files_basic();
	test_negative_spacing();
	test_spans();
	test_order();
	return tap_done();
}
