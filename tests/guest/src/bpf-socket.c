// SPDX-License-Identifier: GPL-2.0
/*
 * The pipeline's BPF smoke test: an lsm_cgroup program attached to one
 * cgroup makes socket(AF_INET) fail with EPERM there, and only there.
 */
#include <sys/socket.h>

#include "lab_test.h"
#include "deny_inet_socket.skel.h"

/* The errno a socket() call fails with, 0 when it succeeds. */
static int try_socket(int family)
{
	int fd = socket(family, SOCK_STREAM, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int try_inet(void)
{
	return try_socket(AF_INET);
}

static int try_unix(void)
{
	return try_socket(AF_UNIX);
}

int main(void)
{
	struct deny_inet_socket *skel;
	struct bpf_link *link;
	int cg, rc;

	skel = deny_inet_socket__open_and_load();
	if (!skel)
		tap_bail("load deny_inet_socket.bpf.o: %s", strerror(errno));
	cg = cgroup_make("smoke-deny");
	if (cg < 0 || cgroup_make("smoke-allow") < 0)
		tap_bail("create cgroups: %s", strerror(errno));

	link = bpf_program__attach_cgroup(skel->progs.deny_inet_socket, cg);
	if (!link)
		tap_bail("attach lsm_cgroup/socket_create: %s", strerror(errno));
	tap_result(1, "lsm_cgroup/socket_create attached to smoke-deny");

	rc = cgroup_run("smoke-deny", try_inet);
	tap_result(rc == EPERM, "socket(AF_INET) in smoke-deny fails with EPERM (got %s)",
		   rc ? strerror(rc) : "success");
	rc = cgroup_run("smoke-deny", try_unix);
	tap_result(rc == 0, "socket(AF_UNIX) in smoke-deny succeeds (got %s)",
		   rc ? strerror(rc) : "success");
	rc = cgroup_run("smoke-allow", try_inet);
	tap_result(rc == 0, "socket(AF_INET) in sibling smoke-allow succeeds (got %s)",
		   rc ? strerror(rc) : "success");
	rc = try_inet();
	tap_result(rc == 0, "socket(AF_INET) in the root cgroup succeeds (got %s)",
		   rc ? strerror(rc) : "success");
	tap_result(skel->bss->denied == 1, "the program counted 1 denial (counted %llu)",
		   (unsigned long long)skel->bss->denied);

	bpf_link__destroy(link);
	rc = cgroup_run("smoke-deny", try_inet);
	tap_result(rc == 0, "after detach, socket(AF_INET) in smoke-deny succeeds (got %s)",
		   rc ? strerror(rc) : "success");

	deny_inet_socket__destroy(skel);
	return tap_exit();
}
