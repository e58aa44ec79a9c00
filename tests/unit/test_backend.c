// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the one backend choice (loader/backend.c's
 * backend_choose()) that learn, check, diff, apply and run share, over a
 * table of lsm_cgroup slot counts: stock and Debian's 6.1 (10 slots),
 * the lab's kernel (more), none, and slots taken by other policies.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "backend.h"

#define CG BACKEND_CGROUP
#define GL BACKEND_GLOBAL
#define REFUSED -1	/* backend_choose() returns -ENOSPC */

struct row {
	int slots, taken;		/* the kernel's: in all, taken by other links */
	int own, own_held;		/* the policy's own hooks, those holding a slot already */
	int all, all_held;		/* with its refusal hooks */
	int given;			/* -1: no --backend; else the forced backend */
	int want;			/* CG, GL or REFUSED */
};

static const struct row table[] = {
	/* stock/debian 6.1, 10 slots, nothing taken */
	{ 10, 0, 3, 0, 3, 0, -1, CG },		/* a small policy: cgroup */
	{ 10, 0, 3, 0, 5, 0, -1, CG },		/* 2 refusal hooks, 5 free stay */
	{ 10, 0, 6, 0, 8, 0, -1, GL },		/* refusal hooks would leave 2 < 3 spare */
	{ 10, 0, 6, 0, 8, 0, CG, CG },		/* forced: own hooks fit, attach warns of the rest */
	{ 10, 0, 10, 0, 10, 0, -1, CG },	/* exactly the slots, no refusal hook */
	{ 10, 0, 11, 0, 11, 0, -1, GL },	/* a learnt draft of 11 hooks (issue 26) */
	{ 10, 0, 11, 0, 11, 0, CG, REFUSED },	/* forced: refused before loading */
	{ 10, 0, 11, 0, 11, 0, GL, GL },
	{ 10, 0, 23, 0, 23, 0, -1, GL },	/* the learning policy */
	/* slots taken by other policies; hooks they hold are shared */
	{ 10, 8, 3, 0, 3, 0, -1, GL },
	{ 10, 8, 3, 0, 3, 0, CG, REFUSED },
	{ 10, 8, 3, 2, 3, 2, -1, CG },		/* 1 new slot of 2 free */
	{ 10, 8, 3, 3, 5, 3, -1, GL },		/* 2 new refusal slots leave none spare */
	{ 10, 10, 1, 1, 1, 1, CG, CG },		/* all taken, but its hook is held */
	/* the lab's kernel: more slots */
	{ 64, 0, 23, 0, 23, 0, -1, CG },	/* the learning policy fits */
	{ 64, 0, 11, 0, 14, 0, -1, CG },
	{ 64, 60, 11, 0, 14, 0, -1, GL },
	/* no lsm_cgroup slots (or no BTF to tell) */
	{ 0, 0, 3, 0, 3, 0, -1, GL },
	{ 0, 0, 3, 0, 3, 0, CG, REFUSED },
	{ 0, 0, 3, 0, 3, 0, GL, GL },
	/* how many are taken is unknown (not root): the slots in all */
	{ 10, -EPERM, 3, 0, 3, 0, -1, CG },
	{ 10, -EPERM, 11, 0, 11, 0, CG, REFUSED },
};

static struct slot_budget budget(int slots, int taken, int needed, int held)
{
	struct slot_budget b = { .slots = slots, .taken = taken, .needed = needed, .held = held };

	slot_budget_fit(&b);
	return b;
}

static void test_table(void **state)
{
	char why[512], what[128];
	enum backend got;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct row *r = &table[i];
		struct slot_budget own = budget(r->slots, r->taken, r->own, r->own_held);
		struct slot_budget all = budget(r->slots, r->taken, r->all, r->all_held);

		snprintf(what, sizeof(what), "row %zu: %d slots, %d taken, %d/%d hooks, given %d",
			 i, r->slots, r->taken, r->own, r->all, r->given);
		got = NR_BACKENDS;
		rc = backend_choose(&own, &all, r->given >= 0, r->given >= 0 ? r->given : CG, &got,
				    why, sizeof(why));
		if (r->want == REFUSED) {
			if (rc != -ENOSPC)
				fail_msg("%s: not refused (%s)", what, why);
			/* the refusal names what works */
			if (!strstr(why, "--backend global"))
				fail_msg("%s: the refusal does not name --backend global: %s", what, why);
		} else {
			if (rc || got != (enum backend)r->want)
				fail_msg("%s: got %d (rc %d), want %d: %s", what, got, rc, r->want, why);
			if (strncmp(why, r->want == CG ? "cgroup" : "global", 6))
				fail_msg("%s: why does not start with the backend: %s", what, why);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
