// SPDX-License-Identifier: GPL-2.0
/* An instance of the engine, the same for both backends (see instance.h). */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "instance.h"

void hook_pin(char *buf, size_t len, const char *folder, const char *what, unsigned int hook)
{
	snprintf(buf, len, "%s/%s-%s", folder, what, hook_name(hook));
}

int instance_programs(struct bpf_object *obj, struct bpf_program **progs, char *err,
		      size_t errlen)
{
	char name[64];
	unsigned int h;

	for (h = 0; h < LAB_NR_HOOKS; h++) {
		snprintf(name, sizeof(name), "lab_%s", hook_name(h));
		progs[h] = bpf_object__find_program_by_name(obj, name);
		if (!progs[h])
			return errf(err, errlen, -ENOENT, "the engine has no program %s", name);
	}
	return 0;
}

int open_pinned_maps(struct bpf_object *obj)
{
	struct bpf_map *map;
	int fd, rc;

	bpf_object__for_each_map(map, obj) {
		if (!bpf_map__pin_path(map))
			continue;
		fd = bpf_obj_get(bpf_map__pin_path(map));
		if (fd < 0)
			return -errno;
		rc = bpf_map__reuse_fd(map, fd);
		close(fd);
		if (rc)
			return rc;
	}
	return 0;
}

/* File rules in batches: a million of them one syscall each is slow. */
static int fill_files(int map, __u32 policy, const struct file_entry *files, size_t n_files)
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
	while (!rc && i < n_files) {
		for (j = 0; j < BATCH && i + j < n_files; j++) {
			keys[j] = files[i + j].key;
			keys[j].policy = policy;
			vals[j] = files[i + j].val;
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

/*
 * The policy's lost-events count, made now at 0: made by the engine on
 * its first loss, it would not be once rules of other policies filled
 * the global instance's shared hits map, and losses would go uncounted.
 */
static int hits_reserve_lost(int hits, __u32 policy)
{
	struct lab_hit_key key = { .policy = policy, .rule = LAB_RULE_LOST };
	int ncpus = libbpf_num_possible_cpus(), rc = 0;
	__u64 *zeros;

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	zeros = calloc(ncpus, sizeof(*zeros));
	if (!zeros)
		return -ENOMEM;
	if (bpf_map_update_elem(hits, &key, zeros, BPF_NOEXIST))
		rc = -errno;
	free(zeros);
	return rc;
}

int rule_maps_fill(const struct rule_maps *m, __u32 policy, const struct compiled *c)
{
	size_t i;
	int rc = fill_files(m->file_rules, policy, c->files, c->n_files) ?:
		 fill_files(m->file_rules, policy, c->guards, c->n_guards);

	if (rc)
		return rc;
	for (i = 0; m->file_bloom >= 0 && i < c->n_files + c->n_guards; i++) {
		const struct lab_file_key *k = i < c->n_files ? &c->files[i].key :
					       &c->guards[i - c->n_files].key;
		struct lab_inode inode = { .dev = k->dev, .ino = k->ino };

		if (bpf_map_update_elem(m->file_bloom, NULL, &inode, BPF_ANY))
			return -errno;
	}
	for (i = 0; i < c->n_paths; i++) {
		struct lab_path_key key = c->paths[i].key;
		struct lab_inode name = { .dev = key.dev, .kind = LAB_BLOOM_NAME,
					  .ino = lab_bloom_name(key.dir, key.hash) };

		key.policy = policy;
		if (bpf_map_update_elem(m->path_rules, &key, &c->paths[i].val, BPF_NOEXIST) ||
		    (m->file_bloom >= 0 && bpf_map_update_elem(m->file_bloom, NULL, &name, BPF_ANY)))
			return -errno;
	}
	for (i = 0; i < c->n_globs; i++) {
		struct lab_glob_key key = c->globs[i].key;
		struct lab_inode dir = { .dev = key.dev, .kind = LAB_BLOOM_GLOBS, .ino = key.dir };

		key.policy = policy;
		if (bpf_map_update_elem(m->glob_rules, &key, &c->globs[i].val, BPF_NOEXIST) ||
		    (m->file_bloom >= 0 && bpf_map_update_elem(m->file_bloom, NULL, &dir, BPF_ANY)))
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
	rc = hits_reserve_lost(m->hits, policy);
	if (rc)
		return rc;
	/* last: until the configuration is there, the programs skip the policy */
	if (bpf_map_update_elem(m->confs, &policy, &c->conf, BPF_NOEXIST))
		return -errno;
	return 0;
}

/* Delete the keys of @map whose first __u32 is @policy; 0 or -errno. */
static int forget(int map, __u32 policy, size_t key_size)
{
	unsigned char key[128], next[128];	/* the largest: struct lab_path_key */
	void *prev = NULL;
	size_t n = 0, cap = 0;
	unsigned char *doomed = NULL, *grown;

	if (map < 0 || key_size > sizeof(key))
		return -EINVAL;
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
				return -ENOMEM;
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
	int inner, outer, rc;

	inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lab_rcu_inner", 4, 4, 1, NULL);
	if (inner < 0)
		return -errno;
	opts.inner_map_fd = inner;
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "lab_rcu_wait", 4, 4, 1, &opts);
	rc = outer < 0 || bpf_map_update_elem(outer, &key, &inner, 0) ? -errno : 0;
	if (outer >= 0)
		close(outer);
	close(inner);
	return rc;
}

int rule_maps_forget(const struct rule_maps *m, __u32 policy)
{
	/* a program may have read this policy's id just before it was replaced */
	int rc = wait_for_bpf_programs();

	if (!rc)
		rc = forget(m->file_rules, policy, sizeof(struct lab_file_key));
	if (!rc)
		rc = forget(m->path_rules, policy, sizeof(struct lab_path_key));
	if (!rc)
		rc = forget(m->glob_rules, policy, sizeof(struct lab_glob_key));
	if (!rc)
		rc = forget(m->sock_rules, policy, sizeof(struct lab_sock_key));
	if (!rc)
		rc = forget(m->net_rules, policy, sizeof(struct lab_net_key));
	if (!rc)
		rc = forget(m->hits, policy, sizeof(struct lab_hit_key));
	/* last: while its configuration is there, the id is not free (apply.c) */
	if (!rc)
		bpf_map_delete_elem(m->confs, &policy);
	return rc;
}
