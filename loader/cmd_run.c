// SPDX-License-Identifier: GPL-2.0
/* lsmctl run: CMD in a new cgroup under a policy. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cgroup.h"
#include "output.h"
#include "main.h"


static const char help_run[] =
	"usage: lsmctl run FILE [--backend cgroup|global] [--mode audit|enforce] [-j] -- CMD [ARG...]\n"
	"Create a new cgroup below lsmctl's own, apply FILE to it, run CMD in it\n"
	"and wait; then end what CMD left running there, detach the policy, and\n"
	"remove the cgroup. Exits with CMD's status (128+N if killed by signal N).\n"
	"-j: apply's line, then {\"ran\":CMD,\"cgroup\":...,\"status\":N}; CMD's own\n"
	"output goes to the same stdout, as it is.\n";

int cmd_run(int argc, char **argv)
{
	char parent[PATH_MAX - 64], cg[PATH_MAX], why[PATH_MAX + 256];
	struct apply_opts ao;
	struct opts o;
	char **cmd;
	int rc, status, tries, dash;
	pid_t pid;

	/* lsmctl's options come before "--", CMD's after */
	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	rc = parse_opts(dash, argv, help_run, "bmj", &o);
	if (rc)
		return rc;
	if (o.nargs != 1 || dash >= argc - 1)
		return usage_error(help_run, "%s", "run takes FILE -- CMD [ARG...]");
	cmd = argv + dash + 1;
	if (cgroup_own(parent, sizeof(parent)))
		return p_err("/proc/self/cgroup: no cgroup2 entry");
	snprintf(cg, sizeof(cg), "%s/lsmctl-run-%d", parent, getpid());
	if (mkdir(cg, 0755))
		return p_err("mkdir %s: %s", cg, strerror(errno));
	ao = (struct apply_opts){ .backend = o.backend, .backend_given = o.backend_given,
				  .audit = o.audit };
	rc = apply_policy(o.args[0], cg, &ao);
	if (rc) {
		rmdir(cg);
		return rc;
	}
	pid = cgroup_spawn(cmd, cg, "run", why, sizeof(why));
	if (pid < 0) {
		rc = p_err("%s", why);
		if (pid == CGROUP_SPAWN_NOEXEC)
			rc = 127;	/* as a shell says a command it could not run */
	} else {
		signal(SIGINT, SIG_IGN);	/* CMD gets them; we wait for it */
		signal(SIGQUIT, SIG_IGN);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	/*
	 * What CMD left behind is killed under the policy, and only then is
	 * the policy taken off: the other way round, a task left running
	 * could leave the cgroup between the two.
	 */
	if (cgroup_kill(cg))
		return p_err("%s: tasks still running after cgroup.kill: the policy stays", cg);
	detach_policy(cg, 1);
	for (tries = 0; rmdir(cg) && errno == EBUSY && tries < 100; tries++)
		usleep(50 * 1000);
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "ran", cmd[0]);
		jsonw_string_field(json_wtr, "cgroup", cg + strlen(CGROUP_ROOT));
		jsonw_int_field(json_wtr, "status", rc);
		jsonw_end_object(json_wtr);
	}
	return rc;
}
