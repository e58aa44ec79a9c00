/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cgroup subtrees, for the engine and the guard: whether a cgroup or a
 * task is in a policy's subtree, and the levels a set of policies is on.
 */
#ifndef LSMLAB_SUBTREE_BPF_H
#define LSMLAB_SUBTREE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"

/* @cg's ancestor at @level (@cg itself at its own level), or NULL below @cg. */
static __always_inline struct cgroup *cgroup_ancestor(struct cgroup *cg, __u32 level)
{
	struct cgroup *anc = NULL;

	if ((int)level > BPF_CORE_READ(cg, level))
		return NULL;
	bpf_probe_read_kernel(&anc, sizeof(anc), &cg->ancestors[level & (LAB_MAX_CGROUP_DEPTH - 1)]);
	return anc;
}

/* Is @cg the cgroup with @id at @level, or below it? */
static __always_inline int cgroup_below(__u64 id, __u32 level, struct cgroup *cg)
{
	struct cgroup *anc = NULL;

	level &= LAB_MAX_CGROUP_DEPTH - 1;
	if (!cg || BPF_CORE_READ(cg, level) < (int)level)
		return 0;
	bpf_probe_read_kernel(&anc, sizeof(anc), &cg->ancestors[level]);
	return anc && BPF_CORE_READ(anc, kn, id) == id;
}

static __always_inline int task_below(__u64 id, __u32 level, struct task_struct *task)
{
	return cgroup_below(id, level, BPF_CORE_READ(task, cgroups, dfl_cgrp));
}

#define LAB_WALK_STOP	(~0ULL)

/*
 * A walk up the current task's cgroups, for a set of cgroups on the
 * levels in @mask with a 64-bit filter of their ids a level (@filter,
 * bit id % 64): the id of the task's ancestor at @level when it may be
 * one of the set, 0 when it is not, LAB_WALK_STOP past the task's own
 * cgroup or the last level.
 */
static __always_inline __u64 ancestor_on(__u32 mask, const __u64 *filter, __u32 level)
{
	__u64 id;

	if (level >= LAB_MAX_CGROUP_DEPTH)
		return LAB_WALK_STOP;
	if (!((mask >> level) & 1))
		return 0;
	id = bpf_get_current_ancestor_cgroup_id(level);
	if (!id)
		return LAB_WALK_STOP;
	barrier_var(level);	/* and a mask clang cannot drop: the verifier wants a bound */
	if (!((filter[level & (LAB_MAX_CGROUP_DEPTH - 1)] >> (id & 63)) & 1))
		return 0;
	return id;
}

/* The number of bits up to the highest set one: fls() (clang's BPF target has no ctlz). */
static __always_inline __u32 fls32(__u32 x)
{
	__u32 n = 0;

	if (x >> 16) {
		x >>= 16;
		n += 16;
	}
	if (x >> 8) {
		x >>= 8;
		n += 8;
	}
	if (x >> 4) {
		x >>= 4;
		n += 4;
	}
	if (x >> 2) {
		x >>= 2;
		n += 2;
	}
	return n + (x >> 1 ? 2 : x);	/* x is 0..3 here */
}

#endif /* LSMLAB_SUBTREE_BPF_H */
