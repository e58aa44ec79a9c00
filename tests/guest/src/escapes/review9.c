// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the ninth review's (issue #24 item 9), kernel objects shared
 * with the outside that the guard's hook list does not reach. Each
 * attempt's control runs the same probe in the sibling cgroup without a
 * policy, where it must get through.
 *
 * Class 1, handing the machine to a user outside by a file's attributes.
 * The guard judged inode_setattr on bpffs, cgroup2 and the machine's
 * mqueue only (a pin or a cgroup.procs handed to a user outside, whom
 * nothing guards), and no inode_setxattr or device node made by mknod at
 * all (closed since by an allow-list: test_attr_scope()); root inside
 * owns every root-made file, and CAP_CHOWN, CAP_FOWNER, CAP_MKNOD and
 * CAP_SETFCAP are on its allow-list. What it hands over is
 * what the guard refuses the subtree itself. After each attempt an
 * unprivileged task outside (nobody, 65534, in the root cgroup) tries
 * the object, before and after, to show what crossed:
 * - the set-user-ID bit (chmod() 04755) on a root-owned copy of bpftool
 *   made outside: nobody runs it as root (bpftool prog show, which asks
 *   CAP_SYS_ADMIN; as root it could detach the guard's links);
 * - file capabilities (setxattr() security.capability, CAP_SYS_ADMIN
 *   permitted and effective) on another copy: the same, by the xattr
 *   (inode_setxattr);
 * - chmod() 0666 of the machine's disk's node (/dev/vda on devtmpfs),
 *   whose open the guard refuses inside by any node: nobody reads the
 *   secret the policy denies from its raw blocks;
 * - a POSIX ACL (setxattr() system.posix_acl_access, u:65534:r) on the
 *   same node (debian: lsm has no TMPFS_POSIX_ACL);
 * - mknod() of a block device node 0666 for that disk in /tmp
 *   (inode_mknod: the engine judges its name only, for exec rules);
 * - chown() 65534 of a sysfs knob (the first of uevent_helper, cpu1's
 *   online, vda's read_ahead_kb...), a file system whose files the guard
 *   refuses to open for writing inside: nobody opens it for writing.
 * Class 2, a task's own /proc file that acts on tasks outside:
 * /proc/self/autogroup, which sets the nice value of the session's
 *   autogroup, shared with every task of the session outside (the guard
 *   refuses oom_score_adj for the same reason: the OOM killer's pick).
 *   A task outside makes the session (setsid()), a child of it joins the
 *   cgroup and writes 19; the outsider's autogroup then has nice 19.
 *   No hook but task_setnice (on the writer) sees it. debian only (lsm
 *   has no SCHED_AUTOGROUP).
 * Class 3, root's keyrings (uid 0's user keyring is one for every root
 *   task of the machine; documented as a limit, tested here): a key a
 *   task outside added to @u is found (KEYCTL_SEARCH) and read
 *   (KEYCTL_READ) from inside; 6.1's key_permission and key_alloc hooks
 *   are not the guard's.
 *   And request_key(2)'s upcall (documented, not tested before): the
 *   task writes /sbin/request-key (its files rules let it) and requests a
 *   key with callout data; the kernel runs the helper as root in the root
 *   cgroup, which the guard refuses for modprobe (module requests).
 * Class 4, the scheduling of tasks outside (documented): setpriority()
 *   on the outsider to the value it has (task_setnice, not the guard's).
 * Class 5, advisory locks on files outside: flock(LOCK_EX) on a root
 *   0600 lock file made outside, by a read-only descriptor; it holds
 *   every task outside that locks it for as long as the subtree wants,
 *   longer than the lease (F_SETLEASE) the guard refuses for that reason.
 *   file_lock judges bpffs only. A limit (docs/threat-model.md).
 * Class 6, counts uid 0 shares with root outside: inotify instances
 *   (max_user_instances, 128, counted per uid of the initial user
 *   namespace, and charged there from a user namespace below too) made
 *   inside until EMFILE, held while root outside makes one: EMFILE. No
 *   LSM hook sees inotify_init (nor fanotify_init's groups). A limit
 *   (docs/threat-model.md).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <linux/keyctl.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/xattr.h>

#include "escapes.h"

#define R9_DIR		"/tmp/lab-r9"
#define R9_SUID		R9_DIR "/bpftool-suid"
#define R9_FCAP		R9_DIR "/bpftool-fcap"
#define R9_NODE		R9_DIR "/disk"
#define R9_LOCK		R9_DIR "/service.lock"
#define R9_MADE		R9_DIR "/made"
#define R9_FIFO		R9_DIR "/fifo"
#define R9_SOCK		R9_DIR "/service.sock"
#define R9_KEY		"lab-r9-outside"
#define R9_UPCALL	R9_DIR "/upcall"	/* where the helper writes its cgroup */
#define REQUEST_KEY	"/sbin/request-key"

/* --- nobody, outside every policy ---------------------------------------- */

/* Run @arg (bpftool) "prog show", its output to /dev/null: 0 when it could list programs. */
static int n_bpftool(const void *arg)
{
	const char *path = arg;
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(path, "bpftool", "prog", "show", (char *)NULL);
		_exit(BROKEN);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return BROKEN;
	return WEXITSTATUS(status) ? EPERM : 0;
}

/* Read the secret's block from disk node @arg: 0 when the secret was there (or opened, unmapped). */
static int n_disk(const void *arg)
{
	int fd = open(arg, O_RDONLY | O_DIRECT | O_CLOEXEC), err;
	void *buf;
	ssize_t n;

	if (fd < 0)
		return errno;
	if (raw_off < 0) {
		close(fd);
		return 0;
	}
	if (posix_memalign(&buf, 4096, 4096))
		return BROKEN;
	n = pread(fd, buf, 4096, raw_off);
	err = n < 0 ? errno : check_marker(buf, n);
	close(fd);
	free(buf);
	return err;
}

/* Open @arg for writing (and write nothing): 0 when opened. */
static int n_open_write(const void *arg)
{
	int fd = open(arg, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* --- class 1: attributes that hand the machine to a user outside ---------- */

static struct stat disk_st;	/* SCRATCH_DISK as it was */
static char knob[PLEN];		/* the sysfs knob */

static int p_suid(const void *arg)
{
	(void)arg;
	return chmod(R9_SUID, 04755) ? errno : 0;
}

static void undo_suid(void)
{
	chmod(R9_SUID, 0755);
}

/* security.capability, revision 2: CAP_SYS_ADMIN permitted and effective */
static int p_fcap(const void *arg)
{
	struct vfs_cap_data cap = { 0 };

	(void)arg;
	cap.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE;
	cap.data[0].permitted = 1U << CAP_SYS_ADMIN;
	return setxattr(R9_FCAP, "security.capability", &cap, sizeof(cap), 0) ? errno : 0;
}

static void undo_fcap(void)
{
	removexattr(R9_FCAP, "security.capability");
}

static int p_disk_chmod(const void *arg)
{
	(void)arg;
	return chmod(SCRATCH_DISK, 0666) ? errno : 0;
}

static void undo_disk(void)
{
	removexattr(SCRATCH_DISK, "system.posix_acl_access");
	chmod(SCRATCH_DISK, disk_st.st_mode & 07777);
	chown(SCRATCH_DISK, disk_st.st_uid, disk_st.st_gid);
}

/* struct posix_acl_xattr_header and _entry (linux/posix_acl_xattr.h) */
struct r9_acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};

/* user::rw- user:65534:r-- group::rw- mask::rw- other::---; ENOSYS without ACLs */
static int p_disk_acl(const void *arg)
{
	struct {
		uint32_t version;
		struct r9_acl_entry e[5];
	} acl = { 2, {
		{ 0x01, 6, (uint32_t)-1 },	/* ACL_USER_OBJ */
		{ 0x02, 4, NOBODY },		/* ACL_USER */
		{ 0x04, 6, (uint32_t)-1 },	/* ACL_GROUP_OBJ */
		{ 0x10, 6, (uint32_t)-1 },	/* ACL_MASK */
		{ 0x20, 0, (uint32_t)-1 },	/* ACL_OTHER */
	} };

	(void)arg;
	if (setxattr(SCRATCH_DISK, "system.posix_acl_access", &acl, sizeof(acl), 0))
		return errno == EOPNOTSUPP ? ENOSYS : errno;
	return 0;
}

static int p_mknod(const void *arg)
{
	(void)arg;
	umask(0);
	return mknod(R9_NODE, S_IFBLK | 0666, disk_st.st_rdev) ? errno : 0;
}

static void undo_mknod(void)
{
	unlink(R9_NODE);
}

static int p_knob_chown(const void *arg)
{
	(void)arg;
	return chown(knob, NOBODY, NOBODY) ? errno : 0;
}

static void undo_knob(void)
{
	chown(knob, 0, 0);
}

struct handover {
	const char *what, *why;
	probe_fn change;	/* inside: 0 when the attribute was changed */
	void (*undo)(void);	/* the runner puts it back */
	probe_fn outside;	/* as nobody: 0 when it got the object */
	const void *oarg;
	const char *got;	/* what nobody got */
};

/*
 * The control, undone; nobody tries the object; the attempt; nobody
 * tries again (an info line says both); undone.
 */
static void handover(const char *m, const struct handover *h)
{
	char line[320];
	int rc, before, after;

	rc = control(cg.ctl, h->what, h->change, NULL);
	h->undo();
	if (rc == ENOSYS) {
		record(h->what, "skipped (ENOSYS: not in this kernel)", NULL);
		return;
	}
	if (rc)
		return;
	before = as_nobody(h->outside, h->oarg);
	attempt(m, HOLD, false, h->what, h->why, h->change, NULL);
	after = as_nobody(h->outside, h->oarg);
	h->undo();
	snprintf(line, sizeof(line), "(info) nobody outside %s: before the attempt %s, after it %s",
		 h->got, errname(before), errname(after));
	tap_note("%s", line);
	record(line, "for information", NULL);
}

static void test_handovers(const char *m)
{
	static const char *const knobs[] = {
		"/sys/kernel/uevent_helper", "/sys/devices/system/cpu/cpu1/online",
		"/sys/block/vda/queue/read_ahead_kb", "/sys/block/vda/queue/scheduler",
		"/sys/kernel/profiling",
	};
	const struct handover suid = {
		"chmod() 04755 (set-user-ID) a root-owned copy of bpftool made outside",
		"a set-user-ID root program is root for every user outside (inode_setattr: "
		"S_ISUID, S_ISGID)", p_suid, undo_suid, n_bpftool, R9_SUID,
		"runs it: bpftool prog show (CAP_SYS_ADMIN)",
	}, fcap = {
		"setxattr() security.capability (CAP_SYS_ADMIN, effective) on a copy of bpftool "
		"made outside", "file capabilities are every user's at exec (inode_setxattr)",
		p_fcap, undo_fcap, n_bpftool, R9_FCAP,
		"runs it: bpftool prog show (CAP_SYS_ADMIN)",
	}, disk = {
		"chmod() 0666 the machine's disk's node (" SCRATCH_DISK ", devtmpfs)",
		"a device node's mode hands the device to every user outside (inode_setattr "
		"on a block or character device off the allow-list)",
		p_disk_chmod, undo_disk, n_disk, SCRATCH_DISK,
		"reads the secret from " SCRATCH_DISK "'s raw blocks",
	}, acl = {
		"setxattr() system.posix_acl_access u:65534:r on " SCRATCH_DISK,
		"an ACL hands the device to the user it names (inode_setxattr)",
		p_disk_acl, undo_disk, n_disk, SCRATCH_DISK,
		"reads the secret from " SCRATCH_DISK "'s raw blocks",
	}, node = {
		"mknod() a block device node 0666 of the machine's disk in " R9_DIR,
		"a device node made inside is every user's outside (inode_mknod: block devices, "
		"character devices off the allow-list)",
		p_mknod, undo_mknod, n_disk, R9_NODE,
		"reads the secret from the node's raw blocks",
	};
	struct handover kn = {
		NULL, "sysfs' files are the machine's knobs, refused for writing inside "
		"(inode_setattr on a file system off fs_writable)",
		p_knob_chown, undo_knob, n_open_write, knob, "opens the knob for writing",
	};
	char what[PLEN + 64];
	struct stat st;
	size_t i;

	if (copy_file(BPFTOOL, R9_SUID, 0755) || copy_file(BPFTOOL, R9_FCAP, 0755)) {
		skip(suid.what, "no copy of " BPFTOOL);
	} else {
		handover(m, &suid);
		handover(m, &fcap);
	}
	unlink(R9_SUID);
	unlink(R9_FCAP);

	if (stat(SCRATCH_DISK, &disk_st) || !S_ISBLK(disk_st.st_mode)) {
		skip(disk.what, "no scratch disk");
	} else {
		sync();
		handover(m, &disk);
		handover(m, &acl);
		handover(m, &node);
	}

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		if (!stat(knobs[i], &st) && S_ISREG(st.st_mode) && (st.st_mode & S_IWUSR))
			break;
	if (i == ARRAY_SIZE(knobs)) {
		skip("chown() 65534 a sysfs knob", "none of the knobs tried is in this kernel");
	} else {
		snprintf(knob, sizeof(knob), "%s", knobs[i]);
		snprintf(what, sizeof(what), "chown() 65534 the sysfs knob %s", knob);
		kn.what = what;
		handover(m, &kn);
	}
}

/*
 * --- class 1, the allow-list both ways -----------------------------------
 *
 * The fix (the guard's attrs_movable() and mode_privileged()): refused
 * the other ways into the same class, a file made setuid (open()'s
 * mode), a character device off the allow-list made by mknod(), a
 * service's socket made outside (chmod 0666: its door for every user);
 * kept what a subtree does to its own files: the modes and owners of
 * regular files, a /dev/null of its own, a FIFO. (No extended attribute
 * is left to show on 6.1's tmpfs: it has no user.*, and trusted.* asks
 * CAP_SYS_ADMIN, which the guard's capability allow-list refuses.)
 */

static void undo_made(void)
{
	unlink(R9_MADE);
	unlink(R9_NODE);
	unlink(R9_FIFO);
	chmod(R9_SOCK, 0600);
}

static int p_create_suid(const void *arg)
{
	int fd;

	(void)arg;
	umask(0);
	fd = open(R9_MADE, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 04755);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* /dev/mem, 1:1: the machine's memory */
static int p_mknod_mem(const void *arg)
{
	(void)arg;
	return mknod(R9_NODE, S_IFCHR | 0600, makedev(1, 1)) ? errno : 0;
}

static int p_sock_chmod(const void *arg)
{
	(void)arg;
	return chmod(R9_SOCK, 0666) ? errno : 0;
}

/* What stays the subtree's: 0 when every step worked. */
static int p_own_attrs(const void *arg)
{
	int fd;

	(void)arg;
	umask(0);
	fd = open(R9_MADE, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	close(fd);
	if (chmod(R9_MADE, 0755))
		return tap_note("chmod() 0755: %s", strerror(errno)), errno;
	if (chown(R9_MADE, NOBODY, NOBODY))
		return tap_note("chown() 65534: %s", strerror(errno)), errno;
	if (mknod(R9_NODE, S_IFCHR | 0666, makedev(1, 3)))
		return tap_note("mknod() 1:3: %s", strerror(errno)), errno;
	if (mkfifo(R9_FIFO, 0600))
		return tap_note("mkfifo(): %s", strerror(errno)), errno;
	return 0;
}

/* A service's socket, bound outside (by the runner), root's 0600. */
static int make_service_socket(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = R9_SOCK };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return errno;
	unlink(R9_SOCK);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) || chmod(R9_SOCK, 0600))
		err = errno;
	close(fd);
	return err;
}

static void test_attr_scope(const char *m)
{
	static const struct {
		const char *what, *why;
		probe_fn fn;
	} refused[] = {
		{ "open(O_CREAT) a file with mode 04755 (set-user-ID)",
		  "a file made setuid is root for every user outside who runs it "
		  "(inode_create: mode_privileged())", p_create_suid },
		{ "mknod() /dev/mem (1:1) in " R9_DIR,
		  "a character device off the allow-list, made inside, is every user's outside "
		  "(inode_mknod)", p_mknod_mem },
		{ "chmod() 0666 a service's socket bound outside (" R9_SOCK ")",
		  "a socket's mode is its service's door (inode_setattr: not a regular file, "
		  "directory or symlink)", p_sock_chmod },
	};
	size_t i;
	int rc, err = make_service_socket();

	if (err)
		tap_result(0, "bind %s outside: %s", R9_SOCK, strerror(err));
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		if (err && refused[i].fn == p_sock_chmod)
			continue;
		rc = control(cg.ctl, refused[i].what, refused[i].fn, NULL);
		undo_made();
		if (rc)
			continue;
		attempt(m, HOLD, false, refused[i].what, refused[i].why, refused[i].fn, NULL);
		undo_made();
	}
	rc = probe_pid(m, p_own_attrs, NULL, NULL);
	undo_made();
	tap_result(rc == 0, "kept inside %s: a file of its own made 0600, chmod() 0755, chown() "
		   "65534; a /dev/null (1:3) and a FIFO made (got %s)", m,
		   errname(rc));
	unlink(R9_SOCK);
}

/* --- class 2: /proc/self/autogroup ---------------------------------------- */

/* This task's autogroup's nice value, or -100. */
static int autogroup_nice(void)
{
	char buf[128], *p;
	int nice;

	if (read_str("/proc/self/autogroup", buf, sizeof(buf)))
		return -100;
	p = strstr(buf, "nice ");
	if (!p || sscanf(p + 5, "%d", &nice) != 1)
		return -100;
	return nice;
}

/*
 * Outside (the root cgroup): a session of its own, so an autogroup of its
 * own; a child joins cgroup @arg and writes 19 to its /proc/self/autogroup:
 * the child's errno, or 0 when this task's autogroup, outside, has nice 19.
 */
static int p_autogroup(const void *arg)
{
	int status;
	pid_t pid;

	if (setsid() < 0 || autogroup_nice() != 0)
		return BROKEN;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0)
		_exit(cgroup_enter(arg) ? BROKEN : write_str("/proc/self/autogroup", "19"));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return BROKEN;
	if (WEXITSTATUS(status))
		return WEXITSTATUS(status);
	return autogroup_nice() == 19 ? 0 : BROKEN;
}

/*
 * The line of an attempt whose probe ran outside and put its own child in
 * cgroup @name (attempt_errno()'s verdicts): @rc 0 got through, EPERM held.
 */
static void verdict(const char *name, enum kind kind, const char *what, const char *why,
		    const char *shows, int rc)
{
	if (rc == EPERM) {
		tap_result(1, "held: %s (EPERM)%s", what,
			   kind == HOLD ? "" : " # a limit elsewhere, held here");
		record(what, kind == HOLD ? "held (EPERM)" : "held (EPERM), though listed as a limit",
		       why);
	} else if (rc == 0 && kind == HOLD) {
		tap_result(0, "ESCAPED: %s (it worked inside %s: %s)", what, name, shows);
		record(what, "ESCAPED", why);
	} else if (rc == 0 && kind == DOC) {
		tap_result(1, "not held (documented limit): %s: %s # TODO documented limit", what,
			   why);
		record(what, "not held: documented limit", why);
	} else if (rc == 0) {
		tap_result(1, "not held (a limit POLICY.md does not name): %s: %s # TODO limit",
			   what, why);
		record(what, "not held: limit POLICY.md does not name", why);
	} else {
		tap_result(0, "%s: %s inside %s, not the policy's EPERM", what, errname(rc), name);
		record(what, rc == BROKEN ? "could not try" : "failed, not EPERM", NULL);
	}
}

static void test_autogroup(const char *m)
{
	const char *what = "write 19 to /proc/self/autogroup, whose session (and autogroup) a "
			   "task outside made",
		   *why = "a task's own /proc file that acts on tasks outside, as oom_score_adj "
			  "(self_at_open)";
	int rc;

	if (access("/proc/self/autogroup", F_OK)) {
		skip(what, "no SCHED_AUTOGROUP in this kernel");
		return;
	}
	rc = probe_pid("", p_autogroup, cg.ctl, NULL);
	tap_result(rc == 0, "control: %s works from the sibling cgroup %s (got %s)", what,
		   cg.ctl, errname(rc));
	if (rc)
		return;
	rc = probe_pid("", p_autogroup, m, NULL);
	verdict(m, HOLD, what, why, "the outsider's autogroup has nice 19", rc);
}

/* --- class 6: counts uid 0 shares with root outside -------------------------- */

/*
 * A child in cgroup @cgname makes inotify instances until it can make no
 * more (EMFILE: max_user_instances, 128 by default, counted for uid 0 of
 * the initial user namespace), and holds them while the runner, outside,
 * makes one: 0 when the runner's failed with EMFILE, EAGAIN when it
 * worked, the child's errno when it could make none, ENOSYS when the
 * kernel has no inotify (lsm).
 */
static int inotify_starve(const char *cgname)
{
	int ready[2], go[2], status, fd, err, n = 0;
	char c = 'n';
	pid_t pid;

	fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0)
		return errno == ENOSYS ? ENOSYS : BROKEN;
	close(fd);
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC))
		return BROKEN;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		alarm(LAB_PROBE_TIMEOUT);
		if (cgroup_enter(cgname))
			_exit(BROKEN);
		while (n < 60000 && inotify_init1(IN_CLOEXEC) >= 0)
			n++;
		err = errno;
		c = n ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(BROKEN);
		_exit(n ? 0 : err);
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) != 1)
		c = 'n';
	err = BROKEN;
	if (c == 'y') {
		fd = inotify_init1(IN_CLOEXEC);
		err = fd >= 0 ? EAGAIN : errno == EMFILE ? 0 : errno;
		if (fd >= 0)
			close(fd);
	}
	if (write(go[1], "g", 1) != 1)
		kill(pid, SIGKILL);
	close(ready[0]);
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return BROKEN;
	if (c != 'y')
		return WEXITSTATUS(status) ? WEXITSTATUS(status) : BROKEN;
	return err;
}

static void test_counts(const char *m)
{
	const char *what = "inotify instances made inside until EMFILE: root outside can make "
			   "none while they are held",
		   *why = "uid 0's count of inotify instances (max_user_instances) is one for "
			  "every root task of the machine, in every user namespace below; no LSM "
			  "hook sees inotify_init";
	int rc;

	rc = inotify_starve(cg.ctl);
	if (rc == ENOSYS) {
		skip(what, "no inotify in this kernel");
		return;
	}
	tap_result(rc == 0, "control: %s works from the sibling cgroup %s (got %s)", what,
		   cg.ctl, errname(rc));
	if (rc)
		return;
	rc = inotify_starve(m);
	verdict(m, DOC, what, why, "root outside got EMFILE", rc);
}

/* --- classes 3-5: keyrings, scheduling, locks ------------------------------ */

/* The key a task outside added to uid 0's user keyring, found and read: 0 when read. */
static int p_key_read(const void *arg)
{
	char buf[128];
	long id, n;

	(void)arg;
	id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", R9_KEY, 0);
	if (id < 0)
		return errno;
	n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof(buf));
	if (n < 0)
		return errno;
	return check_marker(buf, n);
}

static void test_keyring(const char *m)
{
	const char *what = "KEYCTL_SEARCH and KEYCTL_READ of a key a task outside added to "
			   "uid 0's user keyring (@u)";
	static const char payload[] = MARK "keyring";
	long id;

	id = syscall(SYS_add_key, "user", R9_KEY, payload, sizeof(payload) - 1,
		     KEY_SPEC_USER_KEYRING);
	if (id < 0) {
		skip(what, "add_key() outside failed: no keys in this kernel?");
		return;
	}
	attempt(m, DOC, true, what,
		"root's keyrings are one for every root task of the machine (key_permission "
		"and key_alloc are not the guard's hooks)", p_key_read, NULL);
	syscall(SYS_keyctl, KEYCTL_UNLINK, id, KEY_SPEC_USER_KEYRING);
	syscall(SYS_keyctl, KEYCTL_INVALIDATE, id);
}

/* setpriority() on the outsider, to the nice value it has: 0 when done. */
static int p_setprio(const void *arg)
{
	int nice;

	(void)arg;
	errno = 0;
	nice = getpriority(PRIO_PROCESS, outsider);
	if (nice == -1 && errno)
		return BROKEN;
	return setpriority(PRIO_PROCESS, outsider, nice) ? errno : 0;
}

/* flock(LOCK_EX | LOCK_NB) on the lock file outside, by a read-only descriptor: 0 when held */
static int p_flock(const void *arg)
{
	int fd = open(R9_LOCK, O_RDONLY | O_CLOEXEC), err = 0;

	(void)arg;
	if (fd < 0)
		return errno;
	if (flock(fd, LOCK_EX | LOCK_NB))
		err = errno;
	close(fd);
	return err;
}

/*
 * request_key(2)'s upcall: write REQUEST_KEY (a script that writes the
 * cgroup it runs in to R9_UPCALL), then request a "user" key with callout
 * data, which no key satisfies: the kernel runs REQUEST_KEY as root to
 * construct it (call_sbin_request_key(), a usermode helper: the root
 * cgroup). 0 when the script ran there ("0::/").
 */
static int p_upcall(const void *arg)
{
	char desc[64], buf[64];
	int err;

	(void)arg;
	unlink(R9_UPCALL);
	err = put_str(REQUEST_KEY, "#!/bin/sh\ncat /proc/self/cgroup >" R9_UPCALL "\nexit 1\n",
		      0755);
	if (err)
		return err;
	/* a name of its own each time: a negative key is cached */
	snprintf(desc, sizeof(desc), "lab-r9-upcall-%d", getpid());
	syscall(SYS_request_key, "user", desc, "r9", 0);
	err = read_str(R9_UPCALL, buf, sizeof(buf));
	if (err)
		return err;
	/* read_str() drops the newline */
	if (strcmp(buf, "0::/")) {
		tap_note("the helper ran in cgroup \"%s\"", buf);
		return EBADMSG;
	}
	return 0;
}

static void test_upcall(const char *m)
{
	const char *what = "write " REQUEST_KEY " and request_key() a key with callout data: "
			   "the kernel runs it as root in the root cgroup";

	if (!access(REQUEST_KEY, F_OK)) {
		skip(what, REQUEST_KEY " is there already");
		return;
	}
	attempt(m, DOC, true, what,
		"request_key(2)'s upcall runs the helper outside every cgroup (nothing refuses "
		"it: no guard hook at key construction)", p_upcall, NULL);
	unlink(REQUEST_KEY);
	unlink(R9_UPCALL);
}

void test_review9(void)
{
	const char *m = cg.main;
	int err;

	tap_note("--- kernel objects shared with the outside, off the guard's hooks (review 9)");
	if (mkdir(R9_DIR, 0755) && errno != EEXIST) {
		tap_result(0, "make %s: %s", R9_DIR, strerror(errno));
		return;
	}
	test_handovers(m);
	test_attr_scope(m);
	test_autogroup(m);
	test_counts(m);
	test_keyring(m);
	attempt(m, DOC, true, "setpriority() on a task outside, to its own nice value",
		"the scheduling of tasks outside (task_setnice is not the guard's hook)",
		p_setprio, NULL);
	test_upcall(m);
	err = put_str(R9_LOCK, "", 0600);
	if (err) {
		tap_result(0, "make %s: %s", R9_LOCK, strerror(err));
	} else {
		attempt(m, DOC, true, "flock(LOCK_EX) a root 0600 lock file made outside, by a "
			"read-only descriptor",
			"a lock on a file it may read holds every task outside that locks it, "
			"longer than the lease the guard refuses (file_lock judges bpffs only)",
			p_flock, NULL);
		unlink(R9_LOCK);
	}
	rmdir(R9_DIR);
}
