/* SPDX-License-Identifier: GPL-2.0 */
/* TAP output for the lab's guest test programs. */
#ifndef LAB_TAP_H
#define LAB_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_failed;

__attribute__((format(printf, 2, 3)))
static inline void tap_result(int pass, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", pass ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!pass)
		tap_failed++;
}

/* A comment line: context for a reader of the console log. */
#define tap_note(...) \
	do { printf("# " __VA_ARGS__); putchar('\n'); fflush(stdout); } while (0)

/* Abort the program with one failing line. */
#define tap_bail(...) \
	do { tap_result(0, __VA_ARGS__); return 1; } while (0)

/*
 * Does the kernel carry the lab's series (slot table, more lsm_cgroup hook
 * slots)? /init says, from the variant: not stock, nosec or debian.
 */
static inline int lab_series(void)
{
	return strcmp(getenv("LAB_SERIES") ?: "1", "0") != 0;
}

static inline int tap_exit(void)
{
	return tap_failed ? 1 : 0;
}

#endif /* LAB_TAP_H */
