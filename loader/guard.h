/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-protection's guard (bpf-progs/policy/guard.bpf.c): one instance
 * for the machine, pinned in PIN_ROOT/guard while some policy has
 * self-protection on, whichever its backend.
 *
 *   lsmlab/guard/guarded       the guarded cgroups, by id
 *   lsmlab/guard/guard_levels  their levels and id filters
 *   lsmlab/guard/guard_follows the guarded paths that policies follow
 *   lsmlab/guard/lost          events it had no room for in the ring
 *   lsmlab/guard/link-HOOK     each program's link
 *   lsmlab/guard/link-cgroup_mkdir  guard_follow_mkdir()'s link
 */
#ifndef LSMCTL_GUARD_H
#define LSMCTL_GUARD_H

#include <stddef.h>

#include "store.h"

/*
 * Make the guard guard exactly the committed policies with
 * self-protection, and @pending (a policy about to be committed, or
 * NULL) together with what its cgroup has now: loaded, updated, or
 * unloaded when nothing needs it. 0, or -errno with a message in @err.
 */
int guard_sync(const struct lab_meta *pending, char *err, size_t errlen);

/* Events the guard had no room for in the ring (0 when it is not loaded). */
__u64 guard_lost(void);

/* The guard's hook names, by enum lab_guard_hook. */
const char *guard_hook_name(unsigned int hook);

#endif /* LSMCTL_GUARD_H */
