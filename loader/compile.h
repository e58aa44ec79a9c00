/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rule compiler: a parsed policy becomes what the engine's maps hold
 * (bpf-progs/policy/engine.h), plus the hooks it needs. Paths become
 * inode and device numbers here, at apply time: a rule by path its
 * directory's and its name (and the inode of the file there at apply),
 * a subtree or 'match: inode' rule its own inode.
 */
#ifndef LSMCTL_COMPILE_H
#define LSMCTL_COMPILE_H

#include <linux/types.h>
#include <stddef.h>

#include "../bpf-progs/policy/engine.h"
#include "policy.h"

#define RULE_TEXT_MAX 192

struct file_entry {
	struct lab_file_key key;	/* key.policy is filled in when loading */
	struct lab_file_val val;
};

/* A rule by path: a name in a directory. */
struct path_entry {
	struct lab_path_key key;	/* key.policy is filled in when loading */
	struct lab_path_val val;
};

/* A directory's glob rules. */
struct glob_entry {
	struct lab_glob_key key;
	struct lab_glob_val val;
};

struct sock_entry {
	struct lab_sock_key key;
	struct lab_sock_val val;
};

/* A rule as lsmctl show, stats and events print it. */
struct rule_text {
	__u32 line;
	char text[RULE_TEXT_MAX];
};

struct compiled {
	struct lab_conf conf;		/* cgroup_id and level come later */
	__u64 hooks;			/* a bit per enum lab_hook */
	/*
	 * Hooks that rules by path want besides (link, rename and rmdir
	 * refused inside: compile.c's guard_dirs()): the cgroup backend
	 * attaches those that fit in the hook slots left and warns of the
	 * rest, so that a policy that fitted before still applies.
	 */
	__u64 guard_hooks;
	__u32 classes;			/* a bit per enum lab_class used */
	size_t n_files, n_paths, n_globs, n_socks, n_nets, n_rules, n_guards;
	struct file_entry *files;
	struct file_entry *guards;	/* rules by path's directories, no rule's own: compile.c */
	struct path_entry *paths;
	struct glob_entry *globs;
	struct sock_entry *socks;
	struct lab_net_rule *nets;
	struct rule_text *rules;
};

/*
 * Compile @p, read from @file. On error, returns -1 with
 * "FILE:LINE:COL: what is wrong" in @err for every error, one a line,
 * and @out empty.
 */
int policy_compile(const char *file, const struct policy *p, struct compiled *out,
		   char *err, size_t errlen);
/*
 * The same for lsmctl check: a path that does not exist is a warning in
 * @warnings ("" for none), one a line, and its rule has no map entry
 * (its hooks are counted all the same).
 */
int policy_compile_check(const char *file, const struct policy *p, struct compiled *out,
			 char *warnings, size_t warnlen, char *err, size_t errlen);
void compiled_free(struct compiled *c);
/*
 * Add @n file rules on inodes of a device that does not exist, and when
 * @c has rules by path, @n rules by path in directories of it too: they
 * match nothing, and make the rule maps as large as a policy with @n
 * more rules like its own (benchmarks of cost against rule count). 0 or
 * -ENOMEM.
 */
int compiled_add_filler(struct compiled *c, size_t n);

const char *hook_name(unsigned int hook);
const char *class_name(unsigned int class);
/*
 * The classes (a bit per enum lab_class) @p closes: those a deny rule
 * names and, under default: deny, those an allow rule names.
 */
unsigned int policy_closed_classes(const struct policy *p);
/* The rule kinds that need @hook, for messages about hook slots. */
const char *hook_rule_kinds(unsigned int hook);

#endif /* LSMCTL_COMPILE_H */
