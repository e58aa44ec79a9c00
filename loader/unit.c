// SPDX-License-Identifier: GPL-2.0
/* A systemd unit's cgroup2 folder (see unit.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "unit.h"

#define UNIT_NAME_MAX	255	/* systemd's UNIT_NAME_MAX */
#define SYSTEMCTL	"/usr/bin/systemctl"	/* Debian 12's (merged /usr) */

/* A unit name as systemd takes one: no option, path or shell text. */
static int unit_name_ok(const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t n = strlen(name);

	return n && n <= UNIT_NAME_MAX && name[0] != '-' && dot && dot != name && dot[1] &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789:-_.\\@") == n;
}

/*
 * Would systemd escape @name as a cgroup folder's (cg_escape()): one that
 * starts with '_' or '.', or whose part before the first '.' is a
 * controller's name, is written with a '_' before it.
 */
static int needs_escape(const char *name)
{
	static const char *const controllers[] = {
		"cpu", "cpuacct", "cpuset", "io", "blkio", "memory", "devices", "freezer",
		"net_cls", "perf_event", "net_prio", "hugetlb", "pids", "rdma", "misc", "cgroup",
	};
	size_t i, n = strcspn(name, ".");

	if (name[0] == '_' || name[0] == '.')
		return 1;
	for (i = 0; i < sizeof(controllers) / sizeof(controllers[0]); i++)
		if (strlen(controllers[i]) == n && !strncmp(name, controllers[i], n))
			return 1;
	return 0;
}

/* "a-b-c.slice" as folders: /a.slice/a-b.slice/a-b-c.slice; "-.slice" is the root. */
static int slice_path(const char *slice, char *buf, size_t len)
{
	const char *end = strrchr(slice, '.');
	size_t used = 0;
	const char *p;

	buf[0] = 0;
	if (!strcmp(slice, "-.slice"))
		return 0;
	for (p = strchr(slice, '-'); ; p = strchr(p + 1, '-')) {
		const char *stop = p && p < end ? p : end;
		int k = snprintf(buf + used, len - used, "/%.*s.slice", (int)(stop - slice), slice);

		if (k < 0 || (size_t)k >= len - used)
			return -ENAMETOOLONG;
		used += (size_t)k;
		if (stop == end)
			return 0;
	}
}

int unit_cgroup(const char *name, char *buf, size_t len, char *err, size_t errlen)
{
	char out[2 * PATH_MAX + 64], cg[PATH_MAX] = "", slice[UNIT_NAME_MAX + 1] = "";
	char *argv[] = { "systemctl", "show", "--property=Id,ControlGroup,Slice,LoadState", "--",
			 (char *)name, NULL };
	char *envp[] = { "LC_ALL=C", NULL };	/* systemctl's own: no caller's PATH, pager, ... */
	char id[UNIT_NAME_MAX + 1] = "";
	posix_spawn_file_actions_t fa;
	char *line, *save;
	int fds[2], status, loaded = 0, k;
	size_t used = 0;
	ssize_t n;
	pid_t pid;

	if (!unit_name_ok(name))
		return errf(err, errlen, -EINVAL, "--unit '%s': not a unit name (NAME.service, "
			    "NAME.scope, ...)", name);
	if (pipe2(fds, O_CLOEXEC))
		return errf(err, errlen, -errno, "pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	k = posix_spawn(&pid, SYSTEMCTL, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (k) {
		close(fds[0]);
		return errf(err, errlen, -k, "--unit needs systemd's " SYSTEMCTL ": %s", strerror(k));
	}
	while (used < sizeof(out) - 1 && (n = read(fds[0], out + used, sizeof(out) - 1 - used)) > 0)
		used += (size_t)n;
	out[used] = 0;
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return errf(err, errlen, -ENOENT, "--unit %s: systemctl show failed", name);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Id=", 3))
			snprintf(id, sizeof(id), "%s", line + 3);
		else if (!strncmp(line, "ControlGroup=", 13))
			snprintf(cg, sizeof(cg), "%s", line + 13);
		else if (!strncmp(line, "Slice=", 6))
			snprintf(slice, sizeof(slice), "%s", line + 6);
		else if (!strcmp(line, "LoadState=loaded"))
			loaded = 1;
	}
	if (!loaded)
		return errf(err, errlen, -ENOENT, "--unit %s: systemd has no such unit loaded", name);
	if (!cg[0]) {	/* not running: where systemd will make it, by its own name */
		if (!unit_name_ok(id) || needs_escape(id) || needs_escape(slice))
			return errf(err, errlen, -ENOENT, "--unit %s: not running, and its cgroup's "
				    "name is not plain (%s): start it first", name, id);
		if (!slice[0] || slice_path(slice, cg, sizeof(cg)) ||
		    strlen(cg) + strlen(id) + 2 > sizeof(cg))
			return errf(err, errlen, -ENOENT, "--unit %s: not running, and no slice to "
				    "find its cgroup in", name);
		strcat(cg, "/");
		strcat(cg, id);
	}
	if (snprintf(buf, len, "%s%s", CGROUP_ROOT, strcmp(cg, "/") ? cg : "") >= (int)len)
		return errf(err, errlen, -ENAMETOOLONG, "--unit %s: its cgroup's path is too long",
			    name);
	return 0;
}
