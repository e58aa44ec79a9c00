// SPDX-License-Identifier: GPL-2.0
/* lsmctl check: a policy file parsed and compiled, nothing loaded. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "probe.h"
#include "main.h"


static const char help_check[] =
	"usage: lsmctl check FILE [-j]\n"
	"Parse and compile the policy in FILE as apply would, loading nothing:\n"
	"every error, FILE:LINE:COL each; a warning for each path that does not\n"
	"exist (apply would refuse it); a warning for self-protection off, audit\n"
	"mode and each class of access no rule closes; the hooks the policy\n"
	"needs, and whether they fit in the running kernel's lsm_cgroup hook\n"
	"slots (the cgroup backend's limit, shared by every lsm_cgroup program).\n"
	"Exit status 0 when the policy is valid, warnings or not; 1 when it is\n"
	"not.\n";

#define CHECK_MSG_MAX 16384	/* every error or warning of a file, one a line */

/* Every error of a file, FILE:LINE:COL each: on stderr, or as {"error": ...}. */
static int check_failed(const char *errors)
{
	char *copy;

	if (json)
		return fail("%s", errors);
	copy = strdup(errors);
	if (!copy)
		return fail("%s", errors);
	print_lines(copy);
	free(copy);
	return EXIT_FAIL;
}

static void print_budget(const struct slot_budget *b)
{
	if (json) {
		printf(",\"lsm_cgroup\":{\"hook_slots\":%d,\"slots_taken\":", b->slots);
		if (b->taken < 0)
			printf("null");
		else
			printf("%d", b->taken);
		printf(",\"slots_needed\":%d,\"slots_held\":%d,\"fits\":%s}", b->needed, b->held,
		       b->slots && b->fits ? "true" : "false");
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
		       b->fits ? "fits" : "does NOT fit: apply --backend global");
	printf("global backend: no hook slot limit\n");
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
	size_t i, counts[RULE_CAPABILITY + 1] = { 0 };
	char *err, *warnings;
	struct slot_budget budget;
	struct compiled c;
	struct policy p;
	struct opts o;
	int rc = parse_opts(argc, argv, help_check, "j", &o);

	if (rc)
		return rc;
	if (o.nargs != 1)
		return usage_error(help_check, "%s", "check takes one FILE");
	err = calloc(1, CHECK_MSG_MAX);
	warnings = calloc(1, CHECK_MSG_MAX);
	if (!err || !warnings) {
		free(err);
		free(warnings);
		return fail("out of memory");
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
	c.hooks = probe_kernel_hooks(c.hooks);	/* as apply on the cgroup backend */
	probe_slot_budget(c.hooks, &budget);
	if (json) {
		printf("{\"file\":");
		json_string(stdout, o.args[0]);
		printf(",\"policy\":");
		json_string(stdout, p.name);
		printf(",\"mode\":\"%s\",\"default\":\"%s\",\"rules\":{",
		       p.audit ? "audit" : "enforce", p.default_deny ? "deny" : "allow");
		for (i = 0, rc = 0; i <= RULE_CAPABILITY; i++)
			if (counts[i])
				printf("%s\"%s\":%zu", rc++ ? "," : "",
				       rule_kind_name((enum rule_kind)i), counts[i]);
		printf("},\"hooks\":");
		print_hooks("", c.hooks);
		printf(",\"warnings\":");
		print_lines(warnings);
		print_budget(&budget);
		printf("}\n");
	} else {
		printf("%s: policy '%s', %s, default %s, %zu rule(s):", o.args[0], p.name,
		       p.audit ? "audit" : "enforce", p.default_deny ? "deny" : "allow",
		       p.n_rules);
		for (i = 0; i <= RULE_CAPABILITY; i++)
			if (counts[i])
				printf(" %zu %s", counts[i], rule_kind_name((enum rule_kind)i));
		printf("\n");
		fflush(stdout);
		print_lines(warnings);
		printf("hooks: %d:", __builtin_popcountll(c.hooks));
		print_hooks("", c.hooks);
		print_budget(&budget);
	}
	rc = 0;
	compiled_free(&c);
	policy_free(&p);
out:
	free(err);
	free(warnings);
	return rc;
}
