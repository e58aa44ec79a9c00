// SPDX-License-Identifier: GPL-2.0
/*
 * ns-own: run a command in namespaces of its own, the ways a container
 * runtime and an adversary make them, for mounts-inside.
 *
 *   ns-own user [-C] -- CMD...   a user and mount namespace of its own
 *                                (root mapped to root), with -C a cgroup
 *                                namespace too; CMD runs as its root
 *   ns-own root [-C] -- CMD...   the same namespaces, made by a child;
 *                                CMD joins the mount namespace (setns) and
 *                                runs with the caller's credentials (root
 *                                of the machine's user namespace)
 *   ns-own plain -- CMD...       a mount namespace alone (unshare -m
 *                                with no mount made)
 *   ns-own join NSFILE -- CMD... the mount namespace NSFILE names (setns)
 *   ns-own fdprop                in a user and mount namespace of its own,
 *                                make the machine's root mount shared
 *                                through a descriptor opened before
 *   ns-own detached-send SOCK    a detached tmpfs mount (fsopen(), fsmount())
 *                                sent to the listener at SOCK
 *   ns-own attach SOCK DIR       in a user and mount namespace of its own,
 *                                take a descriptor on SOCK and attach the
 *                                mount it names on DIR with mount(MS_MOVE)
 *   ns-own umountroot DIR        chroot into DIR, then unmount its root
 *                                (which remounts its filesystem read-only)
 *   ns-own rooted CGROUP -- CMD... in a mount namespace whose root is a
 *                                bind of the machine's, as a real root
 *                                filesystem is (pivot_root cannot leave
 *                                an initramfs), made before CMD joins
 *                                CGROUP: set up outside any policy
 *
 * Exits with CMD's status, or 1 and a message naming the errno when a
 * step fails (fdprop: 0 when the mount call succeeded).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab_test.h"

static int fail(const char *what)
{
	printf("ns-own: %s: %s\n", what, strerror(errno));
	return 1;
}

/* A user namespace (root mapped to root) and a mount namespace, with @more. */
static int own(int more)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | more))
		return fail("unshare");
	errno = write_str("/proc/self/setgroups", "deny") ?:
		write_str("/proc/self/uid_map", "0 0 1") ?: write_str("/proc/self/gid_map", "0 0 1");
	if (errno)
		return fail("map root");
	return 0;
}

static int exec_cmd(char **cmd)
{
	execvp(cmd[0], cmd);
	return fail(cmd[0]);
}

/* Join @ns_fd's mount namespace, then run @cmd. */
static int join(int ns_fd, char **cmd)
{
	if (setns(ns_fd, CLONE_NEWNS))
		return fail("setns");
	close(ns_fd);
	if (chdir("/"))
		return fail("chdir");
	return exec_cmd(cmd);
}

/* The namespaces made by a child; @cmd joins its mount namespace as the caller. */
static int root(int more, char **cmd)
{
	int ready[2], done[2], ns_fd;
	char path[64], c = 0;
	pid_t child;

	if (pipe(ready) || pipe(done))
		return fail("pipe");
	child = fork();
	if (child < 0)
		return fail("fork");
	if (!child) {
		close(ready[0]);
		close(done[1]);
		if (own(more))
			_exit(1);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		(void)!read(done[0], &c, 1);	/* until the parent is in */
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(child, NULL, 0);
		printf("ns-own: the child made no namespace\n");
		return 1;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", child);
	ns_fd = open(path, O_RDONLY);
	if (ns_fd < 0)
		return fail(path);
	close(done[1]);
	waitpid(child, NULL, 0);
	return join(ns_fd, cmd);
}

/*
 * A descriptor of the machine's root mount, opened before the namespace
 * is made, names a mount outside it: made shared, what is mounted below
 * it anywhere would propagate to its peers.
 */
static int fdprop(void)
{
	int fd = open("/", O_PATH);
	char path[64];

	if (fd < 0)
		return fail("open /");
	if (own(0))
		return 1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (mount(NULL, path, NULL, MS_SHARED, NULL))
		return fail("mount --make-shared through the descriptor");
	printf("ns-own: the machine's root mount made shared\n");
	return 0;
}

#define ROOTED_DIR	"/ns-own-root"

/* A mount namespace rooted at a mount; then into @cgroup, and run @cmd. */
static int rooted(const char *cgroup, char **cmd)
{
	char path[4096], pid[16];

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail("a mount namespace");
	if ((mkdir(ROOTED_DIR, 0755) && errno != EEXIST) ||
	    mount("/", ROOTED_DIR, NULL, MS_BIND | MS_REC, NULL) || chdir(ROOTED_DIR) ||
	    mount(".", "/", NULL, MS_MOVE, NULL) || chroot(".") || chdir("/"))
		return fail("a root of its own");
	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
	snprintf(pid, sizeof(pid), "%d", getpid());
	errno = write_str(path, pid);
	if (errno)
		return fail(path);
	return exec_cmd(cmd);
}

#define FSCONFIG_CMD_CREATE	6

/* A unix socket address for @path. */
static socklen_t sock_addr(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof(sa->sun_path), "%s", path);
	return sizeof(*sa);
}

static int detached_send(const char *path)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = { .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct iovec iov = { .iov_base = "m", .iov_len = 1 };
	struct sockaddr_un sa;
	struct cmsghdr *c;
	int fs, mnt, sock, i;

	fs = syscall(SYS_fsopen, "tmpfs", 0);
	if (fs < 0 || syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		return fail("fsopen tmpfs");
	mnt = syscall(SYS_fsmount, fs, 0, 0);
	if (mnt < 0)
		return fail("fsmount");
	sock = socket(AF_UNIX, SOCK_STREAM, 0);
	for (i = 0; i < 50; i++) {
		if (!connect(sock, (struct sockaddr *)&sa, sock_addr(&sa, path)))
			break;
		usleep(100000);
	}
	if (i == 50)
		return fail(path);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &mnt, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : fail("sendmsg");
}

static int attach(const char *path, const char *dir)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	char byte, fd_path[64];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct sockaddr_un sa;
	struct cmsghdr *c;
	int sock, conn, fd;

	if (own(0))
		return 1;
	unlink(path);
	sock = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(sock, (struct sockaddr *)&sa, sock_addr(&sa, path)) || listen(sock, 1))
		return fail(path);
	conn = accept(sock, NULL, NULL);
	if (conn < 0 || recvmsg(conn, &msg, 0) != 1)
		return fail("recvmsg");
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS || (msg.msg_flags & MSG_CTRUNC)) {
		/* file_receive refused it: the kernel drops it and truncates */
		errno = EPERM;
		return fail("the descriptor");
	}
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", fd);
	if (mount(fd_path, dir, NULL, MS_MOVE, NULL))
		return fail("mount --move of the detached mount");
	printf("ns-own: a detached mount attached on %s\n", dir);
	return 0;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	int more = 0, i = 2, fd;

	if (i < argc && !strcmp(argv[i], "-C")) {
		more = CLONE_NEWCGROUP;
		i++;
	}
	if ((!strcmp(how, "join") || !strcmp(how, "rooted")) && i < argc)
		i++;	/* NSFILE, CGROUP */
	if (!strcmp(how, "fdprop"))
		return fdprop();
	if (!strcmp(how, "detached-send") && argc == 3)
		return detached_send(argv[2]);
	if (!strcmp(how, "attach") && argc == 4)
		return attach(argv[2], argv[3]);
	if (!strcmp(how, "umountroot") && argc == 3) {
		if (chroot(argv[2]) || chdir("/"))
			return fail("chroot");
		return umount2("/", 0) ? fail("umount2 /") : 0;
	}
	if (i + 1 >= argc || strcmp(argv[i], "--")) {
		fprintf(stderr, "usage: ns-own user|root [-C] -- CMD..., ns-own plain -- CMD..., "
			"ns-own join NSFILE -- CMD..., ns-own rooted CGROUP -- CMD..., ns-own fdprop, "
			"ns-own umountroot DIR, ns-own detached-send SOCK, ns-own attach SOCK DIR\n");
		return 2;
	}
	if (!strcmp(how, "user"))
		return own(more) ?: exec_cmd(argv + i + 1);
	if (!strcmp(how, "root"))
		return root(more, argv + i + 1);
	if (!strcmp(how, "plain"))
		return unshare(CLONE_NEWNS) ? fail("unshare") : exec_cmd(argv + i + 1);
	if (!strcmp(how, "rooted"))
		return rooted(argv[2], argv + i + 1);
	if (!strcmp(how, "join")) {
		fd = open(argv[2], O_RDONLY);
		return fd < 0 ? fail(argv[2]) : join(fd, argv + i + 1);
	}
	fprintf(stderr, "ns-own: no way %s\n", how);
	return 2;
}
