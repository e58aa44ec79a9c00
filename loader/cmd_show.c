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
	"The applied policies: cgroup, name, backend, mode, rules and hooks; for a\n"
	"policy applied with --follow, \"follows PATH (cgroup ID)\", or \"waiting for\n"
	"PATH\" while no cgroup is there. A policy whose cgroup was removed, and\n"
	"that does not follow its path, is removed, and said so on stderr.\n";

/* A policy that follows its path and whose cgroup is gone: waiting for one. */
static bool waiting(const struct stored *s)
{
	return s->meta.follow && cgroup_gone(s->meta.cgroup_id);
}

/* An applied policy's warnings, as print_warnings(). */
static void print_meta_warnings(const struct lab_meta *m)
{
	char lines[POLICY_WARNINGS_MAX];

	meta_warnings(m, lines, sizeof(lines));
	print_warnings(lines);
}

static void print_policy_json(const struct stored *s, int with_rules)
{
	unsigned int h, i;
	char when[64];

	jsonw_start_object(json_wtr);
	jsonw_string_field(json_wtr, "cgroup", s->meta.cgroup);
	jsonw_uint_field(json_wtr, "cgroup_id", s->meta.cgroup_id);
	jsonw_string_field(json_wtr, "name", s->meta.name);
	jsonw_string_field(json_wtr, "backend", backend_ops(s->meta.backend)->name);
	jsonw_string_field(json_wtr, "mode", s->meta.flags & LAB_AUDIT ? "audit" : "enforce");
	jsonw_uint_field(json_wtr, "rules", s->meta.n_rules);
	jsonw_string_field(json_wtr, "file", s->meta.file);
	format_rfc3339((long long)s->meta.applied, 0, when, sizeof(when));
	jsonw_uint_field(json_wtr, "applied", s->meta.applied);
	jsonw_string_field(json_wtr, "applied_time", when);
	jsonw_uint_field(json_wtr, "policy_id", s->meta.policy);
	if (s->meta.follow)
		jsonw_string_field(json_wtr, "follows", s->meta.cgroup);
	else
		jsonw_null_field(json_wtr, "follows");
	jsonw_bool_field(json_wtr, "waiting", waiting(s));
	jsonw_name(json_wtr, "hooks");
	jsonw_start_array(json_wtr);
	for (h = 0; h < LAB_NR_HOOKS; h++)
		if (s->meta.hooks & (1ull << h))
			jsonw_string(json_wtr, hook_name(h));
	jsonw_end_array(json_wtr);
	if (with_rules) {
		jsonw_name(json_wtr, "rule_list");
		jsonw_start_array(json_wtr);
		for (i = 0; i < s->meta.n_rules; i++) {
			jsonw_start_object(json_wtr);
			jsonw_uint_field(json_wtr, "index", i);
			jsonw_uint_field(json_wtr, "line", s->rules[i].line);
			jsonw_string_field(json_wtr, "text", s->rules[i].text);
			jsonw_end_object(json_wtr);
		}
		jsonw_end_array(json_wtr);
		print_meta_warnings(&s->meta);
	}
	jsonw_end_object(json_wtr);
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
		jsonw_start_array(json_wtr);
		for (i = 0; i < n; i++)
			print_policy_json(&list[i], 0);
		jsonw_end_array(json_wtr);
	} else {
		printf("%-24s %-20s %-7s %-7s %5s %5s\n", "CGROUP", "POLICY", "BACKEND", "MODE",
		       "RULES", "HOOKS");
		for (i = 0; i < n; i++)
			printf("%-24s %-20s %-7s %-7s %5u %5d\n", list[i].meta.cgroup,
			       list[i].meta.name, backend_ops(list[i].meta.backend)->name,
			       list[i].meta.flags & LAB_AUDIT ? "audit" : "enforce",
			       list[i].meta.n_rules, __builtin_popcountll(list[i].meta.hooks));
		for (i = 0; i < n; i++)
			if (waiting(&list[i]))
				printf("%s: waiting for %s (no cgroup there)\n", list[i].meta.name,
				       list[i].meta.cgroup);
			else if (list[i].meta.follow)
				printf("%s: follows %s (cgroup %llu)\n", list[i].meta.name,
				       list[i].meta.cgroup,
				       (unsigned long long)list[i].meta.cgroup_id);
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
	} else {
		char when[64];

		format_rfc3339((long long)s.meta.applied, 0, when, sizeof(when));
		printf("cgroup:  %s (id %llu)\npolicy:  %s, from %s, applied %s\n", s.meta.cgroup,
		       (unsigned long long)s.meta.cgroup_id, s.meta.name, s.meta.file, when);
		if (s.meta.follow)
			printf("follows: %s (cgroup %llu has it)\n", s.meta.cgroup,
			       (unsigned long long)s.meta.cgroup_id);
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
