/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policies on cgroups, on top of the pin store, the backends and the
 * guard: applying one, detaching one, and finishing what a killed
 * lsmctl left. Each returns 0, or -errno with why in @err having left
 * everything as it was (but where it says otherwise).
 */
#ifndef LSMCTL_APPLY_H
#define LSMCTL_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "store.h"
#include "warnings.h"

/*
 * Open the store, and when this lsmctl could lock it, finish or undo
 * what a killed lsmctl left, so that what is listed is what is enforced.
 * store_close() closes it.
 */
int policies_open(bool writing, char *err, size_t errlen);

/* What lsmctl says of a policy it applied. */
struct applied {
	char name[POLICY_NAME_MAX];
	char cgroup[META_PATH_MAX];	/* below CGROUP_ROOT */
	bool audit;
	size_t n_rules;
	__u64 hooks;
	__u64 refusal_hooks;		/* besides @hooks (struct compiled's guard_hooks) */
	enum backend backend;		/* the one backend_pick() chose */
	bool follow;			/* --follow: the path's next cgroups too */
	char warnings[POLICY_WARNINGS_MAX];	/* policy_warnings(), one a line */
};

/* How a policy file is taken: through which backend, in which mode. */
struct apply_opts {
	enum backend backend;
	bool backend_given;	/* --backend: @backend, else backend_pick()'s choice */
	size_t filler;		/* file rules that match nothing, for benchmarks */
	int audit;		/* -1: the file's mode; 0: enforce; 1: audit */
	bool follow;		/* --follow: to each cgroup made at the path, too (global) */
	bool learning;		/* lsmctl learn's: removed once that lsmctl is gone */
	/* what messages, list and show call the file (NULL: its path): not a temporary one */
	const char *origin;
	/*
	 * Through the broker, for the guarded cgroup with this id (0: not):
	 * a policy on the cgroup must have come the same way, and the
	 * LAB_BROKER_* limits hold.
	 */
	__u64 delegated_by;
};

/*
 * Parse, compile and apply @file to @cgroup as @o says, replacing its
 * policy atomically. "applied, but" in @err: the policy is applied, and
 * the guard failed. -ENOPKG: BPF LSM is not active in this kernel.
 */
int policy_apply(const char *file, const char *cgroup, const struct apply_opts *o,
		 struct applied *out, char *err, size_t errlen);

/* A policy file against the policy applied on a cgroup, rule by rule. */
struct policy_diff {
	char name[POLICY_NAME_MAX];	/* the file's */
	char cgroup[META_PATH_MAX];	/* below CGROUP_ROOT */
	bool audit;			/* the file's mode, or the one @o gave */
	struct compiled c;		/* the file, compiled as apply would */
	enum backend backend;		/* the backend apply would choose */
	int backend_rc;			/* 0, or -ENOSPC: apply would refuse the forced one */
	char backend_why[512];		/* backend_pick()'s why */
	bool applied;			/* is a policy applied on the cgroup? */
	struct stored s;		/* that policy, when there is one */
	bool *in_applied;		/* a flag per rule of @c: also applied */
	bool *in_file;			/* a flag per rule of @s: also in the file */
	char warnings[POLICY_WARNINGS_MAX];	/* the file's policy_warnings() */
};

/* Compile @file as apply would and compare it with @cgroup's policy; nothing changes. */
int policy_diff(const char *file, const char *cgroup, const struct apply_opts *o,
		struct policy_diff *d, char *err, size_t errlen);
void policy_diff_free(struct policy_diff *d);
/*
 * Remove the policy on @cgroup; its path below CGROUP_ROOT in @rel.
 * @delegated_by nonzero (the broker's): only a policy applied through the
 * broker for that guarded cgroup.
 */
int policy_detach(const char *cgroup, __u64 delegated_by, char *rel, size_t rellen, char *err,
		  size_t errlen);

#endif /* LSMCTL_APPLY_H */
