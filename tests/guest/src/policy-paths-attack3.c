// SPDX-License-Identifier: GPL-2.0
/*
 * Rules by path (issue #14), third review: ways through the second
 * review's fixes, and what they broke, each asserted as the engine
 * gives it now (R1, M1 fixed; W1 as loader/POLICY.md documents it).
 *
 *   policy-paths-attack3 [--backend cgroup|global]
 *
 * The race (R1) needs two guest CPUs (CPUS=2): on one, nothing runs
 * between the engine's read of a name's length and of its bytes.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "lab_test.h"

#define NLEN 64
#define PLEN 192
#define RACE_SECONDS 5	/* under LAB_PROBE_TIMEOUT; a tear needs a second CPU, not time */

static struct {
	char a[NLEN], b[NLEN];	/* the policies on a; b is the sibling */
} cg;

static struct {
	char dir[NLEN], policies[PLEN];
	/* R1: data/allowed read-allowed under default: deny; data/secret not */
	char data[PLEN], allowed[PLEN], secret[PLEN], p7[PLEN], q8[PLEN];
	/* M1: home/STAR/.ssh and below denied; home/notes a plain file */
	char home[PLEN], ssh_id[PLEN], notes[PLEN], notes2[PLEN];
	/* W1: exec of bin and below denied, bin/tool allowed by name */
	char bin[PLEN], tool[PLEN], evil[PLEN];
} f;

static struct lab_policy race_pol, mglob_pol, tool_pol;

static void make_names(void)
{
	const char *d = f.dir;

	snprintf(cg.a, sizeof(cg.a), "ppa3-%s-a", lab_backend);
	snprintf(cg.b, sizeof(cg.b), "ppa3-%s-b", lab_backend);
	snprintf(f.dir, sizeof(f.dir), "/tmp/ppa3-%s", lab_backend);
	snprintf(f.policies, sizeof(f.policies), "%s/policies", d);
	snprintf(f.data, sizeof(f.data), "%s/data", d);
	snprintf(f.allowed, sizeof(f.allowed), "%s/data/allowed", d);
	snprintf(f.secret, sizeof(f.secret), "%s/data/secret", d);
	/* the same length as "allowed", and "allowed" and one byte more */
	snprintf(f.p7, sizeof(f.p7), "%s/data/ppppppp", d);
	snprintf(f.q8, sizeof(f.q8), "%s/data/allowedZ", d);
	snprintf(f.home, sizeof(f.home), "%s/home", d);
	snprintf(f.ssh_id, sizeof(f.ssh_id), "%s/home/bob/.ssh/id", d);
	snprintf(f.notes, sizeof(f.notes), "%s/home/notes", d);
	snprintf(f.notes2, sizeof(f.notes2), "%s/home/notes2", d);
	snprintf(f.bin, sizeof(f.bin), "%s/bin", d);
	snprintf(f.tool, sizeof(f.tool), "%s/bin/tool", d);
	snprintf(f.evil, sizeof(f.evil), "%s/bin/evil", d);
}

static int prepare_files(void)
{
	char dirs[3][PLEN];
	size_t i;

	if ((mkdir(f.dir, 0755) && errno != EEXIST) ||
	    mount("ppa3-tmpfs", f.dir, "tmpfs", 0, "mode=0755"))
		return errno;
	snprintf(dirs[0], PLEN, "%s/home/bob", f.dir);
	snprintf(dirs[1], PLEN, "%s/home/bob/.ssh", f.dir);
	snprintf(dirs[2], PLEN, "%s", f.bin);
	if (mkdir(f.policies, 0755) || mkdir(f.data, 0755) || mkdir(f.home, 0755))
		return errno;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755))
			return errno;
	return put_str(f.allowed, "allowed\n", 0644) ?: put_str(f.secret, "secret\n", 0644) ?:
	       put_str(f.ssh_id, "key\n", 0600) ?: put_str(f.notes, "notes\n", 0644) ?:
	       put_str(f.evil, evil_script, 0755) ?: copy_file(BUSYBOX, f.tool, 0755);
}

/* R1: an allow-list of reads, one name in it. */
static int write_race_policy(void)
{
	return write_policy(&race_pol, f.policies, "ppa3", "race",
		"default: deny\n"
		"rules:\n"
		"  - files: %s\n"
		"    access: read\n"
		"    action: allow\n",
		f.allowed);
}

/* M1: a '*' middle component. */
static int write_mglob_policy(void)
{
	return write_policy(&mglob_pol, f.policies, "ppa3", "mglob",
		"rules:\n"
		"  - files: %s/*/.ssh/**\n"
		"    access: read\n"
		"    action: deny\n",
		f.home);
}

/* W1: an exec allowed by name in a denied subtree (the second review's, no write rule). */
static int write_tool_policy(void)
{
	return write_policy(&tool_pol, f.policies, "ppa3", "tool",
		"rules:\n"
		"  - exec: %1$s/tool\n"
		"    action: allow\n"
		"  - exec: %1$s/**\n"
		"    action: deny\n",
		f.bin);
}

/* --- probes ---------------------------------------------------------------- */


/* The CPUs the calling task may run on. */
static int cpus(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	return sched_getaffinity(0, sizeof(set), &set) ? 0 : CPU_COUNT(&set);
}

/* The calling task on CPU @cpu alone, when there are two (the race's two sides). */
static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Rename @a to @b and back, for ever (the race's other CPU). */
static void renamer(const char *a, const char *b)
{
	pin_to(1);
	for (;;) {
		rename(a, b);
		rename(b, a);
	}
}

/*
 * R1: secret hard-linked at ppppppp (no rule names either), reopened
 * through /proc/self/fd while another task renames ppppppp to allowedZ
 * and back. match_name() reads d_name.len, then the bytes (read_name()):
 * a length read before the rename's copy_name() and the bytes after it
 * give "allowed", 7 bytes of "allowedZ", the allowed name. 0 when a
 * reopen read the secret; else the last reopen's errno.
 */
static int probe_race(const void *arg)
{
	char self[64], buf[16];
	int fd, rfd, err = EPERM, tries = 0;
	time_t end = time(NULL) + RACE_SECONDS;
	pid_t pid;
	ssize_t n;

	(void)arg;
	if (link(f.secret, f.p7))
		return errno;
	fd = open(f.p7, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		unlink(f.p7);
		return err;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	pid = fork();
	if (pid < 0)
		return errno;
	if (!pid)
		renamer(f.p7, f.q8);
	pin_to(0);
	while (time(NULL) < end) {
		tries++;
		rfd = open(self, O_RDONLY | O_CLOEXEC);
		if (rfd < 0) {
			err = errno;
			continue;
		}
		n = read(rfd, buf, sizeof(buf) - 1);
		close(rfd);
		buf[n > 0 ? n : 0] = '\0';
		if (!strcmp(buf, "secret\n")) {
			err = 0;
			break;
		}
		err = EIO;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	tap_note("race: %d reopens, the last %s", tries, errname(err));
	close(fd);
	unlink(f.p7);
	unlink(f.q8);
	return err;
}

/* M1: rename a plain file directly in home/ (the '*' level) and back. */
static int probe_rename_notes(const void *arg)
{
	(void)arg;
	if (rename(f.notes, f.notes2))
		return errno;
	return rename(f.notes2, f.notes) ? errno : 0;
}


static int probe_run_evil(const void *path)
{
	return run_evil(path);
}

/*
 * W1: no new file, no link, no rename: the attacker's program written
 * into the allowed file itself (O_TRUNC), run by the allowed name.
 */
static int probe_overwrite_tool(const void *arg)
{
	(void)arg;
	return put_str(f.tool, evil_script, 0755) ?: run_evil(f.tool);
}

/* Outside, after each W1 probe: the tool as the service outside installs it. */
static void reinstall_tool(void)
{
	char tmp[PLEN + 8];

	snprintf(tmp, sizeof(tmp), "%s.new", f.tool);
	if (copy_file(BUSYBOX, tmp, 0755) || rename(tmp, f.tool))
		tap_note("reinstall %s: %s", f.tool, strerror(errno));
}



static void test_race(void)
{
	apply_tap(&race_pol, cg.a);
	expect_path(cg.a, cg.b, "read data/allowed (allowed by name)", 0, probe_read, f.allowed);
	expect_path(cg.a, cg.b, "read data/secret (default: deny)", EPERM, probe_read, f.secret);
	expect_path(cg.a, cg.b, "R1: link secret at ppppppp, "
		    "reopen it via /proc/self/fd while renaming it to allowedZ and back (a torn "
		    "length/name read gives \"allowed\")", EPERM, probe_race, NULL);
	detach_tap(cg.a);
}

static void test_mglob(void)
{
	apply_tap(&mglob_pol, cg.a);
	expect_path(cg.a, cg.b, "read home/bob/.ssh/id (home/*/.ssh/** denied)", EPERM, probe_read,
		    f.ssh_id);
	expect_path(cg.a, cg.b, "M1: rename home/notes, a plain file, and "
		    "back (no file is below it)", 0, probe_rename_notes, NULL);
	detach_tap(cg.a);
}

static void test_write(void)
{
	apply_tap(&tool_pol, cg.a);
	expect_path(cg.a, cg.b, "exec bin/evil, a program of its own (bin/** denied)", EPERM,
		    probe_run_evil, f.evil);
	probe_after = reinstall_tool;
	/* W1: an exec allow names a file, not its bytes: POLICY.md says to deny writes */
	expect_errno(cg.a, 0, "W1: write a program of its own into bin/tool (exec allowed by "
		     "name, no write rule), run it by that name", probe_overwrite_tool, NULL);
	probe_after = NULL;
	detach_tap(cg.a);
}

static void cleanup(void)
{
	const char *const cgroups[] = { cg.a, cg.b };
	int left;

	left = cgroups_remove(cgroups, ARRAY_SIZE(cgroups));
	tap_result(!left, "the test's cgroups are removed (%d left)", left);
	umount2(f.dir, MNT_DETACH);
}

static int policy_paths_attack3(void)
{
	const char *const cgroups[] = { cg.a, cg.b };
	int err;

	make_names();
	if (cgroup_enter(""))
		tap_bail("join the root cgroup: %s", strerror(errno));
	err = prepare_files();
	if (err)
		tap_bail("prepare %s: %s", f.dir, errname(err));
	if (write_race_policy() || write_mglob_policy() || write_tool_policy())
		tap_bail("write the policies to %s: %s", f.policies, strerror(errno));
	if (cgroups_make(cgroups, ARRAY_SIZE(cgroups)))
		tap_bail("create the test cgroups: %s", strerror(errno));
	tap_note("guest CPUs this task may run on: %d (R1 needs 2)", cpus());
	test_race();
	test_mglob();
	test_write();
	cleanup();
	return tap_exit();
}

int main(int argc, char **argv)
{
	return run_backends(argc, argv, "policy-paths-attack3", policy_paths_attack3);
}
