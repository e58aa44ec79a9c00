// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lsmctl learn's draft policies (loader/draft.c), with cmocka. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "../../loader/draft.h"

static struct draft d;
static char text[16384];

static int free_draft(void **state)
{
	(void)state;
	draft_free(&d);
	return 0;
}

/* The draft written, in @text; it must parse back as a policy. */
static const char *written(void)
{
	FILE *f = fmemopen(text, sizeof(text), "w");
	struct policy p;
	char err[1024];

	assert_non_null(f);
	assert_int_equal(draft_write(&d, f, "t", "made by a test"), 0);
	fclose(f);
	if (policy_parse("draft.yaml", text, strlen(text), &p, err, sizeof(err)))
		fail_msg("the draft does not parse: %s\n%s", err, text);
	assert_true(p.default_deny);
	assert_false(p.audit);
	policy_free(&p);
	return text;
}

static void expect_in(const char *want)
{
	if (!strstr(written(), want))
		fail_msg("no '%s' in:\n%s", want, text);
}

static void expect_not_in(const char *unwanted)
{
	if (strstr(written(), unwanted))
		fail_msg("'%s' in:\n%s", unwanted, text);
}

static void test_files_counted(void **state)
{
	(void)state;
	assert_int_equal(draft_file(&d, "/etc/passwd", false, ACCESS_READ, "cat"), 0);
	assert_int_equal(draft_file(&d, "/etc/passwd", false, ACCESS_READ, "sh"), 0);
	assert_int_equal(draft_file(&d, "/etc/passwd", false, ACCESS_READ, "cat"), 0);
	assert_int_equal(draft_file(&d, "/bin/busybox", false, ACCESS_EXEC, "sh"), 0);
	assert_int_equal(draft_file(&d, "/tmp/out", true, ACCESS_CREATE | ACCESS_WRITE, "sh"), 0);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	assert_int_equal(d.n_rules, 3);
	expect_in("  # 3 times, by cat, sh\n  - files: \"/etc/passwd\"\n    access: [read]\n"
		  "    action: allow\n");
	expect_in("  # 1 time, by sh\n  - exec: \"/bin/busybox\"\n    action: allow\n");
	expect_in("  - files: \"/tmp/out/**\"\n    access: [write, create]\n");
	/* what the run never did is closed */
	expect_in("# made by a test\nname: \"t\"\nmode: enforce\ndefault: deny\n"
		  "# what the run never did: closed, as default: deny closes the rest\n"
		  "closed: [unlink, socket, bind, connect, capability]\nrules:\n");
}

/* Rules on one file or folder are written as one, a comment for each access. */
static void test_one_rule_a_file(void **state)
{
	(void)state;
	assert_int_equal(draft_file(&d, "/tmp/helper.sh", false, ACCESS_EXEC, "work.sh"), 0);
	assert_int_equal(draft_file(&d, "/tmp/helper.sh", false, ACCESS_EXEC, "work.sh"), 0);
	assert_int_equal(draft_file(&d, "/tmp/helper.sh", false, ACCESS_READ, "helper.sh"), 0);
	assert_int_equal(draft_file(&d, "/tmp/out", true, ACCESS_WRITE, "sh"), 0);
	assert_int_equal(draft_file(&d, "/tmp/out", true, ACCESS_CREATE, "sh"), 0);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	expect_in("  # read: 1 time, by helper.sh\n  # exec: 2 times, by work.sh\n"
		  "  - files: \"/tmp/helper.sh\"\n    access: [read, exec]\n    action: allow\n");
	expect_in("  # write: 1 time, by sh\n  # create: 1 time, by sh\n"
		  "  - files: \"/tmp/out/**\"\n    access: [write, create]\n");
}

/* DRAFT_FOLD_MIN files of one folder with one access fold; fewer do not. */
static void test_fold(void **state)
{
	static const char *const libs[] = { "liba.so", "libb.so", "libc.so", "libd.so", "libe.so" };
	char path[64];
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "/usr/lib/%s", libs[i]);
		assert_int_equal(draft_file(&d, path, false, ACCESS_READ, i ? "cat" : "sh"), 0);
	}
	for (i = 0; i < DRAFT_FOLD_MIN - 1; i++) {
		snprintf(path, sizeof(path), "/etc/file%zu", i);
		assert_int_equal(draft_file(&d, path, false, ACCESS_READ, "cat"), 0);
	}
	/* one more in /usr/lib, written: another access, not folded with them */
	assert_int_equal(draft_file(&d, "/usr/lib/cache", false, ACCESS_WRITE, "ldconfig"), 0);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	expect_in("  # folded: 5 file(s) below /usr/lib (liba.so, libb.so, libc.so, libd.so, ...); "
		  "5 times, by sh, cat\n  - files: \"/usr/lib/**\"\n    access: [read]\n");
	expect_in("  - files: \"/usr/lib/cache\"\n    access: [write]\n");
	expect_in("  - files: \"/etc/file0\"\n");
	expect_not_in("/etc/**");
	assert_int_equal(d.n_rules, 1 + 1 + DRAFT_FOLD_MIN - 1);
}

/* Programs are named one by one, never folded; --fold 0 folds nothing. */
static void test_exec_and_fold_off(void **state)
{
	char path[64];
	size_t i;

	(void)state;
	for (i = 0; i < 2 * DRAFT_FOLD_MIN; i++) {
		snprintf(path, sizeof(path), "/usr/bin/prog%zu", i);
		assert_int_equal(draft_file(&d, path, false, ACCESS_EXEC, "sh"), 0);
		snprintf(path, sizeof(path), "/usr/share/doc/f%zu", i);
		assert_int_equal(draft_file(&d, path, false, ACCESS_READ, "cat"), 0);
	}
	assert_int_equal(draft_fold(&d, 0), 0);
	assert_int_equal(d.n_rules, 4 * DRAFT_FOLD_MIN);
	expect_not_in("/**");
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	assert_int_equal(d.n_rules, 2 * DRAFT_FOLD_MIN + 1);
	expect_in("  - exec: \"/usr/bin/prog0\"\n");
	expect_in("  - files: \"/usr/share/doc/**\"\n    access: [read]\n");
	expect_not_in("/usr/bin/**");
}

/* No folded rule on a secret, a folder holding one, or a folder inside one. */
static void test_secrets_not_folded(void **state)
{
	char top[] = "/tmp/test_draft.XXXXXX", path[128];
	/* on the machine, and below @top (the "" and "/user..." ones) */
	const char *folders[] = { "/etc", "/root/work", "/etc/ssh", "", "/user", "/user/proj" };
	size_t i, j;

	(void)state;
	assert_non_null(mkdtemp(top));
	snprintf(path, sizeof(path), "%s/user", top);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/user/.ssh", top);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/user/proj", top);
	assert_int_equal(mkdir(path, 0755), 0);
	for (i = 0; i < sizeof(folders) / sizeof(folders[0]); i++)
		for (j = 0; j < DRAFT_FOLD_MIN; j++) {
			snprintf(path, sizeof(path), "%s%s/f%zu",
				 i < 3 ? "" : top, folders[i], j);
			assert_int_equal(draft_file(&d, path, false, ACCESS_READ, "cat"), 0);
		}
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	expect_not_in("\"/etc/**\"");
	expect_not_in("\"/root/work/**\"");
	expect_not_in("\"/etc/ssh/**\"");
	snprintf(path, sizeof(path), "\"%s/**\"", top);
	expect_not_in(path);		/* holds a home with .ssh */
	snprintf(path, sizeof(path), "\"%s/user/**\"", top);
	expect_not_in(path);		/* holds .ssh */
	snprintf(path, sizeof(path), "  - files: \"%s/user/proj/**\"\n", top);
	expect_in(path);		/* the control: a project folder in it folds */
	snprintf(path, sizeof(path), "rm -rf %s", top);
	assert_int_equal(system(path), 0);
}

/* /proc's files by their per-task form: "*" whole components only, never folded. */
static void test_proc_forms(void **state)
{
	static const char *const forms[] = { "/proc/*/stat", "/proc/*/status", "/proc/*/cmdline",
					     "/proc/*/task/*/stat", "/proc/meminfo", "/proc/uptime",
					     "/proc/loadavg", "/proc/stat" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		assert_int_equal(draft_file(&d, forms[i], false, ACCESS_READ, "ps"), 0);
	assert_int_equal(draft_file_root(&d, "/proc", ACCESS_READ, "ps"), 0);
	assert_int_equal(draft_file(&d, "/proc/a*b", false, ACCESS_READ, "ps"), 0);
	assert_int_equal(draft_file(&d, "/srv/*/x", false, ACCESS_READ, "ps"), 0);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	assert_int_equal(d.n_rules, sizeof(forms) / sizeof(forms[0]) + 1);
	expect_in("  - files: \"/proc/*/task/*/stat\"\n    access: [read]\n");
	/* /proc itself: procfs's root, its own parent, no name to match */
	expect_in("  - files: \"/proc\"\n    access: [read]\n    match: inode\n");
	expect_in("a file whose path has a '*', a final '/', is too long or not UTF-8 (by ps), "
		  "no rule: /proc/a*b");
	expect_in("no rule: /srv/*/x");
	expect_not_in("/proc/**");
}

/*
 * No more paths with a '*' below a folder than the engine holds
 * (LAB_MGLOB_PATTERNS): the one after them is a note, never a draft
 * check refuses; a path there already takes another access.
 */
static void test_proc_forms_full(void **state)
{
	char path[64];
	int i;

	(void)state;
	for (i = 0; i < LAB_MGLOB_PATTERNS; i++) {
		snprintf(path, sizeof(path), "/proc/*/f%d", i);
		assert_int_equal(draft_file(&d, path, false, ACCESS_READ, "ps"), 0);
	}
	assert_int_equal(draft_file(&d, "/proc/*/mountinfo", false, ACCESS_READ, "df"), 0);
	assert_int_equal(draft_file(&d, "/proc/*/f0", false, ACCESS_WRITE, "ps"), 0);
	assert_int_equal(draft_file(&d, "/sys/*/x", false, ACCESS_READ, "ps"), 0);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	assert_int_equal(d.n_rules, LAB_MGLOB_PATTERNS + 1);
	expect_in("/proc/*/mountinfo by df, no rule: a policy holds at most 4 paths with a '*' "
		  "component below one folder");
	expect_not_in("  - files: \"/proc/*/mountinfo\"");
	expect_in("  - files: \"/proc/*/f0\"\n    access: [read, write]\n");
}

/* --merge: an earlier draft's rules join the run's; what no draft holds is refused. */
static void test_merge(void **state)
{
	struct policy p;
	char err[256];
	const char *yaml = "name: d\ndefault: deny\nrules:\n"
			   "  - files: /srv/a\n    access: [read, write]\n    action: allow\n"
			   "  - files: /srv/out/**\n    access: create\n    action: allow\n"
			   "  - exec: /usr/bin/git\n    action: allow\n"
			   "  - files: /proc/*/stat\n    access: read\n    action: allow\n"
			   "  - network: connect\n    family: inet\n    cidr: 127.0.0.1/32\n"
			   "    ports: 80\n    action: allow\n"
			   "  - capability: [chown, fowner]\n    action: allow\n"
			   "  - ptrace: deny\n  - mount: deny\n";

	(void)state;
	assert_int_equal(policy_parse("d.yaml", yaml, strlen(yaml), &p, err, sizeof(err)), 0);
	assert_int_equal(draft_file(&d, "/srv/a", false, ACCESS_READ, "cat"), 0);
	assert_int_equal(draft_file(&d, "/srv/b", false, ACCESS_READ, "cat"), 0);
	draft_fixed(&d, RULE_PTRACE, "strace");
	assert_int_equal(draft_merge(&d, &p, "d.yaml", err, sizeof(err)), 0);
	policy_free(&p);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	expect_in("  # read: 2 times, by cat, earlier run\n  # write: 1 time, by earlier run\n"
		  "  - files: \"/srv/a\"\n    access: [read, write]\n");
	expect_in("  - files: \"/srv/b\"\n");
	expect_in("  - files: \"/srv/out/**\"\n    access: [create]\n");
	expect_in("  - exec: \"/usr/bin/git\"\n");
	expect_in("  - files: \"/proc/*/stat\"\n");
	expect_in("    cidr: \"127.0.0.1/32\"\n    ports: 80\n");
	expect_in("  - capability: chown\n");
	expect_in("  - capability: fowner\n");
	/* ptrace: this run used it; mount: neither; module_load, signal: the earlier run did */
	expect_in("  # ptrace: used 1 time (by strace)");
	expect_in("  - mount: deny\n");
	expect_not_in("- module_load: deny");
	expect_not_in("- signal: deny");
	expect_in("closed: [unlink, socket, bind]\n");
}

static void test_merge_refused(void **state)
{
	static const char *const rules[] = {
		"  - files: /srv/a\n    access: read\n    action: deny\n",
		"  - files: /srv/*.txt\n    access: read\n    action: allow\n",
		"  - network: connect\n    family: inet\n    cidr: 10.0.0.0/8\n    action: allow\n",
		"  - network: connect\n    family: inet\n    cidr: 10.0.0.1/32\n    ports: 80-90\n"
		"    action: allow\n",
		"  - network: connect\n    protocol: tcp\n    family: inet\n    cidr: 10.0.0.1/32\n"
		"    ports: 80\n    action: allow\n",
		"  - files: /etc/**\n    access: read\n    action: allow\n",
		"  - files: /**\n    access: read\n    action: allow\n",
	};
	char yaml[512], err[256];
	struct policy p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		snprintf(yaml, sizeof(yaml), "name: d\nrules:\n%s", rules[i]);
		assert_int_equal(policy_parse("d.yaml", yaml, strlen(yaml), &p, err, sizeof(err)), 0);
		assert_int_equal(draft_merge(&d, &p, "d.yaml", err, sizeof(err)), -EINVAL);
		policy_free(&p);
		if (!strstr(err, "d.yaml:3:5: a rule a draft cannot carry") &&
		    !strstr(err, "d.yaml:3:5: /etc/** would cover a secret") &&
		    !strstr(err, "d.yaml:3:5: /** would cover a secret"))
			fail_msg("rule %zu: %s", i, err);
	}
}

/* Never the root's subtree, which would be every file. */
static void test_no_root_fold(void **state)
{
	char path[64];
	size_t i;

	(void)state;
	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "/file%zu", i);
		assert_int_equal(draft_file(&d, path, false, ACCESS_READ, "cat"), 0);
	}
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	assert_int_equal(d.n_rules, 8);
	expect_not_in("\"/**\"");
}

/* Folded folders fold on up; a file below a subtree rule joins it when it has its access. */
static void test_fold_up_and_absorb(void **state)
{
	char path[64];
	size_t i, j;

	(void)state;
	for (i = 0; i < DRAFT_FOLD_MIN; i++)
		for (j = 0; j < DRAFT_FOLD_MIN; j++) {
			snprintf(path, sizeof(path), "/opt/app/m%zu/f%zu", i, j);
			assert_int_equal(draft_file(&d, path, false, ACCESS_READ, "app"), 0);
		}
	assert_int_equal(draft_file(&d, "/opt/app/top", false, ACCESS_READ, "app"), 0);
	assert_int_equal(draft_file(&d, "/opt/app/m0/log", false, ACCESS_READ | ACCESS_WRITE, "app"), 0);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	/* m0..m3 fold into /opt/app/m?/..., those four into /opt/app's, with top */
	expect_in("  - files: \"/opt/app/**\"\n    access: [read]\n");
	expect_in("; 17 times, by app\n");
	/* the log is written too: a rule of its own */
	expect_in("  - files: \"/opt/app/m0/log\"\n    access: [read, write]\n");
	assert_int_equal(d.n_rules, 2);
}

static void test_network_caps_fixed(void **state)
{
	uint8_t lo[16] = { 127, 0, 0, 1 }, v6[16] = { 0 };

	(void)state;
	v6[15] = 1;
	assert_int_equal(draft_net(&d, NET_CONNECT, AF_INET, lo, 7777, "nc"), 0);
	assert_int_equal(draft_net(&d, NET_CONNECT, AF_INET, lo, 7777, "nc"), 0);
	assert_int_equal(draft_net(&d, NET_CONNECT, AF_INET6, v6, 80, "wget"), 0);
	assert_int_equal(draft_net(&d, NET_CONNECT, AF_UNIX, lo, 0, "logger"), 0);
	assert_int_equal(draft_socket(&d, AF_INET, SOCK_STREAM, "nc"), 0);
	assert_int_equal(draft_cap(&d, 21, "mount"), 0);	/* CAP_SYS_ADMIN */
	draft_fixed(&d, RULE_SIGNAL, "kill");
	assert_int_equal(draft_note(&d, "%d event(s) lost", 3), 0);
	assert_int_equal(draft_fold(&d, DRAFT_FOLD_MIN), 0);
	expect_in("  # 2 times, by nc\n  - network: connect\n    family: inet\n"
		  "    cidr: \"127.0.0.1/32\"\n    ports: 7777\n    action: allow\n");
	expect_in("    family: inet6\n    cidr: \"::1/128\"\n    ports: 80\n");
	expect_in("  - network: connect\n    family: unix\n    action: allow\n");
	expect_in("  - network: socket\n    family: inet\n    type: stream\n");
	expect_in("  # sys_admin: 1 time, by mount\n  - capability: sys_admin\n");
	expect_in("  # signal: used 1 time (by kill): left to the default, allowed\n");
	expect_not_in("- signal: deny");
	expect_in("  # ptrace: not used\n  - ptrace: deny\n");
	expect_in("  - mount: deny\n");
	expect_in("  - module_load: deny\n");
	expect_in("# made by a test\n# - 3 event(s) lost\n");
}

/* The draft, parsed back; fails the test when it does not parse. */
static void parsed(struct policy *p)
{
	char err[1024];

	written();
	if (policy_parse("draft.yaml", text, strlen(text), p, err, sizeof(err)))
		fail_msg("the draft does not parse: %s\n%s", err, text);
}

/* The file rule on @path (by its path as parsed), or fail. */
static const struct policy_rule *rule_on(const struct policy *p, const char *path, bool subtree)
{
	size_t i;

	for (i = 0; i < p->n_rules; i++)
		if (p->rules[i].kind == RULE_FILES && p->rules[i].file.subtree == subtree &&
		    !strcmp(p->rules[i].file.path, path))
			return &p->rules[i];
	fail_msg("no rule on '%s' in:\n%s", path, text);
	return NULL;
}

/* Paths YAML would read otherwise are quoted, and read back as they are. */
static void test_quoting(void **state)
{
	struct policy p;

	(void)state;
	assert_int_equal(draft_file(&d, "/tmp/it's: #1 \"q\" \\", false, ACCESS_READ, "cat"), 0);
	expect_in("  - files: \"/tmp/it's: #1 \\\"q\\\" \\\\\"\n");
	parsed(&p);
	rule_on(&p, "/tmp/it's: #1 \"q\" \\", false);
	policy_free(&p);
}

/*
 * Issue 24: a confined program named a directory so that the draft's
 * comment ended, "self_protection: off" followed and "..." ended the
 * document before the deny rules. Names and comms are escaped: the
 * draft keeps self-protection on, every rule, and the names as they are.
 */
static const char *const hostile[] = {
	"x\nself_protection: off\n...\n",
	"x\n---\nname: evil\nrules:\n  - files: /\n    access: [read]\n    action: allow\n",
	"x\r\n... # \x1b[2J",
	"#\n- ptrace: allow",
	"x\"\n  - files: \"/a",
	"x'\n'",
	"caf\xc3\xa9 \xe2\x80\xa8 \xc2\x85 \xef\xbb\xbf \xc2\x9b",	/* UTF-8, some of it not printable */
};

static void test_hostile_names(void **state)
{
	char path[256], comm[17];
	struct policy p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		snprintf(path, sizeof(path), "/tmp/%s", hostile[i]);
		snprintf(comm, sizeof(comm), "%s", hostile[i]);
		assert_int_equal(draft_file(&d, path, false, ACCESS_READ, comm), 0);
		assert_int_equal(draft_socket(&d, AF_INET, SOCK_STREAM, comm), 0);
		assert_int_equal(draft_cap(&d, 99, comm), 0);	/* a note with the comm */
	}
	draft_fixed(&d, RULE_SIGNAL, "x\nsignal: allow");
	parsed(&p);
	assert_false(p.no_self_protection);
	assert_string_equal(p.name, "t");
	/* each file, the socket rule, and ptrace, mount, module_load deny */
	assert_int_equal(p.n_rules, i + 1 + 3);
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		snprintf(path, sizeof(path), "/tmp/%s", hostile[i]);
		assert_false(rule_on(&p, path, false)->deny);
	}
	assert_int_equal(p.rules[p.n_rules - 1].kind, RULE_MODULE_LOAD);
	assert_true(p.rules[p.n_rules - 1].deny);
	policy_free(&p);
	expect_not_in("\n...");
	expect_not_in("\n---");
	expect_not_in("self_protection: off\n");
}

/* A path that cannot be a rule as it is: no rule, an escaped note instead. */
static void test_unwritable_paths(void **state)
{
	struct policy p;

	(void)state;
	assert_int_equal(draft_file(&d, "/tmp/bad\xff\nself_protection: off", false, ACCESS_READ,
				    "c"), 0);
	assert_int_equal(draft_file(&d, "/tmp/*", false, ACCESS_READ, "c"), 0);
	assert_int_equal(draft_file(&d, "/tmp/**", false, ACCESS_READ, "c"), 0);
	assert_int_equal(draft_file(&d, "/tmp/ok", false, ACCESS_READ, "c"), 0);
	assert_int_equal(d.n_rules, 1);
	expect_in("# - a file whose path has a '*', a final '/', is too long or not UTF-8 (by c), "
		  "no rule: /tmp/bad\\xff\\nself_protection: off\n");
	parsed(&p);
	assert_false(p.no_self_protection);
	assert_int_equal(p.n_rules, 1 + 4);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_files_counted, free_draft),
		cmocka_unit_test_teardown(test_one_rule_a_file, free_draft),
		cmocka_unit_test_teardown(test_fold, free_draft),
		cmocka_unit_test_teardown(test_no_root_fold, free_draft),
		cmocka_unit_test_teardown(test_exec_and_fold_off, free_draft),
		cmocka_unit_test_teardown(test_proc_forms, free_draft),
		cmocka_unit_test_teardown(test_proc_forms_full, free_draft),
		cmocka_unit_test_teardown(test_merge, free_draft),
		cmocka_unit_test_teardown(test_merge_refused, free_draft),
		cmocka_unit_test_teardown(test_secrets_not_folded, free_draft),
		cmocka_unit_test_teardown(test_fold_up_and_absorb, free_draft),
		cmocka_unit_test_teardown(test_network_caps_fixed, free_draft),
		cmocka_unit_test_teardown(test_quoting, free_draft),
		cmocka_unit_test_teardown(test_hostile_names, free_draft),
		cmocka_unit_test_teardown(test_unwritable_paths, free_draft),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
