// SPDX-License-Identifier: GPL-2.0
/* lsmctl detach: remove a cgroup's policy. */
#define _GNU_SOURCE

#include "broker.h"
#include "output.h"
#include "main.h"


static const char help_detach[] =
	"usage: lsmctl detach --cgroup PATH|--unit NAME [-j]\n"
	"Remove the policy applied to the cgroup PATH (not its ancestors' or\n"
	"descendants' policies). In a subtree with self-protection, detach asks\n"
	"the broker (lsmctl serve), for a policy applied through it.\n";

int detach_policy(const char *cgroup, int quiet)
{
	char err[ERR_MAX], rel[META_PATH_MAX];

	if (policy_detach(cgroup, 0, rel, sizeof(rel), err, sizeof(err)))
		return p_err("%s", err);
	if (quiet)
		return 0;
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "detached", rel);
		jsonw_end_object(json_wtr);
	} else {
		printf("detached the policy on %s\n", rel);
	}
	return 0;
}

int cmd_detach(int argc, char **argv)
{
	char reply[BROKER_REPLY_MAX];
	struct opts o;
	int rc = parse_opts(argc, argv, help_detach, "cj", &o);
	__u64 scope;

	if (rc)
		return rc;
	if (o.nargs || !o.cgroup)
		return usage_error(help_detach, "%s", "detach takes --cgroup PATH");
	if (broker_confined(&scope))
		return broker_said(broker_change(NULL, o.cgroup, -1, reply, sizeof(reply)), reply);
	return detach_policy(o.cgroup, 0);
}
