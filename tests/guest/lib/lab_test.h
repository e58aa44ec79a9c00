/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest tests' one library (lab_test.c), linked into every guest
 * test binary: TAP lines, errno names and small file helpers, cgroups,
 * probes run inside a cgroup with expectations on their errno and
 * controls from a sibling, lsmctl as a subprocess, and the backend as a
 * fixture variant (each suite runs once per backend in one run).
 *
 * A probe is a function run in a child that first joins a cgroup; it
 * returns the errno of the step it tried (0 when it got through), or
 * LAB_BROKEN when it could not try at all.
 */
#ifndef LAB_TEST_H
#define LAB_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define CGROUP_ROOT	"/sys/fs/cgroup"
#define LSMCTL		"/lab/bin/lsmctl"
#define BUSYBOX		"/bin/busybox"

/* A probe's status when it could not try: no errno is that large. */
#define LAB_BROKEN	255
/* An expected outcome besides 0 and an errno: anything but EPERM. */
#define LAB_NOT_EPERM	(-2)

/* --- TAP ----------------------------------------------------------------- */

/* Put before every result line: the backend, for each run but the first. */
extern const char *tap_prefix;

__attribute__((format(printf, 2, 3)))
void tap_result(int pass, const char *fmt, ...);
/* A comment line: context for a reader of the console log. */
__attribute__((format(printf, 1, 2)))
void tap_note(const char *fmt, ...);
/* Each line of @text as a comment, after "@prefix: ". */
void tap_note_lines(const char *prefix, const char *text);
/* 1 when any result failed, else 0: main's exit status. */
int tap_exit(void);

/* Abort the suite with one failing line. */
#define tap_bail(...) \
	do { tap_result(0, __VA_ARGS__); return 1; } while (0)

/* --- errno and files ----------------------------------------------------- */

/* An errno's name ("success" for 0); LAB_BROKEN or -1: the probe failed. */
const char *errname(int err);
/* Write @len bytes to @path (existing) in a single write(): 0, or the errno. */
int write_file(const char *path, const void *buf, size_t len);
int write_str(const char *path, const char *s);
/* Read @path into @buf, NUL-terminated, no trailing newline: 0, or the errno. */
int read_str(const char *path, char *buf, size_t size);
/* The whole of file @path: a malloc()ed buffer, or NULL. */
void *slurp(const char *path, size_t *len);
/* The errno open(@path, O_RDONLY) fails with, 0 when it succeeds. */
int try_open(const char *path);
/* Create (or truncate) @path: 0, or the errno. */
int make_file(const char *path);
/* Write @len bytes to a new file @path, and to its disk: 0, or the errno. */
int put_file(const char *path, const void *buf, size_t len, mode_t mode);
int put_str(const char *path, const char *s, mode_t mode);
int copy_file(const char *from, const char *to, mode_t mode);
/* Drop @cap from the effective, permitted and inheritable sets. */
int drop_cap(int cap);
void sleep_ms(int ms);

/* --- children ------------------------------------------------------------ */

/* A child's exit status, 128 + the signal that killed it, or -1. */
int wait_child(pid_t pid);
/* Run @fn(@arg) in a child: what it returns, or -1 when it could not run. */
int in_child(int (*fn)(const void *), const void *arg);
/* Run @argv, wait for it: its exit status, 255 when execv() failed. */
int run(char *const argv[]);

/* --- cgroups (names relative to CGROUP_ROOT; "" is the root) -------------- */

void cg_path(char *buf, size_t len, const char *name);
/* Create (or reuse) cgroup @name: an O_DIRECTORY fd, or -1. */
int cgroup_make(const char *name);
/* Move this process into cgroup @name: 0 or -1. */
int cgroup_enter(const char *name);
/* Run @fn in a child that joins cgroup @name: what it returns, 255 on failure. */
int cgroup_run(const char *name, int (*fn)(void));
/* rmdir cgroup @name, waiting a little for its last tasks: 0 or -1. */
int cgroup_remove(const char *name);
/* Each of @names, created: 0 or -1. */
int cgroups_make(const char *const names[], size_t n);
/* Each of @names (children first), removed: how many are left. */
int cgroups_remove(const char *const names[], size_t n);

/* --- probes, expectations, controls --------------------------------------- */

typedef int (*probe_fn)(const void *arg);

/*
 * Run around every probe when set: what must happen outside first (a
 * suite sets it for a few probes), and what tidies up after each one.
 */
extern void (*probe_before)(void);
extern void (*probe_after)(void);

/* Seconds before a hung probe is killed (TCG is slow). */
#define LAB_PROBE_TIMEOUT	30

/*
 * Run @fn(@arg) in a child that first joins cgroup @name: what @fn
 * returns, LAB_BROKEN when the child could not join, died or hung. The
 * child's pid in *@pidp unless that is NULL (events name it).
 */
int probe_pid(const char *name, probe_fn fn, const void *arg, pid_t *pidp);
/* Is probe status @rc the outcome @want (0, an errno or LAB_NOT_EPERM)? */
bool outcome_is(int rc, int want);
/* "succeeds", "fails with EPERM", ...: @want in words. */
const char *outcome_name(int want);
/*
 * One TAP line: @what, run in cgroup @name, has outcome @want, with the
 * errno it got named. The probe's status.
 */
int expect_errno(const char *name, int want, const char *what, probe_fn fn, const void *arg);
/* The same, the probe's pid in *@pidp. */
int expect_errno_pid(const char *name, int want, const char *what, probe_fn fn,
		     const void *arg, pid_t *pidp);
/*
 * The control: @what works from the sibling cgroup @ctl, one TAP line.
 * Its status; ENOSYS (no such thing in this kernel) is a skip line.
 */
int control(const char *ctl, const char *what, probe_fn fn, const void *arg);
/* @what has outcome @inside in cgroup @name (expect_errno()), and works from @ctl (control()). */
void expect_path(const char *name, const char *ctl, const char *what, int inside, probe_fn fn,
		 const void *arg);
/* A probe: open(@path, O_RDONLY), the errno (try_open()). */
int probe_read(const void *path);
/* A program of an attacker's own, a script that exits LAB_EVIL_STATUS. */
#define LAB_EVIL_STATUS	42
extern const char evil_script[];
/* Run @path: 0 when evil_script ran, else execve's errno (or EIO). */
int run_evil(const char *path);

/* --- lsmctl --------------------------------------------------------------- */

/* A command run to its end: exit status (128 + signal, -1), its output. */
struct lab_cmd {
	int status;
	char out[16384];
	char err[4096];
	pid_t pid;
	int out_fd, err_fd;	/* memfds its output goes to */
};

/* Start @argv, stdin /dev/null, stdout and stderr kept: 0 or -1. */
int cmd_start(struct lab_cmd *c, const char *const argv[]);
/* Wait for a started command: its status, its output in @c. */
int cmd_wait(struct lab_cmd *c);
/* Run @argv to its end: its status, its output in @c. */
int run_cmd(struct lab_cmd *c, const char *const argv[]);
/* Run lsmctl with the NULL-terminated arguments that follow. */
__attribute__((sentinel))
int lsmctl(struct lab_cmd *c, ...);
/* The command's stdout and stderr as comments. */
void note_cmd(const struct lab_cmd *c);

/* A policy file: DIR/SHORT.yaml, named PREFIX-BACKEND-SHORT. */
struct lab_policy {
	char path[320];
	char name[64];
};

/* Write @p's file: its "name:" line, then @fmt. 0, or -1 with errno. */
__attribute__((format(printf, 5, 6)))
int write_policy(struct lab_policy *p, const char *dir, const char *prefix,
		 const char *short_name, const char *fmt, ...);
/* lsmctl apply @p --cgroup CGROUP --backend (this run's): the status. */
int lsmctl_apply(struct lab_cmd *c, const struct lab_policy *p, const char *cgroup);
/* lsmctl detach --cgroup CGROUP: the status. */
int lsmctl_detach(struct lab_cmd *c, const char *cgroup);
/* lsmctl_apply() and lsmctl_detach() as TAP lines (what lsmctl said, on a failure). */
void apply_tap(const struct lab_policy *p, const char *cgroup);
void detach_tap(const char *cgroup);

/* --- the backend, a fixture variant ---------------------------------------- */

/*
 * Does the kernel carry the lab's series (slot table, more lsm_cgroup
 * hook slots)? /init says, from the variant: not stock, nosec or debian.
 */
bool lab_series(void);
/* This run's backend: "cgroup" or "global". */
extern const char *lab_backend;
/*
 * 6.1 without the series (stock, Debian's) with the cgroup backend: lsm_cgroup programs have 10 hook
 * slots system-wide, so suites test the rule kinds that fit in them.
 */
extern bool lab_reduced;

/*
 * Run @suite once per backend, cgroup then global (those $LAB_BACKENDS,
 * the boot's lab.backends=, names, where it is set), each in a child of
 * its own, or only the backend "--backend NAME" names; the global run's
 * result lines start "global: ". @name is for the usage line. main's
 * exit status: 0 when every run passed.
 */
int run_backends(int argc, char **argv, const char *name, int (*suite)(void));

#endif /* LAB_TEST_H */
