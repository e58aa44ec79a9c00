// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: requests the kernel runs for the task elsewhere (io_uring's
 * SQPOLL thread, io-wq, a registered personality), a descriptor that
 * crosses into the subtree (SCM_RIGHTS, seccomp's addfd), and SIGIO's
 * owner, whose signal never asks task_kill.
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "escapes.h"

/* IORING_OP_OPENAT of @path on @r, then IORING_OP_READ of the marker. */
static int uring_open_read(struct uring *r, const char *path, __u16 personality)
{
	struct io_uring_sqe sqe = { 0 };
	char buf[64];
	int fd;

	sqe.opcode = IORING_OP_OPENAT;
	sqe.fd = AT_FDCWD;
	sqe.addr = (__u64)(uintptr_t)path;
	sqe.open_flags = O_RDONLY | O_CLOEXEC;
	sqe.personality = personality;
	fd = uring_run(r, &sqe);
	if (fd < 0)
		return -fd;
	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_READ;
	sqe.fd = fd;
	sqe.addr = (__u64)(uintptr_t)buf;
	sqe.len = sizeof(buf);
	sqe.personality = personality;
	fd = uring_run(r, &sqe);
	return fd < 0 ? -fd : check_marker(buf, fd);
}

/*
 * A ring sent over SCM_RIGHTS: 6.1's stable kernels refuse to send one
 * at all (scm_fp_copy(): io_uring_get_socket(), EINVAL), from inside or
 * out; the guard's file_receive refuses a ring that arrives another way
 * (pidfd_getfd, seccomp's addfd). Had it gone through: the ring opens
 * the secret (0).
 */
static int p_ring_sent(const void *arg)
{
	struct io_uring_params p = { 0 };
	struct uring r;
	int sv[2], ring, fd;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return BROKEN;
	ring = syscall(SYS_io_uring_setup, 4, &p);
	if (ring < 0)
		return errno;
	if (send_fd(sv[0], ring))
		return errno;
	fd = recv_fd(sv[1]);
	if (fd < 0)
		return errno == EPERM ? EPERM : BROKEN;
	if (uring_map(&r, fd, &p))
		return BROKEN;
	return uring_open_read(&r, f.secret, 0);
}

/*
 * A ring installed by seccomp's SECCOMP_IOCTL_NOTIF_ADDFD: a child
 * stops in getppid() on a user-notification filter, and its supervisor
 * (this task) adds a ring to the child's table. The child installs it
 * itself (receive_fd(), file_receive in its context): 0 when it did,
 * ENOSYS where the kernel has no seccomp filters (the lab's kernels).
 */
static int p_ring_addfd(const void *arg)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(filter), .filter = filter };
	struct io_uring_params p = { 0 };
	struct seccomp_notif req = { 0 };
	struct seccomp_notif_addfd add = { 0 };
	struct seccomp_notif_resp resp = { 0 };
	int sv[2], listener, ring, err;
	pid_t pid;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return BROKEN;
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		close(sv[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(1);
		listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				   SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		if (listener < 0) {
			err = errno;
			send(sv[1], &err, sizeof(err), 0);
			_exit(1);
		}
		err = 0;
		send(sv[1], &err, sizeof(err), 0);
		send_fd(sv[1], listener);
		close(listener);
		syscall(SYS_getppid);
		_exit(0);
	}
	close(sv[1]);
	err = BROKEN;
	if (recv(sv[0], &err, sizeof(err), 0) != sizeof(err) || err) {
		err = err == EINVAL || err == ENOSYS ? ENOSYS : BROKEN;
		goto out;
	}
	listener = recv_fd(sv[0]);
	ring = syscall(SYS_io_uring_setup, 4, &p);
	if (listener < 0 || ring < 0 || ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req)) {
		err = BROKEN;
		goto out;
	}
	add.id = req.id;
	add.srcfd = ring;
	err = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add) < 0 ? errno : 0;
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	close(listener);
	close(ring);
out:
	close(sv[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return err;
}

/* The secret through a ring of the task's own whose SQPOLL thread submits. */
static int p_uring_sqpoll(const void *path)
{
	struct uring r;
	int err = uring_init_flags(&r, IORING_SETUP_SQPOLL);

	return err ? err : uring_open_read(&r, path, 0);
}

/* The same under a personality registered first (the task's own creds, kept). */
static int p_uring_personality(const void *path)
{
	struct uring r;
	int err = uring_init(&r), id;

	if (err)
		return err;
	id = syscall(SYS_io_uring_register, r.fd, IORING_REGISTER_PERSONALITY, NULL, 0);
	if (id < 0)
		return errno;
	return uring_open_read(&r, path, id);
}

/* F_SETOWN to the task's own process group, then F_SETSIG: SIGIO to the group. */
static int p_setown_pgrp(const void *arg)
{
	int fds[2], err = 0;

	(void)arg;
	/* a group of its own: the guest's tasks may all be in group 0, and owner 0 is none */
	if (setpgid(0, 0) || pipe(fds))
		return BROKEN;
	if (fcntl(fds[0], F_SETOWN, -getpgrp()) || fcntl(fds[0], F_SETSIG, SIGWINCH))
		err = errno;
	close(fds[0]);
	close(fds[1]);
	return err;
}

/* A socket whose owner is the outsider, passed in: F_SETSIG (@arg 0) or O_ASYNC on. */
static int p_owned_fd(const void *arg)
{
	int fd = ask_outsider(REQ_OWNED), err = 0, fl;

	if (fd < 0)
		return BROKEN;
	if (!arg) {
		if (fcntl(fd, F_SETSIG, SIGWINCH))
			err = errno;
	} else {
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC))
			err = errno;
	}
	close(fd);
	return err;
}

void test_anchors(void)
{
	const char *m = cg.main;

	tap_note("--- requests run elsewhere, descriptors passed in, SIGIO's owner");
	attempt(m, HOLD, true, "io_uring IORING_OP_OPENAT on a ring of its own with SQPOLL",
		"file_open in the SQPOLL thread, which is the task's and in its cgroup",
		p_uring_sqpoll, f.secret);
	attempt_errno(m, HOLD, EINVAL, false,
		      "io_uring ring sent over SCM_RIGHTS (the kernel refuses it everywhere: no control)",
		      "6.1 stable's scm_fp_copy() refuses to send a ring (EINVAL); the guard's "
		      "file_receive refuses one arriving another way", p_ring_sent, NULL);
	attempt(m, HOLD, true, "io_uring ring added to a task's table by seccomp's "
		"SECCOMP_IOCTL_NOTIF_ADDFD", "the guard's file_receive, in the receiving task",
		p_ring_addfd, NULL);
	attempt(m, HOLD, true, "io_uring IORING_OP_OPENAT under a registered personality",
		"file_open: the policy is the cgroup's, whatever the credentials",
		p_uring_personality, f.secret);
	attempt(m, HOLD, true, "F_SETOWN to its own process group (+ F_SETSIG)",
		"self-protection: an owner inside is the task itself", p_setown_pgrp, NULL);
	attempt(m, HOLD, true, "F_SETSIG on a socket whose owner is outside, passed in",
		"self-protection: F_SETSIG only where the owner is the task or nobody",
		p_owned_fd, NULL);
	attempt(m, HOLD, true, "O_ASYNC on a socket whose owner is outside, passed in",
		"self-protection: O_ASYNC only where the owner is the task or nobody",
		p_owned_fd, "async");
}
