// SPDX-License-Identifier: GPL-2.0
/* lsmctl learn: a draft policy from what CMD does. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "draft.h"
#include "learn.h"
#include "output.h"
#include "probe.h"
#include "main.h"


static const char help_learn[] =
	"usage: lsmctl learn [-o FILE] [--backend cgroup|global] [--timeout S] [--fold N] [-j]\n"
	"                    -- CMD [ARG...]\n"
	"       lsmctl learn [-o FILE] [--backend B] [--fold N] --cgroup PATH --timeout S [-j]\n"
	"Run CMD in a new cgroup below lsmctl's own (or watch the cgroup PATH, which\n"
	"has no policy, for S seconds) under a policy that reports every access and\n"
	"denies none (audit mode, default: deny), then write a draft policy of what\n"
	"it did to FILE (default: stdout): default: deny, an allow rule for each\n"
	"file, folder, socket, address and capability used, a comment on each saying\n"
	"how many times and by which programs; every class of access the run never\n"
	"used closed (closed:), ptrace, mount, module_load and signal denied when\n"
	"unused. --fold N (default 4; 0: never): N or more files of one folder with\n"
	"the same access fold into FOLDER/**, except programs (exec rules name each)\n"
	"and a folder that is, holds or is in one of the secrets lsmctl(8) lists\n"
	"(/etc/shadow, /etc/ssh, /root, a home's .ssh, ...). Files are named by inode\n"
	"after the run: one gone with its folder is a comment, not a rule. The\n"
	"backend is chosen as apply chooses it:\n"
	"the learning policy needs every one of the engine's hooks, more than stock\n"
	"6.1's lsm_cgroup slots, so global there. --timeout S: end CMD after S\n"
	"seconds. Exits 0 when the draft is written, whatever CMD's status (said\n"
	"on stderr, and in the draft); 5 when nothing was learnt: CMD did not\n"
	"start (no such program), or no access was seen (an idle cgroup), and no\n"
	"draft is written; 1 when it fails otherwise; 4 when BPF LSM is not\n"
	"active. --cgroup warns when the cgroup has no task as learning starts.\n";

int cmd_learn(int argc, char **argv)
{
	struct learn_opts lo = { 0 };
	struct learned l;
	char err[ERR_MAX];
	struct opts o;
	FILE *f = stdout;
	int rc, dash;

	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	rc = parse_opts(dash, argv, help_learn, "cbtjok", &o);
	if (rc)
		return rc;
	if (o.fold == 1)
		return usage_error(help_learn, "%s", "--fold 1 would fold every file: 2 or more, or 0");
	if (o.nargs || (dash >= argc - 1) == !o.cgroup || (o.cgroup && !o.timeout))
		return usage_error(help_learn, "%s",
				   "learn takes -- CMD [ARG...], or --cgroup PATH --timeout S");
	lo = (struct learn_opts){ .backend = o.backend, .backend_given = o.backend_given,
				  .cgroup = o.cgroup, .timeout = o.timeout,
				  .cmd = o.cgroup ? NULL : argv + dash + 1,
				  .fold = o.fold < 0 ? DRAFT_FOLD_MIN : (unsigned int)o.fold };
	if (o.output) {
		f = fopen(o.output, "we");
		if (!f)
			return p_err("%s: %s", o.output, strerror(errno));
	}
	rc = learn(&lo, f, &l, err, sizeof(err));
	if (f != stdout && fclose(f) && !rc)
		rc = errf(err, sizeof(err), -EIO, "%s: %s", o.output, strerror(errno));
	if (rc) {
		if (o.output)
			unlink(o.output);
		p_err("%s", err);
		return rc == -ENOPKG ? EXIT_NO_BPF_LSM :
		       rc == -ENODATA ? EXIT_NOTHING_LEARNT : EXIT_FAIL;
	}
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "learned", o.output ? o.output : "-");
		jsonw_int_field(json_wtr, "status", l.status);
		jsonw_uint_field(json_wtr, "events", l.events);
		jsonw_uint_field(json_wtr, "lost", l.lost);
		jsonw_uint_field(json_wtr, "unresolved", l.unresolved);
		jsonw_uint_field(json_wtr, "rules", l.rules);
		jsonw_end_object(json_wtr);
	} else {
		fprintf(stderr, "lsmctl learn: %s exited %d; %lu event(s), %lu lost, %lu file(s) "
			"with no name; %zu rule(s)%s%s\n", lo.cmd ? lo.cmd[0] : o.cgroup, l.status,
			l.events, l.lost, l.unresolved, l.rules, o.output ? " in " : "",
			o.output ? o.output : "");
	}
	return 0;
}
