// SPDX-License-Identifier: GPL-2.0
/*
 * lsmctl's policies, end to end. Each rule kind makes its syscall fail
 * with EPERM in the cgroup the policy is applied to and in that cgroup's
 * children, while a sibling cgroup and the root cgroup are untouched.
 * Then the policy's life: audit mode, the events stream, nesting, an
 * apply that fails and leaves the old policy enforcing, replacement,
 * detach, list and show, and lsmctl run.
 *
 *   policy-rules [--backend cgroup|global]
 *
 * Without --backend it runs once on each lab_backend, cgroup then global
 * (the global run's lines start "global: ").
 *
 * lsmctl (/lab/bin/lsmctl) is driven as a subprocess. Every probe runs
 * in a child that first joins a cgroup, then exits with the errno of
 * the syscall it tried (0: it succeeded, 255: the probe itself broke).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <time.h>

#include "lab_test.h"

#define TARGET_TIMEOUT	4	/* a probe's own sleeping child ends by then */
#define EVENTS_TIMEOUT	"5"	/* lsmctl events --timeout */

/* Ports: the YAML below spells them out, keep the two in step. */
#define PORT_SMTP	25	/* connect: denied by the main policy */
#define PORT_OPEN	41100	/* connect: allowed */
#define PORT_DENIED	41005	/* bind: inside the denied 41000-41009 */
#define PORT_PAST	41010	/* bind: just past it */
#define PORT_HTTP	80	/* bind: needs CAP_NET_BIND_SERVICE */

/* Buffer sizes: a name, a path built from one, a path built from that. */
#define NLEN 64
#define PLEN 128
#define BLEN 256

static char comm[16];		/* ours, which the probes inherit */
static pid_t root_sleeper;	/* a task in the root cgroup to signal */
static int listen_smtp = -1, listen_open = -1;

/*
 * Cgroups, relative to CGROUP_ROOT, named after the backend so that the
 * two runs in one boot never meet. "" is the root cgroup.
 */
static struct {
	char a[NLEN], child[PLEN], late[PLEN], b[NLEN];	/* the main policy on a */
	char ev[NLEN], audit[NLEN], allow[NLEN];
	char nest[NLEN], inner[PLEN], swap[NLEN];
} cg;

/* The files the rules name, on a tmpfs of the test's own. */
static struct {
	char dir[NLEN], policies[PLEN];
	char secret[PLEN], ro[PLEN], fresh[PLEN];
	char nocreate[PLEN], created[PLEN];
	char nounlink[PLEN], victim[PLEN];
	char priv[PLEN], priv_other[PLEN], priv_public[PLEN];
	char shared[PLEN], shared_file[PLEN], shared_hidden[PLEN];
	char bin[PLEN], exe[PLEN], mnt[PLEN], garbage[PLEN];
} f;

/* Policy files (DIR/policies/NAME.yaml) and their names (pr-BACKEND-NAME). */
static struct {
	struct lab_policy main, bad, ev, audit, allow, nest, inner;
	struct lab_policy deny_read, deny_write, missing, run;
} pol;

/* --- small helpers ----------------------------------------------------- */

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/*
 * Does @text name @word on its own: not as a part of a longer name, nor
 * as a parent directory (pr-x-a, but not pr-x-audit or pr-x-a/child)?
 */
static bool mentions(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word)) {
		if (p > text && is_word_char(p[-1]))
			continue;
		if (is_word_char(p[n]) || p[n] == '/')
			continue;
		return true;
	}
	return false;
}

/* Does @err hold "@file:LINE:COL:"? */
static bool has_location(const char *err, const char *file)
{
	unsigned int line, col;
	const char *p;
	int n;

	for (p = strstr(err, file); p; p = strstr(p + 1, file)) {
		n = 0;
		if (sscanf(p + strlen(file), ":%u:%u:%n", &line, &col, &n) == 2 && n > 0)
			return true;
	}
	return false;
}

/* A child that sleeps until it is killed, or for @secs. */
static pid_t fork_sleeper(unsigned int secs)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		alarm(secs);
		for (;;)
			pause();
	}
	return pid;
}

/* Kill and reap a child, a tracee of ours too. */
static void reap(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	while (waitpid(pid, &status, __WALL) == pid)
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
}

/* --- policies ------------------------------------------------------------ */

static int apply(const struct lab_policy *p, const char *name)
{
	struct lab_cmd c;

	return lsmctl_apply(&c, p, name);
}

/* Apply, as a TAP line of its own: whether it worked. */
static bool apply_ok(const struct lab_policy *p, const char *name)
{
	struct lab_cmd c;

	lsmctl_apply(&c, p, name);
	tap_result(c.status == 0, "lsmctl apply %s to %s (status %d)", p->name, name, c.status);
	if (c.status)
		note_cmd(&c);
	return c.status == 0;
}

static int detach(const char *name)
{
	struct lab_cmd c;

	return lsmctl_detach(&c, name);
}

/* One rule of each kind; the probes below show each one at work. */
static int write_main_policy(void)
{
	char create_unlink[512] = "";
	const char *mount_module = lab_reduced ? "" : "  - mount: deny\n  - module_load: deny\n";

	if (!lab_reduced)
		snprintf(create_unlink, sizeof(create_unlink),
			 "  - files: %1$s/nocreate/**\n"
			 "    access: create\n"
			 "    action: deny\n"
			 "  - files: %1$s/nounlink/**\n"
			 "    access: unlink\n"
			 "    action: deny\n", f.dir);
	return write_policy(&pol.main, f.policies, "pr", "main",
		"mode: enforce\n"
		"default: allow\n"
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/ro\n"
		"    access: write\n"
		"    action: deny\n"
		"%2$s"
		/* the most specific rule wins, both ways */
		"  - files: %1$s/private/**\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/private/public\n"
		"    access: read\n"
		"    action: allow\n"
		"  - files: %1$s/private/shared/**\n"
		"    access: read\n"
		"    action: allow\n"
		"  - files: %1$s/private/shared/hidden\n"
		"    access: read\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/busybox\n"
		"    action: deny\n"
		"  - network: socket\n"
		"    family: inet6\n"
		"    type: dgram\n"
		"    action: deny\n"
		/* tcp: its binds are TCP's, and no sctp_bind_connect (10 hooks on Debian's) */
		"  - network: bind\n"
		"    family: inet\n"
		"    protocol: tcp\n"
		"    cidr: 127.0.0.1/32\n"
		"    ports: 41000-41009\n"
		"    action: deny\n"
		"  - network: connect\n"
		"    family: inet\n"
		"    protocol: tcp\n"
		"    ports: 25\n"
		"    action: deny\n"
		"  - ptrace: deny\n"
		"%3$s"
		"  - signal: deny\n"
		"  - capability: [net_raw]\n"
		"    action: deny\n",
		f.dir, create_unlink, mount_module);
}

/* Two rules whose indices the events must name: 0 and 1. */
static int write_event_policies(void)
{
	return write_policy(&pol.ev, f.policies, "pr", "ev",
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n"
		"  - network: connect\n"
		"    family: inet\n"
		"    protocol: tcp\n"
		"    ports: 25\n"
		"    action: deny\n",
		f.dir) ||
	       write_policy(&pol.audit, f.policies, "pr", "audit",
		"mode: audit\n"
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n",
		f.dir);
}

static int write_other_policies(void)
{
	return write_policy(&pol.bad, f.policies, "pr", "bad",
		"rules:\n"
		"  - files: [%1$s/secret\n"
		"    action: deny\n",
		f.dir) ||
	       /* an exec allow-list: default deny holds for exec alone */
	       write_policy(&pol.allow, f.policies, "pr", "allow",
		"default: deny\n"
		"rules:\n"
		"  - exec: /bin/**\n"
		"    action: allow\n") ||
	       write_policy(&pol.nest, f.policies, "pr", "nest",
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n",
		f.dir) ||
	       write_policy(&pol.inner, f.policies, "pr", "inner",
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: allow\n"
		"  - files: %1$s/ro\n"
		"    access: write\n"
		"    action: deny\n",
		f.dir) ||
	       write_policy(&pol.deny_read, f.policies, "pr", "deny-read",
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n",
		f.dir) ||
	       write_policy(&pol.deny_write, f.policies, "pr", "deny-write",
		"rules:\n"
		"  - files: %1$s/ro\n"
		"    access: write\n"
		"    action: deny\n",
		f.dir) ||
	       /* valid YAML, but its second path's directory does not exist */
	       write_policy(&pol.missing, f.policies, "pr", "missing",
		"rules:\n"
		"  - files: %1$s/ro\n"
		"    access: write\n"
		"    action: deny\n"
		"  - files: %1$s/no-such-dir/does-not-exist\n"
		"    access: read\n"
		"    action: deny\n",
		f.dir) ||
	       write_policy(&pol.run, f.policies, "pr", "run",
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n",
		f.dir);
}

/* --- setup --------------------------------------------------------------- */

static void make_names(void)
{
	const char *d = f.dir;

	snprintf(cg.a, sizeof(cg.a), "pr-%s-a", lab_backend);
	snprintf(cg.child, sizeof(cg.child), "%s/child", cg.a);
	snprintf(cg.late, sizeof(cg.late), "%s/late", cg.a);
	snprintf(cg.b, sizeof(cg.b), "pr-%s-b", lab_backend);
	snprintf(cg.ev, sizeof(cg.ev), "pr-%s-ev", lab_backend);
	snprintf(cg.audit, sizeof(cg.audit), "pr-%s-audit", lab_backend);
	snprintf(cg.allow, sizeof(cg.allow), "pr-%s-allow", lab_backend);
	snprintf(cg.nest, sizeof(cg.nest), "pr-%s-nest", lab_backend);
	snprintf(cg.inner, sizeof(cg.inner), "%s/inner", cg.nest);
	snprintf(cg.swap, sizeof(cg.swap), "pr-%s-swap", lab_backend);

	snprintf(f.dir, sizeof(f.dir), "/tmp/pr-%s", lab_backend);
	snprintf(f.policies, sizeof(f.policies), "%s/policies", d);
	snprintf(f.secret, sizeof(f.secret), "%s/secret", d);
	snprintf(f.ro, sizeof(f.ro), "%s/ro", d);
	snprintf(f.fresh, sizeof(f.fresh), "%s/fresh", d);
	snprintf(f.nocreate, sizeof(f.nocreate), "%s/nocreate", d);
	snprintf(f.created, sizeof(f.created), "%s/nocreate/new", d);
	snprintf(f.nounlink, sizeof(f.nounlink), "%s/nounlink", d);
	snprintf(f.victim, sizeof(f.victim), "%s/nounlink/victim", d);
	snprintf(f.priv, sizeof(f.priv), "%s/private", d);
	snprintf(f.priv_other, sizeof(f.priv_other), "%s/private/other", d);
	snprintf(f.priv_public, sizeof(f.priv_public), "%s/private/public", d);
	snprintf(f.shared, sizeof(f.shared), "%s/private/shared", d);
	snprintf(f.shared_file, sizeof(f.shared_file), "%s/private/shared/inner", d);
	snprintf(f.shared_hidden, sizeof(f.shared_hidden), "%s/private/shared/hidden", d);
	snprintf(f.bin, sizeof(f.bin), "%s/bin", d);
	snprintf(f.exe, sizeof(f.exe), "%s/bin/busybox", d);
	snprintf(f.mnt, sizeof(f.mnt), "%s/mnt", d);
	snprintf(f.garbage, sizeof(f.garbage), "%s/garbage.ko", d);
}

/* A tmpfs at DIR with every file and directory the policies name. */
static int prepare_files(void)
{
	static const char secret[] = "lab-secret\n";
	static const char *const dirs[] = { f.policies, f.nocreate, f.nounlink, f.priv,
					    f.shared, f.bin, f.mnt };
	static const char *const files[] = { f.ro, f.victim, f.priv_other, f.priv_public,
					     f.shared_file, f.shared_hidden };
	char garbage[256];
	size_t i;
	int err;

	if ((mkdir(f.dir, 0755) && errno != EEXIST) ||
	    mount("pr-tmpfs", f.dir, "tmpfs", 0, "mode=0755"))
		return -1;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755))
			return -1;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		err = make_file(files[i]);
		if (err)
			goto fail;
	}
	memset(garbage, 0x5a, sizeof(garbage));
	err = put_file(f.secret, secret, sizeof(secret) - 1, 0644);
	if (!err)
		err = put_file(f.garbage, garbage, sizeof(garbage), 0644);
	if (!err)
		err = copy_file(BUSYBOX, f.exe, 0755);
	if (!err)
		return 0;
fail:
	errno = err;
	return -1;
}

/* A TCP listener on 127.0.0.1:@port, or -1. */
static int listen_on(int port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 64)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The task outside every test cgroup that probes signal, and the listeners. */
static int start_helpers(void)
{
	root_sleeper = fork_sleeper(900);
	listen_smtp = listen_on(PORT_SMTP);
	listen_open = listen_on(PORT_OPEN);
	return root_sleeper > 0 && listen_smtp >= 0 && listen_open >= 0 ? 0 : -1;
}

/* --- probes: each returns the errno of what it tried, 0 for success ------- */


static int probe_write(const void *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Create @path, which must not exist, and remove it again. */
static int probe_create(const void *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return unlink(path) ? errno : 0;
}

/* Unlink @path; put it back when that worked, for the next probe. */
static int probe_unlink(const void *path)
{
	if (unlink(path))
		return errno;
	return make_file(path);
}

/* Rename a new file over @path, replacing it (which removes it). */
static int probe_rename_over(const void *path)
{
	int err = make_file(f.fresh);

	if (err)
		return err;
	if (rename(f.fresh, path)) {
		err = errno;
		unlink(f.fresh);
	}
	return err;
}

/*
 * Run @path as busybox's true: execve's errno, or true's status (0).
 * bprm_check_security() runs before exec's point of no return, so a
 * denial comes back as execve()'s error.
 */
static int probe_exec(const void *path)
{
	char *const argv[] = { "true", NULL };

	execv(path, argv);
	return errno;
}

struct sock_kind {
	int family, type, protocol;
};

static int probe_socket(const void *arg)
{
	const struct sock_kind *k = arg;
	int fd = socket(k->family, k->type, k->protocol);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

struct endpoint {
	const char *addr;
	int port;
};

static int fill_sin(struct sockaddr_in *sin, const struct endpoint *ep)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(ep->port);
	return inet_pton(AF_INET, ep->addr, &sin->sin_addr) == 1 ? 0 : -1;
}

static int probe_bind(const void *arg)
{
	struct sockaddr_in sin;
	int one = 1, err = 0, fd;

	if (fill_sin(&sin, arg))
		return 255;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return 255;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		err = errno;
	close(fd);
	return err;
}

static int probe_connect(const void *arg)
{
	struct sockaddr_in sin;
	int err = 0, fd;

	if (fill_sin(&sin, arg))
		return 255;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return 255;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		err = errno;
	close(fd);
	return err;
}

/*
 * PTRACE_ATTACH or PTRACE_SEIZE (@arg) a sleeping child of our own. A
 * child, so that Yama's ptrace_scope=1 (when Yama is on the lsm= line)
 * allows it outside the policy; the engine's rule denies every attach.
 */
static int probe_ptrace(const void *arg)
{
	int req = *(const int *)arg, err = 0;
	pid_t target = fork_sleeper(TARGET_TIMEOUT);

	if (target < 0)
		return 255;
	if (ptrace(req, target, NULL, NULL))
		err = errno;
	reap(target);	/* the same cgroup: the signal rule allows this */
	return err;
}

/* Yama (scope 1) lets any child ask its parent to trace it. */
static int probe_traceme(const void *arg)
{
	(void)arg;
	return ptrace(PTRACE_TRACEME, 0, NULL, NULL) ? errno : 0;
}

static int probe_mount(const void *dir)
{
	if (mount("pr-probe", dir, "tmpfs", 0, "size=64k"))
		return errno;
	return umount(dir) ? errno : 0;
}

/*
 * init_module() of garbage. It must be at least an ELF header long:
 * 6.1's copy_module_from_user() fails shorter buffers with ENOEXEC
 * before it calls security_kernel_load_data(). Past the hook, the
 * garbage fails ELF validation with ENOEXEC (the lab's kernels have no
 * CONFIG_MODULE_SIG, whose check would come first).
 */
static int probe_init_module(const void *arg)
{
	char garbage[256];

	(void)arg;
	memset(garbage, 0x5a, sizeof(garbage));
	return syscall(SYS_init_module, garbage, sizeof(garbage), "") ? errno : 0;
}

/* finit_module() of a garbage file: security_kernel_read_file() first. */
static int probe_finit_module(const void *path)
{
	int err = 0, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 255;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = errno;
	close(fd);
	return err;
}

/* Send @arg (a signal number) to the task in the root cgroup. */
static int probe_kill_root(const void *arg)
{
	return kill(root_sleeper, *(const int *)arg) ? errno : 0;
}

/* Signal a child of our own, which lives in the same cgroup. */
static int probe_kill_own_child(const void *arg)
{
	pid_t target = fork_sleeper(TARGET_TIMEOUT);
	int err;

	(void)arg;
	if (target < 0)
		return 255;
	err = kill(target, SIGTERM) ? errno : 0;
	reap(target);	/* if SIGTERM was refused, its alarm ends it */
	return err;
}

/*
 * @what fails with EPERM under the main policy (cgroup a) and in a's
 * child, and has outcome @outside in the sibling b and the root cgroup.
 */
static void expect_confined(const char *what, probe_fn fn, const void *arg, int outside)
{
	expect_errno(cg.a, EPERM, what, fn, arg);
	expect_errno(cg.child, EPERM, what, fn, arg);
	expect_errno(cg.b, outside, what, fn, arg);
	expect_errno("", outside, what, fn, arg);
}

/* --- events ------------------------------------------------------------ */

/* Start lsmctl events for cgroup @name in @c, until one event (or the timeout). */
static void events_start(struct lab_cmd *c, const char *name, bool json)
{
	const char *argv[] = { LSMCTL, "events", "--new", "--cgroup", NULL, "--count", "1",
			       "--timeout", EVENTS_TIMEOUT, json ? "-j" : NULL, NULL };
	char path[BLEN], fd[320], link[64];
	int i, n, maps;
	struct dirent *de;
	DIR *d;

	cg_path(path, sizeof(path), name);
	argv[4] = path;
	cmd_start(c, argv);
	/*
	 * --new: the next event, the one the caller makes; so wait until it
	 * holds the journal (its two maps' fds), for at most 10 s.
	 */
	for (i = 0; i < 100; i++) {
		snprintf(fd, sizeof(fd), "/proc/%d/fd", c->pid);
		d = opendir(fd);
		maps = 0;
		while (d && (de = readdir(d))) {
			snprintf(fd, sizeof(fd), "/proc/%d/fd/%s", c->pid, de->d_name);
			n = (int)readlink(fd, link, sizeof(link) - 1);
			if (n > 0 && (link[n] = 0, !strcmp(link, "anon_inode:bpf-map")))
				maps++;
		}
		if (d)
			closedir(d);
		if (maps >= 2)
			return;
		sleep_ms(100);
	}
	tap_note("lsmctl events --new did not open the journal in 10 s");
}

/* Wait for the listener; its first line in @line. Its exit status. */
static int events_wait(struct lab_cmd *c, char *line, size_t len)
{
	int status = cmd_wait(c);

	snprintf(line, len, "%.*s", (int)strcspn(c->out, "\n"), c->out);
	if (!*line) {
		tap_note("lsmctl events printed nothing, status %d", status);
		tap_note_lines("stderr", c->err);
	}
	return status;
}

/* The value of "@key" in a one-line JSON object, unquoted. */
static int json_field(const char *line, const char *key, char *val, size_t len)
{
	char pat[64];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	p += strspn(p, " \t");
	if (*p++ != ':')
		return -1;
	p += strspn(p, " \t");
	if (*p == '"') {
		for (p++; *p && *p != '"' && n + 1 < len; p++) {
			if (*p == '\\' && p[1])
				p++;
			val[n++] = *p;
		}
	} else {
		while (*p && !strchr(",} \t", *p) && n + 1 < len)
			val[n++] = *p++;
	}
	val[n] = '\0';
	return 0;
}

/* The value of "@key=value" in a text event line, unquoted. */
static int text_field(const char *line, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key), n;
	const char *p;

	for (p = strstr(line, key); p; p = strstr(p + 1, key)) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=')
			break;
	}
	if (!p)
		return -1;
	p += klen + 1;
	if (*p == '"')
		p++;
	n = strcspn(p, " \t\"");
	if (n >= len)
		n = len - 1;
	memcpy(val, p, n);
	val[n] = '\0';
	return 0;
}

/*
 * What an event must say: key and value; a value starting with '~'
 * need only be contained in the event's.
 */
struct field {
	const char *key, *val;
};

/* Does event @line have every field of @want? Notes what differs. */
static bool event_has(const char *line, bool json, const struct field *want)
{
	char val[BLEN];
	bool ok = true, found;

	for (; want->key; want++) {
		found = !(json ? json_field(line, want->key, val, sizeof(val))
			       : text_field(line, want->key, val, sizeof(val)));
		if (found && (want->val[0] == '~' ? !!strstr(val, want->val + 1)
						   : !strcmp(val, want->val)))
			continue;
		tap_note("event %s: want %s, got %s", want->key, want->val, found ? val : "nothing");
		ok = false;
	}
	if (!ok)
		tap_note("event: %s", line);
	return ok;
}

/*
 * @what, run in cgroup @name while lsmctl events listens there (-j when
 * @json), has outcome @want; then a line @event_what: the event it
 * reports has @fields, and the probe's pid.
 */
static void expect_event(const char *name, bool json, int want, const char *what,
			 probe_fn fn, const void *arg, const struct field *fields,
			 const char *event_what)
{
	struct field all[16];
	char line[2048], pid_s[16];
	struct lab_cmd listener;
	pid_t pid = 0;
	size_t n = 0;

	events_start(&listener, name, json);
	expect_errno_pid(name, want, what, fn, arg, &pid);
	events_wait(&listener, line, sizeof(line));
	snprintf(pid_s, sizeof(pid_s), "%d", pid);
	for (; fields->key && n + 2 < ARRAY_SIZE(all); fields++)
		all[n++] = *fields;
	all[n++] = (struct field){ "pid", pid_s };
	all[n] = (struct field){ NULL, NULL };
	tap_result(event_has(line, json, all), "%s", event_what);
}

/* --- the tests ----------------------------------------------------------- */

static void test_check(void)
{
	struct lab_cmd c;

	lsmctl(&c, "check", pol.main.path, NULL);
	tap_result(c.status == 0, "lsmctl check accepts the main policy (status %d)", c.status);
	if (c.status)
		note_cmd(&c);
	lsmctl(&c, "check", pol.bad.path, NULL);
	tap_result(c.status == 1 && has_location(c.err, pol.bad.path),
		   "lsmctl check rejects bad YAML: status 1, FILE:LINE:COL (status %d)",
		   c.status);
	lsmctl(&c, "frobnicate", NULL);
	tap_result(c.status == 2, "an unknown command is bad usage: status 2 (status %d)",
		   c.status);
	lsmctl(&c, "apply", NULL);
	tap_result(c.status == 2, "apply without arguments is bad usage: status 2 (status %d)",
		   c.status);
}

static void test_files(void)
{
	expect_confined("open(secret, O_RDONLY)", probe_read, f.secret, 0);
	expect_errno(cg.a, 0, "open(secret, O_WRONLY), read only denied,", probe_write, f.secret);
	expect_confined("open(ro, O_WRONLY)", probe_write, f.ro, 0);
	expect_errno(cg.a, 0, "open(ro, O_RDONLY), write only denied,", probe_read, f.ro);
	if (lab_reduced) {
		tap_result(1, "create and unlink rules # SKIP stock 6.1: 10 lsm_cgroup hooks");
		return;
	}
	expect_confined("creat(nocreate/new)", probe_create, f.created, 0);
	expect_errno(cg.a, 0, "creat+unlink(fresh) outside nocreate/** and nounlink/**",
	       probe_create, f.fresh);
	expect_confined("unlink(nounlink/victim)", probe_unlink, f.victim, 0);
	expect_confined("rename(fresh, nounlink/victim): replacing it unlinks it",
			probe_rename_over, f.victim, 0);
	expect_errno(cg.a, 0, "open(nounlink/victim, O_WRONLY), unlink only denied,",
	       probe_write, f.victim);
}

/* Denied private subtree; an allowed file and subtree in it; a denied file in that. */
static void test_file_subtrees(void)
{
	expect_confined("open(private/other) under a denied private/**",
			probe_read, f.priv_other, 0);
	expect_errno(cg.a, 0, "open(private/public), an exact allow in a denied subtree,",
	       probe_read, f.priv_public);
	expect_errno(cg.child, 0, "open(private/public), an exact allow in a denied subtree,",
	       probe_read, f.priv_public);
	expect_errno(cg.a, 0, "open(private/shared/inner), a deeper allowed subtree,",
	       probe_read, f.shared_file);
	expect_errno(cg.a, EPERM, "open(private/shared/hidden), an exact deny in an allowed subtree,",
	       probe_read, f.shared_hidden);
}

static void test_exec(void)
{
	expect_confined("execve(DIR/bin/busybox as true)", probe_exec, f.exe, 0);
	expect_errno(cg.a, 0, "execve(/bin/busybox as true)", probe_exec, BUSYBOX);
}

static void test_network(void)
{
	static const struct sock_kind inet6_dgram = { AF_INET6, SOCK_DGRAM, 0 };
	static const struct sock_kind inet6_stream = { AF_INET6, SOCK_STREAM, 0 };
	static const struct sock_kind inet_dgram = { AF_INET, SOCK_DGRAM, 0 };
	static const struct endpoint bind_denied = { "127.0.0.1", PORT_DENIED };
	static const struct endpoint bind_past = { "127.0.0.1", PORT_PAST };
	static const struct endpoint bind_other = { "127.0.0.2", PORT_DENIED };
	static const struct endpoint smtp = { "127.0.0.1", PORT_SMTP };
	static const struct endpoint open_port = { "127.0.0.1", PORT_OPEN };

	/*
	 * The probes make their sockets inside, so whichever cgroup socket
	 * hooks follow (the caller's, on 6.1: see POLICY.md), it is this one.
	 */
	expect_confined("socket(AF_INET6, SOCK_DGRAM)", probe_socket, &inet6_dgram, 0);
	expect_errno(cg.a, 0, "socket(AF_INET6, SOCK_STREAM)", probe_socket, &inet6_stream);
	expect_errno(cg.a, 0, "socket(AF_INET, SOCK_DGRAM)", probe_socket, &inet_dgram);

	expect_confined("bind(127.0.0.1:41005), in the denied 41000-41009,",
			probe_bind, &bind_denied, 0);
	expect_errno(cg.a, 0, "bind(127.0.0.1:41010), past the range,", probe_bind, &bind_past);
	/* all of 127/8 is local on Linux: outside the rule's cidr */
	expect_errno(cg.a, 0, "bind(127.0.0.2:41005), outside the cidr,", probe_bind, &bind_other);

	expect_confined("connect(127.0.0.1:25)", probe_connect, &smtp, 0);
	expect_errno(cg.a, 0, "connect(127.0.0.1:41100)", probe_connect, &open_port);
}

static void test_ptrace(void)
{
	static const int attach = PTRACE_ATTACH, seize = PTRACE_SEIZE;

	expect_confined("PTRACE_ATTACH to a child", probe_ptrace, &attach, 0);
	expect_confined("PTRACE_SEIZE of a child", probe_ptrace, &seize, 0);
	expect_confined("PTRACE_TRACEME", probe_traceme, NULL, 0);
}

static void test_mount(void)
{
	if (lab_reduced) {
		tap_result(1, "mount rules # SKIP stock 6.1: 10 lsm_cgroup hooks");
		return;
	}
	expect_confined("mount(tmpfs on DIR/mnt)", probe_mount, f.mnt, 0);
}

/* Outside, garbage fails ELF validation: ENOEXEC (or EINVAL), not EPERM. */
static void test_module_load(void)
{
	if (lab_reduced) {
		tap_result(1, "module_load rules # SKIP stock 6.1: 10 lsm_cgroup hooks");
		return;
	}
	expect_confined("init_module(256 bytes of garbage)", probe_init_module, NULL, LAB_NOT_EPERM);
	expect_confined("finit_module(a garbage file)", probe_finit_module, f.garbage, LAB_NOT_EPERM);
}

static void test_signal(void)
{
	static const int sigcont = SIGCONT, no_signal;

	expect_confined("kill(a root cgroup task, SIGCONT)", probe_kill_root, &sigcont, 0);
	expect_errno(cg.a, 0, "kill(a root cgroup task, 0), no signal sent,", probe_kill_root,
	       &no_signal);
	expect_errno(cg.a, 0, "kill(a child in the same cgroup, SIGTERM)", probe_kill_own_child, NULL);
	expect_errno(cg.child, 0, "kill(a child in the same cgroup, SIGTERM)",
	       probe_kill_own_child, NULL);
}

static void test_capability(void)
{
	static const struct sock_kind raw_icmp = { AF_INET, SOCK_RAW, IPPROTO_ICMP };
	static const struct endpoint http = { "127.0.0.1", PORT_HTTP };

	/* inet_create() asks ns_capable(CAP_NET_RAW) for SOCK_RAW, EPERM without */
	expect_confined("socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), CAP_NET_RAW,",
			probe_socket, &raw_icmp, 0);
	expect_errno(cg.a, 0, "bind(127.0.0.1:80), CAP_NET_BIND_SERVICE is not denied,",
	       probe_bind, &http);
}

/* A cgroup made under a after the apply inherits a's policy too. */
static void test_late_child(void)
{
	int fd = cgroup_make(cg.late);

	if (fd < 0) {
		tap_result(0, "mkdir cgroup %s: %s", cg.late, strerror(errno));
		return;
	}
	close(fd);
	expect_errno(cg.late, EPERM, "open(secret, O_RDONLY), made after apply,", probe_read, f.secret);
}

static void test_list_show(void)
{
	char path[BLEN];
	struct lab_cmd c;

	lsmctl(&c, "list", "-j", NULL);
	tap_result(c.status == 0 && mentions(c.out, cg.a) && strstr(c.out, pol.main.name),
		   "lsmctl list -j names %s and %s (status %d)", cg.a, pol.main.name, c.status);
	if (c.status || !mentions(c.out, cg.a) || !strstr(c.out, pol.main.name))
		note_cmd(&c);
	lsmctl(&c, "list", NULL);
	tap_result(c.status == 0 && mentions(c.out, cg.a),
		   "lsmctl list names %s (status %d)", cg.a, c.status);
	cg_path(path, sizeof(path), cg.a);
	lsmctl(&c, "show", path, "-j", NULL);
	tap_result(c.status == 0 && strstr(c.out, pol.main.name),
		   "lsmctl show %s -j names %s (status %d)", path, pol.main.name, c.status);
	if (c.status || !strstr(c.out, pol.main.name))
		note_cmd(&c);
	lsmctl(&c, "stats", "-j", NULL);
	tap_result(c.status == 0, "lsmctl stats -j (status %d)", c.status);
}

/* Every rule kind, under the main policy on a. */
static void test_main_policy(void)
{
	if (!apply_ok(&pol.main, cg.a))
		return;
	test_files();
	test_file_subtrees();
	test_exec();
	test_network();
	test_ptrace();
	test_mount();
	test_module_load();
	test_signal();
	test_capability();
	test_late_child();
	test_list_show();
}

/* A denial, reported by lsmctl events: first as JSON, then as text. */
static void test_events_deny(void)
{
	static const struct endpoint smtp = { "127.0.0.1", PORT_SMTP };
	char cgroup_s[BLEN];

	if (!apply_ok(&pol.ev, cg.ev))
		return;
	snprintf(cgroup_s, sizeof(cgroup_s), "/%s", cg.ev);
	expect_event(cg.ev, true, EPERM, "open(secret)", probe_read, f.secret,
		     (const struct field[]){
			{ "verdict", "deny" }, { "hook", "file_open" }, { "cgroup", cgroup_s },
			{ "comm", comm }, { "rule", "0" }, { "policy", pol.ev.name },
			{ "object", "~secret" }, { NULL, NULL } },
		     "lsmctl events -j reports that denial, rule 0");
	expect_event(cg.ev, false, EPERM, "connect(127.0.0.1:25)", probe_connect, &smtp,
		     (const struct field[]){
			{ "verdict", "deny" }, { "hook", "socket_connect" },
			{ "cgroup", cgroup_s }, { "comm", comm }, { "rule", "1" }, { NULL, NULL } },
		     "lsmctl events reports that denial as text, rule 1");
}

/* Audit mode denies nothing, and reports what it would have denied. */
static void test_audit(void)
{
	char cgroup_s[BLEN];

	if (!apply_ok(&pol.audit, cg.audit))
		return;
	snprintf(cgroup_s, sizeof(cgroup_s), "/%s", cg.audit);
	expect_event(cg.audit, true, 0, "audit mode: open(secret)", probe_read, f.secret,
		     (const struct field[]){
			{ "verdict", "audit" }, { "hook", "file_open" }, { "cgroup", cgroup_s },
			{ "rule", "0" }, { "policy", pol.audit.name }, { NULL, NULL } },
		     "lsmctl events -j reports verdict audit for it");
}

/* default: deny with exec allow rules: an exec allow-list, exec alone. */
static void test_allow_list(void)
{
	if (!apply_ok(&pol.allow, cg.allow))
		return;
	expect_errno(cg.allow, 0, "allow-list: execve(/bin/busybox as true)", probe_exec, BUSYBOX);
	expect_event(cg.allow, false, EPERM, "allow-list: execve(DIR/bin/busybox)", probe_exec,
		     f.exe, (const struct field[]){
			{ "verdict", "deny" }, { "rule", "default" }, { NULL, NULL } },
		     "lsmctl events reports rule=default for it");
	expect_errno(cg.allow, 0, "allow-list: open(secret), no files allow rule,", probe_read, f.secret);
}

/* A child's policy tightens its parent's and cannot loosen it. */
static void test_nesting(void)
{
	if (!apply_ok(&pol.nest, cg.nest) || !apply_ok(&pol.inner, cg.inner))
		return;
	expect_errno(cg.inner, EPERM, "open(secret), denied by the parent, allowed by the child,",
	       probe_read, f.secret);
	expect_errno(cg.inner, EPERM, "open(ro, O_WRONLY), denied by the child's policy,",
	       probe_write, f.ro);
	expect_errno(cg.nest, 0, "open(ro, O_WRONLY), denied by the child's policy only,",
	       probe_write, f.ro);
	expect_errno(cg.nest, EPERM, "open(secret)", probe_read, f.secret);
	detach(cg.inner);
	/* (global: the levels the engine climbs are worked out again) */
	expect_errno(cg.inner, EPERM, "with the child's policy detached, open(secret), the parent's,",
	       probe_read, f.secret);
	expect_errno(cg.inner, 0, "with the child's policy detached, open(ro, O_WRONLY)",
	       probe_write, f.ro);
	detach(cg.nest);
	expect_errno(cg.inner, 0, "with both detached, open(secret)", probe_read, f.secret);
}

/* Failed applies leave the policy enforcing; a good one replaces it. */
static void test_replace(void)
{
	char missing_cg[PLEN];
	int rc;

	if (!apply_ok(&pol.deny_read, cg.swap))
		return;
	expect_errno(cg.swap, EPERM, "open(secret)", probe_read, f.secret);

	rc = apply(&pol.bad, cg.swap);
	tap_result(rc == 1, "apply of bad YAML over it fails with status 1 (status %d)", rc);
	expect_errno(cg.swap, EPERM, "after the failed apply, open(secret)", probe_read, f.secret);

	rc = apply(&pol.missing, cg.swap);
	tap_result(rc == 1, "apply of a policy naming a missing path fails with status 1 (status %d)",
		   rc);
	expect_errno(cg.swap, EPERM, "after the failed apply, open(secret)", probe_read, f.secret);
	expect_errno(cg.swap, 0, "after the failed apply, none of it: open(ro, O_WRONLY)",
	       probe_write, f.ro);

	snprintf(missing_cg, sizeof(missing_cg), "pr-%s-no-such-cgroup", lab_backend);
	rc = apply(&pol.deny_read, missing_cg);
	tap_result(rc == 1, "apply to a missing cgroup fails with status 1 (status %d)", rc);

	if (apply_ok(&pol.deny_write, cg.swap)) {
		expect_errno(cg.swap, 0, "replaced: open(secret)", probe_read, f.secret);
		expect_errno(cg.swap, EPERM, "replaced: open(ro, O_WRONLY)", probe_write, f.ro);
	}
}

/* show names the policy that replaced the old one, and only it. */
static void test_show_replaced(void)
{
	char path[BLEN];
	struct lab_cmd c;

	cg_path(path, sizeof(path), cg.swap);
	lsmctl(&c, "show", path, "-j", NULL);
	tap_result(c.status == 0 && strstr(c.out, pol.deny_write.name) &&
		   !strstr(c.out, pol.deny_read.name),
		   "lsmctl show -j names %s, not %s (status %d)",
		   pol.deny_write.name, pol.deny_read.name, c.status);
}

static void test_detach(void)
{
	struct lab_cmd c;
	int rc = detach(cg.swap);

	tap_result(rc == 0, "lsmctl detach --cgroup %s (status %d)", cg.swap, rc);
	expect_errno(cg.swap, 0, "detached: open(ro, O_WRONLY)", probe_write, f.ro);
	lsmctl(&c, "list", "-j", NULL);
	tap_result(c.status == 0 && !mentions(c.out, cg.swap),
		   "lsmctl list -j no longer names %s (status %d)", cg.swap, c.status);
}

/*
 * Append every cgroup directory below @dir to @buf, "PATH\n" each: a
 * @buf that starts as "\n" then holds each as "\nPATH\n".
 */
static void list_cgroups(const char *dir, char *buf, size_t len)
{
	char sub[1024];
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t used;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s\n", sub);
		list_cgroups(sub, buf, len);
	}
	closedir(d);
}

/* The cgroups in @after that @before lacks, as TAP comments: how many. */
static int new_cgroups(const char *before, const char *after)
{
	char entry[1100];
	const char *p, *nl;
	int n = 0;

	for (p = after + 1; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (!*nl)
			break;
		snprintf(entry, sizeof(entry), "\n%.*s\n", (int)(nl - p), p);
		if (!strstr(before, entry)) {
			tap_note("left behind: %.*s", (int)(nl - p), p);
			n++;
		}
	}
	return n;
}

/* Does @out hold a cgroup v2 line "0::/PATH" below the root? */
static bool below_root(const char *out)
{
	const char *p;

	for (p = strstr(out, "0::/"); p; p = strstr(p + 1, "0::/"))
		if ((p == out || p[-1] == '\n') && p[4] && p[4] != '\n')
			return true;
	return false;
}

/* lsmctl run: a command confined in a cgroup of its own, gone afterwards. */
static void test_run(void)
{
	static char before[16384] = "\n", after[16384] = "\n";
	static const char *const cat[] = { "/bin/cat", f.secret, NULL };
	struct lab_cmd c;
	bool eperm;

	list_cgroups(CGROUP_ROOT, before, sizeof(before));

	run_cmd(&c, cat);
	tap_result(c.status == 0 && !strcmp(c.out, "lab-secret"),
		   "plain cat of the secret works (status %d)", c.status);
	lsmctl(&c, "run", pol.run.path, "--backend", lab_backend, "--", "/bin/cat", f.secret, NULL);
	eperm = strstr(c.err, "Operation not permitted") || strstr(c.out, "Operation not permitted");
	tap_result(c.status != 0 && eperm && !strstr(c.out, "lab-secret"),
		   "lsmctl run: cat of the secret fails with EPERM (status %d)", c.status);
	if (c.status == 0 || !eperm)
		note_cmd(&c);
	lsmctl(&c, "run", pol.run.path, "--backend", lab_backend, "--", "/bin/cat",
	       "/proc/self/cgroup", NULL);
	tap_result(c.status == 0 && below_root(c.out),
		   "lsmctl run: the command runs in a cgroup below the root (status %d)", c.status);
	tap_note_lines("/proc/self/cgroup", c.out);
	lsmctl(&c, "run", pol.run.path, "--backend", lab_backend, "--", "/bin/sh", "-c", "exit 7",
	       NULL);
	tap_result(c.status == 7, "lsmctl run exits with the command's status 7 (status %d)",
		   c.status);

	lsmctl(&c, "list", "-j", NULL);
	tap_result(c.status == 0 && !strstr(c.out, pol.run.name),
		   "afterwards lsmctl list -j has no %s (status %d)", pol.run.name, c.status);
	list_cgroups(CGROUP_ROOT, after, sizeof(after));
	tap_result(new_cgroups(before, after) == 0, "afterwards no cgroup is left behind");
}

/* Detach what is left, remove the cgroups, stop the helpers. */
static void cleanup(void)
{
	static const char *const policed[] = { cg.a, cg.ev, cg.audit, cg.allow, cg.inner,
					       cg.nest, cg.swap };
	/* children first */
	static const char *const cgroups[] = { cg.late, cg.child, cg.a, cg.b, cg.ev, cg.audit,
					       cg.allow, cg.inner, cg.nest, cg.swap };
	char prefix[PLEN];
	struct lab_cmd c;
	size_t i;
	int left;

	for (i = 0; i < ARRAY_SIZE(policed); i++)
		detach(policed[i]);
	expect_errno(cg.a, 0, "detached: open(secret, O_RDONLY)", probe_read, f.secret);
	expect_errno(cg.child, 0, "detached: mount(tmpfs on DIR/mnt)", probe_mount, f.mnt);

	snprintf(prefix, sizeof(prefix), "pr-%s-", lab_backend);
	lsmctl(&c, "list", "-j", NULL);
	tap_result(c.status == 0 && !strstr(c.out, prefix),
		   "at the end lsmctl list -j names nothing of %s* (status %d)", prefix,
		   c.status);
	if (strstr(c.out, prefix))
		note_cmd(&c);

	left = cgroups_remove(cgroups, ARRAY_SIZE(cgroups));
	tap_result(!left, "the test's cgroups are removed (%d left)", left);

	reap(root_sleeper);
	close(listen_smtp);
	close(listen_open);
	umount2(f.dir, MNT_DETACH);
}

/* The whole suite on this run's backend. */
static int policy_rules(void)
{
	static const char *const cgroups[] = { cg.a, cg.child, cg.b, cg.ev, cg.audit,
					       cg.allow, cg.nest, cg.inner, cg.swap };

	make_names();
	if (access(LSMCTL, X_OK))
		tap_bail("%s is there: %s", LSMCTL, strerror(errno));
	/* the probes' "root cgroup" is ours: be sure of it */
	if (cgroup_enter(""))
		tap_bail("join the root cgroup: %s", strerror(errno));
	read_str("/proc/self/comm", comm, sizeof(comm));
	if (prepare_files())
		tap_bail("prepare %s: %s", f.dir, strerror(errno));
	if (write_main_policy() || write_event_policies() || write_other_policies())
		tap_bail("write the policies to %s: %s", f.policies, strerror(errno));
	if (cgroups_make(cgroups, ARRAY_SIZE(cgroups)))
		tap_bail("create the test cgroups: %s", strerror(errno));
	if (start_helpers())
		tap_bail("start a root cgroup task and listen on 127.0.0.1:%d and :%d: %s",
			 PORT_SMTP, PORT_OPEN, strerror(errno));

	test_check();
	test_main_policy();
	test_events_deny();
	test_audit();
	test_allow_list();
	test_nesting();
	test_replace();
	test_show_replaced();
	test_detach();
	test_run();
	cleanup();
	return tap_exit();
}

int main(int argc, char **argv)
{
	return run_backends(argc, argv, "policy-rules", policy_rules);
}
