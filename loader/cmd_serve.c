// SPDX-License-Identifier: GPL-2.0
/* lsmctl serve: the broker, for confined roots' policies below their own. */
#define _GNU_SOURCE

#include "broker.h"
#include "output.h"
#include "main.h"

static const char help_serve[] =
	"usage: lsmctl serve [SOCKET]\n"
	"Apply and detach policies on cgroups below a subtree with self-protection\n"
	"for the confined root of that subtree, which may not load BPF itself: its\n"
	"lsmctl apply and detach ask this broker. Listens on SOCKET (default\n"
	BROKER_SOCKET ", mode 0600), or on the socket systemd passes\n"
	"(LISTEN_FDS); one request at a time, each logged on stderr. A request is\n"
	"honoured only for a cgroup strictly below the requester's subtree, only\n"
	"on a policy that came the same way, on the global backend, within the\n"
	"broker's limits (loader/POLICY.md, Nested policies from inside). Runs until killed.\n";

int cmd_serve(int argc, char **argv)
{
	char err[ERR_MAX];
	struct opts o;
	int rc = parse_opts(argc, argv, help_serve, "", &o);

	if (rc)
		return rc;
	if (o.nargs > 1)
		return usage_error(help_serve, "%s", "serve takes one SOCKET at most");
	rc = broker_serve(o.nargs ? o.args[0] : BROKER_SOCKET, err, sizeof(err));
	return p_err("%s", err);
}
