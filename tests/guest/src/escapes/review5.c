// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the fifth review's (issue #24 item 9), the scope allow-lists
 * themselves. The guard lets CAP_SYS_ADMIN through by the system call
 * the task is in (sys_admin_allowed(), read from the task's saved
 * registers): a check the kernel makes while it returns from an allowed
 * call, for work queued earlier (task_work: io_uring's completions and
 * the linked requests they issue), is judged as that call's.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/fanotify.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "escapes.h"

/* A datagram on @sock whose SCM_CREDENTIALS name @pid (uid and gid 0). */
struct cred_msg {
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	char data;
	struct iovec iov;
	struct msghdr msg;
};

static void cred_msg(struct cred_msg *m, pid_t pid)
{
	struct ucred cred = { .pid = pid, .uid = 0, .gid = 0 };
	struct cmsghdr *c;

	memset(m, 0, sizeof(*m));
	m->data = 'x';
	m->iov.iov_base = &m->data;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->u.buf;
	m->msg.msg_controllen = sizeof(m->u.buf);
	c = CMSG_FIRSTHDR(&m->msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(c), &cred, sizeof(cred));
}

/* The pid in the SCM_CREDENTIALS of the datagram waiting on @sock, or -1. */
static pid_t cred_received(int sock)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u = { 0 };
	char data;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	struct ucred cred;

	if (recvmsg(sock, &msg, MSG_DONTWAIT) < 0)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_CREDENTIALS)
		return -1;
	memcpy(&cred, CMSG_DATA(c), sizeof(cred));
	return cred.pid;
}

/* sendmsg() naming @arg's pid, directly: the guard's fix (185891e). */
static int p_cred_direct(const void *arg)
{
	pid_t pid = *(const pid_t *)arg;
	struct cred_msg m;
	int sv[2], one = 1, err = 0;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) ||
	    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
		return BROKEN;
	cred_msg(&m, pid);
	if (sendmsg(sv[0], &m.msg, 0) < 0)
		err = errno;
	else if (cred_received(sv[1]) != pid)
		err = BROKEN;
	close(sv[0]);
	close(sv[1]);
	return err;
}

/*
 * The same datagram through io_uring: IORING_OP_POLL_ADD on an empty
 * pipe, linked (IOSQE_IO_LINK) to IORING_OP_SENDMSG. write() to the
 * pipe wakes the poll, and the kernel runs its completion, and issues
 * the linked sendmsg, as task_work while write() returns (a read of the
 * pipe would not do: 6.1's pipes have no FMODE_NOWAIT, so io-wq would
 * read it, and run the sendmsg, in a worker the guard refuses): scm_check_creds() asks CAP_SYS_ADMIN with the task's
 * registers saying write. The sender's own pid first, which needs no
 * capability (the ring works inside), then @pid's: 0 when the receiver
 * got a datagram from @pid.
 */
static int uring_cred(pid_t pid)
{
	struct io_uring_sqe *sqe;
	struct cred_msg m;
	struct uring r;
	unsigned int tail, head;
	int sv[2], p[2], one = 1, err, res = 1, seen = 0, i;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) ||
	    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) ||
	    pipe2(p, O_CLOEXEC))
		return BROKEN;
	err = uring_init(&r);
	if (err)
		return err;
	cred_msg(&m, pid);
	tail = *r.sq_tail;
	sqe = &r.sqes[tail & *r.sq_mask];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_POLL_ADD;
	sqe->fd = p[0];
	sqe->poll32_events = POLLIN;
	sqe->flags = IOSQE_IO_LINK;
	sqe->user_data = 1;
	r.sq_array[tail & *r.sq_mask] = tail & *r.sq_mask;
	sqe = &r.sqes[(tail + 1) & *r.sq_mask];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_SENDMSG;
	sqe->fd = sv[0];
	sqe->addr = (uintptr_t)&m.msg;
	sqe->user_data = 2;
	r.sq_array[(tail + 1) & *r.sq_mask] = (tail + 1) & *r.sq_mask;
	__atomic_store_n(r.sq_tail, tail + 2, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r.fd, 2, 0, 0, NULL, 0) != 2)
		return BROKEN;
	/* the read waits; this write's return runs what the kernel queued */
	if (write(p[1], "w", 1) != 1)
		return BROKEN;
	for (i = 0; i < 1000 && seen < 2; i++) {
		head = __atomic_load_n(r.cq_head, __ATOMIC_ACQUIRE);
		if (head == __atomic_load_n(r.cq_tail, __ATOMIC_ACQUIRE)) {
			usleep(1000);
			continue;
		}
		if (r.cqes[head & *r.cq_mask].user_data == 2)
			res = r.cqes[head & *r.cq_mask].res;
		seen++;
		__atomic_store_n(r.cq_head, head + 1, __ATOMIC_RELEASE);
	}
	if (seen < 2)
		err = BROKEN;
	else if (res < 0)
		err = -res;
	else if (cred_received(sv[1]) != pid)
		err = BROKEN;
	close(r.fd);
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
	return err;
}

static int p_cred_uring(const void *arg)
{
	int err = uring_cred(getpid());

	if (err)
		return err == EPERM ? BROKEN : err;	/* its own pid needs nothing */
	return uring_cred(*(const pid_t *)arg);
}

#define FAN_DIR		"/tmp/review5-fan"
#define FAN_MARK_FILE	FAN_DIR "/mark"
static pid_t toucher = -1;	/* outside: opens FAN_MARK_FILE every 20 ms */

/*
 * fanotify_init(FAN_CLASS_NOTIF), then a mount mark (FAN_MARK_MOUNT,
 * FAN_OPEN) on the mount FAN_DIR is on: 0 when an event from the task
 * outside arrives (its pid, and a descriptor of what it opened).
 */
static int p_fanotify_mount(const void *arg)
{
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *e;
	int fan, i, err = BROKEN;
	ssize_t n;

	(void)arg;
	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_CLOEXEC);
	if (fan < 0)
		return errno;
	if (fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN, AT_FDCWD, FAN_DIR)) {
		err = errno;
		close(fan);
		return err;
	}
	for (i = 0; i < 200 && err; i++) {
		n = read(fan, buf, sizeof(buf));
		if (n <= 0) {
			usleep(10 * 1000);
			continue;
		}
		for (e = (void *)buf; FAN_EVENT_OK(e, n); e = FAN_EVENT_NEXT(e, n)) {
			if (e->pid == toucher)
				err = 0;
			if (e->fd >= 0)
				close(e->fd);
		}
	}
	close(fan);
	return err;
}

static void test_fanotify(const char *m)
{
	const char *what = "fanotify mount mark (FAN_OPEN) sees a task outside open a file";

	if ((mkdir(FAN_DIR, 0755) && errno != EEXIST) || put_str(FAN_MARK_FILE, "", 0644))
		return;
	fflush(NULL);
	toucher = fork();
	if (toucher == 0) {
		for (;;) {
			int fd = open(FAN_MARK_FILE, O_RDONLY | O_CLOEXEC);

			if (fd >= 0)
				close(fd);
			usleep(20 * 1000);
		}
	}
	if (toucher < 0)
		skip(what, "could not start the task outside");
	else
		attempt(m, HOLD, true, what,
			"CAP_SYS_ADMIN at fanotify_init and fanotify_mark passes by system call; "
			"path_notify judges permission events only: a mount or filesystem mark "
			"watches every task outside (what it opens, writes, deletes, with its pid, "
			"and a descriptor of each file)", p_fanotify_mount, NULL);
	if (toucher > 0) {
		kill(toucher, SIGKILL);
		waitpid(toucher, NULL, 0);
	}
	toucher = -1;
	unlink(FAN_MARK_FILE);
	rmdir(FAN_DIR);
}

#define NS_DIR		"/tmp/review5-ns"
static pid_t ns_holder = -1;	/* outside, in a mount namespace of its own */

/* /proc/<ns_holder>/mountinfo: 0 when it lists the holder's private mount. */
static int p_mountinfo(const void *arg)
{
	char path[64], buf[16384];
	ssize_t n, used = 0;
	int fd;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)ns_holder);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	while (used < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + used, sizeof(buf) - 1 - used)) > 0)
		used += n;
	if (used <= 0) {
		n = errno;
		close(fd);
		return used < 0 ? (int)n : BROKEN;
	}
	close(fd);
	buf[used] = '\0';
	return strstr(buf, " - tmpfs review5-ns ") ? 0 : BROKEN;
}

static void test_mountinfo(const char *m)
{
	const char *what = "/proc/PID/mountinfo of a task outside in a mount namespace of its own";
	int ready[2];
	char c;

	if (pipe(ready) || (mkdir(NS_DIR, 0755) && errno != EEXIST))
		return;
	fflush(NULL);
	ns_holder = fork();
	if (ns_holder == 0) {
		close(ready[0]);
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("review5-ns", NS_DIR, "tmpfs", 0, "mode=0755"))
			_exit(BROKEN);
		if (write(ready[1], "r", 1) != 1)
			_exit(BROKEN);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (ns_holder < 0 || read(ready[0], &c, 1) != 1)
		skip(what, "could not start the task outside");
	else
		attempt(m, HOLD, true, what,
			"a task outside's mount namespace is outside (review4's setns attempt); "
			"mounts_open_common() asks no ptrace check, so its mount table (a "
			"container's sources, paths, options) reads from inside, as do mounts "
			"and mountstats", p_mountinfo, NULL);
	close(ready[0]);
	if (ns_holder > 0) {
		kill(ns_holder, SIGKILL);
		waitpid(ns_holder, NULL, 0);
	}
	ns_holder = -1;
	rmdir(NS_DIR);
}

/*
 * /proc/self/pagemap's physical frame numbers (bits 0-54 of an entry):
 * the kernel shows them when the opener has CAP_SYS_ADMIN in
 * init_user_ns (pagemap_open(): file_ns_capable()), else zeroes them.
 * 0 when the frame of a page of its own shows, EPERM when it reads as
 * zero (the capability refused at the open).
 */
static int p_pagemap_pfn(const void *arg)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *page = mmap(NULL, psz, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t ent;
	int fd;

	(void)arg;
	if (page == MAP_FAILED)
		return BROKEN;
	page[0] = 1;	/* present */
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (pread(fd, &ent, sizeof(ent), (uintptr_t)page / psz * sizeof(ent)) != sizeof(ent)) {
		close(fd);
		return BROKEN;
	}
	close(fd);
	if (!(ent >> 63))
		return BROKEN;	/* not present: nothing to tell */
	return ent & ((1ULL << 55) - 1) ? 0 : EPERM;
}

/*
 * FIONBIO (@arg NULL) or F_SETFL's O_NONBLOCK on a terminal the outsider
 * opened and passed in: the open file is the outsider's too, and its
 * reads turn non-blocking (a shell reading it may take EAGAIN for an
 * end). 0 when the flag was set.
 */
static int p_shared_tty_nonblock(const void *arg)
{
	int fd = ask_outsider(REQ_PTY), on = 1, err = 0, fl;

	if (fd < 0)
		return BROKEN;
	if (!arg) {
		if (ioctl(fd, FIONBIO, &on))
			err = errno;
	} else {
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK))
			err = errno;
	}
	if (!err && !(fcntl(fd, F_GETFL) & O_NONBLOCK))
		err = BROKEN;
	close(fd);
	return err;
}

void test_review5(void)
{
	const char *m = cg.main;

	tap_note("--- the scope allow-lists (review 5)");
	attempt(m, HOLD, true, "sendmsg() with SCM_CREDENTIALS naming a pid outside",
		"CAP_SYS_ADMIN at sendmsg (scm_check_creds): the guard's capable",
		p_cred_direct, &outsider);
	attempt(m, HOLD, true,
		"io_uring SENDMSG with SCM_CREDENTIALS naming a pid outside, linked after a "
		"pipe poll and issued as task_work while write() returns",
		"CAP_SYS_ADMIN is judged by the system call in the task's registers; task_work "
		"(io_uring completions and linked requests) runs under whichever call returns",
		p_cred_uring, &outsider);
	test_fanotify(m);
	test_mountinfo(m);
	attempt(m, DOC, true, "/proc/self/pagemap: the physical frame numbers of its own pages",
		"pagemap_read() asks CAP_SYS_ADMIN at each read, and reads of what was "
		"opened get it (the guard's call list); the frames are the task's own "
		"pages' (an aid to rowhammer, nothing of another's)",
		p_pagemap_pfn, NULL);
	attempt(m, DOC, true, "FIONBIO on a terminal opened outside and passed in",
		"the flag is the open file's, shared with the task outside that passed "
		"it: a descriptor from outside (POLICY.md), and F_SETFL sets the same "
		"flag, so refusing the ioctl would not close it", p_shared_tty_nonblock, NULL);
	attempt(m, DOC, true, "F_SETFL O_NONBLOCK on a terminal opened outside and passed in",
		"the open file's own flag, a descriptor from outside (POLICY.md)",
		p_shared_tty_nonblock, "fcntl");
}
