/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two ways a policy reaches the kernel (see loader/POLICY.md), each
 * one table of operations:
 *
 * cgroup: its own instance of policy_cgroup.bpf.c, lsm_cgroup programs
 *         attached to the policy's cgroup, only for the hooks it needs,
 *         all pinned in the policy's folder;
 * global: its rules added to the one policy_global.bpf.c instance, whose
 *         lsm/ programs look each task's cgroups up in a map, pinned in
 *         a folder of its own.
 *
 * The pin store (store.h) knows no backend; apply.c drives them.
 */
#ifndef LSMCTL_BACKEND_H
#define LSMCTL_BACKEND_H

#include <stddef.h>

#include "compile.h"
#include "probe.h"
#include "store.h"

enum backend { BACKEND_CGROUP, BACKEND_GLOBAL, NR_BACKENDS };

struct backend_ops {
	const char *name;	/* as lsmctl prints it */
	/*
	 * Enforce @c on the cgroup @cgroup_fd (c->conf has its id and
	 * level) as the policy @m (its id, path, follow): 0, everything pinned in @staging
	 * or in the backend's own folder; or -errno with why in @err,
	 * having attached nothing that outlives it (its teardown removes
	 * the rest).
	 */
	int (*install)(const char *staging, const struct compiled *c, const struct lab_meta *m,
		       int cgroup_fd, char *err, size_t errlen);
	/*
	 * Drop what the backend holds for policy @m outside m's folder;
	 * @committed is the policy committed on m's cgroup when it is
	 * another of this backend's, else NULL. 0 or -errno. NULL: none.
	 */
	int (*forget)(const struct lab_meta *m, const struct lab_meta *committed);
	/*
	 * Let go of what its committed policies no longer need: @hooks,
	 * the hooks they need, @policies, how many there are. NULL: none.
	 */
	void (*gc)(__u64 hooks, unsigned int policies);
	/* The folder that holds @s's links (link-HOOK) and its hits map. */
	void (*pin_folder)(const struct stored *s, char *buf, size_t len);
	/* Set used[id] for each policy id it still holds rules under. NULL: none. */
	void (*held_ids)(unsigned char *used, size_t n);
};

extern const struct backend_ops cgroup_backend, global_backend;

/*
 * A global policy @m that follows its path (apply --follow) and whose
 * cgroup m->cgroup_id is gone: the cgroup lab_follow_mkdir() bound it to
 * since, in @bound (0: none yet, the policy waits for its path); the
 * policies map's entries of its cgroups that are gone are dropped. 0 or -errno.
 */
int global_follow_bound(const struct lab_meta *m, __u64 *bound);

/* The operations of enum backend @backend; the cgroup backend's for an unknown one. */
const struct backend_ops *backend_ops(unsigned int backend);

/*
 * The backend a policy goes through, by the one rule learn, check, diff,
 * apply and run share: @own the hook slots its own hooks take, @all
 * those and its refusal hooks (struct compiled's guard_hooks). Without
 * @given: the cgroup backend when all of them fit in the kernel's free
 * lsm_cgroup slots and the new refusal ones leave LAB_REFUSAL_SLOTS_SPARE
 * free (backend_cgroup.c's attach_guards()), else global. With @given,
 * @forced; the cgroup backend forced where its own hooks do not fit is
 * refused. 0 with the backend in @out and why in @why, or -ENOSPC with
 * why and the option that works in @why. Probes nothing: a unit test
 * runs it over a table of slot counts.
 */
int backend_choose(const struct slot_budget *own, const struct slot_budget *all, bool given,
		   enum backend forced, enum backend *out, char *why, size_t len);
/*
 * backend_choose() for a policy of @hooks and refusal hooks @refusal on
 * the running kernel, its slot budgets read by probe_slot_budget().
 */
int backend_pick(__u64 hooks, __u64 refusal, bool given, enum backend forced,
		 enum backend *out, char *why, size_t len);
/*
 * backend_pick() for a policy that follows its cgroup path (apply
 * --follow): global, the one backend that can (the cgroup backend would
 * need lsmctl to attach to each cgroup made at the path, after it is
 * made: a window); --backend cgroup is refused, -EINVAL with why.
 */
int backend_pick_follow(bool given, enum backend forced, enum backend *out, char *why,
			size_t len);

/* The links a policy's programs run through: fds, for stats. */
int policy_links(const struct stored *s, int *fds, unsigned int *hooks, int max);
/* Per-CPU hit counts of a policy's rules: hits[n_rules] and the default's; 0 or -errno. */
int policy_hits(const struct stored *s, __u64 *hits, __u64 *default_hits);
/* The events a policy's programs had no room for in the ring. */
__u64 policy_lost(const struct stored *s);

#endif /* LSMCTL_BACKEND_H */
