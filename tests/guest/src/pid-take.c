// SPDX-License-Identifier: GPL-2.0
/*
 * pid-take PID CMD [ARG...]: start CMD as a task with the pid PID
 * (clone3()'s set_tid: root in the initial pid namespace, PID free), its
 * output to /dev/null, and print its pid. What a confined task gets by
 * forking until the pid of a task that is gone comes round again, at
 * once, for tests of who a pid is.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	pid_t want, pid;

	if (argc < 3) {
		fprintf(stderr, "usage: pid-take PID CMD [ARG...]\n");
		return 2;
	}
	want = (pid_t)atoi(argv[1]);
	args.set_tid = (__u64)(uintptr_t)&want;
	args.set_tid_size = 1;
	pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0) {
		perror("pid-take: clone3");
		return 1;
	}
	if (pid == 0) {
		/* not the caller's stdout: a $(pid-take ...) would wait for CMD */
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0) {
			perror("pid-take: /dev/null");
			_exit(127);
		}
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	printf("%d\n", pid);
	return 0;
}
