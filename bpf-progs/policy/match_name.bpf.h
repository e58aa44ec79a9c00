/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files by path: a name in its directory, read and hashed a word at a
 * time, matched exactly or against the directory's globs.
 */
#ifndef LSMLAB_MATCH_NAME_BPF_H
#define LSMLAB_MATCH_NAME_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "kdefs.bpf.h"
#include "maps.bpf.h"
#include "request.bpf.h"

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

#endif /* LSMLAB_MATCH_NAME_BPF_H */
