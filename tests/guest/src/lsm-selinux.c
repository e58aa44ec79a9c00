// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux enforces: the kernel tree's dummy MLS policy (scripts/selinux/mdp,
 * compiled on the host) loads, SELinux is enforcing and labels processes
 * and new tmpfs files user_u:...:base_t:s0, and its MLS constraint (the
 * subject's level must dominate the object's) denies with EACCES both
 * relabelling a file to s1 and a dynamic transition to s1, while the
 * same operations to s0 succeed.
 */
#include <sys/mount.h>
#include <sys/xattr.h>

#include "lab_test.h"

#define SELINUXFS	"/sys/fs/selinux"
#define POLICY		"/lab/selinux/policy.33"
#define NEW_FILE	"/tmp/selinux-file"
#define XATTR		"security.selinux"

static int set_file_label(const char *label)
{
	return setxattr(NEW_FILE, XATTR, label, strlen(label), 0) ? errno : 0;
}

/* In a child: write @arg to /proc/self/attr/current. */
static int set_task_label(const void *arg)
{
	return write_str("/proc/self/attr/current", arg);
}

int main(void)
{
	char buf[256];
	ssize_t n;
	size_t len;
	void *policy;
	int fd, err, rc;

	if (access(SELINUXFS "/load", F_OK) &&
	    mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL))
		tap_bail("SELinux is active: mount selinuxfs on %s (%s)", SELINUXFS,
			 errname(errno));
	err = read_str("/proc/self/attr/current", buf, sizeof(buf));
	tap_note("before the policy load the task is %s", err ? errname(err) : buf);

	policy = slurp(POLICY, &len);
	if (!policy)
		tap_bail("read %s: %s", POLICY, strerror(errno));
	err = write_file(SELINUXFS "/load", policy, len);
	free(policy);
	if (err)
		tap_bail("load %s through %s/load (got %s)", POLICY, SELINUXFS, errname(err));
	tap_result(1, "load %s through %s/load", POLICY, SELINUXFS);

	/*
	 * Without CONFIG_SECURITY_SELINUX_DEVELOP (the lab's kernels) SELinux
	 * is always enforcing and the enforce file cannot be written.
	 */
	err = write_str(SELINUXFS "/enforce", "1");
	tap_note("echo 1 > %s/enforce: %s", SELINUXFS, errname(err));
	err = read_str(SELINUXFS "/enforce", buf, sizeof(buf));
	tap_result(!err && !strcmp(buf, "1"), "%s/enforce reads 1 (got %s)", SELINUXFS,
		   err ? errname(err) : buf);
	err = read_str(SELINUXFS "/mls", buf, sizeof(buf));
	tap_result(!err && !strcmp(buf, "1"), "the policy is MLS (got %s)",
		   err ? errname(err) : buf);
	err = read_str("/proc/self/attr/current", buf, sizeof(buf));
	tap_result(!err && !strcmp(buf, "user_u:base_r:base_t:s0"),
		   "the task's context is user_u:base_r:base_t:s0 (got %s)",
		   err ? errname(err) : buf);

	fd = open(NEW_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		tap_bail("create %s: %s", NEW_FILE, strerror(errno));
	close(fd);
	n = getxattr(NEW_FILE, XATTR, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (n > 0 && buf[n - 1] == '\0')
		n--;
	tap_result(n > 0 && !strcmp(buf, "user_u:object_r:base_t:s0"),
		   "a new tmpfs file is labelled user_u:object_r:base_t:s0 (got %s)",
		   n < 0 ? errname(errno) : buf);

	rc = set_file_label("user_u:object_r:base_t:s1");
	tap_result(rc == EACCES, "relabel the file to s1 fails with EACCES (got %s)",
		   errname(rc));
	rc = set_file_label("user_u:object_r:base_t:s0");
	tap_result(rc == 0, "relabel the file to s0 succeeds (got %s)", errname(rc));

	rc = in_child(set_task_label, "user_u:base_r:base_t:s1");
	tap_result(rc == EACCES, "dyntransition to s1 fails with EACCES (got %s)",
		   errname(rc));
	rc = in_child(set_task_label, "user_u:base_r:base_t:s0");
	tap_result(rc == 0, "dyntransition to s0 succeeds (got %s)", errname(rc));
	rc = in_child(set_task_label, "user_u:base_r:nosuch_t:s0");
	tap_result(rc == EINVAL, "a context with an undefined type is invalid: EINVAL (got %s)",
		   errname(rc));
	return tap_exit();
}
