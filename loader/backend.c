// SPDX-License-Identifier: GPL-2.0
/*
 * The backends by enum backend, and what lsmctl reads of a policy the
 * same way for both: its links and counts, in its backend's pin folder.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "backend.h"
#include "errors.h"
#include "instance.h"

static const struct backend_ops *const backends[NR_BACKENDS] = {
	[BACKEND_CGROUP] = &cgroup_backend,
	[BACKEND_GLOBAL] = &global_backend,
};

const struct backend_ops *backend_ops(unsigned int backend)
{
	return backend < NR_BACKENDS ? backends[backend] : &cgroup_backend;
}

int backend_choose(const struct slot_budget *own, const struct slot_budget *all, bool given,
		   enum backend forced, enum backend *out, char *why, size_t len)
{
	int free_slots = own->slots - (own->taken > 0 ? own->taken : 0);
	int new_own = own->needed - own->held, new_all = all->needed - all->held;
	int refusal = all->needed - own->needed;
	bool own_fits = own->slots > 0 && own->fits;
	bool all_fit = own_fits && all->fits &&
		       (new_all <= new_own || new_all + LAB_REFUSAL_SLOTS_SPARE <= free_slots);

	if (given && forced == BACKEND_GLOBAL) {
		*out = BACKEND_GLOBAL;
		return errf(why, len, 0, "global (--backend global)");
	}
	if (given && !own_fits) {
		if (!own->slots)
			return errf(why, len, -ENOSPC, "the cgroup backend cannot take the policy: "
				    "this kernel has no lsm_cgroup hook slots (or no BTF to tell): "
				    "use --backend global, or leave --backend out");
		return errf(why, len, -ENOSPC, "the cgroup backend cannot take the policy: its %d "
			    "hook(s) need %d new lsm_cgroup hook slot(s), and this kernel has %d of "
			    "%d free: use --backend global, or leave --backend out (global is "
			    "chosen then)", own->needed, new_own, free_slots, own->slots);
	}
	if (given) {
		*out = BACKEND_CGROUP;
		return errf(why, len, 0, "cgroup (--backend cgroup): %d hook(s) in %d new hook "
			    "slot(s) of %d free%s", own->needed, new_own, free_slots,
			    all_fit ? "" : "; not every refusal hook fits (apply warns which)");
	}
	if (all_fit) {
		*out = BACKEND_CGROUP;
		return errf(why, len, 0, "cgroup: %d hook(s) (%d of them refusal hooks) fit in %d "
			    "new lsm_cgroup hook slot(s) of %d free", all->needed, refusal, new_all,
			    free_slots);
	}
	*out = BACKEND_GLOBAL;
	if (!own->slots)
		return errf(why, len, 0, "global: this kernel has no lsm_cgroup hook slots (or no "
			    "BTF to tell)");
	if (new_all > new_own)
		return errf(why, len, 0, "global: %d hook(s) (%d of them refusal hooks) would take "
			    "%d new lsm_cgroup hook slot(s) and leave %d spare, and this kernel "
			    "has %d of %d free", all->needed, refusal, new_all,
			    LAB_REFUSAL_SLOTS_SPARE, free_slots, own->slots);
	return errf(why, len, 0, "global: %d hook(s) would take %d new lsm_cgroup hook slot(s), "
		    "and this kernel has %d of %d free", all->needed, new_all, free_slots,
		    own->slots);
}

int backend_pick(__u64 hooks, __u64 refusal, bool given, enum backend forced,
		 enum backend *out, char *why, size_t len)
{
	struct slot_budget own = { 0 }, all = { 0 };

	if (given && forced == BACKEND_GLOBAL)	/* no BTF to read */
		return backend_choose(&own, &all, given, forced, out, why, len);
	probe_slot_budget(hooks, &own);
	probe_slot_budget(hooks | refusal, &all);
	return backend_choose(&own, &all, given, forced, out, why, len);
}

int backend_pick_follow(bool given, enum backend forced, enum backend *out, char *why,
			size_t len)
{
	if (given && forced == BACKEND_CGROUP)
		return errf(why, len, -EINVAL, "--follow needs the global backend: the cgroup "
			    "backend's programs are attached to a cgroup by lsmctl after the "
			    "cgroup is made, and a task could enter a new cgroup at the path "
			    "before: use --backend global, or leave --backend out");
	*out = BACKEND_GLOBAL;
	return errf(why, len, 0, "global (--follow: a BPF program binds each cgroup made at the "
		    "path before a task can enter it)");
}

/* Where @s's hit counts are: the hits map in its backend's pin folder. */
static void hits_path(const struct stored *s, char *buf, size_t len)
{
	char folder[sizeof(s->dir)];

	backend_ops(s->meta.backend)->pin_folder(s, folder, sizeof(folder));
	snprintf(buf, len, "%s/hits", folder);
}

int policy_links(const struct stored *s, int *fds, unsigned int *hooks, int max)
{
	char folder[PATH_MAX], path[PATH_MAX];
	unsigned int h;
	int n = 0;

	backend_ops(s->meta.backend)->pin_folder(s, folder, sizeof(folder));
	for (h = 0; h < LAB_NR_HOOKS && n < max; h++) {
		if (!(s->meta.hooks & (1ull << h)))
			continue;
		hook_pin(path, sizeof(path), folder, PIN_LINK, h);
		fds[n] = bpf_obj_get(path);
		if (fds[n] < 0)
			continue;
		hooks[n++] = h;
	}
	return n;
}

__u64 policy_lost(const struct stored *s)
{
	struct lab_hit_key key = { .policy = s->meta.policy, .rule = LAB_RULE_LOST };
	char path[PATH_MAX];

	hits_path(s, path, sizeof(path));
	return pin_percpu_sum(path, &key);
}

int policy_hits(const struct stored *s, __u64 *hits, __u64 *default_hits)
{
	struct lab_hit_key key, next, *prev = NULL;
	char path[PATH_MAX];
	int ncpus = libbpf_num_possible_cpus(), fd, i;
	__u64 *values;

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	values = calloc(ncpus, sizeof(*values));
	if (!values)
		return -ENOMEM;
	hits_path(s, path, sizeof(path));
	fd = pin_get_rdonly(path);
	*default_hits = 0;
	while (fd >= 0 && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (key.policy != s->meta.policy || bpf_map_lookup_elem(fd, &key, values))
			continue;
		for (i = 0; i < ncpus; i++) {
			if (key.rule == LAB_RULE_DEFAULT)
				*default_hits += values[i];
			else if (key.rule < s->meta.n_rules)
				hits[key.rule] += values[i];
		}
	}
	if (fd >= 0)
		close(fd);
	free(values);
	return 0;
}
