// SPDX-License-Identifier: GPL-2.0
/*
 * The policy engine as global lsm/ programs: one instance for all
 * policies. Its check() finds a task's policies in the policies map, by
 * the task's cgroup and its ancestors.
 */
#include "engine.bpf.h"
#include <bpf/bpf_tracing.h>
#include "kdefs.bpf.h"
#include "subtree.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Which policy each confined cgroup has (the cgroup's id as key). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_POLICIES);
	__type(key, __u64);
	__type(value, struct lab_policy_ref);
	LAB_PINNED;
} policies SEC(".maps");

/*
 * Every inode a global policy has a file rule on, and every directory it
 * has a rule by path or glob in, ever (a bloom filter
 * cannot forget: an inode whose rules went only costs the full check).
 * lsmctl adds a policy's before the policy is switched on.
 */
struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(max_entries, LAB_BLOOM_INODES);
	__uint(map_extra, 1);	/* hash functions: one, the cheapest probe */
	__type(value, struct lab_inode);
	LAB_PINNED;
} file_bloom SEC(".maps");

/* Where the policies map's cgroups are: struct lab_levels, in engine.h. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lab_levels);
	LAB_PINNED;
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
 * check whose class no policy has a subtree rule, a rule with a '*'
 * middle component (any_tree has both: a climb) or default: deny for,
 * with no self-protection to ask, on an inode not in file_bloom (nor,
 * for a class with rules by path, its name in its directory nor the
 * directory, a glob's): every policy would find no rule and allow. It saves the policy lookup and
 * the rule lookup on the files no rule names, most of them.
 */
static __always_inline int no_say(const struct lab_levels *l, const struct lab_req *req)
{
	struct lab_inode key = {};
	struct dentry *d = req->dentry, *parent;
	struct cgroup *cgroup;
	struct inode *inode;
	__u32 c = req->class;
	__u64 hash;

	/* (a link or a rename onto a name: rare, and its rules by path are of any class) */
	if (c >= LAB_FILE_CLASSES || !d || req->onto ||
	    (((l->any_tree | l->any_default_deny) >> c) & 1))
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
	if ((int)bpf_map_peek_elem(&file_bloom, &key) != -ENOENT)
		return 0;
	if (!((l->any_path >> c) & 1))
		return 1;
	/*
	 * rules by path: the name in its directory must miss (a rule's), and
	 * the directory (a glob's); a name not held in the dentry is looked up
	 */
	parent = d->d_parent;
	if (parent == d)
		return top_by_nature(d);	/* disconnected: match_name() fails closed */
	inode = parent->d_inode;
	if (!inode || !inline_name_hash(d, d->d_name.len, &hash))
		return 0;
	key.kind = LAB_BLOOM_GLOBS;
	key.ino = inode->i_ino;
	if ((int)bpf_map_peek_elem(&file_bloom, &key) != -ENOENT)
		return 0;
	key.kind = LAB_BLOOM_NAME;
	key.ino = lab_bloom_name(key.ino, hash);
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

/*
 * Policies on one level (the usual): is the task's ancestor there none
 * of theirs? Most tasks outside stop here. @mask and @first as read from
 * @l once; first is a second read (lsmctl may have rewritten the map in
 * between) and trusted only where it agrees with the mask.
 */
static __always_inline int one_level_miss(const struct lab_levels *l, __u32 mask, __u32 first)
{
	__u64 id;

	if (first >= LAB_MAX_CGROUP_DEPTH || mask != 1u << first)
		return 0;
	id = bpf_get_current_ancestor_cgroup_id(first);
	barrier_var(first);
	return !id || !((l->filter[first & (LAB_MAX_CGROUP_DEPTH - 1)] >> (id & 63)) & 1);
}

/*
 * Can no global policy apply to the current task? What a task outside
 * pays on every hooked call: LAB_PROG() asks it before the program reads
 * its arguments. A global function, which the verifier checks once on
 * its own: inlined, its paths would multiply file_open's past 6.1's
 * limit of a million instructions.
 */
__noinline int lab_outside(void)
{
	struct lab_levels *l;
	__u32 zero = 0, mask;

	l = bpf_map_lookup_elem(&levels, &zero);
	if (!l)
		return 1;
	/* one read: lsmctl may be rewriting it (and only sets bits early, clears them late) */
	mask = *(volatile __u32 *)&l->mask;
	return !mask || one_level_miss(l, mask, l->first);
}

static __always_inline int check(const struct lab_req *req)
{
	struct ancestor_ctx c = { .req = req };
	__u32 zero = 0, last;

	c.levels = bpf_map_lookup_elem(&levels, &zero);
	if (!c.levels)
		return 0;
	c.mask = *(volatile __u32 *)&c.levels->mask;
	if (!c.mask)
		return 0;
	/*
	 * From the lowest level with a policy to the highest. The lowest is
	 * lsmctl's to work out: were it worked out here, the verifier would
	 * go through the callback once for each value it can take. A task
	 * outside the policies of one level left before: lab_outside().
	 */
	c.first = c.levels->first;
	if (no_say(c.levels, req))
		return 0;
	last = fls32(c.mask);
	if (c.first >= last || (c.mask & ((1u << c.first) - 1)))
		c.first = 0;	/* read across two updates: climb them all */
	bpf_loop(last - c.first, ancestor_step, &c, 0);
	return c.deny;
}

/*
 * Policies that follow a cgroup path (lsmctl apply --follow): the path
 * (struct lab_follow_key) to the policy's lab_policy_ref, a template whose
 * cgroup id and level lab_follow_mkdir() fills in for each cgroup made at
 * that path. lsmctl writes an entry after the levels map has the path's
 * level in its mask, its whole filter word set and the policy's any_*
 * bits (global_levels() keeps them while the entry is there), so that the
 * new cgroup's bits are there before it is: this program writes only the
 * policies map, and no update of lsmctl's can drop a bit it set.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_POLICIES);
	__type(key, struct lab_follow_key);
	__type(value, struct lab_policy_ref);
	LAB_PINNED;
} follows SEC(".maps");

/* lab_follow_mkdir()'s key and value: 490 bytes would not fit its stack beside the rest. */
struct follow_scratch {
	struct lab_follow_key key;
	struct lab_policy_ref ref;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct follow_scratch);
} follow_scratch SEC(".maps");

/*
 * A cgroup was made: if a policy follows its path, the policy is the new
 * cgroup's before any task can be in it. In 6.1's cgroup_mkdir()
 * (kernel/cgroup/cgroup.c), TRACE_CGROUP_PATH(mkdir, cgrp) runs after
 * cgroup_create() and css_populate_dir(), and before
 * kernfs_activate(cgrp->kn): until then the new directory cannot be
 * looked up, so no task can be written into its cgroup.procs nor cloned
 * into it with CLONE_INTO_CGROUP (that needs an fd of the directory), and
 * a new cgroup has no tasks of its own. Runs for every mkdir in any
 * cgroup hierarchy while the global instance is loaded: one string read
 * and one hash lookup (the tracepoint's path is made only while a probe is
 * attached, under the kernel's trace_cgroup_path_lock).
 */
SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(lab_follow_mkdir, struct cgroup *cgrp, const char *path)
{
	struct lab_policy_ref *tmpl;
	struct follow_scratch *s;
	__u32 zero = 0, level;
	__u64 id, prev;
	long n;

	/* cgroup2's ("0::" in /proc/PID/cgroup) only: a v1 hierarchy's paths are others */
	if (cgrp->root->hierarchy_id)
		return 0;
	s = bpf_map_lookup_elem(&follow_scratch, &zero);
	if (!s)
		return 0;
	__builtin_memset(&s->key, 0, sizeof(s->key));
	n = bpf_probe_read_kernel_str(s->key.path, sizeof(s->key.path), path);
	if (n <= 0 || n >= (long)sizeof(s->key.path))
		return 0;	/* unread, or maybe cut short: lsmctl follows none that long */
	tmpl = bpf_map_lookup_elem(&follows, &s->key);
	if (!tmpl)
		return 0;
	level = cgrp->level;
	if (level >= LAB_MAX_CGROUP_DEPTH || level != tmpl->level)
		return 0;
	id = cgrp->kn->id;	/* the cgroup id: its kernfs node's */
	__builtin_memcpy(&s->ref, tmpl, sizeof(s->ref));
	/*
	 * The cgroup the path had before is gone (a path holds one cgroup
	 * at a time): its entry goes, so that a service restarted without
	 * end fills nothing. The template keeps the one it has now.
	 */
	prev = tmpl->conf.cgroup_id;
	if (prev && prev != id)
		bpf_map_delete_elem(&policies, &prev);
	tmpl->conf.cgroup_id = id;
	s->ref.conf.cgroup_id = id;
	s->ref.conf.cgroup_level = level;
	bpf_map_update_elem(&policies, &id, &s->ref, BPF_ANY);
	return 0;
}

/* lsm/: -EPERM denies. */
#define LAB_SEC_PREFIX	"lsm/"
#define LAB_RET(deny)	((deny) ? -EPERM : 0)

#include "hooks.bpf.h"
