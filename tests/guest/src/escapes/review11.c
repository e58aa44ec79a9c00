// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the eleventh review's (issue #24 item 11, read from the code
 * and 6.1's source), a file with capabilities made outside. The guard
 * judges a setuid or setgid file by its mode (mode_privileged()), and
 * 6.1's BPF cannot read security.capability: such a file's mode may be
 * widened, and its bytes written through a shared mapping, which keeps
 * the capabilities (a write() strips them, file_remove_privs()). The
 * guard now notes every regular file a guarded task changes the mode,
 * owner or ACL of, links, moves or maps shared and writable (touch()),
 * and refuses on bprm_creds_from_file any exec that gains privilege
 * from one, whoever runs it.
 *
 * The runner, outside, copies bpftool and gives the copy CAP_SYS_ADMIN
 * (permitted and effective), as Debian gives ping cap_net_raw; nobody
 * (in the root cgroup) then runs it, before and after each attempt:
 * - chmod() 0755 of the copy kept 0700 (nobody could not run it): the
 *   chmod passes (a regular file of a data file system), the exec of
 *   the capabilities by nobody is refused after it;
 * - a shared writable mapping of the copy made 0755 outside (nobody ran
 *   it with its capabilities before): mapped, nothing written, the exec
 *   by nobody is refused after it.
 * Each with a sibling's control, where nobody's exec after the same
 * step still gets the capabilities (the sibling is not guarded), and
 * an exec by nobody of an untouched copy still works after both.
 * And devtmpfs, which has tmpfs's magic number (a data file system to
 * fs_writable()): chmod() 0777 of a folder of /dev made outside, which
 * would let a user outside replace what a service keeps there (its
 * socket, /dev/log), is refused; the guard tells it by its type's name.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/xattr.h>

#include "escapes.h"

#define R11_DIR		"/tmp/lab-r11"
#define R11_CAP		R11_DIR "/bpftool-cap"
#define R11_UNTOUCHED	R11_DIR "/bpftool-cap-untouched"
#define R11_DEVDIR	"/dev/lab-r11"	/* a service's folder in devtmpfs */

/* A copy of bpftool at @path, mode @mode, with CAP_SYS_ADMIN; 0 or errno. */
static int make_cap_copy(const char *path, mode_t mode)
{
	struct vfs_cap_data cap = { 0 };

	unlink(path);
	if (copy_file(BPFTOOL, path, 0755) || chmod(path, mode))
		return errno ?: BROKEN;
	cap.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE;
	cap.data[0].permitted = 1U << CAP_SYS_ADMIN;
	return setxattr(path, "security.capability", &cap, sizeof(cap), 0) ? errno : 0;
}

/* As nobody: run @arg "prog show"; 0 when it listed programs, else the exec's errno or 1. */
static int n_run(const void *arg)
{
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(arg, "bpftool", "prog", "show", (char *)NULL);
		_exit(errno);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return BROKEN;
	return WEXITSTATUS(status) == 0 ? 0 : WEXITSTATUS(status) == EPERM ? EPERM : 1;
}

static int p_chmod(const void *arg)
{
	(void)arg;
	return chmod(R11_CAP, 0755) ? errno : 0;
}

static int p_map(const void *arg)
{
	int fd = open(R11_CAP, O_RDWR | O_CLOEXEC), err = 0;
	void *p;

	(void)arg;
	if (fd < 0)
		return errno;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		err = errno;
	else
		munmap(p, 4096);
	close(fd);
	return err;
}

static int p_devdir_chmod(const void *arg)
{
	(void)arg;
	return chmod(R11_DEVDIR, 0777) ? errno : 0;
}

struct touching {
	const char *what;
	probe_fn step;
	mode_t mode;		/* the copy's, made outside */
};

/*
 * The copy made; in the sibling the step, then nobody's exec must work
 * (the control); the copy made again; inside the step must work, then
 * nobody's exec must be refused (EPERM).
 */
static void touched_then_run(const char *m, const struct touching *t)
{
	int err, rc;

	err = make_cap_copy(R11_CAP, t->mode);
	if (err) {
		tap_result(0, "give a copy of bpftool CAP_SYS_ADMIN outside: %s", errname(err));
		return;
	}
	rc = probe_pid(cg.ctl, t->step, NULL, NULL);
	tap_result(rc == 0 && as_nobody(n_run, R11_CAP) == 0,
		   "control: %s in %s, then nobody outside runs it with CAP_SYS_ADMIN "
		   "(step %s)", t->what, cg.ctl, errname(rc));
	err = make_cap_copy(R11_CAP, t->mode);
	if (err)
		return;
	rc = probe_pid(m, t->step, NULL, NULL);
	tap_result(rc == 0, "inside %s: %s works (got %s)", m, t->what, errname(rc));
	rc = as_nobody(n_run, R11_CAP);
	tap_result(rc == EPERM, "held: nobody outside runs the file with capabilities "
		   "after %s inside: exec refused (got %s)", t->what, rc ? errname(rc) : "success");
	record(t->what, rc == EPERM ? "held (EPERM at exec)" : "ESCAPED",
	       "bprm_creds_from_file: privilege from a file a guarded task touched");
	unlink(R11_CAP);
}

void test_review11(void)
{
	static const struct touching steps[] = {
		{ "chmod() 0755 a 0700 copy of bpftool with CAP_SYS_ADMIN made outside",
		  p_chmod, 0700 },
		{ "a shared writable mapping of a 0755 copy of bpftool with CAP_SYS_ADMIN "
		  "made outside", p_map, 0755 },
	};
	const char *m = cg.main;
	size_t i;
	int err;

	tap_note("--- a file with capabilities made outside (review 11)");
	if (mkdir(R11_DIR, 0755) && errno != EEXIST) {
		tap_result(0, "make %s: %s", R11_DIR, strerror(errno));
		return;
	}
	if (access(BPFTOOL, X_OK)) {
		skip(steps[0].what, "no " BPFTOOL);
		rmdir(R11_DIR);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(steps); i++)
		touched_then_run(m, &steps[i]);
	if (mkdir(R11_DEVDIR, 0755) && errno != EEXIST) {
		tap_result(0, "make %s: %s", R11_DEVDIR, strerror(errno));
	} else {
		attempt(m, HOLD, true, "chmod() 0777 a folder of devtmpfs made outside (" R11_DEVDIR ")",
			"devtmpfs holds the machine's nodes and services' sockets: not a data file "
			"system to attrs_movable()", p_devdir_chmod, NULL);
		rmdir(R11_DEVDIR);
	}
	err = make_cap_copy(R11_UNTOUCHED, 0755);
	tap_result(!err && as_nobody(n_run, R11_UNTOUCHED) == 0,
		   "an untouched copy with CAP_SYS_ADMIN still runs for nobody (%s)", errname(err));
	unlink(R11_UNTOUCHED);
	rmdir(R11_DIR);
}
