// SPDX-License-Identifier: GPL-2.0
/*
 * lsmctl learn (see learn.h). The command runs under a seed policy in
 * audit mode that closes every class (closed:), so every access of every
 * class is reported, and none is denied. The events name files by device
 * and inode (and their folder's inode): once the command has ended, a
 * walk of the mounts those devices are mounted on names them; /proc's,
 * whose inodes do not last, are named as the events come (procfs.h).
 */
#define _GNU_SOURCE
#include <bpf/libbpf.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "apply.h"
#include "cgroup.h"
#include "draft.h"
#include "errors.h"
#include "journal.h"
#include "learn.h"
#include "output.h"
#include "procfs.h"
#include "store.h"

#define SEED_FILE "seed.yaml"
#define MAX_NOTES 20	/* unresolved objects and self-protection said one by one */
#define LEARN_RESTARTS 64	/* restarts of a learnt cgroup whose events are taken */

/*
 * The learning policy: audit mode, default: deny, and every class closed
 * (closed:), so that every access of every class is reported and none is
 * denied. No allow rule: one on a folder of lsmctl's own, as this was
 * before closed:, held that folder's inode after the folder was gone,
 * and the command's next folder, given the same inode number by ext4,
 * was allowed and never reported. The four kinds that take no
 * allow-list are denied, in audit mode: reported.
 */
static const char seed_policy[] =
	"name: lsmctl-learn\n"
	"mode: audit\n"
	"default: deny\n"
	"closed: [read, write, exec, create, unlink, socket, bind, connect, capability]\n"
	"rules:\n"
	"  - ptrace: deny\n"
	"  - mount: deny\n"
	"  - module_load: deny\n"
	"  - signal: deny\n";

/* What the walk looks for: a file by device and inode. */
struct wanted {
	__u32 dev;
	__u64 ino;
	char name[LAB_NAME_LEN];	/* the event's name for it: a hard link by that name wins */
	char *path;			/* found */
};

struct learning {
	__u64 cgroup_id;
	struct lab_event *events;
	size_t n_events, cap;
	bool oom;
	struct wanted *wanted;
	size_t n_wanted;
	__u32 child;		/* the command's pid, once started */
	__u64 since;		/* CLOCK_MONOTONIC ns when the learning policy went on */
	__u32 proc_dev;		/* /proc's: its files are named as they are used */
	const char *follow;	/* --cgroup: the path learnt, whose restarts are learnt too */
	__u64 restarts[LEARN_RESTARTS];	/* the cgroups made at @follow since, by id */
	size_t n_restarts;
	char **forms;		/* by event: a /proc file's rule path (procfs.h), or NULL */
};

static struct learning *walking;	/* nftw() has no argument for its callback */
static __u32 walking_dev;
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * Does a policy follow the cgroup path @rel (below CGROUP_ROOT)? Its
 * record may still name a cgroup a restart removed (recovery moves it at
 * lsmctl's next command): the path says it has a policy all the same.
 */
static bool follows_path(const char *rel)
{
	struct stored *list;
	bool found = false;
	int i, n;

	n = stored_list(&list);
	for (i = 0; i < n; i++)
		found |= list[i].meta.follow && !strcmp(list[i].meta.cgroup, rel);
	if (n >= 0)
		stored_list_free(list, n);
	return found;
}

/*
 * Is @id the cgroup learnt, or one made at its path since (a service's
 * restart: the learning policy follows the path)? The cgroup at the path
 * now, when it is @id, is remembered: its events may come after the next.
 */
static bool learnt_cgroup(struct learning *l, __u64 id)
{
	struct stat st;
	size_t i;

	if (id == l->cgroup_id)
		return true;
	for (i = 0; i < l->n_restarts; i++)
		if (l->restarts[i] == id)
			return true;
	if (!l->follow || stat(l->follow, &st) || st.st_ino != id ||
	    l->n_restarts == LEARN_RESTARTS)
		return false;
	l->restarts[l->n_restarts++] = id;
	return true;
}

static int on_event(void *data, const struct lab_event *e)
{
	struct learning *l = data;
	struct lab_event *grown;

	if (!learnt_cgroup(l, e->policy_cgroup_id))
		return 0;
	/*
	 * The journal is every policy's: events of an earlier policy on the
	 * same cgroup may be in it, and are not this run's.
	 */
	if (e->time_ns < l->since)
		return 0;
	/*
	 * lsmctl's own steps in the child before the exec (entering the
	 * cgroup, reading /proc/self/cgroup), still under lsmctl's name:
	 * not the command's (its name is the command's from the exec on).
	 */
	if (l->child && e->pid == l->child && !strncmp(e->comm, "lsmctl", LAB_COMM_LEN))
		return 0;
	if (l->n_events == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		char **forms = realloc(l->forms, cap * sizeof(*forms));

		if (forms)
			l->forms = forms;
		grown = forms ? realloc(l->events, cap * sizeof(*grown)) : NULL;
		if (!grown) {
			l->oom = true;
			return 0;
		}
		l->events = grown;
		l->cap = cap;
	}
	/* /proc's inodes go with what they show: named now, while they are there */
	l->forms[l->n_events] = NULL;
	if (e->class < LAB_FILE_CLASSES && l->proc_dev && e->dev == l->proc_dev) {
		char name[LAB_NAME_LEN + 1];

		snprintf(name, sizeof(name), "%.*s", LAB_NAME_LEN, e->name);
		l->forms[l->n_events] = procfs_form(name, e->ino, e->dir_ino, e->pid);
	}
	l->events[l->n_events++] = *e;
	return 0;
}

/* Look @dev:@ino up, or add it to what the walk is to find; NULL when out of memory. */
static struct wanted *want(struct learning *l, __u32 dev, __u64 ino, const char *name)
{
	struct wanted *w;
	size_t i;

	for (i = 0; i < l->n_wanted; i++)
		if (l->wanted[i].dev == dev && l->wanted[i].ino == ino)
			return &l->wanted[i];
	w = realloc(l->wanted, (l->n_wanted + 1) * sizeof(*w));
	if (!w)
		return NULL;
	l->wanted = w;
	w = &l->wanted[l->n_wanted++];
	memset(w, 0, sizeof(*w));
	w->dev = dev;
	w->ino = ino;
	snprintf(w->name, sizeof(w->name), "%s", name);
	return w;
}

static struct wanted *found(struct learning *l, __u32 dev, __u64 ino)
{
	size_t i;

	for (i = 0; i < l->n_wanted; i++)
		if (l->wanted[i].dev == dev && l->wanted[i].ino == ino)
			return l->wanted[i].path ? &l->wanted[i] : NULL;
	return NULL;
}

static int on_walk(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *name = path + ftw->base;
	size_t i;

	(void)flag;
	for (i = 0; i < walking->n_wanted; i++) {
		struct wanted *w = &walking->wanted[i];

		if (w->dev != walking_dev || w->ino != st->st_ino)
			continue;
		/* a hard link named as the event names it, over any other */
		if (w->path && strncmp(name, w->name, LAB_NAME_LEN - 1))
			continue;
		free(w->path);
		w->path = strdup(path);
	}
	return 0;
}

/* A mountinfo field's octal escapes (\040 for a space) undone, in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = 0;
}

/*
 * Filesystems whose files have no lasting name to give a rule (/proc's
 * are named as they are used: procfs.h). sysfs's inodes last as long as
 * what they show: walked as a disk's are.
 */
static bool pseudo_fs(const char *type)
{
	static const char *const types[] = { "proc", "cgroup", "cgroup2", "bpf",
					     "debugfs", "tracefs", "securityfs", "devpts",
					     "mqueue", "configfs", "pstore", "binfmt_misc",
					     "efivarfs", "selinuxfs", "fusectl", "autofs" };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(type, types[i]))
			return true;
	return false;
}

/* Name what @l wants: walk each mount of a device it names, a filesystem each. */
static void walk_mounts(struct learning *l)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], point[PATH_MAX], type[64], *dash;
	unsigned int maj, min;
	size_t i;

	if (!f)
		return;
	walking = l;
	while (fgets(line, sizeof(line), f)) {
		/* "ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAGS] - TYPE SOURCE ..." */
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, point) != 3 ||
		    sscanf(dash + 3, "%63s", type) != 1 || pseudo_fs(type))
			continue;
		walking_dev = LAB_MKDEV(maj, min);
		for (i = 0; i < l->n_wanted; i++)
			if (l->wanted[i].dev == walking_dev && !l->wanted[i].path)
				break;
		if (i == l->n_wanted)
			continue;	/* nothing on it, or all of it named already */
		unescape(point);
		nftw(point, on_walk, 64, FTW_PHYS | FTW_MOUNT);
	}
	fclose(f);
	walking = NULL;
}

/* Is @path there now, as the inode @ino? */
static bool still(const char *path, __u64 ino)
{
	struct stat st;

	return !lstat(path, &st) && st.st_ino == ino;
}

/* Was a file named @name made in the folder @dir_ino during the run? */
static bool made_here(const struct learning *l, const struct lab_event *e)
{
	size_t i;

	for (i = 0; i < l->n_events; i++)
		if (l->events[i].class == LAB_CREATE && l->events[i].dev == e->dev &&
		    l->events[i].dir_ino == e->dir_ino &&
		    !strncmp(l->events[i].name, e->name, LAB_NAME_LEN))
			return true;
	return false;
}

/* A note for a file event no rule could be made for, once for each file and class. */
static int unresolved(struct draft *d, const struct learning *l, size_t index,
		      unsigned long *n_unresolved)
{
	const struct lab_event *e = &l->events[index];
	size_t i;

	for (i = 0; i < index; i++)
		if (l->events[i].class == e->class && l->events[i].dev == e->dev &&
		    l->events[i].ino == e->ino && l->events[i].dir_ino == e->dir_ino &&
		    !strncmp(l->events[i].name, e->name, LAB_NAME_LEN))
			return 0;	/* said already */
	if ((*n_unresolved)++ >= MAX_NOTES)
		return 0;
	return draft_note(d, "%s of '%.*s' (device %u:%u, inode %llu) by %.*s: no name found for "
			  "it (a pseudo filesystem's, or gone with its folder): no rule",
			  class_name(e->class), LAB_NAME_LEN, e->name, LAB_MAJOR(e->dev),
			  LAB_MINOR(e->dev), (unsigned long long)e->ino, LAB_COMM_LEN, e->comm);
}

/* The nearest folder above @e's folder that the walk found: one the run did not remove. */
static const struct wanted *nearest_kept(const struct learning *l, const struct lab_event *e)
{
	const struct wanted *w;
	size_t i;

	for (i = 0; i < LAB_EVENT_UP && e->up.ino[i]; i++) {
		w = found((struct learning *)l, e->dev, e->up.ino[i]);
		if (w)
			return w;
	}
	return NULL;
}

/* A create no rule can allow but one on a secret's folder, once for each folder and name. */
static int secret_note(struct draft *d, const struct learning *l, size_t index,
		       const char *folder)
{
	const struct lab_event *e = &l->events[index];
	size_t i;

	for (i = 0; i < index; i++)
		if (l->events[i].class == e->class && l->events[i].dev == e->dev &&
		    l->events[i].dir_ino == e->dir_ino &&
		    !strncmp(l->events[i].name, e->name, LAB_NAME_LEN))
			return 0;	/* said already */
	return draft_note(d, "create of '%.*s' in %s by %.*s: no rule (create is a folder's "
			  "subtree, and %s's would cover a secret: lsmctl(8)); write one by hand "
			  "if the program must", LAB_NAME_LEN, e->name, folder, LAB_COMM_LEN,
			  e->comm, folder);
}

/*
 * A log file: one written where logs are (a name ending in .log is the
 * program's to choose, and /opt/app/x.log would make the app's folder
 * writable). Its folder gets write and create, so that the file made
 * anew after a rotation is written too.
 */
static bool log_file(const char *path)
{
	return !strncmp(path, "/var/log/", 9);
}

/*
 * Scratch places, whose subtree a run's removed folders may rise to: what
 * a program makes and removes there is its own. An allow-list: a folder
 * the run removed in /etc/letsencrypt must not give all of /etc/letsencrypt.
 */
static bool scratch_folder(const char *path)
{
	static const char *const scratch[] = { "/tmp", "/var/tmp", "/dev/shm" };
	size_t i, n;

	for (i = 0; i < sizeof(scratch) / sizeof(scratch[0]); i++) {
		n = strlen(scratch[i]);
		if (!strncmp(path, scratch[i], n) && (!path[n] || path[n] == '/'))
			return true;
	}
	return false;
}

/*
 * A file event as a rule: the file itself, when it is still there as the
 * same inode and was not made during the run; else its folder's subtree
 * (a file made again next time is a new inode), or, when the run removed
 * that folder too, the subtree of the nearest folder above it that stays
 * (what the run made there it makes again next time). create and unlink
 * are on a folder's subtree always; a log file's write is on its folder's
 * with create.
 */
static int file_rule(struct draft *d, struct learning *l, size_t index,
		     unsigned long *n_unresolved)
{
	const struct lab_event *e = &l->events[index];
	const struct wanted *file = e->ino ? found(l, e->dev, e->ino) : NULL;
	const struct wanted *dir = found(l, e->dev, e->dir_ino), *kept;
	char comm[LAB_COMM_LEN + 1], folder[PATH_MAX];
	unsigned int access = 1u << e->class;
	const char *slash;

	snprintf(comm, sizeof(comm), "%.*s", LAB_COMM_LEN, e->comm);
	if (file && e->ino == e->dir_ino)	/* a filesystem's root: no name to match */
		return draft_file_root(d, file->path, access, comm);
	if (file && e->class == LAB_WRITE && log_file(file->path) &&
	    (slash = strrchr(file->path, '/')) && slash > file->path) {
		snprintf(folder, sizeof(folder), "%.*s", (int)(slash - file->path), file->path);
		if (draft_foldable(folder))
			return draft_file(d, folder, true, ACCESS_WRITE, comm) ?:
			       draft_file(d, folder, true, ACCESS_CREATE, comm);
	}
	if (file && e->class != LAB_CREATE && e->class != LAB_UNLINK && !made_here(l, e) &&
	    still(file->path, e->ino))
		return draft_file(d, file->path, false, access, comm);
	/*
	 * A file or folder the run made and removed, read or written: by its
	 * name, which a rule by path waits for, unless it was in a scratch
	 * place. Its folder's subtree would take the folder's other files
	 * (a folder of keys the run made a folder in, then read and removed).
	 */
	if (dir && !file && !(access & (ACCESS_CREATE | ACCESS_UNLINK)) &&
	    !scratch_folder(dir->path) && made_here(l, e) &&
	    snprintf(folder, sizeof(folder), "%s/%.*s", dir->path, LAB_NAME_LEN, e->name) <
	    (int)sizeof(folder))
		return draft_file(d, folder, false, access, comm);
	if (dir) {
		snprintf(folder, sizeof(folder), "%s", dir->path);
	} else if (file && (slash = strrchr(file->path, '/')) && slash > file->path) {
		snprintf(folder, sizeof(folder), "%.*s", (int)(slash - file->path), file->path);
	} else if ((kept = nearest_kept(l, e)) && scratch_folder(kept->path)) {
		snprintf(folder, sizeof(folder), "%s", kept->path);
	} else {
		return unresolved(d, l, index, n_unresolved);
	}
	/*
	 * The root's subtree is every file, and a secret's folder's would
	 * take the secret with it (all of /etc for a file made in /etc): the file
	 * by its name, where the folder stays to name it in.
	 */
	if (!strcmp(folder, "/") || !draft_foldable(folder)) {
		if (access & ACCESS_CREATE)	/* a policy's create is a subtree's (POLICY.md) */
			return secret_note(d, l, index, folder);
		if (file)
			return draft_file(d, file->path, false, access, comm);
		if (dir && snprintf(folder, sizeof(folder), "%s/%.*s", dir->path, LAB_NAME_LEN,
				    e->name) < (int)sizeof(folder))
			return draft_file(d, folder, false, access, comm);
		return unresolved(d, l, index, n_unresolved);
	}
	return draft_file(d, folder, true, access, comm);
}

/* A self-protection report, as a note, once for each hook and object. */
static int self_note(struct draft *d, const struct learning *l, size_t index,
		     unsigned long *n_self)
{
	const struct lab_event *e = &l->events[index];
	char object[LAB_NAME_LEN + 64], name[LAB_NAME_LEN + 1];
	size_t i;

	for (i = 0; i < index; i++)
		if (l->events[i].rule == LAB_RULE_SELF && l->events[i].hook == e->hook &&
		    l->events[i].ino == e->ino && l->events[i].number == e->number)
			return 0;
	if ((*n_self)++ >= MAX_NOTES)
		return 0;
	snprintf(name, sizeof(name), "%.*s", LAB_NAME_LEN, e->name);	/* no NUL when it is full */
	format_object(e, name, object, sizeof(object));
	return draft_note(d, "self-protection would refuse %s %s by %.*s: the policy cannot "
			  "allow it (self_protection: off can)", event_hook_name(e->hook), object,
			  LAB_COMM_LEN, e->comm);
}

static int make_draft(struct learning *l, struct draft *d, const struct learn_opts *o,
		      struct learned *out, char *err, size_t errlen)
{
	unsigned long n_self = 0;
	bool more;
	char comm[LAB_COMM_LEN + 1];
	size_t i;
	int rc = 0;

	for (i = 0; i < l->n_events && !rc; i++) {
		const struct lab_event *e = &l->events[i];

		if (e->class < LAB_FILE_CLASSES && e->dev != l->proc_dev) {
			if ((e->ino && !want(l, e->dev, e->ino, e->name)) ||
			    !want(l, e->dev, e->dir_ino, ""))
				rc = -ENOMEM;
		}
	}
	if (rc)
		return rc;
	walk_mounts(l);
	/* folders the run removed: the folders above them, in a second walk */
	for (i = 0, more = false; i < l->n_events && !rc; i++) {
		const struct lab_event *e = &l->events[i];
		size_t k;

		if (e->class >= LAB_FILE_CLASSES || e->dev == l->proc_dev ||
		    found(l, e->dev, e->dir_ino))
			continue;
		for (k = 0; k < LAB_EVENT_UP && e->up.ino[k] && !rc; k++) {
			more = true;
			if (!want(l, e->dev, e->up.ino[k], ""))
				rc = -ENOMEM;
		}
	}
	if (rc)
		return rc;
	if (more)
		walk_mounts(l);
	for (i = 0; i < l->n_events && !rc; i++) {
		const struct lab_event *e = &l->events[i];

		snprintf(comm, sizeof(comm), "%.*s", LAB_COMM_LEN, e->comm);
		if (e->rule == LAB_RULE_SELF || e->class == LAB_SELF) {
			rc = self_note(d, l, i, &n_self);
			continue;
		}
		switch (e->class) {
		case LAB_SOCKET:
			rc = draft_socket(d, e->family, (int)e->number, comm);
			break;
		case LAB_BIND:
		case LAB_CONNECT:
			rc = draft_net(d, e->class == LAB_BIND ? NET_BIND : NET_CONNECT, e->family,
				       e->addr, e->port, comm);
			break;
		case LAB_CAPABILITY:
			rc = draft_cap(d, e->number, comm);
			break;
		case LAB_PTRACE:
			draft_fixed(d, RULE_PTRACE, comm);
			break;
		case LAB_MOUNT:
			draft_fixed(d, RULE_MOUNT, comm);
			break;
		case LAB_MODULE_LOAD:
			draft_fixed(d, RULE_MODULE_LOAD, comm);
			break;
		case LAB_SIGNAL:
			draft_fixed(d, RULE_SIGNAL, comm);
			break;
		default:
			if (e->class < LAB_FILE_CLASSES && l->forms[i] && e->ino == e->dir_ino)
				rc = draft_file_root(d, l->forms[i], 1u << e->class, comm);
			else if (e->class < LAB_FILE_CLASSES && l->forms[i])
				rc = draft_file(d, l->forms[i], false, 1u << e->class, comm);
			else if (e->class < LAB_FILE_CLASSES)
				rc = file_rule(d, l, i, &out->unresolved);
			break;
		}
	}
	if (!rc && out->unresolved > MAX_NOTES)
		rc = draft_note(d, "and %lu more file(s) with no name found", out->unresolved - MAX_NOTES);
	if (!rc && n_self > MAX_NOTES)
		rc = draft_note(d, "and %lu more self-protection report(s)", n_self - MAX_NOTES);
	if (!rc && out->lost)
		rc = draft_note(d, "%lu event(s) were lost (not read in time, or not reported): the draft may lack "
				"rules; learn again", out->lost);
	if (!rc && o->merge) {
		rc = draft_merge(d, o->merge, o->merge_file, err, errlen);
		if (!rc)
			rc = draft_note(d, "merged with %s: its rules are \"earlier run\"'s",
					o->merge_file);
	}
	if (!rc)
		rc = draft_fold(d, o->fold);
	return rc;
}

/* The seed policy in a folder of its own; 0 or -errno. */
static int write_seed(char *dir, size_t dirlen, char *file, size_t filelen, char *err,
		      size_t errlen)
{
	FILE *f;

	snprintf(dir, dirlen, "/tmp/lsmctl-learn-XXXXXX");
	if (!mkdtemp(dir))
		return errf(err, errlen, -errno, "mkdtemp %s: %s", dir, strerror(errno));
	snprintf(file, filelen, "%s/" SEED_FILE, dir);
	f = fopen(file, "we");
	if (!f || fputs(seed_policy, f) < 0 || fclose(f)) {
		int e = errno;

		rmdir(dir);
		return errf(err, errlen, -e, "write %s: %s", file, strerror(e));
	}
	return 0;
}

/* Run @cmd in the cgroup folder @cg and wait for it, reading events the while. */
static int run_command(char **cmd, const char *cg, long timeout, struct journal_reader *j,
		       struct learning *l, int *status, char *err, size_t errlen)
{
	struct timespec start, now;
	pid_t pid;
	int rc;

	pid = cgroup_spawn(cmd, cg, "learn", err, errlen);
	if (pid == CGROUP_SPAWN_NOEXEC) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, ": it did not start, nothing was learnt, no draft "
			 "written");
		return -ENODATA;
	}
	if (pid < 0)
		return -EPERM;
	l->child = (__u32)pid;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		rc = waitpid(pid, status, WNOHANG);
		if (rc == pid)
			break;
		journal_poll(j, 100, on_event, l);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (interrupted || (timeout && now.tv_sec - start.tv_sec >= timeout)) {
			kill(pid, SIGKILL);	/* cgroup.kill takes what it left */
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			break;
		}
	}
	*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : 128 + WTERMSIG(*status);
	return 0;
}

/* Watch what runs in @cg for @timeout seconds (or until SIGINT). */
static void watch(long timeout, struct journal_reader *j, struct learning *l)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		journal_poll(j, 100, on_event, l);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (!interrupted && (!timeout || now.tv_sec - start.tv_sec < timeout));
}

/* The events journal, read from the next event on; 0 or -errno with why in @err. */
static int open_events(struct journal_reader *j, char *err, size_t errlen)
{
	int rc = policies_open(false, err, errlen);

	if (rc)
		return rc;
	rc = journal_open(j, false, err, errlen);
	store_close();
	return rc;
}

/*
 * The draft's name: learned-CMD, or learned-UNIT for a cgroup (its
 * folder's name: nginx.service), as a policy name may be written.
 */
static void draft_name(const struct learn_opts *o, char *buf, size_t len)
{
	const char *what = o->cmd ? o->cmd[0] : o->cgroup;
	const char *base = strrchr(what, '/');
	size_t i;

	snprintf(buf, len, "learned-%s", base && base[1] ? base + 1 : what);
	for (i = 0; buf[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    buf[i]))
			buf[i] = '_';
}

static void header(const struct learn_opts *o, const struct learned *out, char *buf, size_t len)
{
	char when[64];
	size_t n;
	int i;

	format_rfc3339((long long)time(NULL), 0, when, sizeof(when));
	if (o->cmd) {
		n = (size_t)snprintf(buf, len, "A draft policy lsmctl learn made at %s from a run of:",
				     when);
		for (i = 0; o->cmd[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, " %s", o->cmd[i]);
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, " (exit status %d)", out->status);
	} else {
		n = (size_t)snprintf(buf, len, "A draft policy lsmctl learn made at %s from %s, "
				     "watched for %ld s", when, o->cgroup, o->timeout);
	}
	if (n < len)
		snprintf(buf + n, len - n,
			 "\nEach rule allows what it did, counted, with the programs that did it;\n"
			 "default: deny denies the rest, and closed: each class of access it never used.\n"
			 "Review it, then\n"
			 "lsmctl check it and apply it (--mode audit first, to see what it would deny).");
}

/*
 * Write the draft to @f, and count its rules as apply will: compiled,
 * its rules merged and the fixed ones (ptrace, mount, ...) among them,
 * not the draft's own count (draft.h). 0 or -errno.
 */
static int write_draft(struct draft *d, FILE *f, const char *name, const char *header,
		       size_t *rules)
{
	char why[1024], warnings[1024];
	struct compiled c;
	struct policy p;
	size_t len = 0;
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	if (!mem)
		return -errno;
	rc = draft_write(d, mem, name, header);
	if (fclose(mem) && !rc)
		rc = -ENOMEM;
	if (!rc && fwrite(buf, 1, len, f) != len)
		rc = -EIO;
	*rules = d->n_rules;
	if (!rc && !policy_parse("the draft", buf, len, &p, why, sizeof(why))) {
		if (!policy_compile_check("the draft", &p, &c, warnings, sizeof(warnings), why,
					  sizeof(why))) {
			*rules = c.n_rules;
			compiled_free(&c);
		}
		policy_free(&p);
	}
	free(buf);
	return rc;
}

int learn(const struct learn_opts *o, FILE *f, struct learned *out, char *err, size_t errlen)
{
	char dir[64], seed[128], cg[PATH_MAX], parent[PATH_MAX - 64], rel[META_PATH_MAX];
	char name[POLICY_NAME_MAX], text[4096], pins[256];
	struct apply_opts ao = { .backend = o->backend, .backend_given = o->backend_given,
				 .audit = -1, .origin = "lsmctl learn's learning policy",
				 .learning = true };
	struct learning l = { 0 };
	struct timespec now;
	struct draft d = { 0 };
	struct journal_reader j = { .slots = -1, .head = -1 };
	struct applied a;
	struct stored s;
	bool made_cg = false, applied = false, taken;
	__u32 level;
	int rc, tries;

	memset(out, 0, sizeof(*out));
	if (o->cgroup) {
		snprintf(cg, sizeof(cg), "%s", o->cgroup);
		/*
		 * A service restarted while it is learnt: its new cgroup has the
		 * learning policy from its mkdir on (systemd's own steps before
		 * the exec too), and its events are the run's. Follows need the
		 * global backend: not with --backend cgroup.
		 */
		ao.follow = !(o->backend_given && o->backend == BACKEND_CGROUP);
		l.follow = ao.follow ? cg : NULL;
	} else {
		if (cgroup_own(parent, sizeof(parent)))
			return errf(err, errlen, -ENOENT, "/proc/self/cgroup: no cgroup2 entry");
		snprintf(cg, sizeof(cg), "%s/lsmctl-learn-%d", parent, getpid());
		if (mkdir(cg, 0755))
			return errf(err, errlen, -errno, "mkdir %s: %s", cg, strerror(errno));
		made_cg = true;
	}
	rc = cgroup_resolve(cg, &l.cgroup_id, &level, rel, sizeof(rel), err, errlen);
	if (rc)
		goto out;
	policy_dir(l.cgroup_id, pins, sizeof(pins));
	taken = !stored_read(pins, &s);
	if (taken)
		stored_free(&s);
	if (taken || (o->cgroup && follows_path(rel))) {
		rc = errf(err, errlen, -EEXIST, "%s has a policy: learn would replace it, and "
			  "detach it after; detach it first, or learn on a cgroup of its own", rel);
		goto out;
	}
	/* opened first: the policy's first events come as it is applied */
	rc = open_events(&j, err, errlen);
	if (rc)
		goto out;
	rc = write_seed(dir, sizeof(dir), seed, sizeof(seed), err, errlen);
	if (rc)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &now);	/* bpf_ktime_get_ns()'s clock */
	l.since = (__u64)now.tv_sec * 1000000000ull + (__u64)now.tv_nsec;
	l.proc_dev = procfs_dev();
	rc = policy_apply(seed, cg, &ao, &a, err, errlen);
	unlink(seed);
	rmdir(dir);
	if (rc)
		goto out;
	applied = true;
	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	if (o->cmd) {
		rc = run_command(o->cmd, cg, o->timeout, &j, &l, &out->status, err, errlen);
		if (rc)
			goto out;
		if (cgroup_kill(cg)) {
			rc = errf(err, errlen, -EBUSY, "%s: tasks still running after cgroup.kill: "
				  "the learning policy stays until the next lsmctl command", cg);
			applied = made_cg = false;
			goto out;
		}
	} else {
		if (!cgroup_populated(cg))
			fprintf(stderr, "lsmctl: warning: %s has no task now: only what enters it in "
				"the next %ld s is learnt\n", rel, o->timeout);
		/* the policy is on only now (a load takes seconds): say when to start */
		fprintf(stderr, "lsmctl learn: learning what %s does for %ld s\n", rel, o->timeout);
		watch(o->timeout, &j, &l);
	}
	journal_drain(&j, on_event, &l);
	/* fell behind, not written in time; and those the kernel could not report: */
	out->lost = j.lost + j.unwritten;
	if (!stored_read(pins, &s)) {
		out->lost += policy_lost(&s);
		stored_free(&s);
	}
	out->events = l.n_events;
	if (!l.n_events) {
		if (o->cmd)
			rc = errf(err, errlen, -ENODATA, "%s exited %d and the learning policy saw no "
				  "access of it (%lu event(s) lost): nothing was learnt, no draft "
				  "written", o->cmd[0], out->status, out->lost);
		else
			rc = errf(err, errlen, -ENODATA, "no task of %s did anything in %ld s (%lu "
				  "event(s) lost): nothing was learnt, no draft written; is it idle? "
				  "learn while it works, or longer", rel, o->timeout, out->lost);
		goto out;
	}
	if (l.oom) {
		rc = errf(err, errlen, -ENOMEM, "out of memory for the events");
		goto out;
	}
	rc = make_draft(&l, &d, o, out, err, errlen);
	if (rc == -EINVAL) {
		goto out;	/* --merge's rule, said in @err */
	} else if (rc) {
		errf(err, errlen, rc, "make the draft: %s", strerror(-rc));
		goto out;
	}
	draft_name(o, name, sizeof(name));
	header(o, out, text, sizeof(text));
	rc = write_draft(&d, f, name, text, &out->rules);
	if (rc)
		errf(err, errlen, rc, "write the draft: %s", strerror(-rc));
out:
	journal_close(&j);
	if (applied && policy_detach(cg, 0, rel, sizeof(rel), text, sizeof(text)) && !rc)
		rc = errf(err, errlen, -EIO, "%s", text);
	for (tries = 0; made_cg && rmdir(cg) && errno == EBUSY && tries < 100; tries++)
		usleep(50 * 1000);
	while (l.n_wanted--)
		free(l.wanted[l.n_wanted].path);
	free(l.wanted);
	while (l.n_events--)
		free(l.forms[l.n_events]);
	free(l.forms);
	free(l.events);
	procfs_forget();
	draft_free(&d);
	return rc;
}
