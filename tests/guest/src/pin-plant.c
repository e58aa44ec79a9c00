// SPDX-License-Identifier: GPL-2.0
/*
 * A map planted where lsmctl is about to pin one never becomes the
 * instance's. libbpf's own pinning reuses a compatible map it finds at
 * a marked map's path; lsmctl creates every map and pins it itself, so
 * a name taken in its folder fails the apply instead. The planting task
 * here is root outside any policy, which could do worse; what is tested
 * is lsmctl's loading: each folder it loads into (a policy's new- folder,
 * the global instance's and the guard's tmp- folders) gets a map of the
 * instance's own shape planted in it while lsmctl, stopped, is between
 * the folder's mkdir and the load.
 */
#include <bpf/bpf.h>
#include <dirent.h>

#include "lab_test.h"

#define PIN_ROOT	"/sys/fs/bpf/lsmlab"
#define CG		"pin-plant"

static struct lab_policy plain, guarded;

/* What to plant: map @map, in the folder lsmctl makes whose name begins with @prefix. */
struct plant {
	const char *what;
	const char *prefix;
	const char *map;
	const char *committed;	/* where the map is once applied, for its shape */
	struct lab_policy *policy;
};

/* The shape of the map pinned at @path: 0, or the errno. */
static int map_shape(const char *path, struct bpf_map_info *info)
{
	__u32 len = sizeof(*info);
	int fd = bpf_obj_get(path), rc;

	if (fd < 0)
		return errno;
	memset(info, 0, sizeof(*info));
	rc = bpf_obj_get_info_by_fd(fd, info, &len) ? errno : 0;
	close(fd);
	return rc;
}

/* Nothing under PIN_ROOT but the events ring: true when so. */
static bool pins_empty(void)
{
	DIR *d = opendir(PIN_ROOT);
	struct dirent *de;
	bool empty = true;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "events")) {
			tap_note("left in " PIN_ROOT ": %s", de->d_name);
			empty = false;
		}
	if (d)
		closedir(d);
	return empty;
}

/*
 * Wait for a folder named @prefix... under PIN_ROOT while @pid runs: its
 * name in @name, or false. The lab's kernels have no inotify: the folder
 * is looked for again and again, lsmctl's load taking far longer than a
 * look (it loads the kernel's BTF first).
 */
static bool wait_folder(pid_t pid, const char *prefix, char *name, size_t len)
{
	struct dirent *de;
	bool found = false;
	siginfo_t info;
	DIR *d;

	for (;;) {
		info.si_pid = 0;	/* still running: waitid() leaves it 0 */
		if (found || waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) || info.si_pid)
			break;
		d = opendir(PIN_ROOT);
		while (d && !found && (de = readdir(d)))
			if (!strncmp(de->d_name, prefix, strlen(prefix))) {
				snprintf(name, len, "%s", de->d_name);
				found = true;
			}
		if (d)
			closedir(d);
	}
	return found;
}

/*
 * lsmctl apply, with a map of @shape planted as @p->map in the folder
 * it makes: whether the plant went in before lsmctl pinned its own.
 */
static bool apply_planted(struct lab_cmd *c, const struct plant *p,
			  const struct bpf_map_info *shape)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = shape->map_flags);
	char cg[256], folder[256], path[512];
	const char *argv[] = { LSMCTL, "apply", p->policy->path, "--cgroup", cg,
			       "--backend", lab_backend, NULL };
	bool planted = false;
	int fd;

	cg_path(cg, sizeof(cg), CG);
	if (cmd_start(c, argv)) {
		c->status = -1;
		return false;
	}
	if (wait_folder(c->pid, p->prefix, folder, sizeof(folder))) {
		kill(c->pid, SIGSTOP);
		fd = bpf_map_create(shape->type, "planted", shape->key_size, shape->value_size,
				    shape->max_entries, &opts);
		snprintf(path, sizeof(path), PIN_ROOT "/%s/%s", folder, p->map);
		planted = fd >= 0 && !bpf_obj_pin(fd, path);
		if (!planted)
			tap_note("planting %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		kill(c->pid, SIGCONT);
	} else {
		tap_note("no %s folder seen while lsmctl ran", p->prefix);
	}
	cmd_wait(c);
	return planted;
}

static void attack(const struct plant *p)
{
	struct bpf_map_info shape;
	struct lab_cmd c;
	int rc;

	/* the map's shape, from the same policy applied as it should be */
	rc = lsmctl_apply(&c, p->policy, CG);
	if (rc)
		note_cmd(&c);
	rc = rc ? -1 : map_shape(p->committed, &shape);
	lsmctl_detach(&c, CG);
	if (rc) {
		tap_result(0, "%s: the shape of %s (%s)", p->what, p->committed, errname(rc));
		return;
	}
	if (!pins_empty()) {
		tap_result(0, "%s: no pins before the attack", p->what);
		return;
	}

	rc = apply_planted(&c, p, &shape);
	tap_result(rc, "%s: a %s map planted in lsmctl's %s folder before the load", p->what,
		   p->map, p->prefix);
	tap_result(c.status != 0 && strstr(c.err, "File exists"),
		   "%s: apply fails on the planted map (status %d), not reusing it", p->what,
		   c.status);
	if (c.status == 0 || !strstr(c.err, "File exists"))
		note_cmd(&c);
	tap_result(pins_empty(), "%s: the failed apply leaves no pin", p->what);
	if (c.status == 0)
		lsmctl_detach(&c, CG);

	/* control: nothing planted, the same apply works */
	rc = lsmctl_apply(&c, p->policy, CG);
	tap_result(rc == 0, "%s: control: the same apply, nothing planted, works", p->what);
	if (rc)
		note_cmd(&c);
	lsmctl_detach(&c, CG);
}

static int pin_plant(void)
{
	const bool global = !strcmp(lab_backend, "global");
	char cg_id_dir[256], cg[256];
	struct plant plants[] = {
		{
			.what = "the policy's own maps",
			.prefix = global ? "tmp-global-" : "new-",
			.map = global ? "policies" : "confs",
			.committed = global ? PIN_ROOT "/global/policies" : cg_id_dir,
			.policy = &plain,
		}, {
			.what = "the guard's maps",
			.prefix = "tmp-guard-",
			.map = "guarded",
			.committed = PIN_ROOT "/guard/guarded",
			.policy = &guarded,
		},
	};
	struct stat st;
	size_t i;

	cg_path(cg, sizeof(cg), CG);
	if (cgroup_make(CG) < 0 || stat(cg, &st))
		tap_bail("make cgroup " CG);
	if (make_file("/lab/pin-plant-secret"))
		tap_bail("make /lab/pin-plant-secret");
	snprintf(cg_id_dir, sizeof(cg_id_dir), PIN_ROOT "/cg-%llu/confs",
		 (unsigned long long)st.st_ino);
	if (write_policy(&plain, "/tmp", "pp", "plain",
			 "self_protection: off\n"
			 "rules:\n"
			 "  - files: /lab/pin-plant-secret\n"
			 "    access: read\n"
			 "    action: deny\n") ||
	    write_policy(&guarded, "/tmp", "pp", "guarded",
			 "rules:\n"
			 "  - files: /lab/pin-plant-secret\n"
			 "    access: read\n"
			 "    action: deny\n"))
		tap_bail("write the policies");
	for (i = 0; i < ARRAY_SIZE(plants); i++)
		attack(&plants[i]);
	cgroup_remove(CG);
	return tap_exit();
}

int main(int argc, char **argv)
{
	return run_backends(argc, argv, "pin-plant", pin_plant);
}
