// SPDX-License-Identifier: GPL-2.0
/* lsmctl events: denials and audit-mode reports as they come. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "events.h"
#include "main.h"
#include "output.h"


static const char help_events[] =
	"usage: lsmctl events [-j] [--cgroup PATH] [--count N] [--timeout SECONDS] [--new]\n"
	"Print each denial (verdict deny) and each audit-mode would-be denial\n"
	"(verdict audit) as it happens: time, verdict, the task's cgroup, pid,\n"
	"comm, hook, object, and the deciding rule (or 'default'), each as it\n"
	"was when it happened. The events the journal still holds (the last\n"
	"LAB_JOURNAL_SLOTS) come first; --new starts with the next one. Every\n"
	"reader gets every event: readers take none from each other. --cgroup\n"
	"keeps the events of tasks in PATH and of PATH's policy; stop after N\n"
	"events or SECONDS seconds. Nothing goes unsaid: a line 'lost N\n"
	"event(s)' ({\"lost\":N,\"why\":...} with -j) counts the events this\n"
	"reader fell too far behind to read, and those the kernel could not\n"
	"report (lsmctl stats has their totals).\n";

int cmd_events(int argc, char **argv)
{
	struct events_opts eo = { 0 };
	char err[512], rel[256];
	__u32 level;
	struct opts o;
	int rc = parse_opts(argc, argv, help_events, "jcntN", &o);

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_events, "%s", "events takes no operands");
	if (o.cgroup &&
	    cgroup_resolve(o.cgroup, &eo.cgroup_id, &level, rel, sizeof(rel), err, sizeof(err)))
		return p_err("%s", err);
	eo.count = o.count;
	eo.timeout = o.timeout;
	eo.json = json_wtr;
	eo.history = !o.new_only;
	if (policies_open(false, err, sizeof(err)))
		return p_err("%s", err);
	store_close();	/* reading needs no lock: none is held while it lasts */
	rc = events_stream(&eo, err, sizeof(err));
	if (rc == -EPERM)
		return p_err("%s (a task under self-protection cannot read events: read them "
			    "from outside its cgroup)", err);
	if (rc)
		return p_err("%s", err);
	return 0;
}
