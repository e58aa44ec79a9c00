// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: drafts are data (issue 24). The input is a list of
 * events a confined program could cause, with the names it chose:
 *
 *	KIND PATH '\0' COMM '\0' KIND PATH '\0' COMM '\0' ...
 *
 * KIND is one byte: its low 3 bits an access (read, write, exec,
 * create, unlink), bit 3 a subtree, bits 4-5 a file, a socket, a
 * capability or a fixed kind (ptrace, mount, module_load, signal), bit
 * 6 a fold at the end. PATH and COMM are any bytes but NUL: newlines,
 * quotes, '#', '...', '---', bytes that are not UTF-8 (PATH gets a
 * leading '/'; COMM is cut to 15 bytes, as the kernel's).
 *
 * The draft is written with draft.c and parsed with policy.c; it must
 * parse, and give back exactly what was written: the name, enforce,
 * default deny, self-protection on; a files or exec rule for each
 * distinct file or subtree draft.c kept, with its path, subtree and
 * accesses; one rule for each network and capability rule; and a deny
 * rule for each fixed kind not used, none for one used. Nothing else.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../../loader/draft.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next NUL-ended string of at most @max bytes at *@p, or NULL at the end. */
static const char *next(const uint8_t **p, const uint8_t *end, char *buf, size_t max)
{
	const uint8_t *nul = memchr(*p, 0, (size_t)(end - *p));
	size_t n;

	if (!nul)
		return NULL;
	n = (size_t)(nul - *p);
	if (n > max)
		n = max;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p = nul + 1;
	return buf;
}

static void check(bool ok, const char *what, const char *text)
{
	if (ok)
		return;
	fprintf(stderr, "fuzz_draft: %s\n%s\n", what, text);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum rule_kind fixed[] = { RULE_PTRACE, RULE_MOUNT, RULE_MODULE_LOAD,
						RULE_SIGNAL };
	const uint8_t *p = data, *end = data + size;
	char path[POLICY_PATH_MAX + 2], comm[16], err[4096];
	size_t i, j, files = 0, others = 0, n_fixed = 0;
	struct draft d = { 0 };
	bool fold = false;
	struct policy pol;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	while (p < end) {
		uint8_t kind = *p++;
		unsigned int access = kind & 7;

		path[0] = '/';
		if (!next(&p, end, path + 1, POLICY_PATH_MAX) || !next(&p, end, comm, 15))
			break;
		fold |= kind & 0x40;
		switch ((kind >> 4) & 3) {
		case 0:
			if (draft_file(&d, path, kind & 8, access < 5 ? 1u << access : 1, comm))
				goto out;
			break;
		case 1:
			if (draft_socket(&d, AF_INET, SOCK_STREAM + (access & 1), comm))
				goto out;
			break;
		case 2:
			if (draft_cap(&d, (unsigned int)(unsigned char)path[1] % 48, comm))
				goto out;
			break;
		case 3:
			draft_fixed(&d, fixed[access & 3], comm);
			break;
		}
	}
	if (fold && draft_fold(&d, DRAFT_FOLD_MIN))
		goto out;
	f = open_memstream(&text, &len);
	if (!f)
		goto out;
	check(!draft_write(&d, f, "fuzz", "a header\nwith lines"), "draft_write failed", "");
	fclose(f);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		n_fixed += !d.fixed_seen[fixed[i]];
	for (i = 0; i < d.n_rules; i++) {
		for (j = 0; j < i; j++)	/* draft_write() makes one rule a file */
			if (d.rules[i].kind != RULE_FILES ||
			    (d.rules[j].kind == RULE_FILES && d.rules[j].subtree == d.rules[i].subtree &&
			     !strcmp(d.rules[j].path, d.rules[i].path)))
				break;
		if (d.rules[i].kind != RULE_FILES)
			others++;
		else
			files += j == i;
	}
	/* no rule at all (every fixed kind used, nothing else): no policy, said so */
	if (!files && !others && !n_fixed) {
		check(policy_parse("draft.yaml", text, len, &pol, err, sizeof(err)) &&
		      strstr(err, "rules"), "a draft with no rules parses", text);
		goto out;
	}
	if (policy_parse("draft.yaml", text, len, &pol, err, sizeof(err))) {
		fprintf(stderr, "fuzz_draft: the draft does not parse: %s\n", err);
		check(false, "the draft does not parse", text);
	}
	check(!strcmp(pol.name, "fuzz") && !pol.audit && pol.default_deny && !pol.no_self_protection,
	      "the draft's name, mode, default or self-protection changed", text);
	/* each of draft.c's rules is in the policy, as it was */
	for (i = 0; i < d.n_rules; i++) {
		const struct draft_rule *r = &d.rules[i];
		bool found = false;

		if (r->kind != RULE_FILES)
			continue;
		for (j = 0; j < pol.n_rules && !found; j++) {
			const struct policy_rule *q = &pol.rules[j];

			found = (q->kind == RULE_FILES || q->kind == RULE_EXEC) && !q->deny &&
				q->file.subtree == r->subtree && !strcmp(q->file.path, r->path) &&
				(q->file.access & r->access) == r->access;
		}
		check(found, "a file rule written is not in the parsed draft", text);
	}
	/* and nothing else: as many rules as written, the fixed ones deny */
	check(pol.n_rules == files + others + n_fixed, "the parsed draft has other rules", text);
	for (j = 0; j < pol.n_rules; j++) {
		const struct policy_rule *q = &pol.rules[j];

		for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			if (q->kind == fixed[i])
				check(q->deny && !d.fixed_seen[fixed[i]],
				      "a fixed kind's rule that was not written", text);
		if (q->kind == RULE_FILES || q->kind == RULE_EXEC || q->kind == RULE_NETWORK ||
		    q->kind == RULE_CAPABILITY)
			check(!q->deny, "a deny rule that was not written", text);
	}
	policy_free(&pol);
out:
	free(text);
	draft_free(&d);
	return 0;
}
