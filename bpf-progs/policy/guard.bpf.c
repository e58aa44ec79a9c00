// SPDX-License-Identifier: GPL-2.0
/*
 * Self-protection's guard: one instance for the machine, whatever the
 * backend of the policies it guards. Its lsm/ programs sit on the hooks
 * through which root in a confined cgroup could undo its policy (bpf(),
 * the pins, mounts, module loads) or act on tasks outside its subtree
 * (ptrace, signals, SIGIO owners, perf, terminals and devices).
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
#include "cmsg.bpf.h"
#include "kdefs.bpf.h"
#include "machine.bpf.h"
#include "mount_api.bpf.h"
#include "name_eq.bpf.h"
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

/* The guard's events not reported (event_begin()): lsmctl stats and events say so. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} lost SEC(".maps");

/*
 * The guarded paths that a policy follows (lsmctl apply --follow): the
 * path, as the global instance's follows map has it, to the guard's
 * template (its level, flags and follow number). lsmctl writes an entry
 * before the policy's own follows entry, and only while guard_levels has
 * the path's level in its mask and every bit of its filter word: the
 * new cgroup's bits are there before it is.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_POLICIES);
	__type(key, struct lab_follow_key);
	__type(value, struct lab_guard);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} guard_follows SEC(".maps");

/*
 * A cgroup was made at a guarded path that a policy follows: it is
 * guarded before any task can be in it. The same tracepoint as the
 * global instance's lab_follow_mkdir() (policy_global.bpf.c says why it
 * fires before kernfs_activate() makes the folder visible), in the guard
 * so that the entry lives and goes with the guard's maps. Attached while
 * the guard is loaded: one string read and one lookup a mkdir.
 */
SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(guard_follow_mkdir, struct cgroup *cgrp, const char *path)
{
	struct lab_follow_key key;
	struct lab_guard *tmpl, g;
	__u32 level;
	__u64 prev;
	long n;

	/* cgroup2's only, as lab_follow_mkdir() */
	if (cgrp->root->hierarchy_id)
		return 0;
	__builtin_memset(&key, 0, sizeof(key));
	n = bpf_probe_read_kernel_str(key.path, sizeof(key.path), path);
	if (n <= 0 || n >= (long)sizeof(key.path))
		return 0;	/* unread, or maybe cut short: lsmctl follows none that long */
	tmpl = bpf_map_lookup_elem(&guard_follows, &key);
	if (!tmpl)
		return 0;
	level = cgrp->level;
	if (level >= LAB_MAX_CGROUP_DEPTH || level != tmpl->level)
		return 0;
	g = *tmpl;
	g.cgroup_id = cgrp->kn->id;	/* the cgroup id: its kernfs node's */
	/* the path's cgroup before is gone, and its entry with it (lab_follow_mkdir()) */
	prev = tmpl->cgroup_id;
	if (prev && prev != g.cgroup_id)
		bpf_map_delete_elem(&guarded, &prev);
	tmpl->cgroup_id = g.cgroup_id;
	bpf_map_update_elem(&guarded, &g.cgroup_id, &g, BPF_ANY);
	return 0;
}

/* The program guard_<hook> on LSM hook <hook>, one of LAB_GUARD_HOOKS. */
#define GUARD_PROG(hook, args...)					\
	_Static_assert(LAB_GUARD_##hook < LAB_NR_GUARD_HOOKS, #hook " is a guard hook"); \
	SEC("lsm/" #hook) int BPF_PROG(guard_##hook, ##args)

/* SysV IPC objects of the initial IPC namespace made inside: ipc_note() */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_IPC_INSIDE);
	__type(key, __u64);	/* the object's struct kern_ipc_perm */
	__type(value, struct lab_ipc_inside);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} ipc_inside SEC(".maps");

/*
 * Regular files whose privilege a guarded task could have shaped:
 * their mode, owner or ACL changed, linked, moved, or mapped shared and
 * writable (touch()). A file with capabilities made outside
 * (security.capability, which 6.1's BPF cannot read) keeps them through
 * all of these; bprm_creds_from_file refuses an exec that would gain
 * privilege from one.
 */
struct lab_touched {
	__u64 ino;
	__u32 dev;
	__u32 gen;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_TOUCHED);
	__type(key, struct lab_touched);
	__type(value, struct lab_ipc_inside);	/* the guarded cgroups that touched it */
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} touched SEC(".maps");

static __always_inline int touch(struct inode *inode);

/* Generic netlink families whose state is a network namespace's own: genl_own_denies() */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAB_MAX_GENL_INSIDE);
	__type(key, __u16);	/* the family's id, as lsmctl found it by name */
	__type(value, __u8);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} genl_inside SEC(".maps");

/* What a hook asks: refused outright to a guarded task, or for a target. */
enum guard_ask {
	GUARD_DENY,		/* anything inside a guarded subtree */
	GUARD_TARGET,		/* a task outside the subtree */
	GUARD_SIGNAL,		/* a signal outside, unless signal: allow */
	GUARD_CGROUP,		/* a cgroup outside the subtree */
	GUARD_TTY,		/* an ioctl on a device, unless a pty the subtree owns */
	GUARD_MADE,		/* a SysV IPC object or mount namespace, unless made inside */
	GUARD_MOVE,		/* a task moved: from and to the subtree, out of no guarded cgroup */
};

struct guard_req {
	__u16 hook;		/* enum lab_guard_hook */
	__u8 ask;		/* enum guard_ask */
	__u8 quiet;		/* no event: the caller asked for none (NOAUDIT) */
	__u8 view;		/* GUARD_MADE: a new mount of proc, sysfs or cgroup2 */
	__u32 number;		/* a command, signal or mode, for the event; GUARD_MOVE: leaves_held() */
	struct task_struct *target;
	struct cgroup *cgroup;	/* GUARD_CGROUP; GUARD_MOVE: where the task goes */
	struct cgroup *src;	/* GUARD_MOVE: where it comes from */
	struct tty_struct *tty;	/* GUARD_TTY: the pty whose owners are judged, or NULL */
	const struct lab_ipc_inside *made;	/* GUARD_MADE: where it was made, or NULL */
	struct dentry *dentry;
};

/*
 * A pty the subtree owns: every task the kernel signals on the pty's
 * behalf is inside it, its session's leader (SIGHUP at a hangup) and
 * each process of its foreground group (SIGWINCH at TIOCSWINSZ, SIGINT,
 * SIGQUIT and SIGTSTP at ^C, ^\ and ^Z, SIGHUP and SIGCONT at
 * TIOCNOTTY). A pty with no session and no foreground group signals
 * no one: a pty just made by openpty(). A group of more than
 * LAB_TTY_GROUP_MAX processes is not owned.
 */
#define LAB_TTY_GROUP_MAX	16

static __always_inline struct task_struct *pid_first(struct pid *pid, enum pid_type type)
{
	struct hlist_node *node = BPF_CORE_READ(pid, tasks[type].first);

	if (!node)
		return NULL;
	return (void *)node - bpf_core_field_offset(struct task_struct, pid_links) -
	       type * sizeof(struct hlist_node);
}

static __always_inline int tty_owned(__u64 id, __u32 level, struct tty_struct *tty)
{
	struct pid *session = BPF_CORE_READ(tty, ctrl.session);
	struct pid *pgrp = BPF_CORE_READ(tty, ctrl.pgrp);
	struct task_struct *task;
	int i;

	if (session) {
		/* only the leader gets SIGHUP; a session whose leader left, none */
		task = pid_first(session, PIDTYPE_PID);
		if (task && !task_below(id, level, task))
			return 0;
	}
	if (!pgrp)
		return 1;
	task = pid_first(pgrp, PIDTYPE_PGID);
	for (i = 0; i < LAB_TTY_GROUP_MAX; i++) {
		if (!task)
			return 1;
		if (!task_below(id, level, task))
			return 0;
		task = (void *)BPF_CORE_READ(task, pid_links[PIDTYPE_PGID].next);
		if (task)
			task = (void *)task - bpf_core_field_offset(struct task_struct, pid_links) -
			       PIDTYPE_PGID * sizeof(struct hlist_node);
	}
	return 0;
}

static __always_inline void guard_report(const struct lab_guard *g, const struct guard_req *req)
{
	struct lab_event_draft *d = event_begin();
	__u32 zero = 0;
	__u64 *n;

	if (d) {
		/* guard_req is ours, not the kernel's: no CO-RE read of its fields */
		event_fill(d, g->cgroup_id, g->flags, LAB_GUARD_HOOK_BASE + req->hook,
			   LAB_RULE_SELF, LAB_SELF, req->number, req->target, req->dentry,
			   g->generation);
		if (!lab_event_commit(d))
			return;
	}
	n = bpf_map_lookup_elem(&lost, &zero);
	if (n)
		*n += 1;	/* per-CPU, and LSM programs run with migration off */
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
	case GUARD_TTY:
		return !req->tty || !tty_owned(g->cgroup_id, g->level, req->tty);
	case GUARD_MADE:
		if (!req->made || (req->view && (g->flags & LAB_RULES_ON_VIEWS)))
			return 1;
		for (int i = 0; i < LAB_IPC_GUARDS; i++)
			if (req->made->guards[i] == g->cgroup_id)
				return 0;
		return 1;
	case GUARD_MOVE:
		return !cgroup_below(g->cgroup_id, g->level, req->src) ||
		       !cgroup_below(g->cgroup_id, g->level, req->cgroup) || req->number;
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
 * Where an object is made: the guarded cgroups above the current task,
 * the outermost LAB_IPC_GUARDS of them (GUARD_MADE: a SysV IPC object,
 * a mount namespace, a file touched). made_inside() fills @c; c->n is 0
 * when no guarded policy is above the task.
 */
struct made_collect {
	const struct lab_guard_levels *levels;
	__u32 mask;
	__u32 n;
	struct lab_ipc_inside v;
};

static long made_collect_step(__u32 level, void *data)
{
	struct made_collect *c = data;
	__u64 id = ancestor_on(c->mask, c->levels->filter, level);

	if (id == LAB_WALK_STOP || c->n >= LAB_IPC_GUARDS)
		return 1;
	if (!id || !bpf_map_lookup_elem(&guarded, &id))
		return 0;
	c->v.guards[c->n & (LAB_IPC_GUARDS - 1)] = id;
	c->n++;
	return 0;
}

static __always_inline void made_inside(struct made_collect *c)
{
	__u32 zero = 0;

	c->levels = bpf_map_lookup_elem(&guard_levels, &zero);
	if (!c->levels)
		return;
	c->mask = *(volatile __u32 *)&c->levels->mask;
	if (c->mask)
		bpf_loop(fls32(c->mask), made_collect_step, c, 0);
}

/*
 * bpf(): a guarded task may look (lsmctl list, show, stats) but not
 * load, attach, detach, pin or update anything, and it gets objects
 * read-only.
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

/*
 * An fd to a map: none to the events maps (events_map()), which hold
 * every policy's events: the cgroups, tasks and files of subtrees other
 * than a guarded task's own. (Their pins, opened in a BPF filesystem,
 * are self_open()'s.)
 */
GUARD_PROG(bpf_map, struct bpf_map *map, fmode_t fmode)
{
	if (!events_map(map))
		return 0;
	return guard_deny(LAB_GUARD_bpf_map, 0, NULL);
}

/*
 * A mount namespace the machine's user namespace owns, copied from one
 * a user namespace below owns: the mounts a guarded task made there
 * would come along into a namespace where the engine's allows reach
 * across mounts (match_walk.bpf.h), and the machine's root could mount
 * in it. @flags: clone()'s or unshare()'s.
 */
static __always_inline int copies_up(unsigned long flags)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return (flags & CLONE_NEWNS) && !(flags & CLONE_NEWUSER) &&
	       !BPF_CORE_READ(task, cred, user_ns, level) &&
	       BPF_CORE_READ(task, nsproxy, mnt_ns, user_ns, level);
}

/*
 * clone3()'s two CAP_SYS_ADMIN checks told apart: copy_namespaces()'s,
 * for new namespaces, asked once, and alloc_pid()'s for each pid
 * set_tid names (CAP_SYS_ADMIN, then CAP_CHECKPOINT_RESTORE, of the
 * user namespace owning that level's pid namespace). task_alloc runs
 * before both and knows the flags the kernel acts on: it notes, on the
 * calling thread, that the next CAP_SYS_ADMIN asked of init_user_ns is
 * the namespaces' check. With CLONE_NEWUSER that check is asked of the
 * new user namespace, which is the task's own: nothing is noted.
 */
#define CLONE_NS_CHECKED	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | \
				 CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_NEWTIME)

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u32);
} clone_ns SEC(".maps");

/* Set by lsmctl before load: the kernel has cgroup_attach, and the guard is on it. */
const volatile bool moves_judged;

/*
 * clone3(CLONE_INTO_CGROUP) starts a task in a cgroup of the caller's
 * choosing: judged at cgroup_attach where the kernel has it, else
 * refused.
 */
GUARD_PROG(task_alloc, struct task_struct *task, unsigned long clone_flags)
{
	struct task_struct *cur;
	__u32 *pending;
	int ns;

	if ((clone_flags & CLONE_INTO_CGROUP) && !moves_judged)
		return guard_deny(LAB_GUARD_task_alloc, 0, NULL);
	if (copies_up(clone_flags))
		return guard_deny(LAB_GUARD_task_alloc, CLONE_NEWNS, NULL);
	ns = (clone_flags & CLONE_NS_CHECKED) && !(clone_flags & CLONE_NEWUSER);
	cur = bpf_get_current_task_btf();
	pending = bpf_task_storage_get(&clone_ns, cur, 0,
				       ns ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (pending)
		*pending = ns;
	return 0;
}

/* Is this CAP_SYS_ADMIN check clone3's for new namespaces (task_alloc)? */
static __always_inline int clone_ns_check(void)
{
	__u32 *pending = bpf_task_storage_get(&clone_ns, bpf_get_current_task_btf(), 0, 0);

	if (!pending || !*pending)
		return 0;
	*pending = 0;
	return 1;
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

/*
 * What a file lets users do is in its mode, owner and ACL, and a
 * guarded root owns every file root made, outside too: changed, they
 * hand a user outside, whom nothing guards, what the subtree reaches
 * or more. So they are an allow-list (attrs_movable()): a guarded task
 * changes them on regular files, directories and symlinks of the file
 * systems that hold data (fs_writable(): what its rules govern; not
 * devtmpfs, whose folders hold the machine's nodes and services'
 * sockets), and nowhere else: not on a device node (/dev/vda made 0666: the disk's
 * blocks, past every file rule, for every user), a socket or a FIFO
 * (a service's door: /run/docker.sock made 0666 is root for every
 * user), nor on the machine's knobs (sysfs, /proc/sys, bpffs and its
 * policy's pins, cgroup2's cgroup.procs). The machine's POSIX message
 * queues are refused whole: through a mount made outside (/dev/mqueue),
 * chmod() 0666 would hand a service's queue to every user.
 */
#define LAB_ATTR_MODE_OWNER	(1 << 0 | 1 << 1 | 1 << 2)	/* ATTR_MODE, ATTR_UID, ATTR_GID */
#define LAB_ATTR_MODE		(1 << 0)

static __always_inline int attrs_movable(struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	umode_t fmt = inode ? inode->i_mode & S_IFMT : 0;

	if (fmt != S_IFREG && fmt != S_IFDIR && fmt != S_IFLNK)
		return 0;
	return fs_writable(dentry->d_sb->s_magic) && !devtmpfs(dentry->d_sb);
}

GUARD_PROG(inode_mkdir, struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return guard_cgroup_dir(LAB_GUARD_inode_mkdir, dir, dentry);
}

GUARD_PROG(inode_symlink, struct inode *dir, struct dentry *dentry, const char *name)
{
	return guard_bpffs(LAB_GUARD_inode_symlink, dentry);
}

/*
 * A setuid or setgid file stays where it was made: a link or a move
 * takes it out of a folder that kept it from users outside.
 */
static __always_inline int privileged_file(struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;

	return inode && mode_privileged(inode->i_mode);
}

GUARD_PROG(inode_link, struct dentry *old_dentry, struct inode *dir,
	     struct dentry *new_dentry)
{
	if (privileged_file(old_dentry))
		return guard_deny(LAB_GUARD_inode_link, old_dentry->d_inode->i_mode, new_dentry);
	return guard_bpffs(LAB_GUARD_inode_link, new_dentry) ?:
	       touch(old_dentry->d_inode);
}

/*
 * POSIX message queues of the machine's IPC namespace are every
 * service's, as its SysV objects: a guarded task makes none (a name a
 * service would take, squatted) and removes none (mq_unlink()); opening
 * one is refused at file_open (self.bpf.h). In an IPC namespace of its
 * own (unshare -i) the queues are its own.
 */
GUARD_PROG(inode_create, struct inode *dir, struct dentry *dentry, umode_t mode)
{
	if (mqueue_of_machine(dir->i_sb))
		return guard_deny(LAB_GUARD_inode_create, 0, dentry);
	if (mode_privileged(mode))
		return guard_deny(LAB_GUARD_inode_create, mode, dentry);
	return 0;
}

/*
 * A device node is a way into a device: a guarded task makes none but
 * of the devices with nothing behind them (chardev_makeable()): no
 * block device, no terminal line, so that no node of its making, 0666
 * or a user's, hands the disk or a line to a user outside; and no file
 * made setuid or setgid (mode_privileged()).
 */
GUARD_PROG(inode_mknod, struct inode *dir, struct dentry *dentry, umode_t mode, dev_t dev)
{
	umode_t fmt = mode & S_IFMT;

	if (fmt == S_IFBLK || (fmt == S_IFCHR && !chardev_makeable(dev)) || mode_privileged(mode))
		return guard_deny(LAB_GUARD_inode_mknod, mode, dentry);
	return 0;
}

GUARD_PROG(inode_unlink, struct inode *dir, struct dentry *dentry)
{
	if (mqueue_of_machine(dir->i_sb))
		return guard_deny(LAB_GUARD_inode_unlink, 0, dentry);
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

/*
 * A cgroup a task moved out of it would shed something of: a guarded
 * one (its policy holds its tasks against a root above it too, as rmdir
 * of it is refused; one in audit mode holds nothing), or one with BPF
 * programs of its own (a nested policy of the cgroup backend, a device
 * or address filter the root outside put there). Moving into one only
 * tightens.
 */
struct held_walk {
	struct cgroup *src;
	struct cgroup *dst;
	__u32 progs_offset;	/* of struct cgroup's bpf.progs[], and their number */
	__u32 n_progs;
	__u32 held;		/* 1 when the move leaves a held cgroup */
};

#define LAB_MAX_ATTACH_TYPES	128	/* cgroup_bpf's attach types, lsm_cgroup's hooks among them */

static __always_inline int cgroup_has_progs(struct cgroup *cg, const struct held_walk *w)
{
	struct hlist_node *first;

	for (__u32 i = 0; i < LAB_MAX_ATTACH_TYPES; i++) {
		if (i >= w->n_progs)
			break;
		first = NULL;
		bpf_probe_read_kernel(&first, sizeof(first),
				      (void *)cg + w->progs_offset + i * sizeof(struct hlist_head));
		if (first)
			return 1;
	}
	return 0;
}

/* Level @level of @src's cgroups: held, and not above @dst? */
static long held_step(__u32 level, void *data)
{
	struct held_walk *w = data;
	struct cgroup *anc = cgroup_ancestor(w->src, level);
	struct lab_guard *h;
	__u64 id;

	if (!anc)
		return 1;
	id = BPF_CORE_READ(anc, kn, id);
	if (cgroup_below(id, level, w->dst))
		return 0;	/* at or above the common ancestor */
	h = bpf_map_lookup_elem(&guarded, &id);
	if ((h && !(h->flags & LAB_AUDIT)) || cgroup_has_progs(anc, w)) {
		w->held = 1;
		return 1;
	}
	return 0;
}

static __always_inline __u32 leaves_held(struct cgroup *src, struct cgroup *dst)
{
	struct held_walk w = {
		.src = src, .dst = dst,
		.progs_offset = bpf_core_field_offset(struct cgroup, bpf.progs),
		.n_progs = bpf_core_field_size(struct cgroup, bpf.progs) / sizeof(struct hlist_head),
	};

	bpf_loop(LAB_MAX_CGROUP_DEPTH, held_step, &w, 0);
	return w.held;
}

/*
 * A task moved between cgroups (cgroup.procs, cgroup.threads) or
 * started in one (clone3(CLONE_INTO_CGROUP), @src_cgrp the caller's),
 * after the kernel's own checks: only the lab's series has the hook
 * (LAB_GUARD_OPTIONAL). A guarded task moves its subtree's tasks within
 * it, and out of no held cgroup (leaves_held()): never a task outside in
 * (src outside), one inside out (dst outside), or itself out. A writer
 * the guard does not hold writes through a descriptor it opened itself:
 * one opened inside stays inside (file_receive).
 */
GUARD_PROG(cgroup_attach, struct cgroup *src_cgrp, struct cgroup *dst_cgrp)
{
	struct guard_req req = {
		.hook = LAB_GUARD_cgroup_attach, .ask = GUARD_MOVE,
		.cgroup = dst_cgrp, .src = src_cgrp,
	};

	req.number = leaves_held(src_cgrp, dst_cgrp);
	return guard(&req);
}

/* (a rename stays on one filesystem: the old name tells) */
GUARD_PROG(inode_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry)
{
	if (privileged_file(old_dentry))
		return guard_deny(LAB_GUARD_inode_rename, old_dentry->d_inode->i_mode, new_dentry);
	return guard_bpffs(LAB_GUARD_inode_rename, old_dentry) ?:
	       touch(old_dentry->d_inode);
}

GUARD_PROG(inode_setattr, struct dentry *dentry, struct iattr *attr)
{
	unsigned int valid = attr->ia_valid & LAB_ATTR_MODE_OWNER;
	umode_t mode;

	if (mqueue_of_machine(dentry->d_sb))
		return guard_deny(LAB_GUARD_inode_setattr, attr->ia_valid, dentry);
	if (!valid)
		return 0;
	if (!attrs_movable(dentry))
		return guard_deny(LAB_GUARD_inode_setattr, valid, dentry);
	/* the mode it is to have, of the file's own type */
	mode = (attr->ia_mode & ~S_IFMT) | (dentry->d_inode->i_mode & S_IFMT);
	if ((valid & LAB_ATTR_MODE) && mode_privileged(mode))
		return guard_deny(LAB_GUARD_inode_setattr, mode, dentry);
	return touch(dentry->d_inode);
}

/*
 * Extended attributes: security.* is the machine's (a file capability,
 * security.capability, makes whoever runs the file privileged; SELinux,
 * Smack and AppArmor labels, IMA and EVM values decide for every task),
 * never set or removed by a guarded task; an ACL (system.posix_acl_*)
 * is a mode, as movable as the mode is (attrs_movable()). The rest
 * (user.*, trusted.*) is the file's data.
 */
#define LAB_XATTR_PREFIX	32	/* read of a name: past the longest prefix asked, and a NUL */

static __always_inline int starts_with(const char *buf, const char *lit, int len)
{
#pragma unroll
	for (int i = 0; i < LAB_XATTR_PREFIX - 1; i++) {
		if (i == len)
			return 1;
		if (buf[i] != lit[i])
			return 0;
	}
	return 0;
}
#define STARTS_WITH(buf, lit)	starts_with(buf, lit, sizeof(lit) - 1)

static __always_inline int xattr_denies(__u16 hook, struct dentry *dentry, const char *name)
{
	char buf[LAB_XATTR_PREFIX] = {};

	if (bpf_probe_read_kernel_str(buf, sizeof(buf), name) < 0)
		return guard_deny(hook, 0, dentry);
	if (STARTS_WITH(buf, "security."))
		return guard_deny(hook, 0, dentry);
	if (!STARTS_WITH(buf, "system.posix_acl_"))
		return 0;
	/*
	 * An ACL is a mode, and more: a default one is inherited by what a
	 * service outside makes in the folder later (its socket, with the
	 * named user's entry), an access one sets a setgid file's group
	 * execute with no setattr. Neither on such files, no default one.
	 */
	if (!attrs_movable(dentry) || privileged_file(dentry) ||
	    STARTS_WITH(buf, "system.posix_acl_default"))
		return guard_deny(hook, 0, dentry);
	return touch(dentry->d_inode);
}

GUARD_PROG(inode_setxattr, struct user_namespace *mnt_userns, struct dentry *dentry,
	   const char *name, const void *value, size_t size, int flags)
{
	return xattr_denies(LAB_GUARD_inode_setxattr, dentry, name);
}

GUARD_PROG(inode_removexattr, struct user_namespace *mnt_userns, struct dentry *dentry,
	   const char *name)
{
	return xattr_denies(LAB_GUARD_inode_removexattr, dentry, name);
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
 * A cgroup's cgroup.procs or cgroup.threads, open for writing, in a
 * guarded subtree that @task is not in: the kernel moves tasks through
 * it with its opener's credentials, and cgroup_attach judges the
 * writer, so such a descriptor, opened inside and written outside, would
 * pull tasks from outside in. The innermost guarded cgroup it is in, in
 * @g; else 0.
 */
struct procs_walk {
	struct cgroup *cg;
	struct task_struct *task;
	struct lab_guard g;
	int found;
};

static long procs_step(__u32 level, void *data)
{
	struct procs_walk *w = data;
	struct cgroup *anc = cgroup_ancestor(w->cg, level);
	struct lab_guard *g;
	__u64 id;

	if (!anc)
		return 1;
	id = BPF_CORE_READ(anc, kn, id);
	g = bpf_map_lookup_elem(&guarded, &id);
	if (g && !(g->flags & LAB_AUDIT) && !task_below(id, level, w->task)) {
		w->g = *g;
		w->found = 1;
	}
	return 0;
}

static __always_inline int procs_held_outside(struct file *file, struct lab_guard *g)
{
	static const char procs[] = "cgroup.procs", threads[] = "cgroup.threads";
	struct dentry *d = file->f_path.dentry;
	struct procs_walk w = { .task = bpf_get_current_task_btf() };
	struct kernfs_node *kn;
	char name[sizeof(threads)] = {};
	int i;

	if (!(file->f_mode & FMODE_WRITE) || d->d_sb->s_magic != CGROUP2_SUPER_MAGIC)
		return 0;
	bpf_probe_read_kernel_str(name, sizeof(name), d->d_name.name);
	for (i = 0; i < (int)sizeof(procs); i++)	/* the NUL too */
		if (name[i] != procs[i])
			break;
	if (i < (int)sizeof(procs)) {
		for (i = 0; i < (int)sizeof(threads); i++)
			if (name[i] != threads[i])
				return 0;
	}
	kn = BPF_CORE_READ(d, d_parent, d_inode, i_private);	/* the folder's: its priv, the cgroup */
	w.cg = BPF_CORE_READ(kn, priv);
	if (!w.cg)
		return 0;
	bpf_loop(LAB_MAX_CGROUP_DEPTH, procs_step, &w, 0);
	if (w.found)
		*g = w.g;
	return w.found;
}

/*
 * A descriptor received (SCM_RIGHTS, pidfd_getfd, seccomp's addfd) is
 * checked by nothing else here, but for a guarded subtree's
 * cgroup.procs, which no task outside it receives (procs_held_outside();
 * the root outside opens its own); an io_uring ring is refused: its
 * requests run in the SQPOLL thread and io-wq workers of the task that
 * made it, which may be outside every policy, so a ring made outside
 * would open and connect for the guarded task unchecked. (Other files
 * received stay a limit: docs/threat-model.md.)
 */
/*
 * A detached mount (open_tree(OPEN_TREE_CLONE), fsmount()): the root of
 * an anonymous mount namespace, which mount(MS_MOVE) attaches in a
 * namespace of its own with no move_mount hook and whatever filesystem
 * it holds (overlayfs, FUSE, a fresh bpffs). Not a kernel-internal
 * mount's file (a pipe, a socket), nor one whose mount went.
 */
#define MNT_NS_INTERNAL		((void *)-22L)	/* fs/mount.h: ERR_PTR(-EINVAL) */

static __always_inline int detached_mount(struct file *file)
{
	struct mount *m = (void *)file->f_path.mnt - bpf_core_field_offset(struct mount, mnt);
	struct mnt_namespace *ns = BPF_CORE_READ(m, mnt_ns);

	return ns && (void *)ns != MNT_NS_INTERNAL && !BPF_CORE_READ(ns, seq);
}

GUARD_PROG(file_receive, struct file *file)
{
	static const char ring[] = "[io_uring]";
	struct qstr name = BPF_CORE_READ(file, f_path.dentry, d_name);
	struct guard_req req = {
		.hook = LAB_GUARD_file_receive, .ask = GUARD_DENY, .dentry = file->f_path.dentry,
	};
	char buf[sizeof(ring)];
	struct lab_guard g;

	if (procs_held_outside(file, &g)) {
		guard_report(&g, &req);
		return -EPERM;
	}
	if (detached_mount(file))
		return guard_deny(LAB_GUARD_file_receive, 1, file->f_path.dentry);
	if (name.len != sizeof(ring) - 1 || bpf_probe_read_kernel(buf, sizeof(buf), name.name))
		return 0;
	for (int i = 0; i < sizeof(ring); i++)
		if (buf[i] != ring[i])
			return 0;
	return guard_deny(LAB_GUARD_file_receive, 0, file->f_path.dentry);
}

/*
 * The machine's network namespace (init_net) is never the subtree's: a
 * guarded task may read its configuration, not change it. A DNAT rule
 * on OUTPUT, a route or an address moved onto a denied peer, would send
 * a connect the rules allowed on to where they deny: connect and bind
 * rules judge the address a task names, and what the namespace does
 * with it afterwards is the namespace's configuration. A namespace the
 * subtree makes for itself (unshare(CLONE_NEWNET)) stays its own.
 */
/*
 * init_net is told by its cookie, 1: the first of net_cookie's, taken by
 * setup_net(&init_net) in start_kernel() (net_ns_init()). Its symbol is
 * data, which kallsyms lists only with KALLSYMS_ALL, and BTF has no
 * variable for it.
 */
#define INIT_NET_COOKIE	1

static __always_inline int in_init_net(struct sock *sk)
{
	return sk && BPF_CORE_READ(sk, __sk_common.skc_net.net, net_cookie) == INIT_NET_COOKIE;
}

/* The queries of the socket ioctls' 0x89xx range: what `ip` and ifconfig read. */
static __always_inline int sockios_query(unsigned int cmd)
{
	switch (cmd) {
	case 0x8904:	/* SIOCGPGRP */
	case 0x8905:	/* SIOCATMARK */
	case 0x8906:	/* SIOCGSTAMP_OLD */
	case 0x8907:	/* SIOCGSTAMPNS_OLD */
	case 0x8910:	/* SIOCGIFNAME */
	case 0x8912:	/* SIOCGIFCONF */
	case 0x8913:	/* SIOCGIFFLAGS */
	case 0x8915:	/* SIOCGIFADDR */
	case 0x8917:	/* SIOCGIFDSTADDR */
	case 0x8919:	/* SIOCGIFBRDADDR */
	case 0x891b:	/* SIOCGIFNETMASK */
	case 0x891d:	/* SIOCGIFMETRIC */
	case 0x8921:	/* SIOCGIFMTU */
	case 0x8927:	/* SIOCGIFHWADDR */
	case 0x8933:	/* SIOCGIFINDEX */
	case 0x8935:	/* SIOCGIFPFLAGS */
	case 0x8938:	/* SIOCGIFCOUNT */
	case 0x8942:	/* SIOCGIFTXQLEN */
	case 0x894b:	/* SIOCOUTQNSD */
	case 0x8954:	/* SIOCGARP */
	case 0x8961:	/* SIOCGRARP */
	case 0x8970:	/* SIOCGIFMAP */
	case 0x89b1:	/* SIOCGHWTSTAMP */
		return 1;
	}
	return 0;
}

/*
 * ioctl on a character device: a guarded task's pass only when the
 * request is one of ioctl_harmless's, or the device is a pty the
 * subtree owns (tty_owned). Terminals signal their session and
 * foreground group from the kernel (SIGWINCH at TIOCSWINSZ, SIGINT at
 * a ^C that TCSETS's ISIG, a loopback or a typed line makes), which no
 * task_kill sees; serial lines reach hardware (TIOCM_LOOP feeds what
 * the port sends back to whoever reads it, a DCD drop hangs the line
 * up, a BREAK is SysRq on a console port); other devices do what their
 * driver does. Hardware terminals (consoles, serial ports) and every
 * other device get the allow-list only: their ioctls reach past any
 * session (keymaps, the line, the console).
 */
static __always_inline int ioctl_harmless(unsigned int cmd)
{
	switch (cmd) {
	case TCGETS:		/* termios, termios2, termio: queries */
	case TCGETS2:
	case TCGETA:
	case TIOCGWINSZ:	/* window size */
	case FIONREAD:		/* bytes to read, to write */
	case TIOCOUTQ:
	case TIOCGPGRP:		/* foreground group, session, line discipline */
	case TIOCGSID:
	case TIOCGETD:
	case TIOCMGET:		/* modem lines, serial settings, counters */
	case TIOCGSERIAL:
	case TIOCGICOUNT:
	case TIOCGSOFTCAR:
	case TIOCGLCKTRMIOS:	/* locked termios */
	case TIOCGPTN:		/* a pty master's number, lock, packet mode */
	case TIOCGPTLCK:
	case TIOCGPKT:
	case TIOCGDEV:		/* the console's device */
	case TIOCGEXCL:		/* exclusive mode? */
	case FIONBIO:		/* the file's own O_NONBLOCK and close-on-exec */
	case FIOCLEX:
	case FIONCLEX:
		return 1;
	}
	return 0;
}

/*
 * ioctl on a file, a directory or a block device: the terminal
 * queries above (isatty() asks TCGETS of every file), the file
 * system's queries, and the writes a write(2) through the same
 * descriptor could make: a clone or a dedupe into it, its attribute
 * flags, discard and zeroing of a device, each only when the
 * descriptor is open for writing (the kernel asks that of the clone
 * and the device's writes, not of FS_IOC_SETFLAGS: chattr +i needs
 * only the file's owner, and root is every file's). Everything else is
 * refused: FIFREEZE, FITRIM, EXT4_IOC_SHUTDOWN and their kin reach the
 * whole file system; BLKRRPART, BLKFLSBUF, BLKPG, LOOP_SET_FD and the
 * rest the device; encryption keys and fs-verity the machine; a file
 * system's private ioctls do what their driver does.
 */
static __always_inline int fs_ioctl_allowed(struct file *file, unsigned int cmd)
{
	if (ioctl_harmless(cmd))
		return 1;
	switch (cmd) {
	case FIBMAP:
	case FIGETBSZ:
	case FIOQSIZE:
	case FS_IOC_GETFLAGS:
	case FS_IOC32_GETFLAGS:
	case FS_IOC_GETVERSION:
	case FS_IOC32_GETVERSION:
	case FS_IOC_FIEMAP:
	case FS_IOC_FSGETXATTR:
	case FS_IOC_GETFSLABEL:
	case HDIO_GETGEO:
	case NS_GET_USERNS:	/* a namespace's owner, parent, type: lsns */
	case NS_GET_PARENT:
	case NS_GET_NSTYPE:
	case NS_GET_OWNER_UID:
	case BLKROGET:
	case BLKGETSIZE:
	case BLKRAGET:
	case BLKFRAGET:
	case BLKSECTGET:
	case BLKSSZGET:
	case BLKIOMIN:
	case BLKIOOPT:
	case BLKALIGNOFF:
	case BLKPBSZGET:
	case BLKDISCARDZEROES:
	case BLKROTATIONAL:
	case BLKBSZGET:
	case BLKBSZGET_32:
	case BLKGETSIZE64:
	case BLKGETSIZE64_32:
	case BLKGETDISKSEQ:
	case BLKGETZONESZ:
	case BLKGETNRZONES:
		return 1;
	case FS_IOC_SETFLAGS:
	case FS_IOC32_SETFLAGS:
	case FS_IOC_FSSETXATTR:
	case FICLONE:
	case FICLONERANGE:
	case FIDEDUPERANGE:
	case BLKDISCARD:
	case BLKSECDISCARD:
	case BLKZEROOUT:
		return !!(file->f_mode & FMODE_WRITE);
	}
	return 0;
}

static __always_inline int is_fs_object(struct file *file)
{
	unsigned int type = file->f_inode->i_mode & S_IFMT;

	return type == S_IFREG || type == S_IFDIR || type == S_IFBLK;
}

static __always_inline int is_socket(struct file *file)
{
	return (file->f_inode->i_mode & S_IFMT) == S_IFSOCK;
}

/*
 * ioctl on a socket of init_net, by allow-list: the queries above, the
 * terminal-style queries every file answers (FIONREAD is SIOCINQ,
 * TIOCOUTQ SIOCOUTQ), and the socket's own: its time stamps, its
 * namespace, O_ASYNC with itself as the owner. Everything else configures the machine: the 0x89xx range
 * (addresses, routes, ARP, bridges, tunnels, ethtool, the device- and
 * protocol-private ranges), wireless extensions (0x8bxx), Bluetooth's
 * HCI devices, and any protocol's ioctls 6.1 may add.
 */
static __always_inline int socket_ioctl_allowed(unsigned int cmd)
{
	switch (cmd) {
	case 0x80108906:	/* SIOCGSTAMP_NEW */
	case 0x80108907:	/* SIOCGSTAMPNS_NEW */
	case 0x894c:		/* SIOCGSKNS */
	case FIOASYNC:		/* its owner is the caller: guard_ioctl() */
		return 1;
	}
	return ioctl_harmless(cmd) || sockios_query(cmd);
}

static __always_inline int guard_sockios(__u16 hook, struct file *file, unsigned int cmd)
{
	struct socket *sock;

	if (!is_socket(file))
		return 0;
	sock = file->private_data;
	if (!in_init_net(BPF_CORE_READ(sock, sk)) || socket_ioctl_allowed(cmd))
		return 0;
	return guard_deny(hook, cmd, NULL);
}

/*
 * The pty a file is, judged from its slave side, or NULL: a pty master
 * or slave, /dev/ptmx, or /dev/tty when the controlling terminal is a
 * pty; by the device's major, then the tty's driver. For a pty master,
 * TIOCSWINSZ and the rest act on the slave (tty->link).
 */
static __always_inline struct tty_struct *file_pty(struct file *file)
{
	unsigned int rdev = file->f_inode->i_rdev;
	unsigned int major = rdev >> LAB_MINORBITS;
	struct tty_file_private *priv;
	struct tty_struct *tty;

	if (major == TTYAUX_MAJOR) {
		if (rdev != (TTYAUX_MAJOR << LAB_MINORBITS) &&
		    rdev != (TTYAUX_MAJOR << LAB_MINORBITS | 2))
			return NULL;
	} else if (major < UNIX98_PTY_MASTER_MAJOR || major >= UNIX98_PTY_SLAVE_MAJOR + 8) {
		return NULL;
	}
	priv = BPF_CORE_READ(file, private_data);
	tty = BPF_CORE_READ(priv, tty);
	if (!tty || BPF_CORE_READ(tty, driver, type) != TTY_DRIVER_TYPE_PTY)
		return NULL;
	if (BPF_CORE_READ(tty, driver, subtype) == PTY_TYPE_MASTER)
		tty = BPF_CORE_READ(tty, link);
	return tty;
}

/*
 * Always refused, owned pty or not: the owner (as fcntl), O_ASYNC, a
 * terminal's input queue (TIOCSTI types into it, TIOCLINUX pastes the
 * console's selection), TIOCVHANGUP, TIOCCONS (the console's output),
 * TIOCSCTTY 1 (steals a terminal from another session; 0 takes one that
 * has none, which signals no one).
 */
static __always_inline int guard_ioctl(__u16 hook, struct file *file, unsigned int cmd,
				       unsigned long arg)
{
	struct guard_req req = { .hook = hook, .ask = GUARD_TTY, .number = cmd };

	switch (cmd) {
	case FIOSETOWN:
	case SIOCSPGRP:
		/* the owner is in the task's memory: as F_SETOWN_EX, refused */
		return guard_deny(hook, cmd, NULL);
	case FIOASYNC:
		/* O_ASYNC by ioctl: as F_SETFL's, for an owner outside */
		if (!owner_is_caller(file))
			return guard_deny(hook, cmd, NULL);
	}
	if (is_fs_object(file))
		return fs_ioctl_allowed(file, cmd) ? 0 : guard_deny(hook, cmd, NULL);
	if (!is_chardev(file))
		return guard_sockios(hook, file, cmd);
	if (ioctl_harmless(cmd))
		return 0;
	switch (cmd) {
	case TIOCSTI:
	case TIOCLINUX:
	case TIOCVHANGUP:
	case TIOCCONS:
	case FIOASYNC:
	/*
	 * A line discipline on a terminal it owns: SLIP, slcan or HCI make
	 * a network device in init_net or a Bluetooth controller.
	 */
	case TIOCSETD:
		return guard_deny(hook, cmd, NULL);
	case TIOCSCTTY:
		/* an int to the kernel */
		if ((int)arg != 1)
			return 0;
		return guard_deny(hook, cmd, NULL);
	}
	req.tty = file_pty(file);
	return guard(&req);
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
 * Mounts. In the mount namespaces the machine's tasks share, none: one
 * over /sys/fs/bpf or /sys/fs/cgroup hides the policy from lsmctl, one
 * over a program the kernel runs (modprobe) runs the task's, and an
 * unmount of the BPF filesystem drops every pin.
 *
 * In a mount namespace of the subtree's own, what a container runtime
 * does: binds, moves, unmounts, pivot_root, propagation, per-mount
 * flags, and new filesystems of an allow-list whose every mount is a
 * new instance or judged by its inodes. Of its own (mntns_inside) is
 * one a task of every guarded subtree above the caller made, with a
 * user namespace of its own (the kernel then makes each shared mount
 * copied a slave, so nothing mounted there propagates out) or from one
 * of its own. So a mount there changes nothing a task outside sees,
 * but for one that joins the namespace. Refused there too: a remount of
 * a whole filesystem (its superblock is the machine's), and filesystems
 * that would show a file under an inode no rule names (overlayfs, FUSE,
 * a disk's: not on the list). A subtree rule's allow does not reach
 * across mounts in such a namespace (match_walk.bpf.h), so a mount under
 * an allowed folder allows nothing more.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, LAB_MAX_MNTNS_INSIDE);
	__type(key, __u64);	/* struct mnt_namespace's seq: never reused until reboot */
	__type(value, struct lab_ipc_inside);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} mntns_inside SEC(".maps");

static __always_inline struct mnt_namespace *current_mntns(void)
{
	return BPF_CORE_READ(bpf_get_current_task_btf(), nsproxy, mnt_ns);
}

/*
 * A mount namespace made by copy_mnt_ns() (clone() or unshare() with
 * CLONE_NEWNS): noted when a guarded task made it as above. No LSM hook
 * sees a namespace made: this is an fexit program, attached with the
 * guard where the kernel can trace copy_mnt_ns() (else nothing is of
 * its own and every mount stays refused).
 */
SEC("fexit/copy_mnt_ns")
int BPF_PROG(guard_mntns_made, unsigned long flags, struct mnt_namespace *ns,
	     struct user_namespace *user_ns, struct fs_struct *new_fs, struct mnt_namespace *ret)
{
	struct made_collect c = {};
	struct lab_ipc_inside *from;
	__u64 seq;
	int i, j;

	if (!(flags & CLONE_NEWNS) || (unsigned long)ret >= (unsigned long)-4095L || !ret ||
	    !BPF_CORE_READ(ret, user_ns, level))
		return 0;	/* (the machine's user namespace's: copies_up() refuses those) */
	made_inside(&c);
	if (!c.n)
		return 0;
	if (user_ns == ns->user_ns) {
		/* shared mounts stay shared: only from a namespace of every such guard's own */
		seq = ns->seq;
		from = bpf_map_lookup_elem(&mntns_inside, &seq);
		if (!from)
			return 0;
		for (i = 0; i < LAB_IPC_GUARDS; i++) {
			if (!c.v.guards[i])
				continue;
			for (j = 0; j < LAB_IPC_GUARDS; j++)
				if (from->guards[j] == c.v.guards[i])
					break;
			if (j == LAB_IPC_GUARDS)
				return 0;
		}
	}
	seq = ret->seq;
	bpf_map_update_elem(&mntns_inside, &seq, &c.v, BPF_ANY);
	return 0;
}

/*
 * -EPERM unless the current task's mount namespace is of its own, the
 * task is in a user namespace of its own, and @mnt (NULL: none to
 * check) is in that mount namespace. In the machine's user namespace a
 * task's capabilities reach the machine's superblocks (an unmount of
 * its own root remounts one read-only) and any filesystem type: there,
 * joined to a namespace of its own by setns(), it mounts nothing.
 */
static __always_inline int guard_mount(__u16 hook, __u32 number, struct vfsmount *mnt,
				       struct dentry *dentry, __u8 view)
{
	struct guard_req req = { .hook = hook, .ask = GUARD_MADE, .number = number,
				 .dentry = dentry, .view = view };
	struct task_struct *task = bpf_get_current_task_btf();
	struct mnt_namespace *ns = current_mntns();
	struct mount *m;
	__u64 seq;

	seq = BPF_CORE_READ(ns, seq);
	req.made = bpf_map_lookup_elem(&mntns_inside, &seq);
	if (!BPF_CORE_READ(task, cred, user_ns, level))
		req.made = NULL;
	if (mnt) {
		m = (void *)mnt - bpf_core_field_offset(struct mount, mnt);
		if (BPF_CORE_READ(m, mnt_ns) != ns)
			req.made = NULL;
	}
	return guard(&req);
}


/*
 * Filesystems a mount of which is a new instance, or shows inodes judged
 * as the machine's: FS_NEW. FS_VIEW: one that shows the machine's
 * objects under a device of its own, where files rules keyed on the
 * machine's mount do not reach (refused under a policy with such rules,
 * LAB_RULES_ON_VIEWS). FS_NONE: any other.
 */
enum { FS_NONE, FS_NEW, FS_VIEW };

static __always_inline int fs_mountable(const char *type)
{
	char name[16] = {};

	if (!type || bpf_probe_read_kernel_str(name, sizeof(name), type) < 0)
		return FS_NONE;
	if (name_eq(name, "tmpfs") || name_eq(name, "ramfs") || name_eq(name, "devpts") ||
	    name_eq(name, "mqueue"))
		return FS_NEW;
	if (name_eq(name, "proc") || name_eq(name, "sysfs"))
		return FS_VIEW;
	/* cgroup2's mount options are the whole hierarchy's but in a cgroup namespace */
	if (name_eq(name, "cgroup2") &&
	    BPF_CORE_READ(bpf_get_current_task_btf(), nsproxy, cgroup_ns, ns.inum) !=
	    PROC_CGROUP_INIT_INO)
		return FS_VIEW;
	return FS_NONE;
}

GUARD_PROG(sb_mount, const char *dev_name, const struct path *path, const char *type,
	   unsigned long flags, void *data)
{
	__u32 number = (__u32)flags;
	int fs = FS_NEW;

	/* path_mount()'s order: a remount of a whole filesystem, or a new one off the list */
	if (flags & MS_REMOUNT) {
		if (!(flags & MS_BIND))
			return guard_deny(LAB_GUARD_sb_mount, number, path->dentry);
	} else if (!(flags & (MS_BIND | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE |
			      MS_MOVE))) {
		fs = fs_mountable(type);
		if (fs == FS_NONE)
			return guard_deny(LAB_GUARD_sb_mount, number, path->dentry);
	}
	return guard_mount(LAB_GUARD_sb_mount, number, path->mnt, path->dentry, fs == FS_VIEW);
}

/* (a forced unmount aborts a network or FUSE filesystem's requests for everyone) */
GUARD_PROG(sb_umount, struct vfsmount *mnt, int flags)
{
	if (flags & MNT_FORCE)
		return guard_deny(LAB_GUARD_sb_umount, flags, mnt->mnt_root);
	return guard_mount(LAB_GUARD_sb_umount, flags, mnt, mnt->mnt_root, 0);
}

/*
 * A superblock reconfigured: every mount of it, the machine's included,
 * whatever path got here (a remount, fsconfig(), the unmount of a
 * task's own root, which remounts its filesystem read-only).
 */
GUARD_PROG(sb_remount, struct super_block *sb, void *mnt_opts)
{
	return guard_deny(LAB_GUARD_sb_remount, 0, sb->s_root);
}

/* pivot_root: a new root for every task whose root was the old one */
GUARD_PROG(sb_pivotroot, const struct path *old_path, const struct path *new_path)
{
	return guard_mount(LAB_GUARD_sb_pivotroot, 0, old_path->mnt, new_path->dentry, 0) ?:
	       guard_mount(LAB_GUARD_sb_pivotroot, 0, new_path->mnt, new_path->dentry, 0);
}

/* (open_tree(), whose detached trees move_mount() attaches, is refused at capable) */
GUARD_PROG(move_mount, const struct path *from_path, const struct path *to_path)
{
	return guard_mount(LAB_GUARD_move_mount, 0, from_path->mnt, to_path->dentry, 0) ?:
	       guard_mount(LAB_GUARD_move_mount, 0, to_path->mnt, to_path->dentry, 0);
}

/*
 * The new mount API (mount_api.bpf.h; mount_setattr could make
 * /sys/fs/bpf read-only under lsmctl), and capabilities of the machine.
 */
/*
 * Capabilities over the machine's namespaces, by allow-list: those whose
 * object is the task's own or is judged by a hook of its own here or
 * in the rules (files: the DAC and ownership ones, MKNOD, LEASE,
 * LINUX_IMMUTABLE, not FSETID: without it the kernel clears a setuid
 * or setgid bit when a guarded task writes the file, as for any user,
 * so that nothing it writes keeps a privilege made outside; tasks:
 * KILL, SYS_PTRACE; the network: NET_*; its
 * credentials: SETUID, SETGID, SETPCAP, SETFCAP; SYS_CHROOT, IPC_*,
 * AUDIT_WRITE (a record as itself)). Every other
 * one is the machine's: modules, raw I/O, reboot, the clock and alarms,
 * accounting, scheduling and resource reserves, the console and the
 * kernel's log, audit's settings and log, other LSMs' policies,
 * perf and BPF, suspend, CHECKPOINT_RESTORE (clone3's set_tid and
 * ns_last_pid pick a pid in the machine's pid namespace, PR_SET_MM
 * rewrites what /proc says the task runs, map_files), and any
 * capability 6.1 does not know. In a user namespace of its own (and
 * so in a pid namespace that namespace owns) it keeps them.
 */
#define CAPS_OF_ITS_OWN							\
	(BIT_ULL(CAP_CHOWN) | BIT_ULL(CAP_DAC_OVERRIDE) |		\
	 BIT_ULL(CAP_DAC_READ_SEARCH) | BIT_ULL(CAP_FOWNER) |		\
	 BIT_ULL(CAP_KILL) | BIT_ULL(CAP_SETGID) |			\
	 BIT_ULL(CAP_SETUID) | BIT_ULL(CAP_SETPCAP) |			\
	 BIT_ULL(CAP_LINUX_IMMUTABLE) | BIT_ULL(CAP_NET_BIND_SERVICE) |	\
	 BIT_ULL(CAP_NET_BROADCAST) | BIT_ULL(CAP_NET_ADMIN) |		\
	 BIT_ULL(CAP_NET_RAW) | BIT_ULL(CAP_IPC_LOCK) |			\
	 BIT_ULL(CAP_IPC_OWNER) | BIT_ULL(CAP_SYS_CHROOT) |		\
	 BIT_ULL(CAP_SYS_PTRACE) | BIT_ULL(CAP_MKNOD) | BIT_ULL(CAP_LEASE) |	\
	 BIT_ULL(CAP_AUDIT_WRITE) | BIT_ULL(CAP_SETFCAP))

/* The machine's in every user namespace: the kernel asks them of init_user_ns only. */
#define CAPS_OF_THE_MACHINE						\
	(BIT_ULL(CAP_SYS_MODULE) | BIT_ULL(CAP_SYS_RAWIO) | BIT_ULL(CAP_SYS_BOOT) |	\
	 BIT_ULL(CAP_SYS_TTY_CONFIG) | BIT_ULL(CAP_AUDIT_CONTROL))

/*
 * CAP_SYS_ADMIN, by the system call that asks it: namespaces of its
 * own (clone, unshare, setns: entering one outside asks ptrace's check
 * first), calls whose object a guard hook judges (ioctl, mount,
 * umount, move_mount, bpf, perf_event_open, fanotify, setsockopt, a
 * read or write of what was opened), an open under another's
 * credentials (below), its own process (prctl,
 * seccomp, ptrace's seccomp requests), and the host and domain names
 * of a UTS namespace of its own. Every other call is refused: fcntl
 * (F_SETPIPE_SZ past pipe-user-pages), swapon, quotactl, syslog,
 * madvise's MADV_HWPOISON, ioprio_set, SysV IPC objects of others,
 * keyrings, the new mount API (mount_api.bpf.h), sendmsg's
 * SCM_CREDENTIALS naming another process's pid, calls not known here,
 * and any call of an io_uring worker or of a task that used io_uring.
 */
#define PR_SET_MM	35

/* The current system call's first argument (an i386 call's in bx, current_syscall()). */
static __always_inline unsigned long current_arg0(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);

	if (task->thread_info.status & TS_COMPAT)
		return (__u32)BPF_CORE_READ(regs, bx);
	return BPF_CORE_READ(regs, di);
}

static __always_inline int sys_admin_allowed(long nr, const struct cred *cred)
{
	struct task_struct *task = bpf_get_current_task_btf();

	/*
	 * An io_uring worker's registers are its creator's, copied at
	 * whatever call made it: no call of its own to judge. And a task
	 * that has used io_uring runs requests itself as task_work, on the
	 * way out of any call (a SENDMSG linked after a poll runs when a
	 * write() returns): its call number says nothing either, for as
	 * long as it lives (task->io_uring stays until it exits).
	 */
	if ((task->flags & PF_IO_WORKER) ||
	    (bpf_core_field_exists(task->io_uring) && BPF_CORE_READ(task, io_uring)))
		return 0;
	switch (nr) {
	case NR_OPEN:
	case NR_OPENAT:
	case NR_OPENAT2:
		/*
		 * What an open asks for itself is a limit passed: the
		 * machine's file-max, a terminal's TIOCEXCL, a FIFO's share
		 * of pipe-user-pages. Not refused: a check under another's
		 * credentials (override_creds(): overlayfs' copy-up, as its
		 * mounter, writes trusted.* xattrs).
		 */
		task = bpf_get_current_task_btf();
		return cred != BPF_CORE_READ(task, real_cred);
	case NR_CLONE3:
		/* new namespaces, not set_tid's pids (clone_ns_check) */
		return clone_ns_check();
	case NR_PRCTL:
		/* seccomp filters without no_new_privs; not PR_SET_MM's exe and layout */
		return current_arg0() != PR_SET_MM;
	case NR_UNSHARE:
		return !copies_up(current_arg0());
	case NR_READ: case NR_WRITE: case NR_IOCTL: case NR_PREAD64:
	case NR_PWRITE64: case NR_READV: case NR_WRITEV:
	case NR_SETSOCKOPT: case NR_CLONE: case NR_FORK: case NR_VFORK:
	case NR_PTRACE: case NR_MOUNT: case NR_UMOUNT2:
	case NR_PERF_EVENT_OPEN: case NR_FANOTIFY_INIT:
	case NR_FANOTIFY_MARK: case NR_SETNS: case NR_SECCOMP:
	case NR_BPF: case NR_MOVE_MOUNT: case NR_PIVOT_ROOT:
		return 1;
	case NR_SETHOSTNAME:
	case NR_SETDOMAINNAME:
		return BPF_CORE_READ(task, nsproxy, uts_ns, ns.inum) != PROC_UTS_INIT_INO;
	}
	return 0;
}

/*
 * CAP_SYSLOG to read the kernel's log where dmesg_restrict=1 (dmesg):
 * syslog(2)'s SYSLOG_ACTION_READ_ALL (3) and SIZE_BUFFER (10), and the
 * open of /dev/kmsg, which the device allow-list passes for reading
 * only (and /proc/kmsg, whose reads consume the log, is refused at
 * open: self.bpf.h). Not: clearing it, the console's level, reading
 * /proc/kmsg, and the quiet checks that show kernel addresses
 * (kallsyms, %pK: CAP_OPT_NOAUDIT).
 */
static __always_inline int syslog_read(unsigned int opts)
{
	long nr;

	if (opts & CAP_OPT_NOAUDIT)
		return 0;
	nr = current_syscall();
	if (nr == NR_SYSLOG) {
		nr = current_arg0();
		return nr == 3 || nr == 10;
	}
	return nr == NR_OPEN || nr == NR_OPENAT || nr == NR_OPENAT2;
}

GUARD_PROG(capable, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int opts)
{
	struct guard_req req = { .hook = LAB_GUARD_capable, .ask = GUARD_DENY, .number = cap };
	long nr;

	if (cap == CAP_SYS_ADMIN) {
		nr = current_syscall();
		/*
		 * the new mount API and swap: in any user namespace
		 * (pivot_root: sb_pivotroot judges it)
		 */
		if ((mount_api_syscall(nr) && nr != NR_PIVOT_ROOT) || nr == NR_SWAPON ||
		    nr == NR_SWAPOFF) {
			req.number = (__u32)nr;
			return guard(&req);
		}
		/* a user namespace of its own: its objects are its own */
		if (BPF_CORE_READ(ns, level) || sys_admin_allowed(nr, cred))
			return 0;
		req.number = (__u32)nr;
	} else if ((unsigned int)cap < 64 && (CAPS_OF_ITS_OWN & BIT_ULL(cap))) {
		return 0;
	} else if (cap == CAP_SYSLOG && syslog_read(opts)) {
		return 0;
	} else if (BPF_CORE_READ(ns, level) && !((unsigned int)cap < 64 &&
						 (CAPS_OF_THE_MACHINE & BIT_ULL(cap)))) {
		/* the kernel asks these of init_user_ns: a lower one's are its own */
		return 0;
	}
	/* the kernel asking for itself, quietly (a reserve, a limit): refused, not reported */
	req.quiet = !!(opts & CAP_OPT_NOAUDIT);
	return guard(&req);
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

/*
 * fanotify permission events: an answer, or none, for every task's
 * opens. And a mark on a mount or a whole file system: the pid and a
 * descriptor of every file any task opens there, outside tasks' and a
 * container's mounts' included; a mark on a file or a directory it can
 * see says no more than looking at them.
 */
GUARD_PROG(path_notify, const struct path *path, u64 mask, unsigned int obj_type)
{
	if (!(mask & FS_PERM_EVENTS) && obj_type == FSNOTIFY_OBJ_TYPE_INODE)
		return 0;
	return guard_deny(LAB_GUARD_path_notify, (__u32)mask, path->dentry);
}

/*
 * The IP and IPv6 levels' options on a socket of init_net, by
 * allow-list: those that set the socket's own behaviour (its header
 * fields, what it receives with its data, its multicast memberships,
 * its binding). Refused by omission, each a piece of the machine's
 * configuration: netfilter's tables (iptables, ip6tables: 64, 65;
 * arptables 96, 97; ebtables 128, 129), IPVS (1152-1167), multicast
 * routing (MRT_* and MRT6_*: 200-211), IPsec policies (IP_IPSEC_POLICY
 * and IP_XFRM_POLICY 16, 17; IPv6's 34, 35), anycast addresses on an
 * interface (IPV6_JOIN_ANYCAST, _LEAVE_ANYCAST: 27, 28), the
 * namespace's flow label leases (IPV6_FLOWLABEL_MGR 32), router alert
 * listeners (IP_ROUTER_ALERT 5, IPV6_ROUTER_ALERT 22 and _ISOLATE 30:
 * other tasks' packets), source routes (IP_OPTIONS 4, IPV6_RTHDR 57,
 * IPV6_2292RTHDR 5, IPV6_2292PKTOPTIONS 6, which carries one, and
 * IPV6_NEXTHOP 9: a first hop that connect rules do not judge), and any
 * option 6.1 adds. Their GETs are
 * getsockopt()s, which pass.
 */
static __always_inline int ip_sockopt_allowed(int level, int optname)
{
	if (level == SOL_IP)
		/* TOS .. HDRINCL, RECVOPTS .. FREEBIND, PASSSEC .. RECVERR_RFC4884,
		 * MULTICAST_IF .. MULTICAST_ALL, UNICAST_IF */
		return (optname >= 1 && optname <= 3) || (optname >= 6 && optname <= 15) ||
		       (optname >= 18 && optname <= 26) || (optname >= 32 && optname <= 50);
	/* ADDRFORM .. 2292DSTOPTS, CHECKSUM, 2292HOPLIMIT, AUTHHDR, FLOWINFO,
	 * UNICAST_HOPS .. DROP_MEMBERSHIP, MTU_DISCOVER .. V6ONLY, MULTICAST_ALL,
	 * FLOWINFO_SEND, HDRINCL, MCAST_*, RECVPKTINFO .. RECVRTHDR,
	 * RECVDSTOPTS .. FREEBIND but 64 and 65, which do_ipv6_setsockopt()
	 * hands to netfilter: ip6tables' SET_REPLACE and SET_ADD_COUNTERS */
	return (optname >= 1 && optname <= 4) || optname == 7 || optname == 8 ||
	       optname == 10 || optname == 11 || (optname >= 16 && optname <= 21) ||
	       (optname >= 23 && optname <= 26) || optname == 29 || optname == 33 ||
	       optname == 36 || (optname >= 42 && optname <= 56) ||
	       (optname >= 58 && optname <= 63) || (optname >= 66 && optname <= 80);
}

GUARD_PROG(socket_setsockopt, struct socket *sock, int level, int optname)
{
	/*
	 * A port's sharers in the machine's namespace: SO_REUSEPORT joins
	 * the group of a listener outside that set it (same uid: root is
	 * every service's), and a program on the group (a classic one, no
	 * bpf() call) then steers every connection to the task; on UDP,
	 * SO_REUSEADDR shares a bound port and the last socket takes its
	 * unicast datagrams.
	 */
	if (level == SOL_SOCKET) {
		if (optname != SO_REUSEPORT && optname != SO_ATTACH_REUSEPORT_CBPF &&
		    optname != SO_ATTACH_REUSEPORT_EBPF &&
		    (optname != SO_REUSEADDR || sock->type != SOCK_DGRAM))
			return 0;
		if (!in_init_net(sock->sk))
			return 0;
		return guard_deny(LAB_GUARD_socket_setsockopt, (__u32)optname, NULL);
	}
	/*
	 * A packet socket of the machine's namespace (one made outside, or
	 * before the task was confined: socket_create refuses it inside)
	 * joins an outside capture's fanout group and takes its share of
	 * the traffic, or replaces the group's steering program.
	 */
	if (level == SOL_PACKET) {
		if ((optname != PACKET_FANOUT && optname != PACKET_FANOUT_DATA) ||
		    !in_init_net(sock->sk))
			return 0;
		return guard_deny(LAB_GUARD_socket_setsockopt, (__u32)optname, NULL);
	}
	/*
	 * TCP's repair mode (CRIU's) sets SK_FORCE_REUSE, which skips the
	 * bind conflict check at bind and again at listen, and a listening
	 * socket cannot leave the mode: a listener on 127.0.0.1:P stands
	 * beside a service outside on 0.0.0.0:P and, the more specific
	 * address, takes its connections. Refused in init_net; the other
	 * TCP_REPAIR_* options need the mode first.
	 */
	if (level == SOL_TCP) {
		if (optname != TCP_REPAIR || !in_init_net(sock->sk))
			return 0;
		return guard_deny(LAB_GUARD_socket_setsockopt, (__u32)optname, NULL);
	}
	if (level != SOL_IP && level != SOL_IPV6)
		return 0;
	if (!in_init_net(sock->sk) || ip_sockopt_allowed(level, optname))
		return 0;
	return guard_deny(LAB_GUARD_socket_setsockopt, (__u32)optname, NULL);
}

/* A sendmsg()'s control messages, kernel memory: a source route among them? */
struct cmsg_scan {
	const void *buf;
	__u64 len;
	__u64 off;
	int type;		/* the source route's cmsg_type, 0 if none, -1 unread */
};

static long cmsg_scan_step(__u64 i, void *data)
{
	struct cmsg_scan *s = data;
	struct lab_cmsghdr c;

	switch (cmsg_at(s->buf, s->len, s->off, &c)) {
	case CMSG_UNREAD:
		s->type = -1;	/* refused: a user pointer, were one ever here */
		return 1;
	case CMSG_END:
		return 1;
	}
	if ((c.level == SOL_IP && c.type == IP_RETOPTS) ||
	    (c.level == SOL_IPV6 && (c.type == IPV6_RTHDR || c.type == IPV6_2292RTHDR))) {
		s->type = c.type;
		return 1;
	}
	s->off += LAB_CMSG_ALIGN(c.len);
	return 0;
}

/*
 * Where a datagram of init_net goes is the address connect rules judge
 * (msg_name, connect()'s), unless the task sends it elsewhere itself:
 * refused, as the socket options that would (ip_sockopt_allowed()). A
 * header the task writes (a raw socket with IP_HDRINCL, which
 * IPPROTO_RAW implies) names any destination, and msg_name's route takes
 * it to a gateway that forwards it there: no raw socket sends in init_net
 * (socket_create lets only IPPROTO_RAW be made, for iptables' sockopts,
 * which read). A source route in a control message (IP_RETOPTS with
 * LSRR or SSRR, an IPv6 routing header) sends it to its first hop. Sockets of a network namespace of the task's own
 * pass: their packets reach the machine's network through interfaces
 * that namespace holds (veth, macvlan), past its routes and tables.
 */
GUARD_PROG(socket_sendmsg, struct socket *sock, struct msghdr *msg, int size)
{
	struct sock *sk = sock->sk;
	struct cmsg_scan s = {};
	__u16 family;

	if (!sk)
		return 0;
	family = sk->__sk_common.skc_family;
	if ((family != AF_INET && family != AF_INET6) || !in_init_net(sk))
		return 0;
	/*
	 * No raw send at all: IP_HDRINCL is the socket's to clear (the option
	 * is on the allow-list), and a raw socket made outside and passed in
	 * (raw ICMP) sends errors for other tasks' sockets without it.
	 */
	if (sock->type == SOCK_RAW)
		return guard_deny(LAB_GUARD_socket_sendmsg, 0, NULL);
	/*
	 * msg_control is the kernel's copy on every way in (____sys_sendmsg(),
	 * io_uring's too), the compat entry's included:
	 * cmsghdr_from_user_compat_to_kern() leaves msg_control_is_user set
	 * from __get_compat_msghdr(), so that flag says nothing here (a user
	 * pointer would fail to read, and be refused).
	 */
	if (!msg->msg_controllen || !msg->msg_control)
		return 0;
	s.buf = msg->msg_control;
	s.len = msg->msg_controllen;
	/* one cmsg every 16 bytes at most */
	bpf_loop(list_steps(s.len, sizeof(struct lab_cmsghdr)), cmsg_scan_step, &s, 0);
	if (!s.type)
		return 0;
	return guard_deny(LAB_GUARD_socket_sendmsg, (__u32)s.type, NULL);
}

/*
 * init_net's configuration over netlink: every message of a send is
 * read (the kernel parses the same skb), and one that is not a read
 * refuses the send. Route (links, addresses, routes, rules, neighbours,
 * tc: type % 4 == 2 is a GET, but RTM_GETDCB: dcbnl serves GET and SET
 * with one doit, which runs the command its payload names), netfilter
 * (nftables' and conntrack's GETs, batch begin and end), xfrm (its GETs), sock_diag (all but
 * SOCK_DESTROY), generic netlink (the controller only: its families,
 * IPVS, ethtool, wireguard, MPTCP's path manager, have no common
 * read/write mark). Families that configure no network namespace pass:
 * usersock, SELinux, audit, fib_lookup; any other family is refused
 * whatever a message's type, the connector's and uevents included
 * (nl_proto(), below).
 */
#define NL_MAX_MSGS	64

/*
 * A link message names another namespace by an attribute, at the top
 * or nested anywhere (a veth's or vxcan's peer): IFLA_NET_NS_PID (19),
 * IFLA_NET_NS_FD (28), IFLA_LINK_NETNSID (37), IFLA_TARGET_NETNSID
 * (46). Any of them may name init_net (a pid there; a descriptor of
 * /proc/self/ns/net kept from before unshare()), and a device made or
 * moved there changes the machine's network. Attributes are 4-byte
 * aligned, so every aligned word that reads as such a header (a length
 * of 8 or more: rtnetlink parses link messages liberally, and a u32 or
 * s32 attribute padded past its 4 bytes is read all the same; the type
 * without its NESTED and BYTEORDER flags) is
 * taken for one: a word of other data that happens to look like one
 * refuses a message that was harmless, never the reverse. Longer
 * messages are refused whole.
 */
#define NL_LINK_SCAN_WORDS	256

static __always_inline int link_names_netns(unsigned char *msg, __u32 len)
{
	__u32 w;
	int i;

	if (len > NL_LINK_SCAN_WORDS * 4)
		return 1;
	/* from the word after struct nlmsghdr */
	for (i = 4; i < NL_LINK_SCAN_WORDS; i++) {
		__u16 type;

		if (i * 4 + 4 > len)
			return 0;
		if (bpf_probe_read_kernel(&w, sizeof(w), msg + i * 4))
			return 1;
		type = (w >> 16) & 0x3fff;	/* NLA_TYPE_MASK */
		if ((w & 0xffff) >= 8 &&
		    (type == 19 || type == 28 || type == 37 || type == 46))
			return 1;
	}
	return 0;
}

/* A message of a protocol nl_proto() says to judge: 1 when it is not a read. */
static __always_inline int nl_write(__u16 proto, __u16 type)
{
	__u8 msg = type & 0xff;

	if (type < NLMSG_MIN_TYPE)
		return 0;	/* NOOP, ERROR, DONE, OVERRUN: netlink_rcv_skb() skips them */
	switch (proto) {
	case NETLINK_ROUTE:
		/* dcb_doit() runs the set RTM_GETDCB's dcbmsg cmd names */
		return (type & 3) != 2 || type == RTM_GETDCB;
	case NETLINK_SOCK_DIAG:
		return type == SOCK_DESTROY;
	case NETLINK_XFRM:
		return type != 0x12 && type != 0x15 && type != 0x1f && type != 0x23 &&
		       type != 0x25 && type != 0x28;
	case NETLINK_NETFILTER:
		if (type == NFNL_MSG_BATCH_BEGIN || type == NFNL_MSG_BATCH_END)
			return 0;
		switch (type >> 8) {
		case NFNL_SUBSYS_NFTABLES:
			/* NFT_MSG_GET{TABLE,CHAIN,RULE,SET,SETELEM,GEN,OBJ,FLOWTABLE} */
			return msg != 1 && msg != 4 && msg != 7 && msg != 10 && msg != 13 &&
			       msg != 16 && msg != 19 && msg != 23;
		case NFNL_SUBSYS_CTNETLINK:
			/* IPCTNL_MSG_CT_GET, _GET_STATS_CPU, _GET_STATS, _GET_DYING, _GET_UNCONFIRMED */
			return msg != 1 && (msg < 4 || msg > 7);
		}
		return 1;
	}
	/* NETLINK_GENERIC */
	return type != GENL_ID_CTRL;
}

/*
 * A protocol of init_net: NL_PASS, NL_JUDGE (each message, nl_write()),
 * NL_REFUSE whatever a message's type. Not every receiver skips the
 * control types as netlink_rcv_skb() does: the connector reads no type
 * (its clients send NLMSG_DONE), and each of its callbacks is the
 * machine's (cn_proc keeps one count of process-event listeners for all
 * sockets, so PROC_CN_MCAST_IGNORE from a task that never listened
 * stops the events to every listener outside; w1's commands reach its
 * buses; dm-log-userspace, uvesafb and Hyper-V's daemons answer the
 * kernel); iSCSI's commands are 11 to 15 (ISCSI_UEVENT_CREATE_SESSION
 * .. _BIND_CONN, _DESTROY_SESSION among them).
 */
enum { NL_PASS, NL_JUDGE, NL_REFUSE };

static __always_inline int nl_proto(__u16 proto)
{
	switch (proto) {
	case NETLINK_USERSOCK:
	case NETLINK_SELINUX:
	case NETLINK_AUDIT:
	case NETLINK_FIB_LOOKUP:
		return NL_PASS;
	case NETLINK_ROUTE:
	case NETLINK_SOCK_DIAG:
	case NETLINK_XFRM:
	case NETLINK_NETFILTER:
	case NETLINK_GENERIC:
		return NL_JUDGE;
	}
	return NL_REFUSE;
}

/*
 * In a network namespace of its own: rtnetlink's RTM_NEWNSID (below),
 * and generic netlink but for the families whose state is the
 * namespace's (lsmctl fills genl_inside with their ids, which the kernel
 * gives families as they register: loader/genl.c has the names). Any
 * other family reaches outside it: TASKSTATS answers for every task of
 * the machine (its I/O counters, which ptrace's check keeps from
 * /proc/PID/io), devlink and nl80211 move their devices into another
 * namespace, and a family registered after lsmctl looked is refused
 * until it looks again. Of netfilter, the subsystems whose state is
 * the machine's: OSF's fingerprints and cthelper's userspace helpers
 * (one list for every namespace: NFNL_MSG_CTHELPER_DEL removes those
 * conntrackd registered outside).
 */
static __always_inline int own_denies(__u16 proto, __u16 type)
{
	if (proto == NETLINK_ROUTE)
		return type == RTM_NEWNSID;
	if (proto == NETLINK_NETFILTER)
		return (type >> 8) == NFNL_SUBSYS_OSF || (type >> 8) == NFNL_SUBSYS_CTHELPER;
	if (type < NLMSG_MIN_TYPE || type == GENL_ID_CTRL)
		return 0;
	return !bpf_map_lookup_elem(&genl_inside, &type);
}

/*
 * The netlink protocols whose state is a network namespace's own, which
 * a namespace of its own may use (rtnetlink, generic netlink and
 * netfilter message by message: own_denies()). Every other one reaches
 * the machine from any namespace: NETLINK_CRYPTO (the kernel's crypto
 * algorithms and their priorities), RDMA, SCSI transports, iSCSI, SMC's
 * tables, and any protocol 6.1 adds.
 */
static __always_inline int own_proto_allowed(__u16 proto)
{
	switch (proto) {
	case NETLINK_ROUTE:
	case NETLINK_GENERIC:
	case NETLINK_NETFILTER:
	case NETLINK_SOCK_DIAG:
	case NETLINK_XFRM:
	case NETLINK_FIB_LOOKUP:
	case NETLINK_KOBJECT_UEVENT:
	case NETLINK_USERSOCK:
	case NETLINK_AUDIT:	/* its settings: CAP_AUDIT_CONTROL, refused */
	case NETLINK_SELINUX:
		return 1;
	}
	return 0;
}

GUARD_PROG(netlink_send, struct sock *sk, struct sk_buff *skb)
{
	unsigned char *data;
	struct nlmsghdr nlh;
	__u32 len, off = 0, link_off = 0, link_len = 0;
	__u16 proto;
	int i, links = 0;

	struct netlink_skb_parms *parms = (void *)skb->cb;
	int own = !in_init_net(sk);

	proto = sk->sk_protocol;
	/*
	 * In a namespace of its own, rtnetlink messages that name another
	 * namespace reach the machine's: RTM_NEWNSID names init_net (by an
	 * fd or a pid) for IFLA_TARGET_NETNSID and IFLA_LINK_NETNSID to act
	 * on, and a link message's namespace attributes
	 * (link_names_netns()) make, move or delete a device there (a
	 * DELLINK's IFLA_TARGET_NETNSID, by an id the namespace holds for
	 * init_net, as one set up outside with a veth does); generic
	 * netlink families whose state is not the namespace's and
	 * nfnetlink_osf's fingerprints (own_denies()); and the protocols
	 * that are the machine's in every namespace (own_proto_allowed()).
	 */
	if (own && !own_proto_allowed(proto))
		return guard_deny(LAB_GUARD_netlink_send, proto, NULL);
	if (own && proto != NETLINK_ROUTE && proto != NETLINK_GENERIC &&
	    proto != NETLINK_NETFILTER)
		return 0;
	/*
	 * uevents from userspace reach udev as the kernel's own (rebroadcast
	 * with portid 0), and a multicast reaches every listener: in init_net
	 * neither is a read.
	 */
	if (!own && (proto == NETLINK_KOBJECT_UEVENT || BPF_CORE_READ(parms, dst_group)))
		return guard_deny(LAB_GUARD_netlink_send, 0, NULL);
	if (!own) {
		switch (nl_proto(proto)) {
		case NL_PASS:
			return 0;
		case NL_REFUSE:
			return guard_deny(LAB_GUARD_netlink_send, proto, NULL);
		}
	}
	data = skb->data;
	len = skb->len;
	for (i = 0; i < NL_MAX_MSGS; i++) {
		if (off + sizeof(nlh) > len)
			goto read;
		if (bpf_probe_read_kernel(&nlh, sizeof(nlh), data + off))
			break;
		if (nlh.nlmsg_len < sizeof(nlh))
			goto read;	/* the kernel stops here too */
		if (own ? own_denies(proto, nlh.nlmsg_type) : nl_write(proto, nlh.nlmsg_type))
			return guard_deny(LAB_GUARD_netlink_send, nlh.nlmsg_type, NULL);
		if (own && proto == NETLINK_ROUTE &&
		    (nlh.nlmsg_type == RTM_NEWLINK || nlh.nlmsg_type == RTM_SETLINK ||
		     nlh.nlmsg_type == RTM_DELLINK)) {
			/* one a send, scanned below: a loop in a loop is too much for 6.1 */
			if (links++)
				return guard_deny(LAB_GUARD_netlink_send, nlh.nlmsg_type, NULL);
			link_off = off;
			link_len = nlh.nlmsg_len;
		}
		off += (nlh.nlmsg_len + 3) & ~3u;
	}
	/* more messages than read, or one that could not be read */
	return guard_deny(LAB_GUARD_netlink_send, 0, NULL);
read:
	if (links && link_names_netns(data + link_off, link_len))
		return guard_deny(LAB_GUARD_netlink_send, RTM_NEWLINK, NULL);
	return 0;
}

/*
 * SysV IPC of the machine's IPC namespace: its segments, queues and
 * semaphore sets are every service's (a database's shared buffers, a
 * root 0600 segment), and its keys are global. A guarded task may use
 * an object there only if a task of the same guarded subtree made it;
 * in an IPC namespace of its own (unshare -i) everything is its own.
 * Made inside: the object's struct kern_ipc_perm noted at its alloc
 * hook with the guarded cgroups its maker was below, dropped at its
 * free hook. ipc_permission is asked at every use (ipcperms(): get,
 * attach, send, receive, semop, IPC_STAT; the kernel answers EACCES),
 * the *ctl hooks for removal and IPC_SET, which an owner (root: every
 * root-made object's) may do without a capability.
 */
/* A new object: noted when a guarded task makes it; -ENOSPC when it cannot be. */
static __always_inline int ipc_note(struct kern_ipc_perm *perm)
{
	struct made_collect c = {};
	__u64 key = (__u64)perm;

	if (!in_init_ipc())
		return 0;
	made_inside(&c);
	if (!c.n)
		return 0;
	/* an object its subtree could not use, refused while it can be */
	return bpf_map_update_elem(&ipc_inside, &key, &c.v, BPF_ANY) ? -ENOSPC : 0;
}

static __always_inline void touched_key(struct lab_touched *k, struct inode *inode)
{
	k->ino = inode->i_ino;
	k->dev = inode->i_sb->s_dev;
	k->gen = inode->i_generation;
}

/*
 * @inode, a regular file, noted with the guarded cgroups of the current
 * task, if any (no event: the caller decides). 0, or -EPERM when it
 * cannot be noted (the map is full): what cannot be remembered is
 * refused.
 */
static __always_inline int touch(struct inode *inode)
{
	struct made_collect c = {};
	struct lab_touched k = {};

	if (!inode || (inode->i_mode & S_IFMT) != S_IFREG)
		return 0;
	made_inside(&c);
	if (!c.n)
		return 0;
	touched_key(&k, inode);
	return bpf_map_update_elem(&touched, &k, &c.v, BPF_ANY) ? -EPERM : 0;
}

static __always_inline int ipc_judge(__u16 hook, struct kern_ipc_perm *perm, __u32 number)
{
	struct guard_req req = { .hook = hook, .ask = GUARD_MADE, .number = number };
	__u64 key = (__u64)perm;

	/* IPC_INFO and its kin name no object */
	if (!perm || !in_init_ipc())
		return 0;
	req.made = bpf_map_lookup_elem(&ipc_inside, &key);
	return guard(&req);
}

static __always_inline void ipc_forget(struct kern_ipc_perm *perm)
{
	__u64 key = (__u64)perm;

	bpf_map_delete_elem(&ipc_inside, &key);
}

GUARD_PROG(ipc_permission, struct kern_ipc_perm *ipcp, short flag)
{
	return ipc_judge(LAB_GUARD_ipc_permission, ipcp, (__u16)flag);
}

/* Each SysV kind's three hooks: noted at alloc, forgotten at free, judged at its ctl. */
#define GUARD_IPC_KIND(kind, ctl)						\
	GUARD_PROG(kind##_alloc_security, struct kern_ipc_perm *perm)		\
	{									\
		return ipc_note(perm);						\
	}									\
	GUARD_PROG(kind##_free_security, struct kern_ipc_perm *perm)		\
	{									\
		ipc_forget(perm);						\
		return 0;							\
	}									\
	GUARD_PROG(ctl, struct kern_ipc_perm *perm, int cmd)			\
	{									\
		return ipc_judge(LAB_GUARD_##ctl, perm, cmd);			\
	}

GUARD_IPC_KIND(msg_queue, msg_queue_msgctl)
GUARD_IPC_KIND(shm, shm_shmctl)
GUARD_IPC_KIND(sem, sem_semctl)

/*
 * Sockets of the machine's network namespace, by family, an allow-list:
 * unix, inet and inet6 (whose addresses the rules judge), netlink (each
 * message judged at its send: netlink_send) and alg (the kernel's crypto
 * for the task's own data). Every other family reaches the machine's
 * network past the rules or its configuration past the guard: a packet
 * socket (AF_PACKET, and SOCK_PACKET, which the kernel makes one before
 * this hook) reads every frame of every interface, other tasks'
 * connections included; PF_KEY writes its IPsec SAs and policies
 * (SADB_ADD, SADB_X_SPDADD, the flushes), as xfrm's netlink messages and
 * IP_XFRM_POLICY would; TIPC, RDS, CAN, Bluetooth, vsock, XDP and the
 * rest carry traffic that no bind or connect rule judges. Of inet and
 * inet6, raw sockets are refused too, as a raw socket reads every
 * datagram of its protocol the machine receives (IPPROTO_TCP: every TCP
 * segment to any local port), and a raw ICMP socket sends the machine
 * errors for other tasks' connections (a port unreachable is a UDP
 * socket's ECONNREFUSED, a fragmentation needed its path MTU) and
 * neighbour discovery for its links; kept: IPPROTO_RAW, made for
 * iptables' sockopts, which only sends (and not in init_net:
 * socket_sendmsg). ping has ping sockets (SOCK_DGRAM, IPPROTO_ICMP),
 * whose sends the kernel checks are echo requests. In a network
 * namespace of its own every family sees its own traffic and stays
 * open. The kernel's own sockets (@kern) pass.
 */
static __always_inline int init_net_family_allowed(int family, int type, int protocol)
{
	switch (family) {
	case AF_UNIX:
	case AF_NETLINK:
	case AF_ALG:
		return 1;
	case AF_INET:
	case AF_INET6:
		return (type & 0xf) != SOCK_RAW || protocol == IPPROTO_RAW;
	}
	return 0;
}

GUARD_PROG(socket_create, int family, int type, int protocol, int kern)
{
	struct task_struct *task;

	if (kern)
		return 0;
	/*
	 * Families that know no network namespace in 6.1: vsock's sockets
	 * reach the hypervisor (CID 2) and every vsock service of the
	 * machine (CID 1) from any namespace, mISDN's the machine's ISDN
	 * cards; a namespace of the subtree's own changes nothing for them.
	 * (ATM, NFC, qrtr, IEEE 802.15.4, Bluetooth and RDS but over TCP
	 * refuse a namespace other than init_net themselves.)
	 */
	if (family == AF_VSOCK || family == AF_ISDN)
		return guard_deny(LAB_GUARD_socket_create, (__u32)family, NULL);
	if (init_net_family_allowed(family, type, protocol))
		return 0;
	task = bpf_get_current_task_btf();
	if (BPF_CORE_READ(task, nsproxy, net_ns, net_cookie) != INIT_NET_COOKIE)
		return 0;
	return guard_deny(LAB_GUARD_socket_create, (__u32)family, NULL);
}

/*
 * A file's bytes written through a shared mapping keep its capabilities
 * (a write() strips them, file_remove_privs()): such a mapping by a
 * guarded task, made or made writable, notes the file.
 */
GUARD_PROG(mmap_file, struct file *file, unsigned long reqprot, unsigned long prot,
	   unsigned long flags)
{
	if (!file || !(prot & PROT_WRITE) || !(flags & MAP_SHARED))
		return 0;
	return touch(file->f_inode);
}

GUARD_PROG(file_mprotect, struct vm_area_struct *vma, unsigned long reqprot,
	   unsigned long prot)
{
	struct file *file = vma->vm_file;

	if (!file || !(prot & PROT_WRITE) || !(vma->vm_flags & VM_SHARED))
		return 0;
	return touch(file->f_inode);
}

/*
 * Every exec on the machine: one that gains privilege (set-user-ID,
 * set-group-ID or file capabilities: capability's hook, which runs
 * first, set secureexec) from a file a guarded task touched is
 * refused, whoever runs it: what the subtree shaped runs with no
 * privilege it did not have.
 */
GUARD_PROG(bprm_creds_from_file, struct linux_binprm *bprm, struct file *file)
{
	struct guard_req req = { .hook = LAB_GUARD_bprm_creds_from_file, .ask = GUARD_DENY };
	struct lab_touched k = {};
	struct lab_ipc_inside *by;
	struct lab_guard *g;
	__u64 id;

	if (!bprm->secureexec || !file)
		return 0;
	touched_key(&k, file->f_inode);
	by = bpf_map_lookup_elem(&touched, &k);
	if (!by)
		return 0;
	/* refused whoever runs it, reported as the first toucher's policy's */
	id = by->guards[0];
	g = bpf_map_lookup_elem(&guarded, &id);
	req.dentry = file->f_path.dentry;
	if (g)
		guard_report(g, &req);
	return -EPERM;
}
