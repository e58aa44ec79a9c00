// SPDX-License-Identifier: GPL-2.0
/* lsmctl learn: a draft policy from what CMD does. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "draft.h"
#include "learn.h"
#include "output.h"
#include "probe.h"
#include "main.h"


static const char help_learn[] =
	"usage: lsmctl learn [-o FILE] [--merge DRAFT] [--backend cgroup|global] [--timeout S]\n"
	"                    [--fold N] [-j] -- CMD [ARG...]\n"
	"       lsmctl learn [-o FILE] [--merge DRAFT] [--backend B] [--fold N]\n"
	"                    --cgroup PATH --timeout S [-j]\n"
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
	"active. --cgroup warns when the cgroup has no task as learning starts;\n"
	"the learning policy follows PATH (apply --follow; not with --backend\n"
	"cgroup), so a restart of what is learnt (systemctl restart: its cgroup\n"
	"made again at PATH) is learnt too, systemd's own steps before the exec\n"
	"among it, and the draft is written. --unit NAME for --cgroup: systemd's\n"
	"unit NAME's cgroup.\n"
	"--merge DRAFT: the draft also allows what DRAFT (one learn wrote) allows, as\n"
	"aa-logprof widens a profile: learn a second run into the first's draft\n"
	"(-o DRAFT too); DRAFT is read first, and a rule no draft holds (a deny,\n"
	"a glob, a range) is an error. FILE is replaced only by a whole draft.\n";

int cmd_learn(int argc, char **argv)
{
	struct learn_opts lo = { 0 };
	struct policy merge = { 0 };
	char err[ERR_MAX], tmp[PATH_MAX] = "";
	struct learned l;
	struct opts o;
	FILE *f = stdout;
	int rc, dash, fd;

	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	rc = parse_opts(dash, argv, help_learn, "cbtjokM", &o);
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
	/* the earlier draft is read before anything runs: a bad one changes nothing */
	if (o.merge) {
		struct draft check = { 0 };

		if (policy_parse_file(o.merge, &merge, err, sizeof(err)))
			return p_err("--merge: %s", err);
		rc = draft_merge(&check, &merge, o.merge, err, sizeof(err));
		draft_free(&check);
		if (rc) {
			policy_free(&merge);
			return p_err("--merge: %s", rc == -EINVAL ? err : strerror(-rc));
		}
		lo.merge = &merge;
		lo.merge_file = o.merge;
	}
	/* FILE is replaced only by a whole draft (it may be the --merge one) */
	if (o.output) {
		if (snprintf(tmp, sizeof(tmp), "%s.lsmctl-XXXXXX", o.output) >= (int)sizeof(tmp)) {
			policy_free(&merge);
			return p_err("%s: %s", o.output, strerror(ENAMETOOLONG));
		}
		fd = mkostemp(tmp, O_CLOEXEC);
		f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f) {
			policy_free(&merge);
			return p_err("%s: %s", tmp, strerror(errno));
		}
	}
	rc = learn(&lo, f, &l, err, sizeof(err));
	policy_free(&merge);
	if (f != stdout && (fchmod(fileno(f), 0644) | fclose(f)) && !rc)
		rc = errf(err, sizeof(err), -EIO, "%s: %s", o.output, strerror(errno));
	if (!rc && o.output && rename(tmp, o.output))
		rc = errf(err, sizeof(err), -errno, "%s: %s", o.output, strerror(errno));
	if (rc) {
		if (o.output)
			unlink(tmp);
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
