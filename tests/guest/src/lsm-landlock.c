// SPDX-License-Identifier: GPL-2.0
/*
 * Landlock enforces: under a ruleset that allows reading files only
 * beneath one directory, open() of a file elsewhere fails with EACCES,
 * while the file in that directory, and any file outside the sandbox,
 * still opens.
 */
#define _GNU_SOURCE /* O_PATH */
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "lab_test.h"

#define ALLOWED_DIR	"/tmp/landlock-allowed"
#define ALLOWED_FILE	ALLOWED_DIR "/file"
#define OTHER_FILE	"/tmp/landlock-other"

/* Restrict the calling process to reading files beneath @dir. */
static int restrict_reads_to(const char *dir)
{
	/* Only handled_access_fs: what Landlock ABI v1 and v2 know. */
	struct {
		__u64 handled_access_fs;
	} ruleset_attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE,
	};
	struct landlock_path_beneath_attr rule = {
		.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE,
	};
	int ruleset, err = 0;

	ruleset = syscall(SYS_landlock_create_ruleset, &ruleset_attr,
			  sizeof(ruleset_attr), 0);
	if (ruleset < 0)
		return errno;
	rule.parent_fd = open(dir, O_PATH | O_CLOEXEC);
	if (rule.parent_fd < 0 ||
	    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &rule, 0) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_landlock_restrict_self, ruleset, 0))
		err = errno;
	if (rule.parent_fd >= 0)
		close(rule.parent_fd);
	close(ruleset);
	return err;
}

/* In a child: sandbox itself, then open @arg; the errno of the open. */
static int sandboxed_open(const void *arg)
{
	int err = restrict_reads_to(ALLOWED_DIR);

	if (err) {
		tap_result(0, "landlock_restrict_self (got %s)", errname(err));
		return 255;
	}
	return try_open(arg);
}

int main(void)
{
	int abi, rc;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
		      LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 1)
		tap_bail("Landlock is active (ABI version query: %s)", errname(errno));
	tap_result(1, "Landlock is active, ABI v%d", abi);

	if (mkdir(ALLOWED_DIR, 0755) && errno != EEXIST)
		tap_bail("mkdir %s: %s", ALLOWED_DIR, strerror(errno));
	if (make_file(ALLOWED_FILE) || make_file(OTHER_FILE))
		tap_bail("create the test files: %s", strerror(errno));

	rc = in_child(sandboxed_open, OTHER_FILE);
	tap_result(rc == EACCES, "sandboxed open(%s) fails with EACCES (got %s)",
		   OTHER_FILE, errname(rc));
	rc = in_child(sandboxed_open, ALLOWED_FILE);
	tap_result(rc == 0, "sandboxed open(%s) succeeds (got %s)",
		   ALLOWED_FILE, errname(rc));
	rc = try_open(OTHER_FILE);
	tap_result(rc == 0, "outside the sandbox, open(%s) succeeds (got %s)",
		   OTHER_FILE, errname(rc));
	return tap_exit();
}
