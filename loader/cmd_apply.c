// SPDX-License-Identifier: GPL-2.0
/* lsmctl apply and diff: a policy file on a cgroup, or what it would change. */
#define _GNU_SOURCE
#include <errno.h>

#include "broker.h"
#include "output.h"
#include "probe.h"
#include "main.h"


static const char help_apply[] =
	"usage: lsmctl apply FILE --cgroup PATH|--unit NAME [--backend cgroup|global]\n"
	"                    [--mode audit|enforce] [--follow] [--dry-run] [-j] [--filler N]\n"
	"--unit NAME: the cgroup systemd gives the unit NAME, and --follow.\n"
	"Enforce the policy in FILE on the cgroup2 folder PATH and every cgroup\n"
	"below it. A policy already on PATH is replaced atomically: its tasks are\n"
	"never unconfined. On any failure nothing changes and the reason is\n"
	"printed. Backends: cgroup (lsm_cgroup programs attached to PATH) or global\n"
	"(lsm/ programs for every task, which look PATH up in a map). Without\n"
	"--backend: cgroup where the policy's hooks, its refusal hooks too, fit in\n"
	"the kernel's free lsm_cgroup hook slots, else global (as check says);\n"
	"--backend cgroup where they do not is refused before anything is loaded.\n"
	"--follow: the policy follows PATH: each cgroup made at PATH again (a\n"
	"service's restart) has it before any task can enter it (global backend\n"
	"only; the policy needs self_protection: off); list says which cgroup has\n"
	"it, or that it waits for PATH; detach --cgroup PATH ends it.\n"
	"--mode overrides the file's mode. --dry-run compiles the policy as apply\n"
	"would and says what it would change (as lsmctl diff), changing nothing.\n"
	"Warns (stderr; with -j a \"warnings\" field) about self-protection off,\n"
	"audit mode and each class of access no rule closes, as check does.\n"
	"--filler N adds N file rules by inode that match nothing (and N by path\n"
	"when the policy has rules by path), for benchmarks of cost against rule\n"
	"count.\n"
	"In a subtree with self-protection, which may not load BPF, apply asks\n"
	"the broker (lsmctl serve, at $LSMCTL_BROKER or " BROKER_SOCKET ") for a\n"
	"cgroup below the subtree's, on the global backend.\n";

/* Apply @file to @cgroup; 0, or EXIT_FAIL (EXIT_NO_BPF_LSM) having printed why. */
int apply_policy(const char *file, const char *cgroup, const struct apply_opts *ao)
{
	struct applied a;
	char err[ERR_MAX];
	int rc = policy_apply(file, cgroup, ao, &a, err, sizeof(err));

	if (rc) {
		p_err("%s", err);
		return rc == -ENOPKG ? EXIT_NO_BPF_LSM : EXIT_FAIL;
	}
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "applied", a.name);
		jsonw_string_field(json_wtr, "cgroup", a.cgroup);
		jsonw_string_field(json_wtr, "backend", backend_ops(a.backend)->name);
		if (a.follow)
			jsonw_string_field(json_wtr, "follows", a.cgroup);
		else
			jsonw_null_field(json_wtr, "follows");
		jsonw_string_field(json_wtr, "mode", a.audit ? "audit" : "enforce");
		jsonw_uint_field(json_wtr, "rules", a.n_rules);
		jsonw_int_field(json_wtr, "hooks", __builtin_popcountll(a.hooks | a.refusal_hooks));
		jsonw_int_field(json_wtr, "refusal_hooks", __builtin_popcountll(a.refusal_hooks));
		print_warnings(a.warnings);
		jsonw_end_object(json_wtr);
	} else {
		printf("applied '%s' to %s (%s backend, %s, %zu rule(s), %d hook(s)", a.name,
		       a.cgroup, backend_ops(a.backend)->name, a.audit ? "audit" : "enforce",
		       a.n_rules, __builtin_popcountll(a.hooks | a.refusal_hooks));
		if (a.refusal_hooks)
			printf(", %d of them refusal hooks", __builtin_popcountll(a.refusal_hooks));
		printf(")\n");
		if (a.follow)
			printf("follows %s: each cgroup made there again has the policy\n",
			       a.cgroup);
		print_warnings(a.warnings);
	}
	return 0;
}

/*
 * What applying the file would change on the cgroup, rule by rule:
 * "+" only in the file, "-" only in the applied policy, " " in both.
 */
static int print_diff(const char *file, const char *cgroup, const struct apply_opts *ao,
		      bool dry_run)
{
	struct policy_diff d;
	char err[ERR_MAX];
	__u64 old_hooks, new_hooks;
	bool old_audit;
	__u32 i;
	int rc = policy_diff(file, cgroup, ao, &d, err, sizeof(err));

	if (rc)
		return p_err("%s", err);
	if (dry_run && probe_bpf_lsm(err, sizeof(err))) {
		policy_diff_free(&d);
		p_err("%s", err);
		return EXIT_NO_BPF_LSM;
	}
	if (dry_run && d.backend_rc) {
		p_err("%s: %s; nothing was changed", file, d.backend_why);
		policy_diff_free(&d);
		return EXIT_FAIL;
	}
	/* what apply would pin as the policy's hooks: its own and its refusal hooks */
	new_hooks = d.c.hooks | d.c.guard_hooks;
	old_hooks = d.applied ? d.s.meta.hooks : 0;
	old_audit = d.applied && (d.s.meta.flags & LAB_AUDIT);
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "cgroup", d.cgroup);
		jsonw_string_field(json_wtr, "policy", d.name);
		if (d.applied)
			jsonw_string_field(json_wtr, "applied", d.s.meta.name);
		else
			jsonw_null_field(json_wtr, "applied");
		jsonw_string_field(json_wtr, "mode", d.audit ? "audit" : "enforce");
		jsonw_name(json_wtr, "added");
		jsonw_start_array(json_wtr);
		for (i = 0; i < d.c.n_rules; i++)
			if (!d.in_applied[i])
				jsonw_string(json_wtr, d.c.rules[i].text);
		jsonw_end_array(json_wtr);
		jsonw_name(json_wtr, "removed");
		jsonw_start_array(json_wtr);
		for (i = 0; d.applied && i < d.s.meta.n_rules; i++)
			if (!d.in_file[i])
				jsonw_string(json_wtr, d.s.rules[i].text);
		jsonw_end_array(json_wtr);
		jsonw_name(json_wtr, "hooks_added");
		print_hooks("", new_hooks & ~old_hooks);
		jsonw_name(json_wtr, "hooks_removed");
		print_hooks("", old_hooks & ~new_hooks);
		if (d.backend_rc)
			jsonw_null_field(json_wtr, "backend");
		else
			jsonw_string_field(json_wtr, "backend", backend_ops(d.backend)->name);
		jsonw_string_field(json_wtr, "backend_why", d.backend_why);
		jsonw_bool_field(json_wtr, "changed", false);
		print_warnings(d.warnings);
		jsonw_end_object(json_wtr);
	} else {
		if (d.applied)
			printf("--- %s: policy '%s' (%s), applied\n", d.cgroup, d.s.meta.name,
			       old_audit ? "audit" : "enforce");
		else
			printf("--- %s: no policy applied\n", d.cgroup);
		printf("+++ %s: policy '%s' (%s)\n", file, d.name, d.audit ? "audit" : "enforce");
		for (i = 0; d.applied && i < d.s.meta.n_rules; i++)
			if (!d.in_file[i])
				printf("- line %-4u %s\n", d.s.rules[i].line, d.s.rules[i].text);
		for (i = 0; i < d.c.n_rules; i++)
			printf("%c line %-4u %s\n", d.in_applied[i] ? ' ' : '+', d.c.rules[i].line,
			       d.c.rules[i].text);
		if (new_hooks & ~old_hooks)
			print_hooks("hooks added:  ", new_hooks & ~old_hooks);
		if (old_hooks & ~new_hooks)
			print_hooks("hooks removed:", old_hooks & ~new_hooks);
		printf("backend: %s\n", d.backend_why);
		if (dry_run)
			printf("dry run: nothing was changed\n");
		print_warnings(d.warnings);
	}
	policy_diff_free(&d);
	return 0;
}

int cmd_apply(int argc, char **argv)
{
	char reply[BROKER_REPLY_MAX];
	struct opts o;
	int rc = parse_opts(argc, argv, help_apply, "cbjfmdF", &o);
	struct apply_opts ao;
	__u64 scope;

	if (rc)
		return rc;
	if (o.nargs != 1 || !o.cgroup)
		return usage_error(help_apply, "%s", "apply takes FILE and --cgroup PATH");
	ao = (struct apply_opts){ .backend = o.backend, .backend_given = o.backend_given,
				  .filler = (size_t)o.filler, .audit = o.audit, .follow = o.follow };
	if (o.dry_run)
		return print_diff(o.args[0], o.cgroup, &ao, true);
	if (broker_confined(&scope)) {
		if (o.backend_given || o.follow || o.filler)
			return usage_error(help_apply, "%s", "a confined lsmctl applies through the "
					   "broker: on the global backend, without --follow or --filler");
		return broker_said(broker_change(o.args[0], o.cgroup, o.audit, reply, sizeof(reply)),
				   reply);
	}
	return apply_policy(o.args[0], o.cgroup, &ao);
}

/* diff */

static const char help_diff[] =
	"usage: lsmctl diff FILE --cgroup PATH [--mode audit|enforce] [-j]\n"
	"The policy in FILE, compiled as apply would, against the policy applied\n"
	"on PATH, rule by rule: '-' only applied, '+' only in FILE, ' ' in both;\n"
	"then the hooks apply would add and remove, and FILE's warnings, as\n"
	"check's. Changes nothing.\n";

int cmd_diff(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_diff, "cjm", &o);
	struct apply_opts ao;

	if (rc)
		return rc;
	if (o.nargs != 1 || !o.cgroup)
		return usage_error(help_diff, "%s", "diff takes FILE and --cgroup PATH");
	ao = (struct apply_opts){ .backend = o.backend, .backend_given = o.backend_given,
				  .audit = o.audit };
	return print_diff(o.args[0], o.cgroup, &ao, false);
}
