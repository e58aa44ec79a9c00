// SPDX-License-Identifier: GPL-2.0
/* lsmctl stats: per-rule hits, per-program runs, as text, JSON or Prometheus. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "metrics.h"
#include "output.h"
#include "probe.h"
#include "main.h"


static const char help_stats[] =
	"usage: lsmctl stats [-j | --prometheus]\n"
	"Per policy: how often each rule (and the default) decided, and per\n"
	"program the kernel's run count and run_time_ns. The kernel counts runs\n"
	"only while sysctl kernel.bpf_stats_enabled is 1. Programs of the global\n"
	"backend are shared by every global policy. --prometheus: the same as\n"
	"metrics in node-exporter's textfile format (lsmctl_rule_hits_total,\n"
	"lsmctl_events_lost_total, lsmctl_guard_events_lost_total,\n"
	"lsmctl_program_runs_total, lsmctl_program_run_seconds_total).\n";

static void stats_programs(const struct stored *s)
{
	struct prog_stat st[LAB_NR_HOOKS];
	int n = prog_stats(s, st), i;

	for (i = 0; i < n; i++) {
		if (json) {
			jsonw_start_object(json_wtr);
			jsonw_string_field(json_wtr, "hook", hook_name(st[i].hook));
			jsonw_uint_field(json_wtr, "prog_id", st[i].prog_id);
			jsonw_uint_field(json_wtr, "run_cnt", st[i].run_cnt);
			jsonw_uint_field(json_wtr, "run_time_ns", st[i].run_time_ns);
			jsonw_end_object(json_wtr);
		} else {
			printf("  program %-22s id %-5u runs %-10llu run_time_ns %-12llu avg %.0f\n",
			       hook_name(st[i].hook), st[i].prog_id, (unsigned long long)st[i].run_cnt,
			       (unsigned long long)st[i].run_time_ns,
			       st[i].run_cnt ? (double)st[i].run_time_ns / st[i].run_cnt : 0.0);
		}
	}
}

int cmd_stats(int argc, char **argv)
{
	struct stored *list;
	struct opts o;
	__u64 *hits, default_hits;
	int rc = parse_opts(argc, argv, help_stats, "jP", &o), n, i, enabled;
	__u32 r;

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_stats, "%s", "stats takes no operands");
	if (json && o.prometheus)
		return usage_error(help_stats, "%s", "-j or --prometheus, not both");
	if (settle())
		return EXIT_FAIL;
	n = stored_list(&list);
	if (n < 0)
		return p_err(PIN_ROOT ": %s", strerror(errno));
	enabled = bpf_stats_enabled();
	if (o.prometheus) {
		stats_prometheus(list, n, enabled);
		stored_list_free(list, n);
		return 0;
	}
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_bool_field(json_wtr, "bpf_stats_enabled", enabled);
		jsonw_name(json_wtr, "policies");
		jsonw_start_array(json_wtr);
	} else if (!enabled)
		printf("(run counts: sysctl kernel.bpf_stats_enabled=1 to have the kernel count)\n");
	for (i = 0; i < n; i++) {
		struct stored *s = &list[i];

		hits = calloc(s->meta.n_rules + 1, sizeof(*hits));
		if (!hits)
			break;
		policy_hits(s, hits, &default_hits);
		if (json) {
			jsonw_start_object(json_wtr);
			jsonw_string_field(json_wtr, "cgroup", s->meta.cgroup);
			jsonw_string_field(json_wtr, "name", s->meta.name);
			jsonw_string_field(json_wtr, "backend", backend_ops(s->meta.backend)->name);
			jsonw_name(json_wtr, "rules");
			jsonw_start_array(json_wtr);
			for (r = 0; r < s->meta.n_rules; r++) {
				jsonw_start_object(json_wtr);
				jsonw_uint_field(json_wtr, "index", r);
				jsonw_uint_field(json_wtr, "line", s->rules[r].line);
				jsonw_uint_field(json_wtr, "hits", hits[r]);
				jsonw_string_field(json_wtr, "text", s->rules[r].text);
				jsonw_end_object(json_wtr);
			}
			jsonw_end_array(json_wtr);
			jsonw_uint_field(json_wtr, "default_hits", default_hits);
			jsonw_uint_field(json_wtr, "lost_events", policy_lost(s));
			jsonw_name(json_wtr, "programs");
			jsonw_start_array(json_wtr);
			stats_programs(s);
			jsonw_end_array(json_wtr);
			jsonw_end_object(json_wtr);
		} else {
			printf("%s: policy '%s' (%s backend)\n", s->meta.cgroup, s->meta.name,
			       backend_ops(s->meta.backend)->name);
			for (r = 0; r < s->meta.n_rules; r++)
				printf("  rule %-3u line %-4u hits %-10llu %s\n", r, s->rules[r].line,
				       (unsigned long long)hits[r], s->rules[r].text);
			printf("  default           hits %llu\n", (unsigned long long)default_hits);
			printf("  events not reported (the CPU's draft was taken): %llu\n",
			       (unsigned long long)policy_lost(s));
			stats_programs(s);
		}
		free(hits);
	}
	if (json) {
		jsonw_end_array(json_wtr);
		jsonw_uint_field(json_wtr, "guard_lost_events", guard_lost());
		jsonw_end_object(json_wtr);
	} else {
		printf("self-protection's guard: events not reported (the CPU's draft was "
		       "taken): %llu\n",
		       (unsigned long long)guard_lost());
	}
	stored_list_free(list, n);
	return 0;
}
