// SPDX-License-Identifier: GPL-2.0
/* lsmctl check: a policy file parsed and compiled, nothing loaded. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "probe.h"
#include "main.h"


static const char help_check[] =
	"usage: lsmctl check FILE [--backend cgroup|global] [-j]\n"
	"Parse and compile the policy in FILE as apply would, loading nothing:\n"
	"every error, FILE:LINE:COL each; a warning for each path that does not\n"
	"exist (apply would refuse it); a warning for self-protection off, audit\n"
	"mode and each class of access no rule closes; the hooks the policy\n"
	"needs (its own, and the refusal hooks its rules by path add), whether\n"
	"they fit in the running kernel's lsm_cgroup hook slots (the cgroup\n"
	"backend's limit, shared by every lsm_cgroup program), and the backend\n"
	"apply and run would choose by that (or --backend's).\n"
	"Exit status 0 when the policy is valid, warnings or not; 1 when it is\n"
	"not, or when apply would refuse the --backend given.\n";

#define CHECK_MSG_MAX 16384	/* every error or warning of a file, one a line */

/*
 * Every error of a file, FILE:LINE:COL each: on stderr as a compiler
 * writes them (no "lsmctl: "), or with -j p_err()'s one object.
 */
static int check_failed(const char *errors)
{
	char *copy;

	if (json)
		return p_err("%s", errors);
	copy = strdup(errors);
	if (!copy)
		return p_err("%s", errors);
	print_lines(copy);
	free(copy);
	return EXIT_FAIL;
}

static void print_budget(const struct slot_budget *b, enum backend backend, const char *why)
{
	if (json) {
		jsonw_name(json_wtr, "lsm_cgroup");
		jsonw_start_object(json_wtr);
		jsonw_int_field(json_wtr, "hook_slots", b->slots);
		if (b->taken < 0)
			jsonw_null_field(json_wtr, "slots_taken");
		else
			jsonw_int_field(json_wtr, "slots_taken", b->taken);
		jsonw_int_field(json_wtr, "slots_needed", b->needed);
		jsonw_int_field(json_wtr, "slots_held", b->held);
		jsonw_bool_field(json_wtr, "fits", b->slots && b->fits);
		jsonw_end_object(json_wtr);
		jsonw_string_field(json_wtr, "backend", backend_ops(backend)->name);
		jsonw_string_field(json_wtr, "backend_why", why);
		return;
	}
	if (!b->slots)
		printf("cgroup backend: this kernel has no lsm_cgroup hook slots (or no BTF to "
		       "tell): use --backend global\n");
	else if (b->taken < 0)
		printf("cgroup backend: %d hook slot(s) of this kernel's %d: %s (how many are "
		       "taken is unknown: %s)\n", b->needed, b->slots, b->fits ? "fits" : "does NOT fit",
		       strerror(-b->taken));
	else
		printf("cgroup backend: %d hook slot(s), %d of them held already; this kernel has "
		       "%d, %d taken: %s\n", b->needed, b->held, b->slots, b->taken,
		       b->fits ? "fits" : "does NOT fit");
	printf("global backend: no hook slot limit\n");
	printf("backend: %s\n", why);
}

/* After the compiler's warnings in @buf, @p's: "FILE: warning: ..." each. */
static void add_policy_warnings(const char *file, const struct policy *p, char *buf, size_t len)
{
	char lines[POLICY_WARNINGS_MAX], *line, *save;
	size_t used = strlen(buf);

	if (used && buf[used - 1] != '\n' && used + 1 < len)
		buf[used++] = '\n';
	policy_warnings(p, lines, sizeof(lines));
	for (line = strtok_r(lines, "\n", &save); line && used + 1 < len;
	     line = strtok_r(NULL, "\n", &save))
		used += (size_t)snprintf(buf + used, len - used, "%s: warning: %s\n", file, line);
}

int cmd_check(int argc, char **argv)
{
	size_t i, n, counts[RULE_CAPABILITY + 1] = { 0 };
	char *err, *warnings;
	char why[512];
	struct slot_budget budget;
	enum backend backend;
	struct compiled c;
	struct policy p;
	struct opts o;
	int rc = parse_opts(argc, argv, help_check, "jb", &o);

	if (rc)
		return rc;
	if (o.nargs != 1)
		return usage_error(help_check, "%s", "check takes one FILE");
	err = calloc(1, CHECK_MSG_MAX);
	warnings = calloc(1, CHECK_MSG_MAX);
	if (!err || !warnings) {
		free(err);
		free(warnings);
		return p_err("out of memory");
	}
	if (policy_parse_file(o.args[0], &p, err, CHECK_MSG_MAX) ||
	    policy_compile_check(o.args[0], &p, &c, warnings, CHECK_MSG_MAX, err, CHECK_MSG_MAX)) {
		policy_free(&p);
		rc = check_failed(err);
		goto out;
	}
	for (i = 0; i < p.n_rules; i++)
		counts[p.rules[i].kind]++;
	add_policy_warnings(o.args[0], &p, warnings, CHECK_MSG_MAX);
	c.hooks = probe_kernel_hooks(c.hooks);	/* as apply does: none for a protocol it lacks */
	/* the slots as apply counts them: its own hooks and its refusal hooks */
	probe_slot_budget(c.hooks | c.guard_hooks, &budget);
	if (backend_pick(c.hooks, c.guard_hooks, o.backend_given, o.backend, &backend, why,
			 sizeof(why))) {
		rc = p_err("%s: %s", o.args[0], why);
		compiled_free(&c);
		policy_free(&p);
		goto out;
	}
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "file", o.args[0]);
		jsonw_string_field(json_wtr, "policy", p.name);
		jsonw_string_field(json_wtr, "mode", p.audit ? "audit" : "enforce");
		jsonw_string_field(json_wtr, "default", p.default_deny ? "deny" : "allow");
		jsonw_name(json_wtr, "closed");
		jsonw_start_array(json_wtr);
		for (i = 0; i < N_CLOSED; i++)
			if (p.closed & (1u << i))
				jsonw_string(json_wtr, policy_closed_name(i));
		jsonw_end_array(json_wtr);
		jsonw_name(json_wtr, "rules");
		jsonw_start_object(json_wtr);
		for (i = 0; i <= RULE_CAPABILITY; i++)
			if (counts[i])
				jsonw_uint_field(json_wtr, rule_kind_name((enum rule_kind)i), counts[i]);
		jsonw_end_object(json_wtr);
		jsonw_name(json_wtr, "hooks");
		print_hooks("", c.hooks);
		jsonw_name(json_wtr, "refusal_hooks");
		print_hooks("", c.guard_hooks);
		jsonw_name(json_wtr, "warnings");
		print_lines(warnings);
		print_budget(&budget, backend, why);
		jsonw_end_object(json_wtr);
	} else {
		printf("%s: policy '%s', %s, default %s, %zu rule(s):", o.args[0], p.name,
		       p.audit ? "audit" : "enforce", p.default_deny ? "deny" : "allow",
		       p.n_rules);
		for (i = 0; i <= RULE_CAPABILITY; i++)
			if (counts[i])
				printf(" %zu %s", counts[i], rule_kind_name((enum rule_kind)i));
		for (i = 0, n = 0; i < N_CLOSED; i++)
			if (p.closed & (1u << i))
				printf("%s%s", n++ ? ", " : "; closed: ", policy_closed_name(i));
		printf("\n");
		fflush(stdout);
		print_lines(warnings);
		printf("hooks: %d:", __builtin_popcountll(c.hooks));
		print_hooks("", c.hooks);
		if (c.guard_hooks) {
			printf("refusal hooks: %d:", __builtin_popcountll(c.guard_hooks));
			print_hooks("", c.guard_hooks);
		}
		print_budget(&budget, backend, why);
	}
	rc = 0;
	compiled_free(&c);
	policy_free(&p);
out:
	free(err);
	free(warnings);
	return rc;
}
