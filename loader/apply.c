// SPDX-License-Identifier: GPL-2.0
/*
 * Applying and detaching policies (see apply.h): the steps, in the
 * order that keeps a cgroup's tasks under a policy throughout, and the
 * teardown and recovery that undo what a failed or killed lsmctl left.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "apply.h"
#include "cgroup.h"
#include "errors.h"
#include "guard.h"
#include "probe.h"

#define WHY_MAX 1024	/* a step's own message, before apply says what it means */

/* Let each backend let go of what its committed policies no longer need. */
static void gc_backends(void)
{
	unsigned int count[NR_BACKENDS] = { 0 }, b;
	__u64 hooks[NR_BACKENDS] = { 0 };
	struct stored *list;
	int i, n = stored_list(&list);

	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		b = list[i].meta.backend;
		if (b < NR_BACKENDS) {
			hooks[b] |= list[i].meta.hooks;
			count[b]++;
		}
	}
	stored_list_free(list, n);
	for (b = 0; b < NR_BACKENDS; b++)
		if (backend_ops(b)->gc)
			backend_ops(b)->gc(hooks[b], count[b]);
}

/*
 * What the backend of the policy @s holds for it outside its folder;
 * 0 or -errno. Forgotten unless a committed policy has its id too (a
 * folder made to look like a leftover of a live policy's).
 */
static int forget(const struct stored *s)
{
	const struct backend_ops *ops = backend_ops(s->meta.backend);
	struct stored committed;
	char dir[PATH_MAX];
	bool same;
	int rc;

	if (!ops->forget || store_committed_elsewhere(s->dir, s->meta.policy))
		return 0;
	policy_dir(s->meta.cgroup_id, dir, sizeof(dir));
	same = !stored_read(dir, &committed) && committed.meta.backend == s->meta.backend &&
	       committed.meta.policy != s->meta.policy;
	rc = ops->forget(&s->meta, same ? &committed.meta : NULL);
	stored_free(&committed);
	return rc;
}

/* Remove the policy folder @dir and everything its backend holds for it. */
static void teardown(const char *dir)
{
	struct stored s;
	int rc = 0;

	if (!store_locked())
		return;
	if (!store_read_own(dir, &s)) {
		store_keep(&s);
		rc = forget(&s);
		stored_free(&s);
	}
	if (rc)
		return;	/* its rules are still in its backend's maps: the next lsmctl tries again */
	store_remove(dir);
	gc_backends();
}

/*
 * A policy that follows its path, its cgroup gone: it moves to the cgroup
 * lab_follow_mkdir() bound it to since (its folder renamed to that
 * cgroup's, then its meta's id changed), or it waits for its path.
 * Moved: 1.
 */
static int adopt(const struct stored *s)
{
	struct lab_meta meta = s->meta;
	char dir[256], path[PATH_MAX];
	__u32 key = 0;
	__u64 bound;
	int fd;

	if (global_follow_bound(&s->meta, &bound) || !bound)
		return 0;	/* waiting for its path: list says so */
	policy_dir(bound, dir, sizeof(dir));
	/* renamed first: a folder left with the old id in its meta is adopted again */
	if (strcmp(dir, s->dir) && renameat2(AT_FDCWD, s->dir, AT_FDCWD, dir, RENAME_NOREPLACE))
		return 0;
	meta.cgroup_id = bound;
	snprintf(path, sizeof(path), "%s/meta", dir);
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		bpf_map_update_elem(fd, &key, &meta, 0);
		close(fd);
	}
	return 1;
}

/*
 * When the task @pid of this pid namespace started (/proc/PID/stat's
 * starttime, in clock ticks since boot), or 0 when it cannot be read.
 */
static __u64 task_start(__u32 pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* after the comm, which may hold spaces and ')': state is field 3 */
	p = strrchr(buf, ')');
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%llu", &start);
	return start;
}

/*
 * Is lsmctl learn @m->pid gone: no task has its pid, or the one that has
 * it now started at another time (a pid taken again, by a confined task
 * that forked until it had it, say)?
 */
static bool learn_gone(const struct lab_meta *m)
{
	if (kill((pid_t)m->pid, 0) && errno == ESRCH)
		return true;
	return m->pid_start && task_start(m->pid) != m->pid_start;
}

/*
 * Finish what a killed lsmctl left (its half-built or half-removed
 * folders); move the policies that follow a path to the cgroup made at
 * it again, and drop, saying so, the others whose cgroup was removed.
 */
static void recover(void)
{
	char why[WHY_MAX];
	struct stored *list;
	int i, n, guarded = 0;

	n = store_leftovers(&list);
	for (i = 0; i < n; i++)
		teardown(list[i].dir);
	if (n >= 0)
		stored_list_free(list, n);
	n = stored_list(&list);
	for (i = 0; i < n; i++) {
		/*
		 * A learning policy whose lsmctl learn is gone (killed): no
		 * one reads its events, and it would follow its path on.
		 * (A pid of this pid namespace's: lsmctl learn's own.)
		 */
		if (list[i].meta.learning && learn_gone(&list[i].meta)) {
			fprintf(stderr, "lsmctl: lsmctl learn's policy on %s removed: that lsmctl "
				"learn (pid %u) is gone\n", list[i].meta.cgroup, list[i].meta.pid);
			if (list[i].meta.flags & LAB_SELF_PROTECT)
				guarded = 1;
			teardown(list[i].dir);
			continue;
		}
		if (!cgroup_gone(list[i].meta.cgroup_id))
			continue;
		if (list[i].meta.follow && list[i].meta.backend == BACKEND_GLOBAL) {
			if (adopt(&list[i]) && (list[i].meta.flags & LAB_SELF_PROTECT))
				guarded = 1;
			continue;
		}
		/* once: the command whose recovery removes it says so */
		fprintf(stderr, "lsmctl: policy '%s' on %s removed: its cgroup (id %llu) is gone, "
			"and the policy did not follow its path (apply --follow)\n",
			list[i].meta.name, list[i].meta.cgroup,
			(unsigned long long)list[i].meta.cgroup_id);
		teardown(list[i].dir);
	}
	if (n >= 0)
		stored_list_free(list, n);
	/*
	 * A guarded policy moved: the guard's entries follow its record
	 * (the new cgroup's by id), and those of the cgroups gone go.
	 */
	if (guarded && guard_sync(NULL, why, sizeof(why)))
		fprintf(stderr, "lsmctl: self-protection's guard: %s\n", why);
}

int policies_open(bool writing, char *err, size_t errlen)
{
	int rc = store_open(writing, err, errlen);

	if (!rc && store_locked())
		recover();
	return rc;
}

/*
 * The smallest id that no stored policy has and that no backend holds
 * rules under (a configuration is deleted last), or 0 when all
 * LAB_MAX_POLICIES are taken.
 */
static __u32 next_policy_id(void)
{
	static unsigned char used[LAB_MAX_POLICIES];
	unsigned int b;
	__u32 id;

	memset(used, 0, sizeof(used));
	store_used_ids(used, LAB_MAX_POLICIES);
	for (b = 0; b < NR_BACKENDS; b++)
		if (backend_ops(b)->held_ids)
			backend_ops(b)->held_ids(used, LAB_MAX_POLICIES);
	for (id = 1; id < LAB_MAX_POLICIES; id++)
		if (!used[id])
			return id;
	return 0;
}

/* Where @c goes, and may go: the checks before anything is pinned. */
static int check_target(const char *cgroup, const struct compiled *c, __u32 level,
			const char *rel, bool dry, char *err, size_t errlen)
{
	char own[PATH_MAX];
	struct stat st;

	/*
	 * The engine finds a policy by the cgroup's level in the kernel's
	 * hierarchy, counted here from the path: that needs the hierarchy's
	 * root (id 1) at CGROUP_ROOT, not a cgroup namespace's view of it.
	 */
	if (stat(CGROUP_ROOT, &st) || st.st_ino != 1)
		return errf(err, errlen, -EXDEV, CGROUP_ROOT " is not the root of the cgroup2 "
			    "hierarchy (a cgroup namespace, or a bind mount of a cgroup): cgroup "
			    "levels would be wrong");
	/* self-protection would keep lsmctl itself from undoing the policy */
	if ((c->conf.flags & LAB_SELF_PROTECT) && !cgroup_own(own, sizeof(own)) &&
	    cgroup_under(own + strlen(CGROUP_ROOT), rel))
		/* a dry run changes nothing: it runs, and says apply would be refused */
		return errf(err, errlen, dry ? 1 : -EPERM, "self-protection on %s would confine this lsmctl "
			    "too (it runs in %s), which could then not detach it: apply from "
			    "outside the cgroup, or with self_protection: off", rel, own);
	if (level >= LAB_MAX_CGROUP_DEPTH)
		return errf(err, errlen, -E2BIG, "cgroup %s is %u levels deep: policies go on "
			    "cgroups less than %d deep", cgroup, level, LAB_MAX_CGROUP_DEPTH);
	return 0;
}

/* What list, show, stats and events will say of the policy. */
static void fill_meta(struct lab_meta *meta, const struct policy *p, const struct compiled *c,
		      const char *file, const char *rel, enum backend backend, __u32 id)
{
	memset(meta, 0, sizeof(*meta));
	snprintf(meta->name, sizeof(meta->name), "%s", p->name);
	snprintf(meta->cgroup, sizeof(meta->cgroup), "%s", rel);
	snprintf(meta->file, sizeof(meta->file), "%s", file);
	meta->cgroup_id = c->conf.cgroup_id;
	meta->applied = time(NULL);
	meta->hooks = c->hooks | c->guard_hooks;
	meta->backend = backend;
	meta->policy = id;
	meta->flags = c->conf.flags;
	if (c->conf.fixed_rule[LAB_SIGNAL] && !c->conf.fixed_deny[LAB_SIGNAL])
		meta->flags |= LAB_GUARD_SIGNAL;	/* self-protection lets signals out */
	meta->cgroup_level = c->conf.cgroup_level;
	meta->default_deny = c->conf.default_deny;
	meta->closed = policy_closed_classes(p);
	meta->deny_by_default = p->default_deny;
	meta->n_rules = c->n_rules;
	meta->pid = getpid();
	meta->pid_start = task_start(meta->pid);
	meta->generation = c->conf.generation;
}

/*
 * Pin @c as policy @meta in a new- folder, install it, and commit it by
 * one rename; the store is open and locked.
 */
static int install(const char *file, const struct compiled *c, const struct lab_meta *meta,
		   int cgfd, char *err, size_t errlen)
{
	char why[WHY_MAX], ignored[256], staging[256], final[256], id[24];
	int rc, guarded;

	snprintf(id, sizeof(id), "%llu", (unsigned long long)meta->cgroup_id);
	store_pid_dir(staging, sizeof(staging), STORE_NEW, id);
	policy_dir(meta->cgroup_id, final, sizeof(final));
	rc = mkdir(staging, 0700) ? -errno : pin_meta(staging, meta, c);
	if (rc) {
		errf(err, errlen, rc, "pin the policy in %s: %s", staging, strerror(-rc));
		teardown(staging);
		return rc;
	}
	/*
	 * The guard takes the cgroup on before any of the policy is: its
	 * pins in staging are the guarded tasks' to leave alone too.
	 */
	rc = guard_sync(meta, why, sizeof(why));
	if (!rc)
		rc = backend_ops(meta->backend)->install(staging, c, meta, cgfd, why,
							 sizeof(why));
	if (rc) {
		teardown(staging);
		guard_sync(NULL, ignored, sizeof(ignored));	/* back to the committed ones */
		return errf(err, errlen, rc, "%s: %s; nothing was changed", file, why);
	}
	/* commit: one rename puts the whole policy in place */
	if (!renameat2(AT_FDCWD, staging, AT_FDCWD, final, RENAME_NOREPLACE)) {
		rc = 0;
	} else if (errno == EEXIST &&
		   !renameat2(AT_FDCWD, staging, AT_FDCWD, final, RENAME_EXCHANGE)) {
		teardown(staging);	/* the replaced policy, now in staging */
		rc = 0;
	} else {
		rc = errf(err, errlen, -errno, "commit %s: %s; nothing was changed", final,
			  strerror(errno));
		teardown(staging);
	}
	guarded = guard_sync(NULL, why, sizeof(why));
	if (guarded && !rc)
		rc = errf(err, errlen, guarded, "%s: applied, but self-protection's guard: %s",
			  file, why);
	return rc;
}

/*
 * What apply and diff share: parse and compile @file for @cgroup as @o
 * says, and check where it goes. 0 with @p and @c to free, or -errno
 * with nothing to free.
 */
static int prepare(const char *file, const char *cgroup, const struct apply_opts *o,
		   struct policy *p, struct compiled *c, __u64 *cgid, __u32 *level, char *rel,
		   size_t rellen, bool dry, char *err, size_t errlen)
{
	char why[WHY_MAX];
	int rc;

	if (policy_parse_file(file, p, why, sizeof(why)))
		return errf(err, errlen, -EINVAL, "%s", why);
	if (o->audit >= 0)
		p->audit = o->audit;
	if (policy_compile(file, p, c, why, sizeof(why))) {
		policy_free(p);
		return errf(err, errlen, -EINVAL, "%s", why);
	}
	/*
	 * No program for a protocol the kernel cannot have: on the cgroup
	 * backend it would take a hook slot. Before the backend is chosen,
	 * so that check, diff and apply count the same hooks.
	 */
	c->hooks = probe_kernel_hooks(c->hooks);
	/* cgroup.procs inside: the guard judges each move where the kernel lets it */
	if ((c->conf.flags & LAB_SELF_PROTECT) && probe_moves_judged())
		c->conf.flags |= LAB_SELF_MOVES;
	if (compiled_add_filler(c, o->filler)) {
		rc = errf(err, errlen, -ENOMEM, "out of memory for %zu filler rules", o->filler);
		goto out;
	}
	rc = cgroup_resolve(cgroup, cgid, level, rel, rellen, why, sizeof(why));
	if (rc) {
		errf(err, errlen, rc, "%s", why);
		goto out;
	}
	rc = check_target(cgroup, c, *level, rel, dry, err, errlen);
out:
	if (rc < 0) {
		compiled_free(c);
		policy_free(p);
	}
	return rc;
}

/* Can @c follow the cgroup path @rel? Its backend in @backend; 0 or -errno with why. */
static int follow_check(const char *rel, const struct apply_opts *o,
			enum backend *backend, char *why, size_t len)
{
	int rc = backend_pick_follow(o->backend_given, o->backend, backend, why, len);

	if (rc)
		return rc;
	if (strlen(rel) > LAB_FOLLOW_PATH_LEN - 2)
		return errf(why, len, -ENAMETOOLONG, "--follow: the path %s is longer than %d "
			    "bytes", rel, LAB_FOLLOW_PATH_LEN - 2);
	if (!strcmp(rel, "/"))
		return errf(why, len, -EINVAL, "--follow: the root cgroup is never made again");
	/* self-protection follows too: the guard's guard_follow_mkdir() (guard.c) */
	return 0;
}

/* The policy on the cgroup @id among @list's @n, or NULL. */
static const struct lab_meta *meta_on(const struct stored *list, int n, __u64 id)
{
	for (int i = 0; i < n; i++)
		if (list[i].meta.cgroup_id == id)
			return &list[i].meta;
	return NULL;
}

/*
 * Is @scope on the chain of delegations that ends at @by (a policy's
 * delegated_by): @by itself, or the scope that delegated @by's own
 * policy, and so on up? The top of a chain is a scope whose policy the
 * root outside applied; each hop goes up, so @n hops are enough.
 */
static bool chain_has(const struct stored *list, int n, __u64 by, __u64 scope)
{
	const struct lab_meta *m;

	for (int hop = 0; by && hop <= n; hop++) {
		if (by == scope)
			return true;
		m = meta_on(list, n, by);
		by = m ? m->delegated_by : 0;
	}
	return false;
}

/* The top of @by's chain of delegations (chain_has()). */
static __u64 chain_top(const struct stored *list, int n, __u64 by)
{
	const struct lab_meta *m;

	for (int hop = 0; hop <= n; hop++) {
		m = meta_on(list, n, by);
		if (!m || !m->delegated_by)
			break;
		by = m->delegated_by;
	}
	return by;
}

/*
 * Through the broker for the guarded cgroup @scope: @scope's policy is
 * still there with self-protection; the policy on the cgroup @cgid, if
 * any, came through the broker from @scope or a scope below it (a
 * policy the root outside applied stays the root's); and with one of
 * @n_rules rules on it (0: removed), the policies delegated from
 * @scope's top scope down, nested scopes' included, stay within the
 * LAB_BROKER_* limits. The lock held; 0, or -EPERM, -EDQUOT, -E2BIG
 * with why in @err.
 */
static int delegation_check(__u64 scope, __u64 cgid, const char *rel, size_t n_rules,
			    char *err, size_t errlen)
{
	const struct lab_meta *m;
	struct stored *list;
	int i, n, charged = 0, rc = 0;
	__u64 top;

	if (n_rules > LAB_BROKER_MAX_RULES)
		return errf(err, errlen, -E2BIG, "%zu rules: a policy applied through the broker "
			    "has %d at most", n_rules, LAB_BROKER_MAX_RULES);
	n = stored_list(&list);
	if (n < 0)
		return errf(err, errlen, n, "the applied policies: %s", strerror(-n));
	m = meta_on(list, n, scope);
	top = chain_top(list, n, scope);
	if (!m || !(m->flags & LAB_SELF_PROTECT))
		rc = errf(err, errlen, -EPERM, "your subtree's policy (on %s) is gone",
			  cgroup_path_of(scope));
	m = meta_on(list, n, cgid);
	if (!rc && m && !chain_has(list, n, m->delegated_by, scope))
		rc = errf(err, errlen, -EPERM, "the policy on %s was not applied from your "
			  "subtree (%s): only the root outside may change it", rel,
			  cgroup_path_of(scope));
	for (i = 0; i < n; i++)
		if (list[i].meta.cgroup_id != cgid && list[i].meta.delegated_by &&
		    chain_top(list, n, list[i].meta.delegated_by) == top)
			charged++;
	stored_list_free(list, n);
	if (!rc && n_rules && charged >= LAB_BROKER_MAX_POLICIES)
		rc = errf(err, errlen, -EDQUOT, "the subtree of %s has %d policies applied "
			  "through the broker, nested ones included, the most it may: detach "
			  "one first", cgroup_path_of(top), charged);
	return rc;
}

int policy_apply(const char *file, const char *cgroup, const struct apply_opts *o,
		 struct applied *out, char *err, size_t errlen)
{
	char why[WHY_MAX], rel[META_PATH_MAX];
	const char *shown = o->origin ? o->origin : file;
	struct lab_meta meta;
	struct compiled c;
	struct policy p;
	struct stat st;
	enum backend backend;
	__u64 cgid;
	__u32 level, id;
	int cgfd, rc;

	rc = prepare(file, cgroup, o, &p, &c, &cgid, &level, rel, sizeof(rel), false, err,
		     errlen);
	if (rc)
		return rc;
	/* before the kernel is touched: a forced backend that cannot take it is refused */
	if (o->follow)
		rc = follow_check(rel, o, &backend, why, sizeof(why));
	else
		rc = backend_pick(c.hooks, c.guard_hooks, o->backend_given, o->backend, &backend,
				  why, sizeof(why));
	if (rc) {
		errf(err, errlen, rc, "%s: %s; nothing was changed", shown, why);
		goto out_compiled;
	}
	rc = probe_bpf_lsm(err, errlen);
	if (rc)
		goto out_compiled;
	cgfd = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgfd < 0) {
		rc = errf(err, errlen, -errno, "cgroup %s: %s", cgroup, strerror(errno));
		goto out_compiled;
	}
	/* the cgroup attached to is the one resolved: not one made again at its path */
	if (fstat(cgfd, &st) || st.st_ino != cgid) {
		rc = errf(err, errlen, -ESTALE, "cgroup %s was removed and made again while "
			  "applying: nothing was changed", cgroup);
		goto out_cgfd;
	}
	rc = policies_open(true, why, sizeof(why));
	if (rc) {
		errf(err, errlen, rc, "%s", why);
		goto out_cgfd;
	}
	id = next_policy_id();
	if (!id) {
		rc = errf(err, errlen, -ENOSPC, "%d policies are applied already: detach some first",
			  LAB_MAX_POLICIES - 1);
		goto out_store;
	}
	if (o->delegated_by) {
		rc = delegation_check(o->delegated_by, cgid, rel, c.n_rules, err, errlen);
		if (rc)
			goto out_store;
	}
	c.conf.cgroup_id = cgid;
	c.conf.cgroup_level = level;
	c.conf.generation = store_next_generation(err, errlen);
	if (!c.conf.generation) {
		rc = -EIO;
		goto out_store;
	}
	fill_meta(&meta, &p, &c, shown, rel, backend, id);
	meta.follow = o->follow;
	meta.learning = o->learning;
	meta.delegated_by = o->delegated_by;
	rc = install(shown, &c, &meta, cgfd, err, errlen);
	if (!rc) {
		snprintf(out->name, sizeof(out->name), "%s", p.name);
		snprintf(out->cgroup, sizeof(out->cgroup), "%s", rel);
		out->audit = p.audit;
		out->n_rules = c.n_rules;
		out->hooks = c.hooks;
		out->refusal_hooks = c.guard_hooks;
		out->backend = backend;
		out->follow = o->follow;
		policy_warnings(&p, out->warnings, sizeof(out->warnings));
	}
out_store:
	store_close();
out_cgfd:
	close(cgfd);
out_compiled:
	compiled_free(&c);
	policy_free(&p);
	return rc;
}

/*
 * The policy that follows @path (a cgroup2 folder, not there now): the id
 * its folder has in @id, its path below CGROUP_ROOT in @rel; 0 or -ENOENT.
 */
static int waiting_for(const char *path, __u64 *id, char *rel, size_t rellen)
{
	const char *p = path;
	struct stored *list;
	int i, n, rc = -ENOENT;

	if (!strncmp(p, CGROUP_ROOT "/", strlen(CGROUP_ROOT) + 1))
		p += strlen(CGROUP_ROOT);
	if (*p != '/')
		return -ENOENT;
	n = stored_list(&list);
	for (i = 0; i < n && rc; i++)
		if (list[i].meta.follow && !strcmp(list[i].meta.cgroup, p)) {
			*id = list[i].meta.cgroup_id;
			snprintf(rel, rellen, "%s", p);
			rc = 0;
		}
	if (n >= 0)
		stored_list_free(list, n);
	return rc;
}

int policy_detach(const char *cgroup, __u64 delegated_by, char *rel, size_t rellen, char *err,
		  size_t errlen)
{
	char why[WHY_MAX / 2], final[256], old[256], id[24];
	struct stat st;
	__u64 cgid;
	__u32 level;
	int rc;

	rc = cgroup_resolve(cgroup, &cgid, &level, rel, rellen, why, sizeof(why));
	if (rc == -ENOENT && !waiting_for(cgroup, &cgid, rel, rellen))
		rc = 0;	/* a policy that waits for its path, which is not there */
	if (!rc)
		rc = policies_open(true, why, sizeof(why));
	if (rc)
		return errf(err, errlen, rc, "%s", why);
	policy_dir(cgid, final, sizeof(final));
	snprintf(id, sizeof(id), "%llu", (unsigned long long)cgid);
	store_pid_dir(old, sizeof(old), STORE_OLD, id);
	if (stat(final, &st))
		rc = errf(err, errlen, -ENOENT, "no policy on %s", rel);
	else if (delegated_by)
		rc = delegation_check(delegated_by, cgid, rel, 0, err, errlen);
	if (!rc && rename(final, old))
		rc = errf(err, errlen, -errno, "detach %s: %s", rel, strerror(errno));
	else if (!rc)
		teardown(old);
	if (!rc) {
		rc = guard_sync(NULL, why, sizeof(why));
		if (rc)
			errf(err, errlen, rc, "detached, but self-protection's guard: %s", why);
	}
	store_close();
	return rc;
}

/* Is a rule with @text among the @n of @rules? */
static bool has_rule(const struct rule_text *rules, size_t n, const char *text)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rules[i].text, text))
			return true;
	return false;
}

int policy_diff(const char *file, const char *cgroup, const struct apply_opts *o,
		struct policy_diff *d, char *err, size_t errlen)
{
	char dir[PATH_MAX], rel[META_PATH_MAX], refused[WHY_MAX] = "";
	struct policy p;
	__u64 cgid;
	__u32 level, i;
	int rc;

	memset(d, 0, sizeof(*d));
	rc = prepare(file, cgroup, o, &p, &d->c, &cgid, &level, rel, sizeof(rel), true, refused,
		     sizeof(refused));
	if (rc < 0)
		return errf(err, errlen, rc, "%s", refused);
	if (o->follow)
		d->backend_rc = follow_check(rel, o, &d->backend, d->backend_why,
					     sizeof(d->backend_why));
	else
		d->backend_rc = backend_pick(d->c.hooks, d->c.guard_hooks, o->backend_given,
					     o->backend, &d->backend, d->backend_why,
					     sizeof(d->backend_why));
	snprintf(d->name, sizeof(d->name), "%s", p.name);
	snprintf(d->cgroup, sizeof(d->cgroup), "%s", rel);
	d->audit = p.audit;
	policy_warnings(&p, d->warnings, sizeof(d->warnings));
	if (rc > 0) {	/* check_target() would refuse apply, not the dry run */
		size_t n = strlen(d->warnings);

		snprintf(d->warnings + n, sizeof(d->warnings) - n, "%sapply would be refused: %s",
			 n && d->warnings[n - 1] != '\n' ? "\n" : "", refused);
	}
	policy_free(&p);
	policy_dir(cgid, dir, sizeof(dir));
	d->applied = !store_read_own(dir, &d->s);
	d->in_applied = calloc(d->c.n_rules + 1, sizeof(bool));
	d->in_file = calloc((d->applied ? d->s.meta.n_rules : 0) + 1, sizeof(bool));
	if (!d->in_applied || !d->in_file) {
		policy_diff_free(d);
		return errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (i = 0; i < d->c.n_rules; i++)
		d->in_applied[i] = d->applied &&
				   has_rule(d->s.rules, d->s.meta.n_rules, d->c.rules[i].text);
	for (i = 0; d->applied && i < d->s.meta.n_rules; i++)
		d->in_file[i] = has_rule(d->c.rules, d->c.n_rules, d->s.rules[i].text);
	return 0;
}

void policy_diff_free(struct policy_diff *d)
{
	compiled_free(&d->c);
	if (d->applied)
		stored_free(&d->s);
	free(d->in_applied);
	free(d->in_file);
	memset(d, 0, sizeof(*d));
}
