// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_cgroup programs keep 6.1's ABI whether they run through a shim on a
 * BPF trampoline (stock) or straight from BPF LSM's slot (the series):
 * a program's verdict holds in its cgroup and its descendants and nowhere
 * else, ALLOW_MULTI programs all run in order with bpf_set_retval() and
 * bpf_get_retval() carrying the errno, a child's override replaces its
 * parent's program, bpf_prog_query() lists the programs, a detached
 * program stops enforcing, the return value's slot after the arguments
 * reads 0, a BPF_LSM_MAC program on the same hook still
 * runs, and socket hooks follow the calling task's cgroup.
 */
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "lab_test.h"
#include "cgroup_native.skel.h"

#define DIR		"/tmp/cgnative"
#define DENY_FILE	DIR "/deny"
#define MULTI_FILE	DIR "/multi"
#define OVERRIDE_FILE	DIR "/override"
#define MAC_FILE	DIR "/mac"
#define RET_FILE	DIR "/ret"
#define DENY_PORT	4242

/* Cgroups: A (deny) with a child, M (multi), O (override) with a child, S (socket), C (control). */
static const char *const cgroups[] = {
	"cgn-a", "cgn-a/child", "cgn-m", "cgn-o", "cgn-o/child", "cgn-s", "cgn-c",
};

static int open_probe(const void *arg)
{
	return try_open(arg);
}

static unsigned long long ino_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/* bind() an AF_INET socket to DENY_PORT: 0, or the errno. */
static int bind_port(int fd)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(DENY_PORT),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};

	return bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ? errno : 0;
}

/* A socket made outside cgn-s, bound from inside it. */
static int bind_outside_socket(const void *arg)
{
	return bind_port(*(const int *)arg);
}

/* A socket made inside cgn-s, bound after leaving it for the root. */
static int bind_after_leaving(const void *arg)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)arg;
	if (fd < 0 || cgroup_enter(""))
		return LAB_BROKEN;
	return bind_port(fd);
}

static int bind_fresh_socket(const void *arg)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)arg;
	return fd < 0 ? LAB_BROKEN : bind_port(fd);
}

static int cg_fd(const char *name)
{
	char path[256];

	cg_path(path, sizeof(path), name);
	return open(path, O_RDONLY | O_DIRECTORY);
}

/* BPF trampolines in /proc/kallsyms ("bpf_trampoline_<key> [bpf]"), or -1. */
static int trampolines(void)
{
	char line[256];
	int n = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, " bpf_trampoline_") && strstr(line, "[bpf]");
	fclose(f);
	return n;
}

static void test_deny(struct cgroup_native *skel)
{
	int fd = cg_fd("cgn-a");
	struct bpf_link *link;

	link = bpf_program__attach_cgroup(skel->progs.deny_open, fd);
	close(fd);
	if (!link) {
		tap_result(0, "attach deny_open to cgn-a: %s", strerror(errno));
		return;
	}
	expect_errno("cgn-a", EPERM, "open in the cgroup", open_probe, DENY_FILE);
	expect_errno("cgn-a/child", EPERM, "open in a child cgroup (inherited)",
		     open_probe, DENY_FILE);
	control("cgn-c", "open in a sibling cgroup", open_probe, DENY_FILE);
	control("", "open in the root cgroup", open_probe, DENY_FILE);
	if (lab_series())
		tap_result(trampolines() == 0, "no BPF trampoline runs it (%d in kallsyms)",
			   trampolines());
	else
		tap_result(trampolines() > 0, "6.1 runs it through a shim on a trampoline (%d)",
			   trampolines());
	bpf_link__destroy(link);
	expect_errno("cgn-a", 0, "open in the cgroup once the program is detached",
		     open_probe, DENY_FILE);
}

/* The return value's slot after the arguments reads 0, as on 6.1. */
static void test_ret_slot(struct cgroup_native *skel)
{
	int fd = cg_fd("cgn-a");
	struct bpf_link *link;

	link = bpf_program__attach_cgroup(skel->progs.read_ret, fd);
	close(fd);
	if (!link) {
		tap_result(0, "attach read_ret to cgn-a: %s", strerror(errno));
		return;
	}
	expect_errno("cgn-a", 0, "open in the cgroup with read_ret", open_probe, RET_FILE);
	expect_errno("cgn-a", 0, "and again", open_probe, RET_FILE);
	tap_result(skel->bss->ret_runs == 2 && skel->bss->ret_bits == 0,
		   "read_ret ran twice and read 0 in the return value's slot (%u runs, bits %#x)",
		   skel->bss->ret_runs, (unsigned int)skel->bss->ret_bits);
	bpf_link__destroy(link);
}

static void test_multi(struct cgroup_native *skel)
{
	struct bpf_link *first, *second;
	__u32 ids[4], flags[4];
	LIBBPF_OPTS(bpf_prog_query_opts, query, .prog_ids = ids,
		    .prog_attach_flags = flags, .prog_cnt = ARRAY_SIZE(ids));
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = cg_fd("cgn-m");

	first = bpf_program__attach_cgroup(skel->progs.set_retval, fd);
	second = bpf_program__attach_cgroup(skel->progs.get_retval, fd);
	if (!first || !second) {
		tap_result(0, "attach set_retval and get_retval to cgn-m: %s", strerror(errno));
		goto out;
	}
	expect_errno("cgn-m", EACCES, "open where a program set EACCES with bpf_set_retval()",
		     open_probe, MULTI_FILE);
	tap_result(skel->bss->set_retval_runs == 1 && skel->bss->get_retval_runs == 1,
		   "both ALLOW_MULTI programs ran once (%u, %u)",
		   skel->bss->set_retval_runs, skel->bss->get_retval_runs);
	tap_result(skel->bss->seen_retval == -EACCES,
		   "bpf_get_retval() in the second sees the first's -EACCES (got %d)",
		   skel->bss->seen_retval);
	control("cgn-c", "the same open in a sibling cgroup", open_probe, MULTI_FILE);

	if (bpf_prog_query_opts(fd, BPF_LSM_CGROUP, &query)) {
		tap_result(0, "bpf_prog_query(cgn-m, BPF_LSM_CGROUP): %s", strerror(errno));
		goto out;
	}
	bpf_obj_get_info_by_fd(bpf_program__fd(skel->progs.set_retval), &info, &len);
	tap_result(query.prog_cnt == 2 && ids[0] == info.id,
		   "bpf_prog_query lists the 2 programs, set_retval first (count %u)",
		   query.prog_cnt);
out:
	bpf_link__destroy(second);
	bpf_link__destroy(first);
	close(fd);
}

static void test_override(struct cgroup_native *skel)
{
	int parent = cg_fd("cgn-o"), child = cg_fd("cgn-o/child");
	int deny = bpf_program__fd(skel->progs.override_deny);
	int allow = bpf_program__fd(skel->progs.override_allow);
	int rc;

	if (bpf_prog_attach(deny, parent, BPF_LSM_CGROUP, BPF_F_ALLOW_OVERRIDE) ||
	    bpf_prog_attach(allow, child, BPF_LSM_CGROUP, BPF_F_ALLOW_OVERRIDE)) {
		tap_result(0, "attach with BPF_F_ALLOW_OVERRIDE: %s", strerror(errno));
		goto out;
	}
	expect_errno("cgn-o", EBUSY, "open in the parent (its program sets EBUSY)",
		     open_probe, OVERRIDE_FILE);
	expect_errno("cgn-o/child", 0, "open in the child, whose program overrides the parent's",
		     open_probe, OVERRIDE_FILE);
	tap_result(skel->bss->override_runs == 1, "the child's program ran (%u)",
		   skel->bss->override_runs);
	rc = bpf_prog_detach2(deny, parent, BPF_LSM_CGROUP) ? errno : 0;
	tap_result(!rc, "bpf_prog_detach2 of the parent's program (%s)", errname(rc));
	expect_errno("cgn-o", 0, "open in the parent once its program is detached",
		     open_probe, OVERRIDE_FILE);
out:
	bpf_prog_detach2(allow, child, BPF_LSM_CGROUP);
	bpf_prog_detach2(deny, parent, BPF_LSM_CGROUP);
	close(child);
	close(parent);
}

static void test_mac(struct cgroup_native *skel)
{
	int fd = cg_fd("cgn-a");
	struct bpf_link *mac, *cg;

	mac = bpf_program__attach_lsm(skel->progs.mac_deny);
	cg = bpf_program__attach_cgroup(skel->progs.deny_open, fd);
	close(fd);
	if (!mac || !cg) {
		tap_result(0, "attach mac_deny and deny_open: %s", strerror(errno));
		goto out;
	}
	expect_errno("cgn-a", EACCES, "BPF_LSM_MAC program on the same hook refuses in the cgroup",
		     open_probe, MAC_FILE);
	expect_errno("cgn-c", EACCES, "and outside it", open_probe, MAC_FILE);
	expect_errno("cgn-a", EPERM, "the lsm_cgroup program still refuses beside it",
		     open_probe, DENY_FILE);
	control("cgn-c", "its file outside the cgroup", open_probe, DENY_FILE);
out:
	bpf_link__destroy(cg);
	bpf_link__destroy(mac);
	tap_result(try_open(MAC_FILE) == 0, "no refusal once both are detached");
}

static void test_socket(struct cgroup_native *skel)
{
	int fd = cg_fd("cgn-s");
	struct bpf_link *link;

	link = bpf_program__attach_cgroup(skel->progs.deny_bind, fd);
	close(fd);
	if (!link) {
		tap_result(0, "attach deny_bind to cgn-s: %s", strerror(errno));
		return;
	}
	expect_errno("cgn-s", EPERM, "bind() in the cgroup", bind_fresh_socket, NULL);
	control("cgn-c", "bind() in a sibling cgroup", bind_fresh_socket, NULL);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	expect_errno("cgn-s", EPERM, "bind() from the cgroup of a socket made outside it",
		     bind_outside_socket, &fd);
	expect_errno("cgn-s", 0, "bind() from outside of a socket made inside it",
		     bind_after_leaving, NULL);
	close(fd);
	bpf_link__destroy(link);
}

int main(void)
{
	struct cgroup_native *skel;

	if (mkdir(DIR, 0755) && errno != EEXIST)
		tap_bail("mkdir %s: %s", DIR, strerror(errno));
	if (make_file(DENY_FILE) || make_file(MULTI_FILE) || make_file(OVERRIDE_FILE) ||
	    make_file(MAC_FILE) || make_file(RET_FILE))
		tap_bail("create the test files: %s", strerror(errno));
	if (cgroups_make(cgroups, ARRAY_SIZE(cgroups)))
		tap_bail("create the cgroups: %s", strerror(errno));
	skel = cgroup_native__open_and_load();
	if (!skel)
		tap_bail("load cgroup_native.bpf.o: %s", strerror(errno));
	skel->bss->deny_ino = ino_of(DENY_FILE);
	skel->bss->multi_ino = ino_of(MULTI_FILE);
	skel->bss->override_ino = ino_of(OVERRIDE_FILE);
	skel->bss->mac_ino = ino_of(MAC_FILE);
	skel->bss->ret_ino = ino_of(RET_FILE);
	skel->bss->deny_port = DENY_PORT;

	test_deny(skel);
	test_ret_slot(skel);
	test_multi(skel);
	test_override(skel);
	test_mac(skel);
	test_socket(skel);

	cgroup_native__destroy(skel);
	cgroups_remove((const char *const[]){ "cgn-a/child", "cgn-o/child" }, 2);
	cgroups_remove(cgroups, ARRAY_SIZE(cgroups));
	return tap_exit();
}
