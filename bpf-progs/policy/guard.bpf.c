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
#include "kdefs.bpf.h"
#include "mount_api.bpf.h"
#include "subtree.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * The guard's maps: lsmctl pins them by their names in the folder it
 * opens the object with (as maps.bpf.h's). The cgroups whose policy has
 * self-protection, by cgroup id:
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_POLICIES);
	__type(key, __u64);
	__type(value, struct lab_guard);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} guarded SEC(".maps");

/* Their levels, and a filter of their ids a level: struct lab_guard_levels. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lab_guard_levels);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} guard_levels SEC(".maps");

/* The guard's events the ring had no room for: lsmctl stats and events say so. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} lost SEC(".maps");

/* The program guard_<hook> on LSM hook <hook>, one of LAB_GUARD_HOOKS. */
#define GUARD_PROG(hook, args...)					\
	_Static_assert(LAB_GUARD_##hook < LAB_NR_GUARD_HOOKS, #hook " is a guard hook"); \
	SEC("lsm/" #hook) int BPF_PROG(guard_##hook, ##args)

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
GUARD_PROG(bpf, int cmd, union bpf_attr *attr, unsigned int size)
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
GUARD_PROG(task_alloc, struct task_struct *task, unsigned long clone_flags)
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

GUARD_PROG(inode_mkdir, struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return guard_cgroup_dir(LAB_GUARD_inode_mkdir, dir, dentry);
}

GUARD_PROG(inode_symlink, struct inode *dir, struct dentry *dentry, const char *name)
{
	return guard_bpffs(LAB_GUARD_inode_symlink, dentry);
}

GUARD_PROG(inode_link, struct dentry *old_dentry, struct inode *dir,
	     struct dentry *new_dentry)
{
	return guard_bpffs(LAB_GUARD_inode_link, new_dentry);
}

GUARD_PROG(inode_unlink, struct inode *dir, struct dentry *dentry)
{
	return guard_bpffs(LAB_GUARD_inode_unlink, dentry);
}

/*
 * Nor is a cgroup inside it whose own policy has self-protection: made
 * again at the same path, it would be a new cgroup without the policy.
 */
GUARD_PROG(inode_rmdir, struct inode *dir, struct dentry *dentry)
{
	struct kernfs_node *kn;
	__u64 id;

	if (dir->i_sb->s_magic == CGROUP2_SUPER_MAGIC) {
		kn = BPF_CORE_READ(dentry, d_inode, i_private);
		id = BPF_CORE_READ(kn, id);
		if (bpf_map_lookup_elem(&guarded, &id))
			return guard_deny(LAB_GUARD_inode_rmdir, 0, dentry);
	}
	return guard_cgroup_dir(LAB_GUARD_inode_rmdir, dir, dentry);
}

/* (a rename stays on one filesystem: the old name tells) */
GUARD_PROG(inode_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry)
{
	return guard_bpffs(LAB_GUARD_inode_rename, old_dentry);
}

/*
 * Modes and owners on bpffs and cgroup2 stay as they are: a guarded
 * root could otherwise hand its policy's pins, or a cgroup.procs, to a
 * user outside, whom nothing guards (ATTR_MODE, ATTR_UID, ATTR_GID).
 */
#define LAB_ATTR_MODE_OWNER	(1 << 0 | 1 << 1 | 1 << 2)

GUARD_PROG(inode_setattr, struct dentry *dentry, struct iattr *attr)
{
	unsigned long magic = dentry->d_sb->s_magic;
	unsigned int valid = attr->ia_valid & LAB_ATTR_MODE_OWNER;

	if (!valid || (magic != BPF_FS_MAGIC && magic != CGROUP2_SUPER_MAGIC))
		return 0;
	return guard_deny(LAB_GUARD_inode_setattr, valid, dentry);
}

GUARD_PROG(file_lock, struct file *file, unsigned int cmd)
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

/*
 * Whether @file's SIGIO owner is the caller or nobody. An owner is set
 * inside only with the caller's own pid (above), so another owner came
 * from outside with the file (SCM_RIGHTS, inheritance): turning O_ASYNC
 * on for it, or choosing its signal (F_SETSIG takes any, SIGKILL too),
 * would signal that owner, whom task_kill never asks about.
 */
static __always_inline int owner_is_caller(struct file *file)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct pid *owner = BPF_CORE_READ(file, f_owner.pid);
	enum pid_type type;
	int nr;

	if (!owner)
		return 1;
	type = BPF_CORE_READ(file, f_owner.pid_type);
	nr = BPF_CORE_READ(owner, numbers[0].nr);
	if (type == PIDTYPE_TGID)
		return nr == (int)(pid_tgid >> 32);
	if (type == PIDTYPE_PID)
		return nr == (int)pid_tgid;
	return 0;	/* a process group: some of it may be outside */
}

GUARD_PROG(file_fcntl, struct file *file, unsigned int cmd, unsigned long arg)
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
	case F_SETSIG:
		if (!owner_is_caller(file))
			return guard_deny(LAB_GUARD_file_fcntl, cmd, NULL);
		break;
	case F_SETFL:
		if ((arg & O_ASYNC) && (is_chardev(file) || !owner_is_caller(file)))
			return guard_deny(LAB_GUARD_file_fcntl, cmd, NULL);
	}
	return 0;
}

/*
 * A descriptor received (SCM_RIGHTS, pidfd_getfd, seccomp's addfd) is
 * checked by nothing else here; an io_uring ring is refused: its
 * requests run in the SQPOLL thread and io-wq workers of the task that
 * made it, which may be outside every policy, so a ring made outside
 * would open and connect for the guarded task unchecked. (Other files
 * received stay a limit: docs/threat-model.md.)
 */
GUARD_PROG(file_receive, struct file *file)
{
	static const char ring[] = "[io_uring]";
	struct qstr name = BPF_CORE_READ(file, f_path.dentry, d_name);
	char buf[sizeof(ring)];

	if (name.len != sizeof(ring) - 1 || bpf_probe_read_kernel(buf, sizeof(buf), name.name))
		return 0;
	for (int i = 0; i < sizeof(ring); i++)
		if (buf[i] != ring[i])
			return 0;
	return guard_deny(LAB_GUARD_file_receive, 0, file->f_path.dentry);
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

GUARD_PROG(file_ioctl, struct file *file, unsigned int cmd, unsigned long arg)
{
	return guard_ioctl(LAB_GUARD_file_ioctl, file, cmd, arg);
}

GUARD_PROG(file_ioctl_compat, struct file *file, unsigned int cmd, unsigned long arg)
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
GUARD_PROG(ptrace_access_check, struct task_struct *child, unsigned int mode)
{
	struct guard_req req = {
		.hook = LAB_GUARD_ptrace_access_check, .ask = GUARD_TARGET, .number = mode,
		.target = child, .quiet = !!(mode & PTRACE_MODE_NOAUDIT),
	};

	return guard(&req);
}

GUARD_PROG(task_kill, struct task_struct *p, struct kernel_siginfo *info, int sig,
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
GUARD_PROG(perf_event_open, struct perf_event_attr *attr, int type)
{
	return guard_deny(LAB_GUARD_perf_event_open, type, NULL);
}

/*
 * The kernel: module and kexec images, and module requests, whose
 * modprobe the kernel runs as root in the root cgroup.
 */
GUARD_PROG(kernel_load_data, enum kernel_load_data_id id, bool contents)
{
	if (id != LOADING_MODULE && id != LOADING_KEXEC_IMAGE && id != LOADING_KEXEC_INITRAMFS)
		return 0;
	return guard_deny(LAB_GUARD_kernel_load_data, id, NULL);
}

GUARD_PROG(kernel_read_file, struct file *file, enum kernel_read_file_id id,
	     bool contents)
{
	if (id != READING_MODULE && id != READING_KEXEC_IMAGE && id != READING_KEXEC_INITRAMFS)
		return 0;
	return guard_deny(LAB_GUARD_kernel_read_file, id, NULL);
}

GUARD_PROG(kernel_module_request, char *kmod_name)
{
	return guard_deny(LAB_GUARD_kernel_module_request, 0, NULL);
}

/*
 * Mounts: one over /sys/fs/bpf or /sys/fs/cgroup hides the policy from
 * lsmctl, one over a program the kernel runs (modprobe) runs the
 * task's, and an unmount of the BPF filesystem drops every pin.
 */
GUARD_PROG(sb_mount, const char *dev_name, const struct path *path, const char *type,
	     unsigned long flags, void *data)
{
	return guard_deny(LAB_GUARD_sb_mount, flags, path->dentry);
}

GUARD_PROG(sb_umount, struct vfsmount *mnt, int flags)
{
	return guard_deny(LAB_GUARD_sb_umount, flags, mnt->mnt_root);
}

/* pivot_root: a new root for every task whose root was the old one */
GUARD_PROG(sb_pivotroot, const struct path *old_path, const struct path *new_path)
{
	return guard_deny(LAB_GUARD_sb_pivotroot, 0, new_path->dentry);
}

GUARD_PROG(move_mount, const struct path *from_path, const struct path *to_path)
{
	return guard_deny(LAB_GUARD_move_mount, 0, to_path->dentry);
}

/*
 * The new mount API (mount_api.bpf.h; mount_setattr could make
 * /sys/fs/bpf read-only under lsmctl), and capabilities of the machine.
 */
GUARD_PROG(capable, const struct cred *cred, struct user_namespace *ns, int cap,
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
GUARD_PROG(locked_down, enum lockdown_reason what)
{
	if (what == LOCKDOWN_NONE)
		return 0;
	return guard_deny(LAB_GUARD_locked_down, what, NULL);
}

/* Another task's limits: RLIMIT_CPU of 0 kills it, RLIMIT_NOFILE cripples it. */
GUARD_PROG(task_prlimit, const struct cred *cred, const struct cred *tcred,
	     unsigned int flags)
{
	if (!(flags & LSM_PRLIMIT_WRITE))
		return 0;
	return guard_deny(LAB_GUARD_task_prlimit, flags, NULL);
}

/* fanotify permission events: an answer, or none, for every task's opens. */
GUARD_PROG(path_notify, const struct path *path, u64 mask, unsigned int obj_type)
{
	if (!(mask & FS_PERM_EVENTS))
		return 0;
	return guard_deny(LAB_GUARD_path_notify, (__u32)mask, path->dentry);
}
