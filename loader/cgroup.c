// SPDX-License-Identifier: GPL-2.0
/* cgroup2 folders (see cgroup.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "text.h"
#include "errors.h"

#define FILEID_KERNFS	0xfe	/* include/linux/exportfs.h: a kernfs node's 64-bit id */
#define PATH_CACHE	64	/* cgroup paths cgroup_path_of() remembers */

int cgroup_resolve(const char *path, __u64 *id, __u32 *level, char *rel, size_t rellen,
		   char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct statfs sfs;
	struct stat st;
	const char *p;

	if (!realpath(path, real))
		return errf(err, errlen, -errno, "cgroup %s: %s", path, strerror(errno));
	if (statfs(real, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC || stat(real, &st) ||
	    !S_ISDIR(st.st_mode) || strncmp(real, CGROUP_ROOT, strlen(CGROUP_ROOT)) ||
	    (real[strlen(CGROUP_ROOT)] && real[strlen(CGROUP_ROOT)] != '/'))
		return errf(err, errlen, -ENOTDIR, "%s is not a cgroup2 folder under " CGROUP_ROOT,
			    path);
	*id = st.st_ino;	/* a cgroup2 folder's inode number is the cgroup id */
	*level = 0;
	p = real + strlen(CGROUP_ROOT);
	snprintf(rel, rellen, "%s", *p ? p : "/");
	for (; *p; p++)
		if (*p == '/')
			(*level)++;
	return 0;
}

static __u64 wanted_id;
static char found_path[PATH_MAX];

static int find_cgroup(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_D && st->st_ino == wanted_id) {
		snprintf(found_path, sizeof(found_path), "%s",
			 path[strlen(CGROUP_ROOT)] ? path + strlen(CGROUP_ROOT) : "/");
		return 1;
	}
	return 0;
}

const char *cgroup_path_of(__u64 id)
{
	static struct {
		__u64 id;
		char path[PATH_MAX];
	} cache[PATH_CACHE];
	static unsigned int next;
	unsigned int i;

	for (i = 0; i < PATH_CACHE; i++)
		if (cache[i].id == id)
			return cache[i].path;
	wanted_id = id;
	snprintf(found_path, sizeof(found_path), "?");
	nftw(CGROUP_ROOT, find_cgroup, 16, FTW_PHYS | FTW_MOUNT);
	if (!strcmp(found_path, "?"))
		return "?";	/* not remembered: a cgroup made later may have the id */
	i = next++ % PATH_CACHE;
	cache[i].id = id;
	snprintf(cache[i].path, sizeof(cache[i].path), "%s", found_path);
	return cache[i].path;
}

/*
 * Asked of the kernel by id, through a file handle on a cgroup2 mount,
 * not by path: a path can be unmounted or mounted over, and a cgroup
 * lsmctl cannot see is not a removed cgroup.
 */
int cgroup_gone(__u64 id)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh = { .handle_bytes = sizeof(__u64), .handle_type = FILEID_KERNFS } };
	struct statfs sfs;
	int mnt, fd, gone = 0;

	mnt = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mnt < 0)
		return 0;
	if (!fstatfs(mnt, &sfs) && sfs.f_type == CGROUP2_SUPER_MAGIC) {
		memcpy(h.fh.f_handle, &id, sizeof(id));
		fd = open_by_handle_at(mnt, &h.fh, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		else
			gone = errno == ESTALE;
	}
	close(mnt);
	return gone;
}

int cgroup_own(char *buf, size_t len)
{
	char line[PATH_MAX];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, len, CGROUP_ROOT "%.3000s", strcmp(line + 3, "/") ? line + 3 : "");
			rc = 0;
		}
	fclose(f);
	return rc;
}

int cgroup_under(const char *path, const char *top)
{
	return path_under(path, top);
}

void cgroup_write(const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, value, strlen(value)) < 0)
		(void)0;	/* cgroup.kill is new in 5.14: best effort */
	close(fd);
}

int cgroup_populated(const char *dir)
{
	char path[PATH_MAX], line[64];
	int populated = 1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	f = fopen(path, "r");
	if (!f)
		return errno != ENOENT;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "populated ", 10))
			populated = atoi(line + 10) != 0;
	fclose(f);
	return populated;
}

int cgroup_kill(const char *dir)
{
	int tries;

	cgroup_write(dir, "cgroup.kill", "1");
	for (tries = 0; cgroup_populated(dir) && tries < 100; tries++)
		usleep(50 * 1000);
	return cgroup_populated(dir) ? -EBUSY : 0;
}

/* In the child: into @dir, checked; 0, or -1 with why in @why. */
static int enter(const char *dir, char *why, size_t len)
{
	char path[PATH_MAX], own[PATH_MAX];
	struct stat want, got;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errf(why, len, -1, "open %s: %s", path, strerror(errno));
	n = write(fd, "0", 1);
	if (n != 1) {
		errf(why, len, -1, "write %s: %s", path, n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	if (stat(dir, &want))
		return errf(why, len, -1, "%s: %s", dir, strerror(errno));
	if (cgroup_own(own, sizeof(own)))
		return errf(why, len, -1, "/proc/self/cgroup: no cgroup2 entry");
	if (stat(own, &got))
		return errf(why, len, -1, "%s: %s", own, strerror(errno));
	if (got.st_ino != want.st_ino || got.st_dev != want.st_dev)
		return errf(why, len, -1, "the kernel says it is in %s", own);
	return 0;
}

pid_t cgroup_spawn(char **cmd, const char *dir, const char *who, char *err, size_t errlen)
{
	char why[PATH_MAX + 128] = "";
	const char *base;
	int pipefd[2], status;
	pid_t pid;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC))
		return errf(err, errlen, -1, "pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		errf(err, errlen, -1, "fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		if (enter(dir, why, sizeof(why))) {
			/* the parent reads why; the command never runs outside @dir */
			if (write(pipefd[1], why, strlen(why)) < 0)
				(void)0;
			_exit(126);
		}
		base = strrchr(cmd[0], '/');
		prctl(PR_SET_NAME, base ? base + 1 : cmd[0], 0, 0, 0);
		execvp(cmd[0], cmd);
		/* "!": the exec failed, not the entering */
		snprintf(why, sizeof(why), "!%s %s: %s", who, cmd[0], strerror(errno));
		if (write(pipefd[1], why, strlen(why)) < 0)
			(void)0;
		_exit(127);
	}
	close(pipefd[1]);
	/* EOF at the exec (close on exec), or why the child did not get there */
	while ((n = read(pipefd[0], why, sizeof(why) - 1)) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	if (n <= 0)
		return pid;
	why[n] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (why[0] == '!')
		return errf(err, errlen, CGROUP_SPAWN_NOEXEC, "%s", why + 1);
	return errf(err, errlen, -1, "the command did not enter %s: %s", dir, why);
}
