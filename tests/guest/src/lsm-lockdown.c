// SPDX-License-Identifier: GPL-2.0
/*
 * Lockdown enforces: once the kernel is locked down to confidentiality,
 * open() of a tracefs file fails with EPERM (LOCKDOWN_TRACEFS), where
 * it succeeded before. A lockdown cannot be lifted: run this test last
 * in its boot.
 */
#include <sys/mount.h>

#include "lab_test.h"

#define LOCKDOWN	"/sys/kernel/security/lockdown"
#define TRACEFS		"/sys/kernel/tracing"
#define TRACE		TRACEFS "/trace"

int main(void)
{
	char buf[128];
	int err, rc;

	err = read_str(LOCKDOWN, buf, sizeof(buf));
	if (err)
		tap_bail("Lockdown is active: read %s (%s)", LOCKDOWN, errname(err));
	tap_result(!strcmp(buf, "[none] integrity confidentiality"),
		   "the kernel is not locked down (got %s)", buf);
	if (access(TRACE, F_OK) && mount("tracefs", TRACEFS, "tracefs", 0, NULL))
		tap_bail("mount tracefs on %s: %s", TRACEFS, strerror(errno));

	rc = try_open(TRACE);
	tap_result(rc == 0, "before the lockdown: open(%s) succeeds (got %s)", TRACE,
		   errname(rc));
	err = write_str(LOCKDOWN, "confidentiality");
	tap_result(!err, "lock the kernel down to confidentiality (got %s)", errname(err));
	rc = try_open(TRACE);
	tap_result(rc == EPERM, "locked down: open(%s) fails with EPERM (got %s)", TRACE,
		   errname(rc));
	return tap_exit();
}
