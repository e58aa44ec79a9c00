// SPDX-License-Identifier: GPL-2.0
/*
 * An lsm/inode_init_security program for the tests of the
 * inode_init_security fix: it counts the inodes created in one directory
 * and refuses creation in another with -EPERM.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

char LICENSE[] SEC("license") = "GPL";

/* The directories, as inode and device numbers, set before attaching. */
__u64 count_ino, deny_ino;
__u32 count_dev, deny_dev;

__u64 created;
__u64 denied;

static bool is_dir(struct inode *dir, __u64 ino, __u32 dev)
{
	return BPF_CORE_READ(dir, i_ino) == ino &&
	       BPF_CORE_READ(dir, i_sb, s_dev) == dev;
}

SEC("lsm/inode_init_security")
int BPF_PROG(inode_init_probe, struct inode *inode, struct inode *dir)
{
	if (is_dir(dir, count_ino, count_dev))
		__sync_fetch_and_add(&created, 1);
	if (is_dir(dir, deny_ino, deny_dev)) {
		__sync_fetch_and_add(&denied, 1);
		return -EPERM;
	}
	return 0;
}
