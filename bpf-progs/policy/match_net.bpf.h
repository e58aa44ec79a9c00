/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sockets, by family and type; bind and connect, by address, prefix and
 * port range.
 */
#ifndef LSMLAB_MATCH_NET_BPF_H
#define LSMLAB_MATCH_NET_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "engine.h"
#include "kdefs.bpf.h"
#include "maps.bpf.h"
#include "request.bpf.h"

/* socket: the most specific of family+type, family, type, any. */
static __always_inline __u16 match_socket(__u32 policy, const struct lab_req *req, __u8 *deny)
{
	struct lab_sock_key keys[4] = {
		{ policy, req->family, req->type },
		{ policy, req->family, 0 },
		{ policy, 0, req->type },
		{ policy, 0, 0 },
	};
	struct lab_sock_val *v;
	int i;

#pragma unroll
	for (i = 0; i < 4; i++) {
		v = bpf_map_lookup_elem(&sock_rules, &keys[i]);
		if (v) {
			*deny = v->deny;
			return v->rule;
		}
	}
	return LAB_RULE_NONE;
}

/* bind, connect: every rule is looked at; a matching deny wins. */
struct net_ctx {
	const struct lab_req *req;
	__u32 policy;
	__u16 allow_rule;
	__u16 deny_rule;
};

static __always_inline int prefix_match(const __u8 *a, const __u8 *b, __u32 prefix)
{
	int i;

#pragma unroll
	for (i = 0; i < 16; i++) {
		if (prefix >= 8) {
			if (a[i] != b[i])
				return 0;
			prefix -= 8;
		} else if (prefix) {
			__u8 mask = 0xff << (8 - prefix);

			return (a[i] & mask) == (b[i] & mask);
		} else {
			return 1;
		}
	}
	return 1;
}

static long net_step(__u32 i, void *data)
{
	struct net_ctx *c = data;
	const struct lab_req *req = c->req;
	struct lab_net_key key = { .policy = c->policy, .index = i };
	struct lab_net_rule *r = bpf_map_lookup_elem(&net_rules, &key);

	if (!r)
		return 1;
	if (r->class != req->class ||
	    (r->family && r->family != req->family) ||
	    (r->protocol && r->protocol != req->protocol) ||
	    req->port < r->port_min || req->port > r->port_max ||
	    !prefix_match(r->addr, req->addr, r->prefix))
		return 0;
	if (r->deny) {
		c->deny_rule = r->rule;
		return 1;
	}
	if (!c->allow_rule)
		c->allow_rule = r->rule;
	return 0;
}

static __always_inline __u16 match_net(__u32 policy, const struct lab_conf *conf,
				       const struct lab_req *req, __u8 *deny)
{
	struct net_ctx c = { .req = req, .policy = policy };
	__u32 n = conf->n_net;

	if (n > LAB_MAX_NET_RULES)
		n = LAB_MAX_NET_RULES;
	bpf_loop(n, net_step, &c, 0);
	*deny = !!c.deny_rule;
	return c.deny_rule ? c.deny_rule : c.allow_rule;
}

#endif /* LSMLAB_MATCH_NET_BPF_H */
