/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two ways a policy reaches the kernel (see loader/POLICY.md):
 *
 * cgroup: its own instance of policy_cgroup.bpf.c, lsm_cgroup programs
 *         attached to the policy's cgroup, only for the hooks it needs;
 * global: its rules added to the one policy_global.bpf.c instance, whose
 *         lsm/ programs look each task's cgroups up in a map.
 *
 * install() leaves everything pinned in @staging, or fails having
 * attached nothing that outlives it (teardown(@staging) removes the rest).
 */
#ifndef LSMCTL_BACKEND_H
#define LSMCTL_BACKEND_H

#include <stddef.h>

#include "compile.h"
#include "store.h"

int cgroup_install(const char *staging, const struct compiled *c, __u32 policy, int cgroup_fd,
		   char *err, size_t errlen);
int global_install(const char *staging, const struct compiled *c, __u32 policy,
		   __u64 cgroup_id, char *err, size_t errlen);
/* Drop a global policy's rules, and its cgroup's entry if still its own. */
int global_forget(const struct lab_meta *m);
/* Detach the global hooks no global policy needs; unload when none is left. */
void global_gc(void);

/* The links a policy's programs run through: fds, for stats. */
int policy_links(const struct stored *s, int *fds, unsigned int *hooks, int max);
/* Per-CPU hit counts of a policy's rules: hits[n_rules] and the default's. */
int policy_hits(const struct stored *s, __u64 *hits, __u64 *default_hits);
/* The events a policy's programs had no room for in the ring. */
__u64 policy_lost(const struct stored *s);



/* Shared by the backends (rule_maps.c): the rule maps of one instance. */
struct rule_maps {
	int confs, file_rules, sock_rules, net_rules, hits;
	int file_bloom;		/* global only, else -1: every rule's inode */
};

/* Write a compiled policy's rules into @m under @policy; 0 or -errno. */
int rule_maps_fill(const struct rule_maps *m, __u32 policy, const struct compiled *c);
/* Wait for BPF programs in flight to finish (an RCU grace period). */
int wait_for_bpf_programs(void);
/* Delete every entry of @policy, once no program can still be using it. */
int rule_maps_forget(const struct rule_maps *m, __u32 policy);
/* Open the maps pinned in @dir; 0 or -1. */
int rule_maps_open(const char *dir, struct rule_maps *m);
void rule_maps_close(struct rule_maps *m);
#endif /* LSMCTL_BACKEND_H */
