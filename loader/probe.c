// SPDX-License-Identifier: GPL-2.0
/*
 * lsmctl probe: what the running kernel offers the policy engine, and
 * what each backend can do there. It loads no program: it reads
 * securityfs's LSM list, the kernel's BTF (which hooks exist, how many
 * lsm_cgroup hook slots there are), the cgroup2 and BPF filesystems'
 * magic numbers, and the ids of the BPF links (the slots taken; whether
 * bpf() works for the caller at all).
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "guard.h"
#include "output.h"
#include "probe.h"
#include "store.h"
/* the Makefile's build/loader/version.h: the commit; unknown in other builds */
#if __has_include("version.h")
#include "version.h"
#else
#define LSMCTL_VERSION "unknown"
#endif

#define LSM_LIST "/sys/kernel/security/lsm"
#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/* Exit statuses (errors.h, loader/lsmctl.8) */
enum {
	PROBE_BOTH = EXIT_OK,			/* both backends can run */
	PROBE_GLOBAL_ONLY = EXIT_GLOBAL_ONLY,	/* no lsm_cgroup programs: the global backend only */
	PROBE_NEITHER = EXIT_NO_BPF_LSM,	/* no active BPF LSM, BTF, cgroup v2 or BPF filesystem */
};

struct probe {
	struct utsname uts;
	char lsms[256];			/* securityfs's list; "" if unreadable */
	char enable_with[300];		/* the lsm= line that adds bpf to it */
	bool lsms_known, bpf_lsm_built, bpf_lsm_active;
	bool btf, btf_sysfs, cgroup2, bpffs;
	int bpf_errno;			/* 0: bpf() works for this process */
	int slots;			/* lsm_cgroup hook slots; 0: no lsm_cgroup */
	int slots_taken;		/* by lsm_cgroup links now; < 0: unknown */
	unsigned long long missing_hooks;	/* a bit per enum lab_hook */
	unsigned long long missing_guard;	/* a bit per enum lab_guard_hook */
	bool can_global, can_cgroup, self_protection;
	bool moves_judged;		/* cgroup_attach: moves within a subtree allowed */
	bool mounts_inside;		/* copy_mnt_ns traced: mounts in a namespace of its own */
	int guard_hooks;		/* the guard's hooks the kernel has */
	int status;
};

static bool is_fs(const char *path, long magic)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == magic;
}

/* The active LSMs, and the lsm= line that would add bpf to them. */
static void probe_lsms(struct probe *p)
{
	char list[sizeof(p->lsms)], *tok, *save;
	size_t n = 0;
	FILE *f = fopen(LSM_LIST, "r");

	p->lsms_known = f && fgets(p->lsms, sizeof(p->lsms), f);
	if (f)
		fclose(f);
	if (!p->lsms_known)
		p->lsms[0] = 0;
	p->lsms[strcspn(p->lsms, "\n")] = 0;
	snprintf(list, sizeof(list), "%s", p->lsms);
	n = snprintf(p->enable_with, sizeof(p->enable_with), "lsm=");
	/* capability is always first, whatever lsm= says */
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "bpf"))
			p->bpf_lsm_active = true;
		else if (strcmp(tok, "capability") && n < sizeof(p->enable_with))
			n += snprintf(p->enable_with + n, sizeof(p->enable_with) - n, "%s,", tok);
	}
	if (n < sizeof(p->enable_with))
		snprintf(p->enable_with + n, sizeof(p->enable_with) - n, "bpf");
}

int probe_bpf_lsm(char *err, size_t errlen)
{
	struct probe p = { 0 };

	probe_lsms(&p);
	if (!p.lsms_known || p.bpf_lsm_active)
		return 0;
	return errf(err, errlen, -ENOPKG,
		    "BPF LSM is not active in this kernel (its LSMs: %s): a policy would load "
		    "and never run; boot with %s. Nothing was changed", p.lsms, p.enable_with);
}

bool probe_lsm_hook(const struct btf *btf, const char *hook)
{
	char name[128];

	snprintf(name, sizeof(name), "bpf_lsm_%s", hook);
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0;
}

/*
 * Can the guard note the mount namespaces guarded tasks make (its fexit
 * program on copy_mnt_ns(), which no LSM hook sees)?
 */
bool probe_mounts_inside(const struct btf *btf)
{
	return btf__find_by_name_kind(btf, "copy_mnt_ns", BTF_KIND_FUNC) > 0;
}

bool probe_moves_judged(void)
{
	static int judged = -1;
	struct btf *btf;

	if (judged < 0) {
		btf = btf__load_vmlinux_btf();
		judged = btf && probe_lsm_hook(btf, guard_hook_name(LAB_GUARD_cgroup_attach));
		btf__free(btf);
	}
	return judged;
}

/*
 * lsm_cgroup's hook slots: CGROUP_LSM_START..CGROUP_LSM_END of enum
 * cgroup_bpf_attach_type (CGROUP_LSM_NUM: 10 in 6.1, the lab's series
 * makes it CONFIG_BPF_LSM_CGROUP_HOOKS); 0 before 6.0, which has none.
 */
static int btf_cgroup_slots(const struct btf *btf)
{
	long long start = -1, end = -1;
	const struct btf_enum *e;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, "cgroup_bpf_attach_type", BTF_KIND_ENUM);
	if (id <= 0)
		return 0;
	t = btf__type_by_id(btf, id);
	for (i = 0, e = btf_enum(t); i < btf_vlen(t); i++, e++) {
		const char *name = btf__name_by_offset(btf, e->name_off);

		if (!strcmp(name, "CGROUP_LSM_START"))
			start = e->val;
		else if (!strcmp(name, "CGROUP_LSM_END"))
			end = e->val;
	}
	return start >= 0 && end >= start ? (int)(end - start + 1) : 0;
}

/*
 * Hook slots lsm_cgroup links take now, one per distinct hook (their BTF
 * ids in @hooks, LAB_MAX_CGROUP_SLOTS of them); or -errno when the links
 * cannot be listed (EPERM: not root; ENOSYS: no bpf()).
 */
static int slots_taken(__u32 *hooks)
{
	__u32 id = 0, len;
	int n = 0, i, fd;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info link = { 0 };
		struct bpf_prog_info prog = { 0 };

		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* gone since */
		len = sizeof(link);
		i = bpf_obj_get_info_by_fd(fd, &link, &len);
		close(fd);
		if (i || link.type != BPF_LINK_TYPE_CGROUP ||
		    link.cgroup.attach_type != BPF_LSM_CGROUP)
			continue;
		fd = bpf_prog_get_fd_by_id(link.prog_id);
		if (fd < 0)
			continue;
		len = sizeof(prog);
		i = bpf_obj_get_info_by_fd(fd, &prog, &len);
		close(fd);
		if (i)
			continue;
		for (i = 0; i < n && hooks[i] != prog.attach_btf_id; i++)
			;
		if (i == n && n < LAB_MAX_CGROUP_SLOTS)
			hooks[n++] = prog.attach_btf_id;
	}
	return errno == ENOENT ? n : -errno;
}

static void probe_kernel(struct probe *p)
{
	__u32 taken[LAB_MAX_CGROUP_SLOTS];
	struct btf *btf;
	unsigned int h;

	memset(p, 0, sizeof(*p));
	uname(&p->uts);
	probe_lsms(p);
	p->btf_sysfs = !access(VMLINUX_BTF, R_OK);
	p->cgroup2 = is_fs(CGROUP_ROOT, CGROUP2_SUPER_MAGIC);
	p->bpffs = is_fs(BPFFS_ROOT, BPF_FS_MAGIC);
	p->slots_taken = slots_taken(taken);
	p->bpf_errno = p->slots_taken < 0 ? -p->slots_taken : 0;

	btf = btf__load_vmlinux_btf();
	p->btf = btf != NULL;
	if (btf) {
		p->bpf_lsm_built = probe_lsm_hook(btf, "file_open");
		p->slots = btf_cgroup_slots(btf);
		for (h = 0; h < LAB_NR_HOOKS; h++)
			if (!probe_lsm_hook(btf, hook_name(h)))
				p->missing_hooks |= 1ull << h;
		for (h = 0; h < LAB_NR_GUARD_HOOKS; h++)
			if (!probe_lsm_hook(btf, guard_hook_name(h)))
				p->missing_guard |= 1ull << h;
		p->guard_hooks = LAB_NR_GUARD_HOOKS - __builtin_popcountll(p->missing_guard);
		p->moves_judged = !(p->missing_guard & LAB_GUARD_OPTIONAL);
		p->mounts_inside = probe_mounts_inside(btf);
		p->missing_guard &= ~LAB_GUARD_OPTIONAL;
		btf__free(btf);
	}
	p->bpf_lsm_active = p->bpf_lsm_active && p->bpf_lsm_built;
	p->can_global = p->bpf_lsm_active && p->btf && p->cgroup2 && p->bpffs;
	p->can_cgroup = p->can_global && p->slots > 0;
	p->self_protection = p->can_global && !p->missing_guard;
	p->status = p->can_cgroup ? PROBE_BOTH : p->can_global ? PROBE_GLOBAL_ONLY : PROBE_NEITHER;
}

/* Why neither backend can run, for the text output. */
static const char *blocker(const struct probe *p)
{
	if (!p->btf)
		return "the kernel has no BTF (CONFIG_DEBUG_INFO_BTF)";
	if (!p->bpf_lsm_built)
		return "the kernel has no BPF LSM (CONFIG_BPF_LSM)";
	if (!p->lsms_known)
		return "whether BPF LSM is active is unknown (no securityfs)";
	if (!p->bpf_lsm_active)
		return "BPF LSM is not active";
	if (!p->cgroup2)
		return "no cgroup v2 at " CGROUP_ROOT;
	if (!p->bpffs)
		return "no BPF filesystem at " BPFFS_ROOT;
	return "?";
}

/* The names of @bits' hooks: space-separated text, or with @w a JSON array. */
static void names_of(unsigned long long bits, const char *(*name)(unsigned int), unsigned int n,
		     json_writer_t *w)
{
	unsigned int h, first = 1;

	if (w)
		jsonw_start_array(w);
	for (h = 0; h < n; h++) {
		if (!(bits & (1ull << h)))
			continue;
		if (w)
			jsonw_string(w, name(h));
		else
			printf("%s%s", first ? "" : " ", name(h));
		first = 0;
	}
	if (w)
		jsonw_end_array(w);
}

static void print_text(const struct probe *p)
{
	int hooks = LAB_NR_HOOKS - __builtin_popcountll(p->missing_hooks);

	printf("Kernel %s (%s)\n", p->uts.release, p->uts.version);
	if (p->btf)
		printf("  BTF is available%s\n", p->btf_sysfs ? " (" VMLINUX_BTF ")" : "");
	else
		printf("  BTF is NOT available: CO-RE programs cannot load\n");
	if (!p->bpf_lsm_built)
		printf("  BPF LSM is NOT built in%s\n", p->btf ? "" : " (or no BTF to tell)");
	else if (p->bpf_lsm_active)
		printf("  BPF LSM is active (LSMs: %s)\n", p->lsms);
	else if (p->lsms_known)
		printf("  BPF LSM is built in but NOT active (LSMs: %s): boot with %s\n",
		       p->lsms, p->enable_with);
	else
		printf("  BPF LSM is built in, active or not: " LSM_LIST " is unreadable "
		       "(mount securityfs on /sys/kernel/security)\n");
	printf("  cgroup v2 is %smounted at " CGROUP_ROOT "\n", p->cgroup2 ? "" : "NOT ");
	printf("  BPF filesystem is %smounted at " BPFFS_ROOT "\n", p->bpffs ? "" : "NOT ");
	if (p->bpf_errno)
		printf("  bpf() system call is NOT usable by this process (%s): lsmctl needs root\n",
		       strerror(p->bpf_errno));
	else
		printf("  bpf() system call is usable by this process\n");
	if (!p->slots)
		printf("  lsm_cgroup programs are NOT supported (Linux 6.0 or later)\n");
	else if (p->slots_taken < 0)
		printf("  lsm_cgroup programs are supported: %d hook slots\n", p->slots);
	else
		printf("  lsm_cgroup programs are supported: %d hook slots, %d taken\n", p->slots,
		       p->slots_taken);
	if (!p->btf)
		printf("  the engine's %d LSM hooks: unknown without BTF\n", LAB_NR_HOOKS);
	else if (!p->missing_hooks)
		printf("  the engine's %d LSM hooks are all in the kernel\n", LAB_NR_HOOKS);
	else {
		printf("  the engine's LSM hooks: %d of %d in the kernel, NOT: ", hooks, LAB_NR_HOOKS);
		names_of(p->missing_hooks, hook_name, LAB_NR_HOOKS, NULL);
		printf("\n");
	}
	if (probe_sctp())
		printf("  SCTP is in this kernel (or a module of it): bind and connect rules "
		       "judge its address lists (sctp_bind_connect)\n");
	else
		printf("  SCTP is NOT in this kernel: the cgroup backend leaves sctp_bind_connect "
		       "out\n");
	if (p->self_protection)
		printf("  self-protection is complete: the kernel has the %d LSM hooks it needs\n",
		       p->guard_hooks);
	else if (p->can_global) {
		printf("  self-protection is NOT complete: the kernel lacks ");
		names_of(p->missing_guard, guard_hook_name, LAB_NR_GUARD_HOOKS, NULL);
		printf("\n");
	} else {
		printf("  self-protection cannot run: %s\n", blocker(p));
	}
	if (p->can_global)
		printf(p->moves_judged ?
		       "  a guarded task may move its subtree's tasks between the subtree's cgroups "
		       "(cgroup_attach)\n" :
		       "  a guarded task may NOT move tasks between cgroups, even within its subtree "
		       "(no cgroup_attach hook: the lab's series has it)\n");
	if (p->can_global)
		printf(p->mounts_inside ?
		       "  a guarded task may mount in a mount namespace of its own made with a "
		       "user namespace of its own\n" :
		       "  a guarded task may NOT mount, even in a mount namespace of its own "
		       "(copy_mnt_ns cannot be traced)\n");

	printf("Backends\n");
	if (p->can_cgroup && p->slots >= hooks)
		printf("  cgroup backend can run: all %d hooks (%d hook slots, for every "
		       "lsm_cgroup program on the machine together)\n", hooks, p->slots);
	else if (p->can_cgroup)
		printf("  cgroup backend can run: %d of the engine's %d hooks at once (the hook "
		       "slots, for every lsm_cgroup program on the machine together)\n",
		       p->slots, hooks);
	else
		printf("  cgroup backend can NOT run: %s\n",
		       p->can_global ? "no lsm_cgroup programs" : blocker(p));
	if (p->can_global)
		printf("  global backend can run: all %d hooks, no hook slot limit\n", hooks);
	else
		printf("  global backend can NOT run: %s\n", blocker(p));
}

static void print_json(const struct probe *p, json_writer_t *w)
{
	jsonw_start_object(w);
	jsonw_name(w, "kernel");
	jsonw_start_object(w);
	jsonw_string_field(w, "release", p->uts.release);
	jsonw_string_field(w, "version", p->uts.version);
	jsonw_end_object(w);
	jsonw_bool_field(w, "btf", p->btf);
	jsonw_name(w, "bpf_lsm");
	jsonw_start_object(w);
	jsonw_bool_field(w, "built", p->bpf_lsm_built);
	if (p->lsms_known) {
		jsonw_bool_field(w, "active", p->bpf_lsm_active);
		jsonw_string_field(w, "lsms", p->lsms);
	} else {
		jsonw_null_field(w, "active");
		jsonw_null_field(w, "lsms");
	}
	if (p->bpf_lsm_built && !p->bpf_lsm_active && p->lsms_known)
		jsonw_string_field(w, "enable_with", p->enable_with);
	else
		jsonw_null_field(w, "enable_with");
	jsonw_end_object(w);
	jsonw_bool_field(w, "cgroup2", p->cgroup2);
	jsonw_bool_field(w, "bpffs", p->bpffs);
	jsonw_string_field(w, "bpf_syscall", p->bpf_errno ? strerror(p->bpf_errno) : "ok");
	jsonw_name(w, "lsm_cgroup");
	jsonw_start_object(w);
	jsonw_bool_field(w, "supported", p->slots);
	jsonw_int_field(w, "hook_slots", p->slots);
	if (p->slots_taken < 0)
		jsonw_null_field(w, "slots_taken");
	else
		jsonw_int_field(w, "slots_taken", p->slots_taken);
	jsonw_end_object(w);
	jsonw_name(w, "engine_hooks");
	jsonw_start_object(w);
	jsonw_int_field(w, "total", LAB_NR_HOOKS);
	jsonw_name(w, "missing");
	names_of(p->missing_hooks, hook_name, LAB_NR_HOOKS, w);
	jsonw_end_object(w);
	jsonw_bool_field(w, "sctp", probe_sctp());
	jsonw_name(w, "self_protection");
	jsonw_start_object(w);
	jsonw_bool_field(w, "complete", p->self_protection);
	jsonw_int_field(w, "hooks", p->guard_hooks);
	jsonw_name(w, "missing");
	names_of(p->missing_guard, guard_hook_name, LAB_NR_GUARD_HOOKS, w);
	jsonw_bool_field(w, "moves_within", p->moves_judged);
	jsonw_bool_field(w, "mounts_inside", p->mounts_inside);
	jsonw_end_object(w);
	jsonw_name(w, "backends");
	jsonw_start_object(w);
	jsonw_bool_field(w, "cgroup", p->can_cgroup);
	jsonw_bool_field(w, "global", p->can_global);
	jsonw_end_object(w);
	jsonw_int_field(w, "status", p->status);
	jsonw_end_object(w);
}

int probe_report(json_writer_t *w)
{
	struct probe p;

	libbpf_set_print(NULL);	/* a missing BTF is reported, not logged */
	probe_kernel(&p);
	if (w)
		print_json(&p, w);
	else
		print_text(&p);
	return p.status;
}

void probe_slot_budget(__u64 hooks, struct slot_budget *b)
{
	libbpf_print_fn_t print;
	__u32 taken[LAB_MAX_CGROUP_SLOTS];
	struct btf *btf;
	unsigned int h;
	char name[128];
	int i, id;

	memset(b, 0, sizeof(*b));
	b->needed = __builtin_popcountll(hooks);
	b->taken = slots_taken(taken);
	print = libbpf_set_print(NULL);	/* a missing BTF is said as no slots */
	btf = btf__load_vmlinux_btf();
	libbpf_set_print(print);
	if (!btf)
		return;
	b->slots = btf_cgroup_slots(btf);
	for (h = 0; h < LAB_NR_HOOKS && b->taken > 0; h++) {
		if (!(hooks & (1ull << h)))
			continue;
		snprintf(name, sizeof(name), "bpf_lsm_%s", hook_name(h));
		id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		for (i = 0; id > 0 && i < b->taken; i++)
			if (taken[i] == (__u32)id)
				b->held++;
	}
	btf__free(btf);
	slot_budget_fit(b);
}

void slot_budget_fit(struct slot_budget *b)
{
	b->fits = b->taken < 0 ? b->needed <= b->slots :
		  b->needed - b->held <= b->slots - b->taken;
}

/* Does @path name a module sctp.ko (compressed or not) on a line of its own? */
static bool lists_sctp(const char *path)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(path, "r");

	/* "kernel/net/sctp/sctp.ko[.xz]: DEPS" (modules.dep), "kernel/net/sctp/sctp.ko" (builtin) */
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *name;

		line[strcspn(line, ":\n")] = 0;
		name = strrchr(line, '/');
		name = name ? name + 1 : line;
		found = !strncmp(name, "sctp.ko", 7) && (!name[7] || name[7] == '.');
	}
	if (f)
		fclose(f);
	return found;
}

bool probe_sctp(void)
{
	struct utsname uts;
	char path[512];

	if (!access("/proc/net/sctp", F_OK) || !access("/sys/module/sctp", F_OK))
		return true;
	if (uname(&uts))
		return true;	/* cannot tell: as if it could */
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin", uts.release);
	if (lists_sctp(path))
		return true;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", uts.release);
	return lists_sctp(path);
}

__u64 probe_kernel_hooks(__u64 hooks)
{
	if ((hooks & (1ull << LAB_HOOK_SCTP_BIND_CONNECT)) && !probe_sctp())
		hooks &= ~(1ull << LAB_HOOK_SCTP_BIND_CONNECT);
	return hooks;
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("lsmctl %s (lsm-lab)\n", LSMCTL_VERSION);
	return 0;
}
