/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy engine's BPF side, shared by both backends: the rule maps,
 * the matching code, and one program per hook. A backend source file
 * defines LAB_BACKEND_CGROUP or LAB_BACKEND_GLOBAL and includes this.
 *
 * lsm_cgroup: lsmctl loads one instance a policy, attaches it to the
 * policy's cgroup, and sets lab_policy; the kernel runs it for that
 * cgroup and its descendants, and runs every ancestor's programs too,
 * so nested policies add up (any deny denies).
 *
 * global: one instance for every policy, attached as lsm/ programs that
 * run for every task; each looks the task's cgroup and its ancestors up
 * in the policies map and checks every policy found, the same way.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "engine.h"
#include "event.bpf.h"
#include "mount_api.bpf.h"
#include "subtree.bpf.h"

#define EPERM		1
#define ENOENT		2
#define AF_UNSPEC	0
#define AF_INET		2
#define AF_INET6	10
#define FMODE_READ	0x1
#define FMODE_WRITE	0x2
#define O_ACCMODE	00000003	/* f_flags: 3 opens for ioctl only, no FMODE_READ/WRITE */
#define O_TRUNC		00001000
#define __FMODE_EXEC	0x20		/* f_flags (not f_mode, in 6.1): exec's opens */
#define __O_TMPFILE	020000000
#define SB_KERNMOUNT	(1UL << 22)	/* an internal mount: pipes, sockets, memfds... */
#define PTRACE_MODE_ATTACH 0x02
#define S_IFMT		00170000
#define S_IFCHR		0020000
#define S_IFREG		0100000
#define CGROUP_SUPER_MAGIC 0x27e0eb
#define CGROUP2_SUPER_MAGIC 0x63677270
#define BINFMTFS_MAGIC	0x42494e4d
#define SYSFS_MAGIC	0x62656572
#define SECURITYFS_MAGIC 0x73636673
#define CONFIGFS_MAGIC	0x62656570
#define DEBUGFS_MAGIC	0x64626720
#define TRACEFS_MAGIC	0x74726163
#define SELINUX_MAGIC	0xf97cff8c
#define SMACK_MAGIC	0x43415d53
#define EFIVARFS_MAGIC	0xde5e81e4
#define PSTOREFS_MAGIC	0x6165676C
#define S_IFBLK		0060000
#define PROC_SUPER_MAGIC 0x9fa0
#define CAP_SYS_ADMIN	21
#define MEM_MAJOR	1		/* /dev/mem 1:1, /dev/kmem 1:2, /dev/port 1:4 */

char LICENSE[] SEC("license") = "GPL";

/*
 * Rule maps: hash maps allocated as they fill (BPF_F_NO_PREALLOC), so a
 * large cap costs nothing until rules are there.
 */
/*
 * The policies' configurations, by policy id: lsmctl's record. The
 * programs read theirs from .rodata (lsm_cgroup) or from the policies
 * map (global).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_POLICIES);
	__type(key, __u32);
	__type(value, struct lab_conf);
} confs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1 << 21);
	__type(key, struct lab_file_key);
	__type(value, struct lab_file_val);
} file_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1 << 16);
	__type(key, struct lab_sock_key);
	__type(value, struct lab_sock_val);
} sock_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1 << 16);
	__type(key, struct lab_net_key);
	__type(value, struct lab_net_rule);
} net_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1 << 16);
	__type(key, struct lab_hit_key);
	__type(value, __u64);
} hits SEC(".maps");

/* Denials for lsmctl events; one ring shared by every instance. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LAB_EVENTS_SIZE);
} events SEC(".maps");

/* What a hook asks the policies: the class of access and its object. */
struct lab_req {
	__u16 hook;
	__u8 class;
	__u8 pad;
	struct dentry *dentry;		/* files */
	struct task_struct *target;	/* ptrace, signal */
	__u16 family;			/* network */
	__u16 type;
	__u16 protocol;
	__u16 port;
	__u8 addr[16];
	__u32 number;			/* capability, signal */
	__u8 self;			/* LAB_SELF_*: what self-protection checks */
	struct file *file;		/* LAB_SELF_OPEN: the file being opened */
};

static __always_inline void count_hit(__u32 policy, __u32 rule)
{
	struct lab_hit_key key = { .policy = policy, .rule = rule };
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(&hits, &key);
	if (n)
		*n += 1;	/* per-CPU, and BPF LSM programs run with migration off */
	else
		bpf_map_update_elem(&hits, &key, &one, BPF_NOEXIST);
}

/* Send a denial to lsmctl events; -1 when the ring has no room for it. */
static __always_inline int report(const struct lab_conf *conf, const struct lab_req *req,
				  __u16 rule)
{
	struct lab_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return -1;
	/* lab_req is ours, not the kernel's: no CO-RE read of its fields */
	event_fill(e, conf->cgroup_id, conf->flags, req->hook, rule, req->class, req->number,
		   req->target, req->dentry);
	e->family = req->family;
	e->port = req->port;
	__builtin_memcpy(e->addr, req->addr, sizeof(e->addr));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/*
 * files: climb from the object towards its filesystem's root. The first
 * rule found decides: the object's own rule, then the nearest subtree.
 * A climb that finds no rule must also have reached the root for "no
 * rule" to be the answer: see match_file().
 */
struct walk_ctx {
	struct dentry *d;
	__u32 policy;
	__u32 dev;
	__u32 class;
	__u16 rule;
	__u8 deny;
	__u8 done;	/* a rule found, or the filesystem's root reached */
};

/*
 * The hooks' arguments are BTF-typed: fields are loaded directly (one
 * instruction each, a fault reads as 0) rather than through
 * bpf_probe_read_kernel(), a helper call of some hundred instructions.
 */
static long walk_step(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	struct dentry *d = w->d, *parent;
	struct inode *inode = d->d_inode;
	struct super_block *sb;
	__u64 c = w->class;

	barrier_var(c);	/* inlined, clang drops the check the verifier needs */
	if (c >= LAB_FILE_CLASSES)
		return 1;
	if (inode) {
		struct lab_file_key key = {
			.policy = w->policy,
			.dev = w->dev,
			.ino = inode->i_ino,
		};
		struct lab_file_val *v = bpf_map_lookup_elem(&file_rules, &key);

		if (v && i == 0 && v->exact[c]) {
			w->rule = v->exact[c];
			w->deny = (v->exact_deny >> c) & 1;
			w->done = 1;
			return 1;
		}
		if (v && v->tree[c]) {
			w->rule = v->tree[c];
			w->deny = (v->tree_deny >> c) & 1;
			w->done = 1;
			return 1;
		}
	}
	parent = d->d_parent;
	if (!parent || parent == d) {
		/*
		 * The top. The filesystem's root, or a dentry with nothing
		 * above it by nature (a pipe, a socket, a memfd: internal
		 * mounts, which no path names): the climb is complete. Any
		 * other (open_by_handle_at() of a file whose dentry was
		 * evicted gives a disconnected one) leaves the climb short.
		 */
		sb = d->d_sb;
		w->done = sb && (sb->s_root == d || (sb->s_flags & SB_KERNMOUNT));
		return 1;
	}
	w->d = parent;
	return 0;
}

/*
 * The rule for @req, or LAB_RULE_NONE. A subtree climb that could not
 * finish (deeper than LAB_MAX_DEPTH, or a disconnected dentry) returns
 * LAB_RULE_NONE with *deny set: decide() denies it as the default.
 */
static __always_inline __u16 match_file(__u32 policy, const struct lab_conf *conf,
					const struct lab_req *req, __u8 *deny)
{
	struct dentry *dentry = req->dentry;
	__u32 c = req->class;
	struct walk_ctx w = { .d = dentry, .policy = policy, .class = c };

	/* (the verifier sees every hook's request reach here: a NULL dentry too) */
	if (!dentry || c >= LAB_FILE_CLASSES)
		return LAB_RULE_NONE;
	w.dev = dentry->d_sb->s_dev;
	if ((conf->file_tree >> c) & 1) {
		/* a subtree rule of this class somewhere: climb */
		bpf_loop(LAB_MAX_DEPTH, walk_step, &w, 0);
		if (!w.done) {
			/* a subtree rule might be above: never allow what it may deny */
			*deny = 1;
			return LAB_RULE_NONE;
		}
	} else if ((conf->file_exact >> c) & 1) {
		/* rules on inodes only: the object's own is the only one */
		struct inode *inode = dentry->d_inode;
		struct lab_file_key key = { .policy = policy, .dev = w.dev };
		struct lab_file_val *v;
		__u64 i = c;

		if (!inode)
			return LAB_RULE_NONE;
		key.ino = inode->i_ino;
		v = bpf_map_lookup_elem(&file_rules, &key);
		barrier_var(i);
		if (!v || i >= LAB_FILE_CLASSES || !v->exact[i])
			return LAB_RULE_NONE;
		*deny = (v->exact_deny >> i) & 1;
		return v->exact[i];
	}
	*deny = w.deny;
	return w.rule;
}

/* socket: the most specific of family+type, family, type, any. */
static __always_inline __u16 match_socket(__u32 policy, const struct lab_req *req, __u8 *deny)
{
	struct lab_sock_key keys[4] = {
		{ policy, req->family, req->type },
		{ policy, req->family, 0 },
		{ policy, 0, req->type },
		{ policy, 0, 0 },
	};
	struct lab_sock_val *v;
	int i;

#pragma unroll
	for (i = 0; i < 4; i++) {
		v = bpf_map_lookup_elem(&sock_rules, &keys[i]);
		if (v) {
			*deny = v->deny;
			return v->rule;
		}
	}
	return LAB_RULE_NONE;
}

/* bind, connect: every rule is looked at; a matching deny wins. */
struct net_ctx {
	const struct lab_req *req;
	__u32 policy;
	__u16 allow_rule;
	__u16 deny_rule;
};

static __always_inline int prefix_match(const __u8 *a, const __u8 *b, __u32 prefix)
{
	int i;

#pragma unroll
	for (i = 0; i < 16; i++) {
		if (prefix >= 8) {
			if (a[i] != b[i])
				return 0;
			prefix -= 8;
		} else if (prefix) {
			__u8 mask = 0xff << (8 - prefix);

			return (a[i] & mask) == (b[i] & mask);
		} else {
			return 1;
		}
	}
	return 1;
}

static long net_step(__u32 i, void *data)
{
	struct net_ctx *c = data;
	const struct lab_req *req = c->req;
	struct lab_net_key key = { .policy = c->policy, .index = i };
	struct lab_net_rule *r = bpf_map_lookup_elem(&net_rules, &key);

	if (!r)
		return 1;
	if (r->class != req->class ||
	    (r->family && r->family != req->family) ||
	    (r->protocol && r->protocol != req->protocol) ||
	    req->port < r->port_min || req->port > r->port_max ||
	    !prefix_match(r->addr, req->addr, r->prefix))
		return 0;
	if (r->deny) {
		c->deny_rule = r->rule;
		return 1;
	}
	if (!c->allow_rule)
		c->allow_rule = r->rule;
	return 0;
}

static __always_inline __u16 match_net(__u32 policy, const struct lab_conf *conf,
				       const struct lab_req *req, __u8 *deny)
{
	struct net_ctx c = { .req = req, .policy = policy };
	__u32 n = conf->n_net;

	if (n > LAB_MAX_NET_RULES)
		n = LAB_MAX_NET_RULES;
	bpf_loop(n, net_step, &c, 0);
	*deny = !!c.deny_rule;
	return c.deny_rule ? c.deny_rule : c.allow_rule;
}

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
	char name[32] = {};
	int i;

	if (len > (int)sizeof(name) - 1)
		return 0;
	bpf_probe_read_kernel_str(name, sizeof(name), d->d_name.name);
	for (i = 0; i <= len && i < (int)sizeof(name); i++)	/* the NUL too */
		if (name[i] != want[i])
			return 0;
	return 1;
}

/* The pid a /proc folder is named after, or 0 when its name is no number. */
static __always_inline __u32 proc_pid_of(struct dentry *d)
{
	char name[12] = {};
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

/* What self-protection asks of opening @file: LAB_SELF_DENY, _CGROUP, _LIMIT or 0. */
static __always_inline __u8 self_at_open(struct file *file, struct cgroup **cgroup)
{
	struct dentry *d = file->f_path.dentry, *parent, *grand;
	struct inode *inode = d->d_inode;
	unsigned int mode = file->f_mode;
	unsigned long magic = d->d_sb->s_magic;
	struct kernfs_node *kn;
	dev_t rdev;
	__u32 pid;

	if (!inode)
		return 0;
	if ((inode->i_mode & S_IFMT) == S_IFCHR) {
		rdev = inode->i_rdev;
		if ((rdev >> 20) == MEM_MAJOR && ((rdev & 0xfffff) == 1 ||
						  (rdev & 0xfffff) == 2 || (rdev & 0xfffff) == 4))
			return LAB_SELF_DENY;
		return 0;
	}
	/* a disk's blocks: every file on it, past every file rule */
	if ((inode->i_mode & S_IFMT) == S_IFBLK)
		return LAB_SELF_DENY;
	parent = d->d_parent;
	if (magic == CGROUP2_SUPER_MAGIC && (mode & FMODE_WRITE)) {
		/*
		 * Moving a task, even inside the subtree: a pid written to a
		 * cgroup inside may be a task outside, pulled in to be killed
		 * or robbed of its files. The kernel tells the two apart only
		 * by inode_permission() on the common ancestor, a hook every
		 * path lookup calls.
		 */
		if (name_is(d, "cgroup.procs", 12) || name_is(d, "cgroup.threads", 14))
			return LAB_SELF_DENY;
		/* the folder's kernfs node, whose priv is its cgroup */
		kn = parent->d_inode->i_private;
		*cgroup = BPF_CORE_READ(kn, priv);	/* i_private is a void * */
		/*
		 * What a delegated cgroup's owner may write in it (cgroup v2's
		 * delegation); its limits and the rest are its parent's.
		 */
		if (name_is(d, "cgroup.subtree_control", 22) || name_is(d, "cgroup.freeze", 13) ||
		    name_is(d, "cgroup.kill", 11) || name_is(d, "cgroup.type", 11))
			return LAB_SELF_CGROUP;
		return LAB_SELF_LIMIT;
	}
	/*
	 * The machine's knobs: files by which the kernel runs a program of
	 * the writer's choosing, as root, outside every cgroup (a cgroup v1
	 * hierarchy's release_agent, binfmt_misc's register, sysfs'
	 * uevent_helper and uevent), and the rest of sysfs (devices, PCI,
	 * power), securityfs (lockdown, LSM policies), configfs, debugfs and
	 * tracefs (kprobes, which read every task's memory).
	 */
	if ((mode & FMODE_WRITE) &&
	    (magic == CGROUP_SUPER_MAGIC || magic == BINFMTFS_MAGIC || magic == SYSFS_MAGIC ||
	     magic == SECURITYFS_MAGIC || magic == CONFIGFS_MAGIC || magic == DEBUGFS_MAGIC ||
	     magic == TRACEFS_MAGIC || magic == SELINUX_MAGIC || magic == SMACK_MAGIC ||
	     magic == EFIVARFS_MAGIC || magic == PSTOREFS_MAGIC))
		return LAB_SELF_DENY;
	if (magic != PROC_SUPER_MAGIC)
		return 0;
	grand = parent->d_parent;
	if (parent == grand)	/* in /proc itself: sysrq-trigger, mtrr... */
		return (name_is(d, "kcore", 5) || (mode & FMODE_WRITE)) ? LAB_SELF_DENY : 0;
	/* below /proc, writes to its own process's files only (and one sysctl) */
	if (!(mode & FMODE_WRITE) || name_is(d, "bpf_stats_enabled", 17))
		return 0;
	for (int i = 0; i < 8; i++) {
		if (grand->d_parent == grand)
			break;
		/* /proc/PID/net/...: the network namespace's, shared with tasks outside */
		if (name_is(parent, "net", 3))
			return LAB_SELF_DENY;
		parent = grand;
		grand = grand->d_parent;
	}
	/*
	 * /proc/PID/...: another process's oom_score_adj (the OOM killer's
	 * pick), comm, timerslack_ns, clear_refs, uid_map... Its own only,
	 * and of its own not the OOM score: at -1000 the OOM killer would
	 * pick tasks outside. Anything else (/proc/sys, /proc/irq) is the
	 * machine's.
	 */
	pid = proc_pid_of(parent);
	if (pid != bpf_get_current_pid_tgid() >> 32 || name_is(d, "oom_score_adj", 13) ||
	    name_is(d, "oom_adj", 7))
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
	case LAB_SELF_CGROUP:
		return !cgroup_inside(conf, cgroup);
	case LAB_SELF_LIMIT:
		/* below the policy's cgroup only: its own limits are its parent's */
		return !cgroup_inside(conf, cgroup) ||
		       BPF_CORE_READ(cgroup, level) <= (int)conf->cgroup_level;
	}
	return 0;
}

/*
 * One policy's verdict on a request: 1 to deny. Counts the deciding
 * rule's hit and reports a denial (or, in audit mode, reports it and
 * returns 0).
 */
static __always_inline int decide(__u32 policy, const struct lab_conf *conf,
				  const struct lab_req *req)
{
	__u32 class = req->class;
	__u16 rule = LAB_RULE_NONE;
	__u8 deny = 0;

	if (class < LAB_FILE_CLASSES) {
		rule = match_file(policy, conf, req, &deny);
	} else if (class == LAB_SOCKET) {
		rule = match_socket(policy, req, &deny);
	} else if (class == LAB_BIND || class == LAB_CONNECT) {
		rule = match_net(policy, conf, req, &deny);
	} else if (class == LAB_CAPABILITY) {
		rule = conf->cap_rule[req->number & 63];
		deny = (conf->cap_deny >> (req->number & 63)) & 1;
	} else if (class < LAB_SELF) {
		if (class == LAB_SIGNAL && task_inside(conf, req->target))
			return 0;
		/* the mask is for the verifier: it forgets the bound above */
		rule = conf->fixed_rule[class & 0xf];
		deny = conf->fixed_deny[class & 0xf];
	}

	if (rule != LAB_RULE_NONE && deny) {
		rule -= 1;	/* a rule denies: it is the one reported */
	} else if (deny) {
		rule = LAB_RULE_DEFAULT;	/* files: a subtree climb that could not finish */
	} else if (req->self && (conf->flags & LAB_SELF_PROTECT) && self_denies(conf, req)) {
		rule = LAB_RULE_SELF;
		deny = 1;
	} else if (rule != LAB_RULE_NONE) {
		rule -= 1;
	} else if (class < 32 && (conf->default_deny >> class) & 1) {
		rule = LAB_RULE_DEFAULT;
		deny = 1;
	} else {
		return 0;
	}
	count_hit(policy, rule);
	if (!deny)
		return 0;
	if (report(conf, req, rule))
		count_hit(policy, LAB_RULE_LOST);	/* never silent: lsmctl counts it */
	return !(conf->flags & LAB_AUDIT);
}

#ifdef LAB_BACKEND_GLOBAL

/* Which policy each confined cgroup has (the cgroup's id as key). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct lab_policy_ref);
} policies SEC(".maps");

/*
 * Every inode a global policy has a file rule on, ever (a bloom filter
 * cannot forget: an inode whose rules went only costs the full check).
 * lsmctl adds a policy's before the policy is switched on.
 */
struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(max_entries, 1 << 16);
	__uint(map_extra, 1);	/* hash functions: one, the cheapest probe */
	__type(value, struct lab_inode);
} file_bloom SEC(".maps");

/* Where the policies map's cgroups are: struct lab_levels, in engine.h. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lab_levels);
} levels SEC(".maps");

struct ancestor_ctx {
	const struct lab_req *req;
	struct lab_levels *levels;
	__u32 mask;
	__u32 first;
	int deny;
};

/* The verdict of the policy on cgroup @id, if it has one. */
static __always_inline int check_cgroup(__u64 id, const struct lab_req *req)
{
	struct lab_policy_ref *ref = bpf_map_lookup_elem(&policies, &id);

	return ref && decide(ref->policy, &ref->conf, req);
}

/*
 * Does no global policy have a say on this request? True for a file
 * check whose class no policy has a subtree rule or default: deny for,
 * with no self-protection to ask, on an inode not in file_bloom: every
 * policy would find no rule and allow. It saves the policy lookup and
 * the rule lookup on the files no rule names, most of them.
 */
static __always_inline int no_say(const struct lab_levels *l, const struct lab_req *req)
{
	struct lab_inode key = {};
	struct dentry *d = req->dentry;
	struct cgroup *cgroup;
	struct inode *inode;
	__u32 c = req->class;

	if (c >= LAB_FILE_CLASSES || !d || (((l->any_tree | l->any_default_deny) >> c) & 1))
		return 0;
	if (req->self && l->any_self_protect &&
	    (req->self != LAB_SELF_OPEN || !req->file || self_at_open(req->file, &cgroup)))
		return 0;
	inode = d->d_inode;
	if (!inode)
		return 0;
	key.dev = d->d_sb->s_dev;
	key.ino = inode->i_ino;
	/* (int): the map op behind the helper returns an int, in 32 bits */
	return (int)bpf_map_peek_elem(&file_bloom, &key) == -ENOENT;
}

static long ancestor_step(__u32 i, void *data)
{
	struct ancestor_ctx *c = data;
	__u64 id = ancestor_on(c->mask, c->levels->filter, c->first + i);

	if (id == LAB_WALK_STOP)
		return 1;
	if (!id)
		return 0;	/* no policy on this ancestor */
	if (check_cgroup(id, c->req))
		c->deny = 1;
	return 0;
}

static __always_inline int check(const struct lab_req *req)
{
	struct ancestor_ctx c = { .req = req };
	__u32 zero = 0, last;

	c.levels = bpf_map_lookup_elem(&levels, &zero);
	if (!c.levels)
		return 0;
	/* one read: lsmctl may be rewriting it (and only sets bits early, clears them late) */
	c.mask = *(volatile __u32 *)&c.levels->mask;
	if (!c.mask)
		return 0;
	/*
	 * From the lowest level with a policy to the highest. The lowest is
	 * lsmctl's to work out: were it worked out here, the verifier would
	 * go through the callback once for each value it can take.
	 */
	/*
	 * first is a second read: lsmctl may have rewritten the map between
	 * the two. Trusted only where it agrees with the mask read above.
	 */
	c.first = c.levels->first;
	if (c.first < LAB_MAX_CGROUP_DEPTH && c.mask == 1u << c.first) {
		/*
		 * Policies at one level (the usual): is the task's ancestor
		 * there one of theirs? Most tasks outside stop here. (The loop
		 * below then runs once: checking the policy here too would
		 * make the verifier go through decide() twice a hook.)
		 */
		__u64 id = bpf_get_current_ancestor_cgroup_id(c.first);
		__u32 level = c.first;

		barrier_var(level);
		if (!id || !((c.levels->filter[level & (LAB_MAX_CGROUP_DEPTH - 1)] >> (id & 63)) & 1))
			return 0;
	}
	if (no_say(c.levels, req))
		return 0;
	last = fls32(c.mask);
	if (c.first >= last || (c.mask & ((1u << c.first) - 1)))
		c.first = 0;	/* read across two updates: climb them all */
	bpf_loop(last - c.first, ancestor_step, &c, 0);
	return c.deny;
}

#define LAB_SEC(hook)	SEC("lsm/" #hook)
#define LAB_RET(deny)	((deny) ? -EPERM : 0)

#else /* LAB_BACKEND_CGROUP */

/*
 * Set by lsmctl before loading: the policy this instance enforces, and
 * its configuration, constants the verifier prunes the unused paths by.
 */
const volatile __u32 lab_policy;
const volatile struct lab_conf lab_conf;

static __always_inline int check(const struct lab_req *req)
{
	const struct lab_conf *conf = (const struct lab_conf *)&lab_conf;

	barrier_var(conf);	/* or clang reads the zeros it was declared with */
	return decide(lab_policy, conf, req);
}

/* lsm_cgroup: 1 allows, 0 denies with EPERM. */
#define LAB_SEC(hook)	SEC("lsm_cgroup/" #hook)
#define LAB_RET(deny)	((deny) ? 0 : 1)

#endif

static __always_inline int check_dentry(__u16 hook, __u8 class, struct dentry *dentry)
{
	struct lab_req req = { .hook = hook, .class = class, .dentry = dentry };

	return check(&req);
}

/*
 * file_open: the classes an open asks for, checked one after the other
 * by one callback, so that the verifier goes through check() once.
 */
struct open_ctx {
	struct lab_req req;
	struct dentry *dir;	/* O_TMPFILE: the directory the file is made in */
	__u32 classes;		/* a bit per class still to check */
	int deny;
};

static long open_step(__u32 i, void *data)
{
	struct open_ctx *o = data;
	__u32 left = o->classes;

	if (i > LAB_SELF || !(left >> i))
		return 1;
	if (!((left >> i) & 1))
		return 0;
	o->req.class = i;
	if (i == LAB_CREATE)
		o->req.dentry = o->dir;
	if (check(&o->req)) {
		o->deny = 1;
		return 1;
	}
	o->req.self = 0;	/* self-protection has had its say with the first */
	return 0;
}

LAB_SEC(file_open)
int BPF_PROG(lab_file_open, struct file *file)
{
	unsigned int mode = file->f_mode, flags = file->f_flags;
	struct dentry *dentry = file->f_path.dentry;
	struct open_ctx o = {
		.req = {
			.hook = LAB_HOOK_FILE_OPEN,
			.dentry = dentry,
			.self = LAB_SELF_OPEN,
			.file = file,
		},
	};
	__u32 classes = 0;

	if (flags & __FMODE_EXEC) {
		/*
		 * exec's own opens: the program (bprm_check_security checks it
		 * too) and its ELF interpreter (which nothing else checks).
		 * They are execs, not reads.
		 */
		classes = 1 << LAB_EXEC;
	} else {
		/* O_ACCMODE 3: neither mode, ioctls only; counted as both */
		if ((mode & FMODE_READ) || (flags & O_ACCMODE) == O_ACCMODE)
			classes |= 1 << LAB_READ;
		if ((mode & FMODE_WRITE) || (flags & O_ACCMODE) == O_ACCMODE ||
		    ((flags & O_TRUNC) && (file->f_inode->i_mode & S_IFMT) == S_IFREG))
			classes |= 1 << LAB_WRITE;
		/* O_TMPFILE: a file made in the directory (no inode_create in 6.1) */
		if (flags & __O_TMPFILE) {
			classes |= 1 << LAB_CREATE;
			o.dir = dentry->d_parent;
		}
	}
	o.classes = classes ? classes : 1 << LAB_SELF;
	/* up to the highest class asked: a read-only open is one call */
	bpf_loop(!classes ? LAB_SELF + 1 : (classes >> LAB_CREATE) ? LAB_CREATE + 1 :
		 (classes >> LAB_EXEC) ? LAB_EXEC + 1 : (classes >> LAB_WRITE) ? LAB_WRITE + 1 :
		 LAB_READ + 1, open_step, &o, 0);
	return LAB_RET(o.deny);
}

LAB_SEC(bprm_check_security)
int BPF_PROG(lab_bprm_check, struct linux_binprm *bprm)
{
	return LAB_RET(check_dentry(LAB_HOOK_BPRM_CHECK, LAB_EXEC,
				    bprm->file->f_path.dentry));
}

LAB_SEC(inode_create)
int BPF_PROG(lab_inode_create, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_CREATE, LAB_CREATE, dentry));
}

LAB_SEC(inode_mkdir)
int BPF_PROG(lab_inode_mkdir, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_MKDIR, LAB_CREATE, dentry));
}

LAB_SEC(inode_mknod)
int BPF_PROG(lab_inode_mknod, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_MKNOD, LAB_CREATE, dentry));
}

LAB_SEC(inode_symlink)
int BPF_PROG(lab_inode_symlink, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_SYMLINK, LAB_CREATE, dentry));
}

/*
 * A link or a rename: the old name's unlink, the new name's create, and
 * over a file, that file's unlink (what a rename replaces is removed).
 * One callback goes through them, so that the verifier sees check() once.
 */
struct move_ctx {
	__u16 hook;
	struct dentry *old, *new;
	int deny;
};

static long move_step(__u32 i, void *data)
{
	struct move_ctx *m = data;
	struct lab_req req = {
		.hook = m->hook,
		.class = i == 1 ? LAB_CREATE : LAB_UNLINK,
		.dentry = i ? m->new : m->old,
	};

	if (!check(&req))
		return 0;
	m->deny = 1;
	return 1;
}

static __always_inline int check_move(__u16 hook, struct dentry *old, struct dentry *new)
{
	struct move_ctx m = { .hook = hook, .old = old, .new = new };

	bpf_loop(new->d_inode ? 3 : 2, move_step, &m, 0);
	return m.deny;
}

LAB_SEC(inode_link)
int BPF_PROG(lab_inode_link, struct dentry *old_dentry, struct inode *dir,
	     struct dentry *new_dentry)
{
	return LAB_RET(check_move(LAB_HOOK_INODE_LINK, old_dentry, new_dentry));
}

LAB_SEC(inode_rename)
int BPF_PROG(lab_inode_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry)
{
	return LAB_RET(check_move(LAB_HOOK_INODE_RENAME, old_dentry, new_dentry));
}

LAB_SEC(inode_unlink)
int BPF_PROG(lab_inode_unlink, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_UNLINK, LAB_UNLINK, dentry));
}

LAB_SEC(inode_rmdir)
int BPF_PROG(lab_inode_rmdir, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_RMDIR, LAB_UNLINK, dentry));
}

/* network */

LAB_SEC(socket_create)
int BPF_PROG(lab_socket_create, int family, int type, int protocol, int kern)
{
	struct lab_req req = {
		.hook = LAB_HOOK_SOCKET_CREATE,
		.class = LAB_SOCKET,
		.family = family,
		.type = type,
		.protocol = protocol,
		.number = type,
	};

	if (kern)
		return LAB_RET(0);
	return LAB_RET(check(&req));
}

/*
 * Fill in the address of a bind, connect or sendto. An IPv4-mapped IPv6
 * address is IPv4 traffic and is matched as such. Returns 0 for the
 * families bind and connect rules do not cover.
 *
 * @unspec_is_inet: IPv4 bind() and UDP sendmsg() take an AF_UNSPEC
 * address as an IPv4 one; connect() takes it as "disconnect".
 */
static __always_inline int read_sockaddr(struct lab_req *req, struct sockaddr *address,
					 int unspec_is_inet)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;
	__u16 family = 0;

	if (bpf_probe_read_kernel(&family, sizeof(family), &address->sa_family))
		return 0;
	if (family == AF_UNSPEC && unspec_is_inet)
		family = AF_INET;
	if (family == AF_INET) {
		if (bpf_probe_read_kernel(&sin, sizeof(sin), address))
			return 0;
		req->port = bpf_ntohs(sin.sin_port);
		__builtin_memcpy(req->addr, &sin.sin_addr, 4);
	} else if (family == AF_INET6) {
		if (bpf_probe_read_kernel(&sin6, sizeof(sin6), address))
			return 0;
		req->port = bpf_ntohs(sin6.sin6_port);
		if (sin6.sin6_addr.in6_u.u6_addr32[0] == 0 &&
		    sin6.sin6_addr.in6_u.u6_addr32[1] == 0 &&
		    sin6.sin6_addr.in6_u.u6_addr32[2] == bpf_htonl(0xffff)) {
			family = AF_INET;
			__builtin_memcpy(req->addr, &sin6.sin6_addr.in6_u.u6_addr32[3], 4);
		} else {
			__builtin_memcpy(req->addr, &sin6.sin6_addr, 16);
		}
	} else {
		return 0;
	}
	req->family = family;
	return 1;
}

static __always_inline int check_address(__u16 hook, __u8 class, struct socket *sock,
					 struct sockaddr *address)
{
	struct lab_req req = { .hook = hook, .class = class };
	int inet = BPF_CORE_READ(sock, sk, __sk_common.skc_family) == AF_INET;

	if (!address || !read_sockaddr(&req, address, inet && hook != LAB_HOOK_SOCKET_CONNECT))
		return 0;
	req.protocol = BPF_CORE_READ(sock, sk, sk_protocol);
	/* MPTCP is TCP on the wire (its subflows): tcp rules are its rules */
	if (req.protocol == IPPROTO_MPTCP)
		req.protocol = IPPROTO_TCP;
	req.type = BPF_CORE_READ(sock, type);
	return check(&req);
}

LAB_SEC(socket_bind)
int BPF_PROG(lab_socket_bind, struct socket *sock, struct sockaddr *address, int addrlen)
{
	return LAB_RET(check_address(LAB_HOOK_SOCKET_BIND, LAB_BIND, sock, address));
}

LAB_SEC(socket_connect)
int BPF_PROG(lab_socket_connect, struct socket *sock, struct sockaddr *address, int addrlen)
{
	return LAB_RET(check_address(LAB_HOOK_SOCKET_CONNECT, LAB_CONNECT, sock, address));
}

/* sendto() and sendmsg() with an address connect for one datagram. */
LAB_SEC(socket_sendmsg)
int BPF_PROG(lab_socket_sendmsg, struct socket *sock, struct msghdr *msg, int size)
{
	return LAB_RET(check_address(LAB_HOOK_SOCKET_SENDMSG, LAB_CONNECT, sock,
				     BPF_CORE_READ(msg, msg_name)));
}

/* ptrace, mount, module_load, signal, capability */

static __always_inline int check_fixed(__u16 hook, __u8 class, struct task_struct *target,
				       __u32 number)
{
	struct lab_req req = { .hook = hook, .class = class, .target = target, .number = number };

	return check(&req);
}

LAB_SEC(ptrace_access_check)
int BPF_PROG(lab_ptrace_access, struct task_struct *child, unsigned int mode)
{
	/* reading /proc/PID files is not tracing; attaching (and /proc/PID/mem) is */
	if (!(mode & PTRACE_MODE_ATTACH))
		return LAB_RET(0);
	return LAB_RET(check_fixed(LAB_HOOK_PTRACE_ACCESS, LAB_PTRACE, child, 0));
}

LAB_SEC(ptrace_traceme)
int BPF_PROG(lab_ptrace_traceme, struct task_struct *parent)
{
	return LAB_RET(check_fixed(LAB_HOOK_PTRACE_TRACEME, LAB_PTRACE, parent, 0));
}

LAB_SEC(sb_mount)
int BPF_PROG(lab_sb_mount, const char *dev_name, const struct path *path)
{
	return LAB_RET(check_fixed(LAB_HOOK_SB_MOUNT, LAB_MOUNT, NULL, 0));
}

LAB_SEC(move_mount)
int BPF_PROG(lab_move_mount, const struct path *from_path, const struct path *to_path)
{
	return LAB_RET(check_fixed(LAB_HOOK_MOVE_MOUNT, LAB_MOUNT, NULL, 0));
}

LAB_SEC(sb_umount)
int BPF_PROG(lab_sb_umount, struct vfsmount *mnt, int flags)
{
	return LAB_RET(check_fixed(LAB_HOOK_SB_UMOUNT, LAB_MOUNT, NULL, flags));
}

LAB_SEC(kernel_load_data)
int BPF_PROG(lab_kernel_load_data, enum kernel_load_data_id id, bool contents)
{
	if (id != LOADING_MODULE && id != LOADING_KEXEC_IMAGE && id != LOADING_KEXEC_INITRAMFS)
		return LAB_RET(0);
	return LAB_RET(check_fixed(LAB_HOOK_KERNEL_LOAD_DATA, LAB_MODULE_LOAD, NULL, id));
}

LAB_SEC(kernel_read_file)
int BPF_PROG(lab_kernel_read_file, struct file *file, enum kernel_read_file_id id,
	     bool contents)
{
	if (id != READING_MODULE && id != READING_KEXEC_IMAGE && id != READING_KEXEC_INITRAMFS)
		return LAB_RET(0);
	return LAB_RET(check_fixed(LAB_HOOK_KERNEL_READ_FILE, LAB_MODULE_LOAD, NULL, id));
}

LAB_SEC(task_kill)
int BPF_PROG(lab_task_kill, struct task_struct *p, struct kernel_siginfo *info, int sig)
{
	if (!sig)
		return LAB_RET(0);	/* kill(pid, 0) only asks whether pid exists */
	return LAB_RET(check_fixed(LAB_HOOK_TASK_KILL, LAB_SIGNAL, p, sig));
}

LAB_SEC(capable)
int BPF_PROG(lab_capable, const struct cred *cred, struct user_namespace *ns, int cap)
{
	long nr;

	/* the new mount API is a mount (mount_api.bpf.h) */
	if (cap == CAP_SYS_ADMIN) {
		nr = current_syscall();
		if (mount_api_syscall(nr) && check_fixed(LAB_HOOK_CAPABLE, LAB_MOUNT, NULL, nr))
			return LAB_RET(1);
	}
	return LAB_RET(check_fixed(LAB_HOOK_CAPABLE, LAB_CAPABILITY, NULL, cap));
}
