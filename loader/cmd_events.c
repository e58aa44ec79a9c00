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
	"usage: lsmctl events [-j] [--cgroup PATH] [--count N] [--timeout SECONDS]\n"
	"Print each denial (verdict deny) and each audit-mode would-be denial\n"
	"(verdict audit) as it happens: time, verdict, the task's cgroup, pid,\n"
	"comm, hook, object, and the deciding rule (or 'default'). Events queued\n"
	"while nobody listened come first. --cgroup keeps the events of tasks in\n"
	"PATH and of PATH's policy; stop after N events or SECONDS seconds.\n"
	"Events the ring had no room for (every policy's, while it was full) are\n"
	"counted: a line 'lost N event(s)' ({\"lost\":N} with -j) says how many\n"
	"went since the last such line (the first: since the policies were\n"
	"applied); lsmctl stats has the totals.\n";

int cmd_events(int argc, char **argv)
{
	struct events_opts eo = { 0 };
	char err[512], rel[256];
	__u32 level;
	struct opts o;
	int rc = parse_opts(argc, argv, help_events, "jcnt", &o), fd;

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
	if (policies_open(false, err, sizeof(err)))
		return p_err("%s", err);
	fd = store_events_fd();
	store_close();	/* reading needs no lock */
	if (fd == -EPERM)
		return p_err("the events ring buffer: %s (a task under self-protection cannot "
			    "consume events: read them from outside its cgroup)", strerror(-fd));
	if (fd < 0)
		return p_err("the events ring buffer: %s", strerror(-fd));
	rc = events_stream(fd, &eo, err, sizeof(err));
	if (rc)
		return p_err("%s", err);
	close(fd);
	return 0;
}
