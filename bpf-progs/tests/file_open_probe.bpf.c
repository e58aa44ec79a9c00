// SPDX-License-Identifier: GPL-2.0
/*
 * Programs on the file_open hook, for the tests of BPF LSM's runtime
 * slot: one that denies opening one inode, one that only counts, and the
 * lsm_cgroup variant of the first.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

char LICENSE[] SEC("license") = "GPL";

/* The inode the test denies, set before attaching. */
__u64 target_ino;
__u32 target_dev;

__u64 denied;
__u64 counted;

static bool is_target(struct file *file)
{
	struct inode *inode = BPF_CORE_READ(file, f_inode);

	return BPF_CORE_READ(inode, i_ino) == target_ino &&
	       BPF_CORE_READ(inode, i_sb, s_dev) == target_dev;
}

SEC("lsm/file_open")
int BPF_PROG(deny_target, struct file *file)
{
	if (!is_target(file))
		return 0;
	__sync_fetch_and_add(&denied, 1);
	return -EPERM;
}

SEC("lsm/file_open")
int BPF_PROG(count_opens, struct file *file)
{
	__sync_fetch_and_add(&counted, 1);
	return 0;
}

SEC("lsm_cgroup/file_open")
int BPF_PROG(cgroup_deny_target, struct file *file)
{
	return is_target(file) ? 0 : 1;
}
