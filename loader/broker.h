/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The broker: lsmctl serve, a daemon outside every policy that applies
 * and detaches policies on cgroups below a guarded subtree for the
 * confined root of that subtree, which may not load BPF itself; and the
 * client side, which lsmctl apply and detach take when they find
 * themselves confined.
 */
#ifndef LSMCTL_BROKER_H
#define LSMCTL_BROKER_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "broker_proto.h"

#define BROKER_SOCKET	"/run/lsmctl/broker.sock"	/* LSMCTL_BROKER overrides it */

/* The socket the client talks to: $LSMCTL_BROKER, or BROKER_SOCKET. */
const char *broker_socket(void);
/*
 * Serve requests on @path (or on the socket systemd passed: LISTEN_FDS)
 * until killed; returns only when it cannot listen: -errno, why in @err.
 */
int broker_serve(const char *path, char *err, size_t errlen);
/*
 * Is this process in the subtree of a policy with self-protection? Its
 * cgroup's id in @scope (0 when not), from the applied policies.
 */
bool broker_confined(__u64 *scope);
/*
 * Send @req (with @policy, @req->length bytes, for apply) to the broker
 * and wait for its reply, whose text goes into @reply: 0 on "ok",
 * -errno on "error", or -errno when the broker could not be asked.
 */
int broker_ask(const struct broker_req *req, const char *policy, char *reply, size_t len);
/*
 * Ask the broker to apply the policy file @file (@audit as apply_opts')
 * to the cgroup folder @cgroup, or with @file NULL to detach its
 * policy: broker_ask()'s answer.
 */
int broker_change(const char *file, const char *cgroup, int audit, char *reply, size_t len);

#endif /* LSMCTL_BROKER_H */
