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
};

/*
 * Parse, compile and apply @file to @cgroup through @backend, replacing
 * its policy atomically; @filler file rules that match nothing added.
 * "applied, but" in @err: the policy is applied, and the guard failed.
 */
int policy_apply(const char *file, const char *cgroup, enum backend backend, size_t filler,
		 struct applied *out, char *err, size_t errlen);
/* Remove the policy on @cgroup; its path below CGROUP_ROOT in @rel. */
int policy_detach(const char *cgroup, char *rel, size_t rellen, char *err, size_t errlen);

#endif /* LSMCTL_APPLY_H */
