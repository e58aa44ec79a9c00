/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's constants the engine and the guard use: #defines, which
 * BTF, and so vmlinux.h, does not carry. By the header they come from.
 */
#ifndef LSMLAB_KDEFS_BPF_H
#define LSMLAB_KDEFS_BPF_H

/* uapi/asm-generic/errno-base.h */
#define EPERM			1
#define ENOENT			2

/* linux/socket.h */
#define AF_UNSPEC		0
#define AF_INET			2
#define AF_INET6		10

/* linux/fs.h, uapi/asm-generic/fcntl.h */
#define FMODE_READ		0x1
#define FMODE_WRITE		0x2
#define O_ACCMODE		00000003	/* f_flags: 3 opens for ioctl only, no FMODE_READ/WRITE */
#define O_TRUNC			00001000
#define O_ASYNC			020000
#define __FMODE_EXEC		0x20		/* f_flags (not f_mode, in 6.1): exec's opens */
#define __O_TMPFILE		020000000
#define F_SETFL			4
#define F_SETOWN		8
#define F_SETSIG		10
#define F_SETOWN_EX		15
#define F_SETLEASE		1024
#define SB_KERNMOUNT		(1UL << 22)	/* an internal mount: pipes, sockets, memfds... */

/* uapi/linux/stat.h */
#define S_IFMT			00170000
#define S_IFREG			0100000
#define S_IFDIR			0040000
#define S_IFBLK			0060000
#define S_IFCHR			0020000

/* uapi/linux/major.h: /dev/mem 1:1, /dev/kmem 1:2, /dev/port 1:4 */
#define MEM_MAJOR		1
#define MEM_MINOR		1
#define KMEM_MINOR		2
#define PORT_MINOR		4

/* uapi/linux/magic.h */
#define BPF_FS_MAGIC		0xcafe4a11
#define CGROUP_SUPER_MAGIC	0x27e0eb
#define CGROUP2_SUPER_MAGIC	0x63677270
#define BINFMTFS_MAGIC		0x42494e4d
#define SYSFS_MAGIC		0x62656572
#define SECURITYFS_MAGIC	0x73636673
#define CONFIGFS_MAGIC		0x62656570
#define DEBUGFS_MAGIC		0x64626720
#define TRACEFS_MAGIC		0x74726163
#define SELINUX_MAGIC		0xf97cff8c
#define SMACK_MAGIC		0x43415d53
#define EFIVARFS_MAGIC		0xde5e81e4
#define PSTOREFS_MAGIC		0x6165676C
#define PROC_SUPER_MAGIC	0x9fa0

/* uapi/linux/capability.h */
#define CAP_SYS_MODULE		16
#define CAP_SYS_RAWIO		17
#define CAP_SYS_ADMIN		21
#define CAP_SYS_BOOT		22
#define CAP_SYS_TTY_CONFIG	26

/* linux/ptrace.h */
#define PTRACE_MODE_ATTACH	0x02
#define PTRACE_MODE_NOAUDIT	0x04

/* uapi/linux/sched.h, uapi/linux/bpf.h, linux/security.h, linux/fsnotify_backend.h */
#define CLONE_INTO_CGROUP	0x200000000ULL
#define BPF_F_RDONLY		(1U << 3)
#define LSM_PRLIMIT_WRITE	2
#define FS_PERM_EVENTS		0x00070000	/* FS_OPEN_PERM, FS_ACCESS_PERM, FS_OPEN_EXEC_PERM */

/* uapi/asm-generic/ioctls.h, uapi/linux/sockios.h */
#define TIOCSCTTY		0x540E
#define TIOCSTI			0x5412
#define TIOCLINUX		0x541C
#define TIOCCONS		0x541D
#define TIOCVHANGUP		0x5437
#define FIOASYNC		0x5452
#define FIOSETOWN		0x8901
#define SIOCSPGRP		0x8902

#endif /* LSMLAB_KDEFS_BPF_H */
