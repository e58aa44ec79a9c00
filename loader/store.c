// SPDX-License-Identifier: GPL-2.0
/* Pins of applied policies under /sys/fs/bpf/lsmlab (see store.h). */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "errors.h"
#include "cgroup.h"
#include "store.h"
#include "journal.skel.h"

#define POLICY_PREFIX "cg-"	/* a committed policy's folder: cg-ID */

static int root_fd = -1;
static bool locked;

/* Does folder @name begin with KIND "-"? */
static bool is_kind(const char *name, const char *kind)
{
	size_t n = strlen(kind);

	return !strncmp(name, kind, n) && name[n] == '-';
}

/*
 * lsmctl's folder is never taken at its word: no link in it is
 * followed, entries are removed relative to the folder lsmctl locked,
 * and a name not of lsmctl's making is left alone.
 */

/* @dir's name in PIN_ROOT, or NULL when @dir is not a folder of it. */
static const char *pin_name(const char *dir)
{
	size_t n = strlen(PIN_ROOT "/");

	if (strncmp(dir, PIN_ROOT "/", n) || !dir[n] || strchr(dir + n, '/'))
		return NULL;
	return dir + n;
}

/* Is @name in PIN_ROOT a folder, and no link, with a pinned meta and rules, no links either? */
static int pin_folder(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), PIN_ROOT "/%s", name);
	if (lstat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), PIN_ROOT "/%s/meta", name);
	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), PIN_ROOT "/%s/rules", name);
	return lstat(path, &st) || S_ISREG(st.st_mode);
}

/* Remove every pin in the folder @name of PIN_ROOT, then the folder. */
static void remove_dir(const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd;

	fd = openat(root_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		/* not a folder: a link or a pin in the wrong place, the name alone goes */
		unlinkat(root_fd, name, 0);
		return;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
	unlinkat(root_fd, name, AT_REMOVEDIR);
}

void store_remove(const char *dir)
{
	const char *name = pin_name(dir);

	if (name && locked)
		remove_dir(name);
}

/* The cgroup id in a folder's name, PREFIX-ID[-PID]; 0 if none. */
static __u64 name_cgroup_id(const char *name)
{
	const char *dash = strchr(name, '-');

	return dash ? strtoull(dash + 1, NULL, 10) : 0;
}

/* Is the folder @name of PIN_ROOT a policy lsmctl made, for the cgroup its name says? */
static int policy_folder(const char *name, struct stored *s)
{
	char path[PATH_MAX];

	if (!pin_folder(name))
		return 0;
	snprintf(path, sizeof(path), PIN_ROOT "/%s", name);
	if (stored_read(path, s))
		return 0;
	if (s->meta.cgroup_id != name_cgroup_id(name)) {
		stored_free(s);
		return 0;
	}
	return 1;
}

int store_read_own(const char *dir, struct stored *s)
{
	const char *name = pin_name(dir);

	if (!name || !pin_folder(name))
		return -ENOENT;
	return stored_read(dir, s);
}

/*
 * The folders of PIN_ROOT whose names pass @want, as policies (those
 * with none are passed over); returns how many, or -errno.
 */
static int list_policies(bool (*want)(const char *name), struct stored **out)
{
	struct stored *list = NULL, *grown;
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(PIN_ROOT);

	*out = NULL;
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (!want(de->d_name))
			continue;
		grown = realloc(list, (n + 1) * sizeof(*list));
		if (!grown)
			break;
		list = grown;
		if (policy_folder(de->d_name, &list[n]))
			n++;
	}
	closedir(d);
	*out = list;
	return n;
}

static bool is_committed(const char *name)
{
	return !strncmp(name, POLICY_PREFIX, strlen(POLICY_PREFIX));
}

/*
 * A new- or old- folder seen by an lsmctl that holds the lock: left by
 * a killed one, since every lsmctl that makes such folders holds the
 * lock until it has committed or removed them. (Not whether the PID in
 * its name runs: a confined task can make a pid live again.)
 */
static bool is_left_over(const char *name)
{
	return is_kind(name, STORE_NEW) || is_kind(name, STORE_OLD);
}

static int by_cgroup(const void *a, const void *b)
{
	return strcmp(((const struct stored *)a)->meta.cgroup,
		      ((const struct stored *)b)->meta.cgroup);
}

int stored_list(struct stored **out)
{
	int n = list_policies(is_committed, out);

	if (n > 0)
		qsort(*out, n, sizeof(**out), by_cgroup);
	return n;
}

void stored_list_free(struct stored *list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		stored_free(&list[i]);
	free(list);
}

int store_leftovers(struct stored **out)
{
	struct stored s;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	if (!locked)
		return 0;
	d = opendir(PIN_ROOT);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (is_kind(de->d_name, STORE_TMP)) {
			remove_dir(de->d_name);	/* an instance never committed */
		} else if (is_left_over(de->d_name)) {
			if (policy_folder(de->d_name, &s))
				stored_free(&s);
			else
				remove_dir(de->d_name);	/* a folder with no policy in it */
		}
	}
	closedir(d);
	return list_policies(is_left_over, out);
}

bool store_committed_elsewhere(const char *dir, __u32 policy)
{
	struct stored *list;
	int i, n = stored_list(&list);
	bool found = false;

	for (i = 0; i < n && !found; i++)
		found = list[i].meta.policy == policy && strcmp(list[i].dir, dir);
	if (n >= 0)
		stored_list_free(list, n);
	return found;
}

void store_used_ids(unsigned char *used, size_t n)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stored s;
	DIR *d = opendir(PIN_ROOT);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!is_committed(de->d_name) && !is_kind(de->d_name, STORE_NEW) &&
		    !is_kind(de->d_name, STORE_OLD))
			continue;
		snprintf(path, sizeof(path), PIN_ROOT "/%s", de->d_name);
		if (stored_read(path, &s))
			continue;
		if (s.meta.policy < n)
			used[s.meta.policy] = 1;
		stored_free(&s);
	}
	closedir(d);
}

int store_open(bool writing, char *err, size_t errlen)
{
	struct statfs sfs;

	if (statfs(BPFFS_ROOT, &sfs) || sfs.f_type != BPF_FS_MAGIC)
		return errf(err, errlen, -ENOENT, "no BPF filesystem at " BPFFS_ROOT
			    " (mount -t bpf bpf " BPFFS_ROOT ")");
	if (mkdir(PIN_ROOT, 0700) && errno != EEXIST && (writing || errno != EPERM))
		return errf(err, errlen, -errno, "mkdir " PIN_ROOT ": %s", strerror(errno));
	root_fd = open(PIN_ROOT, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root_fd < 0)
		return errf(err, errlen, -errno, PIN_ROOT ": %s", strerror(errno));
	if (flock(root_fd, LOCK_EX)) {
		/* a confined task may look, but not lock: self-protection */
		if (!writing && errno == EPERM)
			return 0;
		if (errno == EPERM) {
			char own[PATH_MAX] = "?";

			cgroup_own(own, sizeof(own));
			return errf(err, errlen, -EPERM, "lock " PIN_ROOT ": %s: this lsmctl runs "
				    "in %s, below a policy's self-protection, which refuses changes "
				    "to policies from inside (loader/POLICY.md, self-protection): "
				    "run it from outside that subtree", strerror(EPERM), own);
		}
		return errf(err, errlen, -errno, "lock " PIN_ROOT ": %s", strerror(errno));
	}
	locked = true;
	return 0;
}

bool store_locked(void)
{
	return locked;
}

void store_close(void)
{
	if (root_fd >= 0)
		close(root_fd);
	root_fd = -1;
	locked = false;
}

#define EVENTS_DIR PIN_ROOT "/events"

/* Make the journal's maps and pin them; 0 (or -EEXIST: another lsmctl did) or -errno. */
static int journal_make(void)
{
	struct journal *skel = journal__open_and_load();
	int rc;

	if (!skel)
		return -errno;
	rc = bpf_map__pin(skel->maps.journal_head, EVENTS_DIR "/head");
	if (!rc)
		rc = bpf_map__pin(skel->maps.journal_drafts, EVENTS_DIR "/drafts");
	if (!rc)
		rc = bpf_map__pin(skel->maps.journal, EVENTS_DIR "/journal");
	journal__destroy(skel);
	return rc;
}

int store_journal(bool writing, int *slots, int *head)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = writing ? 0 : BPF_F_RDONLY);
	int tries, rc = 0;

	for (tries = 0; tries < 3; tries++) {
		*head = bpf_obj_get_opts(EVENTS_DIR "/head", &opts);
		*slots = bpf_obj_get_opts(EVENTS_DIR "/journal", &opts);
		if (*head >= 0 && *slots >= 0)
			return 0;
		rc = -errno;
		if (*head >= 0)
			close(*head);
		if (*slots >= 0)
			close(*slots);
		if (rc != -ENOENT)
			break;
		if (mkdir(EVENTS_DIR, 0700) && errno != EEXIST)
			return -errno;
		rc = journal_make();
		if (rc && rc != -EEXIST)
			break;
	}
	*head = *slots = -1;
	return rc ? rc : -ENOENT;
}

int store_share_journal(struct bpf_map *slots, struct bpf_map *head, struct bpf_map *drafts,
			char *err, size_t errlen)
{
	int slots_fd, head_fd, drafts_fd, rc;

	rc = store_journal(true, &slots_fd, &head_fd);
	if (rc)
		return errf(err, errlen, rc, "the events journal: %s", strerror(-rc));
	drafts_fd = bpf_obj_get(EVENTS_DIR "/drafts");
	rc = drafts_fd < 0 ? -errno : bpf_map__reuse_fd(slots, slots_fd);
	if (!rc)
		rc = bpf_map__reuse_fd(head, head_fd);
	if (!rc)
		rc = bpf_map__reuse_fd(drafts, drafts_fd);
	close(slots_fd);
	close(head_fd);
	if (drafts_fd >= 0)
		close(drafts_fd);
	if (rc)
		return errf(err, errlen, rc, "the events journal: %s", strerror(-rc));
	return 0;
}

__u32 store_next_generation(char *err, size_t errlen)
{
	__u32 key = 0, last = 0;
	int fd = bpf_obj_get(EVENTS_DIR "/generation");

	if (fd < 0) {
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lab_generation", sizeof(__u32),
				    sizeof(__u32), 1, NULL);
		if (fd < 0 || (mkdir(EVENTS_DIR, 0700) && errno != EEXIST) ||
		    bpf_obj_pin(fd, EVENTS_DIR "/generation"))
			goto fail;
	}
	if (bpf_map_lookup_elem(fd, &key, &last))
		goto fail;
	last = last + 1 ? last + 1 : 1;	/* 0 is no generation */
	if (bpf_map_update_elem(fd, &key, &last, 0))
		goto fail;
	close(fd);
	return last;
fail:
	errf(err, errlen, -errno, "the policy generation counter: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	return 0;
}

/* policy-GEN: the folder of EVENTS_DIR that keeps generation GEN */
static void kept_dir(__u32 generation, char *buf, size_t len)
{
	snprintf(buf, len, EVENTS_DIR "/policy-%u", generation);
}

/* Forget the oldest kept generations, so that at most LAB_EVENT_HISTORY stay. */
static void keep_prune(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	__u32 g, oldest;
	int n, fd;
	DIR *d;

	for (;;) {
		d = opendir(EVENTS_DIR);
		if (!d)
			return;
		n = 0;
		oldest = 0;
		while ((de = readdir(d)))
			if (sscanf(de->d_name, "policy-%u", &g) == 1) {
				n++;
				if (!oldest || g < oldest)
					oldest = g;
			}
		closedir(d);
		if (n <= LAB_EVENT_HISTORY)
			return;
		kept_dir(oldest, path, sizeof(path));
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			unlinkat(fd, "meta", 0);
			unlinkat(fd, "rules", 0);
			close(fd);
		}
		if (rmdir(path))
			return;
	}
}

void store_keep(const struct stored *s)
{
	char dir[PATH_MAX], from[PATH_MAX + 8], to[PATH_MAX + 8];
	const char *pins[] = { "meta", "rules" };
	size_t i;
	int fd;

	if (!locked || !s->meta.generation)
		return;
	kept_dir(s->meta.generation, dir, sizeof(dir));
	if (mkdir(dir, 0700))
		return;	/* kept already, or no room: its events say "?" */
	for (i = 0; i < 2; i++) {
		snprintf(from, sizeof(from), "%s/%s", s->dir, pins[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, pins[i]);
		fd = bpf_obj_get(from);
		if (fd >= 0) {
			bpf_obj_pin(fd, to);
			close(fd);
		}
	}
	keep_prune();
}

int stored_read_generation(__u64 cgroup_id, __u32 generation, struct stored *s)
{
	char dir[PATH_MAX];

	policy_dir(cgroup_id, dir, sizeof(dir));
	if (!stored_read(dir, s)) {
		if (s->meta.generation == generation)
			return 0;
		stored_free(s);
	}
	kept_dir(generation, dir, sizeof(dir));
	return stored_read(dir, s);
}

int store_load(struct bpf_object *obj, const char *dir, const char *what, char *err,
	       size_t errlen)
{
	char path[PATH_MAX];
	struct bpf_map *map;
	__u64 marked = 0;
	unsigned int i = 0;

	/* a map with no pin path is created by the load, never reused */
	bpf_object__for_each_map(map, obj) {
		if (i >= 64)
			return errf(err, errlen, -E2BIG, "%s: more than 64 maps", what);
		if (bpf_map__pin_path(map)) {
			marked |= 1ull << i;
			if (bpf_map__set_pin_path(map, NULL))
				return errf(err, errlen, -EINVAL, "%s: cannot unpin", what);
		}
		i++;
	}
	if (bpf_object__load(obj))
		return errf(err, errlen, -errno, "the kernel refused %s (%s)%s", what,
			    strerror(errno), " - the verifier's log, if any, is above");
	i = 0;
	bpf_object__for_each_map(map, obj) {
		if (marked & (1ull << i++)) {
			snprintf(path, sizeof(path), "%s/%s", dir, bpf_map__name(map));
			if (bpf_map__pin(map, path))
				return errf(err, errlen, -errno, "pin %s: %s", path,
					    strerror(errno));
		}
	}
	return 0;
}

int store_load_shared(struct bpf_object *obj, const char *tmp, const char *what, char *err,
		      size_t errlen)
{
	if (mkdir(tmp, 0700))
		return errf(err, errlen, -errno, "mkdir %s: %s", tmp, strerror(errno));
	return store_load(obj, tmp, what, err, errlen);
}

void policy_dir(__u64 cgroup_id, char *buf, size_t len)
{
	snprintf(buf, len, PIN_ROOT "/" POLICY_PREFIX "%llu", (unsigned long long)cgroup_id);
}

void store_pid_dir(char *buf, size_t len, const char *kind, const char *what)
{
	snprintf(buf, len, PIN_ROOT "/%s-%s-%d", kind, what, getpid());
}

int pin_meta(const char *dir, const struct lab_meta *m, const struct compiled *c)
{
	char path[PATH_MAX];
	__u32 key = 0, i;
	int fd, rules, rc = -1;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lab_meta", sizeof(__u32), sizeof(*m), 1, NULL);
	rules = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lab_rules", sizeof(__u32),
			       sizeof(struct rule_text), c->n_rules ? c->n_rules : 1, NULL);
	if (fd < 0 || rules < 0 || bpf_map_update_elem(fd, &key, m, 0))
		goto out;
	for (i = 0; i < c->n_rules; i++)
		if (bpf_map_update_elem(rules, &i, &c->rules[i], 0))
			goto out;
	snprintf(path, sizeof(path), "%s/rules", dir);
	if (bpf_obj_pin(rules, path))
		goto out;
	snprintf(path, sizeof(path), "%s/meta", dir);
	rc = bpf_obj_pin(fd, path);
out:
	if (rc)
		rc = -errno;
	if (fd >= 0)
		close(fd);
	if (rules >= 0)
		close(rules);
	return rc;
}

int pin_get_rdonly(const char *path)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = BPF_F_RDONLY);
	int fd = bpf_obj_get_opts(path, &opts);

	return fd < 0 ? -errno : fd;
}

__u64 pin_percpu_sum(const char *path, const void *key)
{
	int ncpus = libbpf_num_possible_cpus(), fd, i;
	__u64 *values, sum = 0;

	if (ncpus <= 0)
		return 0;
	values = calloc(ncpus, sizeof(*values));
	fd = pin_get_rdonly(path);
	if (values && fd >= 0 && !bpf_map_lookup_elem(fd, key, values))
		for (i = 0; i < ncpus; i++)
			sum += values[i];
	if (fd >= 0)
		close(fd);
	free(values);
	return sum;
}

int stored_read(const char *dir, struct stored *s)
{
	char path[PATH_MAX];
	__u32 key = 0, i;
	int fd;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/meta", dir);
	fd = pin_get_rdonly(path);
	if (fd < 0)
		return fd;
	if (bpf_map_lookup_elem(fd, &key, &s->meta)) {
		close(fd);
		return -errno;
	}
	close(fd);
	s->rules = calloc(s->meta.n_rules + 1, sizeof(*s->rules));
	if (!s->rules)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/rules", dir);
	fd = pin_get_rdonly(path);
	for (i = 0; fd >= 0 && i < s->meta.n_rules; i++)
		bpf_map_lookup_elem(fd, &i, &s->rules[i]);
	if (fd >= 0)
		close(fd);
	return 0;
}

void stored_free(struct stored *s)
{
	free(s->rules);
	s->rules = NULL;
}
