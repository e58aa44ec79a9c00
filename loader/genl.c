// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink families a guarded task may use in a network
 * namespace of its own: those whose state is the namespace's (its
 * devices' settings, its tunnels, its TCP metrics). The kernel numbers
 * families as they register, so the guard's genl_inside map gets their
 * ids, found by name through the controller (CTRL_CMD_GETFAMILY) each
 * time lsmctl syncs the guard. A family not listed here, or registered
 * since, is refused there (the guard's own_denies()). Not listed: gtp,
 * whose commands take GTPA_NET_NS_FD (another namespace's devices, init_net's
 * by a descriptor kept from before unshare()), and whose devices may send
 * through a UDP socket of init_net to their PDP contexts' peers.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "genl.h"
#include "../bpf-progs/policy/limits.h"

static const char *const genl_inside_names[] = {
	"ethtool",	/* its devices' settings */
	"wireguard",
	"mptcp_pm",
	"tcp_metrics",
	"fou",
	"l2tp",
	"SEG6",
	"IOAM6",
	"macsec",
	"team",
	"ovs_datapath",
	"ovs_vport",
	"ovs_flow",
	"ovs_packet",
	"ovs_meter",
	"ovs_ct_limit",
};

static bool genl_inside_name(const char *name)
{
	for (size_t i = 0; i < sizeof(genl_inside_names) / sizeof(genl_inside_names[0]); i++)
		if (!strcmp(name, genl_inside_names[i]))
			return true;
	return false;
}

struct genl_ids {
	__u16 id[LAB_MAX_GENL_INSIDE];
	unsigned int n;
};

/* One CTRL_CMD_NEWFAMILY answer: its id if its name is listed. */
static void genl_family(const struct nlmsghdr *nlh, struct genl_ids *ids)
{
	const struct nlattr *a;
	const char *name = NULL;
	__u16 id = 0;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;

	while (off + NLA_HDRLEN <= nlh->nlmsg_len) {
		a = (const struct nlattr *)((const char *)nlh + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > nlh->nlmsg_len)
			break;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID && a->nla_len >= NLA_HDRLEN + sizeof(id))
			memcpy(&id, (const char *)a + NLA_HDRLEN, sizeof(id));
		else if (a->nla_type == CTRL_ATTR_FAMILY_NAME &&
			 memchr((const char *)a + NLA_HDRLEN, 0, a->nla_len - NLA_HDRLEN))
			name = (const char *)a + NLA_HDRLEN;
		off += NLA_ALIGN(a->nla_len);
	}
	if (id && name && genl_inside_name(name) && ids->n < LAB_MAX_GENL_INSIDE)
		ids->id[ids->n++] = id;
}

/* The ids of the listed families registered now; 0 or -errno. */
static int genl_find(struct genl_ids *ids)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr genl;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = GENL_ID_CTRL,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = 1,
		},
		.genl = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 },
	};
	static char buf[32768];
	const struct nlmsghdr *nlh;
	int fd, rc = 0;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) != sizeof(req)) {
		rc = -errno;
		goto out;
	}
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			rc = -errno;
			goto out;
		}
		for (nlh = (const struct nlmsghdr *)buf; NLMSG_OK(nlh, (size_t)n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type == NLMSG_DONE)
				goto out;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				rc = e->error ? e->error : -EPROTO;
				goto out;
			}
			if (nlh->nlmsg_type == GENL_ID_CTRL)
				genl_family(nlh, ids);
		}
	}
out:
	close(fd);
	return rc;
}

int genl_sync(int map)
{
	static struct genl_ids ids;
	__u16 key, next, *prev = NULL;
	unsigned int i;
	__u8 one = 1;
	int rc;

	ids.n = 0;
	rc = genl_find(&ids);
	if (rc)
		return rc;
	/* ids of families gone (an id is given again): out first */
	while (!bpf_map_get_next_key(map, prev, &next)) {
		key = next;
		for (i = 0; i < ids.n && ids.id[i] != key; i++)
			;
		if (i < ids.n) {
			prev = &key;
			continue;
		}
		if (bpf_map_delete_elem(map, &key))
			return -errno;
		prev = NULL;
	}
	for (i = 0; i < ids.n; i++)
		if (bpf_map_update_elem(map, &ids.id[i], &one, BPF_ANY))
			return -errno;
	return 0;
}
