/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sendmsg()'s control messages as the LSM hook sees them: the
 * kernel's copy of msg_control (____sys_sendmsg(), the compat entry's
 * and io_uring's too). One walk for the engine's SCTP address lists
 * (hooks.bpf.h) and the guard's source routes (guard.bpf.c).
 */
#ifndef LSMLAB_CMSG_BPF_H
#define LSMLAB_CMSG_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* A cmsghdr as the kernel lays it out (CMSG_DATA() is 16 bytes on) */
struct lab_cmsghdr {
	__u64 len;
	int level;
	int type;
};

#define LAB_CMSG_ALIGN(len)	(((len) + 7) & ~7ULL)	/* CMSG_ALIGN() */

/* cmsg_at()'s answers */
#define CMSG_FOUND	1	/* *c holds the header at off */
#define CMSG_END	0	/* no more: the kernel stops there too (EINVAL if malformed) */
#define CMSG_UNREAD	(-1)	/* not kernel memory: the caller refuses */

/* The header at @off of the @len bytes at @buf, as for_each_cmsghdr() and CMSG_OK() take it. */
static __always_inline int cmsg_at(const void *buf, __u64 len, __u64 off, struct lab_cmsghdr *c)
{
	if (!buf || off + sizeof(*c) > len)
		return CMSG_END;
	if (bpf_probe_read_kernel(c, sizeof(*c), buf + off))
		return CMSG_UNREAD;
	if (c->len < sizeof(*c) || c->len > len - off)
		return CMSG_END;
	return CMSG_FOUND;
}

/* The bpf_loop() count for a list of @len bytes, entries of @min bytes at least. */
static __always_inline __u32 list_steps(__u64 len, __u32 min)
{
	__u64 n = len / min + 1;

	/*
	 * BPF_MAX_LOOPS (1 << 23) steps are more than any list the kernel
	 * takes: a sockopt's or a cmsg buffer's kmalloc() is 4 MiB at most
	 */
	return n > (1 << 23) ? 1 << 23 : n;
}

#endif /* LSMLAB_CMSG_BPF_H */
