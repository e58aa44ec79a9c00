// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the policy parser (loader/policy.c), with cmocka. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "../../loader/policy.h"

static struct policy p;
static char err[512];

static int parse(const char *yaml)
{
	return policy_parse("t.yaml", yaml, strlen(yaml), &p, err, sizeof(err));
}

/* The parse fails and the message starts with @where and holds @what. */
static void expect_error(const char *yaml, const char *where, const char *what)
{
	if (parse(yaml) == 0) {
		policy_free(&p);
		fail_msg("parsed, expected %s %s", where, what);
	}
	if (strncmp(err, where, strlen(where)) || !strstr(err, what))
		fail_msg("got '%s', expected '%s ... %s'", err, where, what);
	assert_int_equal(p.n_rules, 0);
	assert_null(p.rules);
}

static void test_example(void **state)
{
	(void)state;
	assert_int_equal(policy_parse_file(LAB_TOP "/loader/examples/confine-shell.yaml",
					   &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "confine-shell");
	assert_false(p.audit);
	assert_int_equal(p.n_rules, 3);
	assert_int_equal(p.rules[0].kind, RULE_FILES);
	assert_string_equal(p.rules[0].file.path, "/etc/lab-secret");
	assert_int_equal(p.rules[0].file.access, ACCESS_READ);
	assert_true(p.rules[0].deny);
	assert_int_equal(p.rules[1].kind, RULE_NETWORK);
	assert_int_equal(p.rules[1].net.op, NET_CONNECT);
	assert_int_equal(p.rules[1].net.family, AF_INET);
	assert_int_equal(p.rules[1].net.port_min, 25);
	assert_int_equal(p.rules[1].net.port_max, 25);
	assert_int_equal(p.rules[2].kind, RULE_PTRACE);
	assert_int_equal(p.rules[2].line, 14);
	policy_free(&p);
}

static void test_every_kind(void **state)
{
	(void)state;
	assert_int_equal(parse("name: all\nmode: audit\ndefault: deny\nrules:\n"
			       "  - files: /srv/**\n    access: [read, write, create, unlink]\n    action: allow\n"
			       "  - exec: /usr/bin/**\n    action: allow\n"
			       "  - network: bind\n    cidr: 127.0.0.0/8\n    ports: 1-1023\n    action: deny\n"
			       "  - network: socket\n    family: inet6\n    type: raw\n    action: deny\n"
			       "  - network: connect\n    cidr: '2001:db8::/32'\n    protocol: udp\n    action: deny\n"
			       "  - capability: [CAP_SYS_ADMIN, net_raw]\n    action: deny\n"
			       "  - mount: deny\n  - module_load: deny\n  - signal: allow\n"), 0);
	assert_true(p.audit);
	assert_true(p.default_deny);
	assert_int_equal(p.n_rules, 9);
	assert_string_equal(p.rules[0].file.path, "/srv");
	assert_true(p.rules[0].file.subtree);
	assert_int_equal(p.rules[0].file.access,
			 ACCESS_READ | ACCESS_WRITE | ACCESS_CREATE | ACCESS_UNLINK);
	assert_int_equal(p.rules[1].file.access, ACCESS_EXEC);
	assert_int_equal(p.rules[2].net.prefix, 8);
	assert_int_equal(p.rules[2].net.addr[0], 127);
	assert_int_equal(p.rules[2].net.port_min, 1);
	assert_int_equal(p.rules[2].net.port_max, 1023);
	assert_int_equal(p.rules[3].net.family, AF_INET6);
	assert_int_equal(p.rules[4].net.family, AF_INET6);
	assert_int_equal(p.rules[4].net.prefix, 32);
	assert_int_equal(p.rules[5].caps, (1ull << 21) | (1ull << 13));
	assert_false(p.rules[8].deny);
	policy_free(&p);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", "t.yaml:1:1:", "empty policy");
	expect_error("name: x\n", "t.yaml:1:1:", "needs 'rules:'");
	expect_error("rules: []\n", "t.yaml:1:8:", "rules is empty");
	expect_error("name: x\ncolour: red\nrules: []\n", "t.yaml:2:1:", "unknown key 'colour'");
	expect_error("name: x\nname: y\n", "t.yaml:2:1:", "given twice");
	expect_error("name: 'a b'\n", "t.yaml:1:7:", "name may only hold");
	expect_error("name: x\nmode: strict\n", "t.yaml:2:7:", "unknown mode 'strict'");
	expect_error("name: x\nrules:\n  - files: etc\n    access: read\n    action: deny\n",
		     "t.yaml:3:12:", "not an absolute path");
	expect_error("name: x\nrules:\n  - files: /a/*/b\n    access: read\n    action: deny\n",
		     "t.yaml:3:12:", "only allowed as a final");
	expect_error("name: x\nrules:\n  - files: /a\n    action: deny\n",
		     "t.yaml:3:5:", "needs 'access:'");
	expect_error("name: x\nrules:\n  - files: /a\n    access: [read, fly]\n    action: deny\n",
		     "t.yaml:4:20:", "unknown access 'fly'");
	expect_error("name: x\nrules:\n  - files: /a\n    access: [read, read]\n    action: deny\n",
		     "t.yaml:4:20:", "listed twice");
	expect_error("name: x\nrules:\n  - files: /a\n    access: read\n",
		     "t.yaml:3:5:", "needs 'action: allow'");
	expect_error("name: x\nrules:\n  - files: /a\n    access: read\n    action: maybe\n",
		     "t.yaml:5:13:", "allow or deny");
	expect_error("name: x\nrules:\n  - files: /a\n    exec: /b\n    action: deny\n",
		     "t.yaml:4:5:", "has files and exec");
	expect_error("name: x\nrules:\n  - colour: red\n", "t.yaml:3:5:", "needs a kind");
	expect_error("name: x\nrules:\n  - ptrace: deny\n    action: deny\n",
		     "t.yaml:4:5:", "takes its action as its value");
	expect_error("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0.0/33\n    action: deny\n",
		     "t.yaml:4:11:", "prefix length must be 0 to 32");
	expect_error("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0/8\n    action: deny\n",
		     "t.yaml:4:11:", "not an IPv4 or IPv6 address");
	expect_error("name: x\nrules:\n  - network: connect\n    family: inet6\n    cidr: 10.0.0.0/8\n    action: deny\n",
		     "t.yaml:5:11:", "IPv4 cidr with family inet6");
	expect_error("name: x\nrules:\n  - network: bind\n    ports: 80-22\n    action: deny\n",
		     "t.yaml:4:12:", "ends before it starts");
	expect_error("name: x\nrules:\n  - network: bind\n    ports: 70000\n    action: deny\n",
		     "t.yaml:4:12:", "not a port");
	expect_error("name: x\nrules:\n  - network: socket\n    ports: 80\n    action: deny\n",
		     "t.yaml:4:5:", "unknown key 'ports' in a network rule");
	expect_error("name: x\nrules:\n  - capability: sys_flying\n    action: deny\n",
		     "t.yaml:3:17:", "unknown capability");
	expect_error("name: x\nrules:\n  - mount: deny\n  - mount: deny\n",
		     "t.yaml:4:5:", "the same rule as line 3");
	expect_error("name: x\nrules:\n  - files: /a\n    access: read\n    access: write\n    action: deny\n",
		     "t.yaml:5:5:", "'access' given twice");
	expect_error("name: [x\n", "t.yaml:", "not valid YAML");
	expect_error("name: \xff\xfe\n", "t.yaml:", "not valid YAML");
}

static void test_files(void **state)
{
	(void)state;
	assert_int_equal(policy_parse_file("/nonexistent/p.yaml", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/p.yaml: No such file or directory");
	assert_int_equal(policy_parse_file("/dev/null", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty policy"));
	assert_int_equal(policy_parse_file("/", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/: Is a directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_files),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
