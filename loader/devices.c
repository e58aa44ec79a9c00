// SPDX-License-Identifier: GPL-2.0
/* Paths to the device the engine sees (see devices.h). */
#define _GNU_SOURCE	/* statx() */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "devices.h"
#include "../bpf-progs/policy/engine.h"

/* The kernel's dev_t, as BPF reads it from a superblock. */
static __u32 kdev(unsigned int maj, unsigned int min)
{
	return LAB_MKDEV(maj, min);
}

int mountinfo_dev(FILE *mountinfo, __u64 mnt_id, __u32 *dev)
{
	unsigned long long id;
	unsigned int maj, min;
	char line[4096];
	int c;

	while (fgets(line, sizeof(line), mountinfo)) {
		if (!strchr(line, '\n'))	/* a line longer than the buffer: skip the rest */
			while ((c = fgetc(mountinfo)) != EOF && c != '\n')
				;
		/* "ID PARENT MAJOR:MINOR ROOT POINT ...": MAJOR:MINOR is the sb's s_dev */
		if (sscanf(line, "%llu %*u %u:%u ", &id, &maj, &min) == 3 && id == mnt_id) {
			*dev = kdev(maj, min);
			return 0;
		}
	}
	return -1;
}

int path_kernel_dev(const char *path, struct stat *st, __u32 *dev)
{
	static __u64 cached_id;		/* the mount of the last path: rules cluster */
	static __u32 cached_dev;
	static bool cached;
	struct statx sx;
	FILE *f;

	if (stat(path, st))
		return -1;
	*dev = kdev(major(st->st_dev), minor(st->st_dev));
	if (statx(AT_FDCWD, path, AT_STATX_SYNC_AS_STAT, STATX_INO | STATX_MNT_ID, &sx) ||
	    !(sx.stx_mask & STATX_MNT_ID) || sx.stx_ino != st->st_ino ||
	    sx.stx_dev_major != major(st->st_dev) || sx.stx_dev_minor != minor(st->st_dev))
		return 0;	/* no mount id (before 5.8), or the path changed: st_dev */
	if (cached && cached_id == sx.stx_mnt_id) {
		*dev = cached_dev;
		return 0;
	}
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	if (!mountinfo_dev(f, sx.stx_mnt_id, dev)) {
		cached = true;
		cached_id = sx.stx_mnt_id;
		cached_dev = *dev;
	}
	fclose(f);
	return 0;
}

bool path_on_view(const char *path)
{
	char p[PATH_MAX];
	struct statfs sfs;
	char *slash;

	snprintf(p, sizeof(p), "%s", path);
	while (statfs(p[0] ? p : "/", &sfs)) {
		slash = strrchr(p, '/');
		if (!slash || !p[0])
			return false;
		*slash = '\0';
	}
	return sfs.f_type == PROC_SUPER_MAGIC || sfs.f_type == SYSFS_MAGIC ||
	       sfs.f_type == CGROUP2_SUPER_MAGIC;
}
