/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the tests that show each built-in LSM denying a syscall:
 * whole-buffer reads and writes of kernel interface files, dropping a
 * capability, and running a probe in a child whose exit status is the
 * errno it saw.
 */
#ifndef LAB_LSM_UTIL_H
#define LAB_LSM_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * An errno's name for the TAP lines: "success" for 0; a probe that
 * could not run reports 255 (no errno is that large) or -1.
 */
static inline const char *errname(int err)
{
	static char buf[48];

	if (err < 0 || err == 255) {
		snprintf(buf, sizeof(buf), "probe failed, status %d", err);
		return buf;
	}
	switch (err) {
	case 0: return "success";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case ENOEXEC: return "ENOEXEC";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOSYS: return "ENOSYS";
	default: return strerror(err);
	}
}

/* Write @len bytes to @path in a single write(): 0, or the errno. */
static inline int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

static inline int write_str(const char *path, const char *s)
{
	return write_file(path, s, strlen(s));
}

/*
 * Read @path into @buf (at most @size - 1 bytes), NUL-terminated and
 * without a trailing newline or NUL: 0, or the errno.
 */
static inline int read_str(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	return 0;
}

/* Load the whole of file @path: a malloc()ed buffer, or NULL. */
static inline void *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	do {
		if (n == cap) {
			char *p = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!p) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = p;
		}
		r = read(fd, buf + n, cap - n);
		if (r > 0)
			n += r;
	} while (r > 0);
	close(fd);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* The errno open(@path, O_RDONLY) fails with, 0 when it succeeds. */
static inline int try_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Create (or truncate) PATH: 0, or the errno. */
static inline int make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Drop @cap from the effective, permitted and inheritable sets. */
static inline int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return errno;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].permitted &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].inheritable &= ~CAP_TO_MASK(cap);
	if (syscall(SYS_capset, &hdr, data))
		return errno;
	return 0;
}

/* A child's exit status, 128 + the signal that killed it, or -1. */
static inline int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/*
 * Run @fn(@arg) in a child and return what it returns (by convention
 * the errno of the operation it probes, 0 for success), or -1 when the
 * child could not be run.
 */
static inline int in_child(int (*fn)(const void *), const void *arg)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(fn(arg));
	return wait_child(pid);
}

/* Run @argv, wait for it: its exit status, 255 when execv() failed. */
static inline int run(char *const argv[])
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(255);
	}
	return wait_child(pid);
}

#endif /* LAB_LSM_UTIL_H */
