// SPDX-License-Identifier: GPL-2.0
/* Escapes: another task's memory, /proc files and descriptors. */
#define _GNU_SOURCE
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "escapes.h"

/* The outsider's copy is what /proc/PID/mem and process_vm_readv go for. */
static char poke_target[64] = "outsider memory, untouched";

static int p_proc_root(const void *path)
{
	char proc[BLEN + 32];

	snprintf(proc, sizeof(proc), "/proc/%d/root%s", outsider, (const char *)path);
	return read_path(proc, O_RDONLY);
}

static int p_proc_fd(const void *arg)
{
	char proc[64];

	(void)arg;
	snprintf(proc, sizeof(proc), "/proc/%d/fd/%d", outsider, OUT_FD);
	return read_path(proc, O_RDONLY);
}

/* pidfd_getfd() the outsider's descriptor of the secret, read it. */
static int p_pidfd_getfd(const void *arg)
{
	int pfd = syscall(SYS_pidfd_open, outsider, 0), fd, err;

	(void)arg;
	if (pfd < 0)
		return errno;
	fd = syscall(SYS_pidfd_getfd, pfd, OUT_FD, 0);
	err = fd < 0 ? errno : read_fd_marker(fd);
	close(pfd);
	if (fd >= 0)
		close(fd);
	return err;
}

/* --- probes: ptrace ------------------------------------------------------ */

/* Attach to the outsider; exiting detaches (the parent sends SIGCONT). */
static int p_ptrace(const void *req)
{
	return ptrace(*(const int *)req, outsider, NULL, NULL) ? errno : 0;
}

/* /proc/PID/mem of the outsider: write (O_RDWR) or read (O_RDONLY). */
static int p_proc_mem(const void *mode)
{
	static const char poke[] = "poked";
	char path[64], buf[sizeof(poke_target)];
	int flags = *(const int *)mode, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/mem", outsider);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (flags == O_RDWR)
		n = pwrite(fd, poke, sizeof(poke), (off_t)(uintptr_t)poke_target);
	else
		n = pread(fd, buf, sizeof(buf), (off_t)(uintptr_t)poke_target);
	close(fd);
	return n > 0 ? 0 : errno;
}

static int p_vm_readv(const void *arg)
{
	char buf[sizeof(poke_target)];
	struct iovec local = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iovec remote = { .iov_base = poke_target, .iov_len = sizeof(buf) };

	(void)arg;
	return process_vm_readv(outsider, &local, 1, &remote, 1, 0) > 0 ? 0 : errno;
}

static int p_vm_writev(const void *arg)
{
	char buf[] = "poked";
	struct iovec local = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iovec remote = { .iov_base = poke_target, .iov_len = sizeof(buf) };

	(void)arg;
	return process_vm_writev(outsider, &local, 1, &remote, 1, 0) > 0 ? 0 : errno;
}

static int p_proc_environ(const void *arg)
{
	char path[64], buf[4096];
	int fd;
	ssize_t n;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/environ", outsider);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return errno;
	return memmem(buf, n, "PATH=", 5) ? 0 : BROKEN;	/* NUL-separated */
}

void test_ptrace(void)
{
	static const int attach = PTRACE_ATTACH, seize = PTRACE_SEIZE;
	static const int mem_rw = O_RDWR, mem_ro = O_RDONLY;
	const char *m = cg.main;

	tap_note("--- ptrace of an outside task (pid %d; Yama ptrace_scope 0 meanwhile)",
		 outsider);
	attempt(m, HOLD, true, "PTRACE_ATTACH to an outside task", "ptrace_access_check",
		p_ptrace, &attach);
	attempt(m, HOLD, true, "PTRACE_SEIZE of an outside task", "ptrace_access_check",
		p_ptrace, &seize);
	/* mm_access() turns any ptrace_may_access() refusal into EACCES */
	attempt(m, HOLD, true, "write its memory through /proc/PID/mem",
		"self-protection at open: another process's /proc/PID file for writing "
		"(before mm_access()'s ptrace check, which would say EACCES)", p_proc_mem, &mem_rw);
	attempt_errno(m, HOLD, EACCES, true, "read its memory through /proc/PID/mem",
		      "ptrace_access_check (PTRACE_MODE_ATTACH) at open; EACCES from mm_access()",
		      p_proc_mem, &mem_ro);
	attempt(m, HOLD, true, "process_vm_readv() of its memory",
		"PTRACE_MODE_ATTACH_REALCREDS", p_vm_readv, NULL);
	attempt(m, HOLD, true, "process_vm_writev() to its memory",
		"PTRACE_MODE_ATTACH_REALCREDS", p_vm_writev, NULL);
	attempt_errno(m, HOLD, EACCES, false, "read its /proc/PID/environ",
		      "self-protection: the guard's ptrace check (PTRACE_MODE_READ); not the "
		      "ptrace rule, which is about attaching (POLICY.md)", p_proc_environ, NULL);
	tap_note("--- an outside task's /proc files and descriptors");
	/* proc reports a refused ptrace_may_access() on a link as EACCES */
	attempt_errno(m, HOLD, EACCES, true, "open /proc/OUTSIDER/root/... (an outside task's root)",
		      "self-protection: the guard's ptrace check (PTRACE_MODE_READ) on the link",
		      p_proc_root, f.secret);
	attempt_errno(m, HOLD, EACCES, true,
		      "reopen an outside task's open secret via /proc/OUTSIDER/fd/N",
		      "self-protection: the guard's ptrace check (PTRACE_MODE_READ) on the link",
		      p_proc_fd, NULL);
	attempt(m, HOLD, true, "pidfd_getfd() of an outside task's open secret",
		"PTRACE_MODE_ATTACH_REALCREDS: the ptrace rule", p_pidfd_getfd, NULL);
}
