// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: one policy on a cgroup, and root inside that cgroup trying
 * every way around it we know of. The policy denies reading a secret
 * file (an exact rule) and anything under a secret directory (a subtree
 * rule, DIR and below), executing a copy of busybox (and of bpftool,
 * and a script), connecting to port 25 over IPv4 and IPv6, and ptrace.
 *
 *   escapes [--backend cgroup|global]
 *
 * Each attempt is one TAP line that says what was tried and how it
 * went, after a control line showing the same operation working from a
 * sibling cgroup without a policy (so that no attempt passes because it
 * was broken to begin with):
 *
 *   ok - held: WHAT (EPERM)                  the policy held
 *   not ok - ESCAPED: WHAT                   it should have held
 *   ok - not held (documented limit): WHAT: WHY # TODO documented limit
 *   ok - not held (a limit POLICY.md does not name): WHAT: WHY # TODO limit
 *
 * A limit is what a policy of this engine cannot stop by design: the
 * suite prints it and does not fail on it. Two more policies show what
 * does stop some of them, or look closer at one rule kind: an exec
 * allow-list (default: deny, exec allowed under /bin and /lab) in a
 * second cgroup; in a third, a connect rule on family inet and cidr
 * 127.0.0.0/8 alone (IPv4-mapped IPv6 addresses, 0.0.0.0) and a bind
 * rule. A summary of every attempt and its result ends the output.
 *
 * A fourth policy, in a fourth cgroup, has the rules the other doors
 * to creating and writing need (issue #12): a files create deny on a
 * directory (O_TMPFILE, linkat of an O_TMPFILE), a write deny (O_TRUNC
 * on a read-only open), a read and write deny (open mode 3), under an
 * exec allow-list of the directory.
 *
 * Every policy has self-protection on (its own part takes no hook slot
 * but file_open). On stock 6.1 with the cgroup backend (10 lsm_cgroup
 * hook slots) the fourth policy is applied after the other three are
 * detached, its create rule alone needing 7 hooks.
 *
 * The files live on the ext4 scratch disk (/dev/vda) when there is
 * one, so that a second mount of the same filesystem and the raw block
 * device can be tried; on a tmpfs of the test's own otherwise.
 *
 * Every attempt runs in a child that joins the cgroup first and exits
 * with the errno of the step that failed, 0 when it got through (read
 * the secret, ran the program, reached port 25, attached), or BROKEN.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <elf.h>
#include <ftw.h>
#include <linux/sched.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#include "cgroup_util.h"
#include "lsm_util.h"
#include "tap.h"

#define LSMCTL		"/lab/bin/lsmctl"
#define BUSYBOX		"/bin/busybox"
#define BPFTOOL		"/usr/bin/bpftool"	/* dynamically linked, unlike busybox */
#define LDSO		"/lib64/ld-linux-x86-64.so.2"
#define SCRATCH_DISK	"/dev/vda"
#define YAMA_SCOPE	"/proc/sys/kernel/yama/ptrace_scope"
#define DROP_CACHES	"/proc/sys/vm/drop_caches"
#define ABYSS_DEPTH	70		/* directories below the secret dir: past LAB_MAX_DEPTH */

#define MARK		"ESC-SECRET:"	/* every secret file starts with it */
#define RAN_MARK	"ESC-RAN"	/* the denied busybox prints it, as echo */
#define PORT		25		/* connect: denied */
#define PORT_OTHER	26		/* connect: allowed */
#define PORT_BIND	2525		/* bind: denied in the v4 cgroup */
#define OUT_FD		100		/* the outsider holds the secret open here */
#define PROBE_TIMEOUT	30		/* seconds: TCG is slow */
#define BROKEN		250		/* a probe's status: it could not try */

/* FIBMAP and FIGETBSZ from linux/fs.h, which sys/mount.h does not mix with */
#define LAB_FIBMAP	_IO(0x00, 1)
#define LAB_FIGETBSZ	_IO(0x00, 2)

#define NLEN 64
#define DLEN 96
#define PLEN 160
#define BLEN 320

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef int (*probe_fn)(const void *arg);

static const char *backend = "cgroup";
/* Stock 6.1 and the cgroup backend: 10 hook slots, one policy at a time for the fourth. */
static bool reduced;
static bool on_disk;		/* the files are on /dev/vda, ext4 */
static off_t raw_off = -1;	/* where the secret's data is on /dev/vda */
static pid_t outsider;		/* a task outside: ptrace target, fd server */
static int srv_sock = -1;	/* our end of the outsider's socketpair */
static int l_tcp4 = -1, l_tcp6 = -1, l_udp4 = -1, l_udp6 = -1;
static char yama_saved[8];

/* The outsider's copy is what /proc/PID/mem and process_vm_readv go for. */
static char poke_target[64] = "outsider memory, untouched";

static struct {
	char main[NLEN], list[NLEN], v4[NLEN], ctl[NLEN], more[NLEN];
} cg;

static struct {
	char mnt[NLEN];		/* the scratch disk or a tmpfs */
	char dir[DLEN];		/* mnt/esc-BACKEND: the tree */
	char m2[NLEN];		/* a second mount of the scratch disk */
	char secret[PLEN], secret_m2[BLEN], hl_before[PLEN];
	char vault[PLEN], vault_file[PLEN], vault_sub[PLEN], vault_deep[PLEN];
	char vault_script[PLEN], vault_movable[PLEN], vault_linkable[PLEN];
	char bin[PLEN], denied[PLEN], denied_dyn[PLEN], denied_sh[PLEN];
	char work[PLEN], bind_dir[PLEN], bind_file[PLEN], policies[PLEN];
	char bin_copy[NLEN];	/* a copy in /bin, which the allow-list allows */
	char abyss[PLEN + 2 * ABYSS_DEPTH + 16];	/* a secret ABYSS_DEPTH dirs below vault */
	char vault_handle[PLEN];	/* opened by handle, its dentry evicted */
	char ldso_copy[PLEN];	/* a copy of ld.so, exec denied; short: a PT_INTERP */
	char interp_dyn[PLEN];	/* bpftool, its PT_INTERP patched to ldso_copy */
	char read_denied[PLEN];	/* busybox, read denied and exec allowed */
	char nocreate[PLEN], wprot[PLEN], rwprot[PLEN];	/* the fourth policy's */
} f;

struct policy_file {
	char path[BLEN];
	char cgroup[BLEN];
	bool applied;
};

static struct policy_file pol_main, pol_list, pol_v4, pol_more;

/* Run by probe() before each fork, when set: what must happen outside first. */
static void (*pre_probe)(void);

/* --- results ------------------------------------------------------------- */

enum kind {
	HOLD,	/* POLICY.md says the policy holds: EPERM, or the line fails */
	DOC,	/* a limit POLICY.md documents */
	GAP,	/* not held, and POLICY.md does not say either way */
};

struct result {
	char what[160];
	char verdict[64];
	char why[400];
};

static struct result results[128];
static int n_results;

static void record(const char *what, const char *verdict, const char *why)
{
	struct result *r;

	if (n_results >= (int)ARRAY_SIZE(results))
		return;
	r = &results[n_results++];
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->verdict, sizeof(r->verdict), "%s", verdict);
	snprintf(r->why, sizeof(r->why), "%s", why ? why : "");
}

/* --- small helpers ------------------------------------------------------- */

static void cg_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, CGROUP_ROOT "/%s", name);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A name in the work directory for this process: links, renames, copies. */
static void tmpname(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "%s/%s-%d", f.work, tag, getpid());
}

/* Write @len bytes to a new file @path, and to its disk: 0 or the errno. */
static int put_file(const char *path, const void *buf, size_t len, mode_t mode)
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

static int put_str(const char *path, const char *s, mode_t mode)
{
	return put_file(path, s, strlen(s), mode);
}

static int copy_file(const char *from, const char *to, mode_t mode)
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

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Does @buf (@n bytes) hold one of the secrets? 0 when it does. */
static int check_marker(const char *buf, ssize_t n)
{
	size_t len = strlen(MARK);

	return n >= (ssize_t)len && !memcmp(buf, MARK, len) ? 0 : EBADMSG;
}

static int read_fd_marker(int fd)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	if (n < 0)
		return errno;
	return check_marker(buf, n);
}

/* Open @path with @flags and read a secret from it: 0, or the errno. */
static int read_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	err = read_fd_marker(fd);
	close(fd);
	return err;
}

/* --- passing descriptors ------------------------------------------------- */

static int send_fd(int sock, int fd)
{
	char byte = fd >= 0 ? 'y' : 'n';
	char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (fd >= 0) {
		msg.msg_control = ctl;
		msg.msg_controllen = sizeof(ctl);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char byte, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (byte != 'y' || !c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

static void fill_addr(struct sockaddr_storage *ss, socklen_t *len, int family,
		      const char *addr, int port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		inet_pton(AF_INET, addr, &sin->sin_addr);
		*len = sizeof(*sin);
	} else {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &sin6->sin6_addr);
		*len = sizeof(*sin6);
	}
}

/* The outsider makes these, outside every policy, and passes them in. */
enum {
	REQ_SECRET = 'f',	/* the secret, opened for reading */
	REQ_UDP_CONNECTED = 'u',	/* UDP, connected to 127.0.0.1:25 */
	REQ_TCP_CONNECTED = 't',	/* TCP, connected to 127.0.0.1:25 */
	REQ_TCP_FRESH = 'n',	/* TCP, not connected */
	REQ_UDP_FRESH = 'd',	/* UDP, not connected */
};

static int outsider_make(char req)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = -1;

	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT);
	switch (req) {
	case REQ_SECRET:
		return open(f.secret, O_RDONLY | O_CLOEXEC);
	case REQ_UDP_CONNECTED:
	case REQ_UDP_FRESH:
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		break;
	case REQ_TCP_CONNECTED:
	case REQ_TCP_FRESH:
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		break;
	}
	if (fd >= 0 && (req == REQ_UDP_CONNECTED || req == REQ_TCP_CONNECTED) &&
	    connect(fd, (struct sockaddr *)&ss, len)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The outsider: a task in the root cgroup that holds the secret open at
 * OUT_FD, and answers requests on @sock with a descriptor it makes.
 */
static void outsider_main(int sock)
{
	int fd = open(f.secret, O_RDONLY), out;
	char req;
	ssize_t n;

	alarm(900);
	if (fd < 0 || dup2(fd, OUT_FD) < 0)
		_exit(1);
	close(fd);
	for (;;) {
		n = recv(sock, &req, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		out = outsider_make(req);
		send_fd(sock, out);
		if (out >= 0)
			close(out);
	}
}

/* In a probe: ask the outsider for a descriptor. */
static int ask_outsider(char req)
{
	if (send(srv_sock, &req, 1, 0) != 1)
		return -1;
	return recv_fd(srv_sock);
}

/* --- io_uring, by hand --------------------------------------------------- */

struct uring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* Set up a ring of 4 entries: 0, or the errno. */
static int uring_init(struct uring *r)
{
	struct io_uring_params p = { 0 };
	size_t sq_len, cq_len;
	char *sq, *cq;
	void *sqes;

	r->fd = syscall(SYS_io_uring_setup, 4, &p);
	if (r->fd < 0)
		return errno;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq_len = cq_len = sq_len > cq_len ? sq_len : cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return errno;
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  r->fd, IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return errno;
	}
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sqes == MAP_FAILED)
		return errno;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	r->sqes = sqes;
	return 0;
}

/* Submit @sqe and wait for it: its result (-errno on failure). */
static int uring_run(struct uring *r, const struct io_uring_sqe *sqe)
{
	unsigned int tail = *r->sq_tail, idx = tail & *r->sq_mask, head;
	int res;

	r->sqes[idx] = *sqe;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -errno;
	head = __atomic_load_n(r->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* --- running programs ---------------------------------------------------- */

/*
 * Run execve(@path) (or execveat(@fd, "", AT_EMPTY_PATH) when @fd is
 * not -1) with @argv in a child, its stdout and stderr into @out: the
 * child's status. A failed exec prints "exec: " and the error.
 */
static int run_prog(const char *path, int fd, char *const argv[], char *out, size_t len)
{
	size_t used = 0;
	ssize_t n;
	pid_t pid;
	int p[2];

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		if (fd >= 0)
			syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
		else
			execve(path, argv, environ);
		fprintf(stderr, "exec: %s\n", strerror(errno));
		fflush(stderr);
		_exit(126);
	}
	close(p[1]);
	while (used + 1 < len && (n = read(p[0], out + used, len - 1 - used)) > 0)
		used += n;
	out[used] = '\0';
	close(p[0]);
	return wait_child(pid);
}

/*
 * What a program's run says: 0 when @marker is in its output (it ran,
 * or read the secret), EPERM or EACCES when it says so, else BROKEN.
 */
static int prog_verdict(int status, const char *out, const char *marker)
{
	if (status >= 0 && strstr(out, marker))
		return 0;
	if (strstr(out, "Operation not permitted"))
		return EPERM;
	if (strstr(out, "Permission denied"))
		return EACCES;
	tap_note("status %d, output: %.200s", status, out);
	return BROKEN;
}

/* The denied busybox, as echo: prints RAN_MARK when it runs. */
static char *const echo_argv[] = { "echo", RAN_MARK, NULL };

/* --- probes: leaving the cgroup ------------------------------------------- */

/* Move to the root cgroup (its cgroup.procs), then read the secret there. */
static int p_leave_cgroup(const void *arg)
{
	(void)arg;
	if (cgroup_enter(""))
		return errno;
	return read_path(f.secret, O_RDONLY);
}

/* clone3(CLONE_INTO_CGROUP) a child into the root cgroup: it reads the secret. */
static int p_clone_into_root(const void *arg)
{
	struct clone_args args = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD };
	int fd = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long pid;

	(void)arg;
	if (fd < 0)
		return BROKEN;
	args.cgroup = fd;
	fflush(NULL);
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(read_path(f.secret, O_RDONLY));
	return wait_child(pid);
}

/* --- probes: files --------------------------------------------------------- */

static int p_read(const void *path)
{
	return read_path(path, O_RDONLY);
}

static int p_read_rdwr(const void *path)
{
	return read_path(path, O_RDWR);
}

static int p_symlink(const void *target)
{
	char link[BLEN];
	int err;

	tmpname(link, sizeof(link), "sym");
	if (symlink(target, link))
		return errno;
	err = read_path(link, O_RDONLY);
	unlink(link);
	return err;
}

static int p_hardlink(const void *target)
{
	char name[BLEN];
	int err;

	tmpname(name, sizeof(name), "hardlink");
	if (link(target, name))
		return errno;
	err = read_path(name, O_RDONLY);
	unlink(name);
	return err;
}

/* Rename @from, read the new name (or @below it), rename it back. */
struct move {
	const char *from;
	const char *below;
};

static int p_rename(const void *arg)
{
	const struct move *m = arg;
	char to[BLEN], path[BLEN + 16];
	int err;

	tmpname(to, sizeof(to), "renamed");
	if (rename(m->from, to))
		return errno;
	snprintf(path, sizeof(path), "%s%s", to, m->below ? m->below : "");
	err = read_path(path, O_RDONLY);
	if (rename(to, m->from)) {
		tap_note("could not rename %s back to %s: %s", to, m->from, strerror(errno));
		return BROKEN;
	}
	return err;
}

/* Bind-mount @src (a file or a directory), read through the mount. */
struct bind {
	const char *src;
	const char *below;
	bool file;
};

static int p_bind_mount(const void *arg)
{
	const struct bind *b = arg;
	const char *target = b->file ? f.bind_file : f.bind_dir;
	char path[BLEN + 16];
	int err;

	if (mount(b->src, target, NULL, MS_BIND, NULL))
		return errno;
	snprintf(path, sizeof(path), "%s%s", target, b->below ? b->below : "");
	err = read_path(path, O_RDONLY);
	umount2(target, MNT_DETACH);
	return err;
}

static int p_opath_reopen(const void *path)
{
	char proc[64];
	int fd = open(path, O_PATH | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	err = read_path(proc, O_RDONLY);
	close(fd);
	return err;
}

/* open O_WRONLY (no write rule), then reopen that for reading */
static int p_wronly_reopen(const void *path)
{
	char proc[64];
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	err = read_path(proc, O_RDONLY);
	close(fd);
	return err;
}

/* open_tree(OPEN_TREE_CLONE): a detached copy of the mount, then openat() in it */
static int p_open_tree(const void *arg)
{
	int tfd = syscall(SYS_open_tree, AT_FDCWD, f.vault, 1 /* OPEN_TREE_CLONE */ | O_CLOEXEC);
	int fd, err;

	(void)arg;
	if (tfd < 0)
		return errno;
	fd = openat(tfd, "file", O_RDONLY | O_CLOEXEC);
	err = fd < 0 ? errno : read_fd_marker(fd);
	if (fd >= 0)
		close(fd);
	close(tfd);
	return err;
}

/* A new user namespace (root there, nobody here) and mount namespace. */
static int p_userns_read(const void *path)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return errno;
	return read_path(path, O_RDONLY);
}

static int p_openat2(const void *path)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC };
	int fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how)), err;

	if (fd < 0)
		return errno;
	err = read_fd_marker(fd);
	close(fd);
	return err;
}

/* io_uring: IORING_OP_OPENAT, then IORING_OP_READ from what it opened. */
static int p_uring_openat(const void *async)
{
	struct io_uring_sqe sqe = { 0 };
	struct uring r;
	char buf[128];
	int err, res, fd;

	err = uring_init(&r);
	if (err)
		return err;
	sqe.opcode = IORING_OP_OPENAT;
	sqe.fd = AT_FDCWD;
	sqe.addr = (uintptr_t)f.secret;
	sqe.open_flags = O_RDONLY | O_CLOEXEC;
	if (*(const bool *)async)
		sqe.flags = IOSQE_ASYNC;	/* in an io-wq worker, not inline */
	res = uring_run(&r, &sqe);
	if (res < 0)
		return -res;
	fd = res;
	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_READ;
	sqe.fd = fd;
	sqe.addr = (uintptr_t)buf;
	sqe.len = sizeof(buf);
	res = uring_run(&r, &sqe);
	if (res < 0)
		return -res;
	return check_marker(buf, res);
}

static int p_handle(const void *path)
{
	struct file_handle *fh = malloc(sizeof(*fh) + MAX_HANDLE_SZ);
	int mount_id, mfd, fd, err;

	if (!fh)
		return BROKEN;
	fh->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, path, fh, &mount_id, 0)) {
		err = errno;
		free(fh);
		return err;
	}
	mfd = open(f.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = mfd < 0 ? -1 : open_by_handle_at(mfd, fh, O_RDONLY | O_CLOEXEC);
	err = mfd < 0 ? BROKEN : fd < 0 ? errno : read_fd_marker(fd);
	if (fd >= 0)
		close(fd);
	if (mfd >= 0)
		close(mfd);
	free(fh);
	return err;
}

/* f.vault_handle's handle, made outside; its dentry is evicted before each open */
static struct file_handle *vault_fh;

/* pre_probe: drop every unused dentry and inode (the file's among them), outside. */
static void drop_caches(void)
{
	sync();
	if (write_str(DROP_CACHES, "2"))
		tap_note("write 2 to %s: %s", DROP_CACHES, strerror(errno));
}

/*
 * open_by_handle_at() of a file whose dentry is gone: exportfs gives a
 * disconnected dentry (IS_ROOT, not the filesystem's root) for it, from
 * which no climb reaches the secret dir.
 */
static int p_handle_evicted(const void *arg)
{
	int mfd = open(f.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, err;
	char proc[64], link[BLEN] = "";

	(void)arg;
	if (mfd < 0)
		return BROKEN;
	fd = open_by_handle_at(mfd, vault_fh, O_RDONLY | O_CLOEXEC);
	err = fd < 0 ? errno : read_fd_marker(fd);
	if (fd >= 0) {
		/* a disconnected dentry's path is its name alone */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if (readlink(proc, link, sizeof(link) - 1) > 0)
			tap_note("opened by handle as %s", link);
		close(fd);
	}
	close(mfd);
	return err;
}

/* Open @path for reading and read a byte, whatever the file holds. */
static int p_read_any(const void *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	char c;

	if (fd < 0)
		return errno;
	if (read(fd, &c, 1) != 1)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* O_TMPFILE in @dir: write busybox there, reopen it read-only, run it as echo. */
static int p_tmpfile_exec(const void *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0755), ro, status;
	char proc[64], out[1024];
	size_t len;
	void *buf;

	if (fd < 0)
		return errno;
	buf = slurp(BUSYBOX, &len);
	if (!buf || write(fd, buf, len) != (ssize_t)len) {
		free(buf);
		close(fd);
		return BROKEN;
	}
	free(buf);
	/* a writable descriptor would make the exec ETXTBSY */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ro = open(proc, O_RDONLY | O_CLOEXEC);
	close(fd);
	if (ro < 0)
		return errno;
	status = run_prog(NULL, ro, echo_argv, out, sizeof(out));
	close(ro);
	return prog_verdict(status, out, RAN_MARK);
}

/* An O_TMPFILE made in the work dir, linkat()'d into the create-denied dir, read there. */
static int p_tmpfile_link(const void *arg)
{
	int fd = open(f.work, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644), err;
	char proc[64], to[BLEN], text[64];

	(void)arg;
	if (fd < 0)
		return errno;
	snprintf(text, sizeof(text), MARK "tmpfile\n");
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return BROKEN;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	snprintf(to, sizeof(to), "%s/linked-%d", f.nocreate, getpid());
	if (linkat(AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW)) {
		err = errno;
	} else {
		err = read_path(to, O_RDONLY);
		unlink(to);
	}
	close(fd);
	return err;
}

/* pre_probe: the write-denied file has its content again. */
static void refill_wprot(void)
{
	char text[128];

	snprintf(text, sizeof(text), MARK "%s:write-protected\n", backend);
	if (put_str(f.wprot, text, 0644))
		tap_note("refill %s: %s", f.wprot, strerror(errno));
}

/* open(@path, O_RDONLY | O_TRUNC): 0 when it opened and emptied the file. */
static int p_trunc_rdonly(const void *path)
{
	int fd = open(path, O_RDONLY | O_TRUNC | O_CLOEXEC);
	struct stat st;
	int err;

	if (fd < 0)
		return errno;
	err = fstat(fd, &st) ? errno : st.st_size ? EBADMSG : 0;
	close(fd);
	return err;
}

/* open(@path, 3): O_ACCMODE 3, neither read nor write, ioctls only. */
static int p_open_mode3(const void *path)
{
	int fd = open(path, 3 | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int p_proc_root(const void *path)
{
	char proc[BLEN + 32];

	snprintf(proc, sizeof(proc), "/proc/%d/root%s", outsider, (const char *)path);
	return read_path(proc, O_RDONLY);
}

static int p_proc_fd(const void *arg)
{
	char proc[64];

	(void)arg;
	snprintf(proc, sizeof(proc), "/proc/%d/fd/%d", outsider, OUT_FD);
	return read_path(proc, O_RDONLY);
}

static int p_unshare_read(const void *path)
{
	if (unshare(CLONE_NEWNS))
		return errno;
	return read_path(path, O_RDONLY);
}

static int p_second_mount(const void *arg)
{
	int err;

	(void)arg;
	if (mount(SCRATCH_DISK, f.m2, "ext4", 0, NULL))
		return errno;
	err = read_path(f.secret_m2, O_RDONLY);
	umount2(f.m2, MNT_DETACH);
	return err;
}

/* The secret's data block, read from the block device under the filesystem. */
static int p_raw_device(const void *arg)
{
	int fd = open(SCRATCH_DISK, O_RDONLY | O_DIRECT | O_CLOEXEC), err;
	void *buf;
	ssize_t n;

	(void)arg;
	if (fd < 0)
		return errno;
	if (posix_memalign(&buf, 4096, 4096))
		return BROKEN;
	n = pread(fd, buf, 4096, raw_off);
	err = n < 0 ? errno : check_marker(buf, n);
	close(fd);
	return err;
}

/* What a probe does with a descriptor of the secret. */
enum via { VIA_READ, VIA_MMAP, VIA_SENDFILE, VIA_SPLICE };

static int consume(int fd, enum via via)
{
	char buf[128];
	loff_t off = 0;
	ssize_t n;
	int p[2], err;
	void *map;

	switch (via) {
	case VIA_READ:
		return read_fd_marker(fd);
	case VIA_MMAP:
		map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			return errno;
		err = check_marker(map, 64);
		munmap(map, 4096);
		return err;
	case VIA_SENDFILE:
	case VIA_SPLICE:
		if (pipe2(p, O_CLOEXEC))
			return BROKEN;
		if (via == VIA_SENDFILE)
			n = sendfile(p[1], fd, &off, sizeof(buf));
		else
			n = splice(fd, &off, p[1], NULL, sizeof(buf), 0);
		if (n < 0)
			return errno;
		n = read(p[0], buf, sizeof(buf));
		close(p[0]);
		close(p[1]);
		return check_marker(buf, n);
	}
	return BROKEN;
}

static const enum via via_read = VIA_READ, via_mmap = VIA_MMAP;
static const enum via via_sendfile = VIA_SENDFILE, via_splice = VIA_SPLICE;

/* open() the secret here, then @via. */
static int p_open_via(const void *via)
{
	int fd = open(f.secret, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	err = consume(fd, *(const enum via *)via);
	close(fd);
	return err;
}

/* The secret opened by the outsider, passed over a Unix socket, then @via. */
static int p_passed_via(const void *via)
{
	int fd = ask_outsider(REQ_SECRET), err;

	if (fd < 0)
		return BROKEN;
	err = consume(fd, *(const enum via *)via);
	close(fd);
	return err;
}

/* --- probes: exec -------------------------------------------------------- */

static int p_exec(const void *path)
{
	char out[1024];
	int status = run_prog(path, -1, echo_argv, out, sizeof(out));

	return prog_verdict(status, out, RAN_MARK);
}

static int p_exec_symlink(const void *path)
{
	char link[BLEN];
	int err;

	tmpname(link, sizeof(link), "exe-sym");
	if (symlink(path, link))
		return errno;
	err = p_exec(link);
	unlink(link);
	return err;
}

static int p_exec_hardlink(const void *path)
{
	char name[BLEN];
	int err;

	tmpname(name, sizeof(name), "exe-hardlink");
	if (link(path, name))
		return errno;
	err = p_exec(name);
	unlink(name);
	return err;
}

static int p_exec_renamed(const void *path)
{
	char to[BLEN];
	int err;

	tmpname(to, sizeof(to), "exe-renamed");
	if (rename(path, to))
		return errno;
	err = p_exec(to);
	if (rename(to, path)) {
		tap_note("could not rename %s back: %s", to, strerror(errno));
		return BROKEN;
	}
	return err;
}

/* execveat(O_PATH fd, "", AT_EMPTY_PATH) */
static int p_execveat_opath(const void *path)
{
	int fd = open(path, O_PATH), status;
	char out[1024];

	if (fd < 0)
		return errno;
	status = run_prog(NULL, fd, echo_argv, out, sizeof(out));
	close(fd);
	return prog_verdict(status, out, RAN_MARK);
}

/* execve("/proc/self/fd/N") of an O_PATH fd */
static int p_exec_proc_fd(const void *path)
{
	int fd = open(path, O_PATH), err;
	char proc[64];

	if (fd < 0)
		return errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	err = p_exec(proc);
	close(fd);
	return err;
}

/* Copy the denied binary to @dest (a new inode), run the copy. */
static int p_exec_copy(const void *dest)
{
	char name[BLEN];
	int err;

	if (dest)
		snprintf(name, sizeof(name), "%s", (const char *)dest);
	else
		tmpname(name, sizeof(name), "exe-copy");
	err = copy_file(f.denied, name, 0755);
	if (err)
		return err;
	err = p_exec(name);
	unlink(name);
	return err;
}

/* The denied binary's bytes in a memfd, run with execveat (fexecve). */
static int p_exec_memfd(const void *arg)
{
	int fd = memfd_create("esc-memfd", MFD_CLOEXEC), status;
	char out[1024];
	size_t len;
	void *buf;

	(void)arg;
	if (fd < 0)
		return errno;
	buf = slurp(f.denied, &len);
	if (!buf)
		return errno;
	if (write(fd, buf, len) != (ssize_t)len) {
		free(buf);
		return BROKEN;
	}
	free(buf);
	status = run_prog(NULL, fd, echo_argv, out, sizeof(out));
	close(fd);
	return prog_verdict(status, out, RAN_MARK);
}

/* The dynamic loader, run by its own name, loading the denied bpftool. */
static int p_ldso(const void *arg)
{
	char *const argv[] = { LDSO, f.denied_dyn, "version", NULL };
	char out[2048];
	int status;

	(void)arg;
	status = run_prog(LDSO, -1, argv, out, sizeof(out));
	return prog_verdict(status, out, "libbpf");
}

struct script {
	const char *path;
	const char *marker;
};

/* The copy of bpftool whose PT_INTERP names the exec-denied copy of ld.so. */
static int p_exec_interp(const void *arg)
{
	char *const argv[] = { "interp-dyn", "version", NULL };
	char out[2048];
	int status;

	(void)arg;
	status = run_prog(f.interp_dyn, -1, argv, out, sizeof(out));
	return prog_verdict(status, out, "libbpf");
}

/* sh SCRIPT: the shell opens and reads it, no execve of the script. */
static int p_sh_script(const void *arg)
{
	const struct script *s = arg;
	char *const argv[] = { "sh", (char *)s->path, NULL };
	char out[1024];
	int status = run_prog("/bin/sh", -1, argv, out, sizeof(out));

	return prog_verdict(status, out, s->marker);
}

/* execve(SCRIPT): the kernel runs its #! interpreter, which opens it. */
static int p_exec_script(const void *arg)
{
	const struct script *s = arg;
	char *const argv[] = { (char *)s->path, NULL };
	char out[1024];
	int status = run_prog(s->path, -1, argv, out, sizeof(out));

	return prog_verdict(status, out, s->marker);
}

/* --- probes: network ----------------------------------------------------- */

enum net_how {
	N_CONNECT,		/* connect() */
	N_SENDTO,		/* sendto() with the address */
	N_SENDMSG,		/* sendmsg() with msg_name */
	N_SENDMMSG,		/* sendmmsg() with msg_name */
	N_CONNECTED_SENDTO,	/* connect() to PORT_OTHER, then sendto() the address */
	N_FASTOPEN,		/* TCP: sendto(MSG_FASTOPEN), which connects */
	N_URING_CONNECT,	/* io_uring IORING_OP_CONNECT */
};

/* The address's family, when not the socket's. */
#define SA_INET		AF_INET		/* a sockaddr_in on an AF_INET6 socket */
#define SA_UNSPEC	(-1)		/* a sockaddr_in with sin_family AF_UNSPEC */

struct net {
	int family;
	int type;
	const char *addr;
	enum net_how how;
	int sa;		/* 0: the socket's family; SA_INET; SA_UNSPEC */
};

/* Did a datagram carrying @tag reach listener @fd? Drains what is queued. */
static bool udp_arrived(int fd, const char *tag)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[256];
	bool found = false;
	ssize_t n;

	poll(&pfd, 1, 500);
	while ((n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) >= 0) {
		buf[n] = '\0';
		if (!strcmp(buf, tag))
			found = true;
	}
	return found;
}

static int udp_listener_for(const char *addr)
{
	return strchr(addr, '.') ? l_udp4 : l_udp6;	/* IPv4 or IPv4-mapped */
}

static int p_net(const void *arg)
{
	const struct net *n = arg;
	struct sockaddr_storage ss, other;
	struct io_uring_sqe sqe = { 0 };
	struct iovec iov;
	struct mmsghdr mm = { 0 };
	struct msghdr msg = { 0 };
	socklen_t len, olen;
	struct uring r;
	char tag[32];
	int fd, err = 0, res;
	ssize_t sent;

	snprintf(tag, sizeof(tag), "esc-%d", getpid());
	fill_addr(&ss, &len, n->sa ? AF_INET : n->family, n->addr, PORT);
	if (n->sa == SA_UNSPEC)
		ss.ss_family = AF_UNSPEC;	/* udp_sendmsg() takes it for AF_INET */
	fd = socket(n->family, n->type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	iov.iov_base = tag;
	iov.iov_len = strlen(tag);
	msg.msg_name = &ss;
	msg.msg_namelen = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	switch (n->how) {
	case N_CONNECT:
		if (connect(fd, (struct sockaddr *)&ss, len))
			err = errno;
		return err;	/* connect() getting through is the escape */
	case N_SENDTO:
		sent = sendto(fd, tag, strlen(tag), 0, (struct sockaddr *)&ss, len);
		break;
	case N_SENDMSG:
		sent = sendmsg(fd, &msg, 0);
		break;
	case N_SENDMMSG:
		mm.msg_hdr = msg;
		sent = sendmmsg(fd, &mm, 1, 0) == 1 ? (ssize_t)mm.msg_len : -1;
		break;
	case N_CONNECTED_SENDTO:
		fill_addr(&other, &olen, n->family, n->addr, PORT_OTHER);
		if (connect(fd, (struct sockaddr *)&other, olen))
			return BROKEN;
		sent = sendto(fd, tag, strlen(tag), 0, (struct sockaddr *)&ss, len);
		break;
	case N_FASTOPEN:
		sent = sendto(fd, tag, strlen(tag), MSG_FASTOPEN, (struct sockaddr *)&ss, len);
		return sent < 0 ? errno : 0;	/* it connected and sent */
	case N_URING_CONNECT:
		err = uring_init(&r);
		if (err)
			return err;
		sqe.opcode = IORING_OP_CONNECT;
		sqe.fd = fd;
		sqe.addr = (uintptr_t)&ss;
		sqe.off = len;
		res = uring_run(&r, &sqe);
		return res < 0 ? -res : 0;
	default:
		return BROKEN;
	}
	if (sent < 0)
		return errno;
	return udp_arrived(udp_listener_for(n->addr), tag) ? 0 : BROKEN;
}

/*
 * A raw IPv4 socket (CAP_NET_RAW) sending a UDP datagram to port 25 of
 * its own making: the address it sends to has no port.
 */
static int p_raw_udp(const void *arg)
{
	struct {
		struct udphdr uh;
		char data[32];
	} pkt = { 0 };
	struct sockaddr_storage ss;
	socklen_t len;
	size_t dlen;
	int fd;

	(void)arg;
	snprintf(pkt.data, sizeof(pkt.data), "esc-%d", getpid());
	dlen = strlen(pkt.data);
	pkt.uh.source = htons(40000);
	pkt.uh.dest = htons(PORT);
	pkt.uh.len = htons(sizeof(pkt.uh) + dlen);
	pkt.uh.check = 0;	/* none: allowed for UDP over IPv4 */
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", 0);
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_UDP);
	if (fd < 0)
		return errno;
	if (sendto(fd, &pkt, sizeof(pkt.uh) + dlen, 0, (struct sockaddr *)&ss, len) < 0)
		return errno;
	return udp_arrived(l_udp4, pkt.data) ? 0 : BROKEN;
}

/* bind() a TCP socket to 0.0.0.0:PORT_BIND, the address's family @sa. */
static int p_bind(const void *sa)
{
	struct sockaddr_in sin = {
		.sin_family = *(const int *)sa,
		.sin_port = htons(PORT_BIND),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), err;
	socklen_t len = sizeof(sin);

	if (fd < 0)
		return errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	err = bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ? errno : 0;
	/* the port it got is the one asked for */
	if (!err && (getsockname(fd, (struct sockaddr *)&sin, &len) ||
		     ntohs(sin.sin_port) != PORT_BIND))
		err = BROKEN;
	close(fd);
	return err;
}

/* A socket connected outside (@req), passed in: send on it. */
static int p_passed_connected(const void *req)
{
	int fd = ask_outsider(*(const char *)req);
	char tag[32];
	ssize_t sent;

	if (fd < 0)
		return BROKEN;
	snprintf(tag, sizeof(tag), "esc-%d", getpid());
	sent = send(fd, tag, strlen(tag), MSG_NOSIGNAL);
	if (sent < 0)
		return errno;
	if (*(const char *)req == REQ_UDP_CONNECTED)
		return udp_arrived(l_udp4, tag) ? 0 : BROKEN;
	return 0;
}

/* A socket made outside (@req), not connected, passed in: reach port 25 with it. */
static int p_passed_fresh(const void *req)
{
	int fd = ask_outsider(*(const char *)req);
	struct sockaddr_storage ss;
	socklen_t len;
	char tag[32];

	if (fd < 0)
		return BROKEN;
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT);
	if (*(const char *)req == REQ_TCP_FRESH)
		return connect(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	snprintf(tag, sizeof(tag), "esc-%d", getpid());
	if (sendto(fd, tag, strlen(tag), 0, (struct sockaddr *)&ss, len) < 0)
		return errno;
	return udp_arrived(l_udp4, tag) ? 0 : BROKEN;
}

/*
 * Run from outside: a socket made inside the main cgroup (by a child
 * that joins it), passed out, connects to port 25 from here. Which
 * cgroup's policy the socket hooks follow: the socket's or the task's.
 */
static int p_socket_made_inside(const void *arg)
{
	struct sockaddr_storage ss;
	int sv[2], fd, s, err;
	socklen_t len;
	pid_t pid;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return BROKEN;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		if (cgroup_enter(cg.main))
			_exit(1);
		s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		_exit(s < 0 || send_fd(sv[1], s) ? 1 : 0);
	}
	fd = recv_fd(sv[0]);
	wait_child(pid);
	if (fd < 0)
		return BROKEN;
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT);
	err = connect(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	close(fd);
	return err;
}

/* --- probes: ptrace ------------------------------------------------------ */

/* Attach to the outsider; exiting detaches (the parent sends SIGCONT). */
static int p_ptrace(const void *req)
{
	return ptrace(*(const int *)req, outsider, NULL, NULL) ? errno : 0;
}

/* /proc/PID/mem of the outsider: write (O_RDWR) or read (O_RDONLY). */
static int p_proc_mem(const void *mode)
{
	static const char poke[] = "poked";
	char path[64], buf[sizeof(poke_target)];
	int flags = *(const int *)mode, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/mem", outsider);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (flags == O_RDWR)
		n = pwrite(fd, poke, sizeof(poke), (off_t)(uintptr_t)poke_target);
	else
		n = pread(fd, buf, sizeof(buf), (off_t)(uintptr_t)poke_target);
	close(fd);
	return n > 0 ? 0 : errno;
}

static int p_vm_readv(const void *arg)
{
	char buf[sizeof(poke_target)];
	struct iovec local = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iovec remote = { .iov_base = poke_target, .iov_len = sizeof(buf) };

	(void)arg;
	return process_vm_readv(outsider, &local, 1, &remote, 1, 0) > 0 ? 0 : errno;
}

static int p_vm_writev(const void *arg)
{
	char buf[] = "poked";
	struct iovec local = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iovec remote = { .iov_base = poke_target, .iov_len = sizeof(buf) };

	(void)arg;
	return process_vm_writev(outsider, &local, 1, &remote, 1, 0) > 0 ? 0 : errno;
}

/* pidfd_getfd() the outsider's descriptor of the secret, read it. */
static int p_pidfd_getfd(const void *arg)
{
	int pfd = syscall(SYS_pidfd_open, outsider, 0), fd, err;

	(void)arg;
	if (pfd < 0)
		return errno;
	fd = syscall(SYS_pidfd_getfd, pfd, OUT_FD, 0);
	err = fd < 0 ? errno : read_fd_marker(fd);
	close(pfd);
	if (fd >= 0)
		close(fd);
	return err;
}

static int p_proc_environ(const void *arg)
{
	char path[64], buf[4096];
	int fd;
	ssize_t n;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/environ", outsider);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return errno;
	return memmem(buf, n, "PATH=", 5) ? 0 : BROKEN;	/* NUL-separated */
}

/* --- running attempts ------------------------------------------------------ */

/* Run @fn(@arg) in a child that first joins cgroup @name: what it returns. */
static int probe(const char *name, probe_fn fn, const void *arg)
{
	int status;
	pid_t pid;

	if (pre_probe)
		pre_probe();
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		alarm(PROBE_TIMEOUT);
		_exit(cgroup_enter(name) ? BROKEN : fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return BROKEN;
	if (WIFSIGNALED(status)) {
		tap_note("the probe died of signal %d", WTERMSIG(status));
		return BROKEN;
	}
	return WEXITSTATUS(status);
}

/* After each probe: wake the outsider (a ptrace attach stops it), drain listeners. */
static void after_probe(void)
{
	char buf[256];
	int fd;

	kill(outsider, SIGCONT);
	while ((fd = accept4(l_tcp4, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(fd);
	while ((fd = accept4(l_tcp6, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(fd);
	while (recv(l_udp4, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;
	while (recv(l_udp6, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;
}

static const char *status_name(int rc)
{
	return rc == BROKEN ? "could not try" : errname(rc);
}

/*
 * The control: @what works from the sibling cgroup. False when the
 * kernel has no such thing (ENOSYS): the attempt is skipped.
 */
static bool control(const char *what, probe_fn fn, const void *arg)
{
	int rc = probe(cg.ctl, fn, arg);

	after_probe();
	if (rc == ENOSYS) {
		tap_result(1, "%s # SKIP not in this kernel (ENOSYS)", what);
		record(what, "skipped (ENOSYS: not in this kernel)", NULL);
		return false;
	}
	tap_result(rc == 0, "control: %s works from the sibling cgroup %s (got %s)", what,
		   cg.ctl, status_name(rc));
	return true;
}

/*
 * One attempt, in cgroup @name, after its control when @ctl. @why: for
 * a limit, why the policy does not hold; for a hold, what holds it.
 */
static void attempt_errno(const char *name, enum kind kind, int want, bool ctl,
			  const char *what, const char *why, probe_fn fn, const void *arg)
{
	char verdict[64];
	int rc;

	if (ctl && !control(what, fn, arg))
		return;
	rc = probe(name, fn, arg);
	after_probe();
	if (rc == want) {
		tap_result(1, "held: %s (%s)%s", what, errname(rc),
			   kind == HOLD ? "" : " # a limit elsewhere, held here");
		snprintf(verdict, sizeof(verdict), "held (%s)%s", errname(rc),
			 kind == HOLD ? "" : ", though listed as a limit");
		record(what, verdict, why);
	} else if (rc == 0 && kind == HOLD) {
		tap_result(0, "ESCAPED: %s (it worked inside %s)", what, name);
		record(what, "ESCAPED", why);
	} else if (rc == 0 && kind == DOC) {
		tap_result(1, "not held (documented limit): %s: %s # TODO documented limit",
			   what, why);
		record(what, "not held: documented limit", why);
	} else if (rc == 0) {
		tap_result(1, "not held (a limit POLICY.md does not name): %s: %s # TODO limit",
			   what, why);
		record(what, "not held: limit POLICY.md does not name", why);
	} else {
		tap_result(0, "%s: %s inside %s, not the policy's EPERM", what, status_name(rc),
			   name);
		record(what, rc == BROKEN ? "could not try" : "failed, not EPERM", NULL);
	}
}

/* An attempt the policy denies with EPERM, as every denial of the engine. */
static void attempt(const char *name, enum kind kind, bool ctl, const char *what,
		    const char *why, probe_fn fn, const void *arg)
{
	attempt_errno(name, kind, EPERM, ctl, what, why, fn, arg);
}

static void skip(const char *what, const char *why)
{
	tap_result(1, "%s # SKIP %s", what, why);
	record(what, "skipped", why);
}

/* --- setup ------------------------------------------------------------- */

static int parse_args(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--backend") && i + 1 < argc)
			backend = argv[++i];
		else if (!strncmp(argv[i], "--backend=", 10))
			backend = argv[i] + 10;
		else
			return -1;
	}
	reduced = !strcmp(backend, "cgroup") && !lab_series();
	return strcmp(backend, "cgroup") && strcmp(backend, "global") ? -1 : 0;
}

static void make_names(void)
{
	const char *d = f.dir;

	snprintf(cg.main, sizeof(cg.main), "esc-%s", backend);
	snprintf(cg.list, sizeof(cg.list), "esc-%s-list", backend);
	snprintf(cg.v4, sizeof(cg.v4), "esc-%s-v4", backend);
	snprintf(cg.ctl, sizeof(cg.ctl), "esc-%s-ctl", backend);
	snprintf(cg.more, sizeof(cg.more), "esc-%s-more", backend);

	snprintf(f.mnt, sizeof(f.mnt), "/tmp/esc-%s", backend);
	snprintf(f.dir, sizeof(f.dir), "%s/esc-%s", f.mnt, backend);
	snprintf(f.m2, sizeof(f.m2), "/tmp/esc-%s-m2", backend);
	snprintf(f.secret, sizeof(f.secret), "%s/secret", d);
	snprintf(f.secret_m2, sizeof(f.secret_m2), "%s/esc-%s/secret", f.m2, backend);
	snprintf(f.vault, sizeof(f.vault), "%s/vault", d);
	snprintf(f.vault_file, sizeof(f.vault_file), "%s/vault/file", d);
	snprintf(f.vault_sub, sizeof(f.vault_sub), "%s/vault/sub", d);
	snprintf(f.vault_deep, sizeof(f.vault_deep), "%s/vault/sub/deep", d);
	snprintf(f.vault_script, sizeof(f.vault_script), "%s/vault/script.sh", d);
	snprintf(f.vault_movable, sizeof(f.vault_movable), "%s/vault/movable", d);
	snprintf(f.vault_linkable, sizeof(f.vault_linkable), "%s/vault/linkable", d);
	snprintf(f.bin, sizeof(f.bin), "%s/bin", d);
	snprintf(f.denied, sizeof(f.denied), "%s/bin/denied", d);
	snprintf(f.denied_dyn, sizeof(f.denied_dyn), "%s/bin/denied-dyn", d);
	snprintf(f.denied_sh, sizeof(f.denied_sh), "%s/bin/denied.sh", d);
	snprintf(f.work, sizeof(f.work), "%s/work", d);
	snprintf(f.hl_before, sizeof(f.hl_before), "%s/work/hardlink-before", d);
	snprintf(f.bind_dir, sizeof(f.bind_dir), "%s/work/bind-dir", d);
	snprintf(f.bind_file, sizeof(f.bind_file), "%s/work/bind-file", d);
	snprintf(f.policies, sizeof(f.policies), "%s/policies", d);
	snprintf(f.bin_copy, sizeof(f.bin_copy), "/bin/esc-%s-copy", backend);
	snprintf(f.vault_handle, sizeof(f.vault_handle), "%s/vault/handle", d);
	/* at most 27 characters, the length of the PT_INTERP it replaces */
	snprintf(f.ldso_copy, sizeof(f.ldso_copy), "%s/ld", f.mnt);
	snprintf(f.interp_dyn, sizeof(f.interp_dyn), "%s/bin/interp-dyn", d);
	snprintf(f.read_denied, sizeof(f.read_denied), "%s/bin/read-denied", d);
	snprintf(f.nocreate, sizeof(f.nocreate), "%s/nocreate", d);
	snprintf(f.wprot, sizeof(f.wprot), "%s/wprot", d);
	snprintf(f.rwprot, sizeof(f.rwprot), "%s/rwprot", d);
}

/*
 * Make @path's PT_INTERP name @interp (NUL-padded; no longer than the
 * original): the kernel then loads @interp as the program's ELF
 * interpreter. 0 or an errno.
 */
static int patch_interp(const char *path, const char *interp)
{
	size_t len, want = strlen(interp) + 1;
	unsigned char *buf = slurp(path, &len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph;
	int i, err = ENOEXEC;

	if (!buf)
		return errno ? errno : EIO;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > len)
		goto out;
	for (i = 0; i < eh->e_phnum; i++) {
		ph = (Elf64_Phdr *)(buf + eh->e_phoff) + i;
		if (ph->p_type != PT_INTERP)
			continue;
		if (ph->p_offset + ph->p_filesz > len || want > ph->p_filesz) {
			err = ENAMETOOLONG;
			goto out;
		}
		memset(buf + ph->p_offset, 0, ph->p_filesz);
		memcpy(buf + ph->p_offset, interp, want);
		err = put_file(path, buf, len, 0755);
		goto out;
	}
out:
	free(buf);
	return err;
}

/* A secret ABYSS_DEPTH directories below the secret dir: 0 or an errno. */
static int make_abyss(void)
{
	size_t n = snprintf(f.abyss, sizeof(f.abyss), "%s/abyss", f.vault);
	char text[128];
	int i;

	if (mkdir(f.abyss, 0755))
		return errno;
	for (i = 1; i < ABYSS_DEPTH; i++) {
		n += snprintf(f.abyss + n, sizeof(f.abyss) - n, "/d");
		if (n >= sizeof(f.abyss))
			return ENAMETOOLONG;
		if (mkdir(f.abyss, 0755))
			return errno;
	}
	n += snprintf(f.abyss + n, sizeof(f.abyss) - n, "/secret");
	if (n >= sizeof(f.abyss))
		return ENAMETOOLONG;
	snprintf(text, sizeof(text), MARK "%s:abyss\n", backend);
	return put_str(f.abyss, text, 0644);
}

/* The scratch disk at f.mnt, or a tmpfs; then the tree below it. */
static int prepare_files(void)
{
	const char *dirs[] = { f.dir, f.vault, f.vault_sub, f.bin, f.work, f.bind_dir,
			       f.policies, f.nocreate };
	char text[128];
	size_t i;
	int err, fd, blk = 0, bsz = 0;

	if (mkdir(f.mnt, 0755) && errno != EEXIST)
		return errno;
	if (mkdir(f.m2, 0755) && errno != EEXIST)
		return errno;
	on_disk = !access(SCRATCH_DISK, F_OK) && !mount(SCRATCH_DISK, f.mnt, "ext4", 0, NULL);
	if (!on_disk && mount("esc-tmpfs", f.mnt, "tmpfs", 0, "mode=0755"))
		return errno;
	tap_note("files on %s", on_disk ? SCRATCH_DISK " (ext4)" : "a tmpfs");
	rm_rf(f.dir);	/* a run before that died */
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755))
			return errno;

#define SECRET(path, name) \
	(snprintf(text, sizeof(text), MARK "%s:%s\n", backend, name), put_str(path, text, 0644))
	err = SECRET(f.secret, "file") ?: SECRET(f.vault_file, "vault") ?:
	      SECRET(f.vault_deep, "deep") ?: SECRET(f.vault_movable, "movable") ?:
	      SECRET(f.vault_linkable, "linkable") ?: SECRET(f.vault_handle, "handle") ?:
	      SECRET(f.wprot, "write-protected") ?: SECRET(f.rwprot, "rw-protected") ?:
	      put_str(f.vault_script, "#!/bin/sh\necho " MARK "script-ran\n", 0755) ?:
	      put_str(f.denied_sh, "#!/bin/sh\necho " RAN_MARK "-script\n", 0755) ?:
	      put_str(f.bind_file, "", 0644) ?:
	      copy_file(BUSYBOX, f.denied, 0755) ?: copy_file(BPFTOOL, f.denied_dyn, 0755) ?:
	      copy_file(BUSYBOX, f.read_denied, 0755) ?: copy_file(LDSO, f.ldso_copy, 0755) ?:
	      copy_file(BPFTOOL, f.interp_dyn, 0755) ?: patch_interp(f.interp_dyn, f.ldso_copy) ?:
	      make_abyss();
#undef SECRET
	if (err)
		return err;
	/* a hard link made outside, before the policy */
	if (link(f.secret, f.hl_before))
		return errno;
	if (!on_disk)
		return 0;
	/* where the secret's data sits on the disk, for the raw device attempt */
	fd = open(f.secret, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !ioctl(fd, LAB_FIGETBSZ, &bsz) && !ioctl(fd, LAB_FIBMAP, &blk) && blk)
		raw_off = (off_t)blk * bsz;
	else
		tap_note("FIBMAP of the secret: %s (block %d)", strerror(errno), blk);
	if (fd >= 0)
		close(fd);
	return 0;
}

/* A socket of @type bound to @addr:PORT, listening when TCP, non-blocking; or -1. */
static int listener(int family, int type, const char *addr)
{
	struct sockaddr_storage ss;
	int one = 1, fd;
	socklen_t len;

	fill_addr(&ss, &len, family, addr, PORT);
	fd = socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);	/* for draining */
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) ||
	    (type == SOCK_STREAM && listen(fd, 128))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int start_helpers(void)
{
	int sv[2];

	l_tcp4 = listener(AF_INET, SOCK_STREAM, "127.0.0.1");
	l_tcp6 = listener(AF_INET6, SOCK_STREAM, "::1");
	l_udp4 = listener(AF_INET, SOCK_DGRAM, "127.0.0.1");
	l_udp6 = listener(AF_INET6, SOCK_DGRAM, "::1");
	if (l_tcp4 < 0 || l_tcp6 < 0 || l_udp4 < 0 || l_udp6 < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	fflush(NULL);
	outsider = fork();
	if (outsider < 0)
		return -1;
	if (outsider == 0) {
		close(sv[0]);
		outsider_main(sv[1]);
	}
	close(sv[1]);
	srv_sock = sv[0];
	return 0;
}

static int make_cgroups(void)
{
	const char *names[] = { cg.main, cg.list, cg.v4, cg.ctl, cg.more };
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		fd = cgroup_make(names[i]);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

static int cgroup_remove(const char *name)
{
	char path[BLEN];
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

/* Run lsmctl with @args (NULL-terminated, after the command name). */
static int lsmctl(char *out, size_t len, const char *const *args)
{
	char *argv[16];
	int n = 0;

	argv[n++] = LSMCTL;
	while (*args && n < 15)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	return run_prog(LSMCTL, -1, argv, out, len);
}

static void note_lines(const char *text)
{
	const char *nl;

	while (*text) {
		nl = strchrnul(text, '\n');
		tap_note("  %.*s", (int)(nl - text), text);
		text = *nl ? nl + 1 : nl;
	}
}

/* Write policy @name's YAML (after the name and self_protection lines). */
__attribute__((format(printf, 3, 4)))
static int write_policy(struct policy_file *p, const char *name, const char *fmt, ...)
{
	char body[4096], text[4608];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	snprintf(p->path, sizeof(p->path), "%s/%s.yaml", f.policies, name);
	snprintf(text, sizeof(text), "name: esc-%s-%s\n%s", backend, name, body);
	return put_str(p->path, text, 0644);
}

static int write_policies(void)
{
	cg_path(pol_main.cgroup, sizeof(pol_main.cgroup), cg.main);
	cg_path(pol_list.cgroup, sizeof(pol_list.cgroup), cg.list);
	cg_path(pol_v4.cgroup, sizeof(pol_v4.cgroup), cg.v4);
	cg_path(pol_more.cgroup, sizeof(pol_more.cgroup), cg.more);
	return write_policy(&pol_main, "main",
		"rules:\n"
		"  - files: %1$s/secret\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/vault/**\n"
		"    access: read\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/denied\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/denied-dyn\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/denied.sh\n"
		"    action: deny\n"
		/* an ELF interpreter: the kernel opens it with no bprm_check */
		"  - exec: %2$s\n"
		"    action: deny\n"
		/* exec allowed, read denied: an exec's own open is not a read */
		"  - files: %1$s/bin/read-denied\n"
		"    access: read\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/read-denied\n"
		"    action: allow\n"
		"  - network: connect\n"
		"    family: inet\n"
		"    ports: 25\n"
		"    action: deny\n"
		"  - network: connect\n"
		"    family: inet6\n"
		"    ports: 25\n"
		"    action: deny\n"
		"  - ptrace: deny\n", f.dir, f.ldso_copy) ?:
	       /* an exec allow-list: this test's own binary is under /lab */
	       write_policy(&pol_list, "list",
		"default: deny\n"
		"rules:\n"
		"  - exec: /bin/**\n"
		"    action: allow\n"
		"  - exec: /lab/**\n"
		"    action: allow\n") ?:
	       /* IPv4 only: does ::ffff:127.0.0.1 count as IPv4? And a bind rule */
	       write_policy(&pol_v4, "v4",
		"rules:\n"
		"  - network: connect\n"
		"    family: inet\n"
		"    cidr: 127.0.0.0/8\n"
		"    ports: 25\n"
		"    action: deny\n"
		"  - network: bind\n"
		"    family: inet\n"
		"    ports: %d\n"
		"    action: deny\n", PORT_BIND) ?:
	       /* issue #12's other doors: an exec allow-list of a directory nothing may be made in */
	       write_policy(&pol_more, "more",
		"default: deny\n"
		"rules:\n"
		"  - exec: %1$s/nocreate/**\n"
		"    action: allow\n"
		"  - exec: /bin/**\n"
		"    action: allow\n"
		"  - files: %1$s/nocreate/**\n"
		"    access: create\n"
		"    action: deny\n"
		"  - files: %1$s/wprot\n"
		"    access: write\n"
		"    action: deny\n"
		"  - files: %1$s/rwprot\n"
		"    access: [read, write]\n"
		"    action: deny\n", f.dir);
}

static bool apply(struct policy_file *p)
{
	const char *args[] = { "apply", p->path, "--cgroup", p->cgroup, "--backend", backend,
			       NULL };
	char out[4096];
	int rc = lsmctl(out, sizeof(out), args);

	p->applied = rc == 0;
	tap_result(rc == 0, "lsmctl apply %s --cgroup %s --backend %s (status %d)",
		   strrchr(p->path, '/') + 1, p->cgroup, backend, rc);
	note_lines(out);
	return rc == 0;
}

static void detach(struct policy_file *p)
{
	const char *args[] = { "detach", "--cgroup", p->cgroup, NULL };
	char out[4096];
	int rc;

	if (!p->applied)
		return;
	rc = lsmctl(out, sizeof(out), args);
	tap_result(rc == 0, "lsmctl detach --cgroup %s (status %d)", p->cgroup, rc);
	if (rc)
		note_lines(out);
}

/* --- the attempts ------------------------------------------------------ */

static void test_leave(void)
{
	tap_note("--- leaving the cgroup, then reading the secret");
	attempt(cg.main, HOLD, true, "move itself to the root cgroup (cgroup.procs), read there",
		"self-protection: file_open of a cgroup.procs for writing", p_leave_cgroup, NULL);
	attempt(cg.main, HOLD, true, "clone3(CLONE_INTO_CGROUP) a child into the root cgroup, "
		"read there", "self-protection: the guard's task_alloc refuses CLONE_INTO_CGROUP",
		p_clone_into_root, NULL);
}

static void test_files(void)
{
	static const bool inline_sqe = false, async_sqe = true;
	static struct move mv_secret, mv_vault, mv_out;
	static struct bind bind_vault, bind_sub, bind_secret;
	const char *m = cg.main;

	mv_secret = (struct move){ f.secret, NULL };
	mv_vault = (struct move){ f.vault, "/file" };
	mv_out = (struct move){ f.vault_movable, NULL };
	bind_vault = (struct bind){ f.vault, "/file", false };
	bind_sub = (struct bind){ f.vault_sub, "/deep", false };
	bind_secret = (struct bind){ f.secret, NULL, true };

	tap_note("--- files: %s (exact rule), %s/** (subtree rule)", f.secret, f.vault);
	attempt(m, HOLD, true, "read the secret (open O_RDONLY)", "file_open, exact rule",
		p_read, f.secret);
	attempt(m, HOLD, true, "read the secret opened O_RDWR", "file_open: FMODE_READ",
		p_read_rdwr, f.secret);
	attempt(m, HOLD, true, "read a file under the secret dir", "file_open, subtree rule",
		p_read, f.vault_file);
	attempt(m, HOLD, true, "read a file two levels under the secret dir",
		"file_open, subtree rule", p_read, f.vault_deep);
	attempt(m, HOLD, true, "read the secret through a symlink made inside",
		"file_open sees the target", p_symlink, f.secret);
	attempt(m, HOLD, true, "read the secret through a hard link made inside",
		"same inode", p_hardlink, f.secret);
	attempt(m, HOLD, true, "read the secret through a hard link made outside beforehand",
		"same inode", p_read, f.hl_before);
	attempt(m, HOLD, true, "rename the secret (same filesystem), read the new name",
		"same inode; rename is allowed, the renamed file still denied",
		p_rename, &mv_secret);
	attempt(m, HOLD, true, "rename the secret dir, read a file under the new name",
		"the subtree rule is on the directory's inode", p_rename, &mv_vault);
	attempt(m, HOLD, true, "bind-mount the secret dir elsewhere, read through the mount",
		"same dentries; the climb is by d_parent", p_bind_mount, &bind_vault);
	attempt(m, HOLD, true, "bind-mount a subdirectory of the secret dir, read below it",
		"the climb goes past the mount's root", p_bind_mount, &bind_sub);
	attempt(m, HOLD, true, "bind-mount the secret over another file, read it",
		"same inode", p_bind_mount, &bind_secret);
	attempt(m, HOLD, true, "O_PATH open, then open(\"/proc/self/fd/N\", O_RDONLY)",
		"the reopen is a file_open", p_opath_reopen, f.secret);
	attempt(m, HOLD, true, "open the secret O_WRONLY (allowed), reopen that fd O_RDONLY "
		"via /proc/self/fd/N", "the reopen is a file_open for reading",
		p_wronly_reopen, f.secret);
	attempt(m, HOLD, true, "openat2(RESOLVE none)", "file_open", p_openat2, f.secret);
	attempt(m, HOLD, true, "io_uring IORING_OP_OPENAT (then IORING_OP_READ)",
		"file_open in the submitter's context", p_uring_openat, &inline_sqe);
	attempt(m, HOLD, true, "io_uring IORING_OP_OPENAT with IOSQE_ASYNC (io-wq worker)",
		"io-wq workers are the task's threads, in its cgroup", p_uring_openat,
		&async_sqe);
	attempt(m, HOLD, true, "name_to_handle_at + open_by_handle_at",
		"file_open", p_handle, f.secret);
	/* proc reports a refused ptrace_may_access() on a link as EACCES */
	attempt_errno(m, HOLD, EACCES, true, "open /proc/OUTSIDER/root/... (an outside task's root)",
		      "self-protection: the guard's ptrace check (PTRACE_MODE_READ) on the link",
		      p_proc_root, f.secret);
	attempt_errno(m, HOLD, EACCES, true,
		      "reopen an outside task's open secret via /proc/OUTSIDER/fd/N",
		      "self-protection: the guard's ptrace check (PTRACE_MODE_READ) on the link",
		      p_proc_fd, NULL);
	attempt(m, HOLD, true, "pidfd_getfd() of an outside task's open secret",
		"PTRACE_MODE_ATTACH_REALCREDS: the ptrace rule", p_pidfd_getfd, NULL);
	attempt(m, HOLD, true, "unshare(CLONE_NEWNS), read the secret in the new namespace",
		"same dentries", p_unshare_read, f.secret);
	attempt(m, HOLD, true, "unshare(CLONE_NEWNS), read under the secret dir",
		"same dentries", p_unshare_read, f.vault_file);
	attempt(m, HOLD, true, "unshare(CLONE_NEWUSER | CLONE_NEWNS), read the secret",
		"file_open does not look at namespaces", p_userns_read, f.secret);
	attempt(m, HOLD, true, "open_tree(OPEN_TREE_CLONE) of the secret dir, openat() in the "
		"detached copy", "same dentries", p_open_tree, NULL);
	attempt(m, HOLD, true, "sendfile() from the secret (opened inside) to a pipe",
		"the open is denied", p_open_via, &via_sendfile);
	attempt(m, HOLD, true, "splice() from the secret (opened inside) to a pipe",
		"the open is denied", p_open_via, &via_splice);
	attempt(m, HOLD, true, "mmap() the secret (opened inside)", "the open is denied",
		p_open_via, &via_mmap);
	if (on_disk) {
		attempt(m, HOLD, true, "mount the same ext4 filesystem a second time, read there",
			"same superblock, same inode", p_second_mount, NULL);
	} else {
		skip("mount the same filesystem a second time", "no scratch disk");
	}

	attempt(m, DOC, false, "read an fd opened outside, passed in over SCM_RIGHTS",
		"rules are checked at open (file_open); a descriptor opened outside the cgroup "
		"is not checked again", p_passed_via, &via_read);
	attempt(m, DOC, false, "mmap() that passed fd", "no check after open",
		p_passed_via, &via_mmap);
	attempt(m, DOC, false, "sendfile() from that passed fd to a pipe", "no check after open",
		p_passed_via, &via_sendfile);
	attempt(m, DOC, false, "splice() from that passed fd to a pipe", "no check after open",
		p_passed_via, &via_splice);

	attempt(m, DOC, true, "hard-link a file from the secret dir to outside it, read the link",
		"a subtree rule is found by climbing d_parent from the name opened, and the "
		"link's parent is outside the dir (POLICY.md: what is below DIR); a files "
		"unlink rule on DIR/** stops the link (inode_link)", p_hardlink,
		f.vault_linkable);
	attempt(m, DOC, true, "rename a file out of the secret dir (same filesystem), read it",
		"as above: the moved file has left the subtree; a files unlink rule on DIR/** "
		"stops the rename", p_rename, &mv_out);
	if (on_disk && raw_off >= 0) {
		attempt(m, DOC, true, "read the secret's block from the raw disk (/dev/vda)",
			"file rules are on inodes, not data; the block device is another file "
			"(a files rule on the device node, or capability rules, would be needed)",
			p_raw_device, NULL);
	} else {
		skip("read the secret's block from the raw disk", "no scratch disk");
	}
}

static void test_exec(void)
{
	static struct script denied_sh, vault_sh;
	const char *m = cg.main;

	denied_sh = (struct script){ f.denied_sh, RAN_MARK "-script" };
	vault_sh = (struct script){ f.vault_script, MARK "script-ran" };

	tap_note("--- exec: %s (busybox), %s (bpftool), %s", f.denied, f.denied_dyn,
		 f.denied_sh);
	attempt(m, HOLD, true, "execve the denied binary", "bprm_check_security",
		p_exec, f.denied);
	attempt(m, HOLD, true, "execve it through a symlink made inside", "same inode",
		p_exec_symlink, f.denied);
	attempt(m, HOLD, true, "execve it through a hard link made inside", "same inode",
		p_exec_hardlink, f.denied);
	attempt(m, HOLD, true, "rename it, execve the new name", "same inode",
		p_exec_renamed, f.denied);
	attempt(m, HOLD, true, "execveat(O_PATH fd, \"\", AT_EMPTY_PATH)", "same inode",
		p_execveat_opath, f.denied);
	attempt(m, HOLD, true, "execve(\"/proc/self/fd/N\") of an O_PATH fd", "same inode",
		p_exec_proc_fd, f.denied);
	attempt(m, HOLD, true, "execve the denied script", "bprm_check_security on the script",
		p_exec_script, &denied_sh);
	attempt(m, HOLD, true, "execve a script in the secret dir (its interpreter reads it)",
		"the interpreter's open is a read: file_open, subtree rule",
		p_exec_script, &vault_sh);
	attempt(m, HOLD, true, "sh SCRIPT for a script in the secret dir",
		"sh opens it for reading: file_open, subtree rule", p_sh_script, &vault_sh);

	attempt(m, DOC, false, "run a copy of the denied binary",
		"rules follow inodes: a copy is a new inode (POLICY.md: paths by name); "
		"see the exec allow-list below", p_exec_copy, NULL);
	attempt(m, DOC, false, "memfd_create + write the binary + execveat(AT_EMPTY_PATH)",
		"a memfd is a new inode, like a copy; see the exec allow-list below",
		p_exec_memfd, NULL);
	attempt(m, DOC, false, "sh SCRIPT for the denied script",
		"exec rules are checked at execve (bprm_check_security); sh opens the script "
		"for reading, which no read rule denies", p_sh_script, &denied_sh);
	attempt(m, DOC, false, LDSO " DENIED (a dynamic binary run by its loader)",
		"the loader opens and mmaps the file: no execve of it, as with sh SCRIPT; "
		"see the exec allow-list below", p_ldso, NULL);
}

static void test_allow_list(void)
{
	static struct script denied_sh;
	const char *l = cg.list;
	int rc;

	denied_sh = (struct script){ f.denied_sh, RAN_MARK "-script" };
	tap_note("--- the exec allow-list in %s: default deny, exec /bin/** and /lab/** allowed",
		 l);
	rc = probe(l, p_exec, BUSYBOX);
	after_probe();
	tap_result(rc == 0, "control: the allow-list still runs /bin/busybox (got %s)",
		   status_name(rc));
	attempt(l, HOLD, true, "allow-list: run a copy of the denied binary",
		"default deny for exec", p_exec_copy, NULL);
	attempt(l, HOLD, true, "allow-list: memfd_create + execveat(AT_EMPTY_PATH)",
		"default deny for exec", p_exec_memfd, NULL);
	attempt(l, HOLD, true, "allow-list: " LDSO " DENIED",
		"the loader itself is not on the list", p_ldso, NULL);
	attempt(l, HOLD, true, "allow-list: execve the denied script", "default deny",
		p_exec_script, &denied_sh);
	attempt(l, DOC, false, "allow-list: sh SCRIPT for the denied script",
		"/bin/sh is allowed, and reading the script is not an exec",
		p_sh_script, &denied_sh);
	attempt(l, DOC, false, "allow-list: copy the denied binary into /bin, run it",
		"a subtree rule covers files created in it later (POLICY.md: paths by name); "
		"root can write an allow-listed directory; a files create deny on it would "
		"stop that (6 more hooks)", p_exec_copy, f.bin_copy);
	unlink(f.bin_copy);
}

static void test_network(void)
{
	static const struct net
		tcp4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_CONNECT, 0 },
		tcp6 = { AF_INET6, SOCK_STREAM, "::1", N_CONNECT, 0 },
		tcp_mapped = { AF_INET6, SOCK_STREAM, "::ffff:127.0.0.1", N_CONNECT, 0 },
		udp4_connect = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_CONNECT, 0 },
		udp6_connect = { AF_INET6, SOCK_DGRAM, "::1", N_CONNECT, 0 },
		udp4_sendto = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDTO, 0 },
		udp6_sendto = { AF_INET6, SOCK_DGRAM, "::1", N_SENDTO, 0 },
		udp_mapped_sendto = { AF_INET6, SOCK_DGRAM, "::ffff:127.0.0.1", N_SENDTO, 0 },
		udp4_sendmsg = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDMSG, 0 },
		udp6_sendmsg = { AF_INET6, SOCK_DGRAM, "::1", N_SENDMSG, 0 },
		udp4_sendmmsg = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDMMSG, 0 },
		udp4_redirect = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_CONNECTED_SENDTO, 0 },
		tfo4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_FASTOPEN, 0 },
		tfo6 = { AF_INET6, SOCK_STREAM, "::1", N_FASTOPEN, 0 },
		uring4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_URING_CONNECT, 0 },
		uring6 = { AF_INET6, SOCK_STREAM, "::1", N_URING_CONNECT, 0 },
		tcp4_any = { AF_INET, SOCK_STREAM, "0.0.0.0", N_CONNECT, 0 },
		tcp6_any = { AF_INET6, SOCK_STREAM, "::", N_CONNECT, 0 },
		udp4_unspec_sendto = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDTO, SA_UNSPEC },
		udp4_unspec_sendmsg = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDMSG, SA_UNSPEC },
		udp6_sin_sendto = { AF_INET6, SOCK_DGRAM, "127.0.0.1", N_SENDTO, SA_INET };
	static const int sa_inet = AF_INET, sa_unspec = AF_UNSPEC;
	static const char udp_conn = REQ_UDP_CONNECTED, tcp_conn = REQ_TCP_CONNECTED;
	static const char tcp_fresh = REQ_TCP_FRESH, udp_fresh = REQ_UDP_FRESH;
	bool global = !strcmp(backend, "global");
	const char *m = cg.main;
	int rc;

	tap_note("--- network: connect to port 25, family inet and family inet6");
	attempt(m, HOLD, true, "TCP connect 127.0.0.1:25", "socket_connect", p_net, &tcp4);
	attempt(m, HOLD, true, "TCP connect [::1]:25", "socket_connect, the inet6 rule",
		p_net, &tcp6);
	attempt(m, HOLD, true, "TCP connect [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"socket_connect", p_net, &tcp_mapped);
	attempt(m, HOLD, true, "UDP connect() 127.0.0.1:25", "socket_connect",
		p_net, &udp4_connect);
	attempt(m, HOLD, true, "UDP connect() [::1]:25", "socket_connect", p_net, &udp6_connect);
	attempt(m, HOLD, true, "UDP sendto() 127.0.0.1:25 without connect",
		"socket_sendmsg checks msg_name", p_net, &udp4_sendto);
	attempt(m, HOLD, true, "UDP sendto() [::1]:25 without connect",
		"socket_sendmsg checks msg_name", p_net, &udp6_sendto);
	attempt(m, HOLD, true, "UDP sendto() [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"socket_sendmsg", p_net, &udp_mapped_sendto);
	attempt(m, HOLD, true, "UDP sendmsg() with msg_name 127.0.0.1:25", "socket_sendmsg",
		p_net, &udp4_sendmsg);
	attempt(m, HOLD, true, "UDP sendmsg() with msg_name [::1]:25", "socket_sendmsg",
		p_net, &udp6_sendmsg);
	attempt(m, HOLD, true, "UDP sendto() 127.0.0.1:25, the sockaddr_in's sin_family "
		"AF_UNSPEC (udp_sendmsg() takes it as AF_INET)",
		"socket_sendmsg: POLICY.md, connect rules also check sendto with an address",
		p_net, &udp4_unspec_sendto);
	attempt(m, HOLD, true, "UDP sendmsg() with msg_name 127.0.0.1:25, sin_family AF_UNSPEC",
		"socket_sendmsg", p_net, &udp4_unspec_sendmsg);
	attempt(m, HOLD, true, "UDP sendto() a sockaddr_in 127.0.0.1:25 on an AF_INET6 socket",
		"socket_sendmsg: the address's own family", p_net, &udp6_sin_sendto);
	attempt(m, HOLD, true, "TCP connect 0.0.0.0:25 (Linux connects to loopback)",
		"socket_connect: the rule is on any address", p_net, &tcp4_any);
	attempt(m, HOLD, true, "TCP connect [::]:25 (Linux connects to ::1)",
		"socket_connect: the rule is on any address", p_net, &tcp6_any);
	attempt(m, HOLD, true, "UDP sendmmsg() with msg_name 127.0.0.1:25",
		"socket_sendmsg, once per message", p_net, &udp4_sendmmsg);
	attempt(m, HOLD, true, "UDP connect() to port 26 (allowed), then sendto() port 25",
		"socket_sendmsg checks msg_name", p_net, &udp4_redirect);
	attempt(m, HOLD, true, "TCP Fast Open: sendto(MSG_FASTOPEN) 127.0.0.1:25, no connect()",
		"socket_sendmsg sees the address", p_net, &tfo4);
	attempt(m, HOLD, true, "TCP Fast Open: sendto(MSG_FASTOPEN) [::1]:25, no connect()",
		"socket_sendmsg sees the address", p_net, &tfo6);
	attempt(m, HOLD, true, "io_uring IORING_OP_CONNECT 127.0.0.1:25", "socket_connect",
		p_net, &uring4);
	attempt(m, HOLD, true, "io_uring IORING_OP_CONNECT [::1]:25", "socket_connect",
		p_net, &uring6);
	attempt(m, global ? HOLD : DOC, true,
		"connect() 127.0.0.1:25 with a TCP socket made outside, passed in",
		global ? "the global backend checks the current task's cgroup" :
		"on the cgroup backend socket hooks run for the cgroup the socket was made "
		"in (POLICY.md: nesting, backends)", p_passed_fresh, &tcp_fresh);
	attempt(m, global ? HOLD : DOC, true,
		"sendto() 127.0.0.1:25 with a UDP socket made outside, passed in",
		global ? "the global backend checks the current task's cgroup" :
		"socket hooks run for the calling task's cgroup on 6.1 (POLICY.md)",
		p_passed_fresh, &udp_fresh);
	rc = probe(cg.ctl, p_socket_made_inside, NULL);
	after_probe();
	tap_result(rc == 0 || rc == EPERM, "which cgroup socket hooks follow: a socket made in %s, "
		   "passed out, connect() 127.0.0.1:25 from %s: %s, so the %s",
		   m, cg.ctl, status_name(rc), rc == EPERM ? "socket's cgroup" : "task's cgroup");
	if (!global && rc == 0)
		tap_note("as POLICY.md says: the cgroup backend follows the calling "
			 "task's cgroup on 6.1, like the global backend");
	record("(info) a socket made inside, passed out, connect() :25 from outside",
	       rc == EPERM ? "denied: hooks follow the socket's cgroup" :
	       rc == 0 ? "allowed: hooks follow the task's cgroup" : "could not try", NULL);
	attempt(m, DOC, false, "send() on a TCP socket connected to :25 outside, passed in",
		"no rule on an already-connected socket's traffic (POLICY.md: cannot express "
		"yet)", p_passed_connected, &tcp_conn);
	attempt(m, DOC, false, "send() on a UDP socket connected to :25 outside, passed in",
		"no rule on an already-connected socket's traffic", p_passed_connected,
		&udp_conn);
	attempt(m, DOC, true, "a raw IPv4 socket sends a hand-made UDP datagram to port 25",
		"the raw socket's address has no port; needs CAP_NET_RAW, which a capability "
		"rule (net_raw) or a socket rule (type raw) would deny", p_raw_udp, NULL);

	tap_note("--- network, %s: connect family inet cidr 127.0.0.0/8 port 25; bind family "
		 "inet port %d", cg.v4, PORT_BIND);
	rc = probe(cg.v4, p_net, &tcp6);
	after_probe();
	tap_result(rc == 0, "control: TCP connect [::1]:25 works in %s: the rule is inet only "
		   "(got %s)", cg.v4, status_name(rc));
	attempt(cg.v4, HOLD, false,
		"inet rule only: TCP connect [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"an IPv4-mapped address is IPv4 traffic", p_net, &tcp_mapped);
	attempt(cg.v4, HOLD, false,
		"inet rule only: UDP sendto() [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"an IPv4-mapped address is IPv4 traffic", p_net, &udp_mapped_sendto);
	attempt(cg.v4, DOC, true, "cidr 127.0.0.0/8: TCP connect 0.0.0.0:25, which Linux "
		"connects to 127.0.0.1", "rules match the address as given, and 0.0.0.0 (or [::]) "
		"means this host; a cidr rule meant for loopback must list 0.0.0.0/32 too",
		p_net, &tcp4_any);
	attempt(cg.v4, HOLD, true, "bind 0.0.0.0:2525", "socket_bind", p_bind, &sa_inet);
	attempt(cg.v4, HOLD, true, "bind 0.0.0.0:2525 with sin_family AF_UNSPEC (inet_bind() "
		"takes it as AF_INET for INADDR_ANY)", "socket_bind", p_bind, &sa_unspec);
}

static void test_ptrace(void)
{
	static const int attach = PTRACE_ATTACH, seize = PTRACE_SEIZE;
	static const int mem_rw = O_RDWR, mem_ro = O_RDONLY;
	const char *m = cg.main;

	tap_note("--- ptrace of an outside task (pid %d; Yama ptrace_scope 0 meanwhile)",
		 outsider);
	attempt(m, HOLD, true, "PTRACE_ATTACH to an outside task", "ptrace_access_check",
		p_ptrace, &attach);
	attempt(m, HOLD, true, "PTRACE_SEIZE of an outside task", "ptrace_access_check",
		p_ptrace, &seize);
	/* mm_access() turns any ptrace_may_access() refusal into EACCES */
	attempt(m, HOLD, true, "write its memory through /proc/PID/mem",
		"self-protection at open: another process's /proc/PID file for writing "
		"(before mm_access()'s ptrace check, which would say EACCES)", p_proc_mem, &mem_rw);
	attempt_errno(m, HOLD, EACCES, true, "read its memory through /proc/PID/mem",
		      "ptrace_access_check (PTRACE_MODE_ATTACH) at open; EACCES from mm_access()",
		      p_proc_mem, &mem_ro);
	attempt(m, HOLD, true, "process_vm_readv() of its memory",
		"PTRACE_MODE_ATTACH_REALCREDS", p_vm_readv, NULL);
	attempt(m, HOLD, true, "process_vm_writev() to its memory",
		"PTRACE_MODE_ATTACH_REALCREDS", p_vm_writev, NULL);
	attempt_errno(m, HOLD, EACCES, false, "read its /proc/PID/environ",
		      "self-protection: the guard's ptrace check (PTRACE_MODE_READ); not the "
		      "ptrace rule, which is about attaching (POLICY.md)", p_proc_environ, NULL);
}

/* Subtree rules where the climb cannot reach the filesystem's root (issue #12, 10). */
static void test_climb(void)
{
	int mount_id;
	const char *m = cg.main;

	tap_note("--- climbs that cannot finish, under %s/** (read denied)", f.vault);
	attempt(m, HOLD, true, "read a file 70 directories (ABYSS_DEPTH) below the secret dir",
		"file_open: a climb that gives up after LAB_MAX_DEPTH levels denies when the class "
		"has a subtree rule", p_read, f.abyss);
	if (!on_disk) {
		skip("open_by_handle_at() of a file under the secret dir, its dentry evicted",
		     "no scratch disk: a tmpfs keeps every dentry");
		return;
	}
	vault_fh = malloc(sizeof(*vault_fh) + MAX_HANDLE_SZ);
	if (!vault_fh)
		return;
	vault_fh->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, f.vault_handle, vault_fh, &mount_id, 0)) {
		tap_result(0, "name_to_handle_at(%s): %s", f.vault_handle, strerror(errno));
		return;
	}
	pre_probe = drop_caches;
	attempt(m, HOLD, true, "open_by_handle_at() of a file under the secret dir whose dentry "
		"was evicted (drop_caches): a disconnected dentry",
		"file_open: a climb that stops short of the filesystem's root denies when the "
		"class has a subtree rule", p_handle_evicted, NULL);
	pre_probe = NULL;
}

/* exec's own opens (issue #12, 12): the ELF interpreter, and not a read. */
static void test_exec_opens(void)
{
	const char *m = cg.main;
	int ctl, rc;

	tap_note("--- exec's opens: %s names %s (exec denied) as its PT_INTERP; %s is read "
		 "denied and exec allowed", f.interp_dyn, f.ldso_copy, f.read_denied);
	attempt(m, HOLD, true, "execve a dynamic binary whose ELF interpreter (PT_INTERP) is "
		"exec-denied", "file_open: exec's open of the interpreter is an exec "
		"(bprm_check_security never sees the interpreter)", p_exec_interp, NULL);

	ctl = probe(cg.ctl, p_exec, f.read_denied);
	after_probe();
	tap_result(ctl == 0, "control: the read-denied binary runs in %s (got %s)", cg.ctl,
		   status_name(ctl));
	rc = probe(m, p_exec, f.read_denied);
	after_probe();
	tap_result(rc == 0, "an exec-allowed, read-denied binary runs inside %s: its exec's own "
		   "open is not a read (got %s)", m, status_name(rc));
	record("(info) execve an exec-allowed, read-denied binary (it must run)",
	       rc == 0 ? "ran, as it should" : "FAILED: refused", "file_open: __FMODE_EXEC in f_flags");
	attempt(m, HOLD, true, "read the exec-allowed, read-denied binary",
		"file_open, exact read rule", p_read_any, f.read_denied);
}

/*
 * The other doors to creating and writing (issue #12, 11 and 8), under the
 * fourth policy. On stock's 10 hook slots the other policies go first.
 */
static void test_more(void)
{
	const char *o = cg.more;
	size_t len = 0;
	void *buf;

	tap_note("--- %s: exec allowed in %s/** and /bin/** (default deny), nothing made in it; "
		 "%s write denied; %s read and write denied", o, f.nocreate, f.wprot, f.rwprot);
	if (reduced) {
		tap_note("stock 6.1: the other policies are detached first, for the hook slots");
		detach(&pol_main);
		detach(&pol_list);
		detach(&pol_v4);
		pol_main.applied = pol_list.applied = pol_v4.applied = false;
	}
	if (!apply(&pol_more))
		return;
	attempt(o, HOLD, true, "O_TMPFILE in the create-denied, exec-allowed dir: write a "
		"program there, run it", "file_open: O_TMPFILE is a create in the directory "
		"(6.1's vfs_tmpfile calls no inode_create)", p_tmpfile_exec, f.nocreate);
	attempt(o, HOLD, true, "linkat() an O_TMPFILE made in another dir into the "
		"create-denied dir", "inode_link: a create of the new name", p_tmpfile_link, NULL);
	pre_probe = refill_wprot;
	attempt(o, HOLD, true, "open(O_RDONLY | O_TRUNC) a write-denied file, emptying it",
		"file_open: O_TRUNC is a write", p_trunc_rdonly, f.wprot);
	pre_probe = NULL;
	buf = slurp(f.wprot, &len);
	tap_result(buf && len > 0, "the write-denied file still has its %zu bytes", len);
	free(buf);
	attempt(o, HOLD, true, "open(path, 3) of a read- and write-denied file (O_ACCMODE 3: "
		"ioctls only)", "file_open: mode 3 counts as read and write", p_open_mode3,
		f.rwprot);
}

/* --- summary and cleanup ----------------------------------------------- */

static void summary(void)
{
	int i, held = 0, doc = 0, gap = 0, escaped = 0, info = 0, other = 0;

	for (i = 0; i < n_results; i++) {
		const char *v = results[i].verdict;

		if (!strncmp(results[i].what, "(info)", 6))
			info++;
		else if (!strncmp(v, "held", 4))
			held++;
		else if (strstr(v, "documented"))
			doc++;
		else if (strstr(v, "does not name"))
			gap++;
		else if (!strcmp(v, "ESCAPED"))
			escaped++;
		else
			other++;
	}
	tap_note("=== summary, %s backend, %s kernel, self-protection on: %d attempts: "
		 "%d held, %d documented limits, %d limits POLICY.md does not name, "
		 "%d ESCAPED, %d skipped or broken; %d for information", backend,
		 getenv("LAB_VARIANT") ? getenv("LAB_VARIANT") : "?",
		 n_results - info, held, doc, gap, escaped, other, info);
	for (i = 0; i < n_results; i++) {
		tap_note("%2d. [%s] %s", i + 1, results[i].verdict, results[i].what);
		if (results[i].why[0])
			tap_note("      %s %s", strncmp(results[i].verdict, "held", 4) ? "why:" : "by:",
				 results[i].why);
	}
}

/* Is any mount of ours (under f.mnt or f.m2) still there? */
static void mounts_left(void)
{
	char pat[NLEN + 2];
	size_t len;
	char *buf = slurp("/proc/self/mounts", &len), *p;
	int n = 0;

	if (!buf) {
		tap_result(0, "read /proc/self/mounts: %s", strerror(errno));
		return;
	}
	buf[len ? len - 1 : 0] = '\0';
	snprintf(pat, sizeof(pat), " %s", f.mnt);	/* f.m2 starts with it too */
	for (p = strstr(buf, pat); p; p = strstr(p + 1, pat)) {
		tap_note("left mounted: %.*s", (int)strcspn(p + 1, " "), p + 1);
		n++;
	}
	free(buf);
	tap_result(n == 0, "no mount of the test's is left (%d left)", n);
}

static void cleanup(void)
{
	const char *cgroups[] = { cg.main, cg.list, cg.v4, cg.ctl, cg.more };
	size_t i;
	int rc, failed = 0;

	detach(&pol_main);
	detach(&pol_list);
	detach(&pol_v4);
	detach(&pol_more);
	if (pol_main.applied) {
		rc = probe(cg.main, p_read, f.secret);
		tap_result(rc == 0, "detached: the secret reads again in %s (got %s)", cg.main,
			   status_name(rc));
	}
	if (outsider > 0) {
		kill(outsider, SIGKILL);
		waitpid(outsider, NULL, 0);
	}
	close(srv_sock);
	close(l_tcp4);
	close(l_tcp6);
	close(l_udp4);
	close(l_udp6);
	umount2(f.bind_dir, MNT_DETACH);
	umount2(f.bind_file, MNT_DETACH);
	umount2(f.m2, MNT_DETACH);
	unlink(f.bin_copy);
	unlink(f.ldso_copy);
	free(vault_fh);
	rm_rf(f.dir);
	if (umount2(f.mnt, 0))
		tap_note("umount %s: %s", f.mnt, strerror(errno));
	rmdir(f.mnt);
	rmdir(f.m2);
	mounts_left();
	for (i = 0; i < ARRAY_SIZE(cgroups); i++)
		failed += cgroup_remove(cgroups[i]) ? 1 : 0;
	tap_result(!failed, "the test's cgroups are removed (%d left)", failed);
	if (yama_saved[0] && write_str(YAMA_SCOPE, yama_saved))
		tap_note("restore %s: %s", YAMA_SCOPE, strerror(errno));
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (parse_args(argc, argv))
		tap_bail("usage: escapes [--backend cgroup|global]");
	make_names();
	tap_note("backend %s, self-protection on%s", backend,
		 reduced ? " (stock 6.1: 10 lsm_cgroup hooks, one policy at a time for the fourth)" :
		 "");
	if (access(LSMCTL, X_OK))
		tap_bail("%s is there: %s", LSMCTL, strerror(errno));
	if (cgroup_enter(""))
		tap_bail("join the root cgroup: %s", strerror(errno));
	/* Yama's own ptrace rules would refuse the attempts for its own reasons */
	if (!read_str(YAMA_SCOPE, yama_saved, sizeof(yama_saved)) && write_str(YAMA_SCOPE, "0"))
		tap_bail("set %s to 0: %s", YAMA_SCOPE, strerror(errno));

	err = prepare_files();
	if (err) {
		tap_result(0, "prepare the files in %s: %s", f.dir, strerror(err));
		goto out;
	}
	if (start_helpers()) {
		tap_result(0, "listen on 127.0.0.1:%d and [::1]:%d, start the outsider: %s",
			   PORT, PORT, strerror(errno));
		goto out;
	}
	if (make_cgroups() || write_policies()) {
		tap_result(0, "make the cgroups and write the policies: %s", strerror(errno));
		goto out;
	}
	if (!apply(&pol_main) || !apply(&pol_list) || !apply(&pol_v4))
		goto out;

	test_leave();
	test_files();
	test_climb();
	test_exec();
	test_exec_opens();
	test_allow_list();
	test_network();
	test_ptrace();
	test_more();
	summary();
out:
	cleanup();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_note("escapes --backend %s: %.1f s", backend,
		 (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return tap_exit();
}
