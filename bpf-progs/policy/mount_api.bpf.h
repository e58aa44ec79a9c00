/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The new mount API in 6.1 has no LSM hook but move_mount: open_tree()
 * (a detached copy of a tree), mount_setattr() (a read-only mount made
 * writable), fsopen(), fspick() and fsmount(); pivot_root() has one the
 * mount rule does not spend a hook slot on. Each asks may_mount(), a
 * CAP_SYS_ADMIN check, first: a capable program tells them apart by the
 * system call being made. For the engine and the guard.
 */
#ifndef LSMLAB_MOUNT_API_BPF_H
#define LSMLAB_MOUNT_API_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#define X32_SYSCALL_BIT		0x40000000
#define TS_COMPAT		0x0002	/* thread_info.status: an i386 system call */
/* x86-64's numbers; i386's differ for the old calls */
#define NR_READ			0
#define NR_WRITE		1
#define NR_OPEN			2
#define NR_IOCTL		16
#define NR_PREAD64		17
#define NR_PWRITE64		18
#define NR_READV		19
#define NR_WRITEV		20
#define NR_SENDTO		44
#define NR_SENDMSG		46
#define NR_SETSOCKOPT		54
#define NR_CLONE		56
#define NR_FORK			57
#define NR_VFORK		58
#define NR_FCNTL		72
#define NR_PTRACE		101
#define NR_PIVOT_ROOT		155
#define NR_PRCTL		157
#define NR_MOUNT		165
#define NR_UMOUNT2		166
#define NR_SWAPON		167
#define NR_SWAPOFF		168
#define NR_SYSLOG		103
#define NR_SETHOSTNAME		170
#define NR_SETDOMAINNAME	171
#define NR_OPENAT		257
#define NR_UNSHARE		272
#define NR_PERF_EVENT_OPEN	298
#define NR_FANOTIFY_INIT	300
#define NR_FANOTIFY_MARK	301
#define NR_SENDMMSG		307
#define NR_SETNS		308
#define NR_SECCOMP		317
#define NR_BPF			321
#define NR_I386_READ		3
#define NR_I386_WRITE		4
#define NR_I386_OPEN		5
#define NR_I386_IOCTL		54
#define NR_I386_FCNTL		55
#define NR_I386_FORK		2
#define NR_I386_CLONE		120
#define NR_I386_UNSHARE		310
#define NR_I386_SETNS		346
#define NR_I386_OPENAT		295
#define NR_I386_SWAPON		87
#define NR_I386_SWAPOFF		115
#define NR_I386_PIVOT_ROOT	217
/* the same numbers on x86-64 and i386 */
#define NR_OPEN_TREE		428
#define NR_FSOPEN		430
#define NR_FSMOUNT		432
#define NR_FSPICK		433
#define NR_MOVE_MOUNT		429
#define NR_MOUNT_SETATTR	442
#define NR_CLONE3		435
#define NR_OPENAT2		437

/* The current system call's number, as x86-64 numbers it (i386's mapped). */
static __always_inline long current_syscall(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	/* the kernel runs the call the low 32 bits name: the high ones say nothing */
	long nr = (int)BPF_CORE_READ(regs, orig_ax) & ~X32_SYSCALL_BIT;

	/* the calls from 424 on have one number on every architecture */
	if (!(task->thread_info.status & TS_COMPAT) || nr >= NR_OPEN_TREE)
		return nr;
	switch (nr) {
	case NR_I386_SWAPON:
		return NR_SWAPON;
	case NR_I386_SWAPOFF:
		return NR_SWAPOFF;
	case NR_I386_PIVOT_ROOT:
		return NR_PIVOT_ROOT;
	/* the calls guard.bpf.c's sys_admin_allowed() lets a 32-bit task make */
	case NR_I386_READ:
		return NR_READ;
	case NR_I386_WRITE:
		return NR_WRITE;
	case NR_I386_OPEN:
		return NR_OPEN;
	case NR_I386_IOCTL:
		return NR_IOCTL;
	case NR_I386_FCNTL:
		return NR_FCNTL;
	case NR_I386_FORK:
		return NR_FORK;
	case NR_I386_CLONE:
		return NR_CLONE;
	case NR_I386_UNSHARE:
		return NR_UNSHARE;
	case NR_I386_SETNS:
		return NR_SETNS;
	case NR_I386_OPENAT:
		return NR_OPENAT;
	}
	return -1;	/* none of ours */
}

/* Is @nr a call that makes or changes a mount with no hook of its own? */
static __always_inline int mount_api_syscall(long nr)
{
	return nr == NR_OPEN_TREE || nr == NR_FSOPEN || nr == NR_FSMOUNT || nr == NR_FSPICK ||
	       nr == NR_MOUNT_SETATTR || nr == NR_PIVOT_ROOT;
}

#endif /* LSMLAB_MOUNT_API_BPF_H */
