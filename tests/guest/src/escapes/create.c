// SPDX-License-Identifier: GPL-2.0
/* Escapes: the other doors to creating and writing (issue #12), under the fourth policy. */
#define _GNU_SOURCE

#include "escapes.h"

/* O_TMPFILE in @dir: write busybox there, reopen it read-only, run it as echo. */
static int p_tmpfile_exec(const void *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0755), ro = -1, err;
	char proc[64];

	if (fd < 0)
		return errno;
	err = fill_fd(fd, BUSYBOX);
	/* a writable descriptor would make the exec ETXTBSY */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!err && (ro = open(proc, O_RDONLY | O_CLOEXEC)) < 0)
		err = errno;
	close(fd);
	if (!err)
		err = exec_verdict(NULL, ro);
	if (ro >= 0)
		close(ro);
	return err;
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

/* probe_before: the write-denied file has its content again. */
static void refill_wprot(void)
{
	char text[128];

	snprintf(text, sizeof(text), MARK "%s:write-protected\n", lab_backend);
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

/*
 * The other doors to creating and writing (issue #12, 11 and 8), under the
 * fourth policy. On stock's 10 hook slots the other policies go first.
 */
void test_more(void)
{
	const char *o = cg.more;
	size_t len = 0;
	void *buf;

	tap_note("--- %s: exec allowed in %s/** and /bin/** (default deny), nothing made in it; "
		 "%s write denied; %s read and write denied", o, f.nocreate, f.wprot, f.rwprot);
	if (lab_reduced) {
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
	probe_before = refill_wprot;
	attempt(o, HOLD, true, "open(O_RDONLY | O_TRUNC) a write-denied file, emptying it",
		"file_open: O_TRUNC is a write", p_trunc_rdonly, f.wprot);
	probe_before = NULL;
	buf = slurp(f.wprot, &len);
	tap_result(buf && len > 0, "the write-denied file still has its %zu bytes", len);
	free(buf);
	attempt(o, HOLD, true, "open(path, 3) of a read- and write-denied file (O_ACCMODE 3: "
		"ioctls only)", "file_open: mode 3 counts as read and write", p_open_mode3,
		f.rwprot);
}
