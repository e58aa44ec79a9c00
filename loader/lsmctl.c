// SPDX-License-Identifier: GPL-2.0
/*
 * lsmctl: per-cgroup BPF LSM policies for policy developers.
 *
 * Policies are YAML files (loader/POLICY.md); applied ones are pinned
 * under /sys/fs/bpf/lsmlab (store.h) and enforced by the engine in
 * bpf-progs/policy/, through one of two backends (backend.h).
 *
 * This file: main() and its command table, and what the commands share
 * (main.h: usage_error(), the option parser, the printers; -j, p_err()
 * and p_warn() are output.c's).
 * Each command is in cmd_NAME.c; the events reader is events.c, the
 * Prometheus writer metrics.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "probe.h"
#include "main.h"
#include "unit.h"

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
	"  serve [SOCKET]                   the broker: policies below a confined subtree,\n"
	"                                   for its root (apply and detach inside ask it)\n"
	"  --version                        lsmctl's version\n"
	"\n"
	"-j prints JSON, one object a line, on every command (an error too, as\n"
	"{\"error\":...} on stdout); -p prints it indented. --unit NAME stands for\n"
	"--cgroup PATH wherever a command takes it: the cgroup systemd gives the\n"
	"unit NAME (nginx.service), running or not; apply --unit follows it.\n"
	"\n"
	"'lsmctl COMMAND --help' describes each. Exit status: 0 success; 1 the policy\n"
	"is invalid or the operation failed, and nothing was changed; 2 bad usage;\n"
	"run exits with CMD's status, probe and learn as their --help says. Policy\n"
	"format: loader/POLICY.md.\n";

/* Bad usage: on stderr with the command's help; with -j also p_err()'s object. */
int usage_error(const char *help, const char *fmt, const char *arg)
{
	char msg[ERR_MAX];

	snprintf(msg, sizeof(msg), fmt, arg);
	p_err("%s", msg);
	if (json)
		fprintf(stderr, "lsmctl: %s\n", msg);
	fputs(help, stderr);
	return EXIT_USAGE;
}

int parse_opts(int argc, char **argv, const char *help, const char *allowed,
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
		{ "follow", no_argument, NULL, 'F' },
		{ "prometheus", no_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "fold", required_argument, NULL, 'k' },
		{ "merge", required_argument, NULL, 'M' },
		{ "unit", required_argument, NULL, 'U' },
		{ "new", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *end, err[ERR_MAX];
	int c;

	memset(o, 0, sizeof(*o));
	o->audit = -1;
	o->fold = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jphc:b:n:t:f:m:dPo:k:M:U:N", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			exit(0);
		}
		if (c == 'p' && strchr(allowed, 'j'))
			c = 'j';	/* -p is -j, indented */
		if (c == 'U' && strchr(allowed, 'c'))
			c = 'U';	/* --unit NAME stands for --cgroup PATH */
		else if (c == '?' || !strchr(allowed, c))
			return usage_error(help, "unknown or misplaced option '%s'", argv[optind - 1]);
		switch (c) {
		case 'c':
			if (o->cgroup)
				return usage_error(help, "%s", "--cgroup or --unit, once");
			o->cgroup = optarg;
			break;
		case 'U':
			if (o->cgroup)
				return usage_error(help, "%s", "--cgroup or --unit, once");
			if (unit_cgroup(optarg, o->unit_path, sizeof(o->unit_path), err, sizeof(err)))
				return usage_error(help, "%s", err);
			o->cgroup = o->unit_path;
			/* a unit's cgroup is made anew at each start: apply follows it */
			o->follow = strchr(allowed, 'F') != NULL;
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
		case 'N':
			o->new_only = true;
			break;
		case 'm':
			if (strcmp(optarg, "audit") && strcmp(optarg, "enforce"))
				return usage_error(help, "mode '%s': audit or enforce", optarg);
			o->audit = !strcmp(optarg, "audit");
			break;
		case 'd':
			o->dry_run = true;
			break;
		case 'F':
			o->follow = true;
			break;
		case 'P':
			o->prometheus = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'M':
			o->merge = optarg;
			break;
		case 'n':
		case 't':
		case 'f':
		case 'k':
			errno = 0;
			*(c == 'n' ? &o->count : c == 't' ? &o->timeout :
			  c == 'k' ? &o->fold : &o->filler) = strtol(optarg, &end, 10);
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
 * "--"), before the options are parsed: a usage error is JSON too. The
 * tool's writer from here on, indented for -p.
 */
static void json_options(int argc, char **argv)
{
	bool on = false, pretty = false;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		bool cluster = a[0] == '-' && a[1] && !a[strspn(a + 1, "jp") + 1];	/* -j, -jp */

		if ((cluster && strchr(a, 'j')) || !strcmp(a, "--json"))
			on = true;
		if ((cluster && strchr(a, 'p')) || !strcmp(a, "--pretty"))
			on = pretty = true;
	}
	if (on && json_open(pretty)) {
		fputs("lsmctl: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
}

/*
 * Before reading the pins: finish or undo what a killed lsmctl left, so
 * that what is listed is what is enforced.
 */
int settle(void)
{
	char err[512];

	if (policies_open(false, err, sizeof(err)))
		return p_err("%s", err);
	store_close();
	return 0;
}

/* The hooks of @mask, space-separated, after @prefix (text) or as a JSON array. */
void print_hooks(const char *prefix, __u64 mask)
{
	unsigned int h;

	if (json)
		jsonw_start_array(json_wtr);
	else
		printf("%s", prefix);
	for (h = 0; h < LAB_NR_HOOKS; h++) {
		if (!(mask & (1ull << h)))
			continue;
		if (json)
			jsonw_string(json_wtr, hook_name(h));
		else
			printf(" %s", hook_name(h));
	}
	if (json)
		jsonw_end_array(json_wtr);
	else
		printf("\n");
}

/* @lines, one a line: as a JSON array of strings, or each on stderr. */
void print_lines(char *lines)
{
	char *line, *save;

	if (json)
		jsonw_start_array(json_wtr);
	for (line = strtok_r(lines, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (json)
			jsonw_string(json_wtr, line);
		else
			fprintf(stderr, "%s\n", line);
	}
	if (json)
		jsonw_end_array(json_wtr);
}

/*
 * A policy's warnings (policy_warnings(), one a line): with -j as a
 * "warnings" field of the object being written, else p_warn() each, on
 * stderr after what the command printed on stdout.
 */
int broker_said(int rc, const char *reply)
{
	if (rc)
		return p_err("the broker: %s", reply);
	if (json) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "broker", reply);
		jsonw_end_object(json_wtr);
	} else {
		printf("the broker: %s\n", reply);
	}
	return 0;
}

void print_warnings(const char *lines)
{
	char copy[POLICY_WARNINGS_MAX], *line, *save;

	snprintf(copy, sizeof(copy), "%s", lines);
	if (json) {
		jsonw_name(json_wtr, "warnings");
		print_lines(copy);
		return;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		p_warn("%s", line);
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
		{ "serve", cmd_serve },
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
	libbpf_set_print(lsmctl_libbpf_print);	/* given with the error it led to */
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			json_options(argc - 1, argv + 1);
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "lsmctl: unknown command '%s'\n", argv[1]);
	fputs(commands_help, stderr);
	return EXIT_USAGE;
}
