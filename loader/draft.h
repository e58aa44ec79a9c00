/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A draft policy from what a program was seen to do (lsmctl learn):
 * every use is an allow rule, counted, with the programs that made it;
 * many files of one folder fold into a rule on its subtree; written as YAML with
 * default: deny, a comment over each rule.
 */
#ifndef LSMCTL_DRAFT_H
#define LSMCTL_DRAFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy.h"

#define DRAFT_COMMS 4		/* programs named a rule; more are "..." */
#define DRAFT_FOLDED 4		/* folded files named a rule; more are "..." */
#define DRAFT_FOLD_MIN 4	/* files of one folder, one access, that fold */

struct draft_rule {
	enum rule_kind kind;		/* files (exec is files with exec access), network, capability */
	char *path;			/* files: the file, or the folder of a subtree rule */
	bool subtree;
	bool inode;			/* files: match: inode (a filesystem's root) */
	unsigned int access;		/* files: ACCESS_* */
	enum net_op op;			/* network */
	int family, type;
	uint8_t addr[16];
	unsigned int port;
	uint64_t caps;			/* capability: CAP_* bits */
	unsigned long count;		/* uses seen */
	char comms[DRAFT_COMMS][17];	/* the programs that made them */
	bool more_comms;
	unsigned int n_folded;		/* files folded into this subtree rule */
	char *folded[DRAFT_FOLDED];	/* their names */
};

struct draft {
	struct draft_rule *rules;
	size_t n_rules, cap;
	unsigned long fixed_seen[RULE_CAPABILITY + 1];	/* ptrace, mount, module_load, signal */
	char fixed_comm[RULE_CAPABILITY + 1][17];
	char *notes;			/* the header's lines, each ending in a newline */
	size_t notes_len;
};

/* Each returns 0, or -ENOMEM. @comm is the program's name (a task's comm). */
int draft_file(struct draft *d, const char *path, bool subtree, unsigned int access,
	       const char *comm);
/*
 * A filesystem's root (its dentry its own parent: /proc, a mount point),
 * which has no name in a folder to match: a rule by inode.
 */
int draft_file_root(struct draft *d, const char *path, unsigned int access, const char *comm);
int draft_socket(struct draft *d, int family, int type, const char *comm);
/* bind or connect: @addr IPv4 in its first 4 bytes; ignored for unix. */
int draft_net(struct draft *d, enum net_op op, int family, const uint8_t addr[16],
	      unsigned int port, const char *comm);
int draft_cap(struct draft *d, unsigned int cap, const char *comm);
/* ptrace, mount, module_load or signal was used: no "KIND: deny" rule for it. */
void draft_fixed(struct draft *d, enum rule_kind kind, const char *comm);
/*
 * lsmctl learn --merge: the allow rules of the draft @p (read from
 * @file) added to @d, as uses by "earlier run", and its unused kinds
 * (ptrace: deny, ...) left unused only where @d does not use them.
 * -EINVAL, with "FILE:LINE:COL: why" in @err, for a rule a draft cannot
 * hold (a deny, a glob, a range, a protocol); -ENOMEM.
 */
int draft_merge(struct draft *d, const struct policy *p, const char *file, char *err,
		size_t errlen);
/* A line for the draft's header comment (what could not be made a rule, say). */
int draft_note(struct draft *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Fold: @min or more files of one folder with the same access become
 * a rule on FOLDER's subtree (never the root's); a file below a subtree rule whose
 * access it has is left to that rule. Repeated until nothing changes.
 */
int draft_fold(struct draft *d, unsigned int min);
/*
 * May the folder @dir's subtree be one rule of a draft? Not where a
 * secret is: @dir one of lsmctl(8)'s list, holding one, or inside one,
 * or holding a .ssh, .gnupg, ... itself or in a subfolder; nor /proc.
 */
bool draft_foldable(const char *dir);
/* The draft, its rules sorted, as a policy file named @name (@header first, as comments); 0 or -errno. */
int draft_write(struct draft *d, FILE *f, const char *name, const char *header);
void draft_free(struct draft *d);
/*
 * @s for the draft: a YAML double-quoted scalar (@quoted) or the text of
 * a one-line comment. Nothing in @s ends the line, the scalar or the
 * comment; a scalar reads back as @s exactly when draft_utf8(@s).
 */
void draft_escaped(FILE *f, const char *s, bool quoted);
/* Is @s UTF-8 (no stray byte, overlong form or surrogate)? */
bool draft_utf8(const char *s);

#endif /* LSMCTL_DRAFT_H */
