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
#define ENOSPC			28

/* linux/socket.h */
#define AF_UNSPEC		0
#define AF_UNIX			1
#define AF_INET			2
#define AF_INET6		10
#define AF_NETLINK		16
#define AF_PACKET		17
#define AF_ISDN			34	/* mISDN: no network namespace */
#define AF_ALG			38
#define AF_VSOCK		40	/* no network namespace in 6.1 */
#define SOL_PACKET		263
#define PACKET_FANOUT		18	/* join a capture's fanout group */
#define PACKET_FANOUT_DATA	22	/* replace the group's steering program */
#define SOL_IP			0
#define SOL_SOCKET		1
#define SO_REUSEADDR		2
#define SO_REUSEPORT		15
#define SO_ATTACH_REUSEPORT_CBPF 51
#define SO_ATTACH_REUSEPORT_EBPF 52
#define SOL_IPV6		41
#define IP_RETOPTS		7	/* cmsg_type: IP options, a source route among them */
#define IPV6_2292RTHDR		5	/* cmsg_type: a routing header */
#define IPV6_RTHDR		57
#define SOL_TCP			6
#define TCP_REPAIR		19	/* SK_FORCE_REUSE: binds past every conflict */
#define NETLINK_ROUTE		0
#define NETLINK_USERSOCK	2
#define NETLINK_SOCK_DIAG	4
#define NETLINK_XFRM		6
#define NETLINK_SELINUX		7
#define NETLINK_AUDIT		9
#define NETLINK_FIB_LOOKUP	10
#define NETLINK_CONNECTOR	11
#define NETLINK_NETFILTER	12
#define NETLINK_KOBJECT_UEVENT	15
#define NETLINK_GENERIC		16
#define NLMSG_MIN_TYPE		0x10
#define NFNL_MSG_BATCH_BEGIN	NLMSG_MIN_TYPE
#define NFNL_MSG_BATCH_END	(NLMSG_MIN_TYPE + 1)
#define NFNL_SUBSYS_CTNETLINK	1
#define NFNL_SUBSYS_OSF		5	/* one OS-fingerprint list for every namespace */
#define NFNL_SUBSYS_CTHELPER	9	/* one list of userspace helpers for every namespace */
#define NFNL_SUBSYS_NFTABLES	10
#define GENL_ID_CTRL		NLMSG_MIN_TYPE
#define SOCK_DESTROY		21

/* uapi/linux/sctp.h: security_sctp_bind_connect()'s optname, and sendmsg's cmsgs */
#define SCTP_SET_PEER_PRIMARY_ADDR	5	/* one of the association's local addresses */
#define SCTP_PRIMARY_ADDR		6	/* one of the peer's addresses */
#define SCTP_SOCKOPT_BINDX_ADD		100
#define SCTP_SOCKOPT_CONNECTX		110	/* CONNECTX_OLD and CONNECTX3 too */
#define SCTP_SENDMSG_CONNECT		126	/* sendmsg() starting an association */
#define SCTP_DSTADDRV4			7	/* cmsg_type: more peer addresses */
#define SCTP_DSTADDRV6			8

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
#define S_IFSOCK		0140000
#define S_IFLNK			0120000
#define S_ISUID			0004000
#define S_ISGID			0002000
#define S_IXGRP			00010

/* uapi/asm-generic/mman-common.h, linux/mm.h */
#define PROT_WRITE		0x2
#define MAP_SHARED		0x01
#define MAP_SHARED_VALIDATE	0x03
#define VM_SHARED		0x00000008

/* uapi/linux/major.h, drivers/char/mem.c: /dev/mem 1:1 ... /dev/kmsg 1:11 */
#define MEM_MAJOR		1
#define NULL_MINOR		3
#define ZERO_MINOR		5
#define FULL_MINOR		7
#define RANDOM_MINOR		8
#define URANDOM_MINOR		9
#define KMSG_MINOR		11
#define TTY_MAJOR		4

/* uapi/linux/magic.h */
#define BPF_FS_MAGIC		0xcafe4a11
#define CGROUP2_SUPER_MAGIC	0x63677270
#define PROC_SUPER_MAGIC	0x9fa0
#define MQUEUE_MAGIC		0x19800202

/* uapi/linux/capability.h, linux/security.h */
#define CAP_CHOWN		0
#define CAP_DAC_OVERRIDE	1
#define CAP_DAC_READ_SEARCH	2
#define CAP_FOWNER		3
#define CAP_FSETID		4
#define CAP_KILL		5
#define CAP_SETGID		6
#define CAP_SETUID		7
#define CAP_SETPCAP		8
#define CAP_LINUX_IMMUTABLE	9
#define CAP_NET_BIND_SERVICE	10
#define CAP_NET_BROADCAST	11
#define CAP_NET_ADMIN		12
#define CAP_NET_RAW		13
#define CAP_IPC_LOCK		14
#define CAP_IPC_OWNER		15
#define CAP_SYS_MODULE		16
#define CAP_SYS_RAWIO		17
#define CAP_SYS_CHROOT		18
#define CAP_SYS_PTRACE		19
#define CAP_SYS_ADMIN		21
#define CAP_SYS_BOOT		22
#define CAP_SYS_TTY_CONFIG	26
#define CAP_MKNOD		27
#define CAP_LEASE		28
#define CAP_AUDIT_WRITE		29
#define CAP_AUDIT_CONTROL	30	/* audit's settings: the machine's, in any netns */
#define CAP_SETFCAP		31
#define CAP_SYSLOG		34
#define CAP_CHECKPOINT_RESTORE	40
#define PF_IO_WORKER		0x00000010	/* linux/sched.h */
#define CAP_OPT_NOAUDIT		(1U << 1)
#define BIT_ULL(n)		(1ULL << (n))
#define PROC_UTS_INIT_INO	0xEFFFFFFEU	/* linux/proc_ns.h: the machine's UTS namespace */
#define PROC_IPC_INIT_INO	0xEFFFFFFFU	/* and its IPC namespace */
#define PROC_CGROUP_INIT_INO	0xEFFFFFFBU	/* and its cgroup namespace */
#define RTM_NEWNSID		88
#define RTM_NEWLINK		16
#define RTM_SETLINK		19

/* uapi/linux/mount.h: mount(2)'s flags, as path_mount() tells them apart */
#define MS_REMOUNT		0x00000020
#define MS_BIND			0x00001000
#define MS_MOVE			0x00002000
#define MS_UNBINDABLE		(1U << 17)
#define MS_PRIVATE		(1U << 18)
#define MS_SLAVE		(1U << 19)
#define MS_SHARED		(1U << 20)
#define MNT_FORCE		0x00000001	/* umount2(2): the filesystem's umount_begin() */

/* linux/ptrace.h */
#define PTRACE_MODE_ATTACH	0x02
#define PTRACE_MODE_NOAUDIT	0x04

/* uapi/linux/sched.h, uapi/linux/bpf.h, linux/security.h, linux/fsnotify_backend.h */
#define CLONE_INTO_CGROUP	0x200000000ULL
#define CLONE_NEWTIME		0x00000080
#define CLONE_NEWNS		0x00020000
#define CLONE_NEWCGROUP		0x02000000
#define CLONE_NEWUTS		0x04000000
#define CLONE_NEWIPC		0x08000000
#define CLONE_NEWUSER		0x10000000
#define CLONE_NEWPID		0x20000000
#define CLONE_NEWNET		0x40000000
#define BPF_F_RDONLY		(1U << 3)
#define LSM_PRLIMIT_WRITE	2
#define FS_PERM_EVENTS		0x00070000	/* FS_OPEN_PERM, FS_ACCESS_PERM, FS_OPEN_EXEC_PERM */

/* uapi/asm-generic/ioctls.h, uapi/linux/sockios.h */
#define TIOCSCTTY		0x540E
#define TIOCSTI			0x5412
#define TIOCLINUX		0x541C
#define TIOCCONS		0x541D
#define TIOCSETD		0x5423
#define TIOCVHANGUP		0x5437
#define FIOASYNC		0x5452
#define FIOSETOWN		0x8901
#define SIOCSPGRP		0x8902

/*
 * The guard's allow-list of terminal and device ioctls (x86's numbers,
 * the same for compat callers): queries and the fd's own flags.
 */
#define TCGETS			0x5401
#define TCGETA			0x5405
#define TIOCGPGRP		0x540F
#define TIOCOUTQ		0x5411
#define TIOCGWINSZ		0x5413
#define TIOCMGET		0x5415
#define TIOCGSOFTCAR		0x5419
#define FIONREAD		0x541B
#define TIOCGSERIAL		0x541E
#define FIONBIO			0x5421
#define TIOCGETD		0x5424
#define TIOCGSID		0x5429
#define TCGETS2			0x802C542A
#define TIOCGPTN		0x80045430
#define TIOCGDEV		0x80045432
#define TIOCGPKT		0x80045438
#define TIOCGPTLCK		0x80045439
#define TIOCGEXCL		0x80045440
#define FIONCLEX		0x5450
#define FIOCLEX			0x5451
#define TIOCGLCKTRMIOS		0x5456
#define TIOCGICOUNT		0x545D

/*
 * The guard's allow-list on files, directories and block devices
 * (uapi/linux/fs.h, uapi/asm-generic/ioctls.h; 64-bit numbers, then a
 * compat caller's where its size differs): queries, and the writes
 * the descriptor's own FMODE_WRITE stands for.
 */
#define FIBMAP			0x1
#define FIGETBSZ		0x2
#define FIOQSIZE		0x5460
#define FS_IOC_GETFLAGS		0x80086601
#define FS_IOC32_GETFLAGS	0x80046601
#define FS_IOC_GETVERSION	0x80087601
#define FS_IOC32_GETVERSION	0x80047601
#define FS_IOC_FIEMAP		0xC020660B
#define FS_IOC_FSGETXATTR	0x801C581F
#define FS_IOC_GETFSLABEL	0x81009431
#define HDIO_GETGEO		0x0301
#define NS_GET_USERNS		0xB701	/* uapi/linux/nsfs.h: nsfs files are S_IFREG */
#define NS_GET_PARENT		0xB702
#define NS_GET_NSTYPE		0xB703
#define NS_GET_OWNER_UID	0xB704
#define BLKROGET		0x125E
#define BLKGETSIZE		0x1260
#define BLKRAGET		0x1263
#define BLKFRAGET		0x1265
#define BLKSECTGET		0x1267
#define BLKSSZGET		0x1268
#define BLKIOMIN		0x1278
#define BLKIOOPT		0x1279
#define BLKALIGNOFF		0x127A
#define BLKPBSZGET		0x127B
#define BLKDISCARDZEROES	0x127C
#define BLKROTATIONAL		0x127E
#define BLKBSZGET		0x80081270
#define BLKGETSIZE64		0x80081272
#define BLKBSZGET_32		0x80041270	/* size_t's */
#define BLKGETSIZE64_32		0x80041272
#define BLKGETDISKSEQ		0x80081280
#define BLKGETZONESZ		0x80041284
#define BLKGETNRZONES		0x80041285
/* writes: allowed on a descriptor open for writing */
#define FS_IOC_SETFLAGS		0x40086602
#define FS_IOC32_SETFLAGS	0x40046602
#define FS_IOC_FSSETXATTR	0x401C5820
#define FICLONE			0x40049409
#define FICLONERANGE		0x4020940D
#define FIDEDUPERANGE		0xC0189436
#define BLKDISCARD		0x1277
#define BLKSECDISCARD		0x127D
#define BLKZEROOUT		0x127F

/* uapi/linux/major.h, linux/tty_driver.h, linux/pid.h */
#define TTYAUX_MAJOR		5	/* 5:0 /dev/tty, 5:2 /dev/ptmx (5:1 is the console) */
#define UNIX98_PTY_MASTER_MAJOR	128	/* 128..135 */
#define UNIX98_PTY_SLAVE_MAJOR	136	/* 136..143 */
#define TTY_DRIVER_TYPE_PTY	0x0004
#define PTY_TYPE_MASTER		0x0001

#endif /* LSMLAB_KDEFS_BPF_H */
