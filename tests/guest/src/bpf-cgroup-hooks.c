// SPDX-License-Identifier: GPL-2.0
/*
 * How many distinct hooks lsm_cgroup programs can use at once: 10 on
 * stock 6.1, CONFIG_BPF_LSM_CGROUP_HOOKS (32 in the lab's config) with the
 * series. The first attachment past the limit fails with EINVAL (the
 * attach type lookup's E2BIG becomes EINVAL in __cgroup_bpf_attach()) and
 * leaves the others working.
 */
#include "lab_test.h"
#include "cgroup_hooks.skel.h"

#define MAX_LINKS 16

int main(void)
{
	struct cgroup_hooks *skel;
	struct bpf_link *links[MAX_LINKS];
	struct bpf_program *prog;
	int cg, n = 0, total = 0, err = 0, want;

	want = lab_series() ? 12 : 10;
	skel = cgroup_hooks__open_and_load();
	if (!skel)
		tap_bail("load cgroup_hooks.bpf.o: %s", strerror(errno));
	cg = cgroup_make("cgroup-hooks");
	if (cg < 0)
		tap_bail("create cgroup: %s", strerror(errno));

	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_link *link;

		if (total++ >= MAX_LINKS)
			break;
		link = bpf_program__attach_cgroup(prog, cg);
		if (!link) {
			if (!err)
				err = errno;
			continue;
		}
		links[n++] = link;
	}
	tap_result(n == want, "%d of %d lsm_cgroup hooks attach (want %d)", n, total, want);
	if (n < total)
		tap_result(err == EINVAL, "the first one past the limit fails with EINVAL (got %s)",
			   strerror(err));
	while (n > 0)
		bpf_link__destroy(links[--n]);
	cgroup_hooks__destroy(skel);
	return tap_exit();
}
