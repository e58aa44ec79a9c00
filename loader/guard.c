// SPDX-License-Identifier: GPL-2.0
/* Self-protection's guard: loading it, and its list of guarded cgroups. */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "guard.skel.h"

#define GUARD_DIR PIN_ROOT "/guard"

#define GUARD_NAME(hook)	#hook,
static const char *const guard_hooks[LAB_NR_GUARD_HOOKS] = { LAB_GUARD_HOOKS(GUARD_NAME) };
#undef GUARD_NAME

/* The guard's maps lsmctl pins (the events ring is the store's). */
static const char *const guard_maps[] = { "guarded", "guard_levels", "lost" };

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *guard_hook_name(unsigned int hook)
{
	return hook < LAB_NR_GUARD_HOOKS ? guard_hooks[hook] : "?";
}

/* Does the running kernel have this LSM hook (a bpf_lsm_ stub in its BTF)? */
static int kernel_has_hook(const struct btf *vmlinux, const char *hook)
{
	char name[128];

	snprintf(name, sizeof(name), "bpf_lsm_%s", hook);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0;
}

/*
 * Load the guard, attach every hook this kernel has, and pin it all
 * under a temporary name, renamed into place: there in full or not.
 */
static int guard_load(char *err, size_t errlen)
{
	struct bpf_program *progs[LAB_NR_GUARD_HOOKS];
	struct btf *vmlinux = NULL;
	char tmp[256], path[PATH_MAX], name[64];
	struct bpf_link *link;
	struct guard *skel;
	unsigned int h;
	int rc = -1;

	skel = guard__open();
	if (!skel)
		return errf(err, errlen, "open the guard's BPF object: %s", strerror(errno));
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		errf(err, errlen, "the kernel's BTF: %s", strerror(errno));
		goto out;
	}
	for (h = 0; h < LAB_NR_GUARD_HOOKS; h++) {
		snprintf(name, sizeof(name), "guard_%s", guard_hooks[h]);
		progs[h] = bpf_object__find_program_by_name(skel->obj, name);
		if (!progs[h]) {
			errf(err, errlen, "the guard has no program %s", name);
			goto out;
		}
		if (kernel_has_hook(vmlinux, guard_hooks[h]))
			continue;
		/* (file_ioctl_compat came to 6.1 in a stable release) */
		fprintf(stderr, "lsmctl: warning: this kernel has no LSM hook %s: "
			"self-protection goes without it\n", guard_hooks[h]);
		bpf_program__set_autoload(progs[h], false);
	}
	if (store_share_events(skel->maps.events, err, errlen))
		goto out;
	if (guard__load(skel)) {
		errf(err, errlen, "the kernel refused the guard's programs (%s)%s", strerror(errno),
		     " - the verifier's log, if any, is above");
		goto out;
	}
	snprintf(tmp, sizeof(tmp), PIN_ROOT "/tmp-guard-%d", getpid());
	if (mkdir(tmp, 0700)) {
		errf(err, errlen, "mkdir %s: %s", tmp, strerror(errno));
		goto out;
	}
	for (h = 0; h < ARRAY_SIZE(guard_maps); h++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, guard_maps[h]);
		if (bpf_map__pin(bpf_object__find_map_by_name(skel->obj, guard_maps[h]), path))
			goto pin_failed;
	}
	for (h = 0; h < LAB_NR_GUARD_HOOKS; h++) {
		if (!bpf_program__autoload(progs[h]))
			continue;
		link = bpf_program__attach_lsm(progs[h]);
		if (!link) {
			errf(err, errlen, "attach lsm/%s: %s", guard_hooks[h], strerror(errno));
			goto out;
		}
		snprintf(path, sizeof(path), "%s/link-%s", tmp, guard_hooks[h]);
		rc = bpf_link__pin(link, path);
		bpf_link__destroy(link);	/* the pin holds it, or it goes */
		if (rc)
			goto pin_failed;
		rc = -1;
	}
	if (rename(tmp, GUARD_DIR)) {
		errf(err, errlen, "rename %s: %s", tmp, strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
pin_failed:
	errf(err, errlen, "pin %s: %s", path, strerror(errno));
out:
	btf__free(vmlinux);
	guard__destroy(skel);
	return rc;	/* a tmp-guard- folder left behind is the next lsmctl's to remove */
}

/*
 * Is the guard in GUARD_DIR whole: its maps, and a link for every hook
 * this kernel has? A guard left half-removed by a killed lsmctl, or
 * loaded by an lsmctl with fewer hooks, is loaded again.
 */
static int guard_whole(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	char path[PATH_MAX];
	struct stat st;
	unsigned int h;
	int whole = !!vmlinux;

	for (h = 0; whole && h < ARRAY_SIZE(guard_maps); h++) {
		snprintf(path, sizeof(path), GUARD_DIR "/%s", guard_maps[h]);
		whole = !lstat(path, &st);
	}
	for (h = 0; whole && h < LAB_NR_GUARD_HOOKS; h++) {
		snprintf(path, sizeof(path), GUARD_DIR "/link-%s", guard_hooks[h]);
		whole = !lstat(path, &st) || !kernel_has_hook(vmlinux, guard_hooks[h]);
	}
	btf__free(vmlinux);
	return whole;
}

/* What a guarded cgroup is: from a policy's meta. */
static int guard_of(const struct lab_meta *m, struct lab_guard *g)
{
	if (!(m->flags & LAB_SELF_PROTECT))
		return 0;
	g->cgroup_id = m->cgroup_id;
	g->level = m->cgroup_level;
	g->flags = m->flags & (LAB_AUDIT | LAB_GUARD_SIGNAL);
	return 1;
}

struct guard_set {
	struct lab_guard g[LAB_MAX_POLICIES];
	unsigned int n;
};

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

static void levels_of(const struct guard_set *set, struct lab_guard_levels *l)
{
	unsigned int i;

	for (i = 0; i < set->n; i++) {
		if (set->g[i].level >= LAB_MAX_CGROUP_DEPTH)
			continue;
		l->mask |= 1u << set->g[i].level;
		l->filter[set->g[i].level] |= 1ull << (set->g[i].cgroup_id % 64);
	}
}

/* Remove a guard pinned in @dir: its links' last references go, and with them the hooks. */
static void guard_remove(const char *dir)
{
	char path[PATH_MAX];
	unsigned int h;

	for (h = 0; h < LAB_NR_GUARD_HOOKS; h++) {
		snprintf(path, sizeof(path), "%s/link-%s", dir, guard_hooks[h]);
		unlink(path);
	}
	for (h = 0; h < ARRAY_SIZE(guard_maps); h++) {
		snprintf(path, sizeof(path), "%s/%s", dir, guard_maps[h]);
		unlink(path);
	}
	rmdir(dir);
}

__u64 guard_lost(void)
{
	__u32 zero = 0;

	return pin_percpu_sum(GUARD_DIR "/lost", &zero);
}

int guard_sync(const struct lab_meta *pending, char *err, size_t errlen)
{
	static struct guard_set set;
	struct lab_guard_levels old = { 0 }, now = { 0 };
	char partial[PATH_MAX] = "";
	struct lab_guard g;
	__u64 key, next, *prev = NULL;
	struct stored *list;
	struct stat st;
	__u32 zero = 0;
	int i, n, map = -1, levels = -1, rc = -1;

	n = stored_list(&list);
	if (n < 0)
		return errf(err, errlen, "list the applied policies: %s", strerror(errno));
	set.n = 0;
	for (i = 0; i < n; i++)
		if (guard_of(&list[i].meta, &g))
			set_add(&set, &g);
	stored_list_free(list, n);
	if (pending && guard_of(pending, &g))
		set_add(&set, &g);
	if (!set.n) {
		guard_remove(GUARD_DIR);
		return 0;
	}
	/*
	 * A guard found in part is moved aside, still attached, and goes
	 * once a whole one guards the same cgroups: no moment unguarded.
	 * (Killed before that, an old- folder is the next lsmctl's to remove.)
	 */
	if (!stat(GUARD_DIR, &st) && !guard_whole()) {
		snprintf(partial, sizeof(partial), PIN_ROOT "/old-guard-%d", getpid());
		if (rename(GUARD_DIR, partial))
			return errf(err, errlen, "move the partial guard aside: %s", strerror(errno));
	}
	if (stat(GUARD_DIR, &st) && guard_load(err, errlen)) {
		if (partial[0])
			rename(partial, GUARD_DIR);	/* better in part than none */
		return -1;
	}
	map = bpf_obj_get(GUARD_DIR "/guarded");
	levels = bpf_obj_get(GUARD_DIR "/guard_levels");
	if (map < 0 || levels < 0 || bpf_map_lookup_elem(levels, &zero, &old)) {
		errf(err, errlen, "open the guard's maps in " GUARD_DIR ": %s", strerror(errno));
		goto out;
	}
	/* levels first, with the old bits too: no program may skip a cgroup */
	levels_of(&set, &old);
	if (bpf_map_update_elem(levels, &zero, &old, 0))
		goto failed;
	for (i = 0; i < (int)set.n; i++)
		if (bpf_map_update_elem(map, &set.g[i].cgroup_id, &set.g[i], 0))
			goto failed;
	while (!bpf_map_get_next_key(map, prev, &next)) {
		key = next;
		for (i = 0; i < (int)set.n && set.g[i].cgroup_id != key; i++)
			;
		if (i < (int)set.n) {
			prev = &key;
			continue;
		}
		if (bpf_map_delete_elem(map, &key))
			goto failed;
		prev = NULL;	/* the walk starts again after a delete */
	}
	levels_of(&set, &now);
	if (bpf_map_update_elem(levels, &zero, &now, 0))
		goto failed;
	if (partial[0])
		guard_remove(partial);
	rc = 0;
	goto out;
failed:
	errf(err, errlen, "update the guard's maps: %s", strerror(errno));
out:
	if (map >= 0)
		close(map);
	if (levels >= 0)
		close(levels);
	return rc;
}
