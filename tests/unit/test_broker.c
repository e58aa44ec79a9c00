// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the broker's requests (loader/broker_proto.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "broker_proto.h"

#define MAX_POLICY 65536

static struct broker_req req;
static char err[512];

static int parse(const char *hdr)
{
	err[0] = '\0';
	return broker_parse(hdr, strlen(hdr), MAX_POLICY, &req, err, sizeof(err));
}

/* What broker_format() writes, broker_parse() reads back the same. */
static void test_round_trip(void **state)
{
	struct broker_req in = { .verb = BROKER_APPLY, .cgroup_id = 1234, .audit = 1,
				 .name = "web.yaml", .length = 77 };
	char buf[BROKER_HEADER_MAX];
	int n;

	(void)state;
	n = broker_format(&in, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(broker_header_end(buf, n), n);
	assert_int_equal(broker_parse(buf, n, MAX_POLICY, &req, err, sizeof(err)), 0);
	assert_int_equal(req.verb, BROKER_APPLY);
	assert_int_equal(req.cgroup_id, 1234);
	assert_int_equal(req.audit, 1);
	assert_string_equal(req.name, "web.yaml");
	assert_int_equal(req.length, 77);
	in = (struct broker_req){ .verb = BROKER_DETACH, .cgroup_id = 18446744073709551615ULL };
	n = broker_format(&in, buf, sizeof(buf));
	assert_int_equal(broker_parse(buf, n, MAX_POLICY, &req, err, sizeof(err)), 0);
	assert_int_equal(req.verb, BROKER_DETACH);
	assert_true(req.cgroup_id == 18446744073709551615ULL);
}

/* Each malformed header: -EINVAL and a message. */
static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"\n",
		"lsmctl-broker 2\nverb detach\ncgroup 5\n\n",
		"lsmctl-broker 1\nverb remove\ncgroup 5\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup 0\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup 05\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup -5\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup 18446744073709551616\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup 5x\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup 5\nmode file\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup 5\n",
		"lsmctl-broker 1\nverb apply\ncgroup 5\nmode file\nname a\n\n",
		"lsmctl-broker 1\nverb apply\ncgroup 5\nmode loud\nname a\nlength 3\n\n",
		"lsmctl-broker 1\nverb apply\ncgroup 5\nmode file\nname a b\nlength 3\n\n",
		"lsmctl-broker 1\nverb apply\ncgroup 5\nmode file\nname \x1b[31m\nlength 3\n\n",
		"lsmctl-broker 1\nverb apply\ncgroup 5\nmode file\nname a\nlength 0\n\n",
		"lsmctl-broker 1\nverb apply\ncgroup 5\nmode file\nname a\nlength 65537\n\n",
		"lsmctl-broker 1\nverb apply\ncgroup 5\nname a\nmode file\nlength 3\n\n",
		"lsmctl-broker 1\nverb  apply\ncgroup 5\n\n",
		"lsmctl-broker 1\r\nverb detach\ncgroup 5\n\n",
		"lsmctl-broker 1\nverb detach\ncgroup 5\n\nmore",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i]), -EINVAL);
		assert_true(err[0] != '\0');
	}
}

/* A NUL inside a line, and a header longer than BROKER_HEADER_MAX. */
static void test_nul_and_size(void **state)
{
	char buf[BROKER_HEADER_MAX + 64];
	const char nul[] = "lsmctl-broker 1\nverb detach\ncgroup 5\0 6\n\n";

	(void)state;
	assert_int_equal(broker_parse(nul, sizeof(nul) - 1, MAX_POLICY, &req, err, sizeof(err)),
			 -EINVAL);
	memset(buf, 'a', sizeof(buf));
	memcpy(buf, "lsmctl-broker 1\nverb detach\ncgroup 5\n", 37);
	buf[sizeof(buf) - 2] = '\n';
	buf[sizeof(buf) - 1] = '\n';
	assert_int_equal(broker_parse(buf, sizeof(buf), MAX_POLICY, &req, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(broker_header_end("a\nb\n", 4), 0);
	assert_int_equal(broker_header_end("a\n\nb", 4), 3);
}

/* A name longer than the field, and one that fills it. */
static void test_name_length(void **state)
{
	char hdr[BROKER_HEADER_MAX], name[BROKER_NAME_MAX + 1];

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(hdr, sizeof(hdr), "lsmctl-broker 1\nverb apply\ncgroup 5\nmode file\nname %s\n"
		 "length 3\n\n", name);
	assert_int_equal(parse(hdr), -EINVAL);
	name[BROKER_NAME_MAX - 1] = '\0';
	snprintf(hdr, sizeof(hdr), "lsmctl-broker 1\nverb apply\ncgroup 5\nmode file\nname %s\n"
		 "length 3\n\n", name);
	assert_int_equal(parse(hdr), 0);
	assert_int_equal(strlen(req.name), BROKER_NAME_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_nul_and_size),
		cmocka_unit_test(test_name_length),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
