// SPDX-License-Identifier: GPL-2.0
/* Pins of applied policies under /sys/fs/bpf/lsmlab (see store.h). */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "store.h"

#define FILEID_KERNFS	0xfe	/* include/linux/exportfs.h: a kernfs node's 64-bit id */

static int root_fd = -1;

int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
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

/* Does a committed folder other than @dir hold policy id @policy? */
static int policy_committed_elsewhere(const char *dir, __u32 policy)
{
	struct stored *list;
	int i, n = stored_list(&list), found = 0;

	for (i = 0; i < n && !found; i++)
		found = list[i].meta.policy == policy && strcmp(list[i].dir, dir);
	if (n >= 0)
		stored_list_free(list, n);
	return found;
}

void teardown(const char *dir)
{
	const char *name = pin_name(dir);
	struct stored s;

	if (!name || root_fd < 0)
		return;
	if (pin_folder(name) && !stored_read(dir, &s)) {
		/*
		 * The global maps hold its rules under its id: forgotten
		 * unless a committed policy has that id too (a folder made
		 * to look like a leftover of a live policy's).
		 */
		if (s.meta.backend == BACKEND_GLOBAL && !policy_committed_elsewhere(dir, s.meta.policy) &&
		    global_forget(&s.meta)) {
			/* its rules are still in the global maps: the next lsmctl tries again */
			stored_free(&s);
			return;
		}
		stored_free(&s);
	}
	remove_dir(name);
	global_gc();
}

/* A folder "PREFIX-...-PID" whose lsmctl is gone. */
static int stale(const char *name)
{
	const char *dash = strrchr(name, '-');
	long pid;

	if (!dash)
		return 1;
	pid = strtol(dash + 1, NULL, 10);
	return pid <= 0 || pid == getpid() || (kill((pid_t)pid, 0) && errno == ESRCH);
}

/*
 * Was the cgroup with @id removed (ids are not reused)? Asked of the
 * kernel by id, through a file handle on a cgroup2 mount, not by path:
 * a path can be unmounted or mounted over, and a cgroup lsmctl cannot
 * see is not a removed cgroup.
 */
static int cgroup_gone(__u64 id)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh = { .handle_bytes = sizeof(__u64), .handle_type = FILEID_KERNFS } };
	struct statfs sfs;
	int mnt, fd, gone = 0;

	mnt = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mnt < 0)
		return 0;
	if (!fstatfs(mnt, &sfs) && sfs.f_type == CGROUP2_SUPER_MAGIC) {
		memcpy(h.fh.f_handle, &id, sizeof(id));
		fd = open_by_handle_at(mnt, &h.fh, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		else
			gone = errno == ESTALE;
	}
	close(mnt);
	return gone;
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

/*
 * Finish what a killed lsmctl left (its half-built or half-removed
 * folders), and drop the policies of cgroups that were removed.
 */
static void recover(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stored s;
	int gone;
	DIR *d = opendir(PIN_ROOT);

	if (!d)
		return;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), PIN_ROOT "/%s", de->d_name);
		if (!strncmp(de->d_name, "cg-", 3)) {
			if (!policy_folder(de->d_name, &s))
				continue;	/* not lsmctl's: left alone */
			gone = cgroup_gone(s.meta.cgroup_id);
			stored_free(&s);
			if (gone)
				teardown(path);
			continue;
		}
		if (!strncmp(de->d_name, "tmp-global-", 11) || !strncmp(de->d_name, "tmp-guard-", 10)) {
			if (stale(de->d_name))
				remove_dir(de->d_name);	/* an instance never committed */
			continue;
		}
		if (strncmp(de->d_name, "new-", 4) && strncmp(de->d_name, "old-", 4))
			continue;
		if (!stale(de->d_name))
			continue;
		if (policy_folder(de->d_name, &s)) {
			stored_free(&s);
			teardown(path);
		} else {
			remove_dir(de->d_name);	/* a folder with no policy in it */
		}
	}
	closedir(d);
}

int store_open(bool writing, char *err, size_t errlen)
{
	struct statfs sfs;

	if (statfs(BPFFS_ROOT, &sfs) || sfs.f_type != BPF_FS_MAGIC)
		return errf(err, errlen, "no BPF filesystem at " BPFFS_ROOT
			    " (mount -t bpf bpf " BPFFS_ROOT ")");
	if (mkdir(PIN_ROOT, 0700) && errno != EEXIST && (writing || errno != EPERM))
		return errf(err, errlen, "mkdir " PIN_ROOT ": %s", strerror(errno));
	root_fd = open(PIN_ROOT, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root_fd < 0)
		return errf(err, errlen, PIN_ROOT ": %s", strerror(errno));
	if (flock(root_fd, LOCK_EX)) {
		/* a confined task may look, but not lock: self-protection */
		if (!writing && errno == EPERM)
			return 0;
		return errf(err, errlen, "lock " PIN_ROOT ": %s", strerror(errno));
	}
	recover();
	return 0;
}

void store_close(void)
{
	if (root_fd >= 0)
		close(root_fd);
	root_fd = -1;
}

int store_events_fd(void)
{
	int fd = bpf_obj_get(PIN_ROOT "/events");

	if (fd >= 0)
		return fd;
	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "lab_events", 0, 0, LAB_EVENTS_SIZE, NULL);
	if (fd < 0)
		return -1;
	if (bpf_obj_pin(fd, PIN_ROOT "/events")) {
		close(fd);
		return -1;
	}
	return fd;
}

int store_share_events(struct bpf_map *map, char *err, size_t errlen)
{
	int fd = store_events_fd(), rc;

	if (fd < 0)
		return errf(err, errlen, "the events ring buffer: %s", strerror(errno));
	rc = bpf_map__reuse_fd(map, fd);
	close(fd);
	if (rc)
		return errf(err, errlen, "the events ring buffer: %s", strerror(-rc));
	return 0;
}

int cgroup_resolve(const char *path, __u64 *id, __u32 *level, char *rel, size_t rellen,
		   char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct statfs sfs;
	struct stat st;
	const char *p;

	if (!realpath(path, real))
		return errf(err, errlen, "cgroup %s: %s", path, strerror(errno));
	if (statfs(real, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC || stat(real, &st) ||
	    !S_ISDIR(st.st_mode) || strncmp(real, CGROUP_ROOT, strlen(CGROUP_ROOT)) ||
	    (real[strlen(CGROUP_ROOT)] && real[strlen(CGROUP_ROOT)] != '/'))
		return errf(err, errlen, "%s is not a cgroup2 folder under " CGROUP_ROOT, path);
	*id = st.st_ino;	/* a cgroup2 folder's inode number is the cgroup id */
	*level = 0;
	p = real + strlen(CGROUP_ROOT);
	snprintf(rel, rellen, "%s", *p ? p : "/");
	for (; *p; p++)
		if (*p == '/')
			(*level)++;
	return 0;
}

static __u64 wanted_id;
static char found_path[PATH_MAX];

static int find_cgroup(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_D && st->st_ino == wanted_id) {
		snprintf(found_path, sizeof(found_path), "%s",
			 path[strlen(CGROUP_ROOT)] ? path + strlen(CGROUP_ROOT) : "/");
		return 1;
	}
	return 0;
}

const char *cgroup_path_of(__u64 id)
{
	static struct {
		__u64 id;
		char path[PATH_MAX];
	} cache[64];
	static unsigned int next;
	unsigned int i;

	for (i = 0; i < 64; i++)
		if (cache[i].id == id)
			return cache[i].path;
	wanted_id = id;
	snprintf(found_path, sizeof(found_path), "?");
	nftw(CGROUP_ROOT, find_cgroup, 16, FTW_PHYS | FTW_MOUNT);
	i = next++ % 64;
	cache[i].id = id;
	snprintf(cache[i].path, sizeof(cache[i].path), "%s", found_path);
	return cache[i].path;
}

void policy_dir(__u64 cgroup_id, char *buf, size_t len)
{
	snprintf(buf, len, PIN_ROOT "/cg-%llu", (unsigned long long)cgroup_id);
}

int pin_meta(const char *dir, const struct lab_meta *m, const struct compiled *c)
{
	char path[PATH_MAX];
	__u32 key = 0, i;
	int fd, rules, err = -1;

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
	err = bpf_obj_pin(fd, path);
out:
	if (fd >= 0)
		close(fd);
	if (rules >= 0)
		close(rules);
	return err;
}

int pin_get_rdonly(const char *path)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = BPF_F_RDONLY);

	return bpf_obj_get_opts(path, &opts);
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
		return -1;
	if (bpf_map_lookup_elem(fd, &key, &s->meta)) {
		close(fd);
		return -1;
	}
	close(fd);
	s->rules = calloc(s->meta.n_rules + 1, sizeof(*s->rules));
	if (!s->rules)
		return -1;
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

static int by_cgroup(const void *a, const void *b)
{
	return strcmp(((const struct stored *)a)->meta.cgroup,
		      ((const struct stored *)b)->meta.cgroup);
}

int stored_list(struct stored **out)
{
	struct stored *list = NULL, *grown;
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(PIN_ROOT);

	*out = NULL;
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "cg-", 3))
			continue;
		grown = realloc(list, (n + 1) * sizeof(*list));
		if (!grown)
			break;
		list = grown;
		if (policy_folder(de->d_name, &list[n]))
			n++;
	}
	closedir(d);
	if (n)
		qsort(list, n, sizeof(*list), by_cgroup);
	*out = list;
	return n;
}

void stored_list_free(struct stored *list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		stored_free(&list[i]);
	free(list);
}

/*
 * The smallest id that no stored policy has and that the global maps
 * hold nothing under (a configuration is deleted last), or 0 when all
 * LAB_MAX_POLICIES are taken.
 */
__u32 store_next_policy_id(void)
{
	static unsigned char used[LAB_MAX_POLICIES];
	char path[PATH_MAX];
	struct dirent *de;
	struct stored s;
	__u32 id, key, next, *prev = NULL;
	int confs;
	DIR *d = opendir(PIN_ROOT);

	memset(used, 0, sizeof(used));
	if (!d)
		return 1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "cg-", 3) && strncmp(de->d_name, "new-", 4) &&
		    strncmp(de->d_name, "old-", 4))
			continue;
		snprintf(path, sizeof(path), PIN_ROOT "/%s", de->d_name);
		if (stored_read(path, &s))
			continue;
		if (s.meta.policy < LAB_MAX_POLICIES)
			used[s.meta.policy] = 1;
		stored_free(&s);
	}
	closedir(d);
	confs = bpf_obj_get(PIN_ROOT "/global/confs");
	while (confs >= 0 && !bpf_map_get_next_key(confs, prev, &next)) {
		key = next;
		prev = &key;
		if (key < LAB_MAX_POLICIES)
			used[key] = 1;
	}
	if (confs >= 0)
		close(confs);
	for (id = 1; id < LAB_MAX_POLICIES; id++)
		if (!used[id])
			return id;
	return 0;
}
