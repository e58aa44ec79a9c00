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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "cgroup.h"
#include "errors.h"
#include "instance.h"
#include "policy_global.skel.h"

#define GLOBAL_NAME "global"
#define GLOBAL_DIR PIN_ROOT "/" GLOBAL_NAME
/* lab_follow_mkdir(), on the cgroup_mkdir tracepoint whenever the instance is loaded */
#define FOLLOW_LINK "link-cgroup_mkdir"

/* The global object, its pinned maps at home in @dir (store_load(), open_pinned_maps()). */
static struct policy_global *global_open(const char *dir)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = dir);

	return policy_global__open_opts(&opts);
}

/* The loaded instance, its maps opened from their pins; NULL with errno set. */
static struct policy_global *global_pinned(void)
{
	struct policy_global *skel = global_open(GLOBAL_DIR);
	int rc;

	if (!skel)
		return NULL;
	rc = open_pinned_maps(skel->obj);
	if (rc) {
		policy_global__destroy(skel);
		errno = -rc;
		return NULL;
	}
	return skel;
}

/*
 * Attach lab_follow_mkdir() and pin its link in @dir: it runs while the
 * instance is loaded (one string read and one lookup a mkdir), so that a
 * policy that follows a path needs no attach of its own. 0 or -errno.
 */
static int follow_attach(struct policy_global *skel, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + sizeof(FOLLOW_LINK)];
	int link;

	link = bpf_raw_tracepoint_open(NULL, bpf_program__fd(skel->progs.lab_follow_mkdir));
	if (link < 0)
		return errf(err, errlen, -errno, "attach tp_btf/cgroup_mkdir: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/" FOLLOW_LINK, dir);
	if (bpf_obj_pin(link, path)) {
		close(link);
		return errf(err, errlen, -errno, "pin %s: %s", path, strerror(errno));
	}
	close(link);
	return 0;
}

/* Load and pin the global instance unless it is there; 0 or -errno. */
static int global_load(char *err, size_t errlen)
{
	struct bpf_program *progs[LAB_NR_HOOKS];
	struct policy_global *skel;
	char tmp[PATH_MAX], path[PATH_MAX];
	struct stat st;
	unsigned int h;
	int rc;

	if (!stat(GLOBAL_DIR, &st))
		return 0;
	/* pinned under a temporary name, then renamed: there in full or not */
	store_pid_dir(tmp, sizeof(tmp), STORE_TMP, GLOBAL_NAME);
	skel = global_open(tmp);
	if (!skel)
		return errf(err, errlen, -errno, "open the global BPF object: %s", strerror(errno));
	rc = instance_programs(skel->obj, progs, err, errlen);
	if (!rc)
		rc = store_share_journal(skel->maps.journal, skel->maps.journal_head,
					 skel->maps.journal_drafts, err, errlen);
	if (!rc)
		rc = store_load_shared(skel->obj, tmp, "the global programs", err, errlen);
	for (h = 0; h < LAB_NR_HOOKS && !rc; h++) {
		hook_pin(path, sizeof(path), tmp, PIN_PROG, h);
		if (bpf_program__pin(progs[h], path))
			rc = errf(err, errlen, -errno, "pin %s: %s", path, strerror(errno));
	}
	if (!rc)
		rc = follow_attach(skel, tmp, err, errlen);
	if (!rc && rename(tmp, GLOBAL_DIR))
		rc = errf(err, errlen, -errno, "rename %s: %s", tmp, strerror(errno));
	if (rc)
		store_remove(tmp);	/* never committed: nothing of it stays */
	policy_global__destroy(skel);
	return rc;
}

/* Attach the hooks in @hooks that are not attached yet; 0 or -errno. */
static int global_attach(__u64 hooks, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned int h;
	int prog, link;

	for (h = 0; h < LAB_NR_HOOKS; h++) {
		if (!(hooks & (1ull << h)))
			continue;
		hook_pin(path, sizeof(path), GLOBAL_DIR, PIN_LINK, h);
		if (!stat(path, &st))
			continue;
		hook_pin(path, sizeof(path), GLOBAL_DIR, PIN_PROG, h);
		prog = bpf_obj_get(path);
		if (prog < 0)
			return errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
		link = bpf_raw_tracepoint_open(NULL, prog);
		close(prog);
		if (link < 0)
			return errf(err, errlen, -errno, "attach lsm/%s: %s", hook_name(h),
				    strerror(errno));
		hook_pin(path, sizeof(path), GLOBAL_DIR, PIN_LINK, h);
		if (bpf_obj_pin(link, path)) {
			close(link);
			return errf(err, errlen, -errno, "pin %s: %s", path, strerror(errno));
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
		       const struct lab_conf *conf, bool follow)
{
	l->mask |= 1u << level;
	/*
	 * A followed path's level: every bit, for the cgroups lab_follow_mkdir()
	 * adds (its id unknown until it is made): that program writes no bit,
	 * so none of lsmctl's updates can drop one of its.
	 */
	l->filter[level] |= follow ? ~0ull : 1ull << (cgroup_id % 64);
	/* a '*' middle component's anchor is above the file: a climb, as a subtree's */
	l->any_tree |= conf->file_tree | conf->file_mglob;
	l->any_path |= conf->file_path | conf->file_glob;
	l->any_default_deny |= conf->default_deny;
	if (conf->flags & LAB_SELF_PROTECT)
		l->any_self_protect = 1;
}

static int global_levels(const struct policy_global *skel, int add_level, __u64 add_id,
			 const struct lab_conf *add, bool follow)
{
	int policies = bpf_map__fd(skel->maps.policies), levels = bpf_map__fd(skel->maps.levels);
	int follows = bpf_map__fd(skel->maps.follows);
	struct lab_follow_key fkey, fnext, *fprev = NULL;
	struct lab_policy_ref ref;
	struct lab_levels l = { 0 };
	__u64 key, next, *prev = NULL;
	__u32 zero = 0;

	if (add_level >= 0) {
		if (bpf_map_lookup_elem(levels, &zero, &l))
			return -errno;
		levels_add(&l, (__u32)add_level, add_id, add, follow);
	} else {
		while (!bpf_map_get_next_key(policies, prev, &next)) {
			key = next;
			prev = &key;
			if (!bpf_map_lookup_elem(policies, &key, &ref) &&
			    ref.level < LAB_MAX_CGROUP_DEPTH)
				levels_add(&l, ref.level, key, &ref.conf, false);
		}
		/* the followed paths' levels, whole (levels_add()) */
		while (!bpf_map_get_next_key(follows, fprev, &fnext)) {
			fkey = fnext;
			fprev = &fkey;
			if (!bpf_map_lookup_elem(follows, &fkey, &ref) &&
			    ref.level < LAB_MAX_CGROUP_DEPTH)
				levels_add(&l, ref.level, 0, &ref.conf, true);
		}
	}
	l.first = l.mask ? (__u32)__builtin_ctz(l.mask) : 0;
	return bpf_map_update_elem(levels, &zero, &l, 0) ? -errno : 0;
}

/* The follows map's key for the cgroup path @rel; -ENAMETOOLONG when it is too long. */
static int follow_key(const char *rel, struct lab_follow_key *key)
{
	memset(key, 0, sizeof(*key));
	if (strlen(rel) > LAB_FOLLOW_PATH_LEN - 2)
		return -ENAMETOOLONG;
	memcpy(key->path, rel, strlen(rel));
	return 0;
}

static int global_install(const char *staging, const struct compiled *c,
			  const struct lab_meta *m, int cgroup_fd, char *err, size_t errlen)
{
	__u32 policy = m->policy;
	struct lab_policy_ref ref = {
		.policy = policy, .level = c->conf.cgroup_level, .conf = c->conf,
	};
	struct lab_follow_key fkey;
	__u64 cgroup_id = c->conf.cgroup_id;
	struct policy_global *skel;
	struct rule_maps maps;
	int rc;

	(void)staging;	/* the rules live in the global maps, keyed by policy */
	(void)cgroup_fd;	/* the programs find the cgroup by its id */
	rc = global_load(err, errlen);
	if (rc)
		return rc;
	skel = global_pinned();
	if (!skel)
		return errf(err, errlen, -errno, "open the global maps: %s", strerror(errno));
	maps = (struct rule_maps)RULE_MAPS_OF(skel);
	maps.file_bloom = bpf_map__fd(skel->maps.file_bloom);
	rc = rule_maps_fill(&maps, policy, c);
	if (rc) {
		errf(err, errlen, rc, "fill the global rule maps: %s", strerror(-rc));
		goto out;
	}
	rc = global_attach(c->hooks | c->guard_hooks, err, errlen);
	if (rc)
		goto out;
	rc = global_levels(skel, (int)ref.level, cgroup_id, &c->conf, m->follow);
	if (rc) {
		errf(err, errlen, rc, "the levels map: %s", strerror(-rc));
		goto out;
	}
	/* the switch: from here on the cgroup's tasks see this policy */
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.policies), &cgroup_id, &ref, 0)) {
		rc = errf(err, errlen, -errno, "add the cgroup to the policies map: %s",
			  strerror(errno));
		goto out;
	}
	/* and the cgroups made at its path from now on (the levels have their bits) */
	if (m->follow) {
		rc = follow_key(m->cgroup, &fkey);
		if (!rc && bpf_map_update_elem(bpf_map__fd(skel->maps.follows), &fkey, &ref, 0))
			rc = -errno;
		if (rc)
			errf(err, errlen, rc, "follow %s: %s", m->cgroup, strerror(-rc));
	}
out:
	policy_global__destroy(skel);
	return rc;
}

static int global_forget(const struct lab_meta *m, const struct lab_meta *committed)
{
	struct lab_policy_ref ref, fref;
	struct lab_follow_key fkey;
	__u64 key, next, *prev = NULL;
	struct policy_global *skel;
	struct rule_maps maps;
	struct stat st;
	int policies, follows, rc;

	if (stat(GLOBAL_DIR, &st))
		return 0;	/* no global instance: nothing of it left */
	skel = global_pinned();
	if (!skel)
		return -errno;
	maps = (struct rule_maps)RULE_MAPS_OF(skel);
	policies = bpf_map__fd(skel->maps.policies);
	follows = bpf_map__fd(skel->maps.follows);
	if (!bpf_map_lookup_elem(policies, &m->cgroup_id, &ref) && ref.policy == m->policy) {
		/*
		 * The cgroup still points at this policy: back to the committed
		 * one if that is another global policy (an apply killed after
		 * its switch), else the cgroup leaves the map.
		 */
		if (committed && !bpf_map_lookup_elem(maps.confs, &committed->policy, &ref.conf)) {
			ref.policy = committed->policy;
			/* its levels bits first: a recompute since may have dropped them */
			global_levels(skel, (int)ref.level, m->cgroup_id, &ref.conf, false);
			bpf_map_update_elem(policies, &m->cgroup_id, &ref, 0);
		} else {
			bpf_map_delete_elem(policies, &m->cgroup_id);
		}
	}
	/*
	 * Its path is no longer followed (unless a replacing policy follows
	 * it now), then the cgroups lab_follow_mkdir() bound it to go too.
	 */
	if (m->follow && !follow_key(m->cgroup, &fkey) &&
	    !bpf_map_lookup_elem(follows, &fkey, &fref) && fref.policy == m->policy)
		bpf_map_delete_elem(follows, &fkey);
	while (!bpf_map_get_next_key(policies, prev, &next)) {
		if (!bpf_map_lookup_elem(policies, &next, &fref) && fref.policy == m->policy) {
			bpf_map_delete_elem(policies, &next);
			continue;	/* from the same key: its successor */
		}
		key = next;
		prev = &key;
	}
	/* after a replace too: the old policy's bits go */
	global_levels(skel, -1, 0, NULL, false);
	rc = rule_maps_forget(&maps, m->policy);
	policy_global__destroy(skel);
	return rc;
}

static void global_gc(__u64 hooks, unsigned int policies)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned int h;

	if (stat(GLOBAL_DIR, &st))
		return;
	for (h = 0; h < LAB_NR_HOOKS; h++) {
		if (hooks & (1ull << h))
			continue;
		hook_pin(path, sizeof(path), GLOBAL_DIR, PIN_LINK, h);
		unlink(path);	/* the last reference: the hook is detached */
	}
	if (!policies)
		store_remove(GLOBAL_DIR);	/* nothing global left: unload it, maps and all */
}

/* Every policy's links and hits are the one instance's. */
static void global_pin_folder(const struct stored *s, char *buf, size_t len)
{
	(void)s;
	snprintf(buf, len, GLOBAL_DIR);
}

/* A policy's configuration is deleted last: an id with one is not free. */
static void global_held_ids(unsigned char *used, size_t n)
{
	struct policy_global *skel = global_pinned();
	__u32 key, next, *prev = NULL;
	int confs;

	if (!skel)
		return;
	confs = bpf_map__fd(skel->maps.confs);
	while (!bpf_map_get_next_key(confs, prev, &next)) {
		key = next;
		prev = &key;
		if (key < n)
			used[key] = 1;
	}
	policy_global__destroy(skel);
}

int global_follow_bound(const struct lab_meta *m, __u64 *bound)
{
	struct policy_global *skel;
	struct lab_policy_ref ref;
	__u64 key, next, *prev = NULL;
	int policies, dropped = 0;
	struct stat st;

	*bound = 0;
	if (stat(GLOBAL_DIR, &st))
		return 0;
	skel = global_pinned();
	if (!skel)
		return -errno;
	policies = bpf_map__fd(skel->maps.policies);
	while (!bpf_map_get_next_key(policies, prev, &next)) {
		if (!bpf_map_lookup_elem(policies, &next, &ref) && ref.policy == m->policy &&
		    cgroup_gone(next)) {
			bpf_map_delete_elem(policies, &next);	/* a cgroup gone: ids are not reused */
			dropped++;
			continue;
		}
		if (!bpf_map_lookup_elem(policies, &next, &ref) && ref.policy == m->policy &&
		    next != m->cgroup_id)
			*bound = next;
		key = next;
		prev = &key;
	}
	if (dropped)
		global_levels(skel, -1, 0, NULL, false);
	policy_global__destroy(skel);
	return 0;
}

const struct backend_ops global_backend = {
	.name = "global",
	.install = global_install,
	.forget = global_forget,
	.gc = global_gc,
	.pin_folder = global_pin_folder,
	.held_ids = global_held_ids,
};
