// SPDX-License-Identifier: GPL-2.0
/* Escapes: leaving the cgroup, then reading the secret. */
#define _GNU_SOURCE
#include <linux/sched.h>

#include "escapes.h"

/* Move to the root cgroup (its cgroup.procs), then read the secret there. */
static int p_leave_cgroup(const void *arg)
{
	(void)arg;
	if (cgroup_enter(""))
		return errno;
	return read_path(f.secret, O_RDONLY);
}

/* clone3(CLONE_INTO_CGROUP) a child into the root cgroup: it reads the secret. */
static int p_clone_into_root(const void *arg)
{
	struct clone_args args = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD };
	int fd = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long pid;

	(void)arg;
	if (fd < 0)
		return BROKEN;
	args.cgroup = fd;
	fflush(NULL);
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(read_path(f.secret, O_RDONLY));
	return wait_child(pid);
}

/* --- the attempts ------------------------------------------------------ */

void test_leave(void)
{
	tap_note("--- leaving the cgroup, then reading the secret");
	attempt(cg.main, HOLD, true, "move itself to the root cgroup (cgroup.procs), read there",
		"self-protection: file_open of a cgroup.procs for writing", p_leave_cgroup, NULL);
	attempt(cg.main, HOLD, true, "clone3(CLONE_INTO_CGROUP) a child into the root cgroup, "
		"read there", "self-protection: the guard's cgroup_attach (the series) or task_alloc "
		"(6.1) refuses CLONE_INTO_CGROUP out of the subtree",
		p_clone_into_root, NULL);
}
