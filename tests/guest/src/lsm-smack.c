// SPDX-License-Identifier: GPL-2.0
/*
 * Smack enforces: a task labelled Other cannot read a file labelled
 * Secret (EACCES) until the rule "Other Secret r" is loaded, while a
 * task labelled Secret reads it all along.
 *
 * The probes run in children that set their own label (which takes
 * CAP_MAC_ADMIN) and then drop CAP_MAC_OVERRIDE, which bypasses Smack's
 * checks; the test process keeps its label and capabilities.
 */
#include <sys/mount.h>
#include <sys/xattr.h>

#include "lab_test.h"

#define SMACKFS		"/sys/fs/smackfs"
#define SECRET_FILE	"/tmp/smack-secret"

/* As a task labelled @arg without CAP_MAC_OVERRIDE, open SECRET_FILE. */
static int read_as(const void *arg)
{
	int err = write_str("/proc/self/attr/current", arg);

	if (err) {
		tap_result(0, "relabel the task to %s (got %s)",
			   (const char *)arg, errname(err));
		return 255;
	}
	if (drop_cap(CAP_MAC_OVERRIDE) || drop_cap(CAP_MAC_ADMIN))
		return 255;
	return try_open(SECRET_FILE);
}

int main(void)
{
	char label[64];
	int fd, err, rc;

	if (access(SMACKFS "/load2", F_OK) &&
	    mount("smackfs", SMACKFS, "smackfs", 0, NULL))
		tap_bail("Smack is active: mount smackfs on %s (%s)", SMACKFS,
			 errname(errno));
	err = read_str("/proc/self/attr/current", label, sizeof(label));
	tap_result(!err && !strcmp(label, "_"),
		   "the test task has the floor label _ (got %s)", err ? errname(err) : label);

	fd = open(SECRET_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "secret\n", 7) != 7)
		tap_bail("create %s: %s", SECRET_FILE, strerror(errno));
	close(fd);
	err = setxattr(SECRET_FILE, "security.SMACK64", "Secret", 6, 0) ? errno : 0;
	tap_result(!err, "setxattr security.SMACK64=Secret (got %s)", errname(err));

	rc = in_child(read_as, "Other");
	tap_result(rc == EACCES, "no rule: task Other opening a Secret file fails with EACCES (got %s)",
		   errname(rc));
	rc = in_child(read_as, "Secret");
	tap_result(rc == 0, "task Secret opening the Secret file succeeds (got %s)",
		   errname(rc));

	err = write_str(SMACKFS "/load2", "Other Secret r");
	tap_result(!err, "load the rule \"Other Secret r\" (got %s)", errname(err));
	rc = in_child(read_as, "Other");
	tap_result(rc == 0, "with the rule: task Other opening the Secret file succeeds (got %s)",
		   errname(rc));
	return tap_exit();
}
