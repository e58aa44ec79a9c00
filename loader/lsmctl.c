// SPDX-License-Identifier: GPL-2.0
/*
 * lsmctl: per-cgroup BPF LSM policies for policy developers.
 *
 * Policies are YAML files (loader/POLICY.md); applied ones are pinned
 * under /sys/fs/bpf/lsmlab (store.h) and enforced by the engine in
 * bpf-progs/policy/, through one of two backends (backend.h).
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "apply.h"
#include "backend.h"
#include "cgroup.h"
#include "compile.h"
#include "errors.h"
#include "events.h"
#include "guard.h"
#include "learn.h"
#include "metrics.h"
#include "output.h"
#include "policy.h"
#include "probe.h"
#include "store.h"
#include "warnings.h"

#define ERR_MAX 4096	/* a message lsmctl prints: a path or two, and why */

static const char *const commands_help =
	"usage: lsmctl COMMAND [ARGS]\n"
	"\n"
	"commands:\n"
	"  check FILE                       validate a policy file; nothing is loaded\n"
	"  apply FILE --cgroup PATH [--backend cgroup|global] [--mode M] [--dry-run]\n"
	"                                   enforce FILE on a cgroup and everything below it,\n"
	"                                   replacing its policy atomically\n"
	"  diff FILE --cgroup PATH          FILE against the cgroup's policy, rule by rule\n"
	"  detach --cgroup PATH             remove a cgroup's policy\n"
	"  list [-j]                        the applied policies\n"
	"  show PATH [-j]                   one cgroup's policy: rules, hooks, origin\n"
	"  events [-j] [--cgroup PATH] [--count N] [--timeout SECONDS]\n"
	"                                   stream denials and audit-mode reports\n"
	"  stats [-j | --prometheus]        per-rule hits, per-program runs and run time\n"
	"  run FILE [--backend B] -- CMD [ARG...]\n"
	"                                   run CMD in a new cgroup under FILE's policy\n"
	"  probe [-j]                       what the running kernel offers each backend\n"
	"  learn [-o FILE] [--backend B] -- CMD [ARG...]\n"
	"                                   a draft policy from what CMD does\n"
	"  --version                        lsmctl's version\n"
	"\n"
	"-j prints JSON, one object a line, on every command (an error too, as\n"
	"{\"error\":...} on stdout); -p prints it indented.\n"
	"\n"
	"'lsmctl COMMAND --help' describes each. Exit status: 0 success; 1 the policy\n"
	"is invalid or the operation failed, and nothing was changed; 2 bad usage;\n"
	"run exits with CMD's status, probe as its --help says. Policy format:\n"
	"loader/POLICY.md.\n";

static int json;

/* Bad usage: on stderr with the command's help; with -j also {"error": ...} on stdout. */
static int usage_error(const char *help, const char *fmt, const char *arg)
{
	char msg[ERR_MAX];

	snprintf(msg, sizeof(msg), fmt, arg);
	if (json) {
		printf("{\"error\":");
		json_string(stdout, msg);
		printf("}\n");
	}
	fprintf(stderr, "lsmctl: %s\n%s", msg, help);
	return EXIT_USAGE;
}

/* Why a command failed: on stderr, or with -j as {"error": ...} on stdout. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	char msg[ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (json) {
		printf("{\"error\":");
		json_string(stdout, msg);
		printf("}\n");
	} else {
		fprintf(stderr, "lsmctl: %s\n", msg);
	}
	return EXIT_FAIL;
}

/* Parse --cgroup, --backend, -j, --count, --timeout; the rest are operands. */
struct opts {
	const char *cgroup;
	enum backend backend;
	long count;
	long timeout;
	long filler;
	int audit;		/* --mode: -1 the file's, 0 enforce, 1 audit */
	bool dry_run;
	bool prometheus;
	bool backend_given;	/* --backend, not the default */
	const char *output;	/* -o FILE */
	int nargs;
	char **args;
};

static int parse_opts(int argc, char **argv, const char *help, const char *allowed,
		      struct opts *o)
{
	static const struct option longopts[] = {
		{ "cgroup", required_argument, NULL, 'c' },
		{ "backend", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "filler", required_argument, NULL, 'f' },
		{ "mode", required_argument, NULL, 'm' },
		{ "dry-run", no_argument, NULL, 'd' },
		{ "prometheus", no_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->audit = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jphc:b:n:t:f:m:dPo:", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			exit(0);
		}
		if (c == 'p' && strchr(allowed, 'j'))
			c = 'j';	/* -p is -j, indented */
		if (c == '?' || !strchr(allowed, c))
			return usage_error(help, "unknown or misplaced option '%s'", argv[optind - 1]);
		switch (c) {
		case 'c':
			o->cgroup = optarg;
			break;
		case 'b':
			if (!strcmp(optarg, "cgroup") || !strcmp(optarg, "lsm_cgroup"))
				o->backend = BACKEND_CGROUP;
			else if (!strcmp(optarg, "global"))
				o->backend = BACKEND_GLOBAL;
			else
				return usage_error(help, "backend '%s': cgroup or global", optarg);
			o->backend_given = true;
			break;
		case 'j':
			json = 1;
			break;
		case 'm':
			if (strcmp(optarg, "audit") && strcmp(optarg, "enforce"))
				return usage_error(help, "mode '%s': audit or enforce", optarg);
			o->audit = !strcmp(optarg, "audit");
			break;
		case 'd':
			o->dry_run = true;
			break;
		case 'P':
			o->prometheus = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'n':
		case 't':
		case 'f':
			errno = 0;
			*(c == 'n' ? &o->count : c == 't' ? &o->timeout : &o->filler) =
				strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || strtol(optarg, NULL, 10) < 0)
				return usage_error(help, "'%s' is not a count of 0 or more", optarg);
			break;
		}
	}
	o->nargs = argc - optind;
	o->args = argv + optind;
	return 0;
}

/*
 * -j and -p, wherever they are among lsmctl's options (not CMD's, after
 * "--"), before the options are parsed: a usage error is JSON too. -p
 * pretty-prints stdout's JSON from here on.
 */
static void json_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		bool cluster = a[0] == '-' && a[1] && !a[strspn(a + 1, "jp") + 1];	/* -j, -jp */

		if ((cluster && strchr(a, 'j')) || !strcmp(a, "--json"))
			json = 1;
		if ((cluster && strchr(a, 'p')) || !strcmp(a, "--pretty")) {
			json = 1;
			json_pretty_stdout();
			return;
		}
	}
}

/*
 * Before reading the pins: finish or undo what a killed lsmctl left, so
 * that what is listed is what is enforced.
 */
static int settle(void)
{
	char err[512];

	if (policies_open(false, err, sizeof(err)))
		return fail("%s", err);
	store_close();
	return 0;
}

/* The hooks of @mask, space-separated, after @prefix (text) or as a JSON array. */
static void print_hooks(const char *prefix, __u64 mask)
{
	unsigned int h, n = 0;

	printf(json ? "[" : "%s", prefix);
	for (h = 0; h < LAB_NR_HOOKS; h++)
		if (mask & (1ull << h))
			printf(json ? "%s\"%s\"" : "%s%s", n++ ? (json ? "," : " ") : (json ? "" : " "),
			       hook_name(h));
	printf(json ? "]" : "\n");
}

/* check */

static const char help_check[] =
	"usage: lsmctl check FILE [-j]\n"
	"Parse and compile the policy in FILE as apply would, loading nothing:\n"
	"every error, FILE:LINE:COL each; a warning for each path that does not\n"
	"exist (apply would refuse it); a warning for self-protection off, audit\n"
	"mode and each class of access no rule closes; the hooks the policy\n"
	"needs, and whether they fit in the running kernel's lsm_cgroup hook\n"
	"slots (the cgroup backend's limit, shared by every lsm_cgroup program).\n"
	"Exit status 0 when the policy is valid, warnings or not; 1 when it is\n"
	"not.\n";

#define CHECK_MSG_MAX 16384	/* every error or warning of a file, one a line */

/* @lines, one a line: as a JSON array of strings, or each on stderr. */
static void print_lines(char *lines)
{
	char *line, *save;
	int n = 0;

	if (json)
		printf("[");
	for (line = strtok_r(lines, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (json) {
			printf("%s", n++ ? "," : "");
			json_string(stdout, line);
		} else {
			fprintf(stderr, "%s\n", line);
		}
	}
	if (json)
		printf("]");
}

/*
 * A policy's warnings (policy_warnings(), one a line): with -j as a
 * "warnings" field of the object being printed, else on stderr, after
 * what the command printed on stdout.
 */
static void print_warnings(const char *lines)
{
	char copy[POLICY_WARNINGS_MAX], *line, *save;

	snprintf(copy, sizeof(copy), "%s", lines);
	if (json) {
		printf(",\"warnings\":");
		print_lines(copy);
		return;
	}
	fflush(stdout);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "lsmctl: warning: %s\n", line);
}

/* Every error of a file, FILE:LINE:COL each: on stderr, or as {"error": ...}. */
static int check_failed(const char *errors)
{
	char *copy;

	if (json)
		return fail("%s", errors);
	copy = strdup(errors);
	if (!copy)
		return fail("%s", errors);
	print_lines(copy);
	free(copy);
	return EXIT_FAIL;
}

static void print_budget(const struct slot_budget *b)
{
	if (json) {
		printf(",\"lsm_cgroup\":{\"hook_slots\":%d,\"slots_taken\":", b->slots);
		if (b->taken < 0)
			printf("null");
		else
			printf("%d", b->taken);
		printf(",\"slots_needed\":%d,\"slots_held\":%d,\"fits\":%s}", b->needed, b->held,
		       b->slots && b->fits ? "true" : "false");
		return;
	}
	if (!b->slots)
		printf("cgroup backend: this kernel has no lsm_cgroup hook slots (or no BTF to "
		       "tell): use --backend global\n");
	else if (b->taken < 0)
		printf("cgroup backend: %d hook slot(s) of this kernel's %d: %s (how many are "
		       "taken is unknown: %s)\n", b->needed, b->slots, b->fits ? "fits" : "does NOT fit",
		       strerror(-b->taken));
	else
		printf("cgroup backend: %d hook slot(s), %d of them held already; this kernel has "
		       "%d, %d taken: %s\n", b->needed, b->held, b->slots, b->taken,
		       b->fits ? "fits" : "does NOT fit: apply --backend global");
	printf("global backend: no hook slot limit\n");
}

/* After the compiler's warnings in @buf, @p's: "FILE: warning: ..." each. */
static void add_policy_warnings(const char *file, const struct policy *p, char *buf, size_t len)
{
	char lines[POLICY_WARNINGS_MAX], *line, *save;
	size_t used = strlen(buf);

	if (used && buf[used - 1] != '\n' && used + 1 < len)
		buf[used++] = '\n';
	policy_warnings(p, lines, sizeof(lines));
	for (line = strtok_r(lines, "\n", &save); line && used + 1 < len;
	     line = strtok_r(NULL, "\n", &save))
		used += (size_t)snprintf(buf + used, len - used, "%s: warning: %s\n", file, line);
}

static int cmd_check(int argc, char **argv)
{
	size_t i, counts[RULE_CAPABILITY + 1] = { 0 };
	char *err, *warnings;
	struct slot_budget budget;
	struct compiled c;
	struct policy p;
	struct opts o;
	int rc = parse_opts(argc, argv, help_check, "j", &o);

	if (rc)
		return rc;
	if (o.nargs != 1)
		return usage_error(help_check, "%s", "check takes one FILE");
	err = calloc(1, CHECK_MSG_MAX);
	warnings = calloc(1, CHECK_MSG_MAX);
	if (!err || !warnings) {
		free(err);
		free(warnings);
		return fail("out of memory");
	}
	if (policy_parse_file(o.args[0], &p, err, CHECK_MSG_MAX) ||
	    policy_compile_check(o.args[0], &p, &c, warnings, CHECK_MSG_MAX, err, CHECK_MSG_MAX)) {
		policy_free(&p);
		rc = check_failed(err);
		goto out;
	}
	for (i = 0; i < p.n_rules; i++)
		counts[p.rules[i].kind]++;
	add_policy_warnings(o.args[0], &p, warnings, CHECK_MSG_MAX);
	probe_slot_budget(c.hooks, &budget);
	if (json) {
		printf("{\"file\":");
		json_string(stdout, o.args[0]);
		printf(",\"policy\":");
		json_string(stdout, p.name);
		printf(",\"mode\":\"%s\",\"default\":\"%s\",\"rules\":{",
		       p.audit ? "audit" : "enforce", p.default_deny ? "deny" : "allow");
		for (i = 0, rc = 0; i <= RULE_CAPABILITY; i++)
			if (counts[i])
				printf("%s\"%s\":%zu", rc++ ? "," : "",
				       rule_kind_name((enum rule_kind)i), counts[i]);
		printf("},\"hooks\":");
		print_hooks("", c.hooks);
		printf(",\"warnings\":");
		print_lines(warnings);
		print_budget(&budget);
		printf("}\n");
	} else {
		printf("%s: policy '%s', %s, default %s, %zu rule(s):", o.args[0], p.name,
		       p.audit ? "audit" : "enforce", p.default_deny ? "deny" : "allow",
		       p.n_rules);
		for (i = 0; i <= RULE_CAPABILITY; i++)
			if (counts[i])
				printf(" %zu %s", counts[i], rule_kind_name((enum rule_kind)i));
		printf("\n");
		fflush(stdout);
		print_lines(warnings);
		printf("hooks: %d:", __builtin_popcountll(c.hooks));
		print_hooks("", c.hooks);
		print_budget(&budget);
	}
	rc = 0;
	compiled_free(&c);
	policy_free(&p);
out:
	free(err);
	free(warnings);
	return rc;
}

/* apply */

static const char help_apply[] =
	"usage: lsmctl apply FILE --cgroup PATH [--backend cgroup|global] [--mode audit|enforce]\n"
	"                    [--dry-run] [-j] [--filler N]\n"
	"Enforce the policy in FILE on the cgroup2 folder PATH and every cgroup\n"
	"below it. A policy already on PATH is replaced atomically: its tasks are\n"
	"never unconfined. On any failure nothing changes and the reason is\n"
	"printed. Backends: cgroup (default; lsm_cgroup programs attached to PATH)\n"
	"or global (lsm/ programs for every task, which look PATH up in a map).\n"
	"--mode overrides the file's mode. --dry-run compiles the policy as apply\n"
	"would and says what it would change (as lsmctl diff), changing nothing.\n"
	"Warns (stderr; with -j a \"warnings\" field) about self-protection off,\n"
	"audit mode and each class of access no rule closes, as check does.\n"
	"--filler N adds N file rules by inode that match nothing (and N by path\n"
	"when the policy has rules by path), for benchmarks of cost against rule\n"
	"count.\n";

/* Apply @file to @cgroup; 0, or EXIT_FAIL (EXIT_NO_BPF_LSM) having printed why. */
static int apply_policy(const char *file, const char *cgroup, const struct apply_opts *ao)
{
	struct applied a;
	char err[ERR_MAX];
	int rc = policy_apply(file, cgroup, ao, &a, err, sizeof(err));

	if (rc) {
		fail("%s", err);
		return rc == -ENOPKG ? EXIT_NO_BPF_LSM : EXIT_FAIL;
	}
	if (json) {
		printf("{\"applied\":");
		json_string(stdout, a.name);
		printf(",\"cgroup\":");
		json_string(stdout, a.cgroup);
		printf(",\"backend\":\"%s\",\"mode\":\"%s\",\"rules\":%zu,\"hooks\":%d",
		       backend_ops(ao->backend)->name, a.audit ? "audit" : "enforce", a.n_rules,
		       __builtin_popcountll(a.hooks));
		print_warnings(a.warnings);
		printf("}\n");
	} else {
		printf("applied '%s' to %s (%s backend, %s, %zu rule(s), %d hook(s))\n", a.name,
		       a.cgroup, backend_ops(ao->backend)->name, a.audit ? "audit" : "enforce",
		       a.n_rules, __builtin_popcountll(a.hooks));
		print_warnings(a.warnings);
	}
	return 0;
}

/*
 * What applying the file would change on the cgroup, rule by rule:
 * "+" only in the file, "-" only in the applied policy, " " in both.
 */
static int print_diff(const char *file, const char *cgroup, const struct apply_opts *ao,
		      bool dry_run)
{
	struct policy_diff d;
	char err[ERR_MAX];
	__u64 old_hooks;
	bool old_audit;
	__u32 i;
	int rc = policy_diff(file, cgroup, ao, &d, err, sizeof(err));

	if (rc)
		return fail("%s", err);
	if (dry_run && probe_bpf_lsm(err, sizeof(err))) {
		policy_diff_free(&d);
		fail("%s", err);
		return EXIT_NO_BPF_LSM;
	}
	old_hooks = d.applied ? d.s.meta.hooks : 0;
	old_audit = d.applied && (d.s.meta.flags & LAB_AUDIT);
	if (json) {
		printf("{\"cgroup\":");
		json_string(stdout, d.cgroup);
		printf(",\"policy\":");
		json_string(stdout, d.name);
		printf(",\"applied\":");
		if (d.applied)
			json_string(stdout, d.s.meta.name);
		else
			printf("null");
		printf(",\"mode\":\"%s\",\"added\":[", d.audit ? "audit" : "enforce");
		for (i = 0, rc = 0; i < d.c.n_rules; i++)
			if (!d.in_applied[i]) {
				printf("%s", rc++ ? "," : "");
				json_string(stdout, d.c.rules[i].text);
			}
		printf("],\"removed\":[");
		for (i = 0, rc = 0; d.applied && i < d.s.meta.n_rules; i++)
			if (!d.in_file[i]) {
				printf("%s", rc++ ? "," : "");
				json_string(stdout, d.s.rules[i].text);
			}
		printf("],\"hooks_added\":");
		print_hooks("", d.c.hooks & ~old_hooks);
		printf(",\"hooks_removed\":");
		print_hooks("", old_hooks & ~d.c.hooks);
		printf(",\"changed\":false");
		print_warnings(d.warnings);
		printf("}\n");
	} else {
		if (d.applied)
			printf("--- %s: policy '%s' (%s), applied\n", d.cgroup, d.s.meta.name,
			       old_audit ? "audit" : "enforce");
		else
			printf("--- %s: no policy applied\n", d.cgroup);
		printf("+++ %s: policy '%s' (%s)\n", file, d.name, d.audit ? "audit" : "enforce");
		for (i = 0; d.applied && i < d.s.meta.n_rules; i++)
			if (!d.in_file[i])
				printf("- line %-4u %s\n", d.s.rules[i].line, d.s.rules[i].text);
		for (i = 0; i < d.c.n_rules; i++)
			printf("%c line %-4u %s\n", d.in_applied[i] ? ' ' : '+', d.c.rules[i].line,
			       d.c.rules[i].text);
		if (d.c.hooks & ~old_hooks)
			print_hooks("hooks added:  ", d.c.hooks & ~old_hooks);
		if (old_hooks & ~d.c.hooks)
			print_hooks("hooks removed:", old_hooks & ~d.c.hooks);
		if (dry_run)
			printf("dry run: nothing was changed\n");
		print_warnings(d.warnings);
	}
	policy_diff_free(&d);
	return 0;
}

static int cmd_apply(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_apply, "cbjfmd", &o);
	struct apply_opts ao;

	if (rc)
		return rc;
	if (o.nargs != 1 || !o.cgroup)
		return usage_error(help_apply, "%s", "apply takes FILE and --cgroup PATH");
	ao = (struct apply_opts){ .backend = o.backend, .filler = (size_t)o.filler,
				  .audit = o.audit };
	if (o.dry_run)
		return print_diff(o.args[0], o.cgroup, &ao, true);
	return apply_policy(o.args[0], o.cgroup, &ao);
}

/* diff */

static const char help_diff[] =
	"usage: lsmctl diff FILE --cgroup PATH [--mode audit|enforce] [-j]\n"
	"The policy in FILE, compiled as apply would, against the policy applied\n"
	"on PATH, rule by rule: '-' only applied, '+' only in FILE, ' ' in both;\n"
	"then the hooks apply would add and remove, and FILE's warnings, as\n"
	"check's. Changes nothing.\n";

static int cmd_diff(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_diff, "cjm", &o);
	struct apply_opts ao;

	if (rc)
		return rc;
	if (o.nargs != 1 || !o.cgroup)
		return usage_error(help_diff, "%s", "diff takes FILE and --cgroup PATH");
	ao = (struct apply_opts){ .backend = o.backend, .audit = o.audit };
	return print_diff(o.args[0], o.cgroup, &ao, false);
}

/* detach */

static const char help_detach[] =
	"usage: lsmctl detach --cgroup PATH [-j]\n"
	"Remove the policy applied to the cgroup PATH (not its ancestors' or\n"
	"descendants' policies).\n";

static int detach_policy(const char *cgroup, int quiet)
{
	char err[ERR_MAX], rel[META_PATH_MAX];

	if (policy_detach(cgroup, rel, sizeof(rel), err, sizeof(err)))
		return fail("%s", err);
	if (quiet)
		return 0;
	if (json) {
		printf("{\"detached\":");
		json_string(stdout, rel);
		printf("}\n");
	} else {
		printf("detached the policy on %s\n", rel);
	}
	return 0;
}

static int cmd_detach(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_detach, "cj", &o);

	if (rc)
		return rc;
	if (o.nargs || !o.cgroup)
		return usage_error(help_detach, "%s", "detach takes --cgroup PATH");
	return detach_policy(o.cgroup, 0);
}

/* probe */

static const char help_probe[] =
	"usage: lsmctl probe [-j]\n"
	"What the running kernel offers lsmctl: whether BPF LSM is active (and the\n"
	"lsm= boot parameter that would make it so), the kernel's BTF, cgroup v2\n"
	"and the BPF filesystem, lsm_cgroup programs and their hook slots, which\n"
	"of the engine's and of self-protection's hooks the kernel has, and what\n"
	"each backend can do. Loads nothing. -j: one JSON object.\n"
	"Exit status: 0 both backends can run; 3 only the global backend (no\n"
	"lsm_cgroup programs); 4 neither (BPF LSM not active, or no BTF, cgroup v2\n"
	"or BPF filesystem); 2 bad usage.\n";

static int cmd_probe(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_probe, "j", &o);

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_probe, "%s", "probe takes no operands");
	return probe_report(json);
}

/* list, show */

static const char help_list[] =
	"usage: lsmctl list [-j]\n"
	"The applied policies: cgroup, name, backend, mode, rules and hooks.\n";

/* An applied policy's warnings, as print_warnings(). */
static void print_meta_warnings(const struct lab_meta *m)
{
	char lines[POLICY_WARNINGS_MAX];

	meta_warnings(m, lines, sizeof(lines));
	print_warnings(lines);
}

static void print_policy_json(const struct stored *s, int with_rules)
{
	unsigned int h, i, first = 1;
	char when[64];

	printf("{\"cgroup\":");
	json_string(stdout, s->meta.cgroup);
	printf(",\"cgroup_id\":%llu,\"name\":", (unsigned long long)s->meta.cgroup_id);
	json_string(stdout, s->meta.name);
	printf(",\"backend\":\"%s\",\"mode\":\"%s\",\"rules\":%u,\"file\":",
	       backend_ops(s->meta.backend)->name, s->meta.flags & LAB_AUDIT ? "audit" : "enforce",
	       s->meta.n_rules);
	json_string(stdout, s->meta.file);
	format_rfc3339((long long)s->meta.applied, 0, when, sizeof(when));
	printf(",\"applied\":%llu,\"applied_time\":\"%s\",\"policy_id\":%u,\"hooks\":[",
	       (unsigned long long)s->meta.applied, when, s->meta.policy);
	for (h = 0; h < LAB_NR_HOOKS; h++)
		if (s->meta.hooks & (1ull << h)) {
			printf("%s\"%s\"", first ? "" : ",", hook_name(h));
			first = 0;
		}
	printf("]");
	if (with_rules) {
		printf(",\"rule_list\":[");
		for (i = 0; i < s->meta.n_rules; i++) {
			printf("%s{\"index\":%u,\"line\":%u,\"text\":", i ? "," : "", i,
			       s->rules[i].line);
			json_string(stdout, s->rules[i].text);
			printf("}");
		}
		printf("]");
		print_meta_warnings(&s->meta);
	}
	printf("}");
}

static int cmd_list(int argc, char **argv)
{
	struct stored *list;
	struct opts o;
	int rc = parse_opts(argc, argv, help_list, "j", &o), n, i;

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_list, "%s", "list takes no operands");
	if (settle())
		return EXIT_FAIL;
	n = stored_list(&list);
	if (n < 0)
		return fail(PIN_ROOT ": %s", strerror(errno));
	if (json) {
		printf("[");
		for (i = 0; i < n; i++) {
			printf(i ? "," : "");
			print_policy_json(&list[i], 0);
		}
		printf("]\n");
	} else {
		printf("%-24s %-20s %-7s %-7s %5s %5s\n", "CGROUP", "POLICY", "BACKEND", "MODE",
		       "RULES", "HOOKS");
		for (i = 0; i < n; i++)
			printf("%-24s %-20s %-7s %-7s %5u %5d\n", list[i].meta.cgroup,
			       list[i].meta.name, backend_ops(list[i].meta.backend)->name,
			       list[i].meta.flags & LAB_AUDIT ? "audit" : "enforce",
			       list[i].meta.n_rules, __builtin_popcountll(list[i].meta.hooks));
	}
	stored_list_free(list, n);
	return 0;
}

static const char help_show[] =
	"usage: lsmctl show PATH [-j]\n"
	"The policy on the cgroup PATH: its file, mode, backend, hooks and rules,\n"
	"and its warnings, as check's (stderr; with -j a \"warnings\" field).\n";

static int cmd_show(int argc, char **argv)
{
	char err[512], rel[256], dir[256];
	struct stored s;
	struct opts o;
	__u64 cgid;
	__u32 level, i, h;
	int rc = parse_opts(argc, argv, help_show, "j", &o);

	if (rc)
		return rc;
	if (o.nargs != 1)
		return usage_error(help_show, "%s", "show takes one cgroup PATH");
	if (cgroup_resolve(o.args[0], &cgid, &level, rel, sizeof(rel), err, sizeof(err)))
		return fail("%s", err);
	if (settle())
		return EXIT_FAIL;
	policy_dir(cgid, dir, sizeof(dir));
	if (stored_read(dir, &s))
		return fail("no policy on %s", rel);
	if (json) {
		print_policy_json(&s, 1);
		printf("\n");
	} else {
		char when[64];

		format_rfc3339((long long)s.meta.applied, 0, when, sizeof(when));
		printf("cgroup:  %s (id %llu)\npolicy:  %s, from %s, applied %s\n", s.meta.cgroup,
		       (unsigned long long)s.meta.cgroup_id, s.meta.name, s.meta.file, when);
		printf("mode:    %s, %s backend\nhooks:  ",
		       s.meta.flags & LAB_AUDIT ? "audit" : "enforce", backend_ops(s.meta.backend)->name);
		for (h = 0; h < LAB_NR_HOOKS; h++)
			if (s.meta.hooks & (1ull << h))
				printf(" %s", hook_name(h));
		printf("\nrules:\n");
		for (i = 0; i < s.meta.n_rules; i++)
			printf("  %3u  line %-4u %s\n", i, s.rules[i].line, s.rules[i].text);
		print_meta_warnings(&s.meta);
	}
	stored_free(&s);
	return 0;
}

/* events */

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

static int cmd_events(int argc, char **argv)
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
		return fail("%s", err);
	eo.count = o.count;
	eo.timeout = o.timeout;
	eo.json = json;
	if (policies_open(false, err, sizeof(err)))
		return fail("%s", err);
	fd = store_events_fd();
	store_close();	/* reading needs no lock */
	if (fd == -EPERM)
		return fail("the events ring buffer: %s (a task under self-protection cannot "
			    "consume events: read them from outside its cgroup)", strerror(-fd));
	if (fd < 0)
		return fail("the events ring buffer: %s", strerror(-fd));
	rc = events_stream(fd, &eo, err, sizeof(err));
	if (rc)
		return fail("%s", err);
	close(fd);
	return 0;
}

/* stats */

static const char help_stats[] =
	"usage: lsmctl stats [-j | --prometheus]\n"
	"Per policy: how often each rule (and the default) decided, and per\n"
	"program the kernel's run count and run_time_ns. The kernel counts runs\n"
	"only while sysctl kernel.bpf_stats_enabled is 1. Programs of the global\n"
	"backend are shared by every global policy. --prometheus: the same as\n"
	"metrics in node-exporter's textfile format (lsmctl_rule_hits_total,\n"
	"lsmctl_events_lost_total, lsmctl_guard_events_lost_total,\n"
	"lsmctl_program_runs_total, lsmctl_program_run_seconds_total).\n";

static void stats_programs(const struct stored *s)
{
	struct prog_stat st[LAB_NR_HOOKS];
	int n = prog_stats(s, st), i;

	for (i = 0; i < n; i++) {
		if (json)
			printf("%s{\"hook\":\"%s\",\"prog_id\":%u,\"run_cnt\":%llu,\"run_time_ns\":%llu}",
			       i ? "," : "", hook_name(st[i].hook), st[i].prog_id,
			       (unsigned long long)st[i].run_cnt,
			       (unsigned long long)st[i].run_time_ns);
		else
			printf("  program %-22s id %-5u runs %-10llu run_time_ns %-12llu avg %.0f\n",
			       hook_name(st[i].hook), st[i].prog_id, (unsigned long long)st[i].run_cnt,
			       (unsigned long long)st[i].run_time_ns,
			       st[i].run_cnt ? (double)st[i].run_time_ns / st[i].run_cnt : 0.0);
	}
}

static int cmd_stats(int argc, char **argv)
{
	struct stored *list;
	struct opts o;
	__u64 *hits, default_hits;
	int rc = parse_opts(argc, argv, help_stats, "jP", &o), n, i, enabled;
	__u32 r;

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_stats, "%s", "stats takes no operands");
	if (json && o.prometheus)
		return usage_error(help_stats, "%s", "-j or --prometheus, not both");
	if (settle())
		return EXIT_FAIL;
	n = stored_list(&list);
	if (n < 0)
		return fail(PIN_ROOT ": %s", strerror(errno));
	enabled = bpf_stats_enabled();
	if (o.prometheus) {
		stats_prometheus(list, n, enabled);
		stored_list_free(list, n);
		return 0;
	}
	if (json)
		printf("{\"bpf_stats_enabled\":%s,\"policies\":[", enabled ? "true" : "false");
	else if (!enabled)
		printf("(run counts: sysctl kernel.bpf_stats_enabled=1 to have the kernel count)\n");
	for (i = 0; i < n; i++) {
		struct stored *s = &list[i];

		hits = calloc(s->meta.n_rules + 1, sizeof(*hits));
		if (!hits)
			break;
		policy_hits(s, hits, &default_hits);
		if (json) {
			printf("%s{\"cgroup\":", i ? "," : "");
			json_string(stdout, s->meta.cgroup);
			printf(",\"name\":");
			json_string(stdout, s->meta.name);
			printf(",\"backend\":\"%s\",\"rules\":[", backend_ops(s->meta.backend)->name);
			for (r = 0; r < s->meta.n_rules; r++) {
				printf("%s{\"index\":%u,\"line\":%u,\"hits\":%llu,\"text\":",
				       r ? "," : "", r, s->rules[r].line,
				       (unsigned long long)hits[r]);
				json_string(stdout, s->rules[r].text);
				printf("}");
			}
			printf("],\"default_hits\":%llu,\"lost_events\":%llu,\"programs\":[",
			       (unsigned long long)default_hits,
			       (unsigned long long)policy_lost(s));
			stats_programs(s);
			printf("]}");
		} else {
			printf("%s: policy '%s' (%s backend)\n", s->meta.cgroup, s->meta.name,
			       backend_ops(s->meta.backend)->name);
			for (r = 0; r < s->meta.n_rules; r++)
				printf("  rule %-3u line %-4u hits %-10llu %s\n", r, s->rules[r].line,
				       (unsigned long long)hits[r], s->rules[r].text);
			printf("  default           hits %llu\n", (unsigned long long)default_hits);
			printf("  events lost (the ring was full): %llu\n",
			       (unsigned long long)policy_lost(s));
			stats_programs(s);
		}
		free(hits);
	}
	if (json)
		printf("],\"guard_lost_events\":%llu}\n", (unsigned long long)guard_lost());
	else
		printf("self-protection's guard: events lost (the ring was full): %llu\n",
		       (unsigned long long)guard_lost());
	stored_list_free(list, n);
	return 0;
}

/* run */

static const char help_run[] =
	"usage: lsmctl run FILE [--backend cgroup|global] [--mode audit|enforce] [-j] -- CMD [ARG...]\n"
	"Create a new cgroup below lsmctl's own, apply FILE to it, run CMD in it\n"
	"and wait; then end what CMD left running there, detach the policy, and\n"
	"remove the cgroup. Exits with CMD's status (128+N if killed by signal N).\n"
	"-j: apply's line, then {\"ran\":CMD,\"cgroup\":...,\"status\":N}; CMD's own\n"
	"output goes to the same stdout, as it is.\n";

static int cmd_run(int argc, char **argv)
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
		return fail("/proc/self/cgroup: no cgroup2 entry");
	snprintf(cg, sizeof(cg), "%s/lsmctl-run-%d", parent, getpid());
	if (mkdir(cg, 0755))
		return fail("mkdir %s: %s", cg, strerror(errno));
	ao = (struct apply_opts){ .backend = o.backend, .audit = o.audit };
	rc = apply_policy(o.args[0], cg, &ao);
	if (rc) {
		rmdir(cg);
		return rc;
	}
	pid = cgroup_spawn(cmd, cg, "run", why, sizeof(why));
	if (pid < 0) {
		rc = fail("%s", why);
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
		return fail("%s: tasks still running after cgroup.kill: the policy stays", cg);
	detach_policy(cg, 1);
	for (tries = 0; rmdir(cg) && errno == EBUSY && tries < 100; tries++)
		usleep(50 * 1000);
	if (json) {
		printf("{\"ran\":");
		json_string(stdout, cmd[0]);
		printf(",\"cgroup\":");
		json_string(stdout, cg + strlen(CGROUP_ROOT));
		printf(",\"status\":%d}\n", rc);
	}
	return rc;
}

/* learn */

static const char help_learn[] =
	"usage: lsmctl learn [-o FILE] [--backend cgroup|global] [--timeout S] [-j] -- CMD [ARG...]\n"
	"       lsmctl learn [-o FILE] [--backend B] --cgroup PATH --timeout S [-j]\n"
	"Run CMD in a new cgroup below lsmctl's own (or watch the cgroup PATH, which\n"
	"has no policy, for S seconds) under a policy that reports every access and\n"
	"denies none (audit mode, default: deny), then write a draft policy of what\n"
	"it did to FILE (default: stdout): default: deny, an allow rule for each\n"
	"file, folder, socket, address and capability used, a comment on each saying\n"
	"how many times and by which programs; four or more files of one folder with\n"
	"the same access fold into FOLDER/**; ptrace, mount, module_load and signal\n"
	"denied when unused. Files are named by inode after the run: one gone with its\n"
	"folder is a comment, not a rule. The backend is global by default: the\n"
	"learning policy needs every one of the engine's hooks, more than stock 6.1's\n"
	"lsm_cgroup slots. --timeout S: end CMD after S seconds. Exits 0 when the\n"
	"draft is written, whatever CMD's status (said on stderr, and in the draft);\n"
	"1 when it is not; 4 when BPF LSM is not active.\n";

static int cmd_learn(int argc, char **argv)
{
	struct learn_opts lo = { 0 };
	struct learned l;
	char err[ERR_MAX];
	struct opts o;
	FILE *f = stdout;
	int rc, dash;

	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	rc = parse_opts(dash, argv, help_learn, "cbtjo", &o);
	if (rc)
		return rc;
	if (o.nargs || (dash >= argc - 1) == !o.cgroup || (o.cgroup && !o.timeout))
		return usage_error(help_learn, "%s",
				   "learn takes -- CMD [ARG...], or --cgroup PATH --timeout S");
	lo = (struct learn_opts){ .backend = o.backend_given ? o.backend : BACKEND_GLOBAL,
				  .cgroup = o.cgroup, .timeout = o.timeout,
				  .cmd = o.cgroup ? NULL : argv + dash + 1 };
	if (o.output) {
		f = fopen(o.output, "we");
		if (!f)
			return fail("%s: %s", o.output, strerror(errno));
	}
	rc = learn(&lo, f, &l, err, sizeof(err));
	if (f != stdout && fclose(f) && !rc)
		rc = errf(err, sizeof(err), -EIO, "%s: %s", o.output, strerror(errno));
	if (rc) {
		if (o.output)
			unlink(o.output);
		fail("%s", err);
		return rc == -ENOPKG ? EXIT_NO_BPF_LSM : EXIT_FAIL;
	}
	if (json) {
		printf("{\"learned\":");
		json_string(stdout, o.output ? o.output : "-");
		printf(",\"status\":%d,\"events\":%lu,\"lost\":%lu,\"unresolved\":%lu,"
		       "\"rules\":%zu}\n", l.status, l.events, l.lost, l.unresolved, l.rules);
	} else {
		fprintf(stderr, "lsmctl learn: %s exited %d; %lu event(s), %lu lost, %lu file(s) "
			"with no name; %zu rule(s)%s%s\n", lo.cmd ? lo.cmd[0] : o.cgroup, l.status,
			l.events, l.lost, l.unresolved, l.rules, o.output ? " in " : "",
			o.output ? o.output : "");
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} commands[] = {
		{ "check", cmd_check }, { "apply", cmd_apply }, { "detach", cmd_detach },
		{ "list", cmd_list },   { "show", cmd_show },   { "events", cmd_events },
		{ "stats", cmd_stats }, { "run", cmd_run },     { "diff", cmd_diff },
		{ "probe", cmd_probe }, { "--version", cmd_version }, { "learn", cmd_learn },
	};
	size_t i;

	if (argc < 2) {
		fputs(commands_help, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(commands_help, stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			json_options(argc - 1, argv + 1);
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "lsmctl: unknown command '%s'\n", argv[1]);
	fputs(commands_help, stderr);
	return EXIT_USAGE;
}
