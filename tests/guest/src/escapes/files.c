// SPDX-License-Identifier: GPL-2.0
/* Escapes: opening the secret files every other way, and climbs that cannot finish. */
#define _GNU_SOURCE
#include <linux/openat2.h>
#include <sys/mman.h>
#include <sys/sendfile.h>

#include "escapes.h"

int p_read(const void *path)
{
	return read_path(path, O_RDONLY);
}

static int p_read_rdwr(const void *path)
{
	return read_path(path, O_RDWR);
}

static int p_symlink(const void *target)
{
	return alias_probe(target, NULL, ALIAS_SYMLINK, p_read);
}

static int p_hardlink(const void *target)
{
	return alias_probe(target, NULL, ALIAS_HARDLINK, p_read);
}

/* Rename @from, read the new name (or @below it), rename it back. */
struct move {
	const char *from;
	const char *below;
};

static int p_rename(const void *arg)
{
	const struct move *m = arg;

	return alias_probe(m->from, m->below, ALIAS_RENAME, p_read);
}

static int p_opath_reopen(const void *path)
{
	return reopen_probe(path, O_PATH, p_read);
}

/* open O_WRONLY (no write rule), then reopen that for reading */
static int p_wronly_reopen(const void *path)
{
	return reopen_probe(path, O_WRONLY, p_read);
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

/* probe_before: drop every unused dentry and inode (the file's among them), outside. */
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

void test_files(void)
{
	static const bool inline_sqe = false, async_sqe = true;
	static struct move mv_secret, mv_vault, mv_out;
	const char *m = cg.main;

	mv_secret = (struct move){ f.secret, NULL };
	mv_vault = (struct move){ f.vault, "/file" };
	mv_out = (struct move){ f.vault_movable, NULL };

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
	attempt(m, HOLD, true, "sendfile() from the secret (opened inside) to a pipe",
		"the open is denied", p_open_via, &via_sendfile);
	attempt(m, HOLD, true, "splice() from the secret (opened inside) to a pipe",
		"the open is denied", p_open_via, &via_splice);
	attempt(m, HOLD, true, "mmap() the secret (opened inside)", "the open is denied",
		p_open_via, &via_mmap);

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

/* Subtree rules where the climb cannot reach the filesystem's root (issue #12, 10). */
void test_climb(void)
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
	probe_before = drop_caches;
	attempt(m, HOLD, true, "open_by_handle_at() of a file under the secret dir whose dentry "
		"was evicted (drop_caches): a disconnected dentry",
		"file_open: a climb that stops short of the filesystem's root denies when the "
		"class has a subtree rule", p_handle_evicted, NULL);
	probe_before = NULL;
}

void climb_cleanup(void)
{
	free(vault_fh);
	vault_fh = NULL;
}
