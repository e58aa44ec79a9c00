// SPDX-License-Identifier: GPL-2.0
/*
 * Rules by path (issue #14): a files or exec rule names a path, and
 * covers whatever file is at it, put there after apply by a process
 * outside the cgroup too: the sed -i case (a new file renamed over the
 * name), a file deleted and made again, a file made after apply at a
 * name that did not exist, a glob in the last component, and '*' as a
 * middle component (/home/'*'/.ssh/'**', a home made after apply too), and
 * a filesystem mounted below a denied DIR/'**' after apply. What
 * holds for a hard link and a bind mount, and what 'match: inode'
 * still follows. Each denial with its control from a sibling cgroup.
 *
 *   policy-paths [--backend cgroup|global]
 *
 * Every probe runs in a child that joins a cgroup and exits with the
 * errno of what it tried (0: it worked).
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include <sys/sysmacros.h>

#include "lab_test.h"

#define NLEN 64
#define PLEN 128

static struct {
	char a[NLEN], b[NLEN];	/* the policy on a; b is the sibling */
	char c[NLEN];		/* '*' middle components alone (test_mglob_alone()) */
} cg;

/* The files the rules name, on a tmpfs of the test's own. */
static struct {
	char dir[NLEN], policies[PLEN], etc[PLEN], keys[PLEN], bin[PLEN], work[PLEN];
	char secret[PLEN], edited[PLEN], edited_tmp[PLEN], recreated[PLEN], later[PLEN];
	/* names of 32 bytes or more: kept outside the dentry, read another way */
	char long_secret[PLEN], long_other[PLEN];
	char pinned[PLEN], pinned_tmp[PLEN];
	char key_old[PLEN], key_new[PLEN], key_pub[PLEN];
	char tool[PLEN], tool_tmp[PLEN];
	char outside_link[PLEN], bound[PLEN];
	/* '*' middle components: DIR/home/'*'/.ssh/'**' and DIR/srv/'*'/secret */
	char home[PLEN], alice[PLEN], alice_ssh[PLEN], alice_key[PLEN], alice_deep[PLEN];
	char alice_deep_key[PLEN], alice_other[PLEN], bob[PLEN], bob_ssh[PLEN], bob_key[PLEN];
	char srv[PLEN], app[PLEN], app_secret[PLEN], app_public[PLEN], new_app[PLEN];
	char new_secret[PLEN];
	/* DIR/data/'**': a tmpfs mounted at data/mnt after apply, and its file */
	char data[PLEN], data_mnt[PLEN], mounted_file[PLEN];
} f;

static struct lab_policy pol;

/* '*' middle components: DIR/home/'*'/.ssh/'**' and DIR/srv/'*'/secret */
static const char mglob_rules[] =
	"  - files: %1$s/home/*/.ssh/**\n"
	"    access: read\n"
	"    action: deny\n"
	"  - files: %1$s/srv/*/secret\n"
	"    access: read\n"
	"    action: deny\n";

static void make_names(void)
{
	const char *d = f.dir;

	snprintf(cg.a, sizeof(cg.a), "pp-%s-a", lab_backend);
	snprintf(cg.b, sizeof(cg.b), "pp-%s-b", lab_backend);
	snprintf(cg.c, sizeof(cg.c), "pp-%s-c", lab_backend);
	snprintf(f.dir, sizeof(f.dir), "/tmp/pp-%s", lab_backend);
	snprintf(f.policies, sizeof(f.policies), "%s/policies", d);
	snprintf(f.etc, sizeof(f.etc), "%s/etc", d);
	snprintf(f.keys, sizeof(f.keys), "%s/keys", d);
	snprintf(f.bin, sizeof(f.bin), "%s/bin", d);
	snprintf(f.work, sizeof(f.work), "%s/work", d);
	snprintf(f.secret, sizeof(f.secret), "%s/etc/secret", d);
	snprintf(f.long_secret, sizeof(f.long_secret), "%s/etc/%s", d,
		 "a-secret-whose-name-is-longer-than-32-bytes");
	snprintf(f.long_other, sizeof(f.long_other), "%s/etc/%s", d,
		 "another-name-that-is-longer-than-32-bytes");
	snprintf(f.edited, sizeof(f.edited), "%s/etc/edited", d);
	snprintf(f.edited_tmp, sizeof(f.edited_tmp), "%s/etc/.edited.tmp", d);
	snprintf(f.recreated, sizeof(f.recreated), "%s/etc/recreated", d);
	snprintf(f.later, sizeof(f.later), "%s/etc/later", d);
	snprintf(f.pinned, sizeof(f.pinned), "%s/etc/pinned", d);
	snprintf(f.pinned_tmp, sizeof(f.pinned_tmp), "%s/etc/.pinned.tmp", d);
	snprintf(f.key_old, sizeof(f.key_old), "%s/keys/old.key", d);
	snprintf(f.key_new, sizeof(f.key_new), "%s/keys/new.key", d);
	snprintf(f.key_pub, sizeof(f.key_pub), "%s/keys/new.pub", d);
	snprintf(f.tool, sizeof(f.tool), "%s/bin/tool", d);
	snprintf(f.tool_tmp, sizeof(f.tool_tmp), "%s/bin/.tool.tmp", d);
	snprintf(f.outside_link, sizeof(f.outside_link), "%s/work/edited-link", d);
	snprintf(f.bound, sizeof(f.bound), "%s/work/bound", d);
	snprintf(f.home, sizeof(f.home), "%s/home", d);
	snprintf(f.alice, sizeof(f.alice), "%s/home/alice", d);
	snprintf(f.alice_ssh, sizeof(f.alice_ssh), "%s/home/alice/.ssh", d);
	snprintf(f.alice_key, sizeof(f.alice_key), "%s/home/alice/.ssh/id", d);
	snprintf(f.alice_deep, sizeof(f.alice_deep), "%s/home/alice/.ssh/old", d);
	snprintf(f.alice_deep_key, sizeof(f.alice_deep_key), "%s/home/alice/.ssh/old/key", d);
	snprintf(f.alice_other, sizeof(f.alice_other), "%s/home/alice/other", d);
	snprintf(f.bob, sizeof(f.bob), "%s/home/bob", d);
	snprintf(f.bob_ssh, sizeof(f.bob_ssh), "%s/home/bob/.ssh", d);
	snprintf(f.bob_key, sizeof(f.bob_key), "%s/home/bob/.ssh/id", d);
	snprintf(f.srv, sizeof(f.srv), "%s/srv", d);
	snprintf(f.app, sizeof(f.app), "%s/srv/app", d);
	snprintf(f.app_secret, sizeof(f.app_secret), "%s/srv/app/secret", d);
	snprintf(f.app_public, sizeof(f.app_public), "%s/srv/app/public", d);
	snprintf(f.new_app, sizeof(f.new_app), "%s/srv/new", d);
	snprintf(f.new_secret, sizeof(f.new_secret), "%s/srv/new/secret", d);
	snprintf(f.data, sizeof(f.data), "%s/data", d);
	snprintf(f.data_mnt, sizeof(f.data_mnt), "%s/data/mnt", d);
	snprintf(f.mounted_file, sizeof(f.mounted_file), "%s/data/mnt/file", d);
}

/* A file two levels below alice's .ssh, for the subtree's depth. */
static int put_deep_key(void)
{
	if (mkdir(f.alice_deep, 0700))
		return errno;
	return put_str(f.alice_deep_key, "before\n", 0600);
}

/* A tmpfs at DIR with the files that exist at apply ('later' does not). */
static int prepare_files(void)
{
	const char *const dirs[] = { f.policies, f.etc, f.keys, f.bin, f.work, f.home, f.alice,
				     f.alice_ssh, f.srv, f.app, f.data, f.data_mnt };
	const char *const files[] = { f.secret, f.long_secret, f.long_other, f.edited, f.recreated, f.pinned, f.key_old,
				      f.alice_key, f.alice_other, f.app_secret, f.app_public };
	size_t i;
	int err = 0;

	if ((mkdir(f.dir, 0755) && errno != EEXIST) ||
	    mount("pp-tmpfs", f.dir, "tmpfs", 0, "mode=0755"))
		return errno;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755))
			return errno;
	for (i = 0; i < ARRAY_SIZE(files) && !err; i++)
		err = put_str(files[i], "before\n", 0644);
	return err ?: put_deep_key() ?: copy_file(BUSYBOX, f.tool, 0755);
}

static int write_paths_policy(void)
{
	char mglob[512];

	snprintf(mglob, sizeof(mglob), mglob_rules, f.dir);
	return write_policy(&pol, f.policies, "pp", "paths",
		"rules:\n"
		"  - files: %1$s/etc/secret\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/etc/a-secret-whose-name-is-longer-than-32-bytes\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/etc/edited\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/etc/recreated\n"
		"    access: read\n"
		"    action: deny\n"
		/* no such file at apply: the rule waits for the name */
		"  - files: %1$s/etc/later\n"
		"    access: read\n"
		"    action: deny\n"
		"  - files: %1$s/etc/pinned\n"
		"    access: read\n"
		"    action: deny\n"
		"    match: inode\n"
		"  - files: %1$s/keys/*.key\n"
		"    access: read\n"
		"    action: deny\n"
		"  - exec: %1$s/bin/tool\n"
		"    action: deny\n"
		"%2$s"
		"  - files: %1$s/data/**\n"
		"    access: read\n"
		"    action: deny\n",
		f.dir, mglob);
}


/* --- what a process outside the cgroup does after apply ------------------ */

/* sed -i, an editor, dpkg: a new file written beside, renamed over the name. */
static int replace_by_rename(const char *path, const char *tmp)
{
	int err = put_str(tmp, "after\n", 0644);

	if (!err && rename(tmp, path))
		err = errno;
	return err;
}

static int change_files_outside(void)
{
	int err = replace_by_rename(f.edited, f.edited_tmp) ?:
		  replace_by_rename(f.pinned, f.pinned_tmp) ?:
		  (unlink(f.recreated) ? errno : 0) ?:
		  put_str(f.recreated, "after\n", 0644) ?:
		  put_str(f.later, "after\n", 0644) ?:
		  put_str(f.key_new, "after\n", 0644) ?:
		  put_str(f.key_pub, "after\n", 0644) ?:
		  copy_file(BUSYBOX, f.tool_tmp, 0755) ?:
		  /* a home and an app made after apply */
		  (mkdir(f.bob, 0755) || mkdir(f.bob_ssh, 0700) ? errno : 0) ?:
		  put_str(f.bob_key, "after\n", 0600) ?:
		  (mkdir(f.new_app, 0755) ? errno : 0) ?:
		  put_str(f.new_secret, "after\n", 0600) ?:
		  /* a filesystem mounted below the denied data/'**' */
		  (mount("pp-inner", f.data_mnt, "tmpfs", 0, "mode=0755") ? errno : 0) ?:
		  put_str(f.mounted_file, "after\n", 0644);

	if (!err && rename(f.tool_tmp, f.tool))
		err = errno;
	/* a hard link to the file put at the name after apply, and a bind mount of it */
	if (!err && link(f.edited, f.outside_link))
		err = errno;
	if (!err)
		err = put_str(f.bound, "", 0644);
	if (!err && mount(f.edited, f.bound, NULL, MS_BIND, NULL))
		err = errno;
	return err;
}

/* --- probes ---------------------------------------------------------------- */


/* busybox's true at @path: execve's errno, or true's status (0). */
static int probe_exec(const void *path)
{
	char *const argv[] = { "true", NULL };

	execv(path, argv);
	return errno;
}

/* A hard link to @path made inside, read: the link's or the open's errno. */
static int probe_link_inside(const void *path)
{
	char name[PLEN + 32];
	int err;

	snprintf(name, sizeof(name), "%s/link-%d", f.work, getpid());
	if (link(path, name))
		return errno;
	err = try_open(name);
	unlink(name);
	return err;
}

/*
 * '*' middle components with no other rule of their class (cgroup c's
 * policy, before a's, whose data/'**' is a subtree rule for read): the
 * global backend's short cut for files no rule names (no_say()) must
 * not take the files below an anchor, nor their directories.
 */
static void test_mglob_alone(void)
{
	struct lab_policy alone;
	struct lab_cmd c;
	char rules[512];

	snprintf(rules, sizeof(rules), mglob_rules, f.dir);
	if (write_policy(&alone, f.policies, "pp", "mglob", "rules:\n%s", rules)) {
		tap_result(0, "write the policy to %s: %s", f.policies, strerror(errno));
		return;
	}
	lsmctl_apply(&c, &alone, cg.c);
	tap_result(c.status == 0, "lsmctl apply %s ('*' middle components alone) to %s "
		   "(status %d)", alone.name, cg.c, c.status);
	if (c.status)
		note_cmd(&c);
	expect_path(cg.c, cg.b, "'*' middle components alone: read a key in home/alice/.ssh",
		    EPERM, probe_read, f.alice_key);
	expect_path(cg.c, cg.b, "'*' middle components alone: read srv/app/secret", EPERM,
		    probe_read, f.app_secret);
	expect_errno(cg.c, 0, "'*' middle components alone: read home/alice/other", probe_read,
		     f.alice_other);
	lsmctl_detach(&c, cg.c);
	tap_result(c.status == 0, "lsmctl detach %s (status %d)", cg.c, c.status);
}

/*
 * The event for a read of the file renamed over a denied name: the
 * object is its name, inode and directory's inode, the rule's text
 * holds the rule's path, and the task is named by its uid and its
 * executable (this program: the probe is a fork of it), in text and
 * in JSON.
 */
static void test_event(void)
{
	/* every event of a's until the timeout: the earlier denials come first */
	const char *argv[] = { LSMCTL, "events", "--cgroup", NULL, "--timeout", "5", NULL, NULL };
	char path[256], object[PLEN + 64], rule[PLEN + 32], task[128], task_json[128];
	struct stat file_st, dir_st, exe_st;
	struct lab_cmd c;
	int status;

	if (stat(f.edited, &file_st) || stat(f.etc, &dir_st) || stat("/proc/self/exe", &exe_st)) {
		tap_result(0, "stat %s, %s and /proc/self/exe: %s", f.edited, f.etc,
			   strerror(errno));
		return;
	}
	cg_path(path, sizeof(path), cg.a);
	argv[3] = path;
	cmd_start(&c, argv);
	sleep_ms(500);		/* time to reach the ring (what it missed comes anyway) */
	expect_errno(cg.a, EPERM, "read the replaced file, lsmctl events listening", probe_read,
		     f.edited);
	status = cmd_wait(&c);
	snprintf(object, sizeof(object), "object=edited(read,ino=%lu,dir=%lu)",
		 (unsigned long)file_st.st_ino, (unsigned long)dir_st.st_ino);
	snprintf(rule, sizeof(rule), "(files %s read deny)", f.edited);
	tap_result(status == 0 && strstr(c.out, object) && strstr(c.out, rule),
		   "lsmctl events names the name, its inode and its directory's, and the rule's "
		   "path: '%s', '%s' (status %d)", object, rule, status);
	if (status || !strstr(c.out, object) || !strstr(c.out, rule))
		note_cmd(&c);
	snprintf(task, sizeof(task), "uid=%u exe=policy-paths(dev=%u:%u,ino=%lu)",
		 (unsigned int)getuid(), major(exe_st.st_dev), minor(exe_st.st_dev),
		 (unsigned long)exe_st.st_ino);
	tap_result(status == 0 && strstr(c.out, task), "lsmctl events names the task's uid and "
		   "executable: '%s'", task);
	if (status || !strstr(c.out, task))
		note_cmd(&c);

	/* the same in JSON: what it queued for nobody comes first */
	argv[6] = "-j";
	cmd_start(&c, argv);
	sleep_ms(500);
	expect_errno(cg.a, EPERM, "read the replaced file, lsmctl events -j listening", probe_read,
		     f.edited);
	status = cmd_wait(&c);
	snprintf(task_json, sizeof(task_json), "\"uid\":%u,\"exe\":\"policy-paths\","
		 "\"exe_dev\":\"%u:%u\",\"exe_ino\":%lu}", (unsigned int)getuid(),
		 major(exe_st.st_dev), minor(exe_st.st_dev), (unsigned long)exe_st.st_ino);
	tap_result(status == 0 && strstr(c.out, task_json), "lsmctl events -j names the task's "
		   "uid and executable: '%s'", task_json);
	if (status || !strstr(c.out, task_json))
		note_cmd(&c);
}

static void test_paths(void)
{
	struct lab_cmd c;
	int err;

	test_mglob_alone();
	lsmctl_apply(&c, &pol, cg.a);
	tap_result(c.status == 0, "lsmctl apply %s (a rule on a missing name included) to %s "
		   "(status %d)", pol.name, cg.a, c.status);
	if (c.status) {
		/* the end of a verifier's log says why: lab_cmd keeps the start */
		char cmd[1024], path[256];
		const char *argv[] = { BUSYBOX, "sh", "-c", cmd, NULL };

		cg_path(path, sizeof(path), cg.a);
		snprintf(cmd, sizeof(cmd), LSMCTL " apply %s --cgroup %s --backend %s 2>&1 | "
			 "tail -n 25", pol.path, path, lab_backend);
		run_cmd(&c, argv);
		tap_note_lines("apply again", c.out);
	}
	expect_path(cg.a, cg.b, "read the denied file", EPERM, probe_read, f.secret);
	expect_path(cg.a, cg.b, "read a denied file of a 43-byte name (not in its dentry)", EPERM,
		    probe_read, f.long_secret);
	expect_errno(cg.a, 0, "read a file of a 41-byte name no rule names, beside it",
		     probe_read, f.long_other);
	expect_path(cg.a, cg.b, "read the file 'match: inode' names", EPERM, probe_read, f.pinned);
	expect_path(cg.a, cg.b, "read a file the glob *.key matches", EPERM, probe_read, f.key_old);
	expect_path(cg.a, cg.b, "exec the denied program", EPERM, probe_exec, f.tool);
	expect_path(cg.a, cg.b, "read a key in home/alice/.ssh (home/*/.ssh/**)", EPERM,
		    probe_read, f.alice_key);
	expect_path(cg.a, cg.b, "read a key two levels below home/alice/.ssh (home/*/.ssh/**)",
		    EPERM, probe_read, f.alice_deep_key);
	expect_path(cg.a, cg.b, "read srv/app/secret (srv/*/secret)", EPERM, probe_read,
		    f.app_secret);

	err = change_files_outside();
	tap_result(!err, "outside: rename new files over the names, delete and make one again, "
		   "make files at new names, link and bind-mount one (%s)", errname(err));

	expect_path(cg.a, cg.b, "read a file renamed over the name from outside (sed -i)", EPERM,
		    probe_read, f.edited);
	expect_path(cg.a, cg.b, "read a file deleted and made again from outside", EPERM,
		    probe_read, f.recreated);
	expect_path(cg.a, cg.b, "read a file made after apply at a name that did not exist", EPERM,
		    probe_read, f.later);
	expect_path(cg.a, cg.b, "read a file made after apply that the glob *.key matches", EPERM,
		    probe_read, f.key_new);
	expect_path(cg.a, cg.b, "exec a program renamed over the name from outside", EPERM,
		    probe_exec, f.tool);
	expect_path(cg.a, cg.b,
		    "read a bind mount of the replaced file (the engine sees its dentry)", EPERM,
		    probe_read, f.bound);
	expect_path(cg.a, cg.b,
		    "read the denied file through a hard link made inside (the inode at apply)",
		    EPERM, probe_link_inside, f.secret);
	expect_path(cg.a, cg.b, "read a key in a home made after apply (home/bob/.ssh)", EPERM,
		    probe_read, f.bob_key);
	expect_path(cg.a, cg.b, "read srv/new/secret, made after apply (srv/*/secret)", EPERM,
		    probe_read, f.new_secret);
	expect_path(cg.a, cg.b, "read a file on a tmpfs mounted below data/** after apply", EPERM,
		    probe_read, f.mounted_file);
	test_event();
	/* what rules by path do not cover, by design: POLICY.md */
	expect_errno(cg.a, 0, "read a file the glob does not match (new.pub)", probe_read,
		     f.key_pub);
	expect_errno(cg.a, 0, "read a hard link made outside to the replaced file (another name)",
		     probe_read, f.outside_link);
	expect_errno(cg.a, 0, "read the file renamed over a 'match: inode' rule's name "
		     "(another inode)", probe_read, f.pinned);
	expect_errno(cg.a, 0, "read home/alice/other (no .ssh in its path)", probe_read,
		     f.alice_other);
	expect_errno(cg.a, 0, "read srv/app/public (not the name srv/*/secret names)",
		     probe_read, f.app_public);
}

static void cleanup(void)
{
	const char *const cgroups[] = { cg.a, cg.b, cg.c };
	struct lab_cmd c;
	int left;

	lsmctl_detach(&c, cg.a);
	tap_result(c.status == 0, "lsmctl detach %s (status %d)", cg.a, c.status);
	expect_errno(cg.a, 0, "detached: read the denied file", probe_read, f.secret);
	left = cgroups_remove(cgroups, ARRAY_SIZE(cgroups));
	tap_result(!left, "the test's cgroups are removed (%d left)", left);
	umount2(f.bound, MNT_DETACH);
	umount2(f.data_mnt, MNT_DETACH);
	umount2(f.dir, MNT_DETACH);
}

static int policy_paths(void)
{
	const char *const cgroups[] = { cg.a, cg.b, cg.c };
	int err;

	make_names();
	if (cgroup_enter(""))
		tap_bail("join the root cgroup: %s", strerror(errno));
	err = prepare_files();
	if (err)
		tap_bail("prepare %s: %s", f.dir, errname(err));
	if (write_paths_policy())
		tap_bail("write the policy to %s: %s", f.policies, strerror(errno));
	if (cgroups_make(cgroups, ARRAY_SIZE(cgroups)))
		tap_bail("create the test cgroups: %s", strerror(errno));
	test_paths();
	cleanup();
	return tap_exit();
}

int main(int argc, char **argv)
{
	return run_backends(argc, argv, "policy-paths", policy_paths);
}
