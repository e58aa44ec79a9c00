/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rule maps every instance of the engine has (engine.h has their
 * keys and values), and the hit counts. Hash maps allocated as they
 * fill (BPF_F_NO_PREALLOC), sized in limits.h. LAB_PINNED: lsmctl pins
 * them by their names in the folder it opens the object with, each one
 * made by its load, never one found there (store_load()).
 */
#ifndef LSMLAB_MAPS_BPF_H
#define LSMLAB_MAPS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "engine.h"

#define LAB_PINNED	__uint(pinning, LIBBPF_PIN_BY_NAME)

/*
 * The policies' configurations, by policy id: lsmctl's record. The
 * programs read theirs from .rodata (lsm_cgroup) or from the policies
 * map (global).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_POLICIES);
	__type(key, __u32);
	__type(value, struct lab_conf);
	LAB_PINNED;
} confs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_FILE_RULES);
	__type(key, struct lab_file_key);
	__type(value, struct lab_file_val);
	LAB_PINNED;
} file_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_PATH_RULES);
	__type(key, struct lab_path_key);
	__type(value, struct lab_path_val);
	LAB_PINNED;
} path_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_GLOB_DIRS);
	__type(key, struct lab_glob_key);
	__type(value, struct lab_glob_val);
	LAB_PINNED;
} glob_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_SOCK_RULES);
	__type(key, struct lab_sock_key);
	__type(value, struct lab_sock_val);
	LAB_PINNED;
} sock_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_NET_KEYS);
	__type(key, struct lab_net_key);
	__type(value, struct lab_net_rule);
	LAB_PINNED;
} net_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LAB_MAX_HITS);
	__type(key, struct lab_hit_key);
	__type(value, __u64);
	LAB_PINNED;
} hits SEC(".maps");

static __always_inline void count_hit(__u32 policy, __u32 rule)
{
	struct lab_hit_key key = { .policy = policy, .rule = rule };
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(&hits, &key);
	if (n)
		*n += 1;	/* per-CPU, and BPF LSM programs run with migration off */
	else
		bpf_map_update_elem(&hits, &key, &one, BPF_NOEXIST);
}

#endif /* LSMLAB_MAPS_BPF_H */
