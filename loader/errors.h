/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the loader fails: a function returns 0 or -errno and says why in
 * its caller's buffer (err, errlen), which lsmctl prints. The parser and
 * the compiler, whose callers need no errno, return -1 the same way.
 *
 * Static inline: the parser and the compiler are built on their own too
 * (unit tests, the fuzzer), with no other file of the loader.
 */
#ifndef LSMCTL_ERRORS_H
#define LSMCTL_ERRORS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*
 * lsmctl's exit statuses, the one list (lsmctl(8), EXIT STATUS); run
 * exits with its command's status instead.
 */
enum lsmctl_exit {
	EXIT_OK = 0,		/* success; probe: both backends can run */
	EXIT_FAIL = 1,		/* invalid policy or failed operation, nothing changed */
	EXIT_USAGE = 2,		/* bad usage */
	EXIT_GLOBAL_ONLY = 3,	/* probe: no lsm_cgroup programs, the global backend only */
	EXIT_NO_BPF_LSM = 4,	/* BPF LSM not active (probe: or no BTF, cgroup v2, bpffs) */
	EXIT_NOTHING_LEARNT = 5,	/* learn: CMD did not start, or no event: no draft */
};

__attribute__((format(printf, 4, 0)))
static inline int verrf(char *err, size_t errlen, int rc, const char *fmt, va_list ap)
{
	vsnprintf(err, errlen, fmt, ap);
	return rc;
}

/* Write the message into @err; returns @rc. */
__attribute__((format(printf, 4, 5)))
static inline int errf(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrf(err, errlen, rc, fmt, ap);
	va_end(ap);
	return rc;
}

#endif /* LSMCTL_ERRORS_H */
