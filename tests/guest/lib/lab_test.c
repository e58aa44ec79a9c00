// SPDX-License-Identifier: GPL-2.0
/* The guest tests' one library: see lab_test.h. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <time.h>

#include "lab_test.h"

/* Seconds before a hung command is killed (x10 on the debug kernel). */
#define CMD_TIMEOUT	60

const char *tap_prefix = "";
const char *lab_backend = "cgroup";
bool lab_reduced;
static int tap_failed;

/* --- TAP ----------------------------------------------------------------- */

void tap_result(int pass, const char *fmt, ...)
{
	va_list ap;

	printf("%s - %s", pass ? "ok" : "not ok", tap_prefix);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!pass)
		tap_failed++;
}

void tap_note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void tap_note_lines(const char *prefix, const char *text)
{
	const char *nl;

	while (*text) {
		nl = strchrnul(text, '\n');
		tap_note("%s: %.*s", prefix, (int)(nl - text), text);
		text = *nl ? nl + 1 : nl;
	}
}

int tap_exit(void)
{
	return tap_failed ? 1 : 0;
}

/* --- errno and files ----------------------------------------------------- */

const char *errname(int err)
{
	static char buf[48];

	if (err < 0 || err == LAB_BROKEN) {
		snprintf(buf, sizeof(buf), "could not try, status %d", err);
		return buf;
	}
	switch (err) {
	case 0: return "success";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case ENOEXEC: return "ENOEXEC";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOSYS: return "ENOSYS";
	default: return strerror(err);
	}
}

int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

int write_str(const char *path, const char *s)
{
	return write_file(path, s, strlen(s));
}

int read_str(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	return 0;
}

/* The whole of @fd from its start: a malloc()ed buffer, or NULL. */
static void *slurp_fd(int fd, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;

	do {
		if (n == cap) {
			char *p = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!p) {
				free(buf);
				return NULL;
			}
			buf = p;
		}
		r = pread(fd, buf + n, cap - n, n);
		if (r > 0)
			n += r;
	} while (r > 0);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

void *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *buf;

	if (fd < 0)
		return NULL;
	buf = slurp_fd(fd, len);
	close(fd);
	return buf;
}

int try_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int put_file(const char *path, const void *buf, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, buf, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	return err;
}

int put_str(const char *path, const char *s, mode_t mode)
{
	return put_file(path, s, strlen(s), mode);
}

int copy_file(const char *from, const char *to, mode_t mode)
{
	size_t len;
	void *buf = slurp(from, &len);
	int err;

	if (!buf)
		return errno ? errno : EIO;
	err = put_file(to, buf, len, mode);
	free(buf);
	return err;
}

int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return errno;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].permitted &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].inheritable &= ~CAP_TO_MASK(cap);
	if (syscall(SYS_capset, &hdr, data))
		return errno;
	return 0;
}

void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* --- children ------------------------------------------------------------ */

int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int in_child(int (*fn)(const void *), const void *arg)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(fn(arg));
	return wait_child(pid);
}

int run(char *const argv[])
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(255);
	}
	return wait_child(pid);
}

/* --- cgroups ------------------------------------------------------------- */

void cg_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, CGROUP_ROOT "/%s", name);
}

int cgroup_make(const char *name)
{
	char path[256];

	cg_path(path, sizeof(path), name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	return open(path, O_RDONLY | O_DIRECTORY);
}

int cgroup_enter(const char *name)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), CGROUP_ROOT "/%s/cgroup.procs", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", getpid()) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

int cgroup_run(const char *name, int (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 255;
	if (pid == 0)
		_exit(cgroup_enter(name) ? 255 : fn());
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

int cgroup_remove(const char *name)
{
	char path[256];
	int i;

	cg_path(path, sizeof(path), name);
	for (i = 0; i < 20; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		sleep_ms(100);
	}
	tap_note("rmdir %s: %s", path, strerror(errno));
	return -1;
}

int cgroups_make(const char *const names[], size_t n)
{
	size_t i;
	int fd;

	for (i = 0; i < n; i++) {
		fd = cgroup_make(names[i]);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

int cgroups_remove(const char *const names[], size_t n)
{
	size_t i;
	int left = 0;

	for (i = 0; i < n; i++)
		left += cgroup_remove(names[i]) ? 1 : 0;
	return left;
}

/* --- probes, expectations, controls --------------------------------------- */

void (*probe_before)(void);
void (*probe_after)(void);

/* Fork the probe and wait for it: its status. */
static int probe_child(const char *name, probe_fn fn, const void *arg, pid_t *pidp)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return LAB_BROKEN;
	if (pid == 0) {
		alarm(LAB_PROBE_TIMEOUT);
		_exit(cgroup_enter(name) ? LAB_BROKEN : fn(arg));
	}
	if (pidp)
		*pidp = pid;
	if (waitpid(pid, &status, 0) != pid)
		return LAB_BROKEN;
	if (WIFSIGNALED(status)) {
		tap_note("the probe died of signal %d", WTERMSIG(status));
		return LAB_BROKEN;
	}
	return WEXITSTATUS(status);
}

int probe_pid(const char *name, probe_fn fn, const void *arg, pid_t *pidp)
{
	int rc;

	if (probe_before)
		probe_before();
	rc = probe_child(name, fn, arg, pidp);
	if (probe_after)
		probe_after();
	return rc;
}

bool outcome_is(int rc, int want)
{
	if (want == LAB_NOT_EPERM)
		return rc >= 0 && rc < LAB_BROKEN && rc != EPERM;
	return rc == want;
}

const char *outcome_name(int want)
{
	static char buf[64];

	switch (want) {
	case 0: return "succeeds";
	case LAB_NOT_EPERM: return "does not fail with EPERM";
	default:
		snprintf(buf, sizeof(buf), "fails with %s", errname(want));
		return buf;
	}
}

static const char *cg_label(const char *name)
{
	return *name ? name : "the root cgroup";
}

int expect_errno_pid(const char *name, int want, const char *what, probe_fn fn,
		     const void *arg, pid_t *pidp)
{
	int rc = probe_pid(name, fn, arg, pidp);

	tap_result(outcome_is(rc, want), "%s in %s %s (got %s)", what, cg_label(name),
		   outcome_name(want), errname(rc));
	return rc;
}

int expect_errno(const char *name, int want, const char *what, probe_fn fn, const void *arg)
{
	return expect_errno_pid(name, want, what, fn, arg, NULL);
}

int control(const char *ctl, const char *what, probe_fn fn, const void *arg)
{
	int rc = probe_pid(ctl, fn, arg, NULL);

	if (rc == ENOSYS)
		tap_result(1, "%s # SKIP not in this kernel (ENOSYS)", what);
	else
		tap_result(rc == 0, "control: %s works from the sibling cgroup %s (got %s)",
			   what, ctl, errname(rc));
	return rc;
}

void expect_path(const char *name, const char *ctl, const char *what, int inside, probe_fn fn,
		 const void *arg)
{
	expect_errno(name, inside, what, fn, arg);
	control(ctl, what, fn, arg);
}

int probe_read(const void *path)
{
	return try_open(path);
}

const char evil_script[] = "#!" BUSYBOX " sh\nexit 42\n";

int run_evil(const char *path)
{
	char *const argv[] = { "tool", NULL };
	pid_t pid = fork();
	int status;

	_Static_assert(LAB_EVIL_STATUS == 42, "evil_script's exit status");
	if (pid < 0)
		return errno;
	if (!pid) {
		execv(path, argv);
		_exit(errno > 0 && errno < LAB_EVIL_STATUS ? errno : 99);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return EIO;
	if (WEXITSTATUS(status) == LAB_EVIL_STATUS)
		return 0;
	return WEXITSTATUS(status) && WEXITSTATUS(status) < LAB_EVIL_STATUS ?
	       WEXITSTATUS(status) : EIO;
}

/* --- lsmctl --------------------------------------------------------------- */

/* Point @fd at @to, or at /dev/null when @to is -1. */
static int redirect(int fd, int to)
{
	int nfd = to >= 0 ? to : open("/dev/null", O_RDWR);

	if (nfd < 0 || dup2(nfd, fd) < 0)
		return -1;
	return 0;
}

/* A memfd's text into @buf, without the trailing newlines. */
static void read_memfd(int fd, char *buf, size_t size)
{
	size_t len = 0;
	char *text = slurp_fd(fd, &len);

	if (!text)
		len = 0;
	if (len >= size)
		len = size - 1;
	if (text)
		memcpy(buf, text, len);
	while (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	free(text);
	close(fd);
}

int cmd_start(struct lab_cmd *c, const char *const argv[])
{
	const char *variant = getenv("LAB_VARIANT");

	c->status = -1;
	c->out[0] = c->err[0] = '\0';
	c->out_fd = memfd_create("lab-out", MFD_CLOEXEC);
	c->err_fd = memfd_create("lab-err", MFD_CLOEXEC);
	fflush(NULL);
	c->pid = c->out_fd < 0 || c->err_fd < 0 ? -1 : fork();
	if (c->pid != 0)
		return c->pid < 0 ? -1 : 0;
	/* the debug kernel verifies programs under KASAN and lockdep: far slower */
	alarm(variant && !strcmp(variant, "debug") ? 10 * CMD_TIMEOUT : CMD_TIMEOUT);
	if (redirect(STDIN_FILENO, -1) || redirect(STDOUT_FILENO, c->out_fd) ||
	    redirect(STDERR_FILENO, c->err_fd))
		_exit(127);
	execv(argv[0], (char *const *)argv);
	_exit(127);
}

int cmd_wait(struct lab_cmd *c)
{
	c->status = c->pid < 0 ? -1 : wait_child(c->pid);
	if (c->out_fd >= 0)
		read_memfd(c->out_fd, c->out, sizeof(c->out));
	if (c->err_fd >= 0)
		read_memfd(c->err_fd, c->err, sizeof(c->err));
	return c->status;
}

int run_cmd(struct lab_cmd *c, const char *const argv[])
{
	cmd_start(c, argv);
	return cmd_wait(c);
}

int lsmctl(struct lab_cmd *c, ...)
{
	const char *argv[24];
	va_list ap;
	int n = 0;

	argv[n++] = LSMCTL;
	va_start(ap, c);
	while (n < 23 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return run_cmd(c, argv);
}

void note_cmd(const struct lab_cmd *c)
{
	tap_note_lines("stdout", c->out);
	tap_note_lines("stderr", c->err);
}

int write_policy(struct lab_policy *p, const char *dir, const char *prefix,
		 const char *short_name, const char *fmt, ...)
{
	va_list ap;
	FILE *fp;
	int ok;

	snprintf(p->name, sizeof(p->name), "%s-%s-%s", prefix, lab_backend, short_name);
	snprintf(p->path, sizeof(p->path), "%s/%s.yaml", dir, short_name);
	fp = fopen(p->path, "w");
	if (!fp)
		return -1;
	fprintf(fp, "name: %s\n", p->name);
	va_start(ap, fmt);
	ok = vfprintf(fp, fmt, ap) > 0;
	va_end(ap);
	ok = !fflush(fp) && !fsync(fileno(fp)) && ok;
	return (fclose(fp) == 0 && ok) ? 0 : -1;
}

int lsmctl_apply(struct lab_cmd *c, const struct lab_policy *p, const char *cgroup)
{
	char path[256];

	cg_path(path, sizeof(path), cgroup);
	return lsmctl(c, "apply", p->path, "--cgroup", path, "--backend", lab_backend, NULL);
}

int lsmctl_detach(struct lab_cmd *c, const char *cgroup)
{
	char path[256];

	cg_path(path, sizeof(path), cgroup);
	return lsmctl(c, "detach", "--cgroup", path, NULL);
}

void apply_tap(const struct lab_policy *p, const char *cgroup)
{
	struct lab_cmd c;

	lsmctl_apply(&c, p, cgroup);
	tap_result(c.status == 0, "lsmctl apply %s to %s (status %d)", p->name, cgroup, c.status);
	if (c.status)
		note_cmd(&c);
}

void detach_tap(const char *cgroup)
{
	struct lab_cmd c;

	lsmctl_detach(&c, cgroup);
	tap_result(c.status == 0, "lsmctl detach %s (status %d)", cgroup, c.status);
}

/* --- the backend, a fixture variant ---------------------------------------- */

bool lab_series(void)
{
	const char *series = getenv("LAB_SERIES");

	return !series || strcmp(series, "0");
}

static const char *const backends[] = { "cgroup", "global" };

/* Run @suite on backend @b in a child: whether it passed. */
static bool run_one(const char *b, int (*suite)(void))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		tap_result(0, "fork for the %s backend: %s", b, strerror(errno));
		return false;
	}
	if (pid == 0) {
		lab_backend = b;
		lab_reduced = !strcmp(b, "cgroup") && !lab_series();
		tap_prefix = strcmp(b, "cgroup") ? "global: " : "";
		tap_note("backend %s", b);
		exit(suite());
	}
	status = wait_child(pid);
	if (status == 0 || status == 1)
		return status == 0;
	tap_result(0, "the %s backend's run ended with status %d", b, status);
	return false;
}

/* Is backend @b in @list (lab.backends=, "cgroup,global"), or is there no list? */
static bool boot_runs(const char *list, const char *b)
{
	size_t n = strlen(b);
	const char *p;

	if (!list)
		return true;
	for (p = list; (p = strstr(p, b)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

int run_backends(int argc, char **argv, const char *name, int (*suite)(void))
{
	const char *boot_backends = getenv("LAB_BACKENDS");
	const char *only = NULL;
	bool ok = true;
	size_t i;

	if (argc == 3 && !strcmp(argv[1], "--backend"))
		only = argv[2];
	else if (argc == 2 && !strncmp(argv[1], "--backend=", 10))
		only = argv[1] + 10;
	if (argc > 1 && (!only || (strcmp(only, "cgroup") && strcmp(only, "global")))) {
		tap_result(0, "usage: %s [--backend cgroup|global]", name);
		return 1;
	}
	if (!only && boot_backends)
		tap_note("the backends this boot runs: %s", boot_backends);
	for (i = 0; i < ARRAY_SIZE(backends); i++)
		if (only ? !strcmp(only, backends[i]) : boot_runs(boot_backends, backends[i]))
			ok = run_one(backends[i], suite) && ok;
	return ok ? 0 : 1;
}
