// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the sixth review's (issue #24 item 9), the scope checks the
 * eleventh session added. Each attempt's control runs the same probe
 * in the sibling cgroup without a policy, where it must get through.
 *
 * - netlink_send's link-message scan (link_names_netns()) takes a word
 *   for a namespace attribute's header only when its length is 8 to
 *   16; rtnetlink parses link messages liberally
 *   (nlmsg_parse_deprecated(): a u32 attribute longer than 4 bytes only
 *   warns), so IFLA_NET_NS_PID with 12 bytes of padding (nla_len 20) is
 *   acted on and not seen.
 * - ip_sockopt_allowed()'s IPv6 range 58-80 holds 64 and 65, which
 *   do_ipv6_setsockopt() does not know and hands to netfilter:
 *   ip6tables' IP6T_SO_SET_REPLACE and IP6T_SO_SET_ADD_COUNTERS on a
 *   socket of init_net.
 * - socket_create lets PF_KEY through (CAP_NET_ADMIN of init_net's user
 *   namespace is the task's own): SADB_ADD, SADB_X_SPDADD, SADB_FLUSH,
 *   SADB_X_SPDFLUSH write init_net's IPsec databases as xfrm's netlink
 *   messages and IP_XFRM_POLICY would, which are refused. The lab's
 *   kernels have no af_key (lsm: not built; debian: a module that
 *   modules.cpio does not carry): skipped there.
 * - netlink_send judges nothing but rtnetlink in a network namespace of
 *   the task's own, and generic netlink families marked netnsok answer
 *   there: TASKSTATS_CMD_GET (GENL_ADMIN_PERM: CAP_NET_ADMIN, a
 *   capability of its own) returns any task's accounting by pid, its
 *   I/O counters (/proc/PID/io's, behind a ptrace read check the guard
 *   refuses for a task outside), delays, command and uid. In init_net
 *   the same request is refused (generic netlink but the controller).
 *   debian has taskstats; lsm does not build it (skipped there).
 */
#define _GNU_SOURCE
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <linux/pfkeyv2.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>

#include "escapes.h"

#define NO_SUCH_PID	0x3ffffff0	/* above pid_max's ceiling: ESRCH */

/* One rtnetlink request, its ack's errno (0: done). */
static int rtnl_ack(void *req, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[4096] __attribute__((aligned(4)));
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	int fd, err = BROKEN;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return errno;
	if (sendto(fd, req, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = errno;
		close(fd);
		return err;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) && h->nlmsg_type == NLMSG_ERROR)
		err = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
	close(fd);
	return err;
}

/*
 * RTM_SETLINK on lo with IFLA_NET_NS_PID NO_SUCH_PID, the attribute
 * @pad bytes longer than its u32: ESRCH when the kernel looked the pid
 * up (rtnl_link_get_net()), that is when nothing refused the message.
 */
static int setlink_netns_pid(unsigned int pad)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
		char attrs[64];
	} __attribute__((aligned(4))) r;
	struct rtattr *a = (struct rtattr *)r.attrs;
	__u32 v = NO_SUCH_PID;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = RTM_SETLINK;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.i.ifi_family = AF_UNSPEC;
	r.i.ifi_index = if_nametoindex("lo");
	a->rta_type = IFLA_NET_NS_PID;
	a->rta_len = RTA_LENGTH(4 + pad);
	memcpy(RTA_DATA(a), &v, 4);
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.i)) + RTA_ALIGN(a->rta_len);
	return rtnl_ack(&r, r.h.nlmsg_len);
}

/*
 * In a network namespace of its own: first the plain attribute (nla_len
 * 8), which the guard refuses inside (EPERM) and the kernel answers
 * outside (ESRCH), anything else is BROKEN; then the padded one: 0 when
 * the kernel answered it (ESRCH), so a pid of init_net's (1) would have
 * moved the device, or made a veth's peer, there.
 */
static int p_link_padded(const void *arg)
{
	int err;

	(void)arg;
	if (unshare(CLONE_NEWNET))
		return BROKEN;
	err = setlink_netns_pid(0);
	if (err != EPERM && err != ESRCH)
		return BROKEN;
	err = setlink_netns_pid(12);
	return err == ESRCH ? 0 : err;
}

/*
 * setsockopt(SOL_IPV6, @optname) on a UDP socket of init_net with an
 * empty argument: 0 when it reached the kernel (ENOPROTOOPT where
 * ip6_tables is not loaded, EINVAL or ENOENT from ip6_tables where it
 * is), the guard's answer otherwise.
 */
static int p_ip6t_sockopt(const void *arg)
{
	int optname = *(const int *)arg;
	char buf[16] = { 0 };
	int fd, err = 0;

	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return BROKEN;
	if (setsockopt(fd, SOL_IPV6, optname, buf, sizeof(buf)))
		err = errno;
	close(fd);
	return err == EPERM ? EPERM : 0;
}

/*
 * PF_KEY in init_net: a socket, SADB_FLUSH (every SA of every type; the
 * guest has none), its reply. 0 when the flush was done; ENOSYS (the
 * control's skip) when the kernel has no PF_KEY.
 */
static int p_pfkey_flush(const void *arg)
{
	struct sadb_msg msg = {
		.sadb_msg_version = PF_KEY_V2,
		.sadb_msg_type = SADB_FLUSH,
		.sadb_msg_satype = SADB_SATYPE_UNSPEC,
		.sadb_msg_len = sizeof(struct sadb_msg) / 8,
		.sadb_msg_seq = 1,
	};
	char buf[512] __attribute__((aligned(8)));
	struct sadb_msg *r = (struct sadb_msg *)buf;
	int fd, err = BROKEN, i;
	ssize_t n;

	(void)arg;
	fd = socket(PF_KEY, SOCK_RAW | SOCK_CLOEXEC, PF_KEY_V2);
	if (fd < 0)
		return errno == EAFNOSUPPORT ? ENOSYS : errno;
	msg.sadb_msg_pid = getpid();
	if (write(fd, &msg, sizeof(msg)) != (ssize_t)sizeof(msg)) {
		err = errno;
		close(fd);
		return err;
	}
	/* the reply to our flush (others' broadcasts may come first) */
	for (i = 0; i < 16; i++) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < (ssize_t)sizeof(*r))
			break;
		if (r->sadb_msg_type == SADB_FLUSH && r->sadb_msg_pid == (__u32)getpid()) {
			err = r->sadb_msg_errno;
			break;
		}
	}
	close(fd);
	return err;
}

/* A generic netlink request on @fd (family @type, @cmd, one u32 or string attribute). */
static int genl_req(int fd, __u16 type, __u8 cmd, __u16 atype, const void *val, __u16 vlen)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		char attrs[64];
	} __attribute__((aligned(4))) r;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlattr *a = (struct nlattr *)r.attrs;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = type;
	r.h.nlmsg_flags = NLM_F_REQUEST;
	r.g.cmd = cmd;
	r.g.version = 1;
	a->nla_type = atype;
	a->nla_len = NLA_HDRLEN + vlen;
	memcpy((char *)a + NLA_HDRLEN, val, vlen);
	r.h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(a->nla_len);
	if (sendto(fd, &r, r.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return errno;
	return 0;
}

/* The first attribute @atype at the top of the genl reply in @buf, or NULL. */
static struct nlattr *genl_attr(char *buf, ssize_t n, __u16 atype)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	char *p = (char *)NLMSG_DATA(h) + GENL_HDRLEN, *end = buf + h->nlmsg_len;

	if (n < (ssize_t)NLMSG_LENGTH(GENL_HDRLEN) || (ssize_t)h->nlmsg_len > n)
		return NULL;
	while (p + NLA_HDRLEN <= end) {
		struct nlattr *a = (struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == atype)
			return a;
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/*
 * In a new network namespace, a generic netlink socket and the id of
 * family @name: the socket, or -errno (-ENOSYS: no such family; -BROKEN:
 * the namespace or socket could not be made).
 */
static int genl_open_family(const char *name, __u16 *family)
{
	char buf[4096] __attribute__((aligned(4)));
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nlattr *a;
	int fd, err;
	ssize_t n;

	if (unshare(CLONE_NEWNET))
		return -BROKEN;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -BROKEN;
	err = genl_req(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, name,
		       strlen(name) + 1);
	n = err ? -1 : recv(fd, buf, sizeof(buf), 0);
	a = n < 0 || h->nlmsg_type == NLMSG_ERROR ? NULL : genl_attr(buf, n, CTRL_ATTR_FAMILY_ID);
	if (!a) {
		close(fd);
		return err ? -err : n < 0 || h->nlmsg_type == NLMSG_ERROR ? -ENOSYS : -BROKEN;
	}
	memcpy(family, (char *)a + NLA_HDRLEN, sizeof(*family));
	return fd;
}

/*
 * In a network namespace of its own, TASKSTATS_CMD_GET for @arg's pid
 * (the outsider): 0 when the reply holds its accounting (the aggregate
 * names that pid), ENOSYS when the kernel has no taskstats.
 */
static int p_taskstats(const void *arg)
{
	__u32 pid = (__u32)*(const pid_t *)arg;
	char buf[8192] __attribute__((aligned(4)));
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nlattr *a;
	__u16 family;
	int fd, err;
	ssize_t n;

	fd = genl_open_family(TASKSTATS_GENL_NAME, &family);
	if (fd < 0)
		return -fd;
	err = genl_req(fd, family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID, &pid, sizeof(pid));
	n = err ? -1 : recv(fd, buf, sizeof(buf), 0);
	close(fd);
	if (err)
		return err;
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return BROKEN;
	if (h->nlmsg_type == NLMSG_ERROR)
		return -((struct nlmsgerr *)NLMSG_DATA(h))->error ?: BROKEN;
	a = genl_attr(buf, n, TASKSTATS_TYPE_AGGR_PID);
	if (!a)
		return BROKEN;
	/* its first nested attribute: TASKSTATS_TYPE_PID, the pid asked for */
	a = (struct nlattr *)((char *)a + NLA_HDRLEN);
	if ((a->nla_type & NLA_TYPE_MASK) != TASKSTATS_TYPE_PID ||
	    *(__u32 *)((char *)a + NLA_HDRLEN) != pid)
		return BROKEN;
	return 0;
}

/* uapi/linux/cryptouser.h's and nfnetlink_osf.h's, as the kernel numbers them */
#define LAB_NETLINK_CRYPTO	21
#define LAB_CRYPTO_MSG_GETALG	0x13
#define LAB_OSF_MSG_ADD		((5 << 8) | 0)	/* NFNL_SUBSYS_OSF, OSF_MSG_ADD */

/*
 * In a network namespace of its own, one message of netlink protocol
 * @arg[0], type @arg[1] (a request with no payload but nfnetlink's
 * header): 0 when the send went through, whatever the kernel answers
 * after; ENOSYS when the kernel has no such protocol.
 */
static int p_own_netlink(const void *arg)
{
	const int *what = arg;
	struct {
		struct nlmsghdr h;
		__u8 payload[16];
	} __attribute__((aligned(4))) r = {
		.h = {
			.nlmsg_len = sizeof(r),
			.nlmsg_type = (__u16)what[1],
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		},
	};
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, err = 0;

	if (unshare(CLONE_NEWNET))
		return BROKEN;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, what[0]);
	if (fd < 0)
		return errno == EPROTONOSUPPORT ? ENOSYS : BROKEN;
	if (sendto(fd, &r, sizeof(r), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* uapi/linux/ethtool_netlink.h's, which ethtool.h's PORT_OTHER would clash with here */
#define ETHTOOL_GENL_NAME		"ethtool"
#define ETHTOOL_MSG_STRSET_GET		1
#define ETHTOOL_A_STRSET_COUNTS_ONLY	3

/*
 * In a network namespace of its own, ethtool's ETHTOOL_MSG_STRSET_GET
 * (a family on the guard's list, loader/genl.c): 0 when it reaches the
 * family (its reply, or its own error), EPERM when the send is refused,
 * ENOSYS when the kernel has no ethtool netlink family.
 */
static int p_genl_listed(const void *arg)
{
	char buf[8192] __attribute__((aligned(4)));
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	__u16 family;
	int fd, err;
	ssize_t n;

	(void)arg;
	fd = genl_open_family(ETHTOOL_GENL_NAME, &family);
	if (fd < 0)
		return -fd;
	err = genl_req(fd, family, ETHTOOL_MSG_STRSET_GET, ETHTOOL_A_STRSET_COUNTS_ONLY, "", 0);
	n = err ? -1 : recv(fd, buf, sizeof(buf), 0);
	close(fd);
	if (err)
		return err;
	if (n < (ssize_t)NLMSG_HDRLEN)
		return BROKEN;
	/* a reply, or the family's own error: the request reached it */
	if (h->nlmsg_type == NLMSG_ERROR &&
	    -((struct nlmsgerr *)NLMSG_DATA(h))->error == EPERM)
		return EPERM;
	return h->nlmsg_type == family || h->nlmsg_type == NLMSG_ERROR ? 0 : BROKEN;
}

void test_review6(void)
{
	static const int ip6t_replace = 64, ip6t_counters = 65;
	static const int crypto[2] = { LAB_NETLINK_CRYPTO, LAB_CRYPTO_MSG_GETALG };
	static const int osf[2] = { NETLINK_NETFILTER, LAB_OSF_MSG_ADD };
	const char *m = cg.main;

	tap_note("--- the eleventh session's scope checks (review 6)");
	attempt(m, HOLD, true,
		"RTM_SETLINK in a network namespace of its own with IFLA_NET_NS_PID padded "
		"to nla_len 20",
		"netlink_send scans a link message for namespace attributes "
		"(link_names_netns): any length rtnetlink accepts", p_link_padded, NULL);
	attempt(m, HOLD, true,
		"setsockopt(SOL_IPV6, IP6T_SO_SET_REPLACE) on a socket of init_net (ip6tables)",
		"ip_sockopt_allowed: netfilter's options are not in the IPv6 allow-list",
		p_ip6t_sockopt, &ip6t_replace);
	attempt(m, HOLD, true,
		"setsockopt(SOL_IPV6, IP6T_SO_SET_ADD_COUNTERS) on a socket of init_net",
		"ip_sockopt_allowed: netfilter's options are not in the IPv6 allow-list",
		p_ip6t_sockopt, &ip6t_counters);
	attempt(m, HOLD, true,
		"PF_KEY socket in init_net, SADB_FLUSH (the machine's IPsec SAs)",
		"socket_create: PF_KEY writes init_net's IPsec databases, as xfrm's netlink "
		"messages and IP_XFRM_POLICY, which are refused", p_pfkey_flush, NULL);
	attempt(m, HOLD, true,
		"TASKSTATS_CMD_GET for a task outside, from a network namespace of its own",
		"a task outside's I/O counters are /proc/PID/io's, behind ptrace's read check; "
		"netlink_send judges only rtnetlink in a namespace of its own",
		p_taskstats, &outsider);
	attempt(m, HOLD, true,
		"NETLINK_CRYPTO's CRYPTO_MSG_GETALG from a network namespace of its own",
		"netlink_send: NETLINK_CRYPTO is the machine's in every namespace (its algorithms' "
		"priorities): not on the own namespace's list of protocols", p_own_netlink, crypto);
	attempt(m, HOLD, true,
		"nfnetlink_osf's OSF_MSG_ADD from a network namespace of its own",
		"netlink_send: nfnetlink_osf keeps one fingerprint list for every namespace",
		p_own_netlink, osf);
	/* the control of the family allow-list: a family on it still answers inside */
	if (probe_pid(m, p_genl_listed, NULL, NULL) == ENOSYS)
		skip("ethtool's generic netlink family, from a network namespace of its own",
		     "no ethtool netlink in this kernel");
	else
		expect_errno(m, 0, "ethtool's ETHTOOL_MSG_STRSET_GET from a network namespace of "
			     "its own reaches the family (on the guard's list)",
			     p_genl_listed, NULL);
}
