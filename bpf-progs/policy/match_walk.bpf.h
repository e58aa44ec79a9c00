/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files by inode: the climb from a file towards its file system's root,
 * across the mounts it is under, that finds the nearest subtree rule.
 */
#ifndef LSMLAB_MATCH_WALK_BPF_H
#define LSMLAB_MATCH_WALK_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "kdefs.bpf.h"
#include "maps.bpf.h"
#include "request.bpf.h"

/*
 * files: climb from the object towards its filesystem's root. The first
 * rule found decides: the object's own rule, then the nearest subtree.
 * A climb that finds no rule must also have reached the root for "no
 * rule" to be the answer: see match_file().
 */
struct walk_ctx {
	struct dentry *d;
	struct lab_file_key key;	/* the policy and device; mount_step()'s lookups */
	__u16 class;
	__u16 rule;
	__u8 deny;
	__u8 done;	/* a rule found, or the filesystem's root reached */
	__u8 deny_only;	/* past mounts a user namespace's root made: allows stay below */
	/* past a mount (mount_step()): read with probes, no BTF type there */
	__u64 mnt;	/* struct mount * */
	__u64 up;	/* struct dentry *, in mnt: its rules next */
};

/*
 * A dentry that is its own parent: is it a filesystem's root, or one with
 * nothing above it by nature (a pipe, a socket, a memfd: internal mounts,
 * which no path names)? Any other (open_by_handle_at() of a file whose
 * dentry was evicted gives a disconnected one) has lost its path.
 */
static __always_inline int top_by_nature(struct dentry *d)
{
	struct super_block *sb = d->d_sb;

	return sb && (sb->s_root == d || (sb->s_flags & SB_KERNMOUNT));
}

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
	__u64 c = w->class;

	barrier_var(c);	/* inlined, clang drops the check the verifier needs */
	if (c >= LAB_FILE_CLASSES)
		return 1;
	if (inode) {
		struct lab_file_key key = {
			.policy = w->key.policy,
			.dev = w->key.dev,
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
		/* the top: complete there by nature, short at a disconnected dentry */
		w->done = top_by_nature(d);
		return 1;
	}
	w->d = parent;
	return 0;
}

/*
 * Subtrees across mounts: from the root of the file's filesystem on to
 * where its mount is mounted (mnt_mountpoint in mnt_parent), and up from
 * there, mount after mount, to the mount namespace's root. Subtree
 * rules only: a mount point's own rule is not the file's. The climb's
 * levels and crossings share LAB_MAX_DEPTH.
 *
 * In a mount namespace of a user namespace other than the machine's, or
 * in none (w->deny_only, mount_narrow()), a confined task may have made
 * the mounts (the guard's mounts of its own): a tmpfs it filled, or a
 * bind of a folder it may write, mounted below a folder an allow covers
 * would get that allow. Past such a mount a subtree's deny reaches and
 * its allow does not: the climb goes on past it, to a deny above or to
 * the default.
 */
/*
 * Past @mnt, do allows reach? Not in a namespace of a user namespace
 * other than the machine's, nor where no namespace vouches for the
 * mounts (unmounted lazily, still connected: no namespace; a detached
 * tree of open_tree(): an anonymous one, seq 0). Fails closed.
 */
static __always_inline __u8 mount_narrow(struct mount *mnt)
{
	struct mnt_namespace *ns = BPF_CORE_READ(mnt, mnt_ns);

	return !ns || !BPF_CORE_READ(ns, seq) || BPF_CORE_READ(ns, user_ns, level);
}

static long mount_step(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	struct dentry *d = (struct dentry *)w->up, *parent;
	struct mount *mnt = (struct mount *)w->mnt, *up;
	struct lab_file_val *v;
	struct inode *inode;
	__u64 c = w->class;

	barrier_var(c);
	if (c >= LAB_FILE_CLASSES || !d)
		return 1;
	/*
	 * (here, which the verifier checks once, not at each class's call;
	 * and a value it cannot know before the loop: see match_inode())
	 */
	if (!i)
		w->deny_only = mount_narrow(mnt);
	inode = BPF_CORE_READ(d, d_inode);
	if (inode) {
		w->key.dev = BPF_CORE_READ(d, d_sb, s_dev);
		w->key.ino = BPF_CORE_READ(inode, i_ino);
		v = bpf_map_lookup_elem(&file_rules, &w->key);
		if (v && v->tree[c] && (((v->tree_deny >> c) & 1) || !w->deny_only)) {
			w->rule = v->tree[c];
			w->deny = (v->tree_deny >> c) & 1;
			w->done = 1;
			return 1;
		}
	}
	parent = BPF_CORE_READ(d, d_parent);
	if (parent && parent != d) {
		w->up = (__u64)parent;
		return 0;
	}
	/* the root of mnt's filesystem: on to where mnt is mounted */
	w->deny_only |= mount_narrow(mnt);
	up = BPF_CORE_READ(mnt, mnt_parent);
	if (!up || up == mnt) {
		w->done = 1;	/* the namespace's root mount */
		return 1;
	}
	w->up = (__u64)BPF_CORE_READ(mnt, mnt_mountpoint);
	w->mnt = (__u64)up;
	return 0;
}

#endif /* LSMLAB_MATCH_WALK_BPF_H */
