/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where applied policies live: pins under /sys/fs/bpf/lsmlab, so that a
 * policy outlives the lsmctl that applied it.
 *
 *   lsmlab/events          the ring buffer every instance reports to
 *   lsmlab/cg-ID/          the policy on the cgroup with id ID:
 *       meta, rules        what list, show, stats and events print
 *       link-HOOK, maps    lsm_cgroup backend: its own instance
 *   lsmlab/global/         global backend: the one instance, its maps
 *                          (every global policy's rules, keyed by policy
 *                          id), prog-HOOK and link-HOOK
 *   lsmlab/new-ID-PID/    a policy being applied by lsmctl PID
 *
 * A policy is built in a new- folder and committed by one rename (an
 * exchange with the old policy's folder when there is one), so a policy
 * is either fully there or not at all; folders left by a killed lsmctl
 * are removed by the next one. Every command that changes pins holds an
 * exclusive flock on lsmlab/.
 */
#ifndef LSMCTL_STORE_H
#define LSMCTL_STORE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "compile.h"

#define BPFFS_ROOT "/sys/fs/bpf"
#define PIN_ROOT BPFFS_ROOT "/lsmlab"
#define CGROUP_ROOT "/sys/fs/cgroup"

enum backend { BACKEND_CGROUP, BACKEND_GLOBAL };

struct lab_meta {
	char name[64];
	char cgroup[256];	/* below CGROUP_ROOT, "/" for the root */
	char file[256];		/* the policy file as given to apply */
	__u64 cgroup_id;
	__u64 applied;		/* seconds since the epoch */
	__u64 hooks;		/* a bit per enum lab_hook */
	__u32 backend;
	__u32 policy;		/* the id its rules have in the maps */
	__u32 flags;		/* LAB_AUDIT, LAB_SELF_PROTECT, LAB_GUARD_SIGNAL */
	__u32 default_deny;	/* classes closed by default: deny */
	__u32 n_rules;
	__u32 pid;		/* the lsmctl that applied it */
	__u32 cgroup_level;	/* the cgroup's depth: the root cgroup is 0 */
	__u32 pad;
};

/* A policy found under PIN_ROOT. */
struct stored {
	char dir[512];
	struct lab_meta meta;
	struct rule_text *rules;	/* meta.n_rules of them */
};

/* Write a message into @err (for the caller to print); returns -1. */
int errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Mount check, folders, the lock, and removal of what a killed lsmctl
 * left. Not @writing (list, show, stats, events), a task that may not
 * lock the folder (a confined one) reads it as it is.
 */
int store_open(bool writing, char *err, size_t errlen);
void store_close(void);
/* The shared events ring buffer (created on first use); an fd or -1. */
int store_events_fd(void);
struct bpf_map;
/* Make @map, an object's events ring, the shared one; 0 or -1. */
int store_share_events(struct bpf_map *map, char *err, size_t errlen);

/* Resolve a cgroup2 folder: its id, depth and path below CGROUP_ROOT. */
int cgroup_resolve(const char *path, __u64 *id, __u32 *level, char *rel, size_t rellen,
		   char *err, size_t errlen);
/* The path below CGROUP_ROOT of the cgroup with @id, or "?" */
const char *cgroup_path_of(__u64 id);

void policy_dir(__u64 cgroup_id, char *buf, size_t len);
/* A pinned map, read-only: all a task under self-protection may have. */
int pin_get_rdonly(const char *path);
/* The sum over CPUs of a per-CPU map's value at @key; 0 when there is none. */
__u64 pin_percpu_sum(const char *path, const void *key);
/* Read a policy folder's meta and rules; 0 or -1. */
int stored_read(const char *dir, struct stored *s);
void stored_free(struct stored *s);
/* All committed policies; returns how many, or -1. Free with stored_list_free. */
int stored_list(struct stored **out);
void stored_list_free(struct stored *list, int n);

/* Pin helpers. */
int pin_meta(const char *dir, const struct lab_meta *m, const struct compiled *c);
/* Remove a policy folder and everything its backend holds for it. */
void teardown(const char *dir);
/* Next free policy id. */
__u32 store_next_policy_id(void);

#endif /* LSMCTL_STORE_H */
