/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files by a rule with '*' as a middle component: the names of the
 * climb's last levels hashed and compared at each anchor.
 */
#ifndef LSMLAB_MATCH_MGLOB_BPF_H
#define LSMLAB_MATCH_MGLOB_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "kdefs.bpf.h"
#include "maps.bpf.h"
#include "request.bpf.h"
#include "match_walk.bpf.h"

/*
 * files by a rule with '*' as a middle component: climb from the object
 * as a subtree climb does, keeping the hashes of the last
 * LAB_MGLOB_COMPS names; at each directory that is some rule's anchor,
 * the names below it are compared with the rule's components. The
 * nearest anchor with a matching rule for the class decides.
 */
struct mglob_ctx {
	struct dentry *d;
	struct lab_glob_key key;
	__u64 hash[LAB_MGLOB_COMPS];	/* level i's name: hash[i % LAB_MGLOB_COMPS] */
	__u64 word;	/* the name's word being hashed */
	__u32 level;	/* the step's */
	__u8 class;
	__u8 deny;
	__u8 done;	/* a rule found, or the filesystem's root reached */
	__u8 dir;	/* the object is a directory (mglob_lead()) */
	__u16 rule;
};

/* Does rule @g, at an anchor m->level levels above the file, match the names below it? */
static __always_inline int mglob_match(const struct mglob_ctx *m, const struct lab_mglob *g)
{
	__u32 level = m->level, n = g->n, star = g->star;
	__u64 diff = 0;
	int j;

	if (!n || n > LAB_MGLOB_COMPS || level < n || (!g->subtree && level != n))
		return 0;
	/* component j is the name j + 1 levels below the anchor */
#pragma unroll
	for (j = 0; j < LAB_MGLOB_COMPS; j++)
		if (j < n && !((star >> j) & 1))
			diff |= g->comp[j] ^ m->hash[(level - 1 - j) & (LAB_MGLOB_COMPS - 1)];
	return !diff;
}

/*
 * Does @g, a rule that denies, name the directory m->level levels below
 * its anchor on the way to what it covers (home/bob for home/STAR/.ssh/x;
 * for a subtree rule, home/STAR/.ssh and below, home/bob/.ssh too)? Renamed
 * or removed from inside, that directory would take what is below it out
 * of the rule's reach: its unlink is refused, as a rule by path's
 * directories' are (compile.c's guard_dirs()).
 */
static __always_inline int mglob_lead(const struct mglob_ctx *m, const struct lab_mglob *g)
{
	__u32 level = m->level, n = g->n, star = g->star;
	__u64 diff = 0;
	int j;

	/* (a file has nothing below it to take away) */
	if (!m->dir || !g->deny || !level || n > LAB_MGLOB_COMPS || level > n ||
	    (level == n && !g->subtree))
		return 0;
#pragma unroll
	for (j = 0; j < LAB_MGLOB_COMPS; j++)
		if (j < level && !((star >> j) & 1))
			diff |= g->comp[j] ^ m->hash[(level - 1 - j) & (LAB_MGLOB_COMPS - 1)];
	return !diff;
}

/* @g's rule of the first class it denies. */
static __always_inline __u16 mglob_denying_rule(const struct lab_mglob *g)
{
	__u16 found = LAB_RULE_NONE;
	int k;

#pragma unroll
	for (k = LAB_FILE_CLASSES - 1; k >= 0; k--)
		if (g->rule[k] && ((g->deny >> k) & 1))
			found = g->rule[k];
	return found;
}

/* The first rule of anchor @v for the class that matches; 1 when one does. */
static __always_inline int mglob_anchor(struct mglob_ctx *m, const struct lab_glob_val *v)
{
	__u64 c = m->class;
	__u32 k;

	if (c >= LAB_FILE_CLASSES)
		return 0;
	barrier_var(c);
	c &= 7;		/* kept by the barrier: the verifier's bound on rule[c] */
	for (k = 0; k < LAB_MGLOB_PATTERNS && k < v->n_mglob; k++) {
		const struct lab_mglob *g = &v->mglob[k];

		if (g->rule[c] && mglob_match(m, g)) {
			m->rule = g->rule[c];
			m->deny = (g->deny >> c) & 1;
			m->done = 1;
			return 1;
		}
		if (c == LAB_UNLINK && mglob_lead(m, g)) {
			m->rule = mglob_denying_rule(g);
			m->deny = 1;
			m->done = 1;
			return 1;
		}
	}
	return 0;
}

/*
 * Level m->level's name, for the anchors above: its hash into its
 * slot of m->hash (level m->level - 4's, compared by now), 0 for a
 * name no rule can name. Read a word at a time into m->word: a whole
 * word, the bytes past the name masked (a name is 8-byte aligned in its
 * dentry or its kmalloc'd external_name, so the word is in it). The
 * hash is built in @m, not in a register: the fewer values live across
 * the reads, the smaller the step's frame (the global programs' stack,
 * callbacks and all, is at BPF's 512 bytes).
 */
static __always_inline void mglob_hash(struct mglob_ctx *m, struct dentry *d)
{
	const char *name = (const char *)d->d_name.name;
	__u32 size = d->d_name.len, k, left;

	m->hash[m->level & (LAB_MGLOB_COMPS - 1)] = 0;
	if (!size || size >= LAB_PATH_NAME_LEN)
		return;
	m->hash[m->level & (LAB_MGLOB_COMPS - 1)] = LAB_NAME_HASH_SEED;
	for (k = 0; k < LAB_PATH_NAME_LEN / 8 && k * 8 < size; k++) {
		if (bpf_probe_read_kernel(&m->word, sizeof(m->word), name + k * 8)) {
			m->hash[m->level & (LAB_MGLOB_COMPS - 1)] = 0;
			return;
		}
		left = size - k * 8;
		if (left < 8)
			m->word &= (1ULL << (left * 8)) - 1;
		m->hash[m->level & (LAB_MGLOB_COMPS - 1)] =
			lab_name_hash_step(m->hash[m->level & (LAB_MGLOB_COMPS - 1)], m->word);
	}
	m->hash[m->level & (LAB_MGLOB_COMPS - 1)] =
		lab_name_hash_step(m->hash[m->level & (LAB_MGLOB_COMPS - 1)], size);
}

/* Level i: is it an anchor? Else up, its name hashed (mglob_hash()). */
static long mglob_step(__u32 i, void *data)
{
	struct mglob_ctx *m = data;
	struct dentry *d = m->d, *parent;
	struct inode *inode = d->d_inode;
	const struct lab_glob_val *v;
	struct super_block *sb;

	m->level = i;
	if (i && inode) {
		m->key.dir = inode->i_ino;
		v = bpf_map_lookup_elem(&glob_rules, &m->key);
		if (v && v->n_mglob && mglob_anchor(m, v))
			return 1;
	}
	parent = d->d_parent;
	if (!parent || parent == d) {
		/* the top: as walk_step() says */
		sb = d->d_sb;
		m->done = sb && (sb->s_root == d || (sb->s_flags & SB_KERNMOUNT));
		return 1;
	}
	m->d = parent;
	mglob_hash(m, d);
	return 0;
}

/*
 * The rule with a '*' middle component for @dentry, or LAB_RULE_NONE. A
 * climb that could not finish denies as a subtree climb does.
 */
static __always_inline __u16 match_mglob(__u32 policy, struct dentry *dentry, __u32 dev,
					 __u32 c, __u8 *deny)
{
	struct inode *inode = dentry->d_inode;
	struct mglob_ctx m = {
		.d = dentry,
		.key = { .policy = policy, .dev = dev },
		.class = c,
		.dir = inode && (inode->i_mode & S_IFMT) == S_IFDIR,
	};

	bpf_loop(LAB_MAX_DEPTH, mglob_step, &m, 0);
	if (!m.done) {
		*deny = 1;
		return LAB_RULE_NONE;
	}
	*deny = m.deny;
	return m.rule;
}

#endif /* LSMLAB_MATCH_MGLOB_BPF_H */
