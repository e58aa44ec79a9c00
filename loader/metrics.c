// SPDX-License-Identifier: GPL-2.0
/* The programs' counts and the Prometheus writer (see metrics.h). */
#include <bpf/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "compile.h"
#include "guard.h"
#include "metrics.h"

int bpf_stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

int prog_stats(const struct stored *s, struct prog_stat *out)
{
	struct bpf_link_info link;
	struct bpf_prog_info prog;
	unsigned int hooks[LAB_NR_HOOKS];
	int fds[LAB_NR_HOOKS], n, i, pfd;
	__u32 len;

	n = policy_links(s, fds, hooks, LAB_NR_HOOKS);
	for (i = 0; i < n; i++) {
		memset(&link, 0, sizeof(link));
		memset(&prog, 0, sizeof(prog));
		len = sizeof(link);
		if (!bpf_obj_get_info_by_fd(fds[i], &link, &len)) {
			pfd = bpf_prog_get_fd_by_id(link.prog_id);
			len = sizeof(prog);
			if (pfd >= 0) {
				bpf_obj_get_info_by_fd(pfd, &prog, &len);
				close(pfd);
			}
		}
		close(fds[i]);
		out[i] = (struct prog_stat){ .hook = hooks[i], .prog_id = link.prog_id,
					     .run_cnt = prog.run_cnt,
					     .run_time_ns = prog.run_time_ns };
	}
	return n < 0 ? 0 : n;
}

/* @v as a Prometheus label value: backslash, quote and newline escaped. */
static void prom_value(const char *v)
{
	putchar('"');
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			printf("\\%c", *v);
		else if (*v == '\n')
			printf("\\n");
		else
			putchar(*v);
	}
	putchar('"');
}

/* The labels naming policy @s: cgroup, policy and backend. */
static void prom_policy(const struct stored *s)
{
	printf("{cgroup=");
	prom_value(s->meta.cgroup);
	printf(",policy=");
	prom_value(s->meta.name);
	printf(",backend=\"%s\"", backend_ops(s->meta.backend)->name);
}

static void prom_help(const char *name, const char *type, const char *help)
{
	printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * node-exporter's textfile collector format (a file of metrics it serves
 * as they are); counters end in _total.
 */
void stats_prometheus(struct stored *list, int n, int enabled)
{
	struct prog_stat st[LAB_NR_HOOKS];
	__u64 *hits, default_hits;
	int i, j, k;
	__u32 r;

	prom_help("lsmctl_bpf_stats_enabled", "gauge",
		  "Whether the kernel counts BPF program runs (sysctl kernel.bpf_stats_enabled).");
	printf("lsmctl_bpf_stats_enabled %d\n", enabled);
	prom_help("lsmctl_rule_hits_total", "counter",
		  "Decisions a policy's rule made (a deny rule's hits are its denials).");
	for (i = 0; i < n; i++) {
		hits = calloc(list[i].meta.n_rules + 1, sizeof(*hits));
		if (!hits)
			continue;
		policy_hits(&list[i], hits, &default_hits);
		for (r = 0; r < list[i].meta.n_rules; r++) {
			printf("lsmctl_rule_hits_total");
			prom_policy(&list[i]);
			printf(",rule=\"%u\",line=\"%u\",text=", r, list[i].rules[r].line);
			prom_value(list[i].rules[r].text);
			printf("} %llu\n", (unsigned long long)hits[r]);
		}
		printf("lsmctl_rule_hits_total");
		prom_policy(&list[i]);
		printf(",rule=\"default\",line=\"\",text=\"\"} %llu\n",
		       (unsigned long long)default_hits);
		free(hits);
	}
	prom_help("lsmctl_events_lost_total", "counter",
		  "Events of a policy the kernel could not report (its CPU's draft was taken).");
	for (i = 0; i < n; i++) {
		printf("lsmctl_events_lost_total");
		prom_policy(&list[i]);
		printf("} %llu\n", (unsigned long long)policy_lost(&list[i]));
	}
	prom_help("lsmctl_guard_events_lost_total", "counter",
		  "Events of self-protection's guard the kernel could not report.");
	printf("lsmctl_guard_events_lost_total %llu\n", (unsigned long long)guard_lost());
	for (k = 0; k < 2; k++) {
		prom_help(k ? "lsmctl_program_run_seconds_total" : "lsmctl_program_runs_total",
			  "counter", k ? "Time a policy's program ran, while the kernel counts." :
			  "Runs of a policy's program, while the kernel counts.");
		for (i = 0; i < n; i++) {
			int m = prog_stats(&list[i], st);

			for (j = 0; j < m; j++) {
				printf(k ? "lsmctl_program_run_seconds_total" :
				       "lsmctl_program_runs_total");
				prom_policy(&list[i]);
				printf(",hook=\"%s\",prog_id=\"%u\"} ", hook_name(st[j].hook),
				       st[j].prog_id);
				if (k)
					printf("%.9f\n", st[j].run_time_ns / 1e9);
				else
					printf("%llu\n", (unsigned long long)st[j].run_cnt);
			}
		}
	}
}
