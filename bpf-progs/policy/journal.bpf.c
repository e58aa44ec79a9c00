// SPDX-License-Identifier: GPL-2.0
/*
 * The events journal's maps and nothing else: lsmctl loads this object
 * to make them, with the BTF their locks need, and pins them; every
 * instance and the guard then use the pinned maps (store.c).
 */
#include "vmlinux.h"

#include "event.bpf.h"

char LICENSE[] SEC("license") = "GPL";
