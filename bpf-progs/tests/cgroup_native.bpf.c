// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_cgroup programs for tests/guest/src/lsm-cgroup-native.c: 6.1's
 * program ABI (verdicts, bpf_set_retval()/bpf_get_retval(), ALLOW_MULTI,
 * override), on stock's trampoline path and on the series' native one.
 * Each program acts on one file (by inode number, set by the test) or one
 * port, so that nothing else the test does is refused.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "GPL";

#define EACCES	13
#define EBUSY	16
#define AF_INET	2

/* The files each program acts on, and the port deny_bind refuses. */
__u64 deny_ino, multi_ino, override_ino, mac_ino, ret_ino;
__u16 deny_port;

/* How often each program saw its file, and what bpf_get_retval() said. */
__u32 set_retval_runs, get_retval_runs, override_runs, mac_runs;
int seen_retval;
/* read_ret's runs on its file, and every bit it read in the return slot. */
__u32 ret_runs;
int ret_bits;

static __always_inline __u64 ino_of(struct file *file)
{
	return file->f_inode->i_ino;
}

/* Refused: the program's 0 is EPERM. */
SEC("lsm_cgroup/file_open")
int BPF_PROG(deny_open, struct file *file)
{
	return ino_of(file) == deny_ino ? 0 : 1;
}

/* Allowed, with the syscall's errno set to EACCES by bpf_set_retval(). */
SEC("lsm_cgroup/file_open")
int BPF_PROG(set_retval, struct file *file)
{
	if (ino_of(file) != multi_ino)
		return 1;
	set_retval_runs++;
	bpf_set_retval(-EACCES);
	return 1;
}

/* Runs after set_retval (ALLOW_MULTI, attached second): sees its value. */
SEC("lsm_cgroup/file_open")
int BPF_PROG(get_retval, struct file *file)
{
	if (ino_of(file) != multi_ino)
		return 1;
	get_retval_runs++;
	seen_retval = bpf_get_retval();
	return 1;
}

/* The parent's program in the override case: refuses with EBUSY. */
SEC("lsm_cgroup/file_open")
int BPF_PROG(override_deny, struct file *file)
{
	if (ino_of(file) != override_ino)
		return 1;
	bpf_set_retval(-EBUSY);
	return 0;
}

/* The child's program that replaces it: allows, and counts. */
SEC("lsm_cgroup/file_open")
int BPF_PROG(override_allow, struct file *file)
{
	if (ino_of(file) == override_ino)
		override_runs++;
	return 1;
}

/*
 * The slot after the hook's arguments, which 6.1's trampoline held at 0
 * for the return value: an lsm_cgroup program may read it (the verifier
 * lets it), and must find 0 there, not the hook function's stack.
 */
SEC("lsm_cgroup/file_open")
int BPF_PROG(read_ret, struct file *file, int ret)
{
	if (ino_of(file) != ret_ino)
		return 1;
	ret_runs++;
	ret_bits |= ret;
	return 1;
}

/* A socket hook: bind() to deny_port refused, by the caller's cgroup. */
SEC("lsm_cgroup/socket_bind")
int BPF_PROG(deny_bind, struct socket *sock, struct sockaddr *address, int addrlen)
{
	struct sockaddr_in sin = {};

	if (addrlen < (int)sizeof(sin))
		return 1;
	bpf_probe_read_kernel(&sin, sizeof(sin), address);
	if (sin.sin_family == AF_INET && sin.sin_port == bpf_htons(deny_port))
		return 0;
	return 1;
}

/* A BPF_LSM_MAC program on the same hook, for every task: EACCES. */
SEC("lsm/file_open")
int BPF_PROG(mac_deny, struct file *file, int ret)
{
	if (ret)
		return ret;
	if (ino_of(file) != mac_ino)
		return 0;
	mac_runs++;
	return -EACCES;
}
