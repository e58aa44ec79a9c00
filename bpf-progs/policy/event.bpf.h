/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events journal, and what every event for lsmctl says (struct
 * lab_event, engine.h), for the engine's reports and the guard's: who,
 * when, the policy, and the object, a file or a task. A report takes
 * its CPU's draft (event_begin()), fills it (event_fill(), then what
 * the includer adds) and writes it to the journal (lab_event_commit()).
 */
#ifndef LSMLAB_EVENT_BPF_H
#define LSMLAB_EVENT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"

/*
 * lsmctl's events journal: one, shared by every instance and the guard,
 * made by lsmctl from journal.bpf.c (its slots hold locks: the maps need
 * the BTF a program's object has).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAB_JOURNAL_SLOTS);
	__type(key, __u32);
	__type(value, struct lab_journal_slot);
} journal SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lab_journal_head);
} journal_head SEC(".maps");

/*
 * A CPU's event being written (too large for the stack) and a scratch
 * line for its cgroup path: one a CPU for every instance and the guard,
 * shared as the journal is. LSM programs run with migration off, but a
 * preemptible kernel (Debian's, with preempt=full) may run another
 * report on the CPU while one is half written: @writers lets one use the
 * draft at a time; another's report is counted as not reported.
 */
struct lab_event_draft {
	__u32 writers;
	__u32 pad;
	struct lab_event e;
	/* lab_event_cgroup_climb()'s and _path()'s: the path, its kernfs nodes, where it is */
	char path[2 * LAB_EVENT_CGROUP_LEN];
	__u64 nodes[LAB_EVENT_CGROUP_DEPTH];
	__u64 up;
	__u32 depth;
	__u32 off;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lab_event_draft);
} journal_drafts SEC(".maps");

/*
 * Is @map one of the events maps above, which hold every policy's
 * events (other subtrees' cgroups, tasks and files)? By identity: the
 * includer's maps are the store's (store_share_journal()).
 */
static __always_inline bool events_map(const void *map)
{
	return map && (map == (const void *)&journal || map == (const void *)&journal_head ||
		       map == (const void *)&journal_drafts);
}

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

/*
 * The task's cgroup path, below the cgroup2 root, into @d->e.cgroup,
 * and how much of it is the cgroup of @d->e.policy_cgroup_id (an
 * ancestor, or the cgroup itself): the names now, while the cgroups are
 * there. Two global functions (see lab_folder_up()) that keep what they
 * work on in @d: the reporting programs' stack has no room left for a
 * frame larger than lab_folder_up()'s (6.1: 512 bytes down the deepest
 * call chain). The first climbs from the task's cgroup to the root, the
 * second writes the names from the top down.
 */
__noinline int lab_event_cgroup_climb(struct lab_event_draft *d)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct kernfs_node *kn;
	__u32 i;

	if (!d)
		return 0;
	kn = BPF_CORE_READ(task, cgroups, dfl_cgrp, kn);
	d->depth = 0;
	for (i = 0; i < LAB_EVENT_CGROUP_DEPTH && kn; i++) {
		d->up = (unsigned long)BPF_CORE_READ(kn, parent);
		if (!d->up)
			break;	/* the root: its name is not in the path */
		d->nodes[i & (LAB_EVENT_CGROUP_DEPTH - 1)] = (unsigned long)kn;
		d->depth = i + 1;
		kn = (struct kernfs_node *)d->up;
	}
	/* deeper than LAB_EVENT_CGROUP_DEPTH: the top is cut */
	d->e.cgroup_cut = kn && BPF_CORE_READ(kn, parent) ? LAB_CUT_TOP : 0;
	return 0;
}

__noinline int lab_event_cgroup_path(struct lab_event_draft *d)
{
	struct kernfs_node *kn;
	__u32 i, at;
	long len;

	if (!d)
		return 0;
	if (d->e.policy_cgroup_id == 1)
		d->e.policy_cgroup_len = 1;	/* the root cgroup's policy */
	d->path[0] = '/';
	d->path[1] = 0;
	d->off = 0;
	for (i = 0; i < LAB_EVENT_CGROUP_DEPTH; i++) {
		if (i >= d->depth)
			break;
		if (d->off >= LAB_EVENT_CGROUP_LEN - 1) {
			d->e.cgroup_cut |= LAB_CUT_END;
			break;
		}
		kn = (struct kernfs_node *)d->nodes[(d->depth - 1 - i) & (LAB_EVENT_CGROUP_DEPTH - 1)];
		at = d->off;
		barrier_var(at);	/* masked where it is used: the verifier sees the bound */
		at &= LAB_EVENT_CGROUP_LEN - 1;
		d->path[at] = '/';
		at = d->off + 1;
		barrier_var(at);
		at &= LAB_EVENT_CGROUP_LEN - 1;
		len = bpf_probe_read_kernel_str(&d->path[at], LAB_EVENT_CGROUP_LEN,
						BPF_CORE_READ(kn, name));
		if (len <= 0)
			break;
		d->off += len;	/* the '/' and the name */
		if (BPF_CORE_READ(kn, id) == d->e.policy_cgroup_id && d->off < LAB_EVENT_CGROUP_LEN)
			d->e.policy_cgroup_len = d->off;
	}
	if (d->off >= LAB_EVENT_CGROUP_LEN)
		d->e.cgroup_cut |= LAB_CUT_END;
	bpf_probe_read_kernel(d->e.cgroup, LAB_EVENT_CGROUP_LEN - 1, d->path);
	return 0;
}

/* The key of the one-entry maps: in .rodata, not on a program's stack. */
static const __u32 lab_zero = 0;

/* This CPU's draft, or NULL when another report has it. */
static __always_inline struct lab_event_draft *event_begin(void)
{
	struct lab_event_draft *d = bpf_map_lookup_elem(&journal_drafts, &lab_zero);

	if (!d)
		return NULL;
	__sync_fetch_and_add(&d->writers, 1);
	if (*(volatile __u32 *)&d->writers != 1) {
		__sync_fetch_and_add(&d->writers, -1);
		return NULL;
	}
	return d;
}

/*
 * Write @d's event to the journal and free the draft; 0, or -1 if it
 * could not be written. A global function: its locals are not on the
 * stack of every program that reports (6.1 allows 512 bytes for a
 * program and the functions it calls).
 */
__noinline int lab_event_commit(struct lab_event_draft *d)
{
	struct lab_journal_slot *slot;
	struct lab_journal_head *head;
	__u32 index;
	int rc = -1;
	__u64 seq;

	if (!d)
		return -1;
	head = bpf_map_lookup_elem(&journal_head, &lab_zero);
	if (head) {
		bpf_spin_lock(&head->lock);
		seq = head->count++;
		bpf_spin_unlock(&head->lock);
		index = seq & (LAB_JOURNAL_SLOTS - 1);
		slot = bpf_map_lookup_elem(&journal, &index);
		if (slot) {
			/*
			 * Numbered, then written: a report held between the
			 * two (preempted) while the journal went round writes
			 * over no later event; it is lost, and counted.
			 */
			bpf_spin_lock(&slot->lock);
			if (slot->seq < seq + 1) {
				slot->seq = seq + 1;
				__builtin_memcpy(&slot->e, &d->e, sizeof(slot->e));
				rc = 0;
			}
			bpf_spin_unlock(&slot->lock);
		}
	}
	__sync_fetch_and_add(&d->writers, -1);
	return rc;
}

static __always_inline void event_fill(struct lab_event_draft *d, __u64 policy_cgroup_id,
				       __u32 policy_flags, __u16 hook, __u16 rule, __u8 class,
				       __u32 number, struct task_struct *target,
				       struct dentry *dentry, __u32 generation)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct lab_event *e = &d->e;
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
	e->generation = generation;
	lab_event_cgroup_climb(d);
	lab_event_cgroup_path(d);
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
