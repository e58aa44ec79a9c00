// SPDX-License-Identifier: GPL-2.0
/*
 * The lsm_cgroup backend: one instance of policy_cgroup.bpf.c a policy,
 * attached to its cgroup for just the hooks its rules need, and pinned,
 * maps and links, in the policy's folder: removing the folder is all
 * there is to forgetting it.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "errors.h"
#include "instance.h"
#include "output.h"
#include "output.h"
#include "policy_cgroup.skel.h"
#include "probe.h"

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

/* Attach @prog to the cgroup, its link pinned in @staging; 0 or -errno. */
static int attach(struct bpf_program *prog, unsigned int hook, const struct compiled *c,
		  int cgroup_fd, const char *staging, char *err, size_t errlen)
{
	struct bpf_link *link = bpf_program__attach_cgroup(prog, cgroup_fd);
	char path[PATH_MAX], hooks[1024];
	int e;

	if (!link) {
		e = errno;
		hook_list(c->hooks, hooks, sizeof(hooks));
		return errf(err, errlen, -e,
			    "attach lsm_cgroup/%s: %s. Every hook an lsm_cgroup program uses takes "
			    "one of the kernel's hook slots, system-wide (10 on stock 6.1, "
			    "CONFIG_BPF_LSM_CGROUP_HOOKS with the lab's series), and none may be "
			    "left: this policy needs %d hook(s): %s",
			    hook_name(hook), strerror(e), __builtin_popcountll(c->hooks), hooks);
	}
	hook_pin(path, sizeof(path), staging, PIN_LINK, hook);
	e = bpf_link__pin(link, path) ? errno : 0;
	bpf_link__disconnect(link);	/* the pin holds it now */
	bpf_link__destroy(link);
	if (e)
		return errf(err, errlen, -e, "pin %s: %s", path, strerror(e));
	return 0;
}

/* What goes unchecked inside without refusal hook @h. */
static const char *unrefused(unsigned int h)
{
	switch (h) {
	case LAB_HOOK_INODE_RMDIR:
		return "rmdir of the rules by path's directories is";
	case LAB_HOOK_INODE_LINK:
		return "links onto names allowed by path are";
	case LAB_HOOK_INODE_CREATE:
	case LAB_HOOK_INODE_MKNOD:
		return "new files at names an exec rule by path allows are";
	default:
		return "renames of the rules by path's directories and onto allowed names are";
	}
}

/*
 * The guard hooks (struct compiled) that fit: one is attached where its
 * hook holds a slot already, or where a new slot leaves
 * LAB_REFUSAL_SLOTS_SPARE free for other policies' own hooks (a slot
 * is system-wide); one that is not, lsmctl says what goes unchecked.
 */
static void attach_guards(struct bpf_program **progs, const struct compiled *c, int cgroup_fd,
			  const char *staging)
{
	struct slot_budget b;
	char err[2048];
	unsigned int h;
	int rc;

	for (h = 0; h < LAB_NR_HOOKS; h++) {
		if (!(c->guard_hooks & (1ull << h)))
			continue;
		probe_slot_budget(1ull << h, &b);
		if (b.slots > 0 && b.taken >= 0 && !b.held &&
		    b.slots - b.taken <= LAB_REFUSAL_SLOTS_SPARE) {
			p_warn("lsm_cgroup/%s: %d of %d hook slots left, "
				"kept for policies' own hooks: inside, %s not refused: use the "
				"global backend (loader/POLICY.md)", hook_name(h),
				b.slots - b.taken, b.slots, unrefused(h));
			continue;
		}
		rc = attach(progs[h], h, c, cgroup_fd, staging, err, sizeof(err));
		if (!rc)
			continue;
		p_warn("lsm_cgroup/%s: no hook slot left (%s): inside, "
			"%s not refused: use the global backend (loader/POLICY.md)",
			hook_name(h), strerror(-rc), unrefused(h));
	}
}

static int cgroup_install(const char *staging, const struct compiled *c,
			  const struct lab_meta *m, int cgroup_fd, char *err, size_t errlen)
{
	__u32 policy = m->policy;
	/* the maps the engine marks for pinning go to @staging (store_load()) */
	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = staging);
	struct policy_cgroup *skel = policy_cgroup__open_opts(&opts);
	struct bpf_program *progs[LAB_NR_HOOKS];
	struct rule_maps maps;
	unsigned int h;
	int rc;

	if (!skel)
		return errf(err, errlen, -errno, "open the lsm_cgroup BPF object: %s",
			    strerror(errno));
	rc = instance_programs(skel->obj, progs, err, errlen);
	if (rc)
		goto out;
	skel->rodata->lab_policy = policy;
	memcpy((void *)&skel->rodata->lab_conf, &c->conf, sizeof(c->conf));
	/*
	 * This instance holds one policy: size its maps to it. A hash map's
	 * buckets are allocated up front even without preallocation, and
	 * the engine's default of 2M file rules would cost 32 MiB a policy.
	 */
	bpf_map__set_max_entries(skel->maps.confs, 1);
	bpf_map__set_max_entries(skel->maps.file_rules,
				 c->n_files + c->n_guards ? c->n_files + c->n_guards : 1);
	bpf_map__set_max_entries(skel->maps.path_rules, c->n_paths ? c->n_paths : 1);
	bpf_map__set_max_entries(skel->maps.glob_rules, c->n_globs ? c->n_globs : 1);
	bpf_map__set_max_entries(skel->maps.sock_rules, c->n_socks ? c->n_socks : 1);
	bpf_map__set_max_entries(skel->maps.net_rules, c->n_nets ? c->n_nets : 1);
	bpf_map__set_max_entries(skel->maps.hits, c->n_rules + 3);	/* + default, self, lost */
	for (h = 0; h < LAB_NR_HOOKS; h++)
		bpf_program__set_autoload(progs[h], !!((c->hooks | c->guard_hooks) & (1ull << h)));
	rc = store_share_journal(skel->maps.journal, skel->maps.journal_head,
				 skel->maps.journal_drafts, err, errlen);
	if (rc)
		goto out;
	rc = store_load(skel->obj, staging, "the policy's programs", err, errlen);
	if (rc)
		goto out;
	maps = (struct rule_maps)RULE_MAPS_OF(skel);
	rc = rule_maps_fill(&maps, policy, c);
	if (rc) {
		errf(err, errlen, rc, "fill the rule maps: %s", strerror(-rc));
		goto out;
	}
	for (h = 0; h < LAB_NR_HOOKS && !rc; h++)
		if (c->hooks & (1ull << h))
			rc = attach(progs[h], h, c, cgroup_fd, staging, err, errlen);
	if (!rc)
		attach_guards(progs, c, cgroup_fd, staging);
out:
	policy_cgroup__destroy(skel);
	return rc;
}

/* Everything of the policy's is in its own folder. */
static void cgroup_pin_folder(const struct stored *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s->dir);
}

const struct backend_ops cgroup_backend = {
	.name = "cgroup",
	.install = cgroup_install,
	.pin_folder = cgroup_pin_folder,
};
