// SPDX-License-Identifier: GPL-2.0
/* Filling and emptying the engine's rule maps, the same for both backends. */
#include <bpf/bpf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

/* File rules in batches: a million of them one syscall each is slow. */
static int fill_files(int map, __u32 policy, const struct compiled *c)
{
	enum { BATCH = 4096 };
	struct lab_file_key *keys = calloc(BATCH, sizeof(*keys));
	struct lab_file_val *vals = calloc(BATCH, sizeof(*vals));
	DECLARE_LIBBPF_OPTS(bpf_map_batch_opts, opts);	/* elem_flags: BPF_ANY only */
	size_t i = 0, j;
	__u32 n;
	int rc = 0;

	if (!keys || !vals)
		rc = -ENOMEM;
	while (!rc && i < c->n_files) {
		for (j = 0; j < BATCH && i + j < c->n_files; j++) {
			keys[j] = c->files[i + j].key;
			keys[j].policy = policy;
			vals[j] = c->files[i + j].val;
		}
		n = (__u32)j;
		if (bpf_map_update_batch(map, keys, vals, &n, &opts))
			rc = -errno;
		i += j;
	}
	free(keys);
	free(vals);
	return rc;
}

int rule_maps_fill(const struct rule_maps *m, __u32 policy, const struct compiled *c)
{
	size_t i;
	int rc = fill_files(m->file_rules, policy, c);

	if (rc)
		return rc;
	for (i = 0; m->file_bloom >= 0 && i < c->n_files; i++) {
		struct lab_inode inode = { .dev = c->files[i].key.dev, .ino = c->files[i].key.ino };

		if (bpf_map_update_elem(m->file_bloom, NULL, &inode, BPF_ANY))
			return -errno;
	}
	for (i = 0; i < c->n_socks; i++) {
		struct lab_sock_key key = c->socks[i].key;

		key.policy = policy;
		if (bpf_map_update_elem(m->sock_rules, &key, &c->socks[i].val, BPF_NOEXIST))
			return -errno;
	}
	for (i = 0; i < c->n_nets; i++) {
		struct lab_net_key key = { .policy = policy, .index = (__u32)i };

		if (bpf_map_update_elem(m->net_rules, &key, &c->nets[i], BPF_NOEXIST))
			return -errno;
	}
	/* last: until the configuration is there, the programs skip the policy */
	if (bpf_map_update_elem(m->confs, &policy, &c->conf, BPF_NOEXIST))
		return -errno;
	return 0;
}

/* Delete the keys of @map whose first __u32 is @policy. */
static int forget(int map, __u32 policy, size_t key_size)
{
	unsigned char key[64], next[64];
	void *prev = NULL;
	size_t n = 0, cap = 0;
	unsigned char *doomed = NULL, *grown;

	if (map < 0 || key_size > sizeof(key))
		return -1;
	while (!bpf_map_get_next_key(map, prev, next)) {
		memcpy(key, next, key_size);
		prev = key;
		if (*(__u32 *)(void *)key != policy)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			grown = realloc(doomed, cap * key_size);
			if (!grown) {
				free(doomed);
				return -1;
			}
			doomed = grown;
		}
		memcpy(doomed + n++ * key_size, key, key_size);
	}
	while (n--)
		bpf_map_delete_elem(map, doomed + n * key_size);
	free(doomed);
	return 0;
}

/*
 * Wait until no BPF program still runs with what it read before now:
 * the kernel calls synchronize_rcu() after an update of a map-in-map
 * ("so that userspace, when we return to it, knows that all programs
 * that could be running use the new map value"), and non-sleepable BPF
 * LSM programs run inside an RCU read-side section.
 */
int wait_for_bpf_programs(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	__u32 key = 0;
	int inner, outer, rc = -1;

	inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lab_rcu_inner", 4, 4, 1, NULL);
	if (inner < 0)
		return -1;
	opts.inner_map_fd = inner;
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "lab_rcu_wait", 4, 4, 1, &opts);
	if (outer >= 0) {
		rc = bpf_map_update_elem(outer, &key, &inner, 0);
		close(outer);
	}
	close(inner);
	return rc;
}

int rule_maps_forget(const struct rule_maps *m, __u32 policy)
{
	/* a program may have read this policy's id just before it was replaced */
	if (wait_for_bpf_programs())
		return -1;
	if (forget(m->file_rules, policy, sizeof(struct lab_file_key)) ||
	    forget(m->sock_rules, policy, sizeof(struct lab_sock_key)) ||
	    forget(m->net_rules, policy, sizeof(struct lab_net_key)) ||
	    forget(m->hits, policy, sizeof(struct lab_hit_key)))
		return -1;
	/* last: while its configuration is there, the id is not free (store.c) */
	bpf_map_delete_elem(m->confs, &policy);
	return 0;
}

static int open_pin(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return bpf_obj_get(path);
}

int rule_maps_open(const char *dir, struct rule_maps *m)
{
	m->confs = open_pin(dir, "confs");
	m->file_rules = open_pin(dir, "file_rules");
	m->sock_rules = open_pin(dir, "sock_rules");
	m->net_rules = open_pin(dir, "net_rules");
	m->hits = open_pin(dir, "hits");
	m->file_bloom = open_pin(dir, "file_bloom");	/* the global backend's */
	if (m->confs < 0 || m->file_rules < 0 || m->sock_rules < 0 || m->net_rules < 0 ||
	    m->hits < 0) {
		rule_maps_close(m);
		return -1;
	}
	return 0;
}

void rule_maps_close(struct rule_maps *m)
{
	int *fds[] = { &m->confs, &m->file_rules, &m->sock_rules, &m->net_rules, &m->hits,
		       &m->file_bloom };
	size_t i;

	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}
