// SPDX-License-Identifier: GPL-2.0
/*
 * Self-protection's guard: one instance for the machine, whatever the
 * backend of the policies it guards. Its lsm/ programs sit on the hooks
 * through which root in a confined cgroup could undo its policy (bpf(),
 * the pins, mounts, module loads) or act on tasks outside its subtree
 * (ptrace, signals, SIGIO owners, perf, a terminal's input queue).
 *
 * lsmctl keeps the guarded map to the cgroups whose policy has
 * self-protection on, and loads the guard only while there is one. Most
 * of these hooks are rare; the ones that are not (unlink, rename,
 * fcntl, ioctl, fork, capable) leave at the first test of their
 * arguments for everyone but the case they guard against, and ptrace
 * checks and signals, which ask about a target, walk the caller's
 * cgroup levels only up to the deepest guarded one. The one
 * self-protection check left in the policies' own programs is at
 * file_open, which every task calls.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "engine.h"
#include "event.bpf.h"
#include "mount_api.bpf.h"
#include "subtree.bpf.h"

#define EPERM			1
#define BPF_FS_MAGIC		0xcafe4a11
#define CLONE_INTO_CGROUP	0x200000000ULL
#define BPF_F_RDONLY		(1U << 3)
#define F_SETFL			4
#define F_SETOWN		8
#define F_SETOWN_EX		15
#define F_SETLEASE		1024
#define O_ASYNC			020000
#define TIOCSTI			0x5412
#define TIOCLINUX		0x541C
#define FIOASYNC		0x5452
#define FIOSETOWN		0x8901
#define SIOCSPGRP		0x8902
#define S_IFMT			00170000
#define S_IFCHR			0020000
#define CAP_SYS_MODULE		16
#define CAP_SYS_RAWIO		17
#define CAP_SYS_ADMIN		21
#define CAP_SYS_BOOT		22
#define CAP_SYS_TTY_CONFIG	26
#define LSM_PRLIMIT_WRITE	2
#define FS_PERM_EVENTS		0x00070000	/* FS_OPEN_PERM, FS_ACCESS_PERM, FS_OPEN_EXEC_PERM */
#define PTRACE_MODE_NOAUDIT	0x04
#define TIOCSCTTY		0x540E
#define TIOCCONS		0x541D
#define TIOCVHANGUP		0x5437
#define CGROUP2_SUPER_MAGIC	0x63677270

char LICENSE[] SEC("license") = "GPL";

/* The cgroups whose policy has self-protection, by cgroup id. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_POLICIES);
	__type(key, __u64);
	__type(value, struct lab_guard);
} guarded SEC(".maps");

/* Their levels, and a filter of their ids a level: struct lab_guard_levels. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lab_guard_levels);
} guard_levels SEC(".maps");

/* The guard's events the ring had no room for: lsmctl stats and events say so. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/* lsmctl's events ring, shared with the policies' programs. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LAB_EVENTS_SIZE);
} events SEC(".maps");

/* What a hook asks: refused outright to a guarded task, or for a target. */
enum guard_ask {
	GUARD_DENY,		/* anything inside a guarded subtree */
	GUARD_TARGET,		/* a task outside the subtree */
	GUARD_SIGNAL,		/* a signal outside, unless signal: allow */
	GUARD_CGROUP,		/* a cgroup outside the subtree */
};

struct guard_req {
	__u16 hook;		/* enum lab_guard_hook */
	__u8 ask;		/* enum guard_ask */
	__u8 quiet;		/* no event: the caller asked for none (NOAUDIT) */
	__u32 number;		/* a command, signal or mode, for the event */
	struct task_struct *target;
	struct cgroup *cgroup;	/* GUARD_CGROUP */
	struct dentry *dentry;
};

static __always_inline void guard_report(const struct lab_guard *g, const struct guard_req *req)
{
	struct lab_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	__u32 zero = 0;
	__u64 *n;

	if (!e) {
		n = bpf_map_lookup_elem(&lost, &zero);
		if (n)
			*n += 1;	/* per-CPU, and LSM programs run with migration off */
		return;
	}
	/* guard_req is ours, not the kernel's: no CO-RE read of its fields */
	event_fill(e, g->cgroup_id, g->flags, LAB_GUARD_HOOK_BASE + req->hook, LAB_RULE_SELF,
		   LAB_SELF, req->number, req->target, req->dentry);
	bpf_ringbuf_submit(e, 0);
}

static __always_inline int guard_denies(const struct lab_guard *g, const struct guard_req *req)
{
	struct task_struct *target;
	struct cgroup *cgroup;

	switch (req->ask) {
	case GUARD_DENY:
		return 1;
	case GUARD_SIGNAL:
		if (g->flags & LAB_GUARD_SIGNAL)
			return 0;
		/* fall through */
	case GUARD_TARGET:
		target = req->target;
		return !task_below(g->cgroup_id, g->level, target);
	case GUARD_CGROUP:
		cgroup = req->cgroup;
		return !cgroup_below(g->cgroup_id, g->level, cgroup);
	}
	return 1;
}

struct guard_ctx {
	const struct guard_req *req;
	const struct lab_guard_levels *levels;
	__u32 mask;
	int deny;
};

/* Level @level of the current task's cgroup: a guarded cgroup? */
static long guard_step(__u32 level, void *data)
{
	struct guard_ctx *c = data;
	__u64 id = ancestor_on(c->mask, c->levels->filter, level);
	struct lab_guard *g;

	if (id == LAB_WALK_STOP)
		return 1;
	if (!id)
		return 0;
	g = bpf_map_lookup_elem(&guarded, &id);
	if (!g || !guard_denies(g, c->req))
		return 0;
	if (!c->req->quiet)
		guard_report(g, c->req);
	if (!(g->flags & LAB_AUDIT))
		c->deny = 1;
	return 0;
}

/* -EPERM when a policy guarding the current task refuses @req, else 0. */
static __always_inline int guard(const struct guard_req *req)
{
	struct guard_ctx c = { .req = req };
	__u32 zero = 0;

	c.levels = bpf_map_lookup_elem(&guard_levels, &zero);
	if (!c.levels)
		return 0;
	/* one read: lsmctl sets bits before it adds a cgroup, clears them after */
	c.mask = *(volatile __u32 *)&c.levels->mask;
	if (!c.mask)
		return 0;
	bpf_loop(fls32(c.mask), guard_step, &c, 0);
	return c.deny ? -EPERM : 0;
}

static __always_inline int guard_deny(__u16 hook, __u32 number, struct dentry *dentry)
{
	struct guard_req req = {
		.hook = hook, .ask = GUARD_DENY, .number = number, .dentry = dentry,
	};

	return guard(&req);
}

/*
 * bpf(): a guarded task may look (lsmctl list, show, stats) but not
 * load, attach, detach, pin or update anything, and it gets objects
 * read-only: a writable events ring would let it move the consumer
 * position and mute every policy's events.
 */
SEC("lsm/bpf")
int BPF_PROG(guard_bpf, int cmd, union bpf_attr *attr, unsigned int size)
{
	switch (cmd) {
	case BPF_OBJ_GET:
		if (attr->file_flags == BPF_F_RDONLY)
			return 0;
		break;
	case BPF_MAP_GET_FD_BY_ID:
		if (attr->open_flags == BPF_F_RDONLY)
			return 0;
		break;
	case BPF_MAP_LOOKUP_ELEM:
	case BPF_MAP_GET_NEXT_KEY:
	case BPF_MAP_LOOKUP_BATCH:
	case BPF_PROG_GET_NEXT_ID:
	case BPF_MAP_GET_NEXT_ID:
	case BPF_BTF_GET_NEXT_ID:
	case BPF_LINK_GET_NEXT_ID:
	case BPF_PROG_GET_FD_BY_ID:
	case BPF_BTF_GET_FD_BY_ID:
	case BPF_LINK_GET_FD_BY_ID:
	case BPF_OBJ_GET_INFO_BY_FD:
	case BPF_PROG_QUERY:
	case BPF_TASK_FD_QUERY:
		return 0;
	}
	return guard_deny(LAB_GUARD_bpf, cmd, NULL);
}

/* clone3(CLONE_INTO_CGROUP) starts a task in a cgroup of the caller's choosing. */
SEC("lsm/task_alloc")
int BPF_PROG(guard_task_alloc, struct task_struct *task, unsigned long clone_flags)
{
	if (!(clone_flags & CLONE_INTO_CGROUP))
		return 0;
	return guard_deny(LAB_GUARD_task_alloc, 0, NULL);
}

/*
 * The pins: nothing in a BPF filesystem may be made, linked, removed
 * or renamed (a planted name in lsmctl's folder is as bad as a removed
 * pin), nor locked (lsmctl locks its folder).
 */
static __always_inline int guard_bpffs(__u16 hook, struct dentry *dentry)
{
	if (dentry->d_sb->s_magic != BPF_FS_MAGIC)
		return 0;
	return guard_deny(hook, 0, dentry);
}

/*
 * A cgroup outside the subtree is not the task's to make or remove: an
 * empty one may carry a policy its tasks are not in yet.
 */
static __always_inline int guard_cgroup_dir(__u16 hook, struct inode *dir, struct dentry *dentry)
{
	struct kernfs_node *kn;
	struct guard_req req = { .hook = hook, .ask = GUARD_CGROUP, .dentry = dentry };

	if (dir->i_sb->s_magic != CGROUP2_SUPER_MAGIC)
		return guard_bpffs(hook, dentry);
	kn = dir->i_private;	/* the folder's kernfs node, whose priv is its cgroup */
	req.cgroup = BPF_CORE_READ(kn, priv);
	return guard(&req);
}

SEC("lsm/inode_mkdir")
int BPF_PROG(guard_inode_mkdir, struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return guard_cgroup_dir(LAB_GUARD_inode_mkdir, dir, dentry);
}

SEC("lsm/inode_symlink")
int BPF_PROG(guard_inode_symlink, struct inode *dir, struct dentry *dentry, const char *name)
{
	return guard_bpffs(LAB_GUARD_inode_symlink, dentry);
}

SEC("lsm/inode_link")
int BPF_PROG(guard_inode_link, struct dentry *old_dentry, struct inode *dir,
	     struct dentry *new_dentry)
{
	return guard_bpffs(LAB_GUARD_inode_link, new_dentry);
}

SEC("lsm/inode_unlink")
int BPF_PROG(guard_inode_unlink, struct inode *dir, struct dentry *dentry)
{
	return guard_bpffs(LAB_GUARD_inode_unlink, dentry);
}

SEC("lsm/inode_rmdir")
int BPF_PROG(guard_inode_rmdir, struct inode *dir, struct dentry *dentry)
{
	return guard_cgroup_dir(LAB_GUARD_inode_rmdir, dir, dentry);
}

/* (a rename stays on one filesystem: the old name tells) */
SEC("lsm/inode_rename")
int BPF_PROG(guard_inode_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry)
{
	return guard_bpffs(LAB_GUARD_inode_rename, old_dentry);
}

SEC("lsm/file_lock")
int BPF_PROG(guard_file_lock, struct file *file, unsigned int cmd)
{
	return guard_bpffs(LAB_GUARD_file_lock, file->f_path.dentry);
}

/*
 * SIGIO and SIGURG go to a file's owner, with no task_kill check: a
 * guarded task may own its files (F_SETOWN with its pid), and name no
 * other task or group as their owner. The calls that read the owner
 * from the task's memory (F_SETOWN_EX, FIOSETOWN, SIOCSPGRP) are
 * refused: the kernel reads it again, after this check. A terminal's
 * owner is its foreground process group when O_ASYNC is turned on, so
 * O_ASYNC is refused on character devices.
 */
static __always_inline int guard_owner(__u16 hook, __u32 cmd, __s32 pid)
{
	if (!pid || pid == (__s32)(bpf_get_current_pid_tgid() >> 32))
		return 0;
	return guard_deny(hook, cmd, NULL);
}

static __always_inline int is_chardev(struct file *file)
{
	return (file->f_inode->i_mode & S_IFMT) == S_IFCHR;
}

SEC("lsm/file_fcntl")
int BPF_PROG(guard_file_fcntl, struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case F_SETOWN:
		/* an int to the kernel; a negative one names a process group */
		return guard_owner(LAB_GUARD_file_fcntl, cmd, (__s32)arg);
	case F_SETOWN_EX:
		/*
		 * The owner is read from the task's memory, here and again by
		 * the kernel: another thread could change it in between.
		 */
		return guard_deny(LAB_GUARD_file_fcntl, cmd, NULL);
	case F_SETLEASE:
		/* a lease holds every other task's open of the file for up to 45 s */
		return guard_deny(LAB_GUARD_file_fcntl, cmd, NULL);
	case F_SETFL:
		if ((arg & O_ASYNC) && is_chardev(file))
			return guard_deny(LAB_GUARD_file_fcntl, cmd, NULL);
	}
	return 0;
}

/*
 * ioctl: the owner (as fcntl), O_ASYNC, and a terminal's input queue:
 * TIOCSTI types into it, TIOCLINUX pastes the console's selection.
 */
static __always_inline int guard_ioctl(__u16 hook, struct file *file, unsigned int cmd,
				       unsigned long arg)
{
	switch (cmd) {
	case TIOCSTI:
	case TIOCLINUX:
	case TIOCVHANGUP:	/* SIGHUP to the terminal's session */
	case TIOCCONS:		/* the console's output */
		return guard_deny(hook, cmd, NULL);
	case TIOCSCTTY:
		/* 1: steal a terminal that is another session's (an int to the kernel) */
		if ((int)arg == 1)
			return guard_deny(hook, cmd, NULL);
		break;
	case FIOSETOWN:
	case SIOCSPGRP:
		/* the owner is in the task's memory: as F_SETOWN_EX, refused */
		return guard_deny(hook, cmd, NULL);
	case FIOASYNC:
		if (is_chardev(file))
			return guard_deny(hook, cmd, NULL);
	}
	return 0;
}

SEC("lsm/file_ioctl")
int BPF_PROG(guard_file_ioctl, struct file *file, unsigned int cmd, unsigned long arg)
{
	return guard_ioctl(LAB_GUARD_file_ioctl, file, cmd, arg);
}

SEC("lsm/file_ioctl_compat")
int BPF_PROG(guard_file_ioctl_compat, struct file *file, unsigned int cmd, unsigned long arg)
{
	return guard_ioctl(LAB_GUARD_file_ioctl_compat, file, cmd, arg);
}

/*
 * Tasks outside, in any mode: attaching (PTRACE_ATTACH, /proc/PID/mem,
 * pidfd_getfd, process_vm_*), and reading, which opens more than it
 * says: /proc/PID/fd/N and map_files reopen a task's pipes, memfds and
 * terminal for writing, /proc/PID/ns/ and pidfds enter its namespaces,
 * kcmp, process_madvise. (ps still works: /proc/PID/stat, status and
 * cmdline ask no ptrace check, or a NOAUDIT one that only hides some
 * fields, and is not reported.)
 */
SEC("lsm/ptrace_access_check")
int BPF_PROG(guard_ptrace_access_check, struct task_struct *child, unsigned int mode)
{
	struct guard_req req = {
		.hook = LAB_GUARD_ptrace_access_check, .ask = GUARD_TARGET, .number = mode,
		.target = child, .quiet = !!(mode & PTRACE_MODE_NOAUDIT),
	};

	return guard(&req);
}

SEC("lsm/task_kill")
int BPF_PROG(guard_task_kill, struct task_struct *p, struct kernel_siginfo *info, int sig,
	     const struct cred *cred)
{
	struct guard_req req = {
		.hook = LAB_GUARD_task_kill, .ask = GUARD_SIGNAL, .number = sig, .target = p,
	};

	if (!sig)
		return 0;	/* kill(pid, 0) only asks whether pid exists */
	return guard(&req);
}

/* perf: copies of other tasks' stacks and registers, or the whole CPU's. */
SEC("lsm/perf_event_open")
int BPF_PROG(guard_perf_event_open, struct perf_event_attr *attr, int type)
{
	return guard_deny(LAB_GUARD_perf_event_open, type, NULL);
}

/*
 * The kernel: module and kexec images, and module requests, whose
 * modprobe the kernel runs as root in the root cgroup.
 */
SEC("lsm/kernel_load_data")
int BPF_PROG(guard_kernel_load_data, enum kernel_load_data_id id, bool contents)
{
	if (id != LOADING_MODULE && id != LOADING_KEXEC_IMAGE && id != LOADING_KEXEC_INITRAMFS)
		return 0;
	return guard_deny(LAB_GUARD_kernel_load_data, id, NULL);
}

SEC("lsm/kernel_read_file")
int BPF_PROG(guard_kernel_read_file, struct file *file, enum kernel_read_file_id id,
	     bool contents)
{
	if (id != READING_MODULE && id != READING_KEXEC_IMAGE && id != READING_KEXEC_INITRAMFS)
		return 0;
	return guard_deny(LAB_GUARD_kernel_read_file, id, NULL);
}

SEC("lsm/kernel_module_request")
int BPF_PROG(guard_kernel_module_request, char *kmod_name)
{
	return guard_deny(LAB_GUARD_kernel_module_request, 0, NULL);
}

/*
 * Mounts: one over /sys/fs/bpf or /sys/fs/cgroup hides the policy from
 * lsmctl, one over a program the kernel runs (modprobe) runs the
 * task's, and an unmount of the BPF filesystem drops every pin.
 */
SEC("lsm/sb_mount")
int BPF_PROG(guard_sb_mount, const char *dev_name, const struct path *path, const char *type,
	     unsigned long flags, void *data)
{
	return guard_deny(LAB_GUARD_sb_mount, flags, path->dentry);
}

SEC("lsm/sb_umount")
int BPF_PROG(guard_sb_umount, struct vfsmount *mnt, int flags)
{
	return guard_deny(LAB_GUARD_sb_umount, flags, mnt->mnt_root);
}

/* pivot_root: a new root for every task whose root was the old one */
SEC("lsm/sb_pivotroot")
int BPF_PROG(guard_sb_pivotroot, const struct path *old_path, const struct path *new_path)
{
	return guard_deny(LAB_GUARD_sb_pivotroot, 0, new_path->dentry);
}

SEC("lsm/move_mount")
int BPF_PROG(guard_move_mount, const struct path *from_path, const struct path *to_path)
{
	return guard_deny(LAB_GUARD_move_mount, 0, to_path->dentry);
}

/*
 * The new mount API (mount_api.bpf.h; mount_setattr could make
 * /sys/fs/bpf read-only under lsmctl), and capabilities of the machine.
 */
SEC("lsm/capable")
int BPF_PROG(guard_capable, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int opts)
{
	long nr;

	/*
	 * The machine's: raw I/O (iopl, ioperm, MSRs), modules, reboot and
	 * kexec, a terminal's hangup (vhangup) and the console.
	 */
	if (cap == CAP_SYS_RAWIO || cap == CAP_SYS_MODULE || cap == CAP_SYS_BOOT ||
	    cap == CAP_SYS_TTY_CONFIG)
		return guard_deny(LAB_GUARD_capable, cap, NULL);
	if (cap != CAP_SYS_ADMIN)
		return 0;
	nr = current_syscall();
	/* and swap, where pages of tasks outside are written */
	if (!mount_api_syscall(nr) && nr != NR_SWAPON && nr != NR_SWAPOFF)
		return 0;
	return guard_deny(LAB_GUARD_capable, (__u32)nr, NULL);
}

/*
 * Whatever the kernel's lockdown would refuse, a guarded task is
 * refused: PCI config space and BARs, I/O ports, MSRs, ACPI tables,
 * hibernation images, kexec, debugfs, tracefs, kprobes, /dev/mem and
 * kcore, perf's kernel side: ways to write or read the kernel under
 * every policy.
 */
SEC("lsm/locked_down")
int BPF_PROG(guard_locked_down, enum lockdown_reason what)
{
	if (what == LOCKDOWN_NONE)
		return 0;
	return guard_deny(LAB_GUARD_locked_down, what, NULL);
}

/* Another task's limits: RLIMIT_CPU of 0 kills it, RLIMIT_NOFILE cripples it. */
SEC("lsm/task_prlimit")
int BPF_PROG(guard_task_prlimit, const struct cred *cred, const struct cred *tcred,
	     unsigned int flags)
{
	if (!(flags & LSM_PRLIMIT_WRITE))
		return 0;
	return guard_deny(LAB_GUARD_task_prlimit, flags, NULL);
}

/* fanotify permission events: an answer, or none, for every task's opens. */
SEC("lsm/path_notify")
int BPF_PROG(guard_path_notify, const struct path *path, u64 mask, unsigned int obj_type)
{
	if (!(mask & FS_PERM_EVENTS))
		return 0;
	return guard_deny(LAB_GUARD_path_notify, (__u32)mask, path->dentry);
}
