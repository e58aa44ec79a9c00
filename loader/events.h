/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmctl events: each denial and audit-mode report of the journal as it
 * comes, as a line or a JSON object, named as it was when it happened,
 * and how many events this reader lost and the kernel could not report.
 */
#ifndef LSMCTL_EVENTS_H
#define LSMCTL_EVENTS_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "json_writer.h"

struct events_opts {
	__u64 cgroup_id;	/* only its tasks' events and its policy's; 0: all */
	long count;		/* stop after this many; 0: no limit */
	long timeout;		/* stop after this many seconds; 0: none */
	json_writer_t *json;	/* one JSON object an event (lsmctl's json_wtr); NULL: text */
	bool history;		/* from the oldest event the journal holds, not the next */
};

/*
 * Print the journal's events on stdout until @o's count or timeout, or
 * SIGINT or SIGTERM; once a second, and at the end, a line for the
 * events lost since the last one said. 0, or -errno with why in @err.
 */
int events_stream(const struct events_opts *o, char *err, size_t errlen);

#endif /* LSMCTL_EVENTS_H */
