// SPDX-License-Identifier: GPL-2.0
/*
 * The global backend: one instance of policy_global.bpf.c for every
 * global policy, pinned in PIN_ROOT/global. Its lsm/ programs run for
 * every task and look the task's cgroup and its ancestors up in the
 * policies map; a hook is attached while some global policy needs it.
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "hook_progs.h"
#include "policy_global.skel.h"

#define GLOBAL_DIR PIN_ROOT "/global"

static void global_path(char *buf, size_t len, const char *what, unsigned int hook)
{
	snprintf(buf, len, GLOBAL_DIR "/%s%s", what, hook < LAB_NR_HOOKS ? hook_name(hook) : "");
}

/* Load and pin the global instance unless it is there; 0 or -1. */
static int global_load(char *err, size_t errlen)
{
	struct policy_global *skel;
	struct bpf_program *progs[LAB_NR_HOOKS];
	char tmp[256], path[PATH_MAX];
	struct stat st;
	unsigned int h;
	int rc = -1;

	if (!stat(GLOBAL_DIR, &st))
		return 0;
	skel = policy_global__open();
	if (!skel)
		return errf(err, errlen, "open the global BPF object: %s", strerror(errno));
	{
		struct bpf_program *table[LAB_NR_HOOKS] = HOOK_PROGS;

		memcpy(progs, table, sizeof(progs));
	}
	if (store_share_events(skel->maps.events, err, errlen))
		goto out;
	if (policy_global__load(skel)) {
		errf(err, errlen, "the kernel refused the global programs (%s)%s", strerror(errno),
		     " - the verifier's log, if any, is above");
		goto out;
	}
	/* pinned under a temporary name, then renamed: there in full or not */
	snprintf(tmp, sizeof(tmp), PIN_ROOT "/tmp-global-%d", getpid());
	if (mkdir(tmp, 0700)) {
		errf(err, errlen, "mkdir %s: %s", tmp, strerror(errno));
		goto out;
	}
	{
		struct bpf_map *maps[] = { skel->maps.confs, skel->maps.file_rules,
					   skel->maps.sock_rules, skel->maps.net_rules,
					   skel->maps.hits, skel->maps.policies,
					   skel->maps.levels, skel->maps.file_bloom };
		size_t i;

		for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", tmp, bpf_map__name(maps[i]));
			if (bpf_map__pin(maps[i], path)) {
				errf(err, errlen, "pin %s: %s", path, strerror(errno));
				goto out;
			}
		}
	}
	for (h = 0; h < LAB_NR_HOOKS; h++) {
		snprintf(path, sizeof(path), "%s/prog-%s", tmp, hook_name(h));
		if (bpf_program__pin(progs[h], path)) {
			errf(err, errlen, "pin %s: %s", path, strerror(errno));
			goto out;
		}
	}
	if (rename(tmp, GLOBAL_DIR)) {
		errf(err, errlen, "rename %s: %s", tmp, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	policy_global__destroy(skel);
	return rc;
}

/* Attach the hooks in @hooks that are not attached yet. */
static int global_attach(__u64 hooks, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned int h;
	int prog, link;

	for (h = 0; h < LAB_NR_HOOKS; h++) {
		if (!(hooks & (1ull << h)))
			continue;
		global_path(path, sizeof(path), "link-", h);
		if (!stat(path, &st))
			continue;
		global_path(path, sizeof(path), "prog-", h);
		prog = bpf_obj_get(path);
		if (prog < 0)
			return errf(err, errlen, "%s: %s", path, strerror(errno));
		link = bpf_raw_tracepoint_open(NULL, prog);
		close(prog);
		if (link < 0)
			return errf(err, errlen, "attach lsm/%s: %s", hook_name(h), strerror(errno));
		global_path(path, sizeof(path), "link-", h);
		if (bpf_obj_pin(link, path)) {
			close(link);
			return errf(err, errlen, "pin %s: %s", path, strerror(errno));
		}
		close(link);
	}
	return 0;
}

/*
 * The levels map (struct lab_levels): @add_level, a cgroup about to be
 * added, before it is (no program may skip it); or, -1, after cgroups
 * went, worked out again from what is left.
 */
static void levels_add(struct lab_levels *l, __u32 level, __u64 cgroup_id,
		       const struct lab_conf *conf)
{
	l->mask |= 1u << level;
	l->filter[level] |= 1ull << (cgroup_id % 64);
	l->any_tree |= conf->file_tree;
	l->any_default_deny |= conf->default_deny;
	if (conf->flags & LAB_SELF_PROTECT)
		l->any_self_protect = 1;
}

static int global_levels(int policies, int add_level, __u64 add_id, const struct lab_conf *add)
{
	struct lab_policy_ref ref;
	struct lab_levels l = { 0 };
	__u64 key, next, *prev = NULL;
	__u32 zero = 0;
	int fd, rc = 0;

	fd = bpf_obj_get(GLOBAL_DIR "/levels");
	if (fd < 0)
		return -1;
	if (add_level >= 0) {
		rc = bpf_map_lookup_elem(fd, &zero, &l);
		levels_add(&l, (__u32)add_level, add_id, add);
	} else {
		while (!bpf_map_get_next_key(policies, prev, &next)) {
			key = next;
			prev = &key;
			if (!bpf_map_lookup_elem(policies, &key, &ref) &&
			    ref.level < LAB_MAX_CGROUP_DEPTH)
				levels_add(&l, ref.level, key, &ref.conf);
		}
	}
	l.first = l.mask ? (__u32)__builtin_ctz(l.mask) : 0;
	if (!rc)
		rc = bpf_map_update_elem(fd, &zero, &l, 0);
	close(fd);
	return rc;
}

int global_install(const char *staging, const struct compiled *c, __u32 policy,
		   __u64 cgroup_id, char *err, size_t errlen)
{
	struct lab_policy_ref ref = {
		.policy = policy, .level = c->conf.cgroup_level, .conf = c->conf,
	};
	struct rule_maps maps;
	char path[PATH_MAX];
	int policies, e, rc = -1;

	(void)staging;	/* the rules live in the global maps, keyed by policy */
	if (global_load(err, errlen))
		return -1;
	if (rule_maps_open(GLOBAL_DIR, &maps))
		return errf(err, errlen, "open the global maps: %s", strerror(errno));
	if (maps.file_bloom < 0) {
		rule_maps_close(&maps);
		return errf(err, errlen, "open " GLOBAL_DIR "/file_bloom: %s", strerror(errno));
	}
	snprintf(path, sizeof(path), GLOBAL_DIR "/policies");
	policies = bpf_obj_get(path);
	if (policies < 0) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	e = rule_maps_fill(&maps, policy, c);
	if (e) {
		errf(err, errlen, "fill the global rule maps: %s", strerror(-e));
		goto out;
	}
	if (global_attach(c->hooks, err, errlen))
		goto out;
	if (global_levels(policies, (int)ref.level, cgroup_id, &c->conf)) {
		errf(err, errlen, "the levels map: %s", strerror(errno));
		goto out;
	}
	/* the switch: from here on the cgroup's tasks see this policy */
	if (bpf_map_update_elem(policies, &cgroup_id, &ref, 0)) {
		errf(err, errlen, "add the cgroup to the policies map: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (policies >= 0)
		close(policies);
	rule_maps_close(&maps);
	return rc;
}

int global_forget(const struct lab_meta *m)
{
	struct lab_policy_ref ref;
	struct rule_maps maps;
	char dir[PATH_MAX];
	struct stored s;
	struct stat st;
	int policies, rc;

	if (stat(GLOBAL_DIR, &st))
		return 0;	/* no global instance: nothing of it left */
	if (rule_maps_open(GLOBAL_DIR, &maps))
		return -1;
	policies = bpf_obj_get(GLOBAL_DIR "/policies");
	if (policies < 0) {
		rule_maps_close(&maps);
		return -1;
	}
	if (policies >= 0 && !bpf_map_lookup_elem(policies, &m->cgroup_id, &ref) &&
	    ref.policy == m->policy) {
		/*
		 * The cgroup still points at this policy: back to the committed
		 * one if that is another global policy (an apply killed after
		 * its switch), else the cgroup leaves the map.
		 */
		policy_dir(m->cgroup_id, dir, sizeof(dir));
		if (!stored_read(dir, &s) && s.meta.backend == BACKEND_GLOBAL &&
		    s.meta.policy != m->policy &&
		    !bpf_map_lookup_elem(maps.confs, &s.meta.policy, &ref.conf)) {
			ref.policy = s.meta.policy;
			/* its levels bits first: a recompute since may have dropped them */
			global_levels(policies, (int)ref.level, m->cgroup_id, &ref.conf);
			bpf_map_update_elem(policies, &m->cgroup_id, &ref, 0);
		} else {
			bpf_map_delete_elem(policies, &m->cgroup_id);
		}
		stored_free(&s);
	}
	/* after a replace too: the old policy's bits go */
	global_levels(policies, -1, 0, NULL);
	close(policies);
	rc = rule_maps_forget(&maps, m->policy);
	rule_maps_close(&maps);
	return rc;
}

void global_gc(void)
{
	struct stored *list;
	char path[PATH_MAX];
	struct stat st;
	__u64 needed = 0;
	unsigned int h;
	int i, n, globals = 0;

	if (stat(GLOBAL_DIR, &st))
		return;
	n = stored_list(&list);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		if (list[i].meta.backend != BACKEND_GLOBAL)
			continue;
		needed |= list[i].meta.hooks;
		globals++;
	}
	stored_list_free(list, n);
	for (h = 0; h < LAB_NR_HOOKS; h++) {
		if (needed & (1ull << h))
			continue;
		global_path(path, sizeof(path), "link-", h);
		unlink(path);	/* the last reference: the hook is detached */
	}
	if (!globals) {
		/* nothing global left: unload it, maps and all */
		const char *names[] = { "confs", "file_rules", "sock_rules", "net_rules",
					"hits", "policies", "levels", "file_bloom" };
		size_t k;

		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			snprintf(path, sizeof(path), GLOBAL_DIR "/%s", names[k]);
			unlink(path);
		}
		for (h = 0; h < LAB_NR_HOOKS; h++) {
			global_path(path, sizeof(path), "prog-", h);
			unlink(path);
		}
		rmdir(GLOBAL_DIR);
	}
}
