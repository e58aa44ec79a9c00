/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup v2 helpers for guest tests. */
#ifndef LAB_CGROUP_UTIL_H
#define LAB_CGROUP_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CGROUP_ROOT "/sys/fs/cgroup"

/* Create (or reuse) CGROUP_ROOT/name; returns an O_DIRECTORY fd or -1. */
static inline int cgroup_make(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), CGROUP_ROOT "/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	return open(path, O_RDONLY | O_DIRECTORY);
}

static inline int cgroup_enter(const char *name)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), CGROUP_ROOT "/%s/cgroup.procs", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", getpid()) > 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/*
 * Run fn in a child that first joins cgroup name. Returns what fn returns
 * (0..254), or 255 when the child could not join or died.
 */
static inline int cgroup_run(const char *name, int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 255;
	if (pid == 0)
		_exit(cgroup_enter(name) ? 255 : fn());
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

#endif /* LAB_CGROUP_UTIL_H */
