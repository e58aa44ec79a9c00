/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Escapes: one policy on a cgroup, and root inside that cgroup trying
 * every way around it we know of. The policy denies reading a secret
 * file (an exact rule) and anything under a secret directory (a subtree
 * rule, DIR and below), executing a copy of busybox (and of bpftool,
 * and a script), connecting to port 25 over IPv4 and IPv6, and ptrace.
 *
 *   escapes [--backend cgroup|global]
 *
 * Without --backend it runs once on each backend, cgroup then global
 * (the global run's lines start "global: "). Each attack surface is a
 * file of its own here: cgroup.c (leaving the cgroup), files.c (opens,
 * links, renames, handles, passed descriptors, climbs), mount.c
 * (mounts and namespaces), exec.c (exec and the allow-list), net.c,
 * ptrace.c (another task's memory, /proc and descriptors), create.c
 * (the other doors to creating and writing), anchors.c (requests run
 * elsewhere, descriptors passed in, SIGIO's owner), review4.c (the
 * machine's kernel interfaces a capability reaches), review5.c (what the
 * scope allow-lists let through), review6.c (the scope checks of issue
 * #24's eleventh session), review7.c (the twelfth session's allow-lists:
 * TCP_REPAIR, the connector, raw ICMP's errors, vsock), review8.c (the
 * thirteenth session's socket_sendmsg: the compat entry's cmsgs), review9.c
 * (kernel objects shared with the outside off the guard's hooks: a file's
 * attributes that hand the machine to a user outside, the session's
 * autogroup, root's keyrings, locks), review10.c (around review9's
 * attribute allow-list: O_TMPFILE, a setuid file written or linked, a
 * serial port's node, a default ACL), review11.c (a file with capabilities
 * made outside, widened or mapped inside); harness.c runs and
 * records the attempts, fixture.c sets up and tears down.
 *
 * Each attempt is one TAP line that says what was tried and how it
 * went, after a control line showing the same operation working from a
 * sibling cgroup without a policy (so that no attempt passes because it
 * was broken to begin with):
 *
 *   ok - held: WHAT (EPERM)                  the policy held
 *   not ok - ESCAPED: WHAT                   it should have held
 *   ok - not held (documented limit): WHAT: WHY # TODO documented limit
 *   ok - not held (a limit POLICY.md does not name): WHAT: WHY # TODO limit
 *
 * A limit is what a policy of this engine cannot stop by design: the
 * suite prints it and does not fail on it. Two more policies show what
 * does stop some of them, or look closer at one rule kind: an exec
 * allow-list (default: deny, exec allowed under /bin and /lab) in a
 * second cgroup; in a third, a connect rule on family inet and cidr
 * 127.0.0.0/8 alone (IPv4-mapped IPv6 addresses, 0.0.0.0) and a bind
 * rule. A summary of every attempt and its result ends the output.
 *
 * A fourth policy, in a fourth cgroup, has the rules the other doors
 * to creating and writing need (issue #12): a files create deny on a
 * directory (O_TMPFILE, linkat of an O_TMPFILE), a write deny (O_TRUNC
 * on a read-only open), a read and write deny (open mode 3), under an
 * exec allow-list of the directory.
 *
 * Every policy has self-protection on (its own part takes no hook slot
 * but file_open). On stock 6.1 with the cgroup backend (10 lsm_cgroup
 * hook slots) the fourth policy is applied after the other three are
 * detached, its create rule alone needing 7 hooks.
 *
 * The files live on the ext4 scratch disk (/dev/vda) when there is
 * one, so that a second mount of the same filesystem and the raw block
 * device can be tried; on a tmpfs of the test's own otherwise.
 *
 * Every attempt runs in a child that joins the cgroup first and exits
 * with the errno of the step that failed, 0 when it got through (read
 * the secret, ran the program, reached port 25, attached), or BROKEN.
 */
#ifndef LAB_ESCAPES_H
#define LAB_ESCAPES_H

#include <linux/io_uring.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "lab_test.h"

#define BPFTOOL		"/usr/bin/bpftool"	/* dynamically linked, unlike busybox */
#define LDSO		"/lib64/ld-linux-x86-64.so.2"
#define SCRATCH_DISK	"/dev/vda"
#define YAMA_SCOPE	"/proc/sys/kernel/yama/ptrace_scope"
#define DROP_CACHES	"/proc/sys/vm/drop_caches"
#define ABYSS_DEPTH	70		/* directories below the secret dir: past LAB_MAX_DEPTH */

#define MARK		"ESC-SECRET:"	/* every secret file starts with it */
#define RAN_MARK	"ESC-RAN"	/* the denied busybox prints it, as echo */
#define PORT		25		/* connect: denied */
#define PORT_OTHER	26		/* connect: allowed */
#define PORT_BIND	2525		/* bind: denied in the v4 cgroup */
#define OUT_FD		100		/* the outsider holds the secret open here */
#define BROKEN		LAB_BROKEN	/* a probe's status: it could not try */

#define NLEN 64
#define DLEN 96
#define PLEN 160
#define BLEN 320

/* --- the fixture (fixture.c) ------------------------------------------------ */

/* The cgroups: the main policy's, the allow-list's, the v4 one, the control, the fourth. */
extern struct escapes_cgroups {
	char main[NLEN], list[NLEN], v4[NLEN], ctl[NLEN], more[NLEN];
} cg;

extern struct escapes_files {
	char mnt[NLEN];		/* the scratch disk or a tmpfs */
	char dir[DLEN];		/* mnt/esc-BACKEND: the tree */
	char m2[NLEN];		/* a second mount of the scratch disk */
	char secret[PLEN], secret_m2[BLEN], hl_before[PLEN];
	char vault[PLEN], vault_file[PLEN], vault_sub[PLEN], vault_deep[PLEN];
	char vault_script[PLEN], vault_movable[PLEN], vault_linkable[PLEN];
	char bin[PLEN], denied[PLEN], denied_dyn[PLEN], denied_sh[PLEN];
	char work[PLEN], bind_dir[PLEN], bind_file[PLEN], policies[PLEN];
	char bin_copy[NLEN];	/* a copy in /bin, which the allow-list allows */
	char abyss[PLEN + 2 * ABYSS_DEPTH + 16];	/* a secret ABYSS_DEPTH dirs below vault */
	char vault_handle[PLEN];	/* opened by handle, its dentry evicted */
	char ldso_copy[PLEN];	/* a copy of ld.so, exec denied; short: a PT_INTERP */
	char interp_dyn[PLEN];	/* bpftool, its PT_INTERP patched to ldso_copy */
	char read_denied[PLEN];	/* busybox, read denied and exec allowed */
	char nocreate[PLEN], wprot[PLEN], rwprot[PLEN];	/* the fourth policy's */
} f;

struct policy_file {
	struct lab_policy p;
	char cgroup[NLEN];
	bool applied;
};

extern struct policy_file pol_main, pol_list, pol_v4, pol_more;
extern bool on_disk;		/* the files are on /dev/vda, ext4 */
extern off_t raw_off;		/* where the secret's data is on /dev/vda */
extern pid_t outsider;		/* a task outside: ptrace target, fd server */
extern int srv_sock;		/* our end of the outsider's socketpair */
extern int l_tcp4, l_tcp6, l_udp4, l_udp6;	/* listeners on port 25 */

bool apply(struct policy_file *p);
void detach(struct policy_file *p);

/* --- running and recording attempts (harness.c) ----------------------------- */

enum kind {
	HOLD,	/* POLICY.md says the policy holds: EPERM, or the line fails */
	DOC,	/* a limit POLICY.md documents */
	GAP,	/* not held, and POLICY.md does not say either way */
};

/* A line for the summary at the end. */
void record(const char *what, const char *verdict, const char *why);
/*
 * One attempt, in cgroup @name, after its control when @ctl. @why: for
 * a limit, why the policy does not hold; for a hold, what holds it.
 */
void attempt_errno(const char *name, enum kind kind, int want, bool ctl,
		   const char *what, const char *why, probe_fn fn, const void *arg);
/* An attempt the policy denies with EPERM, as every denial of the engine. */
void attempt(const char *name, enum kind kind, bool ctl, const char *what,
	     const char *why, probe_fn fn, const void *arg);
void skip(const char *what, const char *why);
void summary(void);

/* --- what the probes share (plumbing.c) ------------------------------------ */

/* The outsider makes these, outside every policy, and passes them in. */
enum {
	REQ_SECRET = 'f',	/* the secret, opened for reading */
	REQ_UDP_CONNECTED = 'u',	/* UDP, connected to 127.0.0.1:25 */
	REQ_TCP_CONNECTED = 't',	/* TCP, connected to 127.0.0.1:25 */
	REQ_TCP_FRESH = 'n',	/* TCP, not connected */
	REQ_UDP_FRESH = 'd',	/* UDP, not connected */
	REQ_OWNED = 'o',	/* a UDP socket whose SIGIO owner is the outsider */
	REQ_PTY = 'p',		/* a pty's slave, its master kept by the outsider */
};

struct uring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	bool sqpoll;		/* its SQPOLL thread submits */
};

/* Another name for a file, made in the work directory and undone after. */
enum alias { ALIAS_SYMLINK, ALIAS_HARDLINK, ALIAS_RENAME };

void tmpname(char *buf, size_t len, const char *tag);
void rm_rf(const char *path);
int check_marker(const char *buf, ssize_t n);
int read_fd_marker(int fd);
int read_path(const char *path, int flags);
int alias_probe(const char *path, const char *below, enum alias how, probe_fn use);
int reopen_probe(const char *path, int flags, probe_fn use);
int send_fd(int sock, int fd);
int recv_fd(int sock);
void fill_addr(struct sockaddr_storage *ss, socklen_t *len, int family,
	       const char *addr, int port);
void outsider_main(int sock);
int ask_outsider(char req);
int listener_takes(int l, const struct sockaddr *sa, socklen_t len);
#define NOBODY	65534	/* the user outside every policy that review9.c on tries objects as */
int as_nobody(probe_fn fn, const void *arg);
int uring_init(struct uring *r);
int uring_init_flags(struct uring *r, unsigned int flags);
int uring_map(struct uring *r, int fd, const struct io_uring_params *params);
int uring_run(struct uring *r, const struct io_uring_sqe *sqe);
int run_prog(const char *path, int fd, char *const argv[], char *out, size_t len);
int prog_verdict(int status, const char *out, const char *marker);
int exec_verdict(const char *path, int fd);
int fill_fd(int fd, const char *from);

/* Probes more than one surface uses. */
int p_read(const void *path);
int p_exec(const void *path);
bool udp_arrived(int fd, const char *tag);	/* net.c */

/* --- the attack surfaces, each a file ------------------------------------ */

void test_leave(void);		/* cgroup.c */
void test_files(void);		/* files.c */
void test_climb(void);
void test_mounts(void);		/* mount.c */
void test_exec(void);		/* exec.c */
void test_exec_opens(void);
void test_allow_list(void);
void test_network(void);	/* net.c */
void test_elsewhere(void);	/* route.c */
void test_ptrace(void);		/* ptrace.c */
void test_more(void);		/* create.c */
void test_anchors(void);	/* anchors.c */
void test_review4(void);	/* review4.c */
void test_review5(void);	/* review5.c */
void test_review6(void);	/* review6.c */
void test_review7(void);	/* review7.c */
void test_review8(void);	/* review8.c */
void test_review9(void);	/* review9.c */
void test_review10(void);	/* review10.c */
void test_review11(void);	/* review11.c */
void climb_cleanup(void);

#endif /* LAB_ESCAPES_H */
