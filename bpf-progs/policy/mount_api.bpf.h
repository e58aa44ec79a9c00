/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The new mount API in 6.1 has no LSM hook but move_mount: open_tree()
 * (a detached copy of a tree), mount_setattr() (a read-only mount made
 * writable), fsopen(), fspick() and fsmount(). Each asks may_mount(),
 * a CAP_SYS_ADMIN check, first: a capable program tells them apart by
 * the system call being made. For the engine and the guard.
 */
#ifndef LSMLAB_MOUNT_API_BPF_H
#define LSMLAB_MOUNT_API_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#define X32_SYSCALL_BIT		0x40000000
/* the same numbers on x86-64 and i386 */
#define NR_OPEN_TREE		428
#define NR_FSOPEN		430
#define NR_FSMOUNT		432
#define NR_FSPICK		433
#define NR_MOUNT_SETATTR	442

/* The current system call's number. */
static __always_inline long current_syscall(void)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

	return BPF_CORE_READ(regs, orig_ax) & ~X32_SYSCALL_BIT;
}

/* Is @nr one of the new mount API's calls that make or change a mount? */
static __always_inline int mount_api_syscall(long nr)
{
	return nr == NR_OPEN_TREE || nr == NR_FSOPEN || nr == NR_FSMOUNT || nr == NR_FSPICK ||
	       nr == NR_MOUNT_SETATTR;
}

#endif /* LSMLAB_MOUNT_API_BPF_H */
