/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where applied policies live: pins under /sys/fs/bpf/lsmlab, so that a
 * policy outlives the lsmctl that applied it. The store knows folders,
 * a policy's meta and rules, and the lock; what a backend pins in them
 * is the backend's (backend.h).
 *
 *   lsmlab/events/         the events journal every instance reports to:
 *       journal, head          its slots and its count (engine.h)
 *       drafts                 the events being written, a CPU's each
 *       generation             the last policy generation given (lab_meta)
 *       policy-GEN/            meta and rules of a policy replaced or
 *                              detached: its events name it as it was
 *   lsmlab/cg-ID/          the policy on the cgroup with id ID:
 *       meta, rules        what list, show, stats and events print
 *       ...                what its backend pins for it
 *   lsmlab/new-ID-PID/     a policy being applied by lsmctl PID
 *   lsmlab/old-WHAT-PID/   what lsmctl PID is removing
 *   lsmlab/tmp-WHAT-PID/   an instance lsmctl PID is building
 *   lsmlab/WHAT/           an instance shared by policies (global, guard)
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

/* The folders of PIN_ROOT that hold a lsmctl's work in progress: KIND-WHAT-PID. */
#define STORE_NEW "new"		/* a policy being applied */
#define STORE_OLD "old"		/* a policy, or an instance, being removed */
#define STORE_TMP "tmp"		/* an instance being built, never committed */

#define META_PATH_MAX 256

struct lab_meta {
	char name[POLICY_NAME_MAX];
	char cgroup[META_PATH_MAX];	/* below CGROUP_ROOT, "/" for the root */
	char file[META_PATH_MAX];	/* the policy file as given to apply */
	__u64 cgroup_id;
	__u64 applied;		/* seconds since the epoch */
	__u64 hooks;		/* a bit per enum lab_hook */
	__u32 backend;		/* enum backend */
	__u32 policy;		/* the id its rules have in the maps */
	__u32 flags;		/* LAB_AUDIT, LAB_SELF_PROTECT, LAB_GUARD_SIGNAL */
	__u32 default_deny;	/* classes closed by default: deny */
	__u32 n_rules;
	__u32 pid;		/* the lsmctl that applied it */
	__u32 cgroup_level;	/* the cgroup's depth: the root cgroup is 0 */
	__u32 closed;		/* policy_closed_classes(): for show's warnings */
	__u32 deny_by_default;	/* the policy's default: deny */
	__u32 follow;		/* apply --follow: goes to each cgroup made at @cgroup */
	__u32 generation;	/* one an apply: lab_conf's, its events' */
	__u32 learning;		/* lsmctl learn's (@pid's): removed once @pid is gone */
	__u64 pid_start;	/* @pid's start (task_start()): another task given @pid has another */
	__u64 delegated_by;	/* applied through the broker from this guarded cgroup (its id), or 0 */
};

/* A policy found under PIN_ROOT. */
struct stored {
	char dir[512];
	struct lab_meta meta;
	struct rule_text *rules;	/* meta.n_rules of them */
};

/*
 * Mount check, folders and the lock; 0 or -errno. Not @writing (list,
 * show, stats, events), a task that may not lock the folder (a confined
 * one) reads it as it is, unlocked.
 */
int store_open(bool writing, char *err, size_t errlen);
/* Does this lsmctl hold the lock: may it change pins? */
bool store_locked(void);
void store_close(void);
/*
 * The events journal's maps (made on first use): their fds in @slots and
 * @head, read-only unless @writing; 0 or -errno.
 */
int store_journal(bool writing, int *slots, int *head);
struct bpf_map;
struct bpf_object;
/* Have an object's events maps be the store's (before it is loaded); 0 or -errno. */
int store_share_journal(struct bpf_map *slots, struct bpf_map *head, struct bpf_map *drafts,
			char *err, size_t errlen);
/*
 * A new policy generation (lab_meta.generation), the lock held; 0 with
 * why in @err when there is none.
 */
__u32 store_next_generation(char *err, size_t errlen);
/*
 * The meta and rules of the policy of generation @generation: the
 * applied one of @cgroup_id if it is that generation, or one kept when
 * it was replaced or detached (LAB_EVENT_HISTORY of them); 0 or -errno.
 */
int stored_read_generation(__u64 cgroup_id, __u32 generation, struct stored *s);

/*
 * Load @obj and pin the maps its object marks for pinning in @dir, a
 * folder this lsmctl made: every one of them created by this load.
 * libbpf's own pinning would reuse a compatible map found at a marked
 * map's path, and a map planted in @dir between its mkdir and the load
 * would become the instance's; here a name taken in @dir fails the
 * pin (EEXIST) instead. @what names the programs in a message; 0 or
 * -errno.
 */
int store_load(struct bpf_object *obj, const char *dir, const char *what, char *err,
	       size_t errlen);
/* store_load() into @tmp, a STORE_TMP folder for a shared instance, made here. */
int store_load_shared(struct bpf_object *obj, const char *tmp, const char *what, char *err,
		      size_t errlen);

/* The folder of the policy on the cgroup with id @cgroup_id. */
void policy_dir(__u64 cgroup_id, char *buf, size_t len);
/* This lsmctl's folder PIN_ROOT/KIND-WHAT-PID (KIND: STORE_NEW...). */
void store_pid_dir(char *buf, size_t len, const char *kind, const char *what);
/* Pin a policy's meta and rules in @dir; 0 or -errno. */
int pin_meta(const char *dir, const struct lab_meta *m, const struct compiled *c);
/* A pinned map, read-only: all a task under self-protection may have; an fd or -errno. */
int pin_get_rdonly(const char *path);
/* The sum over CPUs of a per-CPU map's value at @key; 0 when there is none. */
__u64 pin_percpu_sum(const char *path, const void *key);

/* Read a policy folder's meta and rules; 0 or -errno. */
int stored_read(const char *dir, struct stored *s);
void stored_free(struct stored *s);
/* All committed policies; returns how many, or -errno. Free with stored_list_free. */
int stored_list(struct stored **out);
void stored_list_free(struct stored *list, int n);

/*
 * The policy in @dir when the folder is of lsmctl's making (a folder,
 * and no link, with meta and rules pinned, no links either); 0 or -errno.
 */
int store_read_own(const char *dir, struct stored *s);
/*
 * What killed lsmctls left: removes the folders that hold no policy
 * (half-built instances, half-removed folders) and returns, as
 * stored_list() does, the policies in new- and old- folders, which only
 * their backends can tear down. Nothing when the store is not locked.
 */
int store_leftovers(struct stored **out);
/* Does a committed folder other than @dir hold policy id @policy? */
bool store_committed_elsewhere(const char *dir, __u32 policy);
/* Set used[id] for the policy id of every folder, committed or not. */
void store_used_ids(unsigned char *used, size_t n);
/* Keep @s's meta and rules for its events (locked only): see stored_read_generation(). */
void store_keep(const struct stored *s);
/* Remove the folder @dir of PIN_ROOT and every pin in it (locked only). */
void store_remove(const char *dir);

#endif /* LSMCTL_STORE_H */
