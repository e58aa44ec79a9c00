// SPDX-License-Identifier: GPL-2.0
/*
 * opbench: per-operation cost of syscalls that cross LSM hooks.
 *
 *   opbench [-n ITERS] [-r REPS] [-w WORKLOAD[,WORKLOAD...]] [-l]
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
#include <sys/socket.h>
#include <sys/stat.h>
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

static const struct workload workloads[] = {
	{ "open_close", "open+close of an existing file", op_open_close },
	{ "stat", "stat of an existing file", op_stat },
	{ "pread", "1-byte pread", op_pread },
	{ "pipe", "1-byte pipe write+read", op_pipe },
	{ "socket_close", "socket(AF_INET, SOCK_STREAM)+close", op_socket_close },
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
		   "  -w LIST    workloads to run (default all)\n"
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
	if (setup()) {
		fprintf(stderr, "opbench: setup: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < N_WORKLOADS; i++) {
		char key[64];

		snprintf(key, sizeof(key), ",%s,", workloads[i].name);
		if (only) {
			char list[512];

			snprintf(list, sizeof(list), ",%s,", only);
			if (!strstr(list, key))
				continue;
		}
		failed |= run(&workloads[i], iters, reps) != 0;
	}
	return failed;
}
