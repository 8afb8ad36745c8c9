/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host/pressure: the kernel's files as they are (4.20: no cpu "full";
 * 5.13+: cpu "full" of 0), lines without a total, the shares between
 * two reads, and what is left out; and this host's own files.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/pressure.h"
#include "lib/util.h"
#include "tests/unit/tap.h"

int
main(void)
{
	struct psi_totals	a, b;
	long long		some, full;
	char			*t;

	psi_parse("some avg10=0.00 avg60=0.12 avg300=0.03 total=123456\n"
	    "full avg10=0.00 avg60=0.05 avg300=0.01 total=7890\n",
	    &some, &full);
	tap_int_eq(some, 123456, "some total");
	tap_int_eq(full, 7890, "full total");
	psi_parse("some avg10=1.00 avg60=0.12 avg300=0.03 total=42\n",
	    &some, &full);
	tap_int_eq(some, 42, "4.20's cpu file: some");
	tap_int_eq(full, -1, "4.20's cpu file: no full");
	psi_parse("some avg10=1.00\nfull total=x\n", &some, &full);
	tap_int_eq(some, -1, "a line without total=: absent");
	tap_int_eq(full, -1, "a total that is no number: absent");
	psi_parse("", &some, &full);
	tap_int_eq(some, -1, "an empty file: absent");
	psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=5",
	    &some, &full);
	tap_int_eq(some, 5, "no newline at the end");

	tap_ok(psi_parse_avg60("some avg10=1.00 avg60=41.25 avg300=3.00 "
	    "total=9\nfull avg10=0.00 avg60=9.00 avg300=0.00 total=1\n") ==
	    41.25, "avg60 of the some line");
	tap_ok(psi_parse_avg60("full avg10=0.00 avg60=9.00 avg300=0.00 "
	    "total=1\n") < 0, "no some line: no avg60");
	tap_ok(psi_parse_avg60("some avg10=1.00 total=9\nfull avg10=0.00 "
	    "avg60=9.00 total=1\n") < 0, "avg60 only on the full line: none");
	tap_ok(psi_parse_avg60("some avg10=1 avg60=x total=9\n") < 0,
	    "avg60 that is no number: none");
	tap_ok(psi_parse_avg60("some avg60=100.5 total=9\n") < 0,
	    "avg60 above 100%%: none");

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.at_ns = 1000000000;
	b.at_ns = 11000000000;		/* 10 s: no decimal */
	a.some[PSI_CPU] = 0, b.some[PSI_CPU] = 310000;
	a.full[PSI_CPU] = 0, b.full[PSI_CPU] = 0;
	a.some[PSI_IO] = 1000, b.some[PSI_IO] = 4121000;
	a.full[PSI_IO] = 0, b.full[PSI_IO] = 3000000;
	a.some[PSI_MEMORY] = -1, b.some[PSI_MEMORY] = 5;
	a.full[PSI_MEMORY] = -1, b.full[PSI_MEMORY] = 5;
	t = psi_text(&a, &b);
	tap_str_eq(t, "cpu 3.1% some; io 41.2% some, 30.0% full; over 10 s",
	    "the shares; cpu's full and an unread resource left out");
	free(t);
	b.some[PSI_IO] = 0;
	t = psi_text(&a, &b);
	tap_str_eq(t, "cpu 3.1% some; over 10 s",
	    "a counter that went back: left out");
	free(t);
	b.at_ns = a.at_ns;
	tap_ok(psi_text(&a, &b) == NULL, "no time between the reads: none");

	/* This host: either no PSI, or shares within 0-100%. */
	if (psi_read(&a) == 0) {
		usleep(200000);
		tap_int_eq(psi_read(&b), 0, "this host: read twice");
		t = psi_text(&a, &b);
		tap_ok(t != NULL && strncmp(t, "cpu ", 4) == 0 &&
		    strtod(t + 4, NULL) >= 0 && strtod(t + 4, NULL) <= 100.5,
		    "this host: %s", t ? t : "(none)");
		free(t);
	} else
		tap_ok(access("/proc/pressure/cpu", R_OK) != 0,
		    "this host: no PSI, and psi_read says so");
	return tap_done();
}
