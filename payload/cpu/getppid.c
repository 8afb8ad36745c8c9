/* SPDX-License-Identifier: Apache-2.0 */
/*
 * getppid: a dense getppid() loop, one unit per system call (through
 * syscall(2), so that no libc caches the answer).
 *
 *   getppid [-d seconds] [-i report-ms]
 */
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "prog.h"

int
main(int argc, char **argv)
{
	struct prog	p;
	double		none[1] = { 0 };
	unsigned	i;

	prog_init(&p, "getppid", argc, argv, "", none, "");
	for (;;) {
		for (i = 0; i < 64; i++)
			(void)syscall(SYS_getppid);
		p.units += 64;
		if (prog_poll(&p, prog_real_ns()))
			return 0;
	}
}
