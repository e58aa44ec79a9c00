/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's IPC namespace, which the engine and the guard both
 * keep a subtree out of: its SysV objects (guard.bpf.c) and its POSIX
 * message queues (self.bpf.h, guard.bpf.c) are every service's.
 */
#ifndef LSMLAB_MACHINE_BPF_H
#define LSMLAB_MACHINE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

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

#endif /* LSMLAB_MACHINE_BPF_H */
