// SPDX-License-Identifier: GPL-2.0
/*
 * lsmctl: per-cgroup BPF LSM policies for policy developers.
 *
 * So far: check, which validates a policy file without loading anything.
 */
#include <stdio.h>
#include <string.h>

#include "policy.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lsmctl COMMAND [ARGS]\n"
		"\n"
		"commands:\n"
		"  check FILE    validate a policy file; nothing is loaded\n"
		"\n"
		"exit status: 0 success, 1 the policy or the operation failed,\n"
		"2 bad usage. Policy format: loader/POLICY.md.\n");
}

static int cmd_check(int argc, char **argv)
{
	struct policy p;
	char err[512];
	size_t i, counts[RULE_CAPABILITY + 1] = { 0 };

	if (argc != 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: lsmctl check FILE\n"
			"Validate the policy in FILE: every error names FILE:LINE:COL.\n");
		return argc == 2 ? 0 : EXIT_USAGE;
	}
	if (policy_parse_file(argv[1], &p, err, sizeof(err))) {
		fprintf(stderr, "lsmctl: %s\n", err);
		return 1;
	}
	for (i = 0; i < p.n_rules; i++)
		counts[p.rules[i].kind]++;
	printf("%s: policy '%s', %s, default %s, %zu rule(s):", argv[1], p.name,
	       p.audit ? "audit" : "enforce", p.default_deny ? "deny" : "allow", p.n_rules);
	for (i = 0; i <= RULE_CAPABILITY; i++)
		if (counts[i])
			printf(" %zu %s", counts[i], rule_kind_name((enum rule_kind)i));
	printf("\n");
	policy_free(&p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	fprintf(stderr, "lsmctl: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
