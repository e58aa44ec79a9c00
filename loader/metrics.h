/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel and the policies count (lsmctl stats): the programs'
 * runs and run time, and the Prometheus writer (stats --prometheus).
 */
#ifndef LSMCTL_METRICS_H
#define LSMCTL_METRICS_H

#include <linux/types.h>

#include "store.h"

/* Does the kernel count BPF program runs (sysctl kernel.bpf_stats_enabled)? */
int bpf_stats_enabled(void);

/* What the kernel counts of one of a policy's programs. */
struct prog_stat {
	unsigned int hook;
	__u32 prog_id;
	__u64 run_cnt, run_time_ns;
};

/* The programs linked for @s, their counts in @out (LAB_NR_HOOKS at most): how many. */
int prog_stats(const struct stored *s, struct prog_stat *out);

/*
 * lsmctl stats --prometheus: the @n policies of @list in node-exporter's
 * textfile collector format on stdout; @enabled: bpf_stats_enabled().
 */
void stats_prometheus(struct stored *list, int n, int enabled);

#endif /* LSMCTL_METRICS_H */
