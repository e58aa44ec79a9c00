// SPDX-License-Identifier: GPL-2.0
/*
 * The broker (lsmctl serve) and its client.
 *
 * A confined root may not load BPF (the guard refuses bpf() but its
 * read-only commands), so a policy for the cgroups below its own is
 * applied by a daemon outside: lsmctl serve. It takes one request a
 * connection on a Unix socket, and:
 *
 * - knows the requester by the kernel's word, without a pid-reuse race:
 *   the request carries SCM_CREDENTIALS (the kernel checks the pid is
 *   the sender's own; the guard refuses a guarded task the
 *   CAP_SYS_ADMIN that would let it name another's outside) and a pidfd
 *   of the requester (SCM_RIGHTS) whose pid must be the same. The broker
 *   reads /proc/PID/cgroup, then asks the pidfd whether the process
 *   still lives: if it does, the pid was its own throughout the read;
 * - finds the requester's scope: the deepest cgroup above it (or its
 *   own) with a policy that has self-protection, by id, each path
 *   prefix stat()ed while the requester lives (a populated cgroup and
 *   its ancestors cannot be removed). A requester in no such subtree is
 *   refused: the root outside applies its policies itself;
 * - applies or detaches only on a cgroup strictly below the scope, only
 *   a policy that came through the broker for the same scope
 *   (lab_meta.delegated_by, checked under the store's lock), within the
 *   LAB_BROKER_* limits, always on the global backend (no hook slot
 *   taken from the machine). A nested policy adds to the scope's own:
 *   it can only tighten what the scope's policy allows, in either mode;
 * - bounds each request: LAB_BROKER_POLICY_MAX bytes, BROKER_TIMEOUT_S
 *   seconds to send them, one at a time; and writes one line for each
 *   to stderr (the journal, under systemd): who asked, what, the answer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "apply.h"
#include "broker.h"
#include "cgroup.h"
#include "errors.h"
#include "output.h"
#include "store.h"

#define BROKER_TIMEOUT_S	5	/* to send a request */
#define BROKER_APPLY_WAIT_S	300	/* for the answer: a first global apply verifies for long */
#define BROKER_BACKLOG		16

const char *broker_socket(void)
{
	const char *env = getenv("LSMCTL_BROKER");

	return env && *env ? env : BROKER_SOCKET;
}

/* Is the cgroup folder @path (@rel below CGROUP_ROOT) one of @list's with self-protection? */
static void scope_step(const struct stored *list, int n, const char *path, const char *rel,
		       __u64 *found, char *scope, size_t len)
{
	struct stat st;
	int j;

	if (stat(path, &st))
		return;
	for (j = 0; j < n; j++)
		if (list[j].meta.cgroup_id == (__u64)st.st_ino &&
		    (list[j].meta.flags & LAB_SELF_PROTECT)) {
			*found = list[j].meta.cgroup_id;
			snprintf(scope, len, "%s", rel);
		}
}

/*
 * The deepest cgroup of @rel (a path below CGROUP_ROOT) or above it
 * that has a policy with self-protection, by id: its id, and its path
 * in @scope; 0 when there is none.
 */
static __u64 scope_of(const char *rel, char *scope, size_t len)
{
	char copy[PATH_MAX], cur[PATH_MAX] = "", path[PATH_MAX + sizeof(CGROUP_ROOT)];
	char *tok, *save = NULL;
	struct stored *list;
	__u64 found = 0;
	int n;

	n = stored_list(&list);
	if (n <= 0)
		return 0;
	scope_step(list, n, CGROUP_ROOT, "/", &found, scope, len);
	snprintf(copy, sizeof(copy), "%s", rel);
	for (tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (strlen(cur) + strlen(tok) + 2 > sizeof(cur))
			break;
		strcat(cur, "/");
		strcat(cur, tok);
		snprintf(path, sizeof(path), CGROUP_ROOT "%s", cur);
		scope_step(list, n, path, cur, &found, scope, len);
	}
	stored_list_free(list, n);
	return found;
}

bool broker_confined(__u64 *scope)
{
	char own[PATH_MAX], scope_path[PATH_MAX];

	*scope = 0;
	/* no store, no policy: and nothing is made for the question (store_open() would) */
	if (access(PIN_ROOT, F_OK) || cgroup_own(own, sizeof(own)) ||
	    store_open(false, scope_path, sizeof(scope_path)))
		return false;
	*scope = scope_of(own + strlen(CGROUP_ROOT), scope_path, sizeof(scope_path));
	store_close();
	return *scope != 0;
}

/* The server */

static int listen_on(const char *path, char *err, size_t errlen)
{
	const char *fds = getenv("LISTEN_FDS"), *pid = getenv("LISTEN_PID");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path)], *slash;
	int fd, one = 1, rc;
	struct stat st;
	mode_t old;

	if (fds && pid && atoi(pid) == getpid() && atoi(fds) == 1) {
		fd = 3;	/* systemd's socket activation: SD_LISTEN_FDS_START */
	} else {
		if (strlen(path) >= sizeof(sa.sun_path))
			return errf(err, errlen, -ENAMETOOLONG, "socket path %s is too long", path);
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = '\0';
			if (mkdir(dir, 0755) && errno != EEXIST)
				return errf(err, errlen, -errno, "mkdir %s: %s", dir, strerror(errno));
		}
		if (!lstat(path, &st)) {
			if (!S_ISSOCK(st.st_mode))
				return errf(err, errlen, -EEXIST, "%s is there and is no socket", path);
			unlink(path);	/* a broker's before this one */
		}
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		strcpy(sa.sun_path, path);
		old = umask(0177);	/* 0600 from the start: no moment open to others */
		rc = fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
		umask(old);
		if (rc || listen(fd, BROKER_BACKLOG))
			return errf(err, errlen, rc ? rc : -errno, "listen on %s: %s", path,
				    strerror(rc ? -rc : errno));
	}
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
		return errf(err, errlen, -errno, "SO_PASSCRED: %s", strerror(errno));
	return fd;
}

/* A request as received: who sent it, what it asks, the policy's bytes. */
struct request {
	struct ucred cred;
	bool have_cred;
	int pidfd;
	char cgroup[PATH_MAX];		/* the requester's, below CGROUP_ROOT */
	char scope[PATH_MAX];		/* its scope's */
	__u64 scope_id;
	struct broker_req req;
	char *policy;			/* req.length bytes and a NUL */
};

/* The fds and credentials of the first message's control data. */
static int take_control(struct msghdr *msg, struct request *r, char *err, size_t errlen)
{
	struct cmsghdr *c;
	int rc = 0;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if (c->cmsg_type == SCM_CREDENTIALS && c->cmsg_len == CMSG_LEN(sizeof(r->cred))) {
			memcpy(&r->cred, CMSG_DATA(c), sizeof(r->cred));
			r->have_cred = true;
		} else if (c->cmsg_type == SCM_RIGHTS) {
			size_t i, n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int fd;

			for (i = 0; i < n; i++) {
				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
				if (r->pidfd < 0 && n == 1)
					r->pidfd = fd;
				else
					close(fd);	/* one descriptor, the requester's pidfd */
			}
			if (n != 1)
				rc = errf(err, errlen, -EINVAL, "the request carries %zu descriptors, "
					  "not one pidfd", n);
		}
	}
	if (msg->msg_flags & MSG_CTRUNC)
		return errf(err, errlen, -EINVAL, "the request's control data was cut short");
	if (!rc && (!r->have_cred || r->pidfd < 0))
		rc = errf(err, errlen, -EINVAL, "the request carries no SCM_CREDENTIALS and pidfd");
	return rc;
}

/*
 * read() on @c, by the request's @deadline (CLOCK_MONOTONIC seconds): a
 * sender that trickles its bytes holds the broker BROKER_TIMEOUT_S in all.
 */
static ssize_t read_by(int c, void *buf, size_t len, const struct timespec *deadline)
{
	struct timespec now;
	struct timeval tv;
	long us;

	clock_gettime(CLOCK_MONOTONIC, &now);
	us = (deadline->tv_sec - now.tv_sec) * 1000000L + (deadline->tv_nsec - now.tv_nsec) / 1000;
	if (us <= 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	tv.tv_sec = us / 1000000;
	tv.tv_usec = us % 1000000;
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return read(c, buf, len);
}

/* Read the request: header, then for apply the policy's bytes. 0 or -errno. */
static int receive(int c, struct request *r, char *err, size_t errlen)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	char hdr[BROKER_HEADER_MAX];
	struct iovec iov = { .iov_base = hdr, .iov_len = sizeof(hdr) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	size_t have, end, extra, got;
	struct timespec deadline;
	ssize_t n;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += BROKER_TIMEOUT_S;
	n = recvmsg(c, &msg, MSG_CMSG_CLOEXEC);
	if (n <= 0)
		return errf(err, errlen, n ? -errno : -ENODATA, "no request");
	rc = take_control(&msg, r, err, errlen);
	if (rc)
		return rc;
	have = n;
	while (!(end = broker_header_end(hdr, have)) && have < sizeof(hdr)) {
		n = read_by(c, hdr + have, sizeof(hdr) - have, &deadline);
		if (n <= 0)
			return errf(err, errlen, -EINVAL, "the header ended before its empty line "
				    "(within %d s)", BROKER_TIMEOUT_S);
		have += n;
	}
	if (!end)
		return errf(err, errlen, -EINVAL, "no empty line within %d bytes", BROKER_HEADER_MAX);
	rc = broker_parse(hdr, end, LAB_BROKER_POLICY_MAX, &r->req, err, errlen);
	if (rc)
		return rc;
	extra = have - end;
	if (r->req.verb != BROKER_APPLY)
		return extra ? errf(err, errlen, -EINVAL, "bytes after a detach's header") : 0;
	if (extra > r->req.length)
		return errf(err, errlen, -EINVAL, "more bytes than 'length %zu'", r->req.length);
	r->policy = malloc(r->req.length + 1);
	if (!r->policy)
		return errf(err, errlen, -ENOMEM, "out of memory");
	memcpy(r->policy, hdr + end, extra);
	for (got = extra; got < r->req.length; got += n) {
		n = read_by(c, r->policy + got, r->req.length - got, &deadline);
		if (n <= 0)
			return errf(err, errlen, -EINVAL, "the policy ended after %zu of its %zu bytes "
				    "(within %d s)", got, r->req.length, BROKER_TIMEOUT_S);
	}
	r->policy[r->req.length] = '\0';
	return 0;
}

/* Does @pid see the files the broker sees: its mount namespace and root? */
static bool same_view(pid_t pid)
{
	struct stat mine, theirs;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	if (stat("/proc/self/ns/mnt", &mine) || stat(path, &theirs) || mine.st_ino != theirs.st_ino ||
	    mine.st_dev != theirs.st_dev)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/root", pid);
	return !stat("/", &mine) && !stat(path, &theirs) && mine.st_ino == theirs.st_ino &&
	       mine.st_dev == theirs.st_dev;
}

static int pidfd_pid(int pidfd)
{
	char path[64], line[128];
	FILE *f;
	int pid = -1;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid:\t%d", &pid) == 1)
			break;
	fclose(f);
	return pid;
}

/*
 * Who asked: the requester's cgroup, while its pidfd says it lives; its
 * scope. 0 or -errno.
 */
static int identify(struct request *r, char *err, size_t errlen)
{
	char path[64], line[PATH_MAX], link[64];
	ssize_t n;
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", r->pidfd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0 || (link[n] = '\0', strcmp(link, "anon_inode:[pidfd]")))
		return errf(err, errlen, -EINVAL, "the descriptor sent is no pidfd");
	if (pidfd_pid(r->pidfd) != r->cred.pid || r->cred.pid <= 0)
		return errf(err, errlen, -EPERM, "the pidfd is not the sender's (pid %d)", r->cred.pid);
	if (r->cred.uid != 0)
		return errf(err, errlen, -EPERM, "uid %u: the broker serves root alone", r->cred.uid);
	/*
	 * A policy's paths are resolved as the broker sees them: a requester
	 * that sees other files (a mount namespace or root of its own) would
	 * get rules on files it did not name, and answers about files it
	 * cannot see.
	 */
	if (!same_view(r->cred.pid))
		return errf(err, errlen, -EXDEV, "the requester has a mount namespace or root of "
			    "its own: the broker resolves a policy's paths in the machine's");
	snprintf(path, sizeof(path), "/proc/%d/cgroup", r->cred.pid);
	f = fopen(path, "re");
	if (f) {
		while (!found && fgets(line, sizeof(line), f))
			if (!strncmp(line, "0::/", 4) && strchr(line, '\n')) {
				*strchr(line, '\n') = '\0';
				snprintf(r->cgroup, sizeof(r->cgroup), "%s", line + 3);
				found = 1;
			}
		fclose(f);
	}
	/* alive now, so the pid was its own throughout the read */
	if (syscall(SYS_pidfd_send_signal, r->pidfd, 0, NULL, 0))
		return errf(err, errlen, -ESRCH, "the requester is gone");
	if (!found)
		return errf(err, errlen, -ESRCH, "the requester's cgroup: unreadable");
	/* the store brought up to date first: a followed cgroup made again has its id */
	if (policies_open(true, line, sizeof(line)))
		return errf(err, errlen, -EIO, "the applied policies: %s", line);
	r->scope_id = scope_of(r->cgroup, r->scope, sizeof(r->scope));
	store_close();
	if (!r->scope_id)
		return errf(err, errlen, -EPERM, "%s is in no subtree with self-protection: the root "
			    "outside applies policies with lsmctl itself", r->cgroup);
	if (syscall(SYS_pidfd_send_signal, r->pidfd, 0, NULL, 0))
		return errf(err, errlen, -ESRCH, "the requester is gone");
	return 0;
}

/* Do it: 0, or -errno; what happened in @out. */
static int perform(struct request *r, char *out, size_t outlen)
{
	char target[PATH_MAX], file[64], rel[META_PATH_MAX];
	const char *t = cgroup_path_of(r->req.cgroup_id);
	struct stat st;
	struct apply_opts ao = {
		.backend = BACKEND_GLOBAL, .backend_given = true, .audit = r->req.audit,
		.origin = r->req.name, .delegated_by = r->scope_id,
	};
	struct applied a;
	int fd, rc;

	if (!strcmp(t, "?"))
		return errf(out, outlen, -ENOENT, "no cgroup has id %llu",
			    (unsigned long long)r->req.cgroup_id);
	if (!strcmp(t, r->scope))
		return errf(out, outlen, -EPERM, "self-protection: %s is your subtree's own cgroup, "
			    "whose policy only the root outside changes", t);
	if (!cgroup_under(t, r->scope))
		return errf(out, outlen, -EPERM, "%s is not below your subtree's cgroup %s", t,
			    r->scope);
	snprintf(target, sizeof(target), CGROUP_ROOT "%s", t);
	if (stat(target, &st) || (__u64)st.st_ino != r->req.cgroup_id)
		return errf(out, outlen, -ENOENT, "the cgroup with id %llu was removed",
			    (unsigned long long)r->req.cgroup_id);
	if (r->req.verb == BROKER_DETACH) {
		rc = policy_detach(target, r->scope_id, rel, sizeof(rel), out, outlen);
		return rc ? rc : errf(out, outlen, 0, "detached the policy on %s", rel);
	}
	/* a memfd, which no task can swap or reach by a path of its choosing */
	fd = memfd_create("lsmctl-policy", MFD_CLOEXEC);
	if (fd < 0)
		return errf(out, outlen, -errno, "a file for the policy: %s", strerror(errno));
	snprintf(file, sizeof(file), "/proc/self/fd/%d", fd);
	rc = write(fd, r->policy, r->req.length) == (ssize_t)r->req.length ? 0 : -EIO;
	if (!rc)
		rc = policy_apply(file, target, &ao, &a, out, outlen);
	else
		errf(out, outlen, rc, "writing the policy: %s", strerror(-rc));
	close(fd);
	/* the parser's FILE:LINE:COL names the requester's file, not the broker's copy */
	if (rc && !strncmp(out, file, strlen(file))) {
		char said[BROKER_REPLY_MAX];

		size_t n;

		snprintf(said, sizeof(said), "%s%s", r->req.name, out + strlen(file));
		n = strnlen(said, outlen - 1);
		memcpy(out, said, n);
		out[n] = '\0';
	}
	if (!rc)
		errf(out, outlen, 0, "applied '%s' to %s (global backend, %s, %zu rule(s)) for %s",
		     a.name, a.cgroup, a.audit ? "audit" : "enforce", a.n_rules, r->scope);
	return rc;
}

/* Control bytes (a newline, an escape a message quoted) as '?': a reply is one line of text. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void handle(int c)
{
	struct timeval tv = { .tv_sec = BROKER_TIMEOUT_S };
	struct request r = { .pidfd = -1 };
	char text[BROKER_REPLY_MAX - 32], reply[BROKER_REPLY_MAX];
	int rc;

	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	text[0] = '\0';
	rc = receive(c, &r, text, sizeof(text));
	if (!rc)
		rc = identify(&r, text, sizeof(text));
	if (!rc)
		rc = perform(&r, text, sizeof(text));
	one_line(text);
	if (rc)
		snprintf(reply, sizeof(reply), "error %d %s\n", -rc, text);
	else
		snprintf(reply, sizeof(reply), "ok %s\n", text);
	/* the audit trail: who, from where, what, and the answer */
	fprintf(stderr, "lsmctl serve: pid %d uid %u in %s (scope %s): %s cgroup %llu: %s",
		r.have_cred ? r.cred.pid : -1, r.have_cred ? r.cred.uid : ~0u,
		*r.cgroup ? r.cgroup : "?", *r.scope ? r.scope : "-",
		r.req.verb == BROKER_APPLY ? "apply" : r.req.verb == BROKER_DETACH ? "detach" : "?",
		(unsigned long long)r.req.cgroup_id, reply);
	if (send(c, reply, strlen(reply), MSG_NOSIGNAL) < 0)
		fprintf(stderr, "lsmctl serve: the reply went unsent: %s\n", strerror(errno));
	if (r.pidfd >= 0)
		close(r.pidfd);
	free(r.policy);
}

int broker_serve(const char *path, char *err, size_t errlen)
{
	int lfd = listen_on(path, err, errlen), c;

	if (lfd < 0)
		return lfd;
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "lsmctl serve: listening on %s\n", lfd == 3 ? "systemd's socket" : path);
	for (;;) {
		c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno != EINTR && errno != ECONNABORTED)
				fprintf(stderr, "lsmctl serve: accept: %s\n", strerror(errno));
			continue;
		}
		handle(c);
		close(c);
	}
}

/* The client */

/*
 * Is the task at the other end of @fd a broker: root, in no subtree with
 * self-protection? A confined root that shares the machine's /run could
 * unlink the broker's socket and listen there itself, to answer "ok"
 * and apply nothing.
 */
static int peer_is_broker(int fd, char *reply, size_t len)
{
	char path[64], line[PATH_MAX], scope[PATH_MAX];
	struct ucred peer;
	socklen_t sl = sizeof(peer);
	int found = 0;
	FILE *f;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &sl) || peer.uid != 0)
		return errf(reply, len, -EPERM, "%s is not root's: no broker", broker_socket());
	snprintf(path, sizeof(path), "/proc/%d/cgroup", peer.pid);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "0::/", 4) && strchr(line, '\n');
	if (f)
		fclose(f);
	if (!found)
		return errf(reply, len, -EPERM, "the task at %s (pid %d): its cgroup is unreadable",
			    broker_socket(), peer.pid);
	*strchr(line, '\n') = '\0';
	if (scope_of(line + 3, scope, sizeof(scope)))
		return errf(reply, len, -EPERM, "the task at %s (pid %d) is confined in %s: not a "
			    "broker", broker_socket(), peer.pid, scope);
	return 0;
}

int broker_change(const char *file, const char *cgroup, int audit, char *reply, size_t len)
{
	struct broker_req req = { .verb = file ? BROKER_APPLY : BROKER_DETACH, .audit = audit };
	char rel[PATH_MAX], *policy = NULL;
	const char *base;
	__u32 level;
	size_t n = 0;
	FILE *f;
	int rc;

	rc = cgroup_resolve(cgroup, &req.cgroup_id, &level, rel, sizeof(rel), reply, len);
	if (rc || !file)
		return rc ? rc : broker_ask(&req, NULL, reply, len);
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	snprintf(req.name, sizeof(req.name), "%s", base);
	f = fopen(file, "re");
	policy = malloc(LAB_BROKER_POLICY_MAX + 1);
	if (!f || !policy) {
		rc = errf(reply, len, f ? -ENOMEM : -errno, "%s: %s", file,
			  strerror(f ? ENOMEM : errno));
		goto out;
	}
	n = fread(policy, 1, LAB_BROKER_POLICY_MAX + 1, f);
	if (ferror(f) || !n || n > LAB_BROKER_POLICY_MAX)
		rc = errf(reply, len, -EFBIG, "%s: through the broker a policy file has 1 to %d "
			  "bytes", file, LAB_BROKER_POLICY_MAX);
	else {
		req.length = n;
		rc = broker_ask(&req, policy, reply, len);
	}
out:
	if (f)
		fclose(f);
	free(policy);
	return rc;
}

int broker_ask(const struct broker_req *req, const char *policy, char *reply, size_t len)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cred = { .pid = getpid(), .uid = getuid(), .gid = getgid() };
	struct timeval tv = { .tv_sec = BROKER_APPLY_WAIT_S };
	char hdr[BROKER_HEADER_MAX], *nl;
	struct iovec iov = { .iov_base = hdr };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	size_t sent, got = 0;
	int fd = -1, pidfd = -1, rc, n;

	memset(u.buf, 0, sizeof(u.buf));
	n = broker_format(req, hdr, sizeof(hdr));
	if (n < 0)
		return errf(reply, len, n, "the request does not fit its header");
	iov.iov_len = n;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", broker_socket());
	pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (pidfd < 0 || fd < 0) {
		rc = errf(reply, len, -errno, "a socket and a pidfd: %s", strerror(errno));
		goto out;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		rc = errf(reply, len, -errno, "this lsmctl is in a subtree with self-protection, "
			  "which refuses changes from inside: run it from outside that subtree, or "
			  "start the broker (lsmctl serve) outside; none at %s (%s)", sa.sun_path,
			  strerror(errno));
		goto out;
	}
	rc = peer_is_broker(fd, reply, len);
	if (rc)
		goto out;
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(c), &cred, sizeof(cred));
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pidfd, sizeof(int));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendmsg(fd, &msg, MSG_NOSIGNAL) != n) {
		rc = errf(reply, len, -EIO, "sending the request: %s", strerror(errno));
		goto out;
	}
	for (sent = 0; req->verb == BROKER_APPLY && sent < req->length; sent += n) {
		n = send(fd, policy + sent, req->length - sent, MSG_NOSIGNAL);
		if (n <= 0) {
			rc = errf(reply, len, -EIO, "sending the policy: %s", strerror(errno));
			goto out;
		}
	}
	shutdown(fd, SHUT_WR);
	while (got < len - 1 && (n = read(fd, reply + got, len - 1 - got)) > 0)
		got += n;
	reply[got] = '\0';
	nl = strchr(reply, '\n');
	if (!nl) {
		rc = errf(reply, len, -EIO, "the broker gave no answer");
		goto out;
	}
	*nl = '\0';
	if (!strncmp(reply, "ok ", 3)) {
		memmove(reply, reply + 3, strlen(reply + 3) + 1);
		rc = 0;
	} else if ((rc = 0, sscanf(reply, "error %d %n", &n, &rc) == 1) && n > 0 && rc > 0) {
		memmove(reply, reply + rc, strlen(reply + rc) + 1);
		rc = -n;
	} else {
		rc = errf(reply, len, -EIO, "the broker's answer is not understood");
	}
out:
	if (fd >= 0)
		close(fd);
	if (pidfd >= 0)
		close(pidfd);
	return rc;
}
