/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both backends do with an instance of the engine (an object of
 * policy_cgroup.bpf.c or policy_global.bpf.c): find its hook programs,
 * open the maps libbpf pinned for it, and fill and empty its rule maps.
 */
#ifndef LSMCTL_INSTANCE_H
#define LSMCTL_INSTANCE_H

#include <stddef.h>

#include "compile.h"

struct bpf_object;
struct bpf_program;

/* The rule maps of one instance: fds the instance's skeleton owns. */
struct rule_maps {
	int confs, file_rules, path_rules, glob_rules, sock_rules, net_rules, hits;
	int file_bloom;		/* global only, else -1: every rule's inode or directory */
};

/* An instance's rule maps, from its skeleton @skel (file_bloom: -1). */
#define RULE_MAPS_OF(skel) {						\
	.confs = bpf_map__fd((skel)->maps.confs),			\
	.file_rules = bpf_map__fd((skel)->maps.file_rules),		\
	.path_rules = bpf_map__fd((skel)->maps.path_rules),		\
	.glob_rules = bpf_map__fd((skel)->maps.glob_rules),		\
	.sock_rules = bpf_map__fd((skel)->maps.sock_rules),		\
	.net_rules = bpf_map__fd((skel)->maps.net_rules),		\
	.hits = bpf_map__fd((skel)->maps.hits),				\
	.file_bloom = -1,						\
}

/* Where an instance pins a hook's program or link: FOLDER/WHAT-HOOK. */
#define PIN_PROG "prog"
#define PIN_LINK "link"
void hook_pin(char *buf, size_t len, const char *folder, const char *what, unsigned int hook);

/* @obj's program for each enum lab_hook, lab_HOOK; 0 or -errno. */
int instance_programs(struct bpf_object *obj, struct bpf_program **progs, char *err,
		      size_t errlen);
/*
 * Give every map of @obj (opened, not loaded) with a pin path the fd of
 * its pin: an instance loaded earlier, opened again; 0 or -errno.
 */
int open_pinned_maps(struct bpf_object *obj);

/* Write a compiled policy's rules into @m under @policy; 0 or -errno. */
int rule_maps_fill(const struct rule_maps *m, __u32 policy, const struct compiled *c);
/* Wait for BPF programs in flight to finish (an RCU grace period); 0 or -errno. */
int wait_for_bpf_programs(void);
/* Delete every entry of @policy, once no program can still be using it; 0 or -errno. */
int rule_maps_forget(const struct rule_maps *m, __u32 policy);

#endif /* LSMCTL_INSTANCE_H */
