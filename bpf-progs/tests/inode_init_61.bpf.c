// SPDX-License-Identifier: GPL-2.0
/*
 * lsm/inode_init_security programs written for Linux 6.1's prototype of
 * the hook (inode, dir, qstr, name, value, len), which the series changes
 * to (inode, dir, qstr, xattrs, xattr_count): what a program built for
 * 6.1 gets on a kernel with the series (tests/guest/src/iis-old-proto.c).
 * BPF_PROG only names ctx[] slots, so the prototype here is 6.1's
 * whatever the vmlinux.h the object is built against.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* Set by the programs: what they saw in the slots 6.1 had. */
__u64 seen_len;
__s64 seen_ret;
__u64 runs;

/*
 * The usual shape of an LSM program: the hook's arguments, then the
 * return value of the programs before it, which is 6.1's seventh slot.
 */
SEC("lsm/inode_init_security")
int BPF_PROG(with_ret_61, struct inode *inode, struct inode *dir,
	     const struct qstr *qstr, const char **name, void **value,
	     size_t *len, int ret)
{
	seen_ret = ret;
	__sync_fetch_and_add(&runs, 1);
	return ret;
}

/* 6.1's sixth argument, len: a pointer the verifier hands over as a scalar. */
SEC("lsm/inode_init_security")
int BPF_PROG(reads_len_61, struct inode *inode, struct inode *dir,
	     const struct qstr *qstr, const char **name, void **value,
	     size_t *len)
{
	seen_len = (__u64)len;
	__sync_fetch_and_add(&runs, 1);
	return 0;
}
