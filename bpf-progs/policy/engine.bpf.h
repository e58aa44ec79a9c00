/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy engine's verdict, shared by both backends: one policy's
 * answer to a request (struct lab_req), from its rules (match.bpf.h),
 * self-protection (self.bpf.h) and its default, counted and reported.
 * A backend's source file includes this, supplies check() (which
 * policies a request goes to, and decide() for each), and includes
 * hooks.bpf.h, the programs.
 */
#ifndef LSMLAB_ENGINE_BPF_H
#define LSMLAB_ENGINE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "event.bpf.h"
#include "maps.bpf.h"
#include "match.bpf.h"
#include "request.bpf.h"
#include "self.bpf.h"

/* Send a denial to lsmctl events; -1 when it could not be (event_begin()). */
static __always_inline int report(const struct lab_conf *conf, const struct lab_req *req,
				  __u16 rule)
{
	struct lab_event_draft *d = event_begin();

	if (!d)
		return -1;
	/* lab_req is ours, not the kernel's: no CO-RE read of its fields */
	event_fill(d, conf->cgroup_id, conf->flags, req->hook, rule, req->class, req->number,
		   req->target, req->dentry, conf->generation);
	d->e.family = req->family;
	d->e.port = req->port;
	__builtin_memcpy(d->e.addr, req->addr, sizeof(d->e.addr));
	return lab_event_commit(d);
}

/*
 * One policy's verdict on a request: 1 to deny. Counts the deciding
 * rule's hit and reports a denial (or, in audit mode, reports it and
 * returns 0).
 */
static __always_inline int decide(__u32 policy, const struct lab_conf *conf,
				  const struct lab_req *req)
{
	__u32 class = req->class;
	__u16 rule = LAB_RULE_NONE;
	__u8 deny = 0;

	if (class < LAB_FILE_CLASSES) {
		rule = match_file(policy, conf, req, &deny);
	} else if (class == LAB_SOCKET) {
		rule = match_socket(policy, req, &deny);
	} else if (class == LAB_BIND || class == LAB_CONNECT) {
		rule = match_net(policy, conf, req, &deny);
	} else if (class == LAB_CAPABILITY) {
		rule = conf->cap_rule[req->number & 63];
		deny = (conf->cap_deny >> (req->number & 63)) & 1;
	} else if (class < LAB_SELF) {
		if (class == LAB_SIGNAL && task_inside(conf, req->target))
			return 0;
		/* the mask is for the verifier: it forgets the bound above */
		rule = conf->fixed_rule[class & 0xf];
		deny = conf->fixed_deny[class & 0xf];
	}

	if (rule != LAB_RULE_NONE && deny) {
		rule -= 1;	/* a rule denies: it is the one reported */
	} else if (deny) {
		rule = LAB_RULE_DEFAULT;	/* files: a subtree climb that could not finish */
	} else if (req->self && (conf->flags & LAB_SELF_PROTECT) && self_denies(conf, req)) {
		rule = LAB_RULE_SELF;
		deny = 1;
	} else if (rule != LAB_RULE_NONE) {
		rule -= 1;
	} else if (class < 32 && (conf->default_deny >> class) & 1) {
		rule = LAB_RULE_DEFAULT;
		deny = 1;
	} else {
		return 0;
	}
	count_hit(policy, rule);
	if (!deny)
		return 0;
	if (report(conf, req, rule))
		count_hit(policy, LAB_RULE_LOST);	/* never silent: lsmctl counts it */
	return !(conf->flags & LAB_AUDIT);
}

#endif /* LSMLAB_ENGINE_BPF_H */
