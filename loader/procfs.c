// SPDX-License-Identifier: GPL-2.0
/* lsmctl learn's names for /proc's files (see procfs.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "../bpf-progs/policy/engine.h"
#include "procfs.h"

#define PROC_ROOT_INO	1	/* fs/proc/root.c's proc_root */
#define TASK_DEPTH	3	/* a task's folders looked in: /proc/PID/task/TID/fd */
#define WALK_DEPTH	8	/* /proc's own folders (sys, net, ...) looked in */

/* A folder of /proc by inode, and the form a rule names it by. */
struct folder {
	__u64 ino;
	char *form;
};

static struct folder *folders;
static size_t n_folders;
static bool walked;

static bool numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * Is @name, in the folder of form @dir, a number that stands for any
 * task's: a task's (in /proc), a thread's (in task/), a descriptor's (in
 * fd/, fdinfo/)? Numbers elsewhere are names a program may choose (a
 * network device's in /proc/sys/net/ipv4/conf/): kept as they are.
 */
static bool any_task(const char *dir, const char *name)
{
	static const char *const numbered[] = { "/task", "/fd", "/fdinfo" };
	size_t i, n = strlen(dir), k;

	if (!numeric(name))
		return false;
	if (!strcmp(dir, "/proc"))
		return true;
	for (i = 0; i < sizeof(numbered) / sizeof(numbered[0]); i++) {
		k = strlen(numbered[i]);
		/* only a task's own folders: /proc/<star>/task, /proc/<star>/task/<star>/fd */
		if (n > k && !strcmp(dir + n - k, numbered[i]) && !strncmp(dir, "/proc/*/", 8))
			return true;
	}
	return false;
}

static const char *remember(__u64 ino, const char *form)
{
	struct folder *grown = realloc(folders, (n_folders + 1) * sizeof(*grown));
	char *copy = strdup(form);

	if (grown)
		folders = grown;
	if (!grown || !copy) {
		free(copy);
		return NULL;
	}
	folders[n_folders].ino = ino;
	folders[n_folders].form = copy;
	return folders[n_folders++].form;
}

static const char *known(__u64 ino)
{
	size_t i;

	for (i = 0; i < n_folders; i++)
		if (folders[i].ino == ino)
			return folders[i].form;
	return NULL;
}

/* @ino among a task's folders: @path itself, or @depth levels below it; its form. */
static const char *in_task(const char *path, const char *form, __u64 ino, int depth)
{
	char sub[PATH_MAX], subform[PATH_MAX];
	const char *hit = NULL;
	struct dirent *de;
	struct stat st;
	DIR *dh;

	if (lstat(path, &st) || !S_ISDIR(st.st_mode))
		return NULL;
	if (st.st_ino == ino)
		return remember(ino, form);
	if (!depth)
		return NULL;
	dh = opendir(path);
	if (!dh)
		return NULL;
	while (!hit && (de = readdir(dh))) {
		/* a name a task chose (a network device's) may be "*": not a form's */
		if (de->d_type != DT_DIR || de->d_name[0] == '.' || strchr(de->d_name, '*'))
			continue;
		/* a thread's number is any thread's: `*`; other numbers stay (a device's name) */
		if (snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= (int)sizeof(sub) ||
		    snprintf(subform, sizeof(subform), "%s/%s", form,
			     any_task(form, de->d_name) ? "*" : de->d_name) >= (int)sizeof(subform))
			continue;
		hit = in_task(sub, subform, ino, depth - 1);
	}
	closedir(dh);
	return hit;
}

/* @ino among every task's folders: their own first, then @depth below. */
static const char *in_tasks(__u64 ino, int depth)
{
	char path[32];
	const char *hit = NULL;
	struct dirent *de;
	DIR *dh = opendir("/proc");

	if (!dh)
		return NULL;
	while (!hit && (de = readdir(dh))) {
		if (!numeric(de->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s", de->d_name);
		hit = in_task(path, "/proc/*", ino, depth);
	}
	closedir(dh);
	return hit;
}

/* /proc's own folders, by their paths: the tasks' are left to in_task(). */
static int on_proc(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (flag != FTW_D)
		return FTW_CONTINUE;
	if ((ftw->level == 1 && numeric(path + ftw->base)) || strchr(path + ftw->base, '*'))
		return FTW_SKIP_SUBTREE;
	if (ftw->level)
		remember(st->st_ino, path);
	return ftw->level >= WALK_DEPTH ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
}

__u32 procfs_dev(void)
{
	struct stat st;

	if (stat("/proc", &st))
		return 0;
	return LAB_MKDEV(major(st.st_dev), minor(st.st_dev));
}

char *procfs_form(const char *name, __u64 ino, __u64 dir_ino, __u32 pid)
{
	char path[PATH_MAX], form[PATH_MAX];
	const char *dir;

	if (ino == PROC_ROOT_INO)
		return strdup("/proc");
	if (strchr(name, '*'))
		return NULL;	/* a name a task chose: "*" would read as any name */
	if (dir_ino == PROC_ROOT_INO) {
		dir = "/proc";
	} else if (!(dir = known(dir_ino))) {
		/* the task's own first: most of what a task reads is its own */
		snprintf(path, sizeof(path), "/proc/%u", pid);
		dir = in_task(path, "/proc/*", dir_ino, TASK_DEPTH);
		if (!dir)
			dir = in_tasks(dir_ino, 0);
		if (!dir)
			dir = in_tasks(dir_ino, TASK_DEPTH);
		if (!dir && !walked) {
			walked = true;
			nftw("/proc", on_proc, 16, FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL);
			dir = known(dir_ino);
		}
	}
	if (!dir || snprintf(form, sizeof(form), "%s/%s", dir,
			     any_task(dir, name) ? "*" : name) >= (int)sizeof(form))
		return NULL;
	return strdup(form);
}

void procfs_forget(void)
{
	while (n_folders--)
		free(folders[n_folders].form);
	free(folders);
	folders = NULL;
	n_folders = 0;
	walked = false;
}
