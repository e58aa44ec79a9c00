/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A per-cgroup security policy as lsmctl reads it from YAML (see
 * loader/POLICY.md): a name, a mode, a default, and rules.
 */
#ifndef LSMCTL_POLICY_H
#define LSMCTL_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../bpf-progs/policy/limits.h"
#include "access.h"

#define POLICY_NAME_MAX 64
#define POLICY_PATH_MAX 4096
/*
 * What lsmctl reads of a policy file, bounded before the rules are
 * looked at: at most POLICY_FILE_MAX bytes, one YAML document, at most
 * POLICY_DEPTH_MAX collections nested (a policy needs 4: the top,
 * rules, a rule, a list in it), at most POLICY_EVENTS_MAX YAML events
 * (a rule is some 20: enough for LAB_MAX_RULES of them), and at most
 * POLICY_ERRORS_MAX errors said (then "... and N more errors").
 */
#define POLICY_FILE_MAX (1 << 20)
#define POLICY_DEPTH_MAX 8
#define POLICY_EVENTS_MAX (64 * LAB_MAX_RULES)
#define POLICY_ERRORS_MAX 100

enum rule_kind {
	RULE_FILES,
	RULE_EXEC,
	RULE_NETWORK,
	RULE_PTRACE,
	RULE_MOUNT,
	RULE_MODULE_LOAD,
	RULE_SIGNAL,
	RULE_CAPABILITY,
};

/* File accesses, a bit each (access.h). */
#define ACCESS_FLAG_(E, n)	ACCESS_##E = 1 << ACCESS_INDEX_##E
enum file_access { LAB_ACCESSES(ACCESS_FLAG_, ACCESS_COMMA) };

enum net_op { NET_SOCKET, NET_BIND, NET_CONNECT };

struct policy_rule {
	enum rule_kind kind;
	bool deny;
	unsigned int line, col;		/* where the rule starts, for messages */
	union {
		struct {		/* files, exec */
			char path[POLICY_PATH_MAX];
			bool subtree;	/* written DIR/ followed by two stars */
			bool glob;	/* a '*' within the last component */
			bool mglob;	/* a '*' component before the last, or before a final two stars */
			bool by_inode;	/* match: inode, the file at apply only */
			unsigned int access;
		} file;
		struct {
			enum net_op op;
			int family;	/* AF_*, 0 for any */
			int type;	/* SOCK_*, 0 for any */
			int protocol;	/* IPPROTO_*, 0 for any */
			uint8_t addr[16];	/* IPv4 in the first 4 bytes */
			int prefix;	/* -1: any address */
			uint16_t port_min, port_max;
		} net;
		uint64_t caps;		/* capability: a bit per CAP_* */
	};
};

/*
 * closed: the classes a policy closes though no rule of it allows any
 * (lsmctl learn's drafts close what the run never used), a bit each in
 * the engine's class order: the file accesses (access.h), then these.
 */
enum closed_class {
	CLOSED_SOCKET = N_ACCESS,
	CLOSED_BIND,
	CLOSED_CONNECT,
	CLOSED_CAPABILITY,
	N_CLOSED
};
/* "read, ..., unlink, socket, bind, connect, capability", for messages */
#define CLOSED_NAMES_TEXT	ACCESS_NAMES_TEXT ", socket, bind, connect, capability"
/* A closed class's name, by its bit number (< N_CLOSED). */
const char *policy_closed_name(unsigned int bit);

struct policy {
	char name[POLICY_NAME_MAX];
	bool audit;			/* mode: audit reports, denies nothing */
	bool default_deny;		/* default: deny (allow-list policies) */
	bool no_self_protection;	/* self_protection: off */
	unsigned int closed;		/* closed: a bit per enum closed_class */
	size_t n_rules;
	struct policy_rule *rules;
};

/*
 * Parse the policy in @path into @p. On error, returns -1 and writes
 * "PATH:LINE:COL: what is wrong" into @err, for every error, one a line,
 * as many as @errlen holds; @p is then empty.
 */
int policy_parse_file(const char *path, struct policy *p, char *err, size_t errlen);
/* The same, from a buffer; @name stands for the file in messages. */
int policy_parse(const char *name, const char *buf, size_t len, struct policy *p,
		 char *err, size_t errlen);
void policy_free(struct policy *p);

const char *rule_kind_name(enum rule_kind kind);
/* Values as a policy writes them: an AF_*, a SOCK_*, a CAP_* number; NULL for none. */
const char *policy_family_name(int family);
const char *policy_type_name(int type);
const char *policy_cap_name(unsigned int cap);

#endif /* LSMCTL_POLICY_H */
