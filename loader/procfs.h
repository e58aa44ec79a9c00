/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmctl learn's names for /proc's files. Their inodes are made when
 * looked up and a task's go with it, so no walk after the run finds
 * them: each is named while the run goes on, in the form a rule can
 * keep: a task's files with `*` for the task (/proc/<star>/stat,
 * /proc/<star>/task/<star>/status, /proc/<star>/fd/<star>), the rest by their
 * path (/proc/meminfo, /proc/sys/kernel/pid_max).
 */
#ifndef LSMCTL_PROCFS_H
#define LSMCTL_PROCFS_H

#include <linux/types.h>

/* /proc's device as events give it (LAB_MKDEV), or 0 when /proc is not mounted. */
__u32 procfs_dev(void);
/*
 * The rule's path for the file @name in the folder @dir_ino (@ino the
 * file's own, 0 for a new name) that the task @pid used, as malloc()ed
 * text, or NULL when it cannot be named (its folder is gone).
 */
char *procfs_form(const char *name, __u64 ino, __u64 dir_ino, __u32 pid);
/* Forget the folders procfs_form() looked up. */
void procfs_forget(void);

#endif /* LSMCTL_PROCFS_H */
