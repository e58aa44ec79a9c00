// SPDX-License-Identifier: GPL-2.0
/* Escapes: running each attempt, with its control, and recording it for the summary. */
#define _GNU_SOURCE

#include "escapes.h"

struct result {
	char what[160];
	char verdict[64];
	char why[400];
};

static struct result results[256];
static int n_results;

void record(const char *what, const char *verdict, const char *why)
{
	struct result *r;

	if (n_results >= (int)ARRAY_SIZE(results))
		return;
	r = &results[n_results++];
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->verdict, sizeof(r->verdict), "%s", verdict);
	snprintf(r->why, sizeof(r->why), "%s", why ? why : "");
}

/*
 * One attempt, in cgroup @name, after its control when @ctl. @why: for
 * a limit, why the policy does not hold; for a hold, what holds it.
 */
void attempt_errno(const char *name, enum kind kind, int want, bool ctl,
		   const char *what, const char *why, probe_fn fn, const void *arg)
{
	char verdict[64];
	int rc;

	if (ctl && control(cg.ctl, what, fn, arg) == ENOSYS) {
		record(what, "skipped (ENOSYS: not in this kernel)", NULL);
		return;
	}
	rc = probe_pid(name, fn, arg, NULL);
	if (rc == want) {
		tap_result(1, "held: %s (%s)%s", what, errname(rc),
			   kind == HOLD ? "" : " # a limit elsewhere, held here");
		snprintf(verdict, sizeof(verdict), "held (%s)%s", errname(rc),
			 kind == HOLD ? "" : ", though listed as a limit");
		record(what, verdict, why);
	} else if (rc == 0 && kind == HOLD) {
		tap_result(0, "ESCAPED: %s (it worked inside %s)", what, name);
		record(what, "ESCAPED", why);
	} else if (rc == 0 && kind == DOC) {
		tap_result(1, "not held (documented limit): %s: %s # TODO documented limit",
			   what, why);
		record(what, "not held: documented limit", why);
	} else if (rc == 0) {
		tap_result(1, "not held (a limit POLICY.md does not name): %s: %s # TODO limit",
			   what, why);
		record(what, "not held: limit POLICY.md does not name", why);
	} else {
		tap_result(0, "%s: %s inside %s, not the policy's EPERM", what, errname(rc),
			   name);
		record(what, rc == BROKEN ? "could not try" : "failed, not EPERM", NULL);
	}
}

/* An attempt the policy denies with EPERM, as every denial of the engine. */
void attempt(const char *name, enum kind kind, bool ctl, const char *what,
	     const char *why, probe_fn fn, const void *arg)
{
	attempt_errno(name, kind, EPERM, ctl, what, why, fn, arg);
}

void skip(const char *what, const char *why)
{
	tap_result(1, "%s # SKIP %s", what, why);
	record(what, "skipped", why);
}

void summary(void)
{
	int i, held = 0, doc = 0, gap = 0, escaped = 0, info = 0, other = 0;

	for (i = 0; i < n_results; i++) {
		const char *v = results[i].verdict;

		if (!strncmp(results[i].what, "(info)", 6))
			info++;
		else if (!strncmp(v, "held", 4))
			held++;
		else if (strstr(v, "documented"))
			doc++;
		else if (strstr(v, "does not name"))
			gap++;
		else if (!strcmp(v, "ESCAPED"))
			escaped++;
		else
			other++;
	}
	tap_note("=== summary, %s backend, %s kernel, self-protection on: %d attempts: "
		 "%d held, %d documented limits, %d limits POLICY.md does not name, "
		 "%d ESCAPED, %d skipped or broken; %d for information", lab_backend,
		 getenv("LAB_VARIANT") ? getenv("LAB_VARIANT") : "?",
		 n_results - info, held, doc, gap, escaped, other, info);
	for (i = 0; i < n_results; i++) {
		tap_note("%2d. [%s] %s", i + 1, results[i].verdict, results[i].what);
		if (results[i].why[0])
			tap_note("      %s %s", strncmp(results[i].verdict, "held", 4) ? "why:" : "by:",
				 results[i].why);
	}
}
