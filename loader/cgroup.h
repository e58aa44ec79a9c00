/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup2 folders: their ids, depths and paths below CGROUP_ROOT. */
#ifndef LSMCTL_CGROUP_H
#define LSMCTL_CGROUP_H

#include <linux/types.h>
#include <stddef.h>
#include <sys/types.h>

#define CGROUP_ROOT "/sys/fs/cgroup"

/* Resolve a cgroup2 folder: its id, depth and path below CGROUP_ROOT; 0 or -errno. */
int cgroup_resolve(const char *path, __u64 *id, __u32 *level, char *rel, size_t rellen,
		   char *err, size_t errlen);
/* The path below CGROUP_ROOT of the cgroup with @id, or "?" (found paths are remembered) */
const char *cgroup_path_of(__u64 id);
/* Was the cgroup with @id removed (ids are not reused)? */
int cgroup_gone(__u64 id);
/* The cgroup2 folder lsmctl runs in, CGROUP_ROOT included; 0 or -errno. */
int cgroup_own(char *buf, size_t len);
/* Is the cgroup @path (below CGROUP_ROOT, "/" for the root) @top or below it? */
int cgroup_under(const char *path, const char *top);
/* Write @value to the file @name of the cgroup folder @dir, as best it can. */
void cgroup_write(const char *dir, const char *name, const char *value);
/* Has the cgroup folder @dir, or one below it, a task (cgroup.events)? */
int cgroup_populated(const char *dir);
/* End every task in the cgroup folder @dir (cgroup.kill) and wait, 5 s at most; 0 or -EBUSY. */
int cgroup_kill(const char *dir);

/*
 * Start @cmd in the cgroup folder @dir: the child writes "0" to
 * @dir's cgroup.procs and execs @cmd only when the write succeeded and
 * the kernel says it is in @dir (its cgroup, from /proc/self/cgroup,
 * has @dir's id), its name (comm) the command's before the exec: what
 * the exec does is the command's, not lsmctl's. Returns the child's
 * pid; or, the child reaped and @cmd not run, -1 with "the command did
 * not enter DIR: why" in @err, or CGROUP_SPAWN_NOEXEC when the exec
 * failed, with "WHO CMD: why" in @err (@who names lsmctl's command).
 */
#define CGROUP_SPAWN_NOEXEC (-2)
pid_t cgroup_spawn(char **cmd, const char *dir, const char *who, char *err, size_t errlen);

#endif /* LSMCTL_CGROUP_H */
