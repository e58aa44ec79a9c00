// SPDX-License-Identifier: GPL-2.0
/*
 * The lsm_cgroup backend: one instance of policy_cgroup.bpf.c a policy,
 * attached to its cgroup for just the hooks its rules need.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "hook_progs.h"
#include "policy_cgroup.skel.h"

/* The hooks a policy needs, named, for messages about hook slots. */
static void hook_list(__u64 hooks, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int h;

	buf[0] = 0;
	for (h = 0; h < LAB_NR_HOOKS && n < len; h++)
		if (hooks & (1ull << h))
			n += snprintf(buf + n, len - n, "%s%s (%s)", n ? ", " : "", hook_name(h),
				      hook_rule_kinds(h));
}

int cgroup_install(const char *staging, const struct compiled *c, __u32 policy, int cgroup_fd,
		   char *err, size_t errlen)
{
	struct policy_cgroup *skel = policy_cgroup__open();
	struct bpf_program *progs[LAB_NR_HOOKS];
	struct rule_maps maps;
	struct bpf_link *link;
	char path[PATH_MAX], hooks[1024];
	unsigned int h;
	int rc = -1, e;

	if (!skel)
		return errf(err, errlen, "open the lsm_cgroup BPF object: %s", strerror(errno));
	{
		struct bpf_program *table[LAB_NR_HOOKS] = HOOK_PROGS;

		memcpy(progs, table, sizeof(progs));
	}
	skel->rodata->lab_policy = policy;
	memcpy((void *)&skel->rodata->lab_conf, &c->conf, sizeof(c->conf));
	/*
	 * This instance holds one policy: size its maps to it. A hash map's
	 * buckets are allocated up front even without preallocation, and
	 * the engine's default of 2M file rules would cost 32 MiB a policy.
	 */
	bpf_map__set_max_entries(skel->maps.confs, 1);
	bpf_map__set_max_entries(skel->maps.file_rules, c->n_files ? c->n_files : 1);
	bpf_map__set_max_entries(skel->maps.sock_rules, c->n_socks ? c->n_socks : 1);
	bpf_map__set_max_entries(skel->maps.net_rules, c->n_nets ? c->n_nets : 1);
	bpf_map__set_max_entries(skel->maps.hits, c->n_rules + 3);	/* + default, self, lost */
	for (h = 0; h < LAB_NR_HOOKS; h++)
		bpf_program__set_autoload(progs[h], !!(c->hooks & (1ull << h)));
	if (store_share_events(skel->maps.events, err, errlen))
		goto out;
	if (policy_cgroup__load(skel)) {
		errf(err, errlen, "the kernel refused the policy's programs (%s)%s", strerror(errno),
		     " - the verifier's log, if any, is above");
		goto out;
	}
	maps.confs = bpf_map__fd(skel->maps.confs);
	maps.file_rules = bpf_map__fd(skel->maps.file_rules);
	maps.sock_rules = bpf_map__fd(skel->maps.sock_rules);
	maps.net_rules = bpf_map__fd(skel->maps.net_rules);
	maps.hits = bpf_map__fd(skel->maps.hits);
	maps.file_bloom = -1;
	e = rule_maps_fill(&maps, policy, c);
	if (e) {
		errf(err, errlen, "fill the rule maps: %s", strerror(-e));
		goto out;
	}
	{
		struct bpf_map *pinned[] = { skel->maps.confs, skel->maps.file_rules,
					     skel->maps.sock_rules, skel->maps.net_rules,
					     skel->maps.hits };
		size_t i;

		for (i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", staging, bpf_map__name(pinned[i]));
			if (bpf_map__pin(pinned[i], path)) {
				errf(err, errlen, "pin %s: %s", path, strerror(errno));
				goto out;
			}
		}
	}
	for (h = 0; h < LAB_NR_HOOKS; h++) {
		if (!(c->hooks & (1ull << h)))
			continue;
		link = bpf_program__attach_cgroup(progs[h], cgroup_fd);
		if (!link) {
			e = errno;
			hook_list(c->hooks, hooks, sizeof(hooks));
			errf(err, errlen,
			     "attach lsm_cgroup/%s: %s. Every hook an lsm_cgroup program uses takes "
			     "one of the kernel's hook slots, system-wide (10 on stock 6.1, "
			     "CONFIG_BPF_LSM_CGROUP_HOOKS with the lab's series), and none may be "
			     "left: this policy needs %d hook(s): %s",
			     hook_name(h), strerror(e), __builtin_popcountll(c->hooks), hooks);
			goto out;
		}
		snprintf(path, sizeof(path), "%s/link-%s", staging, hook_name(h));
		e = bpf_link__pin(link, path) ? errno : 0;
		bpf_link__disconnect(link);	/* the pin holds it now */
		if (e) {
			bpf_link__destroy(link);
			errf(err, errlen, "pin %s: %s", path, strerror(e));
			goto out;
		}
		bpf_link__destroy(link);
	}
	rc = 0;
out:
	policy_cgroup__destroy(skel);
	return rc;
}

int policy_links(const struct stored *s, int *fds, unsigned int *hooks, int max)
{
	char path[PATH_MAX];
	unsigned int h;
	int n = 0;

	for (h = 0; h < LAB_NR_HOOKS && n < max; h++) {
		if (!(s->meta.hooks & (1ull << h)))
			continue;
		if (s->meta.backend == BACKEND_GLOBAL)
			snprintf(path, sizeof(path), PIN_ROOT "/global/link-%s", hook_name(h));
		else
			snprintf(path, sizeof(path), "%s/link-%s", s->dir, hook_name(h));
		fds[n] = bpf_obj_get(path);
		if (fds[n] < 0)
			continue;
		hooks[n++] = h;
	}
	return n;
}

/* Where the hits map a policy's counts are in is pinned. */
static void hits_path(const struct stored *s, char *path, size_t len)
{
	if (s->meta.backend == BACKEND_GLOBAL)
		snprintf(path, len, PIN_ROOT "/global/hits");
	else
		snprintf(path, len, "%s/hits", s->dir);
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
		return -1;
	values = calloc(ncpus, sizeof(*values));
	if (!values)
		return -1;
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
