// SPDX-License-Identifier: GPL-2.0
/*
 * opbench: per-operation cost of syscalls that cross LSM hooks.
 *
 *   opbench [-n ITERS] [-r REPS] [-w WORKLOAD[,+]WORKLOAD...] [-l]
 *           [--landlock-read PATH] [--landlock-exec PATH]
 *   opbench [--landlock-...] --try read PATH | exec PATH | connect ADDR PORT | ptrace
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
 *
 * --landlock-read and --landlock-exec put opbench in a Landlock domain
 * (applied by the process itself after its setup, before the workloads
 * and the ping-pong partner start) that denies reading, or executing,
 * PATH and allows both everywhere else: Landlock rules only grant, so
 * the ruleset grants the access beneath every entry of PATH's ancestor
 * directories but the one leading to PATH. The benchmark's equivalent
 * rule set for Landlock (bench/policies/README.md).
 *
 * --try makes one operation that a benchmark policy denies and exits
 * with its errno (0: allowed), for bench/guest/setup.sh to check that
 * the policy is in force in the measured process's context. It drops
 * CAP_MAC_OVERRIDE and CAP_SYS_PTRACE first, which let root past Smack
 * and Yama; the measured runs keep every capability.
 */
#define _GNU_SOURCE /* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
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

/*
 * The file the bench's policies deny reading (bench/guest/setup.sh): a
 * denial where a policy confines the task, an open+close elsewhere.
 */
#define DENIED_FILE "/tmp/bench-secret"

static int op_open_denied(void)
{
	int fd = open(DENIED_FILE, O_RDONLY);

	if (fd >= 0)
		return close(fd);
	return errno == EPERM || errno == EACCES ? 0 : -1;
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
	{ "open_denied", "open of the policies' denied file (+close where allowed)", op_open_denied },
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
	/* open_denied's file, where no configuration made it (setup.sh labels its own) */
	fd = open(DENIED_FILE, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0)
		close(fd);
	else if (errno != EEXIST)
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

/* Landlock: deny reading or executing a few paths, allow them elsewhere. */
#define LL_MAX_DENY 4

struct ll_deny {
	char path[PATH_MAX];
	__u64 access;	/* what is denied on it */
};

static struct ll_deny ll_deny[LL_MAX_DENY];
static int ll_n;
static __u64 ll_handled;

static int ll_add_deny(const char *path, __u64 access)
{
	if (ll_n == LL_MAX_DENY) {
		fprintf(stderr, "opbench: at most %d Landlock paths\n", LL_MAX_DENY);
		return -1;
	}
	if (!realpath(path, ll_deny[ll_n].path)) {
		fprintf(stderr, "opbench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ll_deny[ll_n++].access = access;
	ll_handled |= access;
	return 0;
}

static int ll_add_rule(int ruleset, const char *path, __u64 access)
{
	struct landlock_path_beneath_attr rule = { .allowed_access = access };
	struct stat st;
	int err = 0;

	rule.parent_fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (rule.parent_fd < 0)
		return -1;
	/* A symbolic link's target has its own entry, or is denied. */
	if (fstat(rule.parent_fd, &st) ||
	    (!S_ISLNK(st.st_mode) &&
	     syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0)))
		err = -1;
	if (err)
		fprintf(stderr, "opbench: landlock rule on %s: %s\n", path, strerror(errno));
	close(rule.parent_fd);
	return err;
}

/*
 * Grant the handled accesses beneath every entry of @dir, less what is
 * denied on a denied path itself, and recurse into the entries that
 * lead to a denied path instead of granting anything beneath them.
 */
static int ll_grant_all_but(int ruleset, const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);
	int i, err = 0;

	if (!d) {
		fprintf(stderr, "opbench: opendir %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while (!err && (e = readdir(d))) {
		__u64 access = ll_handled;
		size_t len;
		int ancestor = 0;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
		len = strlen(path);
		for (i = 0; i < ll_n; i++) {
			if (!strcmp(path, ll_deny[i].path))
				access &= ~ll_deny[i].access;
			else if (!strncmp(path, ll_deny[i].path, len) && ll_deny[i].path[len] == '/')
				ancestor = 1;
		}
		if (ancestor)
			err = ll_grant_all_but(ruleset, path);
		else if (access)
			err = ll_add_rule(ruleset, path, access);
	}
	closedir(d);
	return err;
}

static int landlock_apply(void)
{
	struct {
		__u64 handled_access_fs;
	} attr = { .handled_access_fs = ll_handled };	/* Landlock ABI v1 */
	int ruleset, err;

	if (!ll_n)
		return 0;
	ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0) {
		fprintf(stderr, "opbench: landlock_create_ruleset: %s\n", strerror(errno));
		return -1;
	}
	err = ll_grant_all_but(ruleset, "/");
	if (!err && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		     syscall(SYS_landlock_restrict_self, ruleset, 0))) {
		fprintf(stderr, "opbench: landlock_restrict_self: %s\n", strerror(errno));
		err = -1;
	}
	close(ruleset);
	return err;
}

/* --try: one operation a benchmark policy denies; its errno, 0 if allowed. */
static int drop_caps(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	static const int caps[] = { CAP_MAC_OVERRIDE, CAP_SYS_PTRACE };
	size_t i;

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		data[caps[i] / 32].effective &= ~(1u << (caps[i] % 32));
		data[caps[i] / 32].permitted &= ~(1u << (caps[i] % 32));
	}
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

static int try_ptrace(void)
{
	int err = 0;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0) {
		pause();
		_exit(0);
	}
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		err = errno;
	else
		waitpid(pid, NULL, 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return err;
}

static int try_op(int argc, char **argv)
{
	const char *what = argc > 0 ? argv[0] : "";
	char buf[16];
	int fd, err = 0;

	if (drop_caps()) {
		fprintf(stderr, "opbench: drop capabilities: %s\n", strerror(errno));
		return 255;
	}
	if (!strcmp(what, "read") && argc == 2) {
		fd = open(argv[1], O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			err = errno;
		if (fd >= 0)
			close(fd);
	} else if (!strcmp(what, "exec") && argc == 2) {
		char *args[] = { argv[1], "--exit", NULL };

		/* The binary is a copy of opbench: run, it exits 0. */
		fflush(stdout);
		execv(argv[1], args);
		err = errno;
	} else if (!strcmp(what, "connect") && argc == 3) {
		struct sockaddr_in sin = { .sin_family = AF_INET };

		sin.sin_port = htons((unsigned short)atoi(argv[2]));
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (inet_pton(AF_INET, argv[1], &sin.sin_addr) != 1)
			err = EINVAL;
		else if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			err = errno;
		if (fd >= 0)
			close(fd);
	} else if (!strcmp(what, "ptrace") && argc == 1) {
		err = try_ptrace();
	} else {
		fprintf(stderr, "opbench: --try read PATH | exec PATH | connect ADDR PORT | ptrace\n");
		return 2;
	}
	printf("opbench: try");
	for (fd = 0; fd < argc; fd++)
		printf(" %s", argv[fd]);
	printf(": %s\n", err ? strerror(err) : "allowed");
	return err;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: opbench [-n ITERS] [-r REPS] [-w WORKLOAD[,...]] [-l] [LANDLOCK]\n"
		   "       opbench [LANDLOCK] --try read PATH | exec PATH | connect ADDR PORT | ptrace\n"
		   "  -n ITERS   operations per repetition (default 200)\n"
		   "  -r REPS    repetitions, 1..%d (default 21)\n"
		   "  -w LIST    workloads to run, separated by , or + (default all)\n"
		   "  -l         list the workloads\n"
		   "  --landlock-read PATH, --landlock-exec PATH\n"
		   "             run in a Landlock domain that denies reading (executing)\n"
		   "             PATH and allows it everywhere else\n"
		   "  --try ...  make one operation, exit with its errno (0: allowed)\n"
		   "output: opbench,WORKLOAD,ITERS,REPS,MIN,MEDIAN,MAX (ns/op)\n"
		   "workloads:", MAX_REPS);
	for (i = 0; i < N_WORKLOADS; i++)
		fprintf(f, " %s", workloads[i].name);
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "landlock-read", required_argument, NULL, 'R' },
		{ "landlock-exec", required_argument, NULL, 'X' },
		{ "try", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *only = NULL;
	long iters = 200;
	int reps = 21, opt, failed = 0, try = 0;
	size_t i;

	/* op_execve's child: the cheapest exit of a static binary. */
	if (argc == 2 && !strcmp(argv[1], "--exit"))
		return 0;
	while ((opt = getopt_long(argc, argv, "n:r:w:lh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'R':
		case 'X':
			if (ll_add_deny(optarg, opt == 'R' ? LANDLOCK_ACCESS_FS_READ_FILE :
					LANDLOCK_ACCESS_FS_EXECUTE))
				return 2;
			break;
		case 'T':
			try = 1;
			break;
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
	if (try) {
		if (landlock_apply())
			return 255;
		return try_op(argc - optind, argv + optind);
	}
	if (iters < 1 || reps < 1 || reps > MAX_REPS || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (setup() || landlock_apply() || setup_tcp() || setup_pingpong()) {
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
