// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's bpf-allow configuration (bench/guest/setup.sh): one
 * lsm_cgroup program on file_open that allows everything at once, so that
 * open+close inside its cgroup prices the kernel's dispatch of an
 * lsm_cgroup program (stock's trampoline and shim, or the series' hook
 * function) with next to no program of its own.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("lsm_cgroup/file_open")
int BPF_PROG(bench_allow_open, struct file *file)
{
	return 1;
}
