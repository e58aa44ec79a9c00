// SPDX-License-Identifier: GPL-2.0
/*
 * Yama enforces: with kernel.yama.ptrace_scope=1, PTRACE_ATTACH to a
 * process that is not a descendant fails with EPERM, while a parent may
 * still attach to its child, and with ptrace_scope=0 the same sibling
 * attach succeeds.
 *
 * Every tracer and tracee drops CAP_SYS_PTRACE, which would override
 * Yama; with identical credentials the commoncap and DAC checks pass, so
 * Yama alone decides.
 */
#include <sys/ptrace.h>

#include "lab_test.h"

#define SCOPE "/proc/sys/kernel/yama/ptrace_scope"

/* Start a tracee that has dropped CAP_SYS_PTRACE and waits to be killed. */
static pid_t start_tracee(void)
{
	int sync[2];
	pid_t pid;
	char c;

	if (pipe(sync))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(sync[0]);
		if (drop_cap(CAP_SYS_PTRACE))
			_exit(1);
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(sync[1]);
	if (pid > 0 && read(sync[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		wait_child(pid);
		pid = -1;
	}
	close(sync[0]);
	return pid;
}

static void stop_tracee(pid_t pid)
{
	kill(pid, SIGKILL);
	wait_child(pid);
}

/* PTRACE_ATTACH to @pid without CAP_SYS_PTRACE: 0 or the errno. */
static int attach(pid_t pid)
{
	int err = drop_cap(CAP_SYS_PTRACE);

	if (err)
		return 255;
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		return errno;
	waitpid(pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 0;
}

static int attach_to(const void *arg)
{
	return attach(*(const pid_t *)arg);
}

/* A sibling of the tracee (another child of this test) attaches. */
static int sibling_attach(void)
{
	pid_t tracee = start_tracee();
	int rc;

	if (tracee < 0)
		return -1;
	rc = in_child(attach_to, &tracee);
	stop_tracee(tracee);
	return rc;
}

/* A child starts its own tracee and attaches to it. */
static int attach_own_child(const void *arg)
{
	pid_t tracee = start_tracee();
	int rc;

	(void)arg;
	if (tracee < 0)
		return 255;
	rc = attach(tracee);
	stop_tracee(tracee);
	return rc;
}

int main(void)
{
	char old[16];
	int err, rc;

	err = read_str(SCOPE, old, sizeof(old));
	if (err)
		tap_bail("Yama is active: %s (%s)", SCOPE, errname(err));
	tap_note("ptrace_scope was %s", old);

	err = write_str(SCOPE, "1");
	tap_result(!err, "set ptrace_scope=1 (got %s)", errname(err));
	rc = sibling_attach();
	tap_result(rc == EPERM, "ptrace_scope=1: sibling PTRACE_ATTACH fails with EPERM (got %s)",
		   errname(rc));
	rc = in_child(attach_own_child, NULL);
	tap_result(rc == 0, "ptrace_scope=1: parent PTRACE_ATTACH to its child succeeds (got %s)",
		   errname(rc));

	err = write_str(SCOPE, "0");
	tap_result(!err, "set ptrace_scope=0 (got %s)", errname(err));
	rc = sibling_attach();
	tap_result(rc == 0, "ptrace_scope=0: sibling PTRACE_ATTACH succeeds (got %s)",
		   errname(rc));

	write_str(SCOPE, old);
	return tap_exit();
}
