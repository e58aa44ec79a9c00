// SPDX-License-Identifier: GPL-2.0
/*
 * Rules by path (issue #14) against a confined root that reads the
 * engine: the ways through found by review (branch wt/pathreview), each
 * closed (branch wt/pathfix) or a limit POLICY.md states; each asserts
 * what POLICY.md promises, with a control from a sibling cgroup.
 *
 *   policy-paths-attack [--backend cgroup|global]
 */
#define _GNU_SOURCE
#include <sys/mount.h>

#include <fcntl.h>
#include <sched.h>

#include "lab_test.h"

#define NLEN 64
#define PLEN 192
#define SCRATCH_DISK "/dev/vda"	/* run-vm.sh's ext4 scratch disk */

static struct {
	char a[NLEN], b[NLEN];	/* the policy on a; b is the sibling */
	char c[NLEN];		/* the handle policy (no subtree rule to fail closed) */
	char d[NLEN];		/* the overlay policy (self-protection off: mounts allowed) */
} cg;

static struct {
	char dir[NLEN], policies[PLEN];
	char vault[PLEN], priv[PLEN], pub[PLEN];	/* the subtree denied, pub allowed */
	char etc[PLEN], secret[PLEN], open_dir[PLEN], ok[PLEN];
	char keys[PLEN], key63[PLEN], key64[PLEN];	/* *.key denied */
	char drop[PLEN];				/* exec of any name in it denied */
	char run[PLEN], app[PLEN], app_old[PLEN], token[PLEN];
	char disk[NLEN], disk_etc[PLEN], late[PLEN];	/* on ext4: dentries can go */
	char lower[PLEN], lower_secret[PLEN], empty[PLEN], ovl[PLEN], ovl_secret[PLEN];
} f;

static struct lab_policy pol, handle_pol, ovl_pol;
static struct file_handle *late_fh;
static bool on_disk;

static void make_names(void)
{
	const char *d = f.dir;
	char long_base[NLEN + 8];

	snprintf(cg.a, sizeof(cg.a), "ppa-%s-a", lab_backend);
	snprintf(cg.b, sizeof(cg.b), "ppa-%s-b", lab_backend);
	snprintf(cg.c, sizeof(cg.c), "ppa-%s-c", lab_backend);
	snprintf(cg.d, sizeof(cg.d), "ppa-%s-d", lab_backend);
	snprintf(f.dir, sizeof(f.dir), "/tmp/ppa-%s", lab_backend);
	snprintf(f.policies, sizeof(f.policies), "%s/policies", d);
	snprintf(f.vault, sizeof(f.vault), "%s/vault", d);
	snprintf(f.priv, sizeof(f.priv), "%s/vault/priv", d);
	snprintf(f.pub, sizeof(f.pub), "%s/vault/pub", d);
	snprintf(f.etc, sizeof(f.etc), "%s/etc", d);
	snprintf(f.secret, sizeof(f.secret), "%s/etc/secret", d);
	snprintf(f.open_dir, sizeof(f.open_dir), "%s/open", d);
	snprintf(f.ok, sizeof(f.ok), "%s/open/ok", d);
	snprintf(f.keys, sizeof(f.keys), "%s/keys", d);
	/* names of 63 and 64 bytes that *.key matches: LAB_PATH_NAME_LEN is 64 */
	memset(long_base, 'k', sizeof(long_base));
	snprintf(f.key63, sizeof(f.key63), "%s/keys/%.59s.key", d, long_base);
	snprintf(f.key64, sizeof(f.key64), "%s/keys/%.60s.key", d, long_base);
	snprintf(f.drop, sizeof(f.drop), "%s/drop", d);
	snprintf(f.run, sizeof(f.run), "%s/run", d);
	snprintf(f.app, sizeof(f.app), "%s/run/app", d);
	snprintf(f.app_old, sizeof(f.app_old), "%s/run/app.old", d);
	snprintf(f.token, sizeof(f.token), "%s/run/app/token", d);
	snprintf(f.lower, sizeof(f.lower), "%s/lower", d);
	snprintf(f.lower_secret, sizeof(f.lower_secret), "%s/lower/secret", d);
	snprintf(f.empty, sizeof(f.empty), "%s/empty", d);
	snprintf(f.ovl, sizeof(f.ovl), "%s/ovl", d);
	snprintf(f.ovl_secret, sizeof(f.ovl_secret), "%s/ovl/secret", d);
	snprintf(f.disk, sizeof(f.disk), "/tmp/ppa-%s-disk", lab_backend);
	snprintf(f.disk_etc, sizeof(f.disk_etc), "%s/etc", f.disk);
	snprintf(f.late, sizeof(f.late), "%s/etc/late", f.disk);
}

static int prepare_files(void)
{
	const char *const dirs[] = { f.policies, f.vault, f.etc, f.open_dir, f.keys, f.drop,
				     f.run, f.app, f.lower, f.empty, f.ovl };
	const char *const files[] = { f.priv, f.secret, f.lower_secret };
	size_t i;
	int err = 0;

	if ((mkdir(f.dir, 0755) && errno != EEXIST) ||
	    mount("ppa-tmpfs", f.dir, "tmpfs", 0, "mode=0755"))
		return errno;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0777))
			return errno;
	for (i = 0; i < ARRAY_SIZE(files) && !err; i++)
		err = put_str(files[i], "secret\n", 0644);
	if (err)
		return err;
	/* the scratch disk run-vm.sh gives every guest, fresh: a tmpfs never evicts a dentry */
	on_disk = !(mkdir(f.disk, 0755) && errno != EEXIST) &&
		  !mount(SCRATCH_DISK, f.disk, "ext4", 0, NULL) &&
		  !(mkdir(f.disk_etc, 0755) && errno != EEXIST);
	tap_note("%s on %s: %s", f.disk, SCRATCH_DISK, on_disk ? "mounted" : strerror(errno));
	return 0;
}

static int write_attack_policy(void)
{
	return write_policy(&pol, f.policies, "ppa", "attack",
		"rules:\n"
		/* an exception by name inside a denied subtree; pub waits for its name */
		"  - files: %1$s/vault/pub\n"
		"    access: read\n"
		"    action: allow\n"
		"  - files: %1$s/vault/**\n"
		"    access: read\n"
		"    action: deny\n"
		/* a denied file (by name and by its inode at apply), an allowed name elsewhere */
		"  - files: %1$s/etc/secret\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/open/ok\n"
		"    access: read\n"
		"    action: allow\n"
		"  - files: %1$s/keys/*.key\n"
		"    access: read\n"
		"    action: deny\n"
		"  - exec: %1$s/drop/*\n"
		"    action: deny\n"
		/* a file a service outside writes later */
		"  - files: %1$s/run/app/token\n"
		"    access: read\n"
		"    action: deny\n",
		f.dir);
}

/* Only the rule on a name that waits for its file: nothing climbs. */
static int write_handle_policy(void)
{
	return write_policy(&handle_pol, f.policies, "ppa", "handle",
		"rules:\n"
		"  - files: %s\n"
		"    access: read\n"
		"    action: deny\n",
		f.late);
}

/* A denied file, under a policy that lets the cgroup mount. */
static int write_ovl_policy(void)
{
	return write_policy(&ovl_pol, f.policies, "ppa", "ovl",
		"self_protection: off\n"
		"rules:\n"
		"  - files: %s\n"
		"    access: read\n"
		"    action: deny\n",
		f.lower_secret);
}

/* --- probes ---------------------------------------------------------------- */


/* Hard-link @path to the allowed name @to, read it there, remove the link. */
static int link_and_read(const char *path, const char *to)
{
	int err;

	if (link(path, to))
		return errno;
	err = try_open(to);
	unlink(to);
	return err;
}

static int probe_link_to_pub(const void *path)
{
	return link_and_read(path, f.pub);
}

static int probe_link_to_ok(const void *path)
{
	return link_and_read(path, f.ok);
}

/* Rename @path to the allowed name vault/pub, read it there, rename it back. */
static int probe_rename_to_pub(const void *path)
{
	int err;

	if (rename(path, f.pub))
		return errno;
	err = try_open(f.pub);
	if (rename(f.pub, path) && !err)
		err = errno;
	return err;
}

/* busybox copied to a name of @len bytes in drop/, executed: execve's errno or true's status. */
static int exec_copy(size_t len)
{
	char *const argv[] = { "true", NULL };
	char path[PLEN + NLEN];
	int err;

	/* the pid, zero-padded to exactly @len digits: one name a probe */
	snprintf(path, sizeof(path), "%s/%0*d", f.drop, (int)len, getpid());
	err = copy_file(BUSYBOX, path, 0755);
	if (err)
		return err;
	execv(path, argv);
	err = errno;
	unlink(path);
	return err;
}

static int probe_exec63(const void *arg)
{
	(void)arg;
	return exec_copy(63);
}

static int probe_exec64(const void *arg)
{
	(void)arg;
	return exec_copy(64);
}

/* The rule's directory (or one above it) @path renamed away, a new one made at its path. */
static int probe_swap_dir(const void *path)
{
	char old[PLEN + 8];

	snprintf(old, sizeof(old), "%s.old", (const char *)path);
	if (rename(path, old) || mkdir(path, 0777))
		return errno;
	return 0;
}

/* The control: @path renamed away and back (the rules stay with it). */
static int probe_rename_back(const void *path)
{
	char old[PLEN + 8];

	snprintf(old, sizeof(old), "%s.old", (const char *)path);
	if (rename(path, old) || rename(old, path))
		return errno;
	return 0;
}

/* The rule's directory, emptied, removed and made again. */
static int probe_rmdir_app(const void *arg)
{
	(void)arg;
	if (rmdir(f.app) || mkdir(f.app, 0777))
		return errno;
	return 0;
}

/* In a mount namespace of its own: the denied file's directory as an overlay's lower layer. */
static int probe_overlay(const void *arg)
{
	char opts[2 * PLEN + 16];

	(void)arg;
	snprintf(opts, sizeof(opts), "lowerdir=%s:%s", f.lower, f.empty);
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("ppa-ovl", f.ovl, "overlay", MS_RDONLY, opts))
		return errno;
	return try_open(f.ovl_secret);
}

/* Is overlayfs in this kernel (Debian's has it as a module, which its guest lacks)? */
static bool have_overlay(void)
{
	char text[4096];
	const char *at;

	if (read_str("/proc/filesystems", text, sizeof(text)))
		return false;
	for (at = strstr(text, "\toverlay"); at; at = strstr(at + 1, "\toverlay"))
		if (at[8] == '\n' || at[8] == '\0')
			return true;
	return false;
}

/* Outside, before each probe: every unused dentry and inode dropped. */
static void drop_caches(void)
{
	sync();
	if (write_str("/proc/sys/vm/drop_caches", "2"))
		tap_note("write 2 to drop_caches: %s", strerror(errno));
}

/* open_by_handle_at() of disk/etc/late, its dentry evicted: a disconnected dentry. */
static int probe_handle(const void *arg)
{
	int mfd = open(f.disk, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, err;

	(void)arg;
	if (mfd < 0)
		return errno;
	fd = open_by_handle_at(mfd, late_fh, O_RDONLY | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	close(mfd);
	return err;
}

static void test_attacks(void)
{
	struct lab_cmd c;
	int err;

	lsmctl_apply(&c, &pol, cg.a);
	tap_result(c.status == 0, "lsmctl apply %s to %s (status %d)", pol.name, cg.a, c.status);
	if (c.status)
		note_cmd(&c);

	/* 1: a file put under an allowed name from inside; the allow of a name over an inode's deny */
	expect_path(cg.a, cg.b, "read vault/priv (vault/** denied)", EPERM, probe_read, f.priv);
	expect_path(cg.a, cg.b,
		    "1a: hard-link vault/priv inside to the allowed name vault/pub, read it", EPERM,
		    probe_link_to_pub, f.priv);
	expect_path(cg.a, cg.b,
		    "1a: rename vault/priv inside to the allowed name vault/pub, read it", EPERM,
		    probe_rename_to_pub, f.priv);
	expect_path(cg.a, cg.b, "read etc/secret (denied by path and inode)", EPERM, probe_read,
		    f.secret);
	expect_path(cg.a, cg.b,
		    "1b: hard-link etc/secret inside to the allowed name open/ok, read it", EPERM,
		    probe_link_to_ok, f.secret);
	err = link(f.secret, f.ok) ? errno : 0;
	tap_result(!err, "outside: hard-link etc/secret to open/ok (%s)", errname(err));
	expect_path(cg.a, cg.b,
		    "1b: read open/ok, etc/secret's inode (its deny beats the name's allow)", EPERM,
		    probe_read, f.ok);
	unlink(f.ok);

	/* 2: a name longer than a glob is compared with: the directory's deny globs take it */
	err = put_str(f.key63, "key\n", 0644) ?: put_str(f.key64, "key\n", 0644);
	tap_result(!err, "outside: make keys/*.key of 63 and 64 bytes (%s)", errname(err));
	expect_path(cg.a, cg.b, "read a 63-byte name *.key matches", EPERM, probe_read, f.key63);
	expect_path(cg.a, cg.b, "2a: read a 64-byte name *.key matches", EPERM, probe_read,
		    f.key64);
	expect_path(cg.a, cg.b, "exec a copy at a 63-byte name in drop/ (exec drop/* denied)",
		    EPERM, probe_exec63, NULL);
	expect_path(cg.a, cg.b, "2b: exec a copy at a 64-byte name in drop/", EPERM, probe_exec64,
		    NULL);

	/* 3: the confined task itself moves the rule's directory (or its parent) away */
	/* (their controls rename back: a sibling's swap would move the rule's directory) */
	expect_errno(cg.a, EPERM, "3: rename run/app away and mkdir run/app (a rule by path "
		     "is in it)", probe_swap_dir, f.app);
	expect_errno(cg.a, EPERM, "3: rename run/app away and back", probe_rename_back, f.app);
	control(cg.b, "rename run/app away and back", probe_rename_back, f.app);
	expect_errno(cg.a, EPERM, "3: rename run (above run/app) away and back",
		     probe_rename_back, f.run);
	control(cg.b, "rename run (above run/app) away and back", probe_rename_back, f.run);
	expect_errno(cg.a, EPERM, "3: rmdir and mkdir run/app", probe_rmdir_app, NULL);
	err = put_str(f.token, "token\n", 0600);
	tap_result(!err, "outside: a service writes run/app/token (%s)", errname(err));
	expect_path(cg.a, cg.b, "read run/app/token (denied by path) after the attempts", EPERM,
		    probe_read, f.token);
}

/* 4: a file put at a name after apply, opened by handle once its dentry is gone */
static void test_handle(void)
{
	struct lab_cmd c;
	int mount_id, err;

	if (!on_disk) {
		tap_result(1, "4: open_by_handle_at # SKIP no scratch disk");
		return;
	}
	/* the disk outlives a backend's run: no file at the name at apply */
	if (unlink(f.late) && errno != ENOENT)
		tap_note("unlink %s: %s", f.late, strerror(errno));
	lsmctl_apply(&c, &handle_pol, cg.c);
	tap_result(c.status == 0, "lsmctl apply %s to %s (status %d)", handle_pol.name, cg.c,
		   c.status);
	if (c.status)
		note_cmd(&c);
	err = put_str(f.late, "late\n", 0644);
	tap_result(!err, "outside: make disk/etc/late after apply (%s)", errname(err));
	late_fh = malloc(sizeof(*late_fh) + MAX_HANDLE_SZ);
	if (!late_fh)
		return;
	late_fh->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, f.late, late_fh, &mount_id, 0)) {
		tap_result(0, "name_to_handle_at(%s): %s", f.late, strerror(errno));
		return;
	}
	expect_errno(cg.c, EPERM, "read disk/etc/late by its path", probe_read, f.late);
	probe_before = drop_caches;
	expect_errno(cg.c, EPERM, "4: open_by_handle_at() of disk/etc/late, its dentry "
		     "evicted (a disconnected dentry, its name lost: denied)", probe_handle, NULL);
	control(cg.b, "open_by_handle_at() of disk/etc/late, its dentry evicted", probe_handle,
		NULL);
	probe_before = NULL;
	lsmctl_detach(&c, cg.c);
	tap_result(c.status == 0, "lsmctl detach %s (status %d)", cg.c, c.status);
	free(late_fh);
	late_fh = NULL;
}

/*
 * 5: mounts allowed (self-protection off, no mount rule): the file through
 * overlayfs is the overlay's inode at the overlay's name, which no rule
 * names. A limit POLICY.md states: this asserts it as documented.
 */
static void test_overlay(void)
{
	struct lab_cmd c;

	lsmctl_apply(&c, &ovl_pol, cg.d);
	tap_result(c.status == 0, "lsmctl apply %s to %s (status %d)", ovl_pol.name, cg.d,
		   c.status);
	if (c.status)
		note_cmd(&c);
	expect_errno(cg.d, EPERM, "read lower/secret by its path", probe_read, f.lower_secret);
	if (!have_overlay()) {
		tap_result(1, "5: an overlay inside # SKIP no overlayfs in this kernel");
	} else {
		expect_errno(cg.d, 0, "5: read lower/secret through an overlay of lower/ mounted "
			     "inside (documented: mounts allowed, the overlay's inode)",
			     probe_overlay, NULL);
		control(cg.b, "read lower/secret through an overlay of lower/", probe_overlay,
			NULL);
	}
	lsmctl_detach(&c, cg.d);
	tap_result(c.status == 0, "lsmctl detach %s (status %d)", cg.d, c.status);
}

static void cleanup(void)
{
	const char *const cgroups[] = { cg.a, cg.b, cg.c, cg.d };
	struct lab_cmd c;
	int left;

	lsmctl_detach(&c, cg.a);
	tap_result(c.status == 0, "lsmctl detach %s (status %d)", cg.a, c.status);
	left = cgroups_remove(cgroups, ARRAY_SIZE(cgroups));
	tap_result(!left, "the test's cgroups are removed (%d left)", left);
	umount2(f.dir, MNT_DETACH);
	if (on_disk)
		umount2(f.disk, MNT_DETACH);
}

static int policy_paths_attack(void)
{
	const char *const cgroups[] = { cg.a, cg.b, cg.c, cg.d };
	int err;

	make_names();
	if (cgroup_enter(""))
		tap_bail("join the root cgroup: %s", strerror(errno));
	err = prepare_files();
	if (err)
		tap_bail("prepare %s: %s", f.dir, errname(err));
	if (write_attack_policy() || write_handle_policy() || write_ovl_policy())
		tap_bail("write the policy to %s: %s", f.policies, strerror(errno));
	if (cgroups_make(cgroups, ARRAY_SIZE(cgroups)))
		tap_bail("create the test cgroups: %s", strerror(errno));
	test_attacks();
	test_handle();
	test_overlay();
	cleanup();
	return tap_exit();
}

int main(int argc, char **argv)
{
	return run_backends(argc, argv, "policy-paths-attack", policy_paths_attack);
}
