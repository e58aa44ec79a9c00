// SPDX-License-Identifier: GPL-2.0
/*
 * Twelve lsm_cgroup programs on twelve distinct hooks, all allowing: the
 * test counts how many hooks lsm_cgroup programs can use at once.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

#define ALLOW(hook)				\
	SEC("lsm_cgroup/" #hook)		\
	int BPF_PROG(allow_##hook)		\
	{					\
		return 1;			\
	}

ALLOW(file_open)
ALLOW(file_ioctl)
ALLOW(file_mprotect)
ALLOW(file_lock)
ALLOW(file_fcntl)
ALLOW(inode_create)
ALLOW(inode_link)
ALLOW(inode_unlink)
ALLOW(inode_symlink)
ALLOW(inode_mkdir)
ALLOW(inode_rmdir)
ALLOW(inode_mknod)
