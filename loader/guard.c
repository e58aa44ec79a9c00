// SPDX-License-Identifier: GPL-2.0
/* Self-protection's guard: loading it, and its list of guarded cgroups. */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "genl.h"
#include "guard.h"
#include "guard.skel.h"
#include "instance.h"
#include "output.h"
#include "probe.h"

#define GUARD_NAME "guard"
#define GUARD_DIR PIN_ROOT "/" GUARD_NAME
/* guard_follow_mkdir(), on the cgroup_mkdir tracepoint while the guard is loaded */
#define FOLLOW_LINK "link-cgroup_mkdir"
/* guard_mntns_made(), at copy_mnt_ns()'s exit where the kernel can trace it */
#define MNTNS_LINK "link-copy_mnt_ns"

#define GUARD_HOOK_NAME(hook)	#hook,
static const char *const guard_hooks[LAB_NR_GUARD_HOOKS] = { LAB_GUARD_HOOKS(GUARD_HOOK_NAME) };
#undef GUARD_HOOK_NAME

const char *guard_hook_name(unsigned int hook)
{
	return hook < LAB_NR_GUARD_HOOKS ? guard_hooks[hook] : "?";
}

/* The guard's object, its pinned maps at home in @dir (store_load(), open_pinned_maps()). */
static struct guard *guard_open(const char *dir)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = dir);

	return guard__open_opts(&opts);
}

/* Attach @prog, its link pinned in @dir; 0 or -errno. */
static int guard_attach(struct bpf_program *prog, unsigned int hook, const char *dir,
			char *err, size_t errlen)
{
	struct bpf_link *link = bpf_program__attach_lsm(prog);
	char path[PATH_MAX];
	int rc;

	if (!link)
		return errf(err, errlen, -errno, "attach lsm/%s: %s", guard_hooks[hook],
			    strerror(errno));
	snprintf(path, sizeof(path), "%s/link-%s", dir, guard_hooks[hook]);
	rc = bpf_link__pin(link, path) ? -errno : 0;
	bpf_link__destroy(link);	/* the pin holds it, or it goes */
	if (rc)
		return errf(err, errlen, rc, "pin %s: %s", path, strerror(-rc));
	return 0;
}

/*
 * Attach @prog, a tracing program of the guard (@what names it), and
 * pin its link in @dir as @link_name: it runs while the guard is
 * loaded. 0 or -errno.
 */
static int guard_trace_attach(struct bpf_program *prog, const char *what,
			      const char *link_name, const char *dir, char *err, size_t errlen)
{
	struct bpf_link *link = bpf_program__attach_trace(prog);
	char path[PATH_MAX];
	int rc;

	if (!link)
		return errf(err, errlen, -errno, "attach %s: %s", what, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s", dir, link_name);
	rc = bpf_link__pin(link, path) ? -errno : 0;
	bpf_link__destroy(link);	/* the pin holds it, or it goes */
	if (rc)
		return errf(err, errlen, rc, "pin %s: %s", path, strerror(-rc));
	return 0;
}

/*
 * Load the guard, attach every hook this kernel has, and pin it all
 * under a temporary name, renamed into place: there in full or not.
 */
static int guard_load(char *err, size_t errlen)
{
	struct bpf_program *progs[LAB_NR_GUARD_HOOKS];
	struct btf *vmlinux = NULL;
	char tmp[256], name[64];
	struct guard *skel;
	unsigned int h;
	int rc = 0;

	store_pid_dir(tmp, sizeof(tmp), STORE_TMP, GUARD_NAME);
	skel = guard_open(tmp);
	if (!skel)
		return errf(err, errlen, -errno, "open the guard's BPF object: %s", strerror(errno));
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		rc = errf(err, errlen, -errno, "the kernel's BTF: %s", strerror(errno));
		goto out;
	}
	for (h = 0; h < LAB_NR_GUARD_HOOKS; h++) {
		snprintf(name, sizeof(name), "guard_%s", guard_hooks[h]);
		progs[h] = bpf_object__find_program_by_name(skel->obj, name);
		if (!progs[h]) {
			rc = errf(err, errlen, -ENOENT, "the guard has no program %s", name);
			goto out;
		}
		if (probe_lsm_hook(vmlinux, guard_hooks[h]))
			continue;
		/* (file_ioctl_compat came to 6.1 in a stable release) */
		if (!(LAB_GUARD_OPTIONAL & (1ull << h)))
			p_warn("this kernel has no LSM hook %s: "
			       "self-protection goes without it", guard_hooks[h]);
		bpf_program__set_autoload(progs[h], false);
	}
	/* task_alloc leaves CLONE_INTO_CGROUP to cgroup_attach */
	skel->rodata->moves_judged = bpf_program__autoload(progs[LAB_GUARD_cgroup_attach]);
	/* no mount namespace of its own without it: every mount stays refused */
	bpf_program__set_autoload(skel->progs.guard_mntns_made, probe_mounts_inside(vmlinux));
	rc = store_share_journal(skel->maps.journal, skel->maps.journal_head,
				 skel->maps.journal_drafts, err, errlen);
	if (!rc)
		rc = store_load_shared(skel->obj, tmp, "the guard's programs", err, errlen);
	for (h = 0; h < LAB_NR_GUARD_HOOKS && !rc; h++)
		if (bpf_program__autoload(progs[h]))
			rc = guard_attach(progs[h], h, tmp, err, errlen);
	/*
	 * A guarded path that a policy follows needs no attach of its own;
	 * a mount namespace is noted from its start.
	 */
	if (!rc)
		rc = guard_trace_attach(skel->progs.guard_follow_mkdir, "tp_btf/cgroup_mkdir",
					FOLLOW_LINK, tmp, err, errlen);
	if (!rc && bpf_program__autoload(skel->progs.guard_mntns_made))
		rc = guard_trace_attach(skel->progs.guard_mntns_made, "fexit/copy_mnt_ns",
					MNTNS_LINK, tmp, err, errlen);
	if (!rc && rename(tmp, GUARD_DIR))
		rc = errf(err, errlen, -errno, "rename %s: %s", tmp, strerror(errno));
out:
	if (rc)
		store_remove(tmp);	/* its links go with it, and with them its hooks */
	btf__free(vmlinux);
	guard__destroy(skel);
	return rc;
}

/*
 * Is the guard in GUARD_DIR whole: its maps, a link for every hook this
 * kernel has, and guard_follow_mkdir()'s? A guard left half-removed by
 * a killed lsmctl, or loaded by an lsmctl with fewer hooks or maps, is
 * loaded again.
 */
static int guard_whole(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct guard *skel = guard_open(GUARD_DIR);
	char path[PATH_MAX];
	struct bpf_map *map;
	struct stat st;
	unsigned int h;
	int whole = vmlinux && skel && !lstat(GUARD_DIR "/" FOLLOW_LINK, &st) &&
		    (!probe_mounts_inside(vmlinux) || !lstat(GUARD_DIR "/" MNTNS_LINK, &st));

	if (skel)
		bpf_object__for_each_map(map, skel->obj)
			if (whole && bpf_map__pin_path(map))
				whole = !lstat(bpf_map__pin_path(map), &st);
	for (h = 0; whole && h < LAB_NR_GUARD_HOOKS; h++) {
		snprintf(path, sizeof(path), GUARD_DIR "/link-%s", guard_hooks[h]);
		whole = !lstat(path, &st) || !probe_lsm_hook(vmlinux, guard_hooks[h]);
	}
	guard__destroy(skel);
	btf__free(vmlinux);
	return whole;
}

/* What a guarded cgroup is: from a policy's meta. */
static int guard_of(const struct lab_meta *m, struct lab_guard *g)
{
	if (!(m->flags & LAB_SELF_PROTECT))
		return 0;
	memset(g, 0, sizeof(*g));	/* follow: none, lsmctl's entry */
	g->cgroup_id = m->cgroup_id;
	g->level = m->cgroup_level;
	g->flags = m->flags & (LAB_AUDIT | LAB_GUARD_SIGNAL | LAB_RULES_ON_VIEWS);
	g->generation = m->generation;
	return 1;
}

/*
 * LAB_RULES_ON_VIEWS for guarded @g (@m's) when any policy at or below
 * its cgroup has it, with self-protection or not: the guard alone judges
 * mounts, and a proc of its own below would step around that policy's
 * rules on proc.
 */
static void views_below(struct lab_guard *g, const struct lab_meta *m,
			const struct stored *list, int n, const struct lab_meta *pending)
{
	int i;

	for (i = 0; i < n; i++)
		if ((list[i].meta.flags & LAB_RULES_ON_VIEWS) &&
		    cgroup_under(list[i].meta.cgroup, m->cgroup))
			g->flags |= LAB_RULES_ON_VIEWS;
	if (pending && (pending->flags & LAB_RULES_ON_VIEWS) &&
	    cgroup_under(pending->cgroup, m->cgroup))
		g->flags |= LAB_RULES_ON_VIEWS;
}

struct guard_set {
	struct lab_guard g[LAB_MAX_POLICIES];
	unsigned int n;
};

/* A guarded path that a policy follows: guard_follows' key and template. */
struct guard_follow {
	struct lab_follow_key key;
	struct lab_guard g;
	__u32 policy;		/* its number if the path has none yet */
};

struct follow_set {
	struct guard_follow f[LAB_MAX_POLICIES];
	unsigned int n;
};

/* The guarded path @m follows, if it follows one: from a policy's meta. */
static int follow_of(const struct lab_meta *m, struct guard_follow *f)
{
	size_t len = strlen(m->cgroup);

	if (!m->follow || len > LAB_FOLLOW_PATH_LEN - 2 || !guard_of(m, &f->g))
		return 0;
	memset(&f->key, 0, sizeof(f->key));
	memcpy(f->key.path, m->cgroup, len);
	/*
	 * The cgroup at the path now (guard_follow_mkdir() removes its
	 * entry, and keeps the next one's here, when the next is made)
	 */
	f->g.cgroup_id = m->cgroup_id;
	f->policy = m->policy;
	return 1;
}

/* As set_add(): a path two policies follow (one replacing the other), the stricter. */
static void follows_add(struct follow_set *fs, const struct guard_follow *f)
{
	unsigned int i;

	for (i = 0; i < fs->n; i++) {
		if (!memcmp(&fs->f[i].key, &f->key, sizeof(f->key))) {
			fs->f[i].g.flags &= f->g.flags;
			return;
		}
	}
	if (fs->n < LAB_MAX_POLICIES)
		fs->f[fs->n++] = *f;
}

/*
 * Each followed path's number: the one guard_follows has for it while it
 * stays followed (the entries guard_follow_mkdir() wrote carry it, and
 * are kept by it: a policy replaced by another on the same path keeps
 * them), else its policy's id, or the smallest number no path has.
 */
static void follows_number(int map, struct follow_set *fs)
{
	static unsigned char used[LAB_MAX_POLICIES];
	struct lab_guard old;
	unsigned int i, n;

	memset(used, 0, sizeof(used));
	for (i = 0; i < fs->n; i++) {
		fs->f[i].g.follow = 0;
		if (!bpf_map_lookup_elem(map, &fs->f[i].key, &old) && old.follow &&
		    old.follow < LAB_MAX_POLICIES && !used[old.follow]) {
			fs->f[i].g.follow = old.follow;
			used[old.follow] = 1;
		}
	}
	for (i = 0; i < fs->n; i++) {
		if (fs->f[i].g.follow)
			continue;
		n = fs->f[i].policy < LAB_MAX_POLICIES && !used[fs->f[i].policy] ?
		    fs->f[i].policy : 1;
		while (n < LAB_MAX_POLICIES && used[n])
			n++;
		fs->f[i].g.follow = n;	/* LAB_MAX_POLICIES paths at most: one is free */
		if (n < LAB_MAX_POLICIES)
			used[n] = 1;
	}
}

/* Is @id a number of a path in @fs? */
static bool follows_number_in(const struct follow_set *fs, __u32 id)
{
	unsigned int i;

	for (i = 0; i < fs->n; i++)
		if (fs->f[i].g.follow == id)
			return true;
	return false;
}

/* Is guard_follows' key @key a path in @fs? */
static bool follows_has(const struct follow_set *fs, const struct lab_follow_key *key)
{
	unsigned int i;

	for (i = 0; i < fs->n; i++)
		if (!memcmp(&fs->f[i].key, key, sizeof(*key)))
			return true;
	return false;
}

/*
 * While a policy replaces another, the cgroup is guarded if either
 * guards it, and as strictly as the stricter of the two.
 */
static void set_add(struct guard_set *set, const struct lab_guard *g)
{
	unsigned int i;

	for (i = 0; i < set->n; i++) {
		if (set->g[i].cgroup_id == g->cgroup_id) {
			set->g[i].flags &= g->flags;
			return;
		}
	}
	if (set->n < LAB_MAX_POLICIES)
		set->g[set->n++] = *g;
}

/*
 * The guarded cgroups' levels and filter bits; a followed path's level
 * has every bit of its filter word, for the cgroups guard_follow_mkdir()
 * adds.
 */
static void levels_of(const struct guard_set *set, const struct follow_set *fs,
		      struct lab_guard_levels *l)
{
	unsigned int i;

	for (i = 0; i < set->n; i++) {
		if (set->g[i].level >= LAB_MAX_CGROUP_DEPTH)
			continue;
		l->mask |= 1u << set->g[i].level;
		l->filter[set->g[i].level] |= 1ull << (set->g[i].cgroup_id % 64);
	}
	for (i = 0; i < fs->n; i++) {
		if (fs->f[i].g.level >= LAB_MAX_CGROUP_DEPTH)
			continue;
		l->mask |= 1u << fs->f[i].g.level;
		l->filter[fs->f[i].g.level] = ~0ull;
	}
}

/*
 * Does guarded's entry @id stay? Those of @set, and the ones
 * guard_follow_mkdir() wrote for a path still followed, while their
 * cgroup is there (until lsmctl moves the policy's record to it).
 */
static bool guarded_keeps(int map, __u64 id, const struct guard_set *set,
			  const struct follow_set *fs)
{
	struct lab_guard g;
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (set->g[i].cgroup_id == id)
			return true;
	if (bpf_map_lookup_elem(map, &id, &g))
		return true;	/* gone since the walk found it */
	return g.follow && follows_number_in(fs, g.follow) && !cgroup_gone(id);
}

__u64 guard_lost(void)
{
	__u32 zero = 0;

	return pin_percpu_sum(GUARD_DIR "/lost", &zero);
}

int guard_sync(const struct lab_meta *pending, char *err, size_t errlen)
{
	static struct guard_set set;
	static struct follow_set fs;
	struct lab_follow_key fkey, fnext, *fprev = NULL;
	struct guard_follow f;
	struct lab_guard_levels old = { 0 }, now = { 0 };
	char partial[PATH_MAX] = "";
	struct guard *skel = NULL;
	struct lab_guard g;
	__u64 key, next, *prev = NULL;
	struct stored *list;
	struct stat st;
	__u32 zero = 0;
	int i, n, map, levels, follows, rc;

	n = stored_list(&list);
	if (n < 0)
		return errf(err, errlen, n, "list the applied policies: %s", strerror(-n));
	set.n = 0;
	fs.n = 0;
	for (i = 0; i < n; i++) {
		if (guard_of(&list[i].meta, &g)) {
			views_below(&g, &list[i].meta, list, n, pending);
			set_add(&set, &g);
		}
		if (follow_of(&list[i].meta, &f))
			follows_add(&fs, &f);
	}
	if (pending && guard_of(pending, &g)) {
		views_below(&g, pending, list, n, pending);
		set_add(&set, &g);
	}
	stored_list_free(list, n);
	if (pending && follow_of(pending, &f))
		follows_add(&fs, &f);
	if (!set.n) {
		store_remove(GUARD_DIR);	/* its links go, and with them its hooks */
		return 0;
	}
	/*
	 * A guard found in part is moved aside, still attached, and goes
	 * once a whole one guards the same cgroups: no moment unguarded.
	 * (Killed before that, an old- folder is the next lsmctl's to remove.)
	 */
	if (!stat(GUARD_DIR, &st) && !guard_whole()) {
		store_pid_dir(partial, sizeof(partial), STORE_OLD, GUARD_NAME);
		if (rename(GUARD_DIR, partial))
			return errf(err, errlen, -errno, "move the partial guard aside: %s",
				    strerror(errno));
	}
	rc = stat(GUARD_DIR, &st) ? guard_load(err, errlen) : 0;
	if (rc) {
		if (partial[0])
			rename(partial, GUARD_DIR);	/* better in part than none */
		return rc;
	}
	skel = guard_open(GUARD_DIR);
	rc = skel ? open_pinned_maps(skel->obj) : -errno;
	if (!rc && bpf_map_lookup_elem(bpf_map__fd(skel->maps.guard_levels), &zero, &old))
		rc = -errno;
	if (rc) {
		errf(err, errlen, rc, "open the guard's maps in " GUARD_DIR ": %s", strerror(-rc));
		goto out;
	}
	rc = genl_sync(bpf_map__fd(skel->maps.genl_inside));
	if (rc)	/* what it has stays, or nothing: refused */
		p_warn("the generic netlink families a guarded task may use in a network "
		       "namespace of its own: %s: in one, they are refused", strerror(-rc));
	map = bpf_map__fd(skel->maps.guarded);
	levels = bpf_map__fd(skel->maps.guard_levels);
	follows = bpf_map__fd(skel->maps.guard_follows);
	follows_number(follows, &fs);
	/* levels first, with the old bits too: no program may skip a cgroup */
	levels_of(&set, &fs, &old);
	if (bpf_map_update_elem(levels, &zero, &old, 0))
		goto failed;
	for (i = 0; i < (int)set.n; i++)
		if (bpf_map_update_elem(map, &set.g[i].cgroup_id, &set.g[i], 0))
			goto failed;
	/*
	 * The followed paths after their levels, and before the policy's
	 * own follows entry (install() syncs the guard first): a cgroup
	 * made at the path is guarded whenever it has the policy.
	 */
	for (i = 0; i < (int)fs.n; i++)
		if (bpf_map_update_elem(follows, &fs.f[i].key, &fs.f[i].g, 0))
			goto failed;
	/* a path no longer followed first, then the cgroups it bound */
	while (!bpf_map_get_next_key(follows, fprev, &fnext)) {
		fkey = fnext;
		if (follows_has(&fs, &fkey)) {
			fprev = &fkey;
			continue;
		}
		if (bpf_map_delete_elem(follows, &fkey))
			goto failed;
		fprev = NULL;	/* the walk starts again after a delete */
	}
	while (!bpf_map_get_next_key(map, prev, &next)) {
		key = next;
		if (guarded_keeps(map, key, &set, &fs)) {
			prev = &key;
			continue;
		}
		if (bpf_map_delete_elem(map, &key) && errno != ENOENT)
			goto failed;
		prev = NULL;	/* the walk starts again after a delete */
	}
	levels_of(&set, &fs, &now);
	if (bpf_map_update_elem(levels, &zero, &now, 0))
		goto failed;
	if (partial[0])
		store_remove(partial);
	goto out;
failed:
	rc = errf(err, errlen, -errno, "update the guard's maps: %s", strerror(errno));
out:
	guard__destroy(skel);
	return rc;
}
