/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events ring, and what every event for lsmctl says (struct
 * lab_event, engine.h), for the engine's reports and the guard's: who,
 * when, the policy, and the object, a file or a task. The includer
 * fills the rest and submits.
 */
#ifndef LSMLAB_EVENT_BPF_H
#define LSMLAB_EVENT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"

/* lsmctl's events ring: one, shared by every instance and the guard. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LAB_EVENTS_SIZE);
} events SEC(".maps");

/*
 * The inode of the @n-th folder above @folder (a struct dentry *, read:
 * a scalar; 0 its parent), or 0 past its filesystem's root. A global
 * function of scalars (6.1 passes a global function no ring buffer
 * memory, nor a pointer the verifier knows): the verifier goes through
 * it once, not at every report of every program.
 */
__noinline __u64 lab_folder_up(__u64 folder, int n)
{
	struct dentry *d = (struct dentry *)folder, *p;
	int i;

	for (i = 0; i < LAB_EVENT_UP && d; i++) {
		p = BPF_CORE_READ(d, d_parent);
		if (!p || p == d)
			return 0;
		if (i == n)
			return BPF_CORE_READ(p, d_inode, i_ino);
		d = p;
	}
	return 0;
}

static __always_inline void event_fill(struct lab_event *e, __u64 policy_cgroup_id,
				       __u32 policy_flags, __u16 hook, __u16 rule, __u8 class,
				       __u32 number, struct task_struct *target,
				       struct dentry *dentry)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct inode *inode;
	struct file *exe;
	__u64 folder;

	__builtin_memset(e, 0, sizeof(*e));
	e->time_ns = bpf_ktime_get_ns();
	e->cgroup_id = bpf_get_current_cgroup_id();
	e->policy_cgroup_id = policy_cgroup_id;
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->hook = hook;
	e->rule = rule;
	e->verdict = (policy_flags & LAB_AUDIT) ? LAB_VERDICT_AUDIT : LAB_VERDICT_DENY;
	e->class = class;
	e->number = number;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->uid = (__u32)bpf_get_current_uid_gid();
	/* the executable as far as BPF sees it: its name and inode, not its path */
	exe = BPF_CORE_READ(task, mm, exe_file);
	if (exe) {
		e->exe_ino = BPF_CORE_READ(exe, f_inode, i_ino);
		e->exe_dev = BPF_CORE_READ(exe, f_inode, i_sb, s_dev);
		bpf_probe_read_kernel_str(e->exe, sizeof(e->exe),
					  BPF_CORE_READ(exe, f_path.dentry, d_name.name));
	}
	if (dentry) {
		inode = BPF_CORE_READ(dentry, d_inode);
		if (inode)
			e->ino = BPF_CORE_READ(inode, i_ino);
		e->dev = BPF_CORE_READ(dentry, d_sb, s_dev);
		/* the name and its directory: a rule by path's key; a new name has no inode yet */
		e->dir_ino = BPF_CORE_READ(dentry, d_parent, d_inode, i_ino);
		bpf_probe_read_kernel_str(e->name, sizeof(e->name),
					  BPF_CORE_READ(dentry, d_name.name));
		folder = (unsigned long)BPF_CORE_READ(dentry, d_parent);
		for (int i = 0; i < LAB_EVENT_UP; i++)
			e->up.ino[i] = lab_folder_up(folder, i);
	}
	if (target)
		e->target_pid = BPF_CORE_READ(target, tgid);
}

#endif /* LSMLAB_EVENT_BPF_H */
