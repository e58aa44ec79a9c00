// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the rule compiler (loader/compile.c), with cmocka: a
 * policy parsed from a string, compiled, and what the engine's maps
 * would hold checked field by field. Paths are a temporary file, a
 * temporary directory and a symlink to the file, made for the run.
 */
#define _GNU_SOURCE	/* statx(), fmemopen() */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "../../loader/compile.h"
#include "../../loader/devices.h"

#define BIT(n) (1ull << (n))

/* What each kind of rule needs, written out here rather than taken
 * from compile.c's table. */
/* create: file_open too, for O_TMPFILE; exec: file_open, for exec's opens */
#define HOOKS_CREATE (BIT(LAB_HOOK_FILE_OPEN) | BIT(LAB_HOOK_INODE_CREATE) | BIT(LAB_HOOK_INODE_MKDIR) | \
		      BIT(LAB_HOOK_INODE_MKNOD) | BIT(LAB_HOOK_INODE_SYMLINK) | \
		      BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME))
#define HOOKS_UNLINK (BIT(LAB_HOOK_INODE_UNLINK) | BIT(LAB_HOOK_INODE_RMDIR) | \
		      BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME))
#define HOOKS_EXEC (BIT(LAB_HOOK_BPRM_CHECK) | BIT(LAB_HOOK_FILE_OPEN))
/* bind and connect: SCTP's address lists too (apply drops it on a kernel without SCTP) */
#define HOOKS_BIND (BIT(LAB_HOOK_SOCKET_BIND) | BIT(LAB_HOOK_SCTP_BIND_CONNECT))
#define HOOKS_CONNECT (BIT(LAB_HOOK_SOCKET_CONNECT) | BIT(LAB_HOOK_SOCKET_SENDMSG) | \
		       BIT(LAB_HOOK_SCTP_BIND_CONNECT))
#define HOOKS_PTRACE (BIT(LAB_HOOK_PTRACE_ACCESS) | BIT(LAB_HOOK_PTRACE_TRACEME))
#define HOOKS_MOUNT (BIT(LAB_HOOK_SB_MOUNT) | BIT(LAB_HOOK_MOVE_MOUNT) | \
		     BIT(LAB_HOOK_SB_UMOUNT) | BIT(LAB_HOOK_CAPABLE))
#define HOOKS_MODULE (BIT(LAB_HOOK_KERNEL_LOAD_DATA) | BIT(LAB_HOOK_KERNEL_READ_FILE))
/* a read deny: file_open, and what keeps an exec-only file's bytes in */
#define HOOKS_READ_DENY (BIT(LAB_HOOK_FILE_OPEN) | BIT(LAB_HOOK_BPRM_CHECK) | \
			 BIT(LAB_HOOK_PTRACE_ACCESS))


static struct policy p;
static struct compiled c;
static char err[512];
static char yaml[2][16384];	/* a policy, and a message about it */
static unsigned int turn;

static char file[64] = "/tmp/lab-compile-file-XXXXXX";	/* a regular file */
static char dir[64] = "/tmp/lab-compile-dir-XXXXXX";	/* a directory */
static char link_path[128];				/* dir/link -> file */
static struct stat file_st, dir_st;
static __u32 file_kdev, dir_kdev;	/* their superblock's dev_t, from mountinfo */

/*
 * The superblock's dev_t of @path's filesystem, worked out here apart
 * from compile.c: the mountinfo line of statx()'s mount id, the whole
 * file read and split with strtok_r.
 */
static __u32 sb_dev(const char *path)
{
	static char buf[1 << 20];
	unsigned int maj, min;
	unsigned long long id;
	char *line, *save;
	struct statx sx;
	struct stat st;
	size_t n;
	FILE *f;

	if (stat(path, &st))
		return 0;
	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &sx) || !(sx.stx_mask & STATX_MNT_ID))
		return (major(st.st_dev) << 20) | minor(st.st_dev);
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%llu %*u %u:%u", &id, &maj, &min) == 3 && id == sx.stx_mnt_id)
			return (maj << 20) | min;
	return 0;
}

static int make_paths(void **state)
{
	int fd;

	(void)state;
	fd = mkstemp(file);
	if (fd < 0)
		return -1;
	close(fd);
	if (!mkdtemp(dir))
		return -1;
	snprintf(link_path, sizeof(link_path), "%s/link", dir);
	if (symlink(file, link_path))
		return -1;
	if (stat(file, &file_st) || stat(dir, &dir_st))
		return -1;
	file_kdev = sb_dev(file);
	dir_kdev = sb_dev(dir);
	return file_kdev && dir_kdev ? 0 : -1;
}

static int remove_paths(void **state)
{
	(void)state;
	unlink(link_path);
	rmdir(dir);
	unlink(file);
	return 0;
}

/* After each test, pass or fail. */
static int free_all(void **state)
{
	(void)state;
	compiled_free(&c);
	policy_free(&p);
	return 0;
}

/*
 * Text from a format with paths in it: a policy, or the message it
 * should fail with. Two buffers in turn, for compile_error(y(), y()).
 */
__attribute__((format(printf, 1, 2)))
static const char *y(const char *fmt, ...)
{
	char *buf = yaml[turn++ % 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(yaml[0]), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(yaml[0]));
	return buf;
}

/*
 * Parse @text, which must succeed, and compile it. Self-protection is
 * on by default and adds its own hooks; the tests of rule kinds turn it
 * off to see only theirs, test_self_protection looks at it.
 */
static bool keep_self_protection;

static int compile(const char *text)
{
	policy_free(&p);
	compiled_free(&c);
	if (policy_parse("t.yaml", text, strlen(text), &p, err, sizeof(err)))
		fail_msg("the parse failed: %s", err);
	if (!keep_self_protection)
		p.no_self_protection = true;
	return policy_compile("t.yaml", &p, &c, err, sizeof(err));
}

static void compile_ok(const char *text)
{
	if (compile(text))
		fail_msg("the compile failed: %s", err);
	assert_int_equal(c.n_rules, p.n_rules);
}

/* The compile fails with exactly @want, and leaves nothing behind. */
static void compile_error(const char *text, const char *want)
{
	if (compile(text) == 0)
		fail_msg("compiled, expected '%s'", want);
	assert_string_equal(err, want);
	assert_null(c.files);
	assert_null(c.socks);
	assert_null(c.nets);
	assert_null(c.rules);
	assert_int_equal(c.n_files + c.n_socks + c.n_nets + c.n_rules, 0);
	assert_int_equal(c.hooks, 0);
}

/* The dev_t the compiler must key @st's rules by: its superblock's. */
static __u32 kdev(const struct stat *st)
{
	return st == &file_st ? file_kdev : st == &dir_st ? dir_kdev : 0;
}

static const struct path_entry *path_entry(const char *dir_path, const char *name);

/* The one file entry for @st. */
static const struct file_entry *entry(const struct stat *st)
{
	const struct file_entry *e = NULL;
	size_t i;

	for (i = 0; i < c.n_files; i++) {
		if (c.files[i].key.ino != st->st_ino || c.files[i].key.dev != kdev(st))
			continue;
		if (e)
			fail_msg("two entries for inode %lu", (unsigned long)st->st_ino);
		e = &c.files[i];
	}
	if (!e)
		fail_msg("no entry for inode %lu", (unsigned long)st->st_ino);
	assert_int_equal(e->key.policy, 0);	/* filled in when loading */
	return e;
}

static void assert_slots(const __u16 *slots, __u16 r, __u16 w, __u16 x, __u16 cr, __u16 u)
{
	assert_int_equal(slots[LAB_READ], r);
	assert_int_equal(slots[LAB_WRITE], w);
	assert_int_equal(slots[LAB_EXEC], x);
	assert_int_equal(slots[LAB_CREATE], cr);
	assert_int_equal(slots[LAB_UNLINK], u);
}

static void assert_no_fixed_rules(void)
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		assert_int_equal(c.conf.fixed_rule[i], 0);
		assert_int_equal(c.conf.fixed_deny[i], 0);
	}
	for (i = 0; i < 64; i++)
		assert_int_equal(c.conf.cap_rule[i], 0);
	assert_int_equal(c.conf.cap_deny, 0);
}

static void test_file_read_deny(void **state)
{
	const struct file_entry *e;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: %s\n    access: read\n    action: deny\n", file));
	assert_int_equal(c.n_files, 1);
	e = entry(&file_st);
	assert_int_equal(e->key.ino, file_st.st_ino);
	assert_int_equal(e->key.dev, file_kdev);
	assert_slots(e->val.exact, 1, 0, 0, 0, 0);
	assert_slots(e->val.tree, 0, 0, 0, 0, 0);
	assert_int_equal(e->val.exact_deny, 1u << LAB_READ);
	assert_int_equal(e->val.tree_deny, 0);
	/* the engine looks rules up only for the classes these name (unlink: the guards) */
	assert_int_equal(c.conf.file_exact, (1u << LAB_READ) | (1u << LAB_UNLINK));
	assert_int_equal(c.conf.file_tree, 0);
	assert_int_equal(c.hooks, HOOKS_READ_DENY);
	assert_int_equal(c.classes, 1u << LAB_READ);
	assert_int_equal(c.n_socks + c.n_nets, 0);
	assert_int_equal(c.conf.n_net, 0);
	assert_int_equal(c.conf.flags, 0);
	assert_int_equal(c.conf.default_deny, 0);
	assert_int_equal(c.conf.cgroup_id, 0);
	assert_no_fixed_rules();
}

/* The rule's index, not its line, and through a symlink: the inode (a deny's). */
static void test_file_index(void **state)
{
	const struct file_entry *e;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - signal: deny\n  - mount: allow\n"
		     "  - files: %s\n    access: [write, read]\n    action: deny\n", link_path));
	assert_int_equal(c.n_files, 1);
	e = entry(&file_st);
	assert_slots(e->val.exact, 3, 3, 0, 0, 0);
	assert_int_equal(e->val.exact_deny, (1u << LAB_READ) | (1u << LAB_WRITE));
	assert_int_equal(c.hooks, HOOKS_READ_DENY | BIT(LAB_HOOK_TASK_KILL) | HOOKS_MOUNT);
}

static void test_subtree(void **state)
{
	const struct file_entry *e;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: %s/**\n    access: [read, write, unlink]\n"
		     "    action: deny\n", dir));
	assert_int_equal(c.n_files, 1);
	e = entry(&dir_st);
	assert_slots(e->val.tree, 1, 1, 0, 0, 1);
	assert_slots(e->val.exact, 0, 0, 0, 0, 0);
	assert_int_equal(e->val.tree_deny, (1u << LAB_READ) | (1u << LAB_WRITE) | (1u << LAB_UNLINK));
	assert_int_equal(e->val.exact_deny, 0);
	assert_int_equal(c.conf.file_exact, 0);
	assert_int_equal(c.conf.file_tree, (1u << LAB_READ) | (1u << LAB_WRITE) | (1u << LAB_UNLINK));
	assert_int_equal(c.hooks, HOOKS_READ_DENY | HOOKS_UNLINK);

	/* the directory itself and its subtree share an entry */
	compile_ok(y("name: t\nrules:\n  - files: %s/**\n    access: read\n    action: deny\n"
		     "  - files: %s\n    access: read\n    action: allow\n", dir, dir));
	assert_int_equal(c.n_files, 1);
	e = entry(&dir_st);
	assert_slots(e->val.tree, 1, 0, 0, 0, 0);
	assert_slots(e->val.exact, 0, 0, 0, 0, 0);	/* the allow is by path: its name */
	assert_int_equal(e->val.tree_deny, 1u << LAB_READ);
	assert_int_equal(e->val.exact_deny, 0);
	assert_slots(path_entry("/tmp", strrchr(dir, '/') + 1)->val.rule, 2, 0, 0, 0, 0);

	/* a file's allow by path is its name's, the directory's subtree an entry */
	compile_ok(y("name: t\nrules:\n  - files: %s/**\n    access: write\n    action: deny\n"
		     "  - files: %s\n    access: write\n    action: allow\n", dir, file));
	assert_int_equal(c.n_files, 1);
	assert_slots(entry(&dir_st)->val.tree, 0, 1, 0, 0, 0);
	assert_slots(path_entry("/tmp", strrchr(file, '/') + 1)->val.rule, 0, 2, 0, 0, 0);
	/* (unlink: the rule by path's directories, guarded: test_path_guards) */
	assert_int_equal(c.conf.file_exact, 1u << LAB_UNLINK);
	assert_int_equal(c.conf.file_tree, 1u << LAB_WRITE);

	/* filler rules are exact read rules */
	compile_ok(y("name: t\nrules:\n  - exec: %s\n    action: deny\n", file));
	assert_int_equal(compiled_add_filler(&c, 3), 0);
	assert_int_equal(c.conf.file_exact, (1u << LAB_READ) | (1u << LAB_EXEC) | (1u << LAB_UNLINK));
	assert_int_equal(c.conf.file_tree, 0);
}

static void test_exec(void **state)
{
	const struct file_entry *e;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - exec: %s\n    action: deny\n", file));
	assert_int_equal(c.n_files, 1);
	e = entry(&file_st);
	assert_slots(e->val.exact, 0, 0, 1, 0, 0);
	assert_int_equal(e->val.exact_deny, 1u << LAB_EXEC);
	assert_int_equal(c.hooks, HOOKS_EXEC);
	assert_int_equal(c.classes, 1u << LAB_EXEC);

	compile_ok(y("name: t\nrules:\n  - exec: %s/**\n    action: allow\n"
		     "  - files: %s\n    access: exec\n    action: deny\n", dir, file));
	assert_slots(entry(&dir_st)->val.tree, 0, 0, 1, 0, 0);
	assert_int_equal(entry(&dir_st)->val.tree_deny, 0);
	assert_slots(entry(&file_st)->val.exact, 0, 0, 2, 0, 0);
	assert_int_equal(entry(&file_st)->val.exact_deny, 1u << LAB_EXEC);
	assert_int_equal(c.hooks, HOOKS_EXEC);
}

static void test_create(void **state)
{
	const struct file_entry *e;

	(void)state;
	compile_error(y("name: t\nrules:\n  - files: %s\n    access: create\n    action: deny\n", file),
		      y("t.yaml:3:5: create applies to a directory's subtree: write %s/**", file));
	compile_error(y("name: t\nrules:\n  - ptrace: deny\n  - files: %s\n    access: [read, create]\n"
			"    action: deny\n", dir),
		      y("t.yaml:4:5: create applies to a directory's subtree: write %s/**", dir));

	compile_ok(y("name: t\nrules:\n  - files: %s/**\n    access: create\n    action: deny\n", dir));
	e = entry(&dir_st);
	assert_slots(e->val.tree, 0, 0, 0, 1, 0);
	assert_int_equal(e->val.tree_deny, 1u << LAB_CREATE);
	assert_int_equal(c.hooks, HOOKS_CREATE);
	assert_int_equal(__builtin_popcountll(c.hooks), 7);
}

static void test_unlink(void **state)
{
	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: %s\n    access: unlink\n    action: deny\n", file));
	assert_slots(entry(&file_st)->val.exact, 0, 0, 0, 0, 1);
	assert_int_equal(entry(&file_st)->val.exact_deny, 1u << LAB_UNLINK);
	assert_int_equal(c.hooks, HOOKS_UNLINK);
	assert_int_equal(__builtin_popcountll(c.hooks), 4);

	compile_ok(y("name: t\nrules:\n  - files: %s/**\n    access: [unlink, create]\n"
		     "    action: deny\n", dir));
	assert_int_equal(c.hooks, HOOKS_CREATE | HOOKS_UNLINK);
}

static void test_missing_path(void **state)
{
	(void)state;
	compile_error("name: t\nrules:\n  - ptrace: deny\n  - files: /nonexistent/lab-unit\n"
		      "    access: read\n    action: deny\n",
		      "t.yaml:4:5: /nonexistent/lab-unit: No such file or directory"
		      " (paths are resolved when applied)");
	compile_error("name: t\nrules:\n  - exec: /nonexistent/lab-unit/**\n    action: deny\n",
		      "t.yaml:3:5: /nonexistent/lab-unit: No such file or directory"
		      " (paths are resolved when applied)");
}

/* Every rule in error is said, one a line, and nothing is compiled. */
static void test_every_error(void **state)
{
	(void)state;
	compile_error(y("name: t\nrules:\n  - files: /nonexistent/lab-unit\n    access: read\n"
			"    action: deny\n  - ptrace: deny\n  - files: %s/**\n    access: read\n"
			"    action: deny\n  - files: %s\n    access: create\n    action: deny\n",
			file, dir),
		      y("t.yaml:3:5: /nonexistent/lab-unit: No such file or directory"
			" (paths are resolved when applied)\n"
			"t.yaml:7:5: %s/** but %s is not a directory\n"
			"t.yaml:10:5: create applies to a directory's subtree: write %s/**",
			file, file, dir));
}

/* lsmctl check's compile: a missing path is a warning, its hooks counted. */
static void test_check_warnings(void **state)
{
	const char *missing = "name: t\nrules:\n  - exec: /nonexistent/lab-unit\n"
			      "    action: deny\n  - ptrace: deny\n";
	const char *not_dir = y("name: t\nrules:\n  - files: %s/**\n    access: read\n"
				"    action: deny\n", file);
	char warnings[512];

	(void)state;
	compiled_free(&c);
	if (policy_parse("t.yaml", missing, strlen(missing), &p, err, sizeof(err)))
		fail_msg("the parse failed: %s", err);
	p.no_self_protection = true;
	assert_int_equal(policy_compile_check("t.yaml", &p, &c, warnings, sizeof(warnings), err,
					      sizeof(err)), 0);
	assert_string_equal(warnings, "t.yaml:3:5: warning: /nonexistent/lab-unit: No such file or"
			    " directory: apply would refuse the policy");
	assert_int_equal(c.n_files, 0);
	assert_int_equal(c.n_rules, 2);
	assert_int_equal(c.hooks, HOOKS_EXEC | BIT(LAB_HOOK_PTRACE_ACCESS) |
			 BIT(LAB_HOOK_PTRACE_TRACEME));
	policy_free(&p);
	/* what is not a missing path is still an error */
	compiled_free(&c);
	if (policy_parse("t.yaml", not_dir, strlen(not_dir), &p, err, sizeof(err)))
		fail_msg("the parse failed: %s", err);
	assert_int_equal(policy_compile_check("t.yaml", &p, &c, warnings, sizeof(warnings), err,
					      sizeof(err)), -1);
	assert_string_equal(warnings, "");
	assert_non_null(strstr(err, "is not a directory"));
	policy_free(&p);
	/* a missing name in a directory that exists: valid, and check says it waits */
	compiled_free(&c);
	not_dir = y("name: t\nrules:\n  - files: %s/nofile\n    access: read\n"
		    "    action: deny\n", dir);
	if (policy_parse("t.yaml", not_dir, strlen(not_dir), &p, err, sizeof(err)))
		fail_msg("the parse failed: %s", err);
	assert_int_equal(policy_compile_check("t.yaml", &p, &c, warnings, sizeof(warnings), err,
					      sizeof(err)), 0);
	assert_string_equal(warnings, y("t.yaml:3:5: warning: %s/nofile: No such file or "
					"directory: the rule waits for a file at that name", dir));
	assert_int_equal(c.n_paths, 1);
	policy_free(&p);
}

static void test_subtree_of_a_file(void **state)
{
	(void)state;
	compile_error(y("name: t\nrules:\n  - files: %s/**\n    access: read\n    action: deny\n", file),
		      y("t.yaml:3:5: %s/** but %s is not a directory", file, file));
	compile_error(y("name: t\nrules:\n  - mount: deny\n\n  - exec: %s/**\n    action: deny\n", file),
		      y("t.yaml:5:5: %s/** but %s is not a directory", file, file));
}

static void test_socket(void **state)
{
	(void)state;
	compile_ok("name: t\nrules:\n  - network: socket\n    family: inet6\n    type: raw\n"
		   "    action: deny\n  - network: socket\n    action: allow\n"
		   "  - network: socket\n    family: unix\n    action: deny\n");
	assert_int_equal(c.n_socks, 3);
	assert_int_equal(c.n_nets, 0);
	assert_int_equal(c.socks[0].key.policy, 0);
	assert_int_equal(c.socks[0].key.family, AF_INET6);
	assert_int_equal(c.socks[0].key.type, SOCK_RAW);
	assert_int_equal(c.socks[0].val.rule, 1);
	assert_int_equal(c.socks[0].val.deny, 1);
	assert_int_equal(c.socks[1].key.family, 0);
	assert_int_equal(c.socks[1].key.type, 0);
	assert_int_equal(c.socks[1].val.rule, 2);
	assert_int_equal(c.socks[1].val.deny, 0);
	assert_int_equal(c.socks[2].key.family, AF_UNIX);
	assert_int_equal(c.socks[2].key.type, 0);
	assert_int_equal(c.socks[2].val.rule, 3);
	assert_int_equal(c.socks[2].val.deny, 1);
	assert_int_equal(c.hooks, BIT(LAB_HOOK_SOCKET_CREATE));
	assert_int_equal(c.classes, 1u << LAB_SOCKET);
}

static void test_bind_connect(void **state)
{
	static const __u8 v4[16] = { 127 }, v6[16] = { 0x20, 0x01, 0x0d, 0xb8 }, none[16];

	(void)state;
	compile_ok("name: t\nrules:\n"
		   "  - network: bind\n    protocol: tcp\n    cidr: 127.0.0.0/8\n    ports: 1-1023\n"
		   "    action: deny\n"
		   "  - network: connect\n    protocol: udp\n    cidr: '2001:db8::/32'\n    ports: 53\n"
		   "    action: allow\n"
		   "  - network: connect\n    action: deny\n");
	assert_int_equal(c.n_nets, 3);
	assert_int_equal(c.conf.n_net, 3);
	assert_int_equal(c.n_socks, 0);

	assert_int_equal(c.nets[0].rule, 1);
	assert_int_equal(c.nets[0].class, LAB_BIND);
	assert_int_equal(c.nets[0].deny, 1);
	assert_int_equal(c.nets[0].family, AF_INET);
	assert_int_equal(c.nets[0].protocol, IPPROTO_TCP);
	assert_int_equal(c.nets[0].port_min, 1);
	assert_int_equal(c.nets[0].port_max, 1023);
	assert_int_equal(c.nets[0].prefix, 8);
	assert_memory_equal(c.nets[0].addr, v4, 16);

	assert_int_equal(c.nets[1].rule, 2);
	assert_int_equal(c.nets[1].class, LAB_CONNECT);
	assert_int_equal(c.nets[1].deny, 0);
	assert_int_equal(c.nets[1].family, AF_INET6);
	assert_int_equal(c.nets[1].protocol, IPPROTO_UDP);
	assert_int_equal(c.nets[1].port_min, 53);
	assert_int_equal(c.nets[1].port_max, 53);
	assert_int_equal(c.nets[1].prefix, 32);
	assert_memory_equal(c.nets[1].addr, v6, 16);

	/* no cidr, no ports: any address (prefix 0), every port */
	assert_int_equal(c.nets[2].rule, 3);
	assert_int_equal(c.nets[2].class, LAB_CONNECT);
	assert_int_equal(c.nets[2].deny, 1);
	assert_int_equal(c.nets[2].family, 0);
	assert_int_equal(c.nets[2].protocol, 0);
	assert_int_equal(c.nets[2].port_min, 0);
	assert_int_equal(c.nets[2].port_max, 65535);
	assert_int_equal(c.nets[2].prefix, 0);
	assert_memory_equal(c.nets[2].addr, none, 16);

	assert_int_equal(c.hooks, HOOKS_BIND | HOOKS_CONNECT);
	assert_int_equal(c.classes, (1u << LAB_BIND) | (1u << LAB_CONNECT));

	compile_ok("name: t\nrules:\n  - network: connect\n    family: inet\n    ports: 25\n"
		   "    action: deny\n");
	assert_int_equal(c.hooks, HOOKS_CONNECT);
	assert_int_equal(c.nets[0].family, AF_INET);
	assert_int_equal(c.nets[0].prefix, 0);

	/* rules no SCTP request can match: no sctp_bind_connect */
	compile_ok("name: t\nrules:\n  - network: connect\n    protocol: tcp\n    ports: 25\n"
		   "    action: deny\n  - network: bind\n    protocol: udp\n    action: deny\n");
	assert_int_equal(c.hooks, (HOOKS_BIND | HOOKS_CONNECT) & ~BIT(LAB_HOOK_SCTP_BIND_CONNECT));
	/* unless default: deny closes the class: SCTP is denied by default */
	compile_ok("name: t\ndefault: deny\nrules:\n  - network: connect\n    protocol: tcp\n"
		   "    action: allow\n");
	assert_int_equal(c.hooks, HOOKS_CONNECT);

	compile_ok("name: t\nrules:\n  - network: bind\n    ports: 8000-8080\n    action: allow\n");
	assert_int_equal(c.hooks, HOOKS_BIND);
	assert_int_equal(c.nets[0].class, LAB_BIND);
	assert_int_equal(c.nets[0].port_min, 8000);
	assert_int_equal(c.nets[0].port_max, 8080);

	/* SCTP by its own keyword */
	compile_ok("name: t\nrules:\n  - network: connect\n    protocol: sctp\n    ports: 25\n"
		   "    action: deny\n");
	assert_int_equal(c.nets[0].protocol, IPPROTO_SCTP);
	assert_int_equal(c.hooks, HOOKS_CONNECT);
}

/* @n bind and connect rules (all different), plus socket rules, which
 * do not count. */
static const char *net_rules(unsigned int n)
{
	char *buf = yaml[0];
	size_t len = (size_t)snprintf(buf, sizeof(yaml[0]),
				      "name: t\nrules:\n  - network: socket\n    action: deny\n");
	unsigned int i;

	for (i = 0; i < n; i++) {
		len += (size_t)snprintf(buf + len, sizeof(yaml[0]) - len,
					"  - network: %s\n    ports: %u\n    action: deny\n",
					i % 2 ? "connect" : "bind", 1000 + i);
		assert_true(len < sizeof(yaml[0]));
	}
	return buf;
}

static void test_net_limit(void **state)
{
	const unsigned int max = LAB_MAX_NET_RULES;
	char want[64];

	(void)state;
	compile_ok(net_rules(max));
	assert_int_equal(c.n_nets, max);
	assert_int_equal(c.conf.n_net, max);
	/* the last: rule max + 1 of the file (the socket rule is 0), ports from 1000 */
	assert_int_equal(c.nets[max - 1].rule, max + 1);
	assert_int_equal(c.nets[max - 1].port_min, 1000 + max - 1);
	assert_int_equal(c.n_socks, 1);

	if (compile(net_rules(max + 1)) == 0)
		fail_msg("compiled %u bind and connect rules", max + 1);
	snprintf(want, sizeof(want), "%u bind and connect rules at most, not %u", max, max + 1);
	if (strncmp(err, "t.yaml:", 7) || !strstr(err, want))
		fail_msg("got '%s'", err);
	assert_null(c.nets);
	assert_int_equal(c.n_nets, 0);
}

static void test_fixed(void **state)
{
	static const struct {
		const char *rule;
		unsigned int class;
		__u64 hooks;
	} kinds[] = {
		{ "ptrace", LAB_PTRACE, HOOKS_PTRACE },
		{ "mount", LAB_MOUNT, HOOKS_MOUNT },
		{ "module_load", LAB_MODULE_LOAD, HOOKS_MODULE },
		{ "signal", LAB_SIGNAL, BIT(LAB_HOOK_TASK_KILL) },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		compile_ok(y("name: t\nrules:\n  - %s: deny\n", kinds[i].rule));
		assert_int_equal(c.conf.fixed_rule[kinds[i].class], 1);
		assert_int_equal(c.conf.fixed_deny[kinds[i].class], 1);
		assert_int_equal(c.hooks, kinds[i].hooks);
		assert_int_equal(c.classes, 1u << kinds[i].class);
		assert_int_equal(c.n_files + c.n_socks + c.n_nets, 0);
	}

	compile_ok("name: t\nrules:\n  - signal: deny\n  - mount: allow\n  - ptrace: deny\n"
		   "  - module_load: allow\n");
	assert_int_equal(c.conf.fixed_rule[LAB_SIGNAL], 1);
	assert_int_equal(c.conf.fixed_deny[LAB_SIGNAL], 1);
	assert_int_equal(c.conf.fixed_rule[LAB_MOUNT], 2);
	assert_int_equal(c.conf.fixed_deny[LAB_MOUNT], 0);
	assert_int_equal(c.conf.fixed_rule[LAB_PTRACE], 3);
	assert_int_equal(c.conf.fixed_deny[LAB_PTRACE], 1);
	assert_int_equal(c.conf.fixed_rule[LAB_MODULE_LOAD], 4);
	assert_int_equal(c.conf.fixed_deny[LAB_MODULE_LOAD], 0);
	for (i = 0; i < 16; i++)
		if (i != LAB_SIGNAL && i != LAB_MOUNT && i != LAB_PTRACE && i != LAB_MODULE_LOAD)
			assert_int_equal(c.conf.fixed_rule[i], 0);
	assert_int_equal(c.hooks, HOOKS_PTRACE | HOOKS_MOUNT | HOOKS_MODULE |
			 BIT(LAB_HOOK_TASK_KILL));
}

static void test_capability(void **state)
{
	unsigned int i;

	(void)state;
	compile_ok("name: t\nrules:\n  - capability: [net_raw, sys_admin]\n    action: deny\n");
	assert_int_equal(c.conf.cap_rule[13], 1);
	assert_int_equal(c.conf.cap_rule[21], 1);
	assert_int_equal(c.conf.cap_deny, BIT(13) | BIT(21));
	for (i = 0; i < 64; i++)
		if (i != 13 && i != 21)
			assert_int_equal(c.conf.cap_rule[i], 0);
	assert_int_equal(c.hooks, BIT(LAB_HOOK_CAPABLE));
	assert_int_equal(c.classes, 1u << LAB_CAPABILITY);

	/* the first rule naming a capability decides it */
	compile_ok("name: t\nrules:\n  - capability: [net_raw, sys_admin]\n    action: deny\n"
		   "  - capability: [CAP_SYS_ADMIN, chown, checkpoint_restore]\n    action: allow\n");
	assert_int_equal(c.conf.cap_rule[21], 1);
	assert_int_equal(c.conf.cap_rule[0], 2);
	assert_int_equal(c.conf.cap_rule[40], 2);
	assert_int_equal(c.conf.cap_deny, BIT(13) | BIT(21));
}

static void test_first_rule_wins(void **state)
{
	const struct file_entry *e;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: %s\n    access: read\n    action: allow\n"
		     "  - files: %s\n    access: [read, write]\n    action: deny\n", file, link_path));
	assert_int_equal(c.n_paths, 1);
	assert_slots(c.paths[0].val.rule, 1, 2, 0, 0, 0);
	assert_int_equal(c.paths[0].val.deny, 1u << LAB_WRITE);
	/* the inode takes the classes the deny won at the name: not read */
	assert_int_equal(c.n_files, 1);
	e = entry(&file_st);
	assert_slots(e->val.exact, 0, 2, 0, 0, 0);
	assert_int_equal(e->val.exact_deny, 1u << LAB_WRITE);

	compile_ok(y("name: t\nrules:\n  - files: %s/**\n    access: unlink\n    action: deny\n"
		     "  - files: %s/**\n    access: unlink\n    action: allow\n", dir, dir));
	e = entry(&dir_st);
	assert_slots(e->val.tree, 0, 0, 0, 0, 1);
	assert_int_equal(e->val.tree_deny, 1u << LAB_UNLINK);

	compile_ok("name: t\nrules:\n  - network: socket\n    family: inet\n    action: deny\n"
		   "  - network: socket\n    family: inet\n    action: allow\n"
		   "  - ptrace: allow\n  - ptrace: deny\n");
	assert_int_equal(c.n_socks, 1);
	assert_int_equal(c.socks[0].val.rule, 1);
	assert_int_equal(c.socks[0].val.deny, 1);
	assert_int_equal(c.conf.fixed_rule[LAB_PTRACE], 3);
	assert_int_equal(c.conf.fixed_deny[LAB_PTRACE], 0);
	assert_int_equal(c.n_rules, 4);

	/* bind and connect rules are scanned in order: all are kept */
	compile_ok("name: t\nrules:\n  - network: bind\n    action: deny\n"
		   "  - network: bind\n    action: allow\n");
	assert_int_equal(c.n_nets, 2);
	assert_int_equal(c.nets[0].deny, 1);
	assert_int_equal(c.nets[1].deny, 0);
}

static void test_default_deny(void **state)
{
	(void)state;
	compile_ok(y("name: t\ndefault: deny\nrules:\n  - exec: %s/**\n    action: allow\n"
		     "  - files: %s\n    access: read\n    action: deny\n", dir, file));
	assert_int_equal(c.conf.default_deny, 1u << LAB_EXEC);

	compile_ok(y("name: t\ndefault: deny\nrules:\n  - files: %s\n    access: read\n"
		     "    action: deny\n  - ptrace: deny\n", file));
	assert_int_equal(c.conf.default_deny, 0);

	compile_ok("name: t\ndefault: deny\nrules:\n  - capability: chown\n    action: allow\n"
		   "  - network: connect\n    ports: 443\n    action: allow\n  - signal: allow\n");
	assert_int_equal(c.conf.default_deny,
			 (1u << LAB_CAPABILITY) | (1u << LAB_CONNECT) | (1u << LAB_SIGNAL));

	compile_ok(y("name: t\ndefault: allow\nrules:\n  - exec: %s\n    action: allow\n", file));
	assert_int_equal(c.conf.default_deny, 0);
}

static void test_self_protection(void **state)
{
	/* the policy's part is at file_open; the guard, loaded apart, has the rest */
	const __u64 self_hooks = BIT(LAB_HOOK_FILE_OPEN);

	(void)state;
	keep_self_protection = true;
	compile_ok("name: t\nrules:\n  - mount: deny\n");
	assert_int_equal(c.conf.flags, LAB_SELF_PROTECT);
	assert_int_equal(c.hooks, self_hooks | HOOKS_MOUNT);
	compile_ok("name: t\nself_protection: on\nrules:\n  - ptrace: deny\n");
	assert_int_equal(c.hooks, self_hooks | BIT(LAB_HOOK_PTRACE_ACCESS) |
			 BIT(LAB_HOOK_PTRACE_TRACEME));
	compile_ok("name: t\nself_protection: off\nrules:\n  - ptrace: deny\n");
	assert_int_equal(c.conf.flags, 0);
	assert_int_equal(c.hooks, BIT(LAB_HOOK_PTRACE_ACCESS) | BIT(LAB_HOOK_PTRACE_TRACEME));
	keep_self_protection = false;
	assert_string_equal(hook_rule_kinds(LAB_HOOK_FILE_OPEN),
			    "read, write, exec, create, self_protection");
}

static void test_audit(void **state)
{
	(void)state;
	compile_ok("name: t\nmode: audit\nrules:\n  - ptrace: deny\n");
	assert_int_equal(c.conf.flags, LAB_AUDIT);
	compile_ok("name: t\nmode: enforce\nrules:\n  - ptrace: deny\n");
	assert_int_equal(c.conf.flags, 0);
}

static void test_rule_texts(void **state)
{
	char files[RULE_TEXT_MAX], subtree[RULE_TEXT_MAX], exec[RULE_TEXT_MAX];
	const char *const want[] = {
		files,
		subtree,
		exec,
		"network socket family inet6 type raw deny",
		"network bind family inet protocol tcp address 127.0.0.0/8 ports 1-1023 deny",
		"network connect family inet6 protocol udp address 2001:db8::/32 ports 53-53 allow",
		"network connect family inet protocol any address 0.0.0.0/0 ports 0-65535 deny",
		"network connect family any protocol any address any ports 0-65535 allow",
		"capability net_raw,sys_admin deny",
		"ptrace deny",
		"module_load allow",
	};
	static const unsigned int lines[] = { 3, 6, 9, 11, 15, 20, 25, 28, 30, 32, 33 };
	unsigned int i;

	(void)state;
	snprintf(files, sizeof(files), "files %s read deny", file);
	snprintf(subtree, sizeof(subtree), "files %s/** read,write,create,unlink allow", dir);
	snprintf(exec, sizeof(exec), "exec %s deny", file);
	compile_ok(y("name: t\nrules:\n"
		     "  - files: %s\n    access: read\n    action: deny\n"			/* 3 */
		     "  - files: %s/**\n    access: [unlink, create, write, read]\n"	/* 6 */
		     "    action: allow\n"
		     "  - exec: %s\n    action: deny\n"					/* 9 */
		     "  - network: socket\n    family: inet6\n    type: raw\n"		/* 11 */
		     "    action: deny\n"
		     "  - network: bind\n    protocol: tcp\n    cidr: 127.0.0.0/8\n"	/* 15 */
		     "    ports: 1-1023\n    action: deny\n"
		     "  - network: connect\n    protocol: udp\n    cidr: '2001:db8::/32'\n"	/* 20 */
		     "    ports: 53\n    action: allow\n"
		     "  - network: connect\n    cidr: 0.0.0.0/0\n    action: deny\n"		/* 25 */
		     "  - network: connect\n    action: allow\n"			/* 28 */
		     "  - capability: [net_raw, sys_admin]\n    action: deny\n"		/* 30 */
		     "  - ptrace: deny\n"						/* 32 */
		     "  - module_load: allow\n",						/* 33 */
		     file, dir, file));
	assert_int_equal(c.n_rules, 11);
	for (i = 0; i < 11; i++) {
		assert_string_equal(c.rules[i].text, want[i]);
		assert_int_equal(c.rules[i].line, lines[i]);
	}

	/* the root's subtree is written as such, with one slash */
	compile_ok("name: t\nrules:\n  - files: /**\n    access: read\n    action: allow\n"
		   "  - exec: /**\n    action: allow\n");
	assert_string_equal(c.rules[0].text, "files /** read allow");
	assert_string_equal(c.rules[1].text, "exec /** allow");
}

/* A text longer than RULE_TEXT_MAX is cut short, and still a string. */
/* A path's bytes a line of text would take otherwise (a learnt path is a confined task's) */
static void test_rule_text_escapes_path(void **state)
{
	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: \"%s/a b\\e[2J) policy=x\\u00a0y\"\n"
		     "    access: read\n    action: deny\n", dir));
	assert_true(strstr(c.rules[0].text, "/a\\x20b\\x1b[2J\\x29\\x20policy\\x3dx\\xc2\\xa0y read deny"));
}

static void test_long_rule_text(void **state)
{
	char path[512];
	size_t len;

	(void)state;
	len = (size_t)snprintf(path, sizeof(path), "%s", dir);
	while (len < 300)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "/.");
	compile_ok(y("name: t\nrules:\n  - files: %s\n    access: read\n    action: deny\n", path));
	assert_int_equal(strlen(c.rules[0].text), RULE_TEXT_MAX - 1);
	assert_memory_equal(c.rules[0].text, "files ", 6);
	assert_int_equal(entry(&dir_st)->val.exact[LAB_READ], 1);
}

static void test_hook_names(void **state)
{
	unsigned int h, i;

	(void)state;
	for (h = 0; h < LAB_NR_HOOKS; h++) {
		const char *name = hook_name(h);

		assert_non_null(name);
		assert_string_not_equal(name, "?");
		for (i = 0; i < h; i++)
			assert_string_not_equal(name, hook_name(i));
		/* every hook is needed by some kind of rule */
		assert_string_not_equal(hook_rule_kinds(h), "");
	}
	assert_string_equal(hook_name(LAB_NR_HOOKS), "?");
	assert_string_equal(hook_name(LAB_HOOK_BPRM_CHECK), "bprm_check_security");
	assert_string_equal(hook_name(LAB_HOOK_CAPABLE), "capable");
	for (i = 0; i < LAB_NR_CLASSES; i++) {
		assert_non_null(class_name(i));
		assert_string_not_equal(class_name(i), "?");
	}
	assert_string_equal(class_name(LAB_NR_CLASSES), "?");

	assert_non_null(strstr(hook_rule_kinds(LAB_HOOK_INODE_LINK), "create"));
	assert_non_null(strstr(hook_rule_kinds(LAB_HOOK_INODE_LINK), "unlink"));
	assert_string_equal(hook_rule_kinds(LAB_HOOK_INODE_LINK), "create, unlink");
	assert_string_equal(hook_rule_kinds(LAB_HOOK_FILE_OPEN),
			    "read, write, exec, create, self_protection");
	assert_string_equal(hook_rule_kinds(LAB_HOOK_BPRM_CHECK), "exec");
	assert_string_equal(hook_rule_kinds(LAB_HOOK_SOCKET_SENDMSG), "connect");
	assert_string_equal(hook_rule_kinds(LAB_HOOK_INODE_MKDIR), "create");
	assert_string_equal(hook_rule_kinds(LAB_HOOK_INODE_RMDIR), "unlink");
}

/* mountinfo lines: "ID PARENT MAJOR:MINOR ROOT POINT OPTIONS - TYPE SOURCE SUPER" */
static void test_mountinfo_dev(void **state)
{
	static char text[16384];
	size_t len = 0;
	__u32 dev = 7;
	FILE *f;

	(void)state;
	len += snprintf(text + len, sizeof(text) - len,
			"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
			"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n");
	/* a line longer than compile.c's buffer, whose tail looks like a line of id 41 */
	len += snprintf(text + len, sizeof(text) - len, "30 27 0:30 / /long rw - tmpfs ");
	memset(text + len, 'x', 4095 - 30);	/* the tail starts where a 4096-byte fgets stops */
	len += 4095 - 30;
	len += snprintf(text + len, sizeof(text) - len, "41 27 9:9 / /fake rw - tmpfs x rw\n"
			/* btrfs: the superblock's anonymous device, not a subvolume's */
			"40 27 0:45 /@home /home rw - btrfs /dev/vdb rw,subvol=/@home\n"
			"41 27 259:3 / /data rw - xfs /dev/nvme0n1p3 rw\n"
			"garbage\n"
			"42 27 4095:1048575 / /big rw - ext4 /dev/x rw\n");

	f = fmemopen(text, len, "r");
	assert_non_null(f);
	assert_int_equal(mountinfo_dev(f, 27, &dev), 0);
	assert_int_equal(dev, 254u << 20);
	rewind(f);
	assert_int_equal(mountinfo_dev(f, 40, &dev), 0);
	assert_int_equal(dev, 45);
	rewind(f);
	assert_int_equal(mountinfo_dev(f, 41, &dev), 0);
	assert_int_equal(dev, (259u << 20) | 3);	/* not the long line's 9:9 */
	rewind(f);
	assert_int_equal(mountinfo_dev(f, 42, &dev), 0);
	assert_int_equal(dev, 0xffffffffu);
	rewind(f);
	dev = 7;
	assert_int_equal(mountinfo_dev(f, 99, &dev), -1);
	assert_int_equal(dev, 7);	/* untouched */
	fclose(f);
}

static void test_path_kernel_dev(void **state)
{
	struct stat st;
	__u32 dev = 0;

	(void)state;
	assert_int_equal(path_kernel_dev(file, &st, &dev), 0);
	assert_int_equal(st.st_ino, file_st.st_ino);
	assert_int_equal(dev, file_kdev);
	/* through a symlink: the target's */
	assert_int_equal(path_kernel_dev(link_path, &st, &dev), 0);
	assert_int_equal(st.st_ino, file_st.st_ino);
	assert_int_equal(dev, file_kdev);
	/* /proc: an anonymous device, 0:N, on every kernel */
	assert_int_equal(path_kernel_dev("/proc/self/status", &st, &dev), 0);
	assert_int_equal(dev >> 20, 0);
	assert_int_equal(dev, sb_dev("/proc/self/status"));
	errno = 0;
	assert_int_equal(path_kernel_dev("/nonexistent/lab", &st, &dev), -1);
	assert_int_equal(errno, ENOENT);
}

/* The one path entry for @name in @dir_path's directory. */
static const struct path_entry *path_entry(const char *dir_path, const char *name)
{
	const struct path_entry *e = NULL;
	struct stat st;
	size_t i;

	if (stat(dir_path, &st))
		fail_msg("stat %s", dir_path);
	for (i = 0; i < c.n_paths; i++) {
		if (c.paths[i].key.dir != st.st_ino || c.paths[i].val.len != strlen(name) ||
		    memcmp(c.paths[i].val.name, name, strlen(name) + 1))
			continue;
		if (e)
			fail_msg("two entries for %s/%s", dir_path, name);
		e = &c.paths[i];
	}
	if (!e)
		fail_msg("no entry for %s/%s", dir_path, name);
	assert_int_equal(e->key.policy, 0);
	assert_int_equal(e->key.dev, sb_dev(dir_path));
	return e;
}

/* A rule by path: the directory and the name, and the inode there at apply. */
static void test_path_rule(void **state)
{
	const struct path_entry *e;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: %s\n    access: [read, write]\n"
		     "    action: deny\n", file));
	assert_int_equal(c.n_paths, 1);
	e = path_entry("/tmp", strrchr(file, '/') + 1);
	assert_slots(e->val.rule, 1, 1, 0, 0, 0);
	assert_int_equal(e->val.deny, (1u << LAB_READ) | (1u << LAB_WRITE));
	assert_int_equal(c.conf.file_path, (1u << LAB_READ) | (1u << LAB_WRITE));
	assert_slots(entry(&file_st)->val.exact, 1, 1, 0, 0, 0);

	/*
	 * a name that is not there yet: the name alone; through a symlink:
	 * the target's; an allow: the name alone (no inode: numbers are
	 * reused)
	 */
	compile_ok(y("name: t\nrules:\n  - exec: %s/not-yet\n    action: deny\n"
		     "  - files: %s\n    access: read\n    action: allow\n", dir, link_path));
	assert_int_equal(c.n_paths, 2);
	assert_int_equal(c.n_files, 0);
	assert_slots(path_entry(dir, "not-yet")->val.rule, 0, 0, 1, 0, 0);
	e = path_entry("/tmp", strrchr(file, '/') + 1);
	assert_slots(e->val.rule, 2, 0, 0, 0, 0);
	assert_int_equal(e->val.deny, 0);
	assert_int_equal(c.conf.file_path, (1u << LAB_READ) | (1u << LAB_EXEC));

	/* match: inode is the inode alone */
	compile_ok(y("name: t\nrules:\n  - files: %s\n    access: read\n    action: deny\n"
		     "    match: inode\n", file));
	assert_int_equal(c.n_paths, 0);
	assert_int_equal(c.conf.file_path, 0);
	assert_slots(entry(&file_st)->val.exact, 1, 0, 0, 0, 0);
}

/* A rule by path's directory and those above it get an unlink deny, after the policy's own. */
static void test_path_guards(void **state)
{
	struct stat tmp_st;
	size_t i;

	(void)state;
	assert_int_equal(stat("/tmp", &tmp_st), 0);
	compile_ok(y("name: t\nrules:\n  - files: %s/name\n    access: read\n    action: deny\n",
		     dir));
	assert_int_equal(c.n_files, 0);
	assert_int_equal(c.n_guards, 2);	/* dir, /tmp; never / */
	for (i = 0; i < c.n_guards; i++) {
		assert_true(c.guards[i].key.ino == dir_st.st_ino ||
			    c.guards[i].key.ino == tmp_st.st_ino);
		assert_slots(c.guards[i].val.exact, 0, 0, 0, 0, 1);
		assert_int_equal(c.guards[i].val.exact_deny, 1u << LAB_UNLINK);
	}
	assert_int_equal(c.conf.file_exact, 1u << LAB_UNLINK);
	/* the directories' rename and rmdir; no allow: no link or new-file refusal */
	assert_int_equal(c.guard_hooks, BIT(LAB_HOOK_INODE_RENAME) | BIT(LAB_HOOK_INODE_RMDIR));
	assert_int_equal(c.hooks, HOOKS_READ_DENY);

	/* an allow by path: links and renames onto it; an exec allow: new files too */
	compile_ok(y("name: t\nrules:\n  - files: %s/name\n    access: read\n    action: allow\n",
		     dir));
	assert_int_equal(c.guard_hooks, BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME) |
			 BIT(LAB_HOOK_INODE_RMDIR));
	compile_ok(y("name: t\nrules:\n  - exec: %s/name\n    action: allow\n", dir));
	assert_int_equal(c.guard_hooks, BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME) |
			 BIT(LAB_HOOK_INODE_RMDIR) | BIT(LAB_HOOK_INODE_CREATE) |
			 BIT(LAB_HOOK_INODE_MKNOD));

	/* an allow in "/": no directory to guard, the refusals all the same */
	compile_ok("name: t\nrules:\n  - files: /lab-unit-no-such-name\n    access: read\n"
		   "    action: allow\n");
	assert_int_equal(c.n_guards, 0);
	assert_int_equal(c.guard_hooks, BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME));

	/* the policy's own unlink rule on the directory comes first, in its entry */
	compile_ok(y("name: t\nrules:\n  - files: %s/name\n    access: read\n    action: deny\n"
		     "  - files: %s\n    access: unlink\n    action: allow\n    match: inode\n",
		     dir, dir));
	assert_int_equal(c.n_guards, 1);	/* /tmp */
	assert_slots(entry(&dir_st)->val.exact, 0, 0, 0, 0, 2);
	assert_int_equal(entry(&dir_st)->val.exact_deny, 0);

	/* no rule by path, no guard */
	compile_ok(y("name: t\nrules:\n  - files: %s/**\n    access: read\n    action: deny\n",
		     dir));
	assert_int_equal(c.n_guards + c.guard_hooks, 0);
}

static void test_path_missing_dir(void **state)
{
	(void)state;
	compile_error(y("name: t\nrules:\n  - files: %s/nodir/name\n    access: read\n"
			"    action: deny\n", dir),
		      y("t.yaml:3:5: %s/nodir/name: No such file or directory"
			" (paths are resolved when applied)", dir));
	compile_error(y("name: t\nrules:\n  - files: %s/name\n    access: read\n"
			"    action: deny\n", file),
		      y("t.yaml:3:5: %s/name: %s is not a directory", file, file));
}

static void test_glob(void **state)
{
	const struct lab_glob *g;
	char rules[4096] = "name: t\nrules:\n";
	int i;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: %s/*.key\n    access: read\n    action: deny\n"
		     "  - files: %s/id_*\n    access: [read, write]\n    action: allow\n", dir, dir));
	assert_int_equal(c.n_globs, 1);
	assert_int_equal(c.n_paths + c.n_files, 0);
	assert_int_equal(c.globs[0].key.dir, dir_st.st_ino);
	assert_int_equal(c.globs[0].key.dev, dir_kdev);
	assert_int_equal(c.globs[0].val.n, 2);
	g = &c.globs[0].val.pattern[0];
	assert_int_equal(g->prefix_len, 0);
	assert_int_equal(g->suffix_len, 4);
	assert_memory_equal(g->suffix, ".key", 4);
	assert_slots(g->rule, 1, 0, 0, 0, 0);
	assert_int_equal(g->deny, 1u << LAB_READ);
	g = &c.globs[0].val.pattern[1];
	assert_int_equal(g->prefix_len, 3);
	assert_memory_equal(g->prefix, "id_", 3);
	assert_int_equal(g->suffix_len, 0);
	assert_slots(g->rule, 2, 2, 0, 0, 0);
	assert_int_equal(c.conf.file_glob, (1u << LAB_READ) | (1u << LAB_WRITE));
	assert_int_equal(c.conf.file_path, 0);

	/* LAB_GLOB_PATTERNS a directory */
	for (i = 0; i <= LAB_GLOB_PATTERNS; i++)
		snprintf(rules + strlen(rules), sizeof(rules) - strlen(rules),
			 "  - files: %s/*.%d\n    access: read\n    action: deny\n", dir, i);
	compile_error(rules, y("t.yaml:%d:5: %s/*.%d: more than %d globs in %s",
			       3 + 3 * LAB_GLOB_PATTERNS, dir, LAB_GLOB_PATTERNS,
			       LAB_GLOB_PATTERNS, dir));
}

/* '*' middle components: keyed by the anchor, the names below by hash. */
static void test_middle_glob(void **state)
{
	__u64 words[LAB_PATH_NAME_LEN / 8];
	const struct lab_mglob *g;
	char rules[4096] = "name: t\nrules:\n";
	int i;

	(void)state;
	compile_ok(y("name: t\nrules:\n  - files: %s/*/.ssh/**\n    access: read\n"
		     "    action: deny\n  - exec: %s/*/bin/*\n    action: allow\n", dir, dir));
	assert_int_equal(c.n_globs, 1);
	assert_int_equal(c.n_paths + c.n_files, 0);
	assert_int_equal(c.globs[0].key.dir, dir_st.st_ino);
	assert_int_equal(c.globs[0].key.dev, dir_kdev);
	assert_int_equal(c.globs[0].val.n, 0);
	assert_int_equal(c.globs[0].val.n_mglob, 2);
	g = &c.globs[0].val.mglob[0];
	assert_int_equal(g->n, 2);
	assert_int_equal(g->star, 1);
	assert_int_equal(g->subtree, 1);
	memset(words, 0, sizeof(words));
	memcpy(words, ".ssh", 4);
	assert_true(g->comp[1] == lab_name_hash_step(lab_name_hash_step(LAB_NAME_HASH_SEED,
									 words[0]), 4));
	assert_slots(g->rule, 1, 0, 0, 0, 0);
	assert_int_equal(g->deny, 1u << LAB_READ);
	g = &c.globs[0].val.mglob[1];
	assert_int_equal(g->n, 3);
	assert_int_equal(g->star, 5);
	assert_int_equal(g->subtree, 0);
	assert_slots(g->rule, 0, 0, 2, 0, 0);
	assert_int_equal(g->deny, 0);
	/* unlink: the deny's leading directories (mglob_lead()) */
	assert_int_equal(c.conf.file_mglob, (1u << LAB_READ) | (1u << LAB_EXEC) | (1u << LAB_UNLINK));
	assert_int_equal(c.conf.file_glob | c.conf.file_path | c.conf.file_tree, 0);

	/* LAB_MGLOB_PATTERNS an anchor */
	for (i = 0; i <= LAB_MGLOB_PATTERNS; i++)
		snprintf(rules + strlen(rules), sizeof(rules) - strlen(rules),
			 "  - files: %s/*/%d\n    access: read\n    action: deny\n", dir, i);
	compile_error(rules, y("t.yaml:%d:5: %s/*/%d: more than %d rules with a '*' component "
			       "below %s", 3 + 3 * LAB_MGLOB_PATTERNS, dir, LAB_MGLOB_PATTERNS,
			       LAB_MGLOB_PATTERNS, dir));
	/* the anchor must exist */
	compile_error(y("name: t\nrules:\n  - files: %s/nodir/*/x\n    access: read\n"
			"    action: deny\n", dir),
		      y("t.yaml:3:5: %s/nodir: No such file or directory (paths are resolved "
			"when applied)", dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_file_read_deny, free_all),
		cmocka_unit_test_teardown(test_file_index, free_all),
		cmocka_unit_test_teardown(test_subtree, free_all),
		cmocka_unit_test_teardown(test_exec, free_all),
		cmocka_unit_test_teardown(test_create, free_all),
		cmocka_unit_test_teardown(test_unlink, free_all),
		cmocka_unit_test_teardown(test_missing_path, free_all),
		cmocka_unit_test_teardown(test_path_rule, free_all),
		cmocka_unit_test_teardown(test_path_guards, free_all),
		cmocka_unit_test_teardown(test_path_missing_dir, free_all),
		cmocka_unit_test_teardown(test_glob, free_all),
		cmocka_unit_test_teardown(test_middle_glob, free_all),
		cmocka_unit_test_teardown(test_subtree_of_a_file, free_all),
		cmocka_unit_test_teardown(test_every_error, free_all),
		cmocka_unit_test_teardown(test_check_warnings, free_all),
		cmocka_unit_test_teardown(test_socket, free_all),
		cmocka_unit_test_teardown(test_bind_connect, free_all),
		cmocka_unit_test_teardown(test_net_limit, free_all),
		cmocka_unit_test_teardown(test_fixed, free_all),
		cmocka_unit_test_teardown(test_capability, free_all),
		cmocka_unit_test_teardown(test_first_rule_wins, free_all),
		cmocka_unit_test_teardown(test_default_deny, free_all),
		cmocka_unit_test_teardown(test_audit, free_all),
		cmocka_unit_test_teardown(test_rule_texts, free_all),
		cmocka_unit_test_teardown(test_long_rule_text, free_all),
		cmocka_unit_test_teardown(test_rule_text_escapes_path, free_all),
		cmocka_unit_test_teardown(test_self_protection, free_all),
		cmocka_unit_test(test_hook_names),
		cmocka_unit_test(test_mountinfo_dev),
		cmocka_unit_test(test_path_kernel_dev),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, make_paths, remove_paths);
}
