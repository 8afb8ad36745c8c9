/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one JSON writer (lib/jsonw): odd names (", \, %, <, control bytes,
 * NUL, bytes that are not UTF-8, valid UTF-8) written as its header says,
 * byte for byte, by the leaf stat's document uses and inside a jansson
 * document as nightly, power, db ls and the progress lines write theirs;
 * each reads back with jansson as the valid text it stands for. Numbers:
 * the shortest text that reads back, null where JSON has none.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

struct odd {
	const char	*in;
	size_t		 len;
	const char	*json;		/* what is written */
	const char	*back;		/* what it reads back as */
	size_t		 backlen;
};

#define ODD(in, json, back) \
	{ in, sizeof(in) - 1, json, back, sizeof(back) - 1 }

static const struct odd odds[] = {
	ODD("plain", "\"plain\"", "plain"),
	ODD("a\"b", "\"a\\\"b\"", "a\"b"),
	ODD("a\\b", "\"a\\\\b\"", "a\\b"),
	ODD("100%s %d %%", "\"100%s %d %%\"", "100%s %d %%"),
	ODD("<script>&'/", "\"<script>&'/\"", "<script>&'/"),
	ODD("t\tn\nr\rb\bf\f", "\"t\\tn\\nr\\rb\\bf\\f\"",
	    "t\tn\nr\rb\bf\f"),
	ODD("esc\x1b" "del\x7f", "\"esc\\u001Bdel\x7f\"", "esc\x1b" "del\x7f"),
	ODD("nul\0after", "\"nul\\u0000after\"", "nul\0after"),
	ODD("bad\xffname", "\"bad\xef\xbf\xbdname\"", "bad\xef\xbf\xbdname"),
	ODD("cut\xc3", "\"cut\xef\xbf\xbd\"", "cut\xef\xbf\xbd"),
	ODD("over\xc0\xaflong", "\"over\xef\xbf\xbd\xef\xbf\xbdlong\"",
	    "over\xef\xbf\xbd\xef\xbf\xbdlong"),
	ODD("\xc2\xb5s/op \xe2\x9c\x93", "\"\xc2\xb5s/op \xe2\x9c\x93\"",
	    "\xc2\xb5s/op \xe2\x9c\x93"),
};

static void
test_leaves(void)
{
	struct strbuf	 sb = STRBUF_INIT;
	json_t		*j;
	size_t		 i;

	for (i = 0; i < ARRAY_SIZE(odds); i++) {
		const struct odd	*o = &odds[i];

		strbuf_reset(&sb);
		jw_add_str(&sb, o->in, o->len);
		if (!tap_ok(sb.len == strlen(o->json) &&
		    memcmp(sb.buf, o->json, sb.len) == 0,
		    "odd name %zu written as the header says", i))
			TAP_DIAG("got %s want %s", sb.buf, o->json);
		j = json_loadb(sb.buf, sb.len, JSON_DECODE_ANY |
		    JSON_ALLOW_NUL, NULL);
		tap_ok(j != NULL && json_is_string(j) &&
		    json_string_length(j) == o->backlen &&
		    memcmp(json_string_value(j), o->back, o->backlen) == 0,
		    "odd name %zu reads back", i);
		json_decref(j);
	}
	strbuf_release(&sb);
}

/* A document with every odd name as key and value: the writers'. */
static void
test_document(void)
{
	struct strbuf	 sb = STRBUF_INIT;
	json_t		*doc = json_object(), *arr = json_array(), *back, *v;
	size_t		 i;
	int		 good = 1;

	for (i = 0; i < ARRAY_SIZE(odds); i++) {
		if (odds[i].len != strlen(odds[i].in))
			continue;	/* C strings: no NUL */
		json_array_append_new(arr, jw_str(odds[i].in));
	}
	json_object_set_new(doc, "names", arr);
	json_object_set_new(doc, "none", jw_str(NULL));
	json_object_set_new(doc, "nan", jw_num(NAN));
	json_object_set_new(doc, "inf", jw_num(-INFINITY));
	json_object_set_new(doc, "x", jw_num(0.25));
	jw_dump(doc, JSON_INDENT(2), &sb);
	tap_ok(sb.len > 0 && sb.buf[sb.len - 1] == '\n',
	    "a document ends with a newline");
	tap_ok(strstr(sb.buf, "\"a\\\"b\"") != NULL &&
	    strstr(sb.buf, "\"esc\\u001Bdel\x7f\"") != NULL &&
	    strstr(sb.buf, "\"bad\xef\xbf\xbdname\"") != NULL,
	    "its strings are the leaves' bytes");
	back = json_loads(sb.buf, 0, NULL);
	if (!tap_ok(back != NULL, "the document parses"))
		TAP_DIAG("%s", sb.buf);
	arr = json_object_get(back, "names");
	for (i = 0; back != NULL && i < json_array_size(arr); i++) {
		v = json_array_get(arr, i);
		good &= json_is_string(v);
	}
	tap_ok(good && json_array_size(arr) == ARRAY_SIZE(odds) - 1,
	    "every name is there (jansson refused none)");
	tap_ok(json_is_null(json_object_get(back, "none")) &&
	    json_is_null(json_object_get(back, "nan")) &&
	    json_is_null(json_object_get(back, "inf")) &&
	    json_real_value(json_object_get(back, "x")) == 0.25,
	    "NULL, NaN and infinities are null; a number is one");
	json_decref(back);
	strbuf_release(&sb);
	/* jw_dump(NULL): a refused document is "null", not nothing. */
	sb = (struct strbuf)STRBUF_INIT;
	jw_dump(NULL, 0, &sb);
	tap_str_eq(sb.buf, "null\n", "no document: null");
	strbuf_release(&sb);
}

static void
test_numbers(void)
{
	static const struct { double v; const char *want; } nums[] = {
		{ 1, "1" }, { 0.1, "0.1" }, { 1e6, "1e+06" },
		{ 1.7180000000000001e-06, "1.7180000000000001e-06" },
		{ -0.0, "-0" }, { 1.0 / 3, "0.3333333333333333" },
	};
	struct strbuf	sb = STRBUF_INIT;
	size_t		i;

	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		strbuf_reset(&sb);
		jw_add_num(&sb, nums[i].v);
		tap_str_eq(sb.buf, nums[i].want, "number %s: the shortest "
		    "text that reads back", nums[i].want);
	}
	strbuf_reset(&sb);
	jw_add_num(&sb, NAN);
	tap_str_eq(sb.buf, "null", "NaN is null");
	strbuf_release(&sb);
}

int
main(void)
{
	test_leaves();
	test_document();
	test_numbers();
	return tap_done();
}
