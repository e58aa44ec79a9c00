// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the fourth review's (issue #24 item 9), kernel interfaces of
 * the machine that a capability reaches without any hook the guard
 * uses: the clock (CAP_SYS_TIME), the machine's host and domain names
 * (CAP_SYS_ADMIN in the initial UTS namespace), the kernel log's
 * console level (syslog(2), CAP_SYSLOG), process accounting for the
 * initial pid namespace (acct(2), CAP_SYS_PACCT), and a page of the
 * page cache that a task outside maps, poisoned (MADV_HWPOISON,
 * CAP_SYS_ADMIN). Each one acts on the machine, not on the subtree,
 * and each attempt sets what it touches to the value it already had
 * (but the poisoned page, which is the test's own file's).
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/shm.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>

#include "escapes.h"

#ifndef MADV_HWPOISON
#define MADV_HWPOISON	100
#endif
#define SYSLOG_ACTION_CONSOLE_LEVEL	8
#define PORT_REUSE	2626	/* a service outside listens here with SO_REUSEPORT */

static int reuse_out = -1;	/* the service's listener, the runner's */

/* clock_settime(CLOCK_REALTIME) to what it reads: the machine's clock. */
static int p_settime(const void *arg)
{
	struct timespec ts;

	(void)arg;
	if (clock_gettime(CLOCK_REALTIME, &ts))
		return BROKEN;
	return clock_settime(CLOCK_REALTIME, &ts) ? errno : 0;
}

/* adjtimex(ADJ_FREQUENCY) to the frequency it reads: the machine's NTP state. */
static int p_adjtimex(const void *arg)
{
	struct timex tx = { 0 };

	(void)arg;
	if (adjtimex(&tx) < 0)
		return BROKEN;
	tx.modes = ADJ_FREQUENCY;
	return adjtimex(&tx) < 0 ? errno : 0;
}

/* sethostname() and setdomainname() to what they are, in the initial UTS namespace. */
static int p_hostname(const void *arg)
{
	char host[65] = "", domain[65] = "";

	(void)arg;
	if (gethostname(host, sizeof(host) - 1) || getdomainname(domain, sizeof(domain) - 1))
		return BROKEN;
	if (sethostname(host, strlen(host)))
		return errno;
	return setdomainname(domain, strlen(domain)) ? errno : 0;
}

/* syslog(SYSLOG_ACTION_CONSOLE_LEVEL) to the level /proc/sys/kernel/printk says. */
static int p_console_level(const void *arg)
{
	char buf[64];
	int level;

	(void)arg;
	if (read_str("/proc/sys/kernel/printk", buf, sizeof(buf)) || sscanf(buf, "%d", &level) != 1)
		return BROKEN;
	return klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, level) ? errno : 0;
}

/*
 * acct(2) on, to a file of the test's, then off: BSD process accounting
 * of the pid namespace, the machine's (every exit outside is written,
 * and acct(NULL) turns off an administrator's accounting).
 */
static int p_acct(const void *arg)
{
	char name[PLEN];
	int err = 0;

	(void)arg;
	snprintf(name, sizeof(name), "/tmp/review4-acct-%d", getpid());
	if (put_str(name, "", 0600))
		return BROKEN;
	if (acct(name))
		err = errno;
	else if (acct(NULL))
		err = errno;
	unlink(name);
	return err;
}

/*
 * madvise(MADV_HWPOISON) on a page of @arg, a tmpfs file that a task
 * outside maps: memory_failure() takes the page cache's page away, and
 * every task that maps it gets SIGBUS at its next touch (on tmpfs and
 * ramfs the page stays poisoned: the file's data is lost). Kernels
 * without CONFIG_MEMORY_FAILURE (lsm) say EINVAL: not in this kernel.
 */
static int p_hwpoison(const void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open(arg, O_RDONLY | O_CLOEXEC), err = 0;
	volatile char *p;

	if (fd < 0)
		return BROKEN;
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return BROKEN;
	(void)p[0];
	if (madvise((void *)p, page, MADV_HWPOISON))
		err = errno == EINVAL ? ENOSYS : errno;
	munmap((void *)p, page);
	return err;
}

/*
 * A task outside (in the root cgroup, as the test runs) that maps @path
 * and touches its first page when it reads a byte from @go: it exits 0,
 * or dies of SIGBUS when the page was poisoned meanwhile.
 */
static pid_t victim(const char *path, int *go)
{
	long page = sysconf(_SC_PAGESIZE);
	int fds[2], ready[2], fd;
	volatile char *p;
	char c;
	pid_t pid;

	if (pipe(fds) || pipe(ready))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[1]);
		close(ready[0]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		p = fd < 0 ? MAP_FAILED : mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			_exit(BROKEN);
		c = p[0];
		if (write(ready[1], &c, 1) != 1 || read(fds[0], &c, 1) != 1)
			_exit(BROKEN);
		c = p[0];	/* SIGBUS here when the page was poisoned */
		_exit(c == 'V' ? 0 : BROKEN);
	}
	close(fds[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		close(fds[1]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(ready[0]);
	*go = fds[1];
	return pid;
}

/* The victim's fate after the poisoning attempt, for the summary. */
static void victim_fate(pid_t pid, int go, const char *who)
{
	char what[160];
	int status;

	if (write(go, "x", 1) != 1)
		tap_note("wake the victim: %s", strerror(errno));
	close(go);
	if (waitpid(pid, &status, 0) < 0)
		return;
	snprintf(what, sizeof(what), "(info) a task outside touching the page %s tried to poison: %s",
		 who, WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS ? "killed by SIGBUS" :
		 WIFEXITED(status) && !WEXITSTATUS(status) ? "read it" : "other end");
	tap_note("%s", what);
	record(what, WIFSIGNALED(status) ? "its page was poisoned" : "unharmed", NULL);
}

/* A fresh tmpfs file of one page of 'V's for a victim: 0 or an errno. */
static int victim_file(char *path, size_t len, const char *tag)
{
	char page[4096];

	snprintf(path, len, "/tmp/review4-%s-%s-%d", tag, lab_backend, getpid());
	memset(page, 'V', sizeof(page) - 1);
	page[sizeof(page) - 1] = '\0';
	return put_str(path, page, 0644);
}

static void test_hwpoison(const char *m)
{
	char ctl_file[PLEN], atk_file[PLEN];
	int go_ctl = -1, go_atk = -1, rc;
	pid_t v_ctl, v_atk;
	const char *what = "madvise(MADV_HWPOISON) on a tmpfs page a task outside maps";

	if (victim_file(ctl_file, sizeof(ctl_file), "ctl") ||
	    victim_file(atk_file, sizeof(atk_file), "atk")) {
		skip(what, "could not make the victims' files in /tmp");
		return;
	}
	v_ctl = victim(ctl_file, &go_ctl);
	v_atk = victim(atk_file, &go_atk);
	if (v_ctl < 0 || v_atk < 0) {
		skip(what, "could not start the victims");
		goto out;
	}
	rc = control(cg.ctl, what, p_hwpoison, ctl_file);
	victim_fate(v_ctl, go_ctl, "the control");
	v_ctl = -1;
	if (rc == ENOSYS) {
		record(what, "skipped (EINVAL: no CONFIG_MEMORY_FAILURE)", NULL);
		goto out;
	}
	attempt(m, HOLD, false, what,
		"memory_failure(): SIGBUS to every task outside that maps the page, the "
		"tmpfs file's data lost (capable(CAP_SYS_ADMIN) from madvise, no other hook)",
		p_hwpoison, atk_file);
	victim_fate(v_atk, go_atk, "the confined task");
	v_atk = -1;
out:
	if (v_ctl > 0) {
		close(go_ctl);
		kill(v_ctl, SIGKILL);
		waitpid(v_ctl, NULL, 0);
	}
	if (v_atk > 0) {
		close(go_atk);
		kill(v_atk, SIGKILL);
		waitpid(v_atk, NULL, 0);
	}
	unlink(ctl_file);
	unlink(atk_file);
}

/* A TCP listener on 127.0.0.1:PORT_REUSE with SO_REUSEPORT, or -1. */
static int reuse_listener(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT_REUSE);
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 16)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Join the reuseport group of the service outside (same port, same uid
 * 0, SO_REUSEPORT), steer the group to itself with a classic BPF
 * program (SO_ATTACH_REUSEPORT_CBPF: no bpf() call, so the guard's bpf
 * hook never sees it), then connect as any client would: 0 when its
 * own listener took the connection meant for the service.
 */
static int p_reuseport(const void *arg)
{
	struct sock_filter code[] = { BPF_STMT(BPF_RET | BPF_K, 1) };	/* the group's 2nd */
	struct sock_fprog prog = { .len = 1, .filter = code };
	struct sockaddr_storage ss;
	socklen_t len;
	int l, err = 0;

	(void)arg;
	close(reuse_out);	/* inherited from the runner: not the task's to use */
	l = reuse_listener();
	if (l < 0)
		return errno;
	if (setsockopt(l, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof(prog))) {
		err = errno;
		goto out;
	}
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT_REUSE);
	err = listener_takes(l, (struct sockaddr *)&ss, len);
out:
	close(l);
	return err;
}

/* The connections the service outside got meanwhile, accepted and closed. */
static void reuse_drain(void)
{
	int fd;

	while ((fd = accept4(reuse_out, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(fd);
}

static void test_reuseport(const char *m)
{
	const char *what = "bind to a service outside's port with SO_REUSEPORT, steer its "
			   "connections to itself (SO_ATTACH_REUSEPORT_CBPF)";

	reuse_out = reuse_listener();
	if (reuse_out < 0) {
		skip(what, "no listener of the service's on 127.0.0.1:2626");
		return;
	}
	attempt(m, HOLD, true, what,
		"a reuseport group is shared with the socket outside: every connection to "
		"the service (its clients' data, credentials) reaches the subtree; the "
		"policy has no bind rule on the port, and none would name the group",
		p_reuseport, NULL);
	reuse_drain();
	close(reuse_out);
	reuse_out = -1;
}

/*
 * A SysV shared memory segment of a task outside (mode 0600, root's):
 * attached and read from inside: refused, the segment was made outside.
 * Of the lab's kernels only Debian's has CONFIG_SYSVIPC, so this runs
 * there (self-protection's own test, sp-probe, tries IPC_RMID and a
 * queue too). @arg: the segment's id.
 */
static int p_shm(const void *arg)
{
	int id = *(const int *)arg;
	const char *p = shmat(id, NULL, SHM_RDONLY);
	int err;

	if (p == (void *)-1)
		return errno;
	err = strncmp(p, "OUTSIDE", 7) ? BROKEN : 0;
	shmdt(p);
	return err;
}

static void test_sysv(const char *m)
{
	const char *what = "shmat() a SysV segment of a task outside (mode 0600), read it";
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	char *p;

	if (id < 0) {
		skip(what, errno == ENOSYS ? "not in this kernel (ENOSYS: no CONFIG_SYSVIPC)" :
			   "shmget() outside failed");
		return;
	}
	p = shmat(id, NULL, 0);
	if (p != (void *)-1) {
		strcpy(p, "OUTSIDE");
		shmdt(p);
	}
	attempt_errno(m, HOLD, EACCES, true, what,
		"SysV IPC of the machine's IPC namespace: only objects made inside are the "
		"subtree's (the guard's ipc_permission; ipcperms() answers EACCES). Debian's "
		"kernel has it; stock and lsm do not", p_shm, &id);
	shmctl(id, IPC_RMID, NULL);
}

/*
 * SCHED_FIFO for itself (CAP_SYS_NICE): a real-time task is not held by
 * its cgroup's cpu.max or cpu.weight (no RT_GROUP_SCHED), only by the
 * machine's RT throttle (95% of each CPU by default), so a busy loop
 * takes the machine's CPUs from every task outside. Set, then back.
 */
static int p_sched_fifo(const void *arg)
{
	struct sched_param sp = { .sched_priority = 1 }, none = { 0 };

	(void)arg;
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		return errno;
	sched_setscheduler(0, SCHED_OTHER, &none);
	return 0;
}

/*
 * A task outside in a mount namespace of its own (a container's, or a
 * service's with its private mounts), entered by a pidfd: pidfd_open()
 * asks no ptrace check, and setns() with a pidfd none either
 * (/proc/PID/ns/ of the same task is refused by the guard's
 * ptrace_access_check). 0 when the task sees the outsider's private
 * mount after it.
 */
#define NS_DIR		"/tmp/review4-ns"
#define NS_MARK		NS_DIR "/outside-mark"
static pid_t ns_holder = -1;

static int p_setns_pidfd(const void *arg)
{
	int fd = syscall(SYS_pidfd_open, ns_holder, 0);

	(void)arg;
	if (fd < 0)
		return errno;
	if (setns(fd, CLONE_NEWNS))
		return errno;
	close(fd);
	return access(NS_MARK, F_OK) ? BROKEN : 0;
}

static void test_setns_pidfd(const char *m)
{
	const char *what = "setns() by pidfd into a task outside's mount namespace";
	int ready[2];
	char c;

	if (pipe(ready) || (mkdir(NS_DIR, 0755) && errno != EEXIST))
		return;
	fflush(NULL);
	ns_holder = fork();
	if (ns_holder == 0) {
		close(ready[0]);
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("review4", NS_DIR, "tmpfs", 0, "mode=0755") || put_str(NS_MARK, "", 0644))
			_exit(BROKEN);
		if (write(ready[1], "r", 1) != 1)
			_exit(BROKEN);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (ns_holder < 0 || read(ready[0], &c, 1) != 1) {
		skip(what, "could not start the task outside");
	} else {
		attempt(m, HOLD, true, what,
			"the namespaces of a task outside are objects outside: a container's "
			"or a service's mounts (files no rule names, read-only binds left "
			"behind), by the same door its UTS, IPC, pid and network namespaces "
			"(no LSM hook at setns in 6.1; pidfd_open asks no ptrace check)",
			p_setns_pidfd, NULL);
	}
	close(ready[0]);
	if (ns_holder > 0) {
		kill(ns_holder, SIGKILL);
		waitpid(ns_holder, NULL, 0);
	}
	ns_holder = -1;
	rmdir(NS_DIR);
}

void test_review4(void)
{
	const char *m = cg.main;

	tap_note("--- the machine's kernel interfaces a capability reaches (review 4)");
	attempt(m, HOLD, true, "clock_settime(CLOCK_REALTIME): the machine's clock",
		"CAP_SYS_TIME: every task outside runs on this clock (TLS, Kerberos, cron, "
		"logs, timeouts); the settime hook", p_settime, NULL);
	attempt(m, HOLD, true, "adjtimex(ADJ_FREQUENCY): the machine's clock discipline",
		"CAP_SYS_TIME: the settime hook", p_adjtimex, NULL);
	attempt(m, HOLD, true, "sethostname() and setdomainname() in the initial UTS namespace",
		"CAP_SYS_ADMIN on the machine's names (logs, mail, Kerberos, cluster membership)",
		p_hostname, NULL);
	attempt(m, HOLD, true, "syslog(SYSLOG_ACTION_CONSOLE_LEVEL): the machine's console",
		"CAP_SYSLOG: console level, on and off, and clearing the kernel's log are "
		"the machine's; the syslog hook", p_console_level, NULL);
	attempt(m, HOLD, true, "acct(): process accounting of the initial pid namespace",
		"CAP_SYS_PACCT: every exit outside written to a file of the subtree's, "
		"acct(NULL) turns the machine's accounting off (no hook for off)", p_acct, NULL);
	attempt(m, HOLD, true, "sched_setscheduler(SCHED_FIFO) on itself",
		"CAP_SYS_NICE is the machine's: real-time tasks escape the cgroup's cpu.max "
		"and cpu.weight, a busy loop takes 95% of each CPU from every task outside",
		p_sched_fifo, NULL);
	test_hwpoison(m);
	test_reuseport(m);
	test_sysv(m);
	test_setns_pidfd(m);
}
