// SPDX-License-Identifier: GPL-2.0
/*
 * The policy engine as lsm_cgroup programs: one instance a policy,
 * attached to its cgroup. Its check() asks that one policy, whose
 * configuration lsmctl sets before loading.
 */
#include "engine.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Set by lsmctl before loading: the policy this instance enforces, and
 * its configuration, constants the verifier prunes the unused paths by.
 */
const volatile __u32 lab_policy;
const volatile struct lab_conf lab_conf;

static __always_inline int check(const struct lab_req *req)
{
	const struct lab_conf *conf = (const struct lab_conf *)&lab_conf;

	barrier_var(conf);	/* or clang reads the zeros it was declared with */
	return decide(lab_policy, conf, req);
}

/* An lsm_cgroup program runs for its cgroup's tasks only: none is outside. */
static __always_inline int lab_outside(void)
{
	return 0;
}

/* lsm_cgroup: 1 allows, 0 denies with EPERM. */
#define LAB_SEC_PREFIX	"lsm_cgroup/"
#define LAB_RET(deny)	((deny) ? 0 : 1)

#include "hooks.bpf.h"
