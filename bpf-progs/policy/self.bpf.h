/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-protection's part in the policies' own programs: what opening a
 * file would let a confined root do outside its subtree (the guard,
 * guard.bpf.c, has the other hooks), and whether a policy denies it.
 */
#ifndef LSMLAB_SELF_BPF_H
#define LSMLAB_SELF_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "kdefs.bpf.h"
#include "machine.bpf.h"
#include "name_eq.bpf.h"
#include "request.bpf.h"
#include "subtree.bpf.h"

#define SELF_NAME_MAX	32	/* the longest name asked about, and its NUL */
#define PID_NAME_MAX	12	/* a pid's digits, and a NUL */

/* Is @cg the policy's cgroup or below it? */
static __always_inline int cgroup_inside(const struct lab_conf *conf, struct cgroup *cg)
{
	return cgroup_below(conf->cgroup_id, conf->cgroup_level, cg);
}

static __always_inline int task_inside(const struct lab_conf *conf, struct task_struct *task)
{
	return cgroup_inside(conf, BPF_CORE_READ(task, cgroups, dfl_cgrp));
}

/*
 * Self-protection at open: a cgroup's files outside the subtree (moving
 * a task out through cgroup.procs), kernel memory, sysrq and sysctls, and
 * the files that make the kernel run a program as root outside.
 */
static __always_inline int name_is(struct dentry *d, const char *want, int len)
{
	char name[SELF_NAME_MAX] = {};
	int i;

	if (len > (int)sizeof(name) - 1)
		return 0;
	bpf_probe_read_kernel_str(name, sizeof(name), d->d_name.name);
	for (i = 0; i <= len && i < (int)sizeof(name); i++)	/* the NUL too */
		if (name[i] != want[i])
			return 0;
	return 1;
}

/* Is @d's name the string literal @lit? */
#define NAME_IS(d, lit)	name_is(d, lit, sizeof(lit) - 1)

/*
 * Is @dentry (a struct dentry *) one of the task's own /proc files it
 * may not write: oom_score_adj and oom_adj, autogroup? A global
 * function, which the verifier goes through once for every caller:
 * file_open's check, inlined in every class's step, is at the edge of
 * its budget on 6.1.
 */
__noinline int lab_proc_own_refused(__u64 dentry)
{
	char name[16] = {};
	struct dentry *d = (struct dentry *)dentry;

	if (bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(d, d_name.name)) < 0)
		return 1;
	return name_eq(name, "oom_score_adj") || name_eq(name, "oom_adj") ||
	       name_eq(name, "autogroup");
}

/* The pid a /proc folder is named after, or 0 when its name is no number. */
static __always_inline __u32 proc_pid_of(struct dentry *d)
{
	char name[PID_NAME_MAX] = {};
	__u32 pid = 0;
	int i;

	bpf_probe_read_kernel_str(name, sizeof(name), d->d_name.name);
	for (i = 0; i < (int)sizeof(name) - 1 && name[i]; i++) {
		if (name[i] < '0' || name[i] > '9')
			return 0;
		pid = pid * 10 + (name[i] - '0');
	}
	return pid;
}

/*
 * The cgroup of the task a /proc/PID (or /proc/PID/task/TID) file is
 * about: its proc_inode's pid, that pid's task. NULL once it is gone.
 */
static __always_inline struct cgroup *proc_task_cgroup(struct inode *inode)
{
	struct proc_inode *ei = (void *)inode - bpf_core_field_offset(struct proc_inode, vfs_inode);
	struct hlist_node *first = BPF_CORE_READ(ei, pid, tasks[PIDTYPE_PID].first);
	struct task_struct *task;

	if (!first)
		return NULL;
	task = (void *)first - bpf_core_field_offset(struct task_struct, pid_links);
	return BPF_CORE_READ(task, cgroups, dfl_cgrp);
}

/*
 * mounts, mountinfo or mountstats below /proc: "mount" and the length
 * (no other /proc/PID file starts so), by one 8-byte read, not three
 * name_is() loops, which the global backend's file_open cannot afford
 * under 6.1's verifier.
 */
static __always_inline int proc_mount_table(struct dentry *d)
{
	__u32 len = d->d_name.len;
	__u64 w = 0;

	if (len != 6 && len != 9 && len != 10)
		return 0;
	bpf_probe_read_kernel(&w, sizeof(w), d->d_name.name);
	/* "mount", little-endian */
	return (w & 0xffffffffffULL) == 0x746e756f6dULL;
}

/* What self-protection asks of opening @file: LAB_SELF_DENY, _CGROUP, _LIMIT, _MOVE or 0. */
static __always_inline __u8 self_at_open(struct file *file, struct cgroup **cgroup)
{
	struct dentry *d = file->f_path.dentry, *parent, *grand;
	struct inode *inode = d->d_inode;
	unsigned int mode = file->f_mode;
	unsigned long magic = d->d_sb->s_magic;
	struct kernfs_node *kn;
	__u32 pid;

	if (!inode)
		return 0;
	/*
	 * A setuid or setgid file, for writing: what it is made to hold
	 * runs with its owner's rights for every user outside (a write
	 * keeps the bits through a shared mapping, and O_TRUNC, FICLONE and
	 * copy_file_range need the same descriptor). O_TMPFILE opens for
	 * writing too, and 6.1 makes its file with no inode_create.
	 */
	if ((mode & FMODE_WRITE) && (inode->i_mode & S_IFMT) == S_IFREG &&
	    mode_privileged(inode->i_mode))
		return LAB_SELF_DENY;
	if ((inode->i_mode & S_IFMT) == S_IFCHR)
		return chardev_allowed(inode->i_rdev, mode) ? 0 : LAB_SELF_DENY;
	/* a disk's blocks: every file on it, past every file rule */
	if ((inode->i_mode & S_IFMT) == S_IFBLK)
		return LAB_SELF_DENY;
	/* a POSIX message queue of the machine's: every service's (mq_open()) */
	if (mqueue_of_machine(d->d_sb))
		return LAB_SELF_DENY;
	parent = d->d_parent;
	if (magic == CGROUP2_SUPER_MAGIC && (mode & FMODE_WRITE)) {
		/* the folder's kernfs node, whose priv is its cgroup */
		kn = parent->d_inode->i_private;
		*cgroup = BPF_CORE_READ(kn, priv);	/* i_private is a void * */
		/* moving a task: self_denies() */
		if (NAME_IS(d, "cgroup.procs") || NAME_IS(d, "cgroup.threads"))
			return LAB_SELF_MOVE;
		/*
		 * What a delegated cgroup's owner may write in it (cgroup v2's
		 * delegation); its limits and the rest are its parent's.
		 */
		if (NAME_IS(d, "cgroup.subtree_control") || NAME_IS(d, "cgroup.freeze") ||
		    NAME_IS(d, "cgroup.kill") || NAME_IS(d, "cgroup.type"))
			return LAB_SELF_CGROUP;
		return LAB_SELF_LIMIT;
	}
	/*
	 * The machine's knobs, by allow-list (fs_writable): files by which
	 * the kernel runs a program of the writer's choosing, as root,
	 * outside every cgroup (a cgroup v1 hierarchy's release_agent,
	 * binfmt_misc's register, sysfs' uevent_helper), devices, PCI and
	 * power in sysfs, LSM policies in securityfs, kprobes in tracefs.
	 */
	if ((mode & FMODE_WRITE) && magic != PROC_SUPER_MAGIC && !fs_writable(magic))
		return LAB_SELF_DENY;
	/*
	 * The events maps' pins, read: a BPF filesystem shows a map with
	 * BTF as text, every policy's events (guard_bpf_map() for the fds
	 * bpf() gives). A pin's inode holds its object.
	 */
	if (magic == BPF_FS_MAGIC && events_map(inode->i_private))
		return LAB_SELF_DENY;
	if (magic != PROC_SUPER_MAGIC)
		return 0;
	grand = parent->d_parent;
	/* in /proc itself: sysrq-trigger, mtrr...; kmsg, whose reads consume the log */
	if (parent == grand)
		return (NAME_IS(d, "kcore") || NAME_IS(d, "kmsg") || (mode & FMODE_WRITE)) ?
		       LAB_SELF_DENY : 0;
	/*
	 * Another process's mount namespace, read: an outside task's
	 * mounts (a container's, one made by unshare -m) are outside, and
	 * opening these asks no ptrace check. A task of the subtree's own
	 * passes (LAB_SELF_CGROUP on its cgroup).
	 */
	if (proc_mount_table(d)) {
		*cgroup = proc_task_cgroup(inode);
		return LAB_SELF_CGROUP;
	}
	/* below /proc, writes to its own process's files only (and one sysctl) */
	if (!(mode & FMODE_WRITE) || NAME_IS(d, "bpf_stats_enabled"))
		return 0;
	for (int i = 0; i < 8; i++) {
		if (grand->d_parent == grand)
			break;
		/* /proc/PID/net/...: the network namespace's, shared with tasks outside */
		if (NAME_IS(parent, "net"))
			return LAB_SELF_DENY;
		parent = grand;
		grand = grand->d_parent;
	}
	/*
	 * /proc/PID/...: another process's oom_score_adj (the OOM killer's
	 * pick), comm, timerslack_ns, clear_refs, uid_map... Its own only,
	 * and of its own not the OOM score (at -1000 the OOM killer would
	 * pick tasks outside) nor its autogroup's nice value (the session's
	 * autogroup, which tasks outside in the same session share).
	 * Anything else (/proc/sys, /proc/irq) is the machine's.
	 */
	pid = proc_pid_of(parent);
	/* (the dentry read again, as a number: a global function takes no kernel pointer) */
	if (pid != bpf_get_current_pid_tgid() >> 32 ||
	    lab_proc_own_refused((unsigned long)BPF_CORE_READ(file, f_path.dentry)))
		return LAB_SELF_DENY;
	return 0;
}

/* Would self-protection deny this request, for this policy? */
static __always_inline int self_denies(const struct lab_conf *conf, const struct lab_req *req)
{
	struct cgroup *cgroup = NULL;	/* LAB_SELF_CGROUP: the cgroup written to */
	__u8 self = req->self;

	if (self == LAB_SELF_OPEN && req->file)	/* worked out once a policy wants it */
		self = self_at_open(req->file, &cgroup);
	switch (self) {
	case LAB_SELF_DENY:
		return 1;
	case LAB_SELF_MOVE:
		/*
		 * Moving a task into a cgroup of the subtree, where the guard
		 * judges each move by where the task comes from and goes
		 * (cgroup_attach, the lab's series): a pid written here may be
		 * a task outside, pulled in to be killed or robbed of its
		 * files. Without that hook the kernel tells the two apart only
		 * by inode_permission() on the common ancestor, a hook every
		 * path lookup calls: refused, even inside.
		 */
		if (!(conf->flags & LAB_SELF_MOVES))
			return 1;
		/* fall through */
	case LAB_SELF_CGROUP:
		return !cgroup_inside(conf, cgroup);
	case LAB_SELF_LIMIT:
		/* below the policy's cgroup only: its own limits are its parent's */
		return !cgroup_inside(conf, cgroup) ||
		       BPF_CORE_READ(cgroup, level) <= (int)conf->cgroup_level;
	}
	return 0;
}

#endif /* LSMLAB_SELF_BPF_H */
