// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the warnings about a valid policy (loader/warnings.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compile.h"
#include "warnings.h"

static struct policy p;
static char out[4096];

/* Parse @yaml into p and compute its warnings into out; how many. */
static unsigned int warnings_of(const char *yaml)
{
	char err[1024];

	policy_free(&p);
	assert_int_equal(policy_parse("t.yaml", yaml, strlen(yaml), &p, err, sizeof(err)), 0);
	return policy_warnings(&p, out, sizeof(out));
}

static int teardown(void **state)
{
	(void)state;
	policy_free(&p);
	return 0;
}

/* Every class closed, self-protection on, enforce: no warning. */
static void test_none(void **state)
{
	(void)state;
	assert_int_equal(warnings_of("name: x\nrules:\n"
		"  - files: /a/**\n    access: [read, write, create, unlink]\n    action: deny\n"
		"  - exec: /b/**\n    action: deny\n"
		"  - network: socket\n    action: deny\n"
		"  - network: bind\n    action: deny\n"
		"  - network: connect\n    action: deny\n"
		"  - capability: CAP_SYS_ADMIN\n    action: deny\n"
		"  - ptrace: deny\n  - mount: deny\n  - module_load: deny\n  - signal: deny\n"), 0);
	assert_string_equal(out, "");
}

static void test_open_classes(void **state)
{
	(void)state;
	assert_int_equal(warnings_of("name: x\nrules:\n"
		"  - files: /a/**\n    access: read\n    action: deny\n  - ptrace: deny\n"), 11);
	assert_null(strstr(out, "read is left open"));
	assert_null(strstr(out, "ptrace is left open"));
	assert_non_null(strstr(out, "write is left open: no rule denies it\n"));
	assert_non_null(strstr(out, "exec is left open: no rule denies it\n"));
	assert_non_null(strstr(out, "connect is left open: no rule denies it\n"));
	assert_non_null(strstr(out, "module_load is left open: no rule denies it\n"));
	assert_non_null(strstr(out, "signal is left open: no rule denies it\n"));
}

/* Under default allow an allow rule closes nothing; under default deny it does. */
static void test_allow_rules(void **state)
{
	(void)state;
	warnings_of("name: x\nrules:\n  - exec: /usr/bin/**\n    action: allow\n");
	assert_non_null(strstr(out, "exec is left open: no rule denies it\n"));
	warnings_of("name: x\ndefault: deny\nrules:\n  - exec: /usr/bin/**\n    action: allow\n");
	assert_null(strstr(out, "exec is left open"));
	assert_non_null(strstr(out, "read is left open: no rule allows or denies it\n"));
}

static void test_audit_and_self_protection(void **state)
{
	(void)state;
	warnings_of("name: x\nmode: audit\nself_protection: off\nrules:\n  - ptrace: deny\n");
	assert_true(strncmp(out, "self-protection is off: a task in the subtree may undo the "
			    "policy\naudit mode: the policy reports and denies nothing\n",
			    strlen("self-protection is off: a task in the subtree may undo the "
				   "policy\naudit mode: the policy reports and denies nothing\n")) == 0);
}

/*
 * An applied policy's warnings (show) are the file's: from the classes
 * and flags its meta keeps, as apply fills them in.
 */
static void test_meta(void **state)
{
	static const char *const yaml[] = {
		"name: x\nrules:\n  - files: /a/**\n    access: [read, exec]\n    action: deny\n",
		"name: x\nmode: audit\nself_protection: off\ndefault: deny\nrules:\n"
		"  - network: connect\n    action: allow\n  - signal: deny\n",
		"name: x\ndefault: deny\nrules:\n  - ptrace: deny\n",
	};
	char from_meta[sizeof(out)];
	struct lab_meta m;
	unsigned int n;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yaml) / sizeof(yaml[0]); i++) {
		n = warnings_of(yaml[i]);
		memset(&m, 0, sizeof(m));
		m.flags = (p.audit ? LAB_AUDIT : 0) | (p.no_self_protection ? 0 : LAB_SELF_PROTECT);
		m.closed = policy_closed_classes(&p);
		m.deny_by_default = p.default_deny;
		assert_int_equal(meta_warnings(&m, from_meta, sizeof(from_meta)), n);
		assert_string_equal(from_meta, out);
	}
	assert_non_null(strstr(out, "read is left open: no rule allows or denies it\n"));
}

/* A small buffer: cut short, NUL-terminated, the count still whole. */
static void test_small_buffer(void **state)
{
	char small[8];

	(void)state;
	warnings_of("name: x\nrules:\n  - ptrace: deny\n");
	assert_int_equal(policy_warnings(&p, small, sizeof(small)), 12);
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_none, teardown),
		cmocka_unit_test_teardown(test_open_classes, teardown),
		cmocka_unit_test_teardown(test_allow_rules, teardown),
		cmocka_unit_test_teardown(test_audit_and_self_protection, teardown),
		cmocka_unit_test_teardown(test_meta, teardown),
		cmocka_unit_test_teardown(test_small_buffer, teardown),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
