/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Matching a request against one policy's rules, by class: files (the
 * object's own rule, or the nearest subtree's), sockets, and bind and
 * connect addresses. Each returns the rule's index + 1 and whether it
 * denies, or LAB_RULE_NONE.
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

/*
 * files: climb from the object towards its filesystem's root. The first
 * rule found decides: the object's own rule, then the nearest subtree.
 * A climb that finds no rule must also have reached the root for "no
 * rule" to be the answer: see match_file().
 */
struct walk_ctx {
	struct dentry *d;
	struct lab_file_key key;	/* the policy and device; mount_step()'s lookups */
	__u32 class;
	__u16 rule;
	__u8 deny;
	__u8 done;	/* a rule found, or the filesystem's root reached */
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
 */
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
	inode = BPF_CORE_READ(d, d_inode);
	if (inode) {
		w->key.dev = BPF_CORE_READ(d, d_sb, s_dev);
		w->key.ino = BPF_CORE_READ(inode, i_ino);
		v = bpf_map_lookup_elem(&file_rules, &w->key);
		if (v && v->tree[c]) {
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
	up = BPF_CORE_READ(mnt, mnt_parent);
	if (!up || up == mnt) {
		w->done = 1;	/* the namespace's root mount */
		return 1;
	}
	w->up = (__u64)BPF_CORE_READ(mnt, mnt_mountpoint);
	w->mnt = (__u64)up;
	return 0;
}

/*
 * files by path: the object's name in its directory. The name is read
 * once, zero-padded, and hashed a word at a time; the exact rule is one
 * lookup of the directory and the hash (and on a hit, a compare of the
 * name), the globs one lookup of the directory and at most
 * LAB_GLOB_PATTERNS patterns, each at most 2 * (LAB_PATH_NAME_LEN - 1)
 * byte compares.
 */
struct name_ctx {
	struct lab_path_key key;
	const struct lab_glob_val *globs;
	__u64 name[LAB_PATH_NAME_LEN / 8];	/* zero-padded */
	__u16 rule;
	__u8 len;		/* the name's; 0 when longer than any rule's */
	__u8 class;
	__u8 deny;		/* (bytes: the global backend's stack is 512 all told) */
	__u8 onto;		/* the rule of a class in this mask that allows, not the class's */
};

/*
 * Most names are short enough to be kept in the dentry itself (d_iname,
 * under 32 bytes): those are read as four BTF loads and masks, where
 * bpf_probe_read_kernel() of the name and of its pointer would be two
 * helper calls of some hundred instructions each (which longer names
 * take). A rename racing with the read can tear it: match_name() checks
 * the dentry's d_seq around it.
 */
static __always_inline int name_inline(struct dentry *dentry, __u32 len)
{
	_Static_assert(sizeof(dentry->d_iname) == 32 && LAB_PATH_NAME_LEN >= 32,
		       "d_iname is four words, all of which a name_ctx holds");
	return dentry->d_name.name == dentry->d_iname && len && len < sizeof(dentry->d_iname);
}

/* Word @k (a constant) of the name in @dentry's d_iname, @len bytes: the rest 0. */
static __always_inline __u64 iname_word(struct dentry *dentry, __u32 len, __u32 k)
{
	/* (d_iname is 8-aligned: one load a word, not eight of a byte) */
	__u64 word = *(__u64 *)__builtin_assume_aligned(&dentry->d_iname[8 * k], 8);

	if (len >= 8 * (k + 1))
		return word;
	if (len <= 8 * k)
		return 0;
	return word & ((1ULL << (8 * (len - 8 * k))) - 1);
}

/*
 * lab_name_hash() of @dentry's name, @len bytes, into *@hash when the
 * dentry holds it (name_inline()): 1, else 0. No stack: the global
 * backend's short cut (no_say()) asks it of every open.
 */
static __always_inline int inline_name_hash(struct dentry *dentry, __u32 len, __u64 *hash)
{
	__u64 h = LAB_NAME_HASH_SEED;

	if (!name_inline(dentry, len))
		return 0;
	h = lab_name_hash_step(h, iname_word(dentry, len, 0));
	if (len > 8)
		h = lab_name_hash_step(h, iname_word(dentry, len, 1));
	if (len > 16)
		h = lab_name_hash_step(h, iname_word(dentry, len, 2));
	if (len > 24)
		h = lab_name_hash_step(h, iname_word(dentry, len, 3));
	*hash = lab_name_hash_step(h, len);
	return 1;
}

/* @dentry's name (n->len bytes, < LAB_PATH_NAME_LEN) into n->name: 0, or -1. */
static __always_inline int read_name(struct name_ctx *n, struct dentry *dentry)
{
	__u32 len = n->len;

	if (name_inline(dentry, len)) {
		n->name[0] = iname_word(dentry, len, 0);
		n->name[1] = iname_word(dentry, len, 1);
		n->name[2] = iname_word(dentry, len, 2);
		n->name[3] = iname_word(dentry, len, 3);
		return 0;
	}
	barrier_var(len);	/* clang drops the mask the verifier needs: len < 64 */
	return bpf_probe_read_kernel(n->name, len & (LAB_PATH_NAME_LEN - 1),
				     dentry->d_name.name) ? -1 : 0;
}

/* Does the name in @n match glob @g: PREFIX*SUFFIX? */
static __always_inline int glob_match(const struct name_ctx *n, const struct lab_glob *g)
{
	const char *name = (const char *)n->name;
	__u32 plen = g->prefix_len, slen = g->suffix_len, len = n->len, off, j;

	if (plen >= LAB_PATH_NAME_LEN || slen >= LAB_PATH_NAME_LEN || plen + slen > len)
		return 0;
	for (j = 0; j < plen && j < LAB_PATH_NAME_LEN - 1; j++)
		if (name[j] != g->prefix[j])
			return 0;
	off = len - slen;
	for (j = 0; j < slen && j < LAB_PATH_NAME_LEN - 1; j++)
		if (name[(off + j) & (LAB_PATH_NAME_LEN - 1)] != g->suffix[j])
			return 0;
	return 1;
}

/*
 * The first rule in @rule of a class in @classes that allows (@deny: a
 * bit per class), or none.
 */
static __always_inline __u16 allowing_rule(const __u16 *rule, __u8 deny, __u8 classes)
{
	__u16 found = LAB_RULE_NONE;
	int k;

#pragma unroll
	for (k = LAB_FILE_CLASSES - 1; k >= 0; k--)
		if (rule[k] && !((deny >> k) & 1) && ((classes >> k) & 1))
			found = rule[k];
	return found;
}

static long glob_step(__u32 i, void *data)
{
	struct name_ctx *n = data;
	const struct lab_glob_val *v = n->globs;
	const struct lab_glob *g;
	__u64 c = n->class, k = i;
	__u16 rule;
	__u8 deny;

	barrier_var(c);
	if (!v || i >= v->n || i >= LAB_GLOB_PATTERNS || c >= LAB_FILE_CLASSES)
		return 1;
	barrier_var(k);		/* or clang drops the mask, which the verifier needs */
	g = &v->pattern[k & (LAB_GLOB_PATTERNS - 1)];
	if (n->onto) {
		rule = allowing_rule(g->rule, g->deny, n->onto);
		deny = 1;
	} else {
		rule = g->rule[c];
		deny = (g->deny >> c) & 1;
	}
	/*
	 * A name longer than any pattern is compared with (n->len 0): the
	 * class's deny globs take it (fail closed), the allow globs do not.
	 */
	if (!rule || !(n->len ? glob_match(n, g) : deny && !n->onto))
		return 0;
	n->rule = rule;
	n->deny = deny;
	return 1;
}

/* Is the rule's name @v's the name in @n (both zero-padded)? */
static __always_inline int same_name(const struct lab_path_val *v, const struct name_ctx *n)
{
	__u64 diff = v->len ^ n->len;
	int k;

#pragma unroll
	for (k = 0; k < LAB_PATH_NAME_LEN / 8; k++)
		diff |= v->name[k] ^ n->name[k];
	return !diff;
}

/*
 * The rule by path for @dentry: its name's own (path_rules), else the
 * first glob of its directory that matches (glob_rules); LAB_RULE_NONE
 * when neither has one. A name longer than any rule's is matched by
 * the directory's deny globs of the class only. A disconnected dentry
 * (its name in a directory lost) gives LAB_RULE_NONE with *deny set:
 * it may be any name, a denied one too.
 *
 * @onto: a new name at @dentry (a link, a rename, a new file): the rule
 * by path of a class in that mask that allows, with *deny set
 * (match_file()).
 */
static __always_inline __u16 match_name(__u32 policy, const struct lab_conf *conf,
					struct dentry *dentry, __u32 dev, __u32 c, __u8 onto,
					__u8 *deny)
{
	struct name_ctx n = { .class = c, .onto = onto };
	unsigned int seq;
	struct dentry *parent = dentry->d_parent;
	struct lab_path_val *v;
	struct inode *dir;
	__u32 size;
	__u16 rule;
	__u64 i = c;

	if (!parent || parent == dentry) {
		*deny = !top_by_nature(dentry);	/* a filesystem's root has no name */
		return LAB_RULE_NONE;
	}
	dir = parent->d_inode;
	/*
	 * d_seq is odd while a rename changes the name and moves on after
	 * it: a read across one could pair one name's length with another's
	 * bytes, a name the dentry never had ("allowed" from a rename of
	 * "ppppppp" to "allowedZ"). Such a read is no name: denied.
	 */
	seq = dentry->d_seq.seqcount.sequence;
	barrier();
	size = dentry->d_name.len;
	if (!dir || !size)
		return LAB_RULE_NONE;
	n.key.policy = policy;
	n.key.dev = dev;
	n.key.dir = dir->i_ino;
	barrier_var(i);
	if (i >= LAB_FILE_CLASSES)
		return LAB_RULE_NONE;
	if (size < LAB_PATH_NAME_LEN) {
		n.len = size;
		if (read_name(&n, dentry)) {
			*deny = 1;
			return LAB_RULE_NONE;
		}
	}
	barrier();
	if ((seq & 1) || dentry->d_seq.seqcount.sequence != seq) {
		*deny = 1;
		return LAB_RULE_NONE;
	}
	if (n.len && (onto ? conf->file_path : (conf->file_path >> i) & 1)) {
		__u64 h = LAB_NAME_HASH_SEED;
		__u32 k;

		for (k = 0; k < LAB_PATH_NAME_LEN / 8 && k * 8 < n.len; k++)
			h = lab_name_hash_step(h, n.name[k]);
		n.key.hash = lab_name_hash_step(h, n.len);
		v = bpf_map_lookup_elem(&path_rules, &n.key);
		if (v && same_name(v, &n)) {
			rule = onto ? allowing_rule(v->rule, v->deny, onto) : v->rule[i];
			if (rule) {
				*deny = onto || ((v->deny >> i) & 1);
				return rule;
			}
		}
	}
	if (onto ? conf->file_glob : (conf->file_glob >> i) & 1) {
		/* the path key starts with the glob key's fields: stack is short */
		_Static_assert(__builtin_offsetof(struct lab_path_key, dir) ==
			       __builtin_offsetof(struct lab_glob_key, dir) &&
			       sizeof(struct lab_glob_key) == __builtin_offsetof(struct lab_path_key, hash),
			       "a path key begins with a glob key");
		n.globs = bpf_map_lookup_elem(&glob_rules, &n.key);
		if (n.globs) {
			bpf_loop(LAB_GLOB_PATTERNS, glob_step, &n, 0);
			*deny = n.deny;
			return n.rule;
		}
	}
	return LAB_RULE_NONE;
}

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

#endif /* LSMLAB_MATCH_BPF_H */
