// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the tenth review's (issue #24 item 10), ways around the
 * attribute allow-list of 72cb510 (the guard's attrs_movable(),
 * mode_privileged(), inode_mknod): a confined root handing privilege or
 * a machine object to an unprivileged user outside (nobody, 65534, in
 * the root cgroup) through files. Each got out at 72cb510; the guard
 * now judges the state, a setuid or setgid file, however it is reached
 * (mode_privileged(): made, changed, opened for writing, linked, moved,
 * given an ACL), makes no node but of chardev_makeable()'s devices, and
 * sets no default ACL. Each attempt runs first in the sibling
 * cgroup without a policy (the control), and nobody tries the object
 * before and after the attempt (an info line says both), as review9.c's
 * handover() does.
 * - open(DIR, O_TMPFILE | O_WRONLY, 04755), bpftool's bytes written to
 *   it, then linkat() of /proc/self/fd/N to a name: 6.1's vfs_tmpfile()
 *   calls no security_inode_create() (the hook that refuses an
 *   open(O_CREAT) of 04755), and inode_link is the guard's on bpffs
 *   only: a set-user-ID root bpftool for nobody;
 * - new bytes written into a set-user-ID root file made outside (a copy
 *   of busybox, 04755): CAP_FSETID is on the guard's capability
 *   allow-list, so should_remove_suid() keeps S_ISUID through the
 *   O_TRUNC and the write: the file made outside runs the subtree's
 *   program (bpftool here) as root for nobody;
 * - link() of a set-user-ID root file made outside in a 0700 directory
 *   (a helper kept from other users by its folder) to a name nobody
 *   reaches: inode_link judges bpffs only; and its rename() there, the
 *   same way out by inode_rename;
 * - mknod() of QEMU's second serial port (4:65, ttyS1) 0666:
 *   chardev_allowed() passes every TTY_MAJOR device to inode_mknod, and
 *   nobody opens the node and sets TIOCM_LOOP, which the guard refuses
 *   inside (the loop feeds what is sent to whoever reads the line);
 * - a default ACL (system.posix_acl_default u:65534:rwx) on a directory
 *   of devtmpfs (a data file system to fs_writable(), a directory to
 *   attrs_movable()) where a service outside then binds its socket and
 *   makes it 0660, as docker does: the socket inherits nobody's entry,
 *   and chmod 0660 sets its mask to rw, so nobody connects (debian: lsm
 *   has no TMPFS_POSIX_ACL);
 * - chmod() 02744 (S_ISGID without group execute: mandatory locking to
 *   mode_privileged(), so it passes) of a root:root copy of bpftool on
 *   the scratch disk (ext4), then a minimal access ACL (user::rwx
 *   group::r-x other::r-x) by setxattr(): posix_acl_update_mode() writes
 *   the mode itself, with no inode_setattr, and keeps S_ISGID for a
 *   caller with CAP_FSETID: the file is 02755, set-group-ID root, and
 *   nobody reads with it a 0640 root:root file (a copy of the kernel's
 *   BTF, which bpftool btf dump reads). debian: lsm's ext4 has no ACLs.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/xattr.h>

#include "escapes.h"

#define R10_DIR		"/tmp/lab-r10"
#define R10_TMPF	R10_DIR "/tmpfile-suid"	/* an O_TMPFILE, linked */
#define R10_SUIDW	R10_DIR "/helper-suid"	/* a setuid root helper made outside */
#define R10_PRIV	R10_DIR "/private"	/* 0700, root's */
#define R10_PRIVSUID	R10_PRIV "/bpftool-suid"
#define R10_LINK	R10_DIR "/linked"
#define R10_TTY		R10_DIR "/serial"
#define SERIAL		"/dev/ttyS1"	/* QEMU's second 16550 (run-vm.sh) */
#define R10_RUN		"/dev/lab-r10-run"	/* a service's folder, on devtmpfs */
#define R10_RSOCK	R10_RUN "/service.sock"
#define R10_GROUPF	R10_DIR "/group-btf"	/* 0640 root:root, made outside */
#define KERNEL_BTF	"/sys/kernel/btf/vmlinux"

#ifndef TIOCM_LOOP
#define TIOCM_LOOP	0x8000	/* asm-generic/termios.h */
#endif

/* --- nobody, outside every policy ---------------------------------------- */

/* Run @arg as bpftool "prog show", its output to /dev/null: 0 when it could list programs. */
static int n_bpftool(const void *arg)
{
	const char *path = arg;
	int status, fd;
	pid_t pid;

	if (access(path, F_OK))
		return errno;
	pid = fork();
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

/* Run @arg as bpftool "btf dump file" R10_GROUPF: 0 when it read the group's file. */
static int n_btf_dump(const void *arg)
{
	const char *path = arg;
	int status, fd;
	pid_t pid;

	if (access(path, F_OK))
		return errno;
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(path, "bpftool", "btf", "dump", "file", R10_GROUPF, (char *)NULL);
		_exit(BROKEN);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return BROKEN;
	return WEXITSTATUS(status) ? EACCES : 0;
}

/* The made node, or SERIAL itself: opened, TIOCM_LOOP set and cleared: 0 when both worked. */
static int n_serial(const void *arg)
{
	int bits = TIOCM_LOOP, fd, err = 0;

	(void)arg;
	fd = open(R10_TTY, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = open(SERIAL, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (ioctl(fd, TIOCMBIS, &bits))
		err = errno;
	else if (ioctl(fd, TIOCMBIC, &bits))
		err = errno;
	close(fd);
	return err;
}

/* connect() to the service's socket: 0 when connected. */
static int n_connect(const void *arg)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), err = 0;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", (const char *)arg);
	if (fd < 0)
		return BROKEN;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)))
		err = errno;
	close(fd);
	return err;
}

/* --- the attempts --------------------------------------------------------- */

/* 0 when @path is there, set-user-ID; EBADMSG (said) when the bit is gone. */
static int still_suid(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno;
	if (!(st.st_mode & S_ISUID)) {
		tap_note("%s is there, mode %04o: no S_ISUID", path, st.st_mode & 07777);
		return EBADMSG;
	}
	return 0;
}

static int p_tmpfile(const void *arg)
{
	char proc[64];
	int fd, err = 0;

	(void)arg;
	umask(0);
	fd = open(R10_DIR, O_TMPFILE | O_WRONLY | O_CLOEXEC, 04755);
	if (fd < 0)
		return errno;
	if (fill_fd(fd, BPFTOOL)) {
		close(fd);
		return BROKEN;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, R10_TMPF, AT_SYMLINK_FOLLOW))
		err = errno;
	close(fd);
	return err ? err : still_suid(R10_TMPF);
}

static void undo_tmpfile(void)
{
	unlink(R10_TMPF);
}

static int p_write_suid(const void *arg)
{
	int fd, err;

	(void)arg;
	fd = open(R10_SUIDW, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	err = fill_fd(fd, BPFTOOL);
	close(fd);
	return err ? err : still_suid(R10_SUIDW);
}

/* The runner, outside: a set-user-ID root helper (busybox's bytes), 04755. */
static void undo_write_suid(void)
{
	unlink(R10_SUIDW);
	if (copy_file(BUSYBOX, R10_SUIDW, 0755) || chmod(R10_SUIDW, 04755))
		tap_note("make %s outside: %s", R10_SUIDW, strerror(errno));
}

static int p_link_suid(const void *arg)
{
	(void)arg;
	return link(R10_PRIVSUID, R10_LINK) ? errno : 0;
}

static void undo_link(void)
{
	unlink(R10_LINK);
}

static int p_rename_suid(const void *arg)
{
	(void)arg;
	return rename(R10_PRIVSUID, R10_LINK) ? errno : 0;
}

/* back into its folder (after the control, or an escape) */
static void undo_rename(void)
{
	rename(R10_LINK, R10_PRIVSUID);
}

static int p_mknod_tty(const void *arg)
{
	(void)arg;
	umask(0);
	return mknod(R10_TTY, S_IFCHR | 0666, makedev(4, 65)) ? errno : 0;
}

static void undo_tty(void)
{
	int bits = TIOCM_LOOP, fd = open(SERIAL, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0) {
		ioctl(fd, TIOCMBIC, &bits);
		close(fd);
	}
	unlink(R10_TTY);
}

/* struct posix_acl_xattr_header and _entry (linux/posix_acl_xattr.h) */
struct r10_acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};

/* default: user::rwx user:65534:rwx group::r-x mask::rwx other::r-x; ENOSYS without ACLs */
static int p_default_acl(const void *arg)
{
	struct {
		uint32_t version;
		struct r10_acl_entry e[5];
	} acl = { 2, {
		{ 0x01, 7, (uint32_t)-1 },	/* ACL_USER_OBJ */
		{ 0x02, 7, NOBODY },		/* ACL_USER */
		{ 0x04, 5, (uint32_t)-1 },	/* ACL_GROUP_OBJ */
		{ 0x10, 7, (uint32_t)-1 },	/* ACL_MASK */
		{ 0x20, 5, (uint32_t)-1 },	/* ACL_OTHER */
	} };

	(void)arg;
	if (setxattr(R10_RUN, "system.posix_acl_default", &acl, sizeof(acl), 0))
		return errno == EOPNOTSUPP ? ENOSYS : errno;
	return 0;
}

static void undo_default_acl(void)
{
	removexattr(R10_RUN, "system.posix_acl_default");
}

static char sgid_file[PLEN];	/* a root:root copy of bpftool on the scratch disk */

/* chmod() 02744, then access ACL user::rwx group::r-x other::r-x: 0 when setgid, g+x */
static int p_acl_sgid(const void *arg)
{
	struct {
		uint32_t version;
		struct r10_acl_entry e[3];
	} acl = { 2, {
		{ 0x01, 7, (uint32_t)-1 },	/* ACL_USER_OBJ */
		{ 0x04, 5, (uint32_t)-1 },	/* ACL_GROUP_OBJ */
		{ 0x20, 5, (uint32_t)-1 },	/* ACL_OTHER */
	} };
	struct stat st;

	(void)arg;
	if (chmod(sgid_file, 02744))
		return tap_note("chmod() 02744: %s", strerror(errno)), errno;
	if (setxattr(sgid_file, "system.posix_acl_access", &acl, sizeof(acl), 0))
		return errno == EOPNOTSUPP ? ENOSYS : errno;
	if (stat(sgid_file, &st))
		return errno;
	if ((st.st_mode & (S_ISGID | S_IXGRP)) != (S_ISGID | S_IXGRP)) {
		tap_note("%s is mode %04o after the ACL", sgid_file, st.st_mode & 07777);
		return EBADMSG;
	}
	return 0;
}

/* The runner, outside: the copy afresh, 0755 root:root. */
static void undo_acl_sgid(void)
{
	unlink(sgid_file);
	if (copy_file(BPFTOOL, sgid_file, 0755) || chmod(sgid_file, 0755) ||
	    chown(sgid_file, 0, 0))
		tap_note("make %s outside: %s", sgid_file, strerror(errno));
}

static int svc = -1;	/* the service's listening socket, the runner's */

/* The service, outside: binds R10_RSOCK afresh and makes it 0660, as docker does. */
static void serve(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = R10_RSOCK };

	unlink(R10_RSOCK);
	svc = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (svc < 0 || bind(svc, (struct sockaddr *)&sun, sizeof(sun)) || chmod(R10_RSOCK, 0660) ||
	    listen(svc, 4))
		tap_note("the service outside: %s", strerror(errno));
}

static void unserve(void)
{
	if (svc >= 0)
		close(svc);
	svc = -1;
	unlink(R10_RSOCK);
}

struct handover {
	const char *what, *why;
	probe_fn change;	/* inside: 0 when done */
	void (*undo)(void);	/* the runner puts it back (and sets it up) */
	probe_fn outside;	/* as nobody: 0 when it got the object */
	const void *oarg;
	const char *got;	/* what nobody got */
	void (*serve)(void), (*unserve)(void);	/* a service outside, around nobody's try */
};

static int nobody_tries(const struct handover *h)
{
	int rc;

	if (h->serve)
		h->serve();
	rc = as_nobody(h->outside, h->oarg);
	if (h->unserve)
		h->unserve();
	return rc;
}

/*
 * Set up; the control, undone; nobody tries the object; the attempt;
 * nobody tries again (an info line says both); undone.
 */
static void handover(const char *m, const struct handover *h)
{
	char line[320];
	int rc, before, after;

	h->undo();
	rc = control(cg.ctl, h->what, h->change, NULL);
	h->undo();
	if (rc == ENOSYS) {
		record(h->what, "skipped (ENOSYS: not in this kernel)", NULL);
		return;
	}
	if (rc)
		return;
	before = nobody_tries(h);
	attempt(m, HOLD, false, h->what, h->why, h->change, NULL);
	after = nobody_tries(h);
	h->undo();
	snprintf(line, sizeof(line), "(info) nobody outside %s: before the attempt %s, after it %s",
		 h->got, errname(before), errname(after));
	tap_note("%s", line);
	record(line, "for information", NULL);
}

void test_review10(void)
{
	const char *m = cg.main;
	const struct handover tmpfile = {
		"open(O_TMPFILE, 04755), bpftool's bytes written, linkat() by /proc/self/fd",
		"no file made inside is set-user-ID (6.1's vfs_tmpfile() calls no inode_create; "
		"inode_link judges bpffs only)",
		p_tmpfile, undo_tmpfile, n_bpftool, R10_TMPF,
		"runs it: bpftool prog show (CAP_SYS_ADMIN)", NULL, NULL,
	}, writesuid = {
		"O_TRUNC and write bpftool's bytes into a set-user-ID root helper made outside "
		"(busybox, 04755)",
		"S_ISUID kept through the write: CAP_FSETID is on the capability allow-list, so "
		"should_remove_suid() keeps it",
		p_write_suid, undo_write_suid, n_bpftool, R10_SUIDW,
		"runs it: bpftool prog show (CAP_SYS_ADMIN)", NULL, NULL,
	}, linksuid = {
		"link() a set-user-ID root bpftool made outside in a 0700 folder to " R10_LINK,
		"a setuid root file kept from users by its folder, given a name they reach "
		"(inode_link judges bpffs only)",
		p_link_suid, undo_link, n_bpftool, R10_LINK,
		"runs the link: bpftool prog show (CAP_SYS_ADMIN)", NULL, NULL,
	}, renamesuid = {
		"rename() a set-user-ID root bpftool made outside in a 0700 folder to " R10_LINK,
		"a setuid root file kept from users by its folder, moved where they reach it "
		"(inode_rename judged bpffs only)",
		p_rename_suid, undo_rename, n_bpftool, R10_LINK,
		"runs it there: bpftool prog show (CAP_SYS_ADMIN)", NULL, NULL,
	}, tty = {
		"mknod() ttyS1 (4:65) 0666 in " R10_DIR,
		"a serial port's node made for every user (chardev_allowed() passes all of "
		"TTY_MAJOR to inode_mknod)",
		p_mknod_tty, undo_tty, n_serial, NULL,
		"opens the serial port and sets TIOCM_LOOP (refused inside)", NULL, NULL,
	}, dacl = {
		"setxattr() system.posix_acl_default u:65534:rwx on a service's folder "
		"(" R10_RUN ", devtmpfs)",
		"a default ACL hands what others make later in the folder to the user it names "
		"(attrs_movable(): a directory of a data file system)",
		p_default_acl, undo_default_acl, n_connect, R10_RSOCK,
		"connects to the service's socket, bound there outside and made 0660 after",
		serve, unserve,
	};
	const struct handover aclsgid = {
		"chmod() 02744 a root:root copy of bpftool, then setxattr() a minimal "
		"system.posix_acl_access (group::r-x)",
		"the ACL writes the mode (posix_acl_update_mode(), no inode_setattr) and keeps "
		"S_ISGID under CAP_FSETID: set-group-ID root with group execute",
		p_acl_sgid, undo_acl_sgid, n_btf_dump, sgid_file,
		"runs it: bpftool btf dump of a 0640 root:root file", NULL, NULL,
	};
	struct stat st;

	tap_note("--- the attribute allow-list's way around (review 10)");
	if ((mkdir(R10_DIR, 0755) && errno != EEXIST) || chmod(R10_DIR, 0755)) {
		tap_result(0, "make %s: %s", R10_DIR, strerror(errno));
		return;
	}
	if (access(BPFTOOL, X_OK)) {
		skip(tmpfile.what, "no " BPFTOOL);
	} else {
		handover(m, &tmpfile);
		unlink(R10_TMPF);
		handover(m, &writesuid);
		unlink(R10_SUIDW);
		if ((mkdir(R10_PRIV, 0700) && errno != EEXIST) ||
		    copy_file(BPFTOOL, R10_PRIVSUID, 0755) || chmod(R10_PRIVSUID, 04755)) {
			skip(linksuid.what, "could not make the helper outside");
		} else {
			handover(m, &linksuid);
			handover(m, &renamesuid);
		}
		unlink(R10_PRIVSUID);
		rmdir(R10_PRIV);
	}
	if (stat(SERIAL, &st) || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(4, 65))
		skip(tty.what, "no " SERIAL " (4:65)");
	else
		handover(m, &tty);
	if (mkdir(R10_RUN, 0755) && errno != EEXIST) {
		skip(dacl.what, "could not make " R10_RUN);
	} else {
		chmod(R10_RUN, 0755);
		handover(m, &dacl);
		unserve();
		rmdir(R10_RUN);
	}
	snprintf(sgid_file, sizeof(sgid_file), "%s/lab-r10-sgid", f.mnt);
	if (access(BPFTOOL, X_OK) || copy_file(KERNEL_BTF, R10_GROUPF, 0640) ||
	    chmod(R10_GROUPF, 0640)) {
		skip(aclsgid.what, "no " BPFTOOL " or " KERNEL_BTF);
	} else {
		handover(m, &aclsgid);
		unlink(sgid_file);
	}
	unlink(R10_GROUPF);
	rmdir(R10_DIR);
}
