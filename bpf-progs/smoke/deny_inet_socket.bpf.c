// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke test of the pipeline: an lsm_cgroup program that denies creating
 * IPv4 sockets to the tasks of the cgroup it is attached to.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define AF_INET 2

char LICENSE[] SEC("license") = "GPL";

/* How many creations were denied, read back by the test. */
__u64 denied;

SEC("lsm_cgroup/socket_create")
int BPF_PROG(deny_inet_socket, int family, int type, int protocol, int kern)
{
	if (kern || family != AF_INET)
		return 1;
	__sync_fetch_and_add(&denied, 1);
	return 0;
}
