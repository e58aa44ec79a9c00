// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the policy parser, then the rule compiler. Any input
 * must be rejected or accepted by policy_parse(); what it accepts goes
 * to policy_compile(), which must compile it or report an error, leave
 * nothing behind either way, and keep the promises of compile.h.
 *
 * The compiler stat()s the paths of files and exec rules. So that the
 * fuzzer's inputs can name paths that resolve, the target makes a small
 * fixed tree under TREE once, at start (the seeds in corpus/ name it):
 *
 *	TREE/a			a file
 *	TREE/b			a file
 *	TREE/h			a hard link to a (the same inode)
 *	TREE/l			a symlink to a (the same inode again)
 *	TREE/d/			a directory
 *	TREE/d/e/		a subdirectory
 *	TREE/d/e/f		a file in it
 *	TREE/d/g		a file
 *	TREE/ld			a symlink to d
 *	TREE/dangling		a symlink to nothing (stat fails)
 *	TREE/with space		a file with a space in its name
 *	TREE/café		a file with UTF-8 in its name
 *
 * Paths anywhere else are fine too: compile reports an error, also
 * worth covering. Making the tree is idempotent, so that runs with
 * -jobs or -fork, or after an earlier run, find it as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../../loader/compile.h"
#include "../../loader/policy.h"

#define TREE "/tmp/lab-fuzz-tree"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz_policy: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

static void make_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir", path);
	if (lstat(path, &st) || !S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		die("lstat", path);
	}
}

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		die("create", path);
	close(fd);
}

static void make_symlink(const char *target, const char *path)
{
	if (symlink(target, path) && errno != EEXIST)
		die("symlink", path);
}

static void make_link(const char *old, const char *path)
{
	if (link(old, path) && errno != EEXIST)
		die("link", path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	make_dir(TREE);
	make_file(TREE "/a");
	make_file(TREE "/b");
	make_link(TREE "/a", TREE "/h");
	make_symlink("a", TREE "/l");
	make_dir(TREE "/d");
	make_dir(TREE "/d/e");
	make_file(TREE "/d/e/f");
	make_file(TREE "/d/g");
	make_symlink("d", TREE "/ld");
	make_symlink("nowhere", TREE "/dangling");
	make_file(TREE "/with space");
	make_file(TREE "/caf\xc3\xa9");
	return 0;
}

/* A broken promise is a crash, with the promise in the report. */
#define CHECK(cond)								\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "fuzz_policy: not so: %s\n", #cond);	\
			abort();						\
		}								\
	} while (0)

/* What compile.h promises, checked on every policy the parser accepts. */
static void check(const struct policy *p, const struct compiled *c, int ret, const char *err)
{
	size_t i;

	if (ret) {	/* "FILE:LINE: what is wrong", and @out empty */
		CHECK(!strncmp(err, "fuzz.yaml:", 10));
		CHECK(!c->files && !c->socks && !c->nets && !c->rules);
		CHECK(!c->n_files && !c->n_socks && !c->n_nets && !c->n_rules);
		return;
	}
	CHECK(c->n_rules == p->n_rules);
	CHECK(c->n_files + c->n_socks + c->n_nets <= p->n_rules);
	CHECK(c->n_nets <= LAB_MAX_NET_RULES && c->conf.n_net == c->n_nets);
	for (i = 0; i < c->n_rules; i++) {
		CHECK(c->rules[i].line == p->rules[i].line);
		CHECK(strnlen(c->rules[i].text, RULE_TEXT_MAX) < RULE_TEXT_MAX);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compiled c;
	struct policy p;
	char err[512];
	int ret;

	if (policy_parse("fuzz.yaml", (const char *)data, size, &p, err, sizeof(err)))
		return 0;
	ret = policy_compile("fuzz.yaml", &p, &c, err, sizeof(err));
	check(&p, &c, ret, err);
	compiled_free(&c);
	policy_free(&p);
	return 0;
}
