// SPDX-License-Identifier: GPL-2.0
/* Escapes: mounts and mount namespaces: the same dentries by another path. */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/mount.h>

#include "escapes.h"

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

void test_mounts(void)
{
	static struct bind bind_vault, bind_sub, bind_secret;
	const char *m = cg.main;

	bind_vault = (struct bind){ f.vault, "/file", false };
	bind_sub = (struct bind){ f.vault_sub, "/deep", false };
	bind_secret = (struct bind){ f.secret, NULL, true };

	tap_note("--- mounts and mount namespaces: the secret by another path");
	attempt(m, HOLD, true, "bind-mount the secret dir elsewhere, read through the mount",
		"same dentries; the climb is by d_parent", p_bind_mount, &bind_vault);
	attempt(m, HOLD, true, "bind-mount a subdirectory of the secret dir, read below it",
		"the climb goes past the mount's root", p_bind_mount, &bind_sub);
	attempt(m, HOLD, true, "bind-mount the secret over another file, read it",
		"same inode", p_bind_mount, &bind_secret);
	attempt(m, HOLD, true, "unshare(CLONE_NEWNS), read the secret in the new namespace",
		"same dentries", p_unshare_read, f.secret);
	attempt(m, HOLD, true, "unshare(CLONE_NEWNS), read under the secret dir",
		"same dentries", p_unshare_read, f.vault_file);
	attempt(m, HOLD, true, "unshare(CLONE_NEWUSER | CLONE_NEWNS), read the secret",
		"file_open does not look at namespaces", p_userns_read, f.secret);
	attempt(m, HOLD, true, "open_tree(OPEN_TREE_CLONE) of the secret dir, openat() in the "
		"detached copy", "same dentries", p_open_tree, NULL);
	if (on_disk) {
		attempt(m, HOLD, true, "mount the same ext4 filesystem a second time, read there",
			"same superblock, same inode", p_second_mount, NULL);
	} else {
		skip("mount the same filesystem a second time", "no scratch disk");
	}
}
