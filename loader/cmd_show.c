// SPDX-License-Identifier: GPL-2.0
/* lsmctl list and show: the applied policies. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "cgroup.h"
#include "output.h"
#include "probe.h"
#include "main.h"


static const char help_list[] =
	"usage: lsmctl list [-j]\n"
	"The applied policies: cgroup, name, backend, mode, rules and hooks.\n";

/* An applied policy's warnings, as print_warnings(). */
static void print_meta_warnings(const struct lab_meta *m)
{
	char lines[POLICY_WARNINGS_MAX];

	meta_warnings(m, lines, sizeof(lines));
	print_warnings(lines);
}

static void print_policy_json(const struct stored *s, int with_rules)
{
	unsigned int h, i, first = 1;
	char when[64];

	printf("{\"cgroup\":");
	json_string(stdout, s->meta.cgroup);
	printf(",\"cgroup_id\":%llu,\"name\":", (unsigned long long)s->meta.cgroup_id);
	json_string(stdout, s->meta.name);
	printf(",\"backend\":\"%s\",\"mode\":\"%s\",\"rules\":%u,\"file\":",
	       backend_ops(s->meta.backend)->name, s->meta.flags & LAB_AUDIT ? "audit" : "enforce",
	       s->meta.n_rules);
	json_string(stdout, s->meta.file);
	format_rfc3339((long long)s->meta.applied, 0, when, sizeof(when));
	printf(",\"applied\":%llu,\"applied_time\":\"%s\",\"policy_id\":%u,\"hooks\":[",
	       (unsigned long long)s->meta.applied, when, s->meta.policy);
	for (h = 0; h < LAB_NR_HOOKS; h++)
		if (s->meta.hooks & (1ull << h)) {
			printf("%s\"%s\"", first ? "" : ",", hook_name(h));
			first = 0;
		}
	printf("]");
	if (with_rules) {
		printf(",\"rule_list\":[");
		for (i = 0; i < s->meta.n_rules; i++) {
			printf("%s{\"index\":%u,\"line\":%u,\"text\":", i ? "," : "", i,
			       s->rules[i].line);
			json_string(stdout, s->rules[i].text);
			printf("}");
		}
		printf("]");
		print_meta_warnings(&s->meta);
	}
	printf("}");
}

int cmd_list(int argc, char **argv)
{
	struct stored *list;
	struct opts o;
	int rc = parse_opts(argc, argv, help_list, "j", &o), n, i;

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_list, "%s", "list takes no operands");
	if (settle())
		return EXIT_FAIL;
	n = stored_list(&list);
	if (n < 0)
		return p_err(PIN_ROOT ": %s", strerror(errno));
	if (json) {
		printf("[");
		for (i = 0; i < n; i++) {
			printf(i ? "," : "");
			print_policy_json(&list[i], 0);
		}
		printf("]\n");
	} else {
		printf("%-24s %-20s %-7s %-7s %5s %5s\n", "CGROUP", "POLICY", "BACKEND", "MODE",
		       "RULES", "HOOKS");
		for (i = 0; i < n; i++)
			printf("%-24s %-20s %-7s %-7s %5u %5d\n", list[i].meta.cgroup,
			       list[i].meta.name, backend_ops(list[i].meta.backend)->name,
			       list[i].meta.flags & LAB_AUDIT ? "audit" : "enforce",
			       list[i].meta.n_rules, __builtin_popcountll(list[i].meta.hooks));
	}
	stored_list_free(list, n);
	return 0;
}

static const char help_show[] =
	"usage: lsmctl show PATH [-j]\n"
	"The policy on the cgroup PATH: its file, mode, backend, hooks and rules,\n"
	"and its warnings, as check's (stderr; with -j a \"warnings\" field).\n";

int cmd_show(int argc, char **argv)
{
	char err[512], rel[256], dir[256];
	struct stored s;
	struct opts o;
	__u64 cgid;
	__u32 level, i, h;
	int rc = parse_opts(argc, argv, help_show, "j", &o);

	if (rc)
		return rc;
	if (o.nargs != 1)
		return usage_error(help_show, "%s", "show takes one cgroup PATH");
	if (cgroup_resolve(o.args[0], &cgid, &level, rel, sizeof(rel), err, sizeof(err)))
		return p_err("%s", err);
	if (settle())
		return EXIT_FAIL;
	policy_dir(cgid, dir, sizeof(dir));
	if (stored_read(dir, &s))
		return p_err("no policy on %s", rel);
	if (json) {
		print_policy_json(&s, 1);
		printf("\n");
	} else {
		char when[64];

		format_rfc3339((long long)s.meta.applied, 0, when, sizeof(when));
		printf("cgroup:  %s (id %llu)\npolicy:  %s, from %s, applied %s\n", s.meta.cgroup,
		       (unsigned long long)s.meta.cgroup_id, s.meta.name, s.meta.file, when);
		printf("mode:    %s, %s backend\nhooks:  ",
		       s.meta.flags & LAB_AUDIT ? "audit" : "enforce", backend_ops(s.meta.backend)->name);
		for (h = 0; h < LAB_NR_HOOKS; h++)
			if (s.meta.hooks & (1ull << h))
				printf(" %s", hook_name(h));
		printf("\nrules:\n");
		for (i = 0; i < s.meta.n_rules; i++)
			printf("  %3u  line %-4u %s\n", i, s.rules[i].line, s.rules[i].text);
		print_meta_warnings(&s.meta);
	}
	stored_free(&s);
	return 0;
}
