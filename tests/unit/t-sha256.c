/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib/sha256: FIPS 180-4 test vectors, across the 64-byte block and
 * 64 KiB read boundaries, and a missing file.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/sha256.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

static void
check(const char *data, size_t n, size_t reps, const char *want,
    const char *what)
{
	char	 path[] = "/tmp/t-sha256.XXXXXX", hex[65], *cause = NULL;
	FILE	*fp;
	int	 fd = mkstemp(path);
	size_t	 i;

	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	for (i = 0; fp != NULL && i < reps; i++)
		fwrite(data, 1, n, fp);
	if (fp != NULL)
		fclose(fp);
	if (sha256_file(path, hex, &cause) != 0) {
		tap_ok(0, "%s: %s", what, cause);
		free(cause);
	} else
		tap_str_eq(hex, want, "%s", what);
	unlink(path);
}

int
main(void)
{
	char	hex[65], *cause = NULL;

	check("", 0, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca4"
	    "95991b7852b855", "empty file");
	check("abc", 3, 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb"
	    "410ff61f20015ad", "abc");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	    1, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db"
	    "06c1", "56 bytes: the length spills into a second block");
	check("a", 1, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a4972"
	    "00e046d39ccc7112cd0", "a million a's (several 64 KiB reads)");
	tap_ok(sha256_file("/nonexistent/x", hex, &cause) == -1 &&
	    cause != NULL && strstr(cause, "/nonexistent/x") != NULL,
	    "a missing file is an error naming it");
	free(cause);
	return tap_done();
}
