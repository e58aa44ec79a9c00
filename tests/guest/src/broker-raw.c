// SPDX-License-Identifier: GPL-2.0
/*
 * broker-raw: send the bytes on stdin to the broker (lsmctl serve) at
 * SOCKET as one request, the way HOW says, and print its reply: what
 * lsmctl would never send, for lsmctl-broker's hostile requests.
 *
 *   broker-raw SOCKET ok        SCM_CREDENTIALS and this process's pidfd
 *   broker-raw SOCKET nofd      SCM_CREDENTIALS alone
 *   broker-raw SOCKET twofds    SCM_CREDENTIALS and two pidfds of its own
 *   broker-raw SOCKET otherpid  SCM_CREDENTIALS and a pidfd of pid 1
 *   broker-raw SOCKET gone      a pidfd of a child that has exited, the
 *                               credentials its own
 *   broker-raw SOCKET slow      ok's, then nothing: the broker must give up
 *   broker-raw SOCKET ownns     ok's, from a user and mount namespace of its
 *                               own (root mapped to root: no mount made)
 *
 * Exits 0 when a reply came, 1 when none did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* Write @text to the file @path; 0 or -1. */
static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int rc = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;

	if (fd >= 0)
		close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cred = { .pid = getpid(), .uid = getuid(), .gid = getgid() };
	static char data[1 << 20];
	struct iovec iov = { .iov_base = data };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf };
	struct cmsghdr *c;
	const char *how = argc == 3 ? argv[2] : "";
	int fds[2] = { -1, -1 }, nfds = 1, fd;
	size_t len = 0;
	ssize_t n;
	char reply[4096];
	pid_t child;

	if (argc != 3) {
		fprintf(stderr, "usage: broker-raw SOCKET ok|nofd|twofds|otherpid|gone|slow|ownns\n");
		return 2;
	}
	while (len < sizeof(data) && (n = read(0, data + len, sizeof(data) - len)) > 0)
		len += n;
	iov.iov_len = len;
	if (!strcmp(how, "ownns") &&
	    (unshare(CLONE_NEWUSER | CLONE_NEWNS) || put("/proc/self/setgroups", "deny") ||
	     put("/proc/self/uid_map", "0 0 1") || put("/proc/self/gid_map", "0 0 1"))) {
		printf("broker-raw: a namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	fds[0] = syscall(SYS_pidfd_open, getpid(), 0);
	if (!strcmp(how, "nofd")) {
		nfds = 0;
	} else if (!strcmp(how, "twofds")) {
		fds[1] = syscall(SYS_pidfd_open, getpid(), 0);
		nfds = 2;
	} else if (!strcmp(how, "otherpid")) {
		fds[0] = syscall(SYS_pidfd_open, 1, 0);
	} else if (!strcmp(how, "gone")) {
		child = fork();
		if (!child)
			_exit(0);
		fds[0] = syscall(SYS_pidfd_open, child, 0);
		waitpid(child, NULL, 0);
		cred.pid = getpid();
	}
	memset(u.buf, 0, sizeof(u.buf));
	msg.msg_controllen = CMSG_SPACE(sizeof(cred)) + (nfds ? CMSG_SPACE(nfds * sizeof(int)) : 0);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(c), &cred, sizeof(cred));
	if (nfds) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    sendmsg(fd, &msg, MSG_NOSIGNAL) < 0) {
		printf("broker-raw: %s\n", strerror(errno));
		return 1;
	}
	if (strcmp(how, "slow"))
		shutdown(fd, SHUT_WR);
	n = read(fd, reply, sizeof(reply) - 1);
	if (n <= 0) {
		printf("broker-raw: no reply\n");
		return 1;
	}
	reply[n] = '\0';
	printf("%s", reply);
	return 0;
}
