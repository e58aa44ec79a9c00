/* SPDX-License-Identifier: GPL-2.0 */
/* lsmctl probe and --version: what the running kernel offers lsmctl. */
#ifndef LSMCTL_PROBE_H
#define LSMCTL_PROBE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "errors.h"	/* EXIT_NO_BPF_LSM: probe when neither backend can run, apply and run without BPF LSM */
#include "json_writer.h"

/* Print what the running kernel offers (text, or with @w one JSON object); its exit status. */
int probe_report(json_writer_t *w);
/*
 * 0 when BPF LSM is active in the running kernel, or securityfs cannot
 * say; else -ENOPKG, why and the lsm= line that would make it so in
 * @err: programs would load and attach, and never run.
 */
int probe_bpf_lsm(char *err, size_t errlen);
struct btf;
/* Does @btf (the kernel's) have LSM hook @hook: a bpf_lsm_ stub? */
bool probe_lsm_hook(const struct btf *btf, const char *hook);
/*
 * Does the running kernel have cgroup_attach (the lab's series), so that
 * the guard judges each move of a task between cgroups? Asked once.
 */
bool probe_moves_judged(void);
/* Can the guard note mount namespaces made inside (fexit on copy_mnt_ns)? */
bool probe_mounts_inside(const struct btf *btf);
int cmd_version(int argc, char **argv);

/* What a policy's hooks would take of the running kernel's lsm_cgroup hook slots. */
struct slot_budget {
	int slots;	/* in all; 0: no lsm_cgroup programs, or no BTF to tell */
	int taken;	/* by lsm_cgroup links now; < 0: unknown (-errno: not root) */
	int needed;	/* the policy's hooks */
	int held;	/* of those, hooks that hold a slot already (shared, no new one) */
	bool fits;	/* needed less held <= slots less taken (needed <= slots if unknown) */
};

void probe_slot_budget(__u64 hooks, struct slot_budget *b);
/* Set @b->fits from its counts, as probe_slot_budget() does. */
void slot_budget_fit(struct slot_budget *b);

/*
 * Can the running kernel have SCTP: built in, loaded (/proc/net/sctp,
 * /sys/module/sctp), or a module modprobe would find
 * (/lib/modules/RELEASE/modules.dep or modules.builtin name sctp.ko)?
 */
bool probe_sctp(void);
/*
 * @hooks less those whose protocol the running kernel cannot have
 * (sctp_bind_connect without SCTP): an lsm_cgroup program there would
 * take a hook slot for a hook nothing calls.
 */
__u64 probe_kernel_hooks(__u64 hooks);

#endif /* LSMCTL_PROBE_H */
