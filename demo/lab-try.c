// SPDX-License-Identifier: GPL-2.0
/*
 * lab-try: make one syscall and say how it went, for the demo and for
 * people poking at a policy by hand.
 *
 *   lab-try read FILE          open(O_RDONLY) and read
 *   lab-try connect ADDR PORT  TCP connect (IPv4 or IPv6 address)
 *   lab-try ptrace PID         PTRACE_ATTACH, then detach
 *   lab-try clone-into DIR     clone3(CLONE_INTO_CGROUP) into the cgroup DIR;
 *                              the child prints its /proc/self/cgroup line
 *   lab-try cgroupns CMD...    unshare(CLONE_NEWCGROUP | CLONE_NEWNS), then
 *                              run CMD (busybox's unshare has no -C)
 *
 * Prints "lab-try: WHAT: ok" or the error; exits 0 or with the errno.
 */
#define _GNU_SOURCE	/* unshare() */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <linux/sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int try_read(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
		return errno;
	close(fd);
	return 0;
}

static int try_connect(const char *addr, const char *port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int v6 = strchr(addr, ':') != NULL, fd, rc = 0;

	sin.sin_port = sin6.sin6_port = htons((unsigned short)atoi(port));
	if (inet_pton(v6 ? AF_INET6 : AF_INET, addr,
		      v6 ? (void *)&sin6.sin6_addr : (void *)&sin.sin_addr) != 1)
		return EINVAL;
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return errno;
	if (v6 ? connect(fd, (struct sockaddr *)&sin6, sizeof(sin6)) :
		 connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		rc = errno;
	close(fd);
	return rc;
}

static int try_ptrace(const char *pid_s)
{
	pid_t pid = (pid_t)atoi(pid_s);

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		return errno;
	waitpid(pid, NULL, 0);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 0;
}

static int try_clone_into(const char *dir)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long pid;

	if (fd < 0)
		return errno;
	args.flags = CLONE_INTO_CGROUP;
	args.cgroup = (unsigned int)fd;
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0)
		return errno;
	if (pid == 0) {
		/* where it started: "0::/PATH" */
		char line[256];
		FILE *f = fopen("/proc/self/cgroup", "r");

		if (f && fgets(line, sizeof(line), f))
			printf("lab-try: the child started in %s", line);
		fflush(stdout);
		_exit(0);
	}
	waitpid((pid_t)pid, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	int err;

	if (argc >= 3 && !strcmp(argv[1], "cgroupns")) {
		if (unshare(CLONE_NEWCGROUP | CLONE_NEWNS)) {
			err = errno;
			printf("lab-try: cgroupns: %s\n", strerror(err));
			return err;
		}
		execvp(argv[2], argv + 2);
		err = errno;
		printf("lab-try: cgroupns: exec %s: %s\n", argv[2], strerror(err));
		return err;
	}
	if (argc == 3 && !strcmp(argv[1], "read"))
		err = try_read(argv[2]);
	else if (argc == 4 && !strcmp(argv[1], "connect"))
		err = try_connect(argv[2], argv[3]);
	else if (argc == 3 && !strcmp(argv[1], "ptrace"))
		err = try_ptrace(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "clone-into"))
		err = try_clone_into(argv[2]);
	else {
		fprintf(stderr, "usage: lab-try read FILE | connect ADDR PORT | ptrace PID | "
			"clone-into DIR | cgroupns CMD...\n");
		return 2;
	}
	printf("lab-try: %s %s%s%s: %s\n", argv[1], argv[2], argc == 4 ? " " : "",
	       argc == 4 ? argv[3] : "", err ? strerror(err) : "ok");
	return err;
}
