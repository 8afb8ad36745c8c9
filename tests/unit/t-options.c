/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the options-table entries: the startup check
 * (opt_table_check) refuses an entry whose kind does not fit its member
 * (size, C type, range, default, place), in a child that must die with
 * its BUG message; the kinds write exactly their member's width.
 */
#include "config.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/options.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

struct t_opts {
	int		 i;
	int64_t		 i64;
	uint64_t	 u64;
	double		 d;
	char		*s;
	struct strvec	 words;
	int		 given;
	char		*text;
	char		 small;
	enum { T_A, T_B } e;
};
#define T(member)	OPT_AT(struct t_opts, member)

static const struct opt_spec good[] = {
	OPT_INT("i", T(i), "3", 1, 10, "an int"),
	OPT_INT64("i64", T(i64), "-5", -10, 1e15, "an int64_t",
	    .given = T(given), .text = T(text)),
	OPT_UINT64("u64", T(u64), NULL, 0, "a seed"),
	OPT_FLOAT("d", T(d), "0.5", 0, 1, "a double"),
	OPT_STR("s", T(s), NULL, "a word"),
	OPT_WORDS("words", T(words), "a b", "words"),
	OPT_CHOICE("e", T(e), "b", "a b", "an enum"),
	OPT_DURATION("dur", T(i64), "1s", 0, 10, "a duration"),
	OPT_SIZE("size", T(u64), "4k", 0, 0, "a size"),
	OPT_PREFIXED("env.", "a prefix"),
	OPT_END
};
/* Declared int, but the member is an int64_t: a write of the wrong width. */
static const struct opt_spec int_into_i64[] = {
	OPT_INT("n", T(i64), NULL, 0, 100, "n"),
	OPT_END
};
/* The same size, the wrong C type: nanoseconds into a double. */
static const struct opt_spec duration_into_double[] = {
	OPT_DURATION("n", T(d), NULL, 0, 10, "n"),
	OPT_END
};
static const struct opt_spec size_into_int[] = {
	OPT_SIZE("n", T(i), NULL, 0, 0, "n"),
	OPT_END
};
static const struct opt_spec words_into_str[] = {
	OPT_WORDS("n", T(s), NULL, "n"),
	OPT_END
};
/* A range an int cannot hold: OPT_INT64 is the kind for it. */
static const struct opt_spec int_too_wide[] = {
	OPT_INT("n", T(i), NULL, 0, 1e10, "n"),
	OPT_END
};
static const struct opt_spec given_not_int[] = {
	OPT_INT("n", T(i), NULL, 0, 10, "n", .given = T(small)),
	OPT_END
};
static const struct opt_spec text_not_ptr[] = {
	OPT_INT("n", T(i), NULL, 0, 10, "n", .text = T(given)),
	OPT_END
};
static const struct opt_spec bad_default[] = {
	OPT_INT("n", T(i), "11", 0, 10, "n"),
	OPT_END
};
static const struct opt_spec no_choices[] = {
	OPT_CHOICE("n", T(i), NULL, NULL, "n"),
	OPT_END
};

/*
 * Run opt_table_check(opts) for a struct of size bytes in a child: "" if
 * it passed, else its stderr (the BUG line), "(no abort)" if it died
 * otherwise. Malloc'd.
 */
static char *
check_in_child(const struct opt_spec *opts, size_t size)
{
	char	 buf[1024];
	size_t	 n = 0;
	ssize_t	 r;
	int	 fd[2], status;
	pid_t	 pid;

	if (pipe(fd) != 0)
		return xstrdup("(pipe failed)");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		opt_table_check("t", opts, size);
		_exit(0);
	}
	close(fd[1]);
	while (n < sizeof buf - 1 &&
	    (r = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return xstrdup("(waitpid failed)");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return xstrdup("");
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		return xstrdup("(no abort)");
	return xstrdup(buf);
}

static void
expect_bug(const char *what, const struct opt_spec *opts, const char *msg)
{
	char	*got = check_in_child(opts, sizeof(struct t_opts));

	if (!tap_ok(strstr(got, "abbench: BUG: ") != NULL &&
	    strstr(got, msg) != NULL, "startup check refuses %s", what))
		TAP_DIAG("got '%s', want '%s'", got, msg);
	free(got);
}

static void
test_table_check(void)
{
	char	*got;

	got = check_in_child(good, sizeof(struct t_opts));
	tap_str_eq(got, "", "a table whose kinds fit their members passes");
	free(got);
	got = check_in_child(good, offsetof(struct t_opts, text));
	tap_ok(strstr(got, "lies outside its struct") != NULL,
	    "a member past the struct's size is refused");
	TAP_DIAG("%s", got);
	free(got);
	expect_bug("an int entry on an int64_t member", int_into_i64,
	    "options table t: key 'n': its value member has 8 bytes, but "
	    "its kind stores 4");
	expect_bug("a duration on a double", duration_into_double,
	    "key 'n': its value member is double, but its kind stores "
	    "int64_t");
	expect_bug("a size on an int", size_into_int,
	    "its value member has 4 bytes, but its kind stores 8");
	expect_bug("words on a char *", words_into_str,
	    "its value member has 8 bytes, but its kind stores 24");
	expect_bug("an int whose range is wider than an int", int_too_wide,
	    "range [0, 10000000000] is wider than an int");
	expect_bug("a given flag that is not an int", given_not_int,
	    "its given member has 1 bytes, but its kind stores 4");
	expect_bug("a text that is not a char *", text_not_ptr,
	    "its text member has 4 bytes, but its kind stores 8");
	expect_bug("a default out of its range", bad_default,
	    "key 'n': default '11': 11 is out of range");
	expect_bug("a choice without choices", no_choices,
	    "key 'n' has no choices");
}

/* Each kind writes its member and nothing beside it. */
static void
test_widths(void)
{
	struct t_opts	 t;
	unsigned char	 before[sizeof t];
	char		*cause = NULL;
	int		 ok;

	memset(&t, 0xa5, sizeof t);
	t.s = NULL;
	t.text = NULL;
	memset(&t.words, 0, sizeof t.words);
	memcpy(before, &t, sizeof t);
	ok = opt_set(opt_find(good, "i64"), &t, "-7", &cause) == 0 &&
	    t.i64 == -7 && t.given == 1 && strcmp(t.text, "-7") == 0;
	ok = ok && opt_set(opt_find(good, "u64"), &t,
	    "18446744073709551615", &cause) == 0 && t.u64 == UINT64_MAX;
	ok = ok && opt_set(opt_find(good, "i"), &t, "9", &cause) == 0 &&
	    t.i == 9;
	ok = ok && opt_set(opt_find(good, "e"), &t, "b", &cause) == 0 &&
	    t.e == T_B;
	ok = ok && memcmp((char *)&t + offsetof(struct t_opts, small),
	    before + offsetof(struct t_opts, small), sizeof t.small) == 0;
	tap_ok(ok, "int64_t, uint64_t, int and enum members written whole, "
	    "the given flag and the text beside them, nothing else");
	if (cause != NULL)
		TAP_DIAG("%s", cause);
	free(cause);
	cause = NULL;
	tap_int_eq(opt_set(opt_find(good, "i64"), &t, "1000000000000001",
	    &cause), -1, "an int64_t's range is checked");
	free(cause);
	cause = NULL;
	{
		/* INT64_MAX as a bound is 2^63 as a double: a cast of it
		 * overflowed to LLONG_MIN, and `nightly --ack 13` said "13 is
		 * out of range [1, -9223372036854775808]". */
		const struct opt_spec top[] = {
			OPT_INT64("top", T(i64), NULL, 1, INT64_MAX, "any night"),
			OPT_END,
		};

		tap_ok(opt_set(&top[0], &t, "13", &cause) == 0 &&
		    t.i64 == 13 && opt_set(&top[0], &t,
		    "9223372036854775807", &cause) == 0 &&
		    t.i64 == INT64_MAX, "a range up to INT64_MAX takes 13 "
		    "and INT64_MAX");
		free(cause);
		cause = NULL;
		tap_int_eq(opt_set(&top[0], &t, "0", &cause), -1,
		    "... and still refuses 0");
		free(cause);
		cause = NULL;
	}
	tap_ok(opt_bound(opt_find(good, "i")) &&
	    !opt_bound(opt_find(good, "env.X")),
	    "a prefix binds no member, a key does");
	opt_release(good, &t);
}

int
main(void)
{
	test_table_check();
	test_widths();
	return tap_done();
}
