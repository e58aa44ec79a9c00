// SPDX-License-Identifier: GPL-2.0
/*
 * opbench: per-operation cost of syscalls that cross LSM hooks.
 *
 *   opbench [-n ITERS] [-r REPS] [-w WORKLOAD[,+]WORKLOAD...] [-l]
 *
 * Each workload runs ITERS operations per repetition after a warm-up,
 * REPS times, and prints one CSV line:
 *
 *   opbench,WORKLOAD,ITERS,REPS,MIN,MEDIAN,MAX     (ns per operation)
 *
 * Booted with the runner's instruction-counting mode (-icount shift=0),
 * one guest nanosecond is one guest instruction, so the figures read as
 * instructions per operation. Many short repetitions keep most of them
 * clear of timer ticks: the minimum and median are then exact and equal
 * from boot to boot, and the maximum shows what a tick (and the RCU work
 * it runs) adds.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPS 101
#define BENCH_FILE "/tmp/opbench.file"

struct workload {
	const char *name;
	const char *what;
	int (*op)(void);
};

static int pipefd[2];

static int op_open_close(void)
{
	int fd = open(BENCH_FILE, O_RDONLY);

	return fd < 0 ? -1 : close(fd);
}

static int op_stat(void)
{
	struct stat st;

	return stat(BENCH_FILE, &st);
}

static int bench_fd = -1;

static int op_pread(void)
{
	char c;

	return pread(bench_fd, &c, 1, 0) == 1 ? 0 : -1;
}

static int op_pipe(void)
{
	char c = 'x';

	if (write(pipefd[1], &c, 1) != 1)
		return -1;
	return read(pipefd[0], &c, 1) == 1 ? 0 : -1;
}

static int op_socket_close(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	return fd < 0 ? -1 : close(fd);
}

static int op_eventfd(void)
{
	int fd = eventfd(0, 0);

	return fd < 0 ? -1 : close(fd);
}

static int op_fork_wait(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(0);
	return waitpid(pid, &status, 0) == pid ? 0 : -1;
}

static char self_exe[256];

static int op_execve(void)
{
	char *argv[] = { self_exe, "--exit", NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(self_exe, argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int op_mmap(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, bench_fd, 0);

	return p == MAP_FAILED ? -1 : munmap(p, 4096);
}

static int op_create_unlink(void)
{
	int fd = open("/tmp/opbench.new", O_CREAT | O_EXCL | O_WRONLY, 0644);

	if (fd < 0 || close(fd))
		return -1;
	return unlink("/tmp/opbench.new");
}

static int listen_fd = -1;
static struct sockaddr_in listen_addr;

static int op_tcp_connect(void)
{
	int c = socket(AF_INET, SOCK_STREAM, 0), a;

	if (c < 0)
		return -1;
	if (connect(c, (struct sockaddr *)&listen_addr, sizeof(listen_addr))) {
		close(c);
		return -1;
	}
	a = accept(listen_fd, NULL, NULL);
	close(c);
	return a < 0 ? -1 : close(a);
}

static int ping[2], pong[2];

static int op_pingpong(void)
{
	char c = 'x';

	if (write(ping[1], &c, 1) != 1)
		return -1;
	return read(pong[0], &c, 1) == 1 ? 0 : -1;
}

static const struct workload workloads[] = {
	{ "open_close", "open+close of an existing file", op_open_close },
	{ "stat", "stat of an existing file", op_stat },
	{ "pread", "1-byte pread", op_pread },
	{ "pipe", "1-byte pipe write+read", op_pipe },
	{ "socket_close", "socket(AF_INET, SOCK_STREAM)+close", op_socket_close },
	{ "eventfd", "eventfd create+close", op_eventfd },
	{ "mmap", "mmap+munmap of a file page", op_mmap },
	{ "create_unlink", "file create+close+unlink on tmpfs", op_create_unlink },
	{ "tcp_connect", "loopback TCP connect+accept+close", op_tcp_connect },
	{ "pingpong", "1-byte pipe ping-pong with another process", op_pingpong },
	{ "fork_wait", "fork+exit+wait", op_fork_wait },
	{ "execve", "fork+execve of a static binary+wait", op_execve },
};

#define N_WORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int setup(void)
{
	int fd = open(BENCH_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
		return -1;
	bench_fd = open(BENCH_FILE, O_RDONLY);
	if (bench_fd < 0 || pipe(pipefd))
		return -1;
	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0)
		return -1;
	/* What an interrupted run of op_create_unlink() left behind. */
	unlink("/tmp/opbench.new");
	return 0;
}

/* The loopback listener and the ping-pong partner, only when needed. */
static int setup_tcp(void)
{
	socklen_t len = sizeof(listen_addr);

	listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	listen_addr.sin_family = AF_INET;
	listen_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (listen_fd < 0 ||
	    bind(listen_fd, (struct sockaddr *)&listen_addr, sizeof(listen_addr)) ||
	    listen(listen_fd, 16) ||
	    getsockname(listen_fd, (struct sockaddr *)&listen_addr, &len))
		return -1;
	return 0;
}

static int setup_pingpong(void)
{
	char c;

	if (pipe(ping) || pipe(pong))
		return -1;
	if (fork() == 0) {
		/* Only the parent's end of ping may keep this loop alive. */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	return 0;
}

static int run(const struct workload *w, long iters, int reps)
{
	double per_op[MAX_REPS];
	long i;
	int r;

	for (i = 0; i < iters / 10 + 1; i++) {
		if (w->op()) {
			fprintf(stderr, "opbench: %s: %s\n", w->name, strerror(errno));
			return -1;
		}
	}
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		for (i = 0; i < iters; i++)
			w->op();
		per_op[r] = (now_ns() - t0) / (double)iters;
	}
	qsort(per_op, reps, sizeof(per_op[0]), cmp_double);
	printf("opbench,%s,%ld,%d,%.1f,%.1f,%.1f\n", w->name, iters, reps,
	       per_op[0], per_op[reps / 2], per_op[reps - 1]);
	fflush(stdout);
	return 0;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: opbench [-n ITERS] [-r REPS] [-w WORKLOAD[,...]] [-l]\n"
		   "  -n ITERS   operations per repetition (default 200)\n"
		   "  -r REPS    repetitions, 1..%d (default 21)\n"
		   "  -w LIST    workloads to run, separated by , or + (default all)\n"
		   "  -l         list the workloads\n"
		   "output: opbench,WORKLOAD,ITERS,REPS,MIN,MEDIAN,MAX (ns/op)\n"
		   "workloads:", MAX_REPS);
	for (i = 0; i < N_WORKLOADS; i++)
		fprintf(f, " %s", workloads[i].name);
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	long iters = 200;
	int reps = 21, opt, failed = 0;
	size_t i;

	/* op_execve's child: the cheapest exit of a static binary. */
	if (argc == 2 && !strcmp(argv[1], "--exit"))
		return 0;
	while ((opt = getopt(argc, argv, "n:r:w:lh")) != -1) {
		switch (opt) {
		case 'n':
			iters = strtol(optarg, NULL, 10);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'w':
			only = optarg;
			break;
		case 'l':
			for (i = 0; i < N_WORKLOADS; i++)
				printf("%-14s %s\n", workloads[i].name, workloads[i].what);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (iters < 1 || reps < 1 || reps > MAX_REPS) {
		usage(stderr);
		return 2;
	}
	if (setup() || setup_tcp() || setup_pingpong()) {
		fprintf(stderr, "opbench: setup: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < N_WORKLOADS; i++) {
		char key[64];

		snprintf(key, sizeof(key), ",%s,", workloads[i].name);
		if (only) {
			char list[512], *p;

			/* + separates too: lab.run= turns commas into spaces. */
			snprintf(list, sizeof(list), ",%s,", only);
			for (p = list; *p; p++)
				if (*p == '+')
					*p = ',';
			if (!strstr(list, key))
				continue;
		}
		failed |= run(&workloads[i], iters, reps) != 0;
	}
	return failed;
}
