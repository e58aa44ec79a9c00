// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the policy parser (loader/policy.c), with cmocka. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
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

/* The parse fails with exactly @want. */
static void expect_exact(const char *yaml, const char *want)
{
	if (parse(yaml) == 0) {
		policy_free(&p);
		fail_msg("parsed, expected '%s'", want);
	}
	assert_string_equal(err, want);
	assert_int_equal(p.n_rules, 0);
	assert_null(p.rules);
}

/* A policy of one network rule with the lines in @keys (each "    key: value\n"). */
static int parse_net(const char *op, const char *keys)
{
	static char yaml[512];

	snprintf(yaml, sizeof(yaml), "name: x\nrules:\n  - network: %s\n%s    action: deny\n", op,
		 keys);
	policy_free(&p);
	return parse(yaml);
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
	char yaml[256], want[64], name[LAB_PATH_NAME_LEN + 1];

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
	/* '*' as a whole middle component only, at most LAB_MGLOB_COMPS from it on */
	expect_error("name: x\nrules:\n  - files: /a/x*/b\n    access: read\n    action: deny\n",
		     "t.yaml:3:16:", "'x*' is not supported yet");
	expect_error("name: x\nrules:\n  - files: /home/*/**/b\n    access: read\n"
		     "    action: deny\n", "t.yaml:3:20:", "'**' is not supported yet");
	expect_error("name: x\nrules:\n  - files: /home/*/.ssh/*.key\n    access: read\n"
		     "    action: deny\n", "t.yaml:3:25:", "'*.key' is not supported yet");
	expect_error("name: x\nrules:\n  - files: /a/*/b/c/d/e\n    access: read\n"
		     "    action: deny\n", "t.yaml:3:23:", "at most 4 components");
	/* names below a '*' are compared: '.', '..' and empty ones match none */
	expect_error("name: x\nrules:\n  - files: /home/*/./.ssh/**\n    access: read\n"
		     "    action: deny\n", "t.yaml:3:20:", "'.' or '..' component below a '*'");
	expect_error("name: x\nrules:\n  - files: /srv/*/../secret\n    access: read\n"
		     "    action: deny\n", "t.yaml:3:19:", "'.' or '..' component below a '*'");
	expect_error("name: x\nrules:\n  - files: /srv/*//secret\n    access: read\n"
		     "    action: deny\n", "t.yaml:3:19:", "an empty, '.' or '..' component");
	expect_error("name: x\nrules:\n  - files: /home/*/.ssh/**\n    access: read\n"
		     "    action: deny\n    match: inode\n", "t.yaml:3:12:", "cannot be 'match: inode'");
	expect_error("name: x\nrules:\n  - files: /a/*b*\n    access: read\n    action: deny\n",
		     "t.yaml:3:17:", "one '*' a name");
	expect_error("name: x\nrules:\n  - files: /a/*.key\n    access: read\n    action: deny\n"
		     "    match: inode\n", "t.yaml:3:12:", "cannot be 'match: inode'");
	expect_error("name: x\nrules:\n  - exec: /a\n    action: deny\n    match: name\n",
		     "t.yaml:5:12:", "unknown match 'name'");
	/* a name one byte longer than a rule by path's */
	memset(name, 'n', LAB_PATH_NAME_LEN);
	name[LAB_PATH_NAME_LEN] = '\0';
	snprintf(yaml, sizeof(yaml), "name: x\nrules:\n  - files: /a/%s\n    access: read\n"
		 "    action: deny\n", name);
	snprintf(want, sizeof(want), "longer than %d bytes", LAB_PATH_NAME_LEN - 1);
	expect_error(yaml, "t.yaml:3:15:", want);
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

static void test_empty(void **state)
{
	(void)state;
	expect_exact("", "t.yaml:1:1: empty policy: it needs 'name:' and 'rules:'");
	expect_exact("# nothing but a comment\n\n",
		     "t.yaml:1:1: empty policy: it needs 'name:' and 'rules:'");
	expect_exact("name: x\nrules:\n", "t.yaml:2:7: rules must be a list ('- files: ...')");
	expect_exact("name: x\nrules: []\n", "t.yaml:2:8: rules is empty");
	expect_exact("rules:\n  - ptrace: deny\n", "t.yaml:1:1: the policy needs a 'name:'");
	expect_exact("name: x\nrules:\n  - capability: []\n    action: deny\n",
		     "t.yaml:3:17: capability is an empty list");
}

static void test_unknown_keys(void **state)
{
	(void)state;
	expect_exact("name: x\ncolour: red\nrules: []\n",
		     "t.yaml:2:1: unknown key 'colour' (name, mode, default, closed, rules, self_protection)\n"
		     "t.yaml:3:8: rules is empty");
	expect_exact("name: x\nrules:\n  - files: /a\n    access: read\n    ports: 80\n    action: deny\n",
		     "t.yaml:5:5: unknown key 'ports' in a files rule");
	expect_exact("name: x\nrules:\n  - exec: /a\n    access: read\n    action: deny\n",
		     "t.yaml:4:5: unknown key 'access' in a exec rule");
	expect_exact("name: x\nrules:\n  - network: bind\n    type: stream\n    action: deny\n",
		     "t.yaml:4:5: unknown key 'type' in a network rule");
	expect_exact("name: x\nrules:\n  - network: socket\n    cidr: 10.0.0.0/8\n    action: deny\n",
		     "t.yaml:4:5: unknown key 'cidr' in a network rule");
	expect_exact("name: x\nrules:\n  - capability: chown\n    access: read\n    action: deny\n",
		     "t.yaml:4:5: unknown key 'access' in a capability rule");
	expect_exact("name: x\nrules:\n  - files: /a\n    access: read\n    Action: deny\n",
		     "t.yaml:5:5: unknown key 'Action' in a files rule");
	expect_exact("name: x\nrules:\n  - network: listen\n    action: deny\n",
		     "t.yaml:3:14: unknown network operation 'listen'");
	expect_exact("name: x\nrules:\n  - network: socket\n    family: ipx\n    action: deny\n",
		     "t.yaml:4:13: unknown family 'ipx'");
}

static void test_cidr(void **state)
{
	static const uint8_t v4[16] = { 10, 1, 2, 3 }, v6[16] = { 0x20, 0x01, 0x0d, 0xb8 };

	(void)state;
	assert_int_equal(parse_net("connect", "    cidr: 10.1.2.3/32\n"), 0);
	assert_int_equal(p.rules[0].net.family, AF_INET);
	assert_int_equal(p.rules[0].net.prefix, 32);
	assert_memory_equal(p.rules[0].net.addr, v4, 16);
	assert_int_equal(parse_net("bind", "    family: inet6\n    cidr: '2001:db8::/32'\n"), 0);
	assert_int_equal(p.rules[0].net.family, AF_INET6);
	assert_memory_equal(p.rules[0].net.addr, v6, 16);
	assert_int_equal(parse_net("connect", "    cidr: 0.0.0.0/0\n"), 0);
	assert_int_equal(p.rules[0].net.prefix, 0);
	assert_int_equal(p.rules[0].net.family, AF_INET);
	assert_int_equal(parse_net("connect", "    cidr: ::/0\n"), 0);
	assert_int_equal(p.rules[0].net.family, AF_INET6);
	assert_int_equal(parse_net("connect", "    family: inet\n"), 0);
	assert_int_equal(p.rules[0].net.prefix, -1);
	policy_free(&p);

	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0.0\n    action: deny\n",
		     "t.yaml:4:11: '10.0.0.0' is not an address/prefix");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0.0/\n    action: deny\n",
		     "t.yaml:4:11: prefix length must be 0 to 32 in '10.0.0.0/'");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0.0/8x\n    action: deny\n",
		     "t.yaml:4:11: prefix length must be 0 to 32 in '10.0.0.0/8x'");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0.0/-1\n    action: deny\n",
		     "t.yaml:4:11: prefix length must be 0 to 32 in '10.0.0.0/-1'");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: '::1/129'\n    action: deny\n",
		     "t.yaml:4:11: prefix length must be 0 to 128 in '::1/129'");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: host.example/8\n    action: deny\n",
		     "t.yaml:4:11: 'host.example' is not an IPv4 or IPv6 address");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: [10.0.0.0/8]\n    action: deny\n",
		     "t.yaml:4:11: cidr must be a single value");
	expect_exact("name: x\nrules:\n  - network: connect\n    family: inet\n    cidr: '::1/128'\n"
		     "    action: deny\n", "t.yaml:5:11: an IPv6 cidr with family inet");
	/* the family is checked against the cidr whichever comes first */
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: '::1/128'\n    family: inet\n"
		     "    action: deny\n", "t.yaml:4:11: an IPv6 cidr with family inet");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0.0/8\n    family: inet6\n"
		     "    action: deny\n", "t.yaml:4:11: an IPv4 cidr with family inet6");
	expect_exact("name: x\nrules:\n  - network: connect\n    family: unix\n    cidr: 10.0.0.0/8\n"
		     "    action: deny\n", "t.yaml:5:11: a cidr with family unix");
	expect_exact("name: x\nrules:\n  - network: connect\n    cidr: 10.0.0.0/8\n    family: unix\n"
		     "    action: deny\n", "t.yaml:4:11: a cidr with family unix");
}

static void test_ports(void **state)
{
	(void)state;
	assert_int_equal(parse_net("bind", "    ports: 1-1023\n"), 0);
	assert_int_equal(p.rules[0].net.port_min, 1);
	assert_int_equal(p.rules[0].net.port_max, 1023);
	assert_int_equal(parse_net("bind", "    ports: 0-65535\n"), 0);
	assert_int_equal(p.rules[0].net.port_min, 0);
	assert_int_equal(p.rules[0].net.port_max, 65535);
	assert_int_equal(parse_net("connect", "    ports: 443\n"), 0);
	assert_int_equal(p.rules[0].net.port_min, 443);
	assert_int_equal(p.rules[0].net.port_max, 443);
	assert_int_equal(parse_net("connect", "    ports: 80-80\n"), 0);
	assert_int_equal(p.rules[0].net.port_min, 80);
	assert_int_equal(p.rules[0].net.port_max, 80);
	assert_int_equal(parse_net("connect", ""), 0);	/* no ports: every port */
	assert_int_equal(p.rules[0].net.port_min, 0);
	assert_int_equal(p.rules[0].net.port_max, 65535);
	policy_free(&p);

	expect_exact("name: x\nrules:\n  - network: bind\n    ports: 80-22\n    action: deny\n",
		     "t.yaml:4:12: port range '80-22' ends before it starts");
	expect_exact("name: x\nrules:\n  - network: bind\n    ports: 70000\n    action: deny\n",
		     "t.yaml:4:12: '70000' is not a port (0-65535) or a range lo-hi");
	expect_exact("name: x\nrules:\n  - network: bind\n    ports: 1-70000\n    action: deny\n",
		     "t.yaml:4:12: '1-70000' is not a port range lo-hi");
	expect_exact("name: x\nrules:\n  - network: bind\n    ports: -1\n    action: deny\n",
		     "t.yaml:4:12: '-1' is not a port (0-65535) or a range lo-hi");
	expect_exact("name: x\nrules:\n  - network: bind\n    ports: 80-\n    action: deny\n",
		     "t.yaml:4:12: '80-' is not a port range lo-hi");
	expect_exact("name: x\nrules:\n  - network: bind\n    ports: 1-2-3\n    action: deny\n",
		     "t.yaml:4:12: '1-2-3' is not a port (0-65535) or a range lo-hi");
	expect_exact("name: x\nrules:\n  - network: bind\n    ports: http\n    action: deny\n",
		     "t.yaml:4:12: 'http' is not a port (0-65535) or a range lo-hi");
	expect_exact("name: x\nrules:\n  - network: bind\n    ports: [80, 443]\n    action: deny\n",
		     "t.yaml:4:12: ports must be a single value");
}

static void test_duplicates(void **state)
{
	(void)state;
	expect_exact("name: x\nrules:\n  - files: /a\n    access: [read, write]\n    action: deny\n"
		     "  - files: /a\n    access: [write, read]\n    action: deny\n",
		     "t.yaml:6:5: the same rule as line 3");
	expect_exact("name: x\nrules:\n  - capability: [chown, CAP_KILL]\n    action: deny\n"
		     "  - ptrace: deny\n  - capability: [kill, cap_chown]\n    action: deny\n",
		     "t.yaml:6:5: the same rule as line 3");
	expect_exact("name: x\nrules:\n  - network: connect\n    ports: 25\n    action: deny\n"
		     "  - network: connect\n    ports: 25-25\n    action: deny\n",
		     "t.yaml:6:5: the same rule as line 3");
	expect_exact("name: x\nrules:\n  - exec: /bin/sh\n    action: allow\n"
		     "  - exec: /bin/sh\n    action: allow\n",
		     "t.yaml:5:5: the same rule as line 3");
	/* not the same: the action, the subtree, the kind */
	assert_int_equal(parse("name: x\nrules:\n  - files: /a\n    access: read\n    action: deny\n"
			       "  - files: /a\n    access: read\n    action: allow\n"
			       "  - files: /a/**\n    access: read\n    action: deny\n"
			       "  - files: /a\n    access: exec\n    action: deny\n"
			       "  - exec: /a\n    action: deny\n"), 0);
	assert_int_equal(p.n_rules, 5);
	policy_free(&p);
}

static void test_not_utf8(void **state)
{
	(void)state;
	expect_exact("name: \xff\xfe\n", "t.yaml:1:7: not valid YAML: invalid leading UTF-8 octet");
	expect_exact("name: x\n# caf\xe9\nrules:\n  - ptrace: deny\n",
		     "t.yaml:2:7: not valid YAML: invalid trailing UTF-8 octet");
	expect_exact("name: x\nrules:\n  - files: /caf\xc3\xa9/\x80\n    access: read\n    action: deny\n",
		     "t.yaml:3:18: not valid YAML: invalid leading UTF-8 octet");
	expect_exact("name: x\nrules:\n  - files: /a\xc3",
		     "t.yaml:3:14: not valid YAML: incomplete UTF-8 octet sequence");
	/* UTF-8 itself is fine, a byte order mark included */
	assert_int_equal(parse("\xef\xbb\xbfname: x\nrules:\n  - files: /caf\xc3\xa9\n    access: read\n"
			       "    action: deny\n"), 0);
	assert_string_equal(p.rules[0].file.path, "/caf\xc3\xa9");
	policy_free(&p);
}

/* Every error is said, one a line, in the file's order; not only the first. */
static void test_every_error(void **state)
{
	(void)state;
	expect_exact("name: 'a b'\nmode: strict\nrules:\n"
		     "  - files: /a\n    access: [read, fly]\n    action: deny\n"
		     "  - ptrace: deny\n"
		     "  - network: connect\n    ports: 80-22\n    action: deny\n"
		     "  - ptrace: deny\n"
		     "  - colour: red\n"
		     "verbose: yes\n",
		     "t.yaml:1:7: name may only hold letters, digits, '.', '_' and '-'\n"
		     "t.yaml:2:7: unknown mode 'strict'\n"
		     "t.yaml:5:20: unknown access 'fly' (read, write, exec, create, unlink)\n"
		     "t.yaml:9:12: port range '80-22' ends before it starts\n"
		     "t.yaml:11:5: the same rule as line 7\n"
		     "t.yaml:12:5: a rule needs a kind: files, exec, network, ptrace, mount, "
		     "module_load, signal or capability\n"
		     "t.yaml:13:1: unknown key 'verbose' (name, mode, default, closed, rules, self_protection)");
	/* a rule's column, for check's messages */
	assert_int_equal(parse("name: x\nrules:\n  - ptrace: deny\n  -   mount: deny\n"), 0);
	assert_int_equal(p.rules[0].col, 5);
	assert_int_equal(p.rules[1].col, 7);
	policy_free(&p);
}

/*
 * Issue 24: one document and nothing after it; no NUL inside a scalar;
 * nesting and events bounded (POLICY_DEPTH_MAX, POLICY_EVENTS_MAX).
 */
static void test_stream_refusals(void **state)
{
	static char big[8 * POLICY_EVENTS_MAX];
	const char *rule = "name: x\nrules:\n  - ptrace: deny\n";
	char yaml[256];
	size_t n;

	(void)state;
	/* the control: the same policy, alone, parses */
	assert_int_equal(parse(rule), 0);
	policy_free(&p);
	snprintf(yaml, sizeof(yaml), "%s...\nself_protection: off\n", rule);
	expect_error(yaml, "t.yaml:5:1:", "text after '...': a policy is one document");
	snprintf(yaml, sizeof(yaml), "%s---\nname: y\nrules:\n  - mount: deny\n", rule);
	expect_error(yaml, "t.yaml:4:1:", "a second YAML document");
	snprintf(yaml, sizeof(yaml), "%s...\n# a comment after the end is nothing\n", rule);
	assert_int_equal(parse(yaml), 0);
	policy_free(&p);
	expect_error("name: x\nrules:\n  - files: \"/\\0/etc/passwd\"\n    access: read\n"
		     "    action: deny\n", "t.yaml:3:12:", "a NUL byte inside '/'");
	expect_error("name: x\n\"rules\\0junk\":\n  - ptrace: deny\n", "t.yaml:2:1:",
		     "a NUL byte inside 'rules'");
	expect_error("name: \"x\\x00y\"\nrules:\n  - ptrace: deny\n", "t.yaml:1:7:", "a NUL byte");
	/* the top, then 8 lists: the 8th is the 9th collection nested */
	expect_error("name: x\nrules: [[[[[[[[]]]]]]]]\n", "t.yaml:2:15:", "nested deeper than 8");
	assert_int_equal(POLICY_DEPTH_MAX, 8);
	/* a list of more values than events allowed */
	n = (size_t)snprintf(big, sizeof(big), "name: x\nrules: [");
	while (n + 3 < sizeof(big)) {
		memcpy(big + n, "a,", 2);
		n += 2;
	}
	big[n++] = ']';
	big[n] = '\0';
	snprintf(yaml, sizeof(yaml), "more than %d YAML events", POLICY_EVENTS_MAX);
	expect_error(big, "t.yaml:2:", yaml);
}

/* Every error in a rule, not the first; and when err is full, how many more. */
/* closed: the classes a policy closes with no allow rule (lsmctl learn's drafts) */
static void test_closed(void **state)
{
	(void)state;
	assert_int_equal(parse("name: x\nclosed: [write, create, connect, capability]\n"
			       "rules:\n  - ptrace: deny\n"), 0);
	assert_int_equal(p.closed, (1u << ACCESS_INDEX_WRITE) | (1u << ACCESS_INDEX_CREATE) |
				   (1u << CLOSED_CONNECT) | (1u << CLOSED_CAPABILITY));
	policy_free(&p);
	assert_int_equal(parse("name: x\nclosed: unlink\nrules:\n  - ptrace: deny\n"), 0);
	assert_int_equal(p.closed, 1u << ACCESS_INDEX_UNLINK);
	policy_free(&p);
	assert_int_equal(parse("name: x\nrules:\n  - ptrace: deny\n"), 0);
	assert_int_equal(p.closed, 0);
	policy_free(&p);
	expect_exact("name: x\nclosed: [read, ptrace]\nrules:\n  - ptrace: deny\n",
		     "t.yaml:2:16: unknown class 'ptrace' (read, write, exec, create, unlink, "
		     "socket, bind, connect, capability)");
	expect_exact("name: x\nclosed: [bind, bind]\nrules:\n  - ptrace: deny\n",
		     "t.yaml:2:16: class 'bind' listed twice");
	expect_exact("name: x\nclosed: []\nrules:\n  - ptrace: deny\n",
		     "t.yaml:2:9: closed is an empty list");
}

static void test_errors_within_and_cut(void **state)
{
	char yaml[8192];
	size_t n;
	int i;

	(void)state;
	expect_exact("name: x\nrules:\n  - files: /a\n    access: fly\n    action: maybe\n"
		     "    colour: red\n",
		     "t.yaml:4:13: unknown access 'fly' (read, write, exec, create, unlink)\n"
		     "t.yaml:6:5: unknown key 'colour' in a files rule\n"
		     "t.yaml:5:13: action must be allow or deny, not 'maybe'");
	n = (size_t)snprintf(yaml, sizeof(yaml), "name: x\nrules:\n");
	for (i = 0; i < 40; i++)
		n += (size_t)snprintf(yaml + n, sizeof(yaml) - n,
				      "  - files: /a%d\n    access: fly\n    action: deny\n", i);
	expect_error(yaml, "t.yaml:4:13: unknown access 'fly'", "more errors");
	/* the lines said, then the count of the rest: 40 in all */
	{
		unsigned int said = 1, more = 0;
		const char *l;

		for (l = err; (l = strchr(l, '\n')); l++)
			said++;
		assert_non_null(strstr(err, "\n... and "));
		assert_int_equal(sscanf(strstr(err, "\n... and ") + 1, "... and %u more", &more), 1);
		assert_int_equal(said - 1 + more, 40);
		assert_true(strlen(err) < sizeof(err));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_closed),
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_cidr),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_every_error),
		cmocka_unit_test(test_stream_refusals),
		cmocka_unit_test(test_errors_within_and_cut),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
