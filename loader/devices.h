/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paths to inodes and devices, for the rule compiler. A rule's key is the
 * device the engine reads from the file's superblock (s_dev), which
 * stat()'s st_dev is not on btrfs (a subvolume's anonymous device) or
 * overlayfs (a layer's): the mountinfo line of the path's mount (statx()
 * STATX_MNT_ID) gives the superblock's. No mount id (kernels before 5.8)
 * falls back to st_dev. Devices are the kernel's dev_t, LAB_MKDEV().
 */
#ifndef LSMCTL_DEVICES_H
#define LSMCTL_DEVICES_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

/*
 * The MAJOR:MINOR of mount @mnt_id in @mountinfo (the text of
 * /proc/PID/mountinfo) into @dev: 0, or -1 when no line has it.
 */
int mountinfo_dev(FILE *mountinfo, __u64 mnt_id, __u32 *dev);
/*
 * stat() @path into @st, and its superblock's device into @dev: 0, or -1
 * with errno (stat's). The last mount's device is cached: rules cluster.
 */
int path_kernel_dev(const char *path, struct stat *st, __u32 *dev);

/*
 * Is the filesystem at @path, or at the nearest folder above it that
 * exists, one whose every new mount shows the same objects under another
 * device (proc, sysfs, cgroup2)?
 */
bool path_on_view(const char *path);

#endif /* LSMCTL_DEVICES_H */
