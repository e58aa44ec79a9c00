// SPDX-License-Identifier: GPL-2.0
/* Escapes: what the probes share: reading the secrets, other names for a file, passing descriptors, the outsider, io_uring by hand, running programs. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ftw.h>
#include <grp.h>
#include <netinet/in.h>
#include <sys/mman.h>

#include <poll.h>

#include "escapes.h"

/* A name in the work directory for this process: links, renames, copies. */
void tmpname(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "%s/%s-%d", f.work, tag, getpid());
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Does @buf (@n bytes) hold one of the secrets? 0 when it does. */
int check_marker(const char *buf, ssize_t n)
{
	size_t len = strlen(MARK);

	return n >= (ssize_t)len && !memcmp(buf, MARK, len) ? 0 : EBADMSG;
}

int read_fd_marker(int fd)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	if (n < 0)
		return errno;
	return check_marker(buf, n);
}

/* Open @path with @flags and read a secret from it: 0, or the errno. */
int read_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	err = read_fd_marker(fd);
	close(fd);
	return err;
}

/* --- passing descriptors ------------------------------------------------- */

int send_fd(int sock, int fd)
{
	char byte = fd >= 0 ? 'y' : 'n';
	char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (fd >= 0) {
		msg.msg_control = ctl;
		msg.msg_controllen = sizeof(ctl);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

int recv_fd(int sock)
{
	char byte, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (byte == 'y' && !c && (msg.msg_flags & MSG_CTRUNC)) {
		errno = EPERM;	/* sent, and refused here (security_file_receive) */
		return -1;
	}
	if (byte != 'y' || !c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

void fill_addr(struct sockaddr_storage *ss, socklen_t *len, int family,
		      const char *addr, int port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		inet_pton(AF_INET, addr, &sin->sin_addr);
		*len = sizeof(*sin);
	} else {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &sin6->sin6_addr);
		*len = sizeof(*sin6);
	}
}

static int outsider_make(char req)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = -1;

	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT);
	switch (req) {
	case REQ_SECRET:
		return open(f.secret, O_RDONLY | O_CLOEXEC);
	case REQ_UDP_CONNECTED:
	case REQ_UDP_FRESH:
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		break;
	case REQ_TCP_CONNECTED:
	case REQ_TCP_FRESH:
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		break;
	case REQ_OWNED:
		/* a socket whose SIGIO owner is the outsider */
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && fcntl(fd, F_SETOWN, getpid())) {
			close(fd);
			fd = -1;
		}
		return fd;
	case REQ_PTY: {
		/* the outsider's terminal: the slave's open file is shared */
		static int master = -1;

		if (master < 0)
			master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (master < 0 || grantpt(master) || unlockpt(master))
			return -1;
		return open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	}
	}
	if (fd >= 0 && (req == REQ_UDP_CONNECTED || req == REQ_TCP_CONNECTED) &&
	    connect(fd, (struct sockaddr *)&ss, len)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The outsider: a task in the root cgroup that holds the secret open at
 * OUT_FD, and answers requests on @sock with a descriptor it makes.
 */
void outsider_main(int sock)
{
	int fd = open(f.secret, O_RDONLY), out;
	char req;
	ssize_t n;

	alarm(900);
	if (fd < 0 || dup2(fd, OUT_FD) < 0)
		_exit(1);
	close(fd);
	for (;;) {
		n = recv(sock, &req, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		out = outsider_make(req);
		send_fd(sock, out);
		if (out >= 0)
			close(out);
	}
}

/*
 * Connect to @sa as any client would: 0 when listener @l took the
 * connection, EAGAIN when another did (a service outside on the same
 * port), BROKEN when the connect failed.
 */
int listener_takes(int l, const struct sockaddr *sa, socklen_t len)
{
	struct pollfd pfd = { .fd = l, .events = POLLIN };
	int c, a;

	c = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0 || connect(c, sa, len)) {
		if (c >= 0)
			close(c);
		return BROKEN;
	}
	a = poll(&pfd, 1, 2000) == 1 ? accept4(l, NULL, NULL, SOCK_CLOEXEC) : -1;
	if (a >= 0)
		close(a);
	close(c);
	return a >= 0 ? 0 : EAGAIN;
}

/* In a probe: ask the outsider for a descriptor. */
int ask_outsider(char req)
{
	if (send(srv_sock, &req, 1, 0) != 1)
		return -1;
	return recv_fd(srv_sock);
}

/* Set up a ring of 4 entries with @flags (IORING_SETUP_*): 0, or the errno. */
int uring_init_flags(struct uring *r, unsigned int flags)
{
	struct io_uring_params p = { .flags = flags };
	int fd = syscall(SYS_io_uring_setup, 4, &p);

	if (fd < 0)
		return errno;
	return uring_map(r, fd, &p);
}

int uring_init(struct uring *r)
{
	return uring_init_flags(r, 0);
}

/* Map ring @fd, set up with @p (a ring received: the offsets of one set up alike). */
int uring_map(struct uring *r, int fd, const struct io_uring_params *params)
{
	struct io_uring_params p = *params;
	size_t sq_len, cq_len;
	char *sq, *cq;
	void *sqes;

	r->fd = fd;
	r->sqpoll = !!(p.flags & IORING_SETUP_SQPOLL);
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq_len = cq_len = sq_len > cq_len ? sq_len : cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return errno;
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  r->fd, IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return errno;
	}
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sqes == MAP_FAILED)
		return errno;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	r->sqes = sqes;
	return 0;
}

/* Submit @sqe and wait for it: its result (-errno on failure). */
int uring_run(struct uring *r, const struct io_uring_sqe *sqe)
{
	unsigned int tail = *r->sq_tail, idx = tail & *r->sq_mask, head;
	int res;

	r->sqes[idx] = *sqe;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	/* (SQPOLL: the ring's own thread submits; wake it in case it idled) */
	if (syscall(SYS_io_uring_enter, r->fd, 1, 1,
		    IORING_ENTER_GETEVENTS | (r->sqpoll ? IORING_ENTER_SQ_WAKEUP : 0), NULL, 0) < 0)
		return -errno;
	head = __atomic_load_n(r->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* --- running programs ---------------------------------------------------- */

/*
 * Run execve(@path) (or execveat(@fd, "", AT_EMPTY_PATH) when @fd is
 * not -1) with @argv in a child, its stdout and stderr into @out: the
 * child's status. A failed exec prints "exec: " and the error.
 */
int run_prog(const char *path, int fd, char *const argv[], char *out, size_t len)
{
	size_t used = 0;
	ssize_t n;
	pid_t pid;
	int p[2];

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		if (fd >= 0)
			syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
		else
			execve(path, argv, environ);
		fprintf(stderr, "exec: %s\n", strerror(errno));
		fflush(stderr);
		_exit(126);
	}
	close(p[1]);
	while (used + 1 < len && (n = read(p[0], out + used, len - 1 - used)) > 0)
		used += n;
	out[used] = '\0';
	close(p[0]);
	return wait_child(pid);
}

/*
 * What a program's run says: 0 when @marker is in its output (it ran,
 * or read the secret), EPERM or EACCES when it says so, else BROKEN.
 */
int prog_verdict(int status, const char *out, const char *marker)
{
	if (status >= 0 && strstr(out, marker))
		return 0;
	if (strstr(out, "Operation not permitted"))
		return EPERM;
	if (strstr(out, "Permission denied"))
		return EACCES;
	tap_note("status %d, output: %.200s", status, out);
	return BROKEN;
}

/* The denied busybox, as echo: prints RAN_MARK when it runs. */
static char *const echo_argv[] = { "echo", RAN_MARK, NULL };

/* Run @path (or @fd by execveat when not -1) as echo: 0 when it ran. */
int exec_verdict(const char *path, int fd)
{
	char out[1024];
	int status = run_prog(path, fd, echo_argv, out, sizeof(out));

	return prog_verdict(status, out, RAN_MARK);
}

/* Write the bytes of file @from to @fd: 0, or BROKEN. */
int fill_fd(int fd, const char *from)
{
	size_t len;
	void *buf = slurp(from, &len);
	int err = buf && write(fd, buf, len) == (ssize_t)len ? 0 : BROKEN;

	free(buf);
	return err;
}

/*
 * Give @path another name in the work directory (@how), then @use the
 * new name (or what is @below it), then undo the name: what @use says.
 */
int alias_probe(const char *path, const char *below, enum alias how, probe_fn use)
{
	static const char *const tags[] = { "alias-sym", "alias-hardlink", "alias-renamed" };
	char name[BLEN], target[BLEN + 16];
	int made, err;

	tmpname(name, sizeof(name), tags[how]);
	made = how == ALIAS_SYMLINK ? symlink(path, name) :
	       how == ALIAS_HARDLINK ? link(path, name) : rename(path, name);
	if (made)
		return errno;
	snprintf(target, sizeof(target), "%s%s", name, below ? below : "");
	err = use(target);
	if (how != ALIAS_RENAME) {
		unlink(name);
	} else if (rename(name, path)) {
		tap_note("could not rename %s back to %s: %s", name, path, strerror(errno));
		return BROKEN;
	}
	return err;
}

/* open(@path, @flags), then @use "/proc/self/fd/N" of it: what @use says. */
int reopen_probe(const char *path, int flags, probe_fn use)
{
	int fd = open(path, flags | O_CLOEXEC), err;
	char proc[64];

	if (fd < 0)
		return errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	err = use(proc);
	close(fd);
	return err;
}

/* @fn(@arg) as nobody (uid and gid NOBODY, no groups), in the root cgroup: its status. */
int as_nobody(probe_fn fn, const void *arg)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		alarm(LAB_PROBE_TIMEOUT);
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(BROKEN);
		_exit(fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return BROKEN;
	return WEXITSTATUS(status);
}
