/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's objects, which the engine and the guard both keep a
 * subtree out of: its IPC namespace's SysV objects (guard.bpf.c) and
 * POSIX message queues (self.bpf.h, guard.bpf.c), which are every
 * service's; its devices, but for an allow-list of character devices;
 * and the files of every file system but those that hold data (its
 * knobs).
 */
#ifndef LSMLAB_MACHINE_BPF_H
#define LSMLAB_MACHINE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "kdefs.bpf.h"

/* Is the current task in the machine's IPC namespace? */
static __always_inline int in_init_ipc(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return BPF_CORE_READ(task, nsproxy, ipc_ns, ns.inum) == PROC_IPC_INIT_INO;
}

/*
 * Is @sb the machine's mqueue file system, whose queues mq_open() finds
 * from the machine's IPC namespace (and any path to a mount of it, as
 * /dev/mqueue, from anywhere)? Its s_fs_info is its ipc_namespace.
 */
static __always_inline int mqueue_of_machine(struct super_block *sb)
{
	struct ipc_namespace *ns;

	/* the magic first: every other file system stops at one load */
	if (sb->s_magic != MQUEUE_MAGIC)
		return 0;
	ns = sb->s_fs_info;
	return BPF_CORE_READ(ns, ns.inum) == PROC_IPC_INIT_INO;
}

/*
 * Character devices by allow-list: a device is the machine's, and what
 * an open reaches is whatever its driver does (keystrokes typed
 * outside read from an input device, or typed into every session
 * through uinput and uhid; the kernel's log written by /dev/kmsg;
 * watchdogs, TPMs, tun devices in init_net, FUSE). Open: the memory
 * devices with nothing behind them (null, zero, full, random,
 * urandom), /dev/kmsg for reading, terminals (their ioctls pass the
 * guard's allow-list, and writing to one is output, not its input),
 * /dev/tty, /dev/console, /dev/ptmx and ptys.
 */
static __always_inline int chardev_allowed(dev_t rdev, unsigned int mode)
{
	unsigned int major = LAB_MAJOR(rdev), minor = LAB_MINOR(rdev);

	switch (major) {
	case MEM_MAJOR:
		return minor == NULL_MINOR || minor == ZERO_MINOR || minor == FULL_MINOR ||
		       minor == RANDOM_MINOR || minor == URANDOM_MINOR ||
		       (minor == KMSG_MINOR && !(mode & FMODE_WRITE));
	case TTY_MAJOR:			/* virtual consoles, serial ports */
		return 1;
	case TTYAUX_MAJOR:
		/* /dev/tty, /dev/console, /dev/ptmx; not 5:3, ttyprintk (the kernel's log) */
		return minor <= 2;
	}
	/* pty masters and slaves */
	return major >= UNIX98_PTY_MASTER_MAJOR && major < UNIX98_PTY_SLAVE_MAJOR + 8;
}

/*
 * File systems a guarded task may open files on for writing (cgroup2
 * and proc are judged file by file below): those that hold files,
 * on disks, in memory or over the network, and the kernel's internal
 * ones behind /proc/self/fd (pipes, sockets, anonymous inodes), and
 * POSIX message queues (as SysV IPC's objects: docs/threat-model.md).
 * Every other file system's files are the machine's knobs: sysfs,
 * securityfs, configfs, debugfs, tracefs, a cgroup v1 hierarchy's
 * release_agent, binfmt_misc, efivarfs, pstore, fusectl (a connection's
 * abort, max_background), nfsd, resctrl, selinuxfs and smackfs, and any
 * file system not listed here.
 */
static __always_inline int fs_writable(unsigned long magic)
{
	switch (magic) {
	case 0xEF53:		/* ext2, ext3, ext4 */
	case 0x58465342:	/* xfs */
	case 0x9123683E:	/* btrfs */
	case 0xF2F52010:	/* f2fs */
	case 0x2FC12FC1:	/* zfs */
	case 0x52654973:	/* reiserfs */
	case 0x3153464a:	/* jfs */
	case 0x3434:		/* nilfs2 */
	case 0x15013346:	/* udf */
	case 0x00c36400:	/* ceph */
	case 0x4d44:		/* vfat, msdos */
	case 0x2011BAB0:	/* exfat */
	case 0x7366746e:	/* ntfs3 */
	case 0x01021994:	/* tmpfs, devtmpfs, /dev/shm */
	case 0x858458f6:	/* ramfs, the initramfs' rootfs */
	case 0x958458f6:	/* hugetlbfs */
	case 0x794c7630:	/* overlayfs */
	case 0x65735546:	/* FUSE and virtiofs: a daemon's files */
	case 0x01021997:	/* 9p */
	case 0x6969:		/* NFS */
	case 0xFF534D42:	/* CIFS */
	case 0xFE534D42:	/* SMB2 */
	case 0x50495045:	/* pipefs: a pipe reopened by /proc/self/fd */
	case 0x534F434B:	/* sockfs */
	case 0x09041934:	/* anon_inodefs */
	case 0x5345434d:	/* secretmem */
	case 0x19800202:	/* mqueue: an IPC namespace's own (the machine's is refused) */
		return 1;
	}
	return 0;
}

/*
 * devtmpfs, which shares tmpfs's magic number: the machine's device
 * nodes and the sockets and links its services keep there (/dev/log),
 * not data, whatever fs_writable() says of tmpfs.
 */
static __always_inline int devtmpfs(struct super_block *sb)
{
	char name[10] = {};
	const char want[] = "devtmpfs";

	bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(sb, s_type, name));
	for (int i = 0; i < (int)sizeof(want); i++)	/* the NUL too */
		if (name[i] != want[i])
			return 0;
	return 1;
}

/*
 * A file whose mode gives whoever runs it its owner's or group's
 * rights: S_ISUID, or S_ISGID (without group execute it is no
 * privilege yet, but an ACL's group entry adds the execute bit with no
 * setattr, and 6.1 has no mandatory locking left to mean). The state
 * is what the guard judges, however it is reached: made so, changed
 * to, written, linked or moved (guard.bpf.c), opened for writing
 * (self.bpf.h).
 */
static __always_inline int mode_privileged(umode_t mode)
{
	return (mode & S_IFMT) != S_IFDIR && (mode & (S_ISUID | S_ISGID));
}

/*
 * The character devices a guarded task may make a node of (mknod):
 * those with nothing behind them and the controlling terminal's
 * aliases, fewer than it may open (chardev_allowed()): a node of a
 * serial port or a virtual console, 0666, is every user's way into
 * the line outside (its loopback, its keymap).
 */
static __always_inline int chardev_makeable(dev_t rdev)
{
	unsigned int major = LAB_MAJOR(rdev), minor = LAB_MINOR(rdev);

	if (major == MEM_MAJOR)
		return minor == NULL_MINOR || minor == ZERO_MINOR || minor == FULL_MINOR ||
		       minor == RANDOM_MINOR || minor == URANDOM_MINOR;
	return major == TTYAUX_MAJOR && (minor == 0 || minor == 2);	/* /dev/tty, /dev/ptmx */
}

#endif /* LSMLAB_MACHINE_BPF_H */
