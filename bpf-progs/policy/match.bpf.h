/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Matching a request against one policy's rules, by class: files (the
 * object's own rule, or the nearest subtree's), sockets, and bind and
 * connect addresses. Each returns the rule's index + 1 and whether it
 * denies, or LAB_RULE_NONE. The matchers are in match_*.bpf.h; files
 * are put together from them here.
 */
#ifndef LSMLAB_MATCH_BPF_H
#define LSMLAB_MATCH_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "kdefs.bpf.h"
#include "maps.bpf.h"
#include "request.bpf.h"
#include "match_mglob.bpf.h"
#include "match_name.bpf.h"
#include "match_net.bpf.h"
#include "match_walk.bpf.h"

/* The inode's own rule of class @c (not its subtree's), or LAB_RULE_NONE. */
static __always_inline __u16 own_rule(__u32 policy, struct dentry *dentry, __u32 dev, __u32 c,
				      __u8 *deny)
{
	struct inode *inode = dentry->d_inode;
	struct lab_file_key key = { .policy = policy, .dev = dev };
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

/*
 * The rule by inode for @dentry: its own, or with a subtree rule of the
 * class, the nearest subtree's. A subtree climb that could not finish
 * (deeper than LAB_MAX_DEPTH, or a disconnected dentry) returns
 * LAB_RULE_NONE with *deny set: decide() denies it as the default.
 */
static __always_inline __u16 match_inode(__u32 policy, const struct lab_conf *conf,
					 struct dentry *dentry, struct file *file, __u32 dev,
					 __u32 c, __u8 *deny)
{
	struct walk_ctx w = { .d = dentry, .key = { .policy = policy, .dev = dev }, .class = c };

	if ((conf->file_tree >> c) & 1) {
		/* a subtree rule of this class somewhere: climb */
		bpf_loop(LAB_MAX_DEPTH, walk_step, &w, 0);
		if (w.done && !w.rule && file) {
			/*
			 * its filesystem's root (w.d), and no rule: the mounts
			 * above it. The steps' state starts from values the
			 * verifier cannot know (6.1 checks a bpf_loop() callback
			 * once, from the state at the call: a known 0 there
			 * would hard-wire the step's branches).
			 */
			w.done = 0;
			w.up = (__u64)w.d;
			w.mnt = (__u64)BPF_CORE_READ(file, f_path.mnt) -
				bpf_core_field_offset(struct mount, mnt);
			bpf_loop(LAB_MAX_DEPTH, mount_step, &w, 0);
		}
		if (!w.done) {
			/* a subtree rule might be above: never allow what it may deny */
			*deny = 1;
			return LAB_RULE_NONE;
		}
	} else if ((conf->file_exact >> c) & 1) {
		/* rules on inodes only: the object's own is the only one */
		return own_rule(policy, dentry, dev, c, deny);
	}
	*deny = w.deny;
	return w.rule;
}

/*
 * The rule for @req, or LAB_RULE_NONE: by path first (the name's own,
 * then a glob, then a rule with a '*' middle component), then by inode
 * (the inode's own, then the nearest subtree). An allow by path yields to
 * a deny on the inode itself: a name is where a file is, the inode which
 * file it is. Two steps, whose stack the compiler can share.
 *
 * link() and rename() onto a name (req->onto: any class) that a rule by
 * path allows are denied by that rule: only what is put there from
 * outside gets the name's allow. So is a new file (create, mknod) at a
 * name an exec rule by path allows (req->onto: exec): the task's own
 * program under the allow. (A read or write allow gives nothing on a
 * file the task made itself, so a log file it may write can be made.)
 * (No create rule is by path: the class's own by inode.)
 */
static __always_inline __u16 match_file(__u32 policy, const struct lab_conf *conf,
					const struct lab_req *req, __u8 *deny)
{
	struct dentry *dentry = req->dentry;
	__u32 c = req->class, dev, by_name = conf->file_path | conf->file_glob;
	__u16 rule, own;
	__u8 own_deny = 0;

	/* (the verifier sees every hook's request reach here: a NULL dentry too) */
	if (!dentry || c >= LAB_FILE_CLASSES)
		return LAB_RULE_NONE;
	dev = dentry->d_sb->s_dev;
	if (req->onto ? by_name : (by_name >> c) & 1) {
		rule = match_name(policy, conf, dentry, dev, c, req->onto, deny);
		if (*deny)
			return rule;
		if (rule != LAB_RULE_NONE) {
			if ((conf->file_exact >> c) & 1) {
				own = own_rule(policy, dentry, dev, c, &own_deny);
				if (own_deny) {
					*deny = 1;
					return own;
				}
			}
			return rule;
		}
	}
	if ((conf->file_mglob >> c) & 1) {
		rule = match_mglob(policy, dentry, dev, c, deny);
		if (rule != LAB_RULE_NONE || *deny)
			return rule;
	}
	return match_inode(policy, conf, dentry, req->file, dev, c, deny);
}

#endif /* LSMLAB_MATCH_BPF_H */
