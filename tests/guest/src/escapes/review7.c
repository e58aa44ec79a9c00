// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the seventh review's (issue #24 item 9), against the twelfth
 * session's allow-lists of init_net (families at socket_create, netlink
 * messages, IP options) and of a network namespace of the task's own.
 * Each attempt's control runs the same probe in the sibling cgroup
 * without a policy, where it must get through.
 *
 * - TCP_REPAIR (SOL_TCP) on a socket of init_net: CAP_NET_ADMIN is the
 *   task's own, and repair mode sets sk_reuse to SK_FORCE_REUSE, which
 *   skips inet_csk_get_port()'s bind conflict check, at bind and again
 *   at listen (a listening socket cannot leave repair mode, and need
 *   not). A listener on 127.0.0.1:P beside a service outside on
 *   0.0.0.0:P takes every connection to 127.0.0.1:P (the specific
 *   address is looked up first): the port hijack that the guard
 *   refuses for SO_REUSEPORT, by another door. socket_setsockopt judges
 *   SOL_SOCKET, SOL_PACKET, SOL_IP and SOL_IPV6 only.
 * - NETLINK_CONNECTOR in init_net: netlink_send lets every connector
 *   message through (nl_write(): "configure no network namespace"), but
 *   cn_proc's PROC_CN_MCAST_IGNORE decrements one counter of listeners
 *   for the whole machine (6.1 counts no socket's own subscription):
 *   sent by a task that never listened, it takes the count to 0 and the
 *   kernel stops sending process events to every listener outside (a
 *   process monitor, an audit or EDR daemon). Connector messages are
 *   not dispatched by nlmsg_type (clients send NLMSG_DONE), so a check
 *   by type alone would not hold either: nl_write() passes every type
 *   below NLMSG_MIN_TYPE for every protocol. debian only (lsm has no
 *   connector).
 * - rtnetlink in init_net passes a message whose type is a GET (type %
 *   4 == 2), but dcbnl serves RTM_GETDCB and RTM_SETDCB with one doit,
 *   dcb_doit(), which runs the command the payload names (struct dcbmsg's
 *   cmd): RTM_GETDCB carrying DCB_CMD_SSTATE, _PFC_SCFG, _IEEE_SET,
 *   _SAPP, ... sets a NIC's Data Center Bridging state (priority flow
 *   control, ETS bandwidth, application priorities). The guests have no
 *   NIC with dcbnl_ops, so the attempt names a device that does not
 *   exist: ENODEV, after the set command's CAP_NET_ADMIN check, is the
 *   kernel's answer once nothing refused it. debian only (lsm has no DCB).
 * - A raw ICMP socket of init_net (kept for ping) sends any ICMP, errors
 *   included, to the machine itself: a port unreachable quoting a UDP
 *   datagram of a socket outside (127.0.0.1:P to 127.0.0.1:Q) is taken
 *   by udp_err() as the peer's answer, and the socket outside, if
 *   connected, gets ECONNREFUSED at its next call (fatal ICMP errors
 *   need no sequence number for UDP; PMTU and redirects are the same
 *   door). Closed: socket_create refuses raw ICMP in init_net (ping has
 *   ping sockets, SOCK_DGRAM, which send echo requests only).
 * - AF_VSOCK in a network namespace of its own: socket_create lets
 *   every family through outside init_net, but vsock (6.1) knows no
 *   network namespace: its sockets reach the hypervisor (CID 2) and
 *   every vsock service of the machine (CID 1, vsock_loopback) from any
 *   namespace, past every rule, as in init_net, where it is refused.
 *   Neither lab kernel has vsock loaded (lsm: not built; debian: a
 *   module modules.cpio does not carry), so what the guests show is the
 *   guard's decision, which comes before the family is looked up: EPERM
 *   inside, EAFNOSUPPORT in the sibling.
 * - GTP's generic netlink family, on the list of families usable in a
 *   network namespace of its own (loader/genl.c), takes GTPA_NET_NS_FD
 *   (gtp_find_dev(): get_net_ns_by_fd()): a descriptor of init_net kept
 *   from before unshare() reaches the machine's GTP devices (their PDP
 *   contexts: NEWPDP, DELPDP), and a GTP device's sockets (IFLA_GTP_FD0,
 *   _FD1) may be UDP sockets of init_net (no namespace check), whose
 *   peers are the PDP contexts' addresses, judged by no rule. No lab
 *   kernel has gtp loaded: skipped there.
 * - nfnetlink_cthelper in a network namespace of its own: netlink_send
 *   refuses only the OSF subsystem of netfilter there, but 6.1 keeps
 *   userspace conntrack helpers in one list for the machine
 *   (nfnl_cthelper_list, registered in the global helper table):
 *   NFNL_MSG_CTHELPER_NEW adds a helper that init_net's rules find by
 *   name, _DEL removes those conntrackd registered outside (all of them
 *   when no name is given). No lab kernel has nfnetlink_cthelper
 *   loaded: skipped there.
 * - POSIX message queues of the machine's IPC namespace: the guard scopes
 *   SysV IPC (an object a task of the subtree made, or none), but a
 *   POSIX queue is a file of the IPC namespace's mqueue mount, opened
 *   by mq_open() past every files rule (that mount is in no mount
 *   namespace's tree), and root owns what root made: a service's 0600
 *   queue made outside is opened, read (its messages taken from it),
 *   written and unlinked from inside. Closed: the machine's queues are
 *   refused whole (opened at file_open, made at inode_create, removed at
 *   inode_unlink); an IPC namespace of its own has queues of its own.
 *   debian only (lsm has no CONFIG_POSIX_MQUEUE).
 */
#define _GNU_SOURCE
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/dcbnl.h>
#include <linux/genetlink.h>
#include <linux/gtp.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_cthelper.h>
#include <linux/rtnetlink.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <mqueue.h>
#include <poll.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>

#include "escapes.h"

#define PORT_HIJACK	2727	/* a service outside listens on 0.0.0.0 here */
#define PORT_UDP_SRV	2828	/* a UDP service outside, on 127.0.0.1 */

/* --- TCP_REPAIR: a listener on a port a service outside holds ------------ */

static int hijack_out = -1;	/* the service's listener, the runner's */

/* A TCP listener on 0.0.0.0:PORT_HIJACK (no SO_REUSE*), or -1. */
static int service_listener(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	fill_addr(&ss, &len, AF_INET, "0.0.0.0", PORT_HIJACK);
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 16)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * TCP_REPAIR on, bind 127.0.0.1:PORT_HIJACK (the service holds
 * 0.0.0.0:PORT_HIJACK), listen, then connect as any client would: 0
 * when its own listener took the connection meant for the service.
 */
static int p_repair_hijack(const void *arg)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int one = 1, l, err;

	(void)arg;
	close(hijack_out);	/* inherited from the runner: not the task's to use */
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return BROKEN;
	if (setsockopt(l, SOL_TCP, TCP_REPAIR, &one, sizeof(one))) {
		err = errno;
		goto out;
	}
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT_HIJACK);
	if (bind(l, (struct sockaddr *)&ss, len) || listen(l, 4)) {
		err = errno;
		goto out;
	}
	err = listener_takes(l, (struct sockaddr *)&ss, len);
out:
	close(l);
	return err;
}

static void test_repair_hijack(const char *m)
{
	const char *what = "TCP_REPAIR, then bind and listen on 127.0.0.1 at the port a "
			   "service outside listens on (0.0.0.0), and take its connections";
	int fd;

	hijack_out = service_listener();
	if (hijack_out < 0) {
		skip(what, "no listener of the service's on 0.0.0.0:2727");
		return;
	}
	attempt(m, HOLD, true, what,
		"socket_setsockopt: repair mode (SK_FORCE_REUSE) skips the bind conflict check "
		"at bind and at listen: the port hijack SO_REUSEPORT is refused for",
		p_repair_hijack, NULL);
	while ((fd = accept4(hijack_out, NULL, NULL, SOCK_CLOEXEC)) >= 0)
		close(fd);
	close(hijack_out);
	hijack_out = -1;
}

/* --- cn_proc: the machine's process events switched off ----------------- */

static int cn_out = -1;	/* a process-event listener outside, the runner's */

/* One cn_proc control message, @op, on connector socket @fd: 0 or errno. */
static int cn_send(int fd, enum proc_cn_mcast_op op)
{
	struct {
		struct nlmsghdr h;
		struct cn_msg m;
		enum proc_cn_mcast_op op;
	} __attribute__((packed, aligned(4))) r;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = sizeof(r);
	r.h.nlmsg_type = NLMSG_DONE;	/* as every cn_proc client sends it */
	r.h.nlmsg_pid = getpid();
	r.m.id.idx = CN_IDX_PROC;
	r.m.id.val = CN_VAL_PROC;
	r.m.len = sizeof(op);
	r.op = op;
	return send(fd, &r, sizeof(r), 0) < 0 ? errno : 0;
}

/* A connector socket bound to cn_proc's group: the fd, or -errno. */
static int cn_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);

	if (fd < 0)
		return errno == EPROTONOSUPPORT ? -ENOSYS : -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* Events waiting on @fd, dropped; then: does a fork and exit bring one within @ms? */
static bool cn_events_flow(int fd, int ms)
{
	char buf[4096];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	pid_t pid;

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return poll(&pfd, 1, ms) == 1;
}

/*
 * PROC_CN_MCAST_IGNORE from a socket that never listened, then a fork
 * and an exit: 0 when the listener outside (cn_out, only watched here)
 * got no event for them, ENOSYS when the kernel has no connector.
 */
static int p_cn_ignore(const void *arg)
{
	int fd, err;

	(void)arg;
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0)
		return errno == EPROTONOSUPPORT ? ENOSYS : errno;
	err = cn_send(fd, PROC_CN_MCAST_IGNORE);
	close(fd);
	if (err)
		return err;
	return cn_events_flow(cn_out, 1000) ? EAGAIN : 0;
}

static void test_cn_proc(const char *m)
{
	const char *what = "cn_proc's PROC_CN_MCAST_IGNORE in init_net (NLMSG_DONE): the "
			   "machine's process events stop for a listener outside";

	cn_out = cn_open();
	if (cn_out == -ENOSYS) {
		skip(what, "no connector in this kernel");
		return;
	}
	if (cn_out < 0 || cn_send(cn_out, PROC_CN_MCAST_LISTEN) ||
	    !cn_events_flow(cn_out, 2000)) {
		skip(what, "no process events to a listener outside to begin with");
		if (cn_out >= 0)
			close(cn_out);
		cn_out = -1;
		return;
	}
	/* the control's IGNORE is undone before the attempt, and the attempt's after it */
	if (control(cg.ctl, what, p_cn_ignore, NULL) == 0)
		cn_send(cn_out, PROC_CN_MCAST_LISTEN);
	attempt(m, HOLD, false, what,
		"netlink_send: the connector's callbacks are the machine's (cn_proc's one count "
		"of listeners, w1 buses, dm's userspace log), and it does not read nlmsg_type",
		p_cn_ignore, NULL);
	if (!cn_events_flow(cn_out, 1000))
		cn_send(cn_out, PROC_CN_MCAST_LISTEN);
	/* the count is the machine's, not the socket's: its LISTEN undone before it goes */
	cn_send(cn_out, PROC_CN_MCAST_IGNORE);
	close(cn_out);
	cn_out = -1;
}

/* --- RTM_GETDCB: a GET that sets --------------------------------------- */

/*
 * In init_net, RTM_GETDCB with DCB_CMD_SSTATE (set DCB's state) for a
 * device that does not exist: 0 when dcb_doit() looked the device up
 * (ENODEV: the set command got past its capability check), EPERM when
 * the send was refused, ENOSYS without DCB (EOPNOTSUPP from rtnetlink).
 */
static int p_getdcb_set(const void *arg)
{
	struct {
		struct nlmsghdr h;
		struct dcbmsg d;
		char attrs[32];
	} __attribute__((aligned(4))) r;
	static const char ifname[] = "lab-nodcb0";
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlattr *a = (struct nlattr *)r.attrs;
	char buf[1024] __attribute__((aligned(4)));
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	int fd, err;
	ssize_t n;

	(void)arg;
	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = RTM_GETDCB;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.d.dcb_family = AF_UNSPEC;
	r.d.cmd = DCB_CMD_SSTATE;
	a->nla_type = DCB_ATTR_IFNAME;
	a->nla_len = NLA_HDRLEN + sizeof(ifname);
	memcpy((char *)a + NLA_HDRLEN, ifname, sizeof(ifname));
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.d)) + NLA_ALIGN(a->nla_len);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return BROKEN;
	if (sendto(fd, &r, r.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = errno;
		close(fd);
		return err;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) || h->nlmsg_type != NLMSG_ERROR)
		return BROKEN;
	err = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
	if (err == ENODEV)
		return 0;
	return err == EOPNOTSUPP ? ENOSYS : err;
}

/* --- raw ICMP: an error for a socket outside -------------------------- */

static int udp_srv = -1, udp_cli = -1;	/* a UDP service outside and its client */

static unsigned short csum16(const void *p, size_t n)
{
	const unsigned short *w = p;
	unsigned long sum = 0;

	for (; n > 1; n -= 2)
		sum += *w++;
	if (n)
		sum += *(const unsigned char *)w;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (unsigned short)~sum;
}

/*
 * A raw ICMP socket sends 127.0.0.1 a port unreachable that quotes a
 * datagram from the client outside (127.0.0.1:its port) to the service
 * (127.0.0.1:PORT_UDP_SRV): 0 when the client then has ECONNREFUSED
 * pending (read here through the runner's descriptor, as a witness).
 */
static int p_icmp_unreach(const void *arg)
{
	struct {
		struct icmphdr icmp;
		struct iphdr ip;
		struct udphdr udp;
	} __attribute__((packed)) pkt;
	unsigned short cport = *(const unsigned short *)arg;
	struct sockaddr_storage ss;
	socklen_t len, elen;
	int fd, err = 0, soerr = 0;

	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (fd < 0)
		return errno;
	memset(&pkt, 0, sizeof(pkt));
	pkt.icmp.type = ICMP_DEST_UNREACH;
	pkt.icmp.code = ICMP_PORT_UNREACH;
	pkt.ip.version = 4;
	pkt.ip.ihl = 5;
	pkt.ip.tot_len = htons(sizeof(pkt.ip) + sizeof(pkt.udp));
	pkt.ip.ttl = 64;
	pkt.ip.protocol = IPPROTO_UDP;
	pkt.ip.saddr = htonl(INADDR_LOOPBACK);
	pkt.ip.daddr = htonl(INADDR_LOOPBACK);
	pkt.ip.check = csum16(&pkt.ip, sizeof(pkt.ip));
	pkt.udp.source = htons(cport);
	pkt.udp.dest = htons(PORT_UDP_SRV);
	pkt.udp.len = htons(sizeof(pkt.udp));
	pkt.icmp.checksum = csum16(&pkt, sizeof(pkt));
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", 0);
	if (sendto(fd, &pkt, sizeof(pkt), 0, (struct sockaddr *)&ss, len) < 0)
		err = errno;
	close(fd);
	if (err)
		return err;
	usleep(100000);
	elen = sizeof(soerr);
	if (getsockopt(udp_cli, SOL_SOCKET, SO_ERROR, &soerr, &elen))
		return BROKEN;
	return soerr == ECONNREFUSED ? 0 : EAGAIN;
}

static void test_icmp_error(const char *m)
{
	const char *what = "a raw ICMP socket of init_net sends the machine a port unreachable "
			   "for a connected UDP socket outside (ECONNREFUSED at its next call)";
	struct sockaddr_storage ss;
	struct sockaddr_in me;
	socklen_t len, mlen = sizeof(me);
	unsigned short cport;

	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT_UDP_SRV);
	udp_srv = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	udp_cli = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (udp_srv < 0 || udp_cli < 0 || bind(udp_srv, (struct sockaddr *)&ss, len) ||
	    connect(udp_cli, (struct sockaddr *)&ss, len) ||
	    getsockname(udp_cli, (struct sockaddr *)&me, &mlen)) {
		skip(what, "no UDP service and client outside on 127.0.0.1");
		goto out;
	}
	cport = ntohs(me.sin_port);
	attempt(m, HOLD, true, what,
		"socket_create: no raw ICMP in init_net, whose sends reach the machine's own "
		"sockets as the kernel's errors (udp_err(): a fatal error needs no sequence "
		"number); ping has ping sockets",
		p_icmp_unreach, &cport);
out:
	if (udp_srv >= 0)
		close(udp_srv);
	if (udp_cli >= 0)
		close(udp_cli);
	udp_srv = udp_cli = -1;
}

/* --- AF_VSOCK: a family that knows no network namespace ---------------- */

/*
 * An AF_VSOCK socket, in a new network namespace: 0 when made, else the
 * errno. The guard's socket_create hook runs before the kernel looks the
 * family up: EAFNOSUPPORT (no vsock loaded) says that nothing refused it.
 */
static int p_vsock(const void *arg)
{
	int fd;

	(void)arg;
	if (unshare(CLONE_NEWNET))
		return BROKEN;
	fd = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void test_vsock(const char *m)
{
	const char *what = "AF_VSOCK socket from a network namespace of its own (vsock has "
			   "none: the hypervisor and the machine's vsock services)";
	int rc = probe_pid(cg.ctl, p_vsock, NULL, NULL);

	/* the control: the family is reached (made, or not in this kernel) */
	tap_result(rc == 0 || rc == EAFNOSUPPORT,
		   "control: %s reaches the family from the sibling cgroup %s (got %s)", what,
		   cg.ctl, errname(rc));
	attempt(m, HOLD, false, what,
		"socket_create: vsock (and mISDN) know no network namespace in 6.1, so a "
		"namespace of its own changes nothing for them: refused as in init_net",
		p_vsock, NULL);
}

/* --- GTP: a family on the own namespace's list that names another ------ */

#define GTP_FAMILY	"gtp"	/* drivers/net/gtp.c's family name */

/* A generic netlink request on @fd: family @type, @cmd, u32 attributes @attrs[0..n). */
static int genl_u32s(int fd, __u16 type, __u8 cmd, const __u32 (*attrs)[2], int n)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		char attrs[64];
	} __attribute__((aligned(4))) r;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char *p = r.attrs;
	int i;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = type;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.g.cmd = cmd;
	r.g.version = 1;
	for (i = 0; i < n; i++, p += NLA_HDRLEN + 4) {
		struct nlattr *a = (struct nlattr *)p;

		a->nla_type = (__u16)attrs[i][0];
		a->nla_len = NLA_HDRLEN + 4;
		memcpy(p + NLA_HDRLEN, &attrs[i][1], 4);
	}
	r.h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + (__u32)(p - r.attrs);
	return sendto(fd, &r, r.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? errno : 0;
}

/* The error of the ack (or reply) on @fd: 0 for a reply, -1 when none came. */
static int genl_answer(int fd)
{
	char buf[4096] __attribute__((aligned(4)));
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	ssize_t n = recv(fd, buf, sizeof(buf), 0);

	if (n < (ssize_t)NLMSG_HDRLEN)
		return -1;
	if (h->nlmsg_type != NLMSG_ERROR)
		return 0;
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return -1;
	return -((struct nlmsgerr *)NLMSG_DATA(h))->error;
}

/* CTRL_CMD_GETFAMILY for @name on @fd: its id, or 0. */
static __u16 genl_family_id(int fd, const char *name)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		char attrs[32];
	} __attribute__((aligned(4))) r;
	char buf[4096] __attribute__((aligned(4)));
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nlattr *a = (struct nlattr *)r.attrs;
	char *q, *end;
	ssize_t n;
	__u16 id;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = GENL_ID_CTRL;
	r.h.nlmsg_flags = NLM_F_REQUEST;
	r.g.cmd = CTRL_CMD_GETFAMILY;
	r.g.version = 1;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + strlen(name) + 1;
	memcpy((char *)a + NLA_HDRLEN, name, strlen(name) + 1);
	r.h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(a->nla_len);
	if (sendto(fd, &r, r.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return 0;
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < (ssize_t)NLMSG_LENGTH(GENL_HDRLEN) || h->nlmsg_type != GENL_ID_CTRL ||
	    (ssize_t)h->nlmsg_len > n)
		return 0;
	q = (char *)NLMSG_DATA(h) + GENL_HDRLEN;
	end = buf + h->nlmsg_len;
	while (q + NLA_HDRLEN <= end) {
		a = (struct nlattr *)q;
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID) {
			memcpy(&id, q + NLA_HDRLEN, sizeof(id));
			return id;
		}
		q += NLA_ALIGN(a->nla_len);
	}
	return 0;
}

/*
 * A descriptor of init_net kept, unshare(CLONE_NEWNET), then GTP's
 * GTP_CMD_GETPDP naming init_net by GTPA_NET_NS_FD (and lo, no GTP
 * device: ENODEV once the family looked there): 0 when the family
 * answered, EPERM when the send was refused, ENOSYS without gtp.
 */
static int p_gtp_netns_fd(const void *arg)
{
	__u32 attrs[3][2] = {
		{ GTPA_LINK, 1 }, { GTPA_VERSION, 1 }, { GTPA_NET_NS_FD, 0 },
	};
	int ns, fd, err;
	__u16 family;

	(void)arg;
	ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns < 0 || unshare(CLONE_NEWNET))
		return BROKEN;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return BROKEN;
	family = genl_family_id(fd, GTP_FAMILY);
	if (!family) {
		close(fd);
		return ENOSYS;
	}
	attrs[2][1] = (__u32)ns;
	err = genl_u32s(fd, family, GTP_CMD_GETPDP, (const __u32 (*)[2])attrs, 3);
	if (!err)
		err = genl_answer(fd) == EPERM ? EPERM : 0;
	close(fd);
	close(ns);
	return err;
}

/* --- nfnetlink_cthelper: one list of helpers for every namespace ----------- */

/*
 * In a network namespace of its own, NFNL_MSG_CTHELPER_DEL of a helper
 * that does not exist: 0 when the subsystem looked for it (ENOENT),
 * EPERM when the send was refused, ENOSYS without the subsystem
 * (nfnetlink's EINVAL, its module not loaded).
 */
static int p_own_cthelper_del(const void *arg)
{
	struct {
		struct nlmsghdr h;
		struct nfgenmsg g;
		char attrs[32];
	} __attribute__((aligned(4))) r;
	static const char name[] = "lab-nohelper";
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlattr *a = (struct nlattr *)r.attrs;
	int fd, err;

	(void)arg;
	if (unshare(CLONE_NEWNET))
		return BROKEN;
	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = (NFNL_SUBSYS_CTHELPER << 8) | NFNL_MSG_CTHELPER_DEL;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.g.nfgen_family = AF_UNSPEC;
	r.g.version = NFNETLINK_V0;
	a->nla_type = NFCTH_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(name);
	memcpy((char *)a + NLA_HDRLEN, name, sizeof(name));
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.g)) + NLA_ALIGN(a->nla_len);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);
	if (fd < 0)
		return errno == EPROTONOSUPPORT ? ENOSYS : BROKEN;
	err = sendto(fd, &r, r.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? errno : 0;
	if (!err)
		err = genl_answer(fd);
	close(fd);
	if (err == ENOENT)
		return 0;
	return err == EINVAL ? ENOSYS : err < 0 ? BROKEN : err;
}

/* --- POSIX message queues of the machine's IPC namespace ----------------- */

#define MQ_NAME		"/lab-r7-outside"
#define MQ_MSG		"OUTSIDE"

static mqd_t mq_out = (mqd_t)-1;	/* the service's queue, the runner's */

/* A message of the service's, waiting in its queue (sent outside). */
static void mq_refill(void)
{
	mq_send(mq_out, MQ_MSG, sizeof(MQ_MSG), 0);
}

/* mq_open() the service's queue and take its message: 0 when it was read. */
static int p_mq_take(const void *arg)
{
	char buf[8192];
	mqd_t q;
	ssize_t n;

	(void)arg;
	q = mq_open(MQ_NAME, O_RDONLY | O_NONBLOCK);
	if (q == (mqd_t)-1)
		return errno == ENOSYS ? ENOSYS : errno;
	n = mq_receive(q, buf, sizeof(buf), NULL);
	mq_close(q);
	if (n != (ssize_t)sizeof(MQ_MSG) || memcmp(buf, MQ_MSG, sizeof(MQ_MSG)))
		return BROKEN;
	return 0;
}

/*
 * mq_unlink() the service's queue: 0 when it was removed. By the system
 * call, as glibc's mq_unlink() reports EPERM as EACCES.
 */
static int p_mq_unlink(const void *arg)
{
	(void)arg;
	return syscall(SYS_mq_unlink, MQ_NAME + 1) ? errno : 0;
}

/* mq_open(O_CREAT) a queue in the machine's namespace: 0 when it was made. */
static int p_mq_make(const void *arg)
{
	mqd_t q = mq_open(MQ_NAME "-new", O_RDWR | O_CREAT | O_EXCL, 0600, NULL);

	(void)arg;
	if (q == (mqd_t)-1)
		return errno;
	mq_close(q);
	return 0;
}

/* In an IPC namespace of its own, a queue made, written and read: 0. */
static int p_mq_own_ns(const void *arg)
{
	char buf[8192];
	mqd_t q;
	ssize_t n;

	(void)arg;
	if (unshare(CLONE_NEWIPC))
		return errno;
	q = mq_open(MQ_NAME, O_RDWR | O_CREAT | O_EXCL | O_NONBLOCK, 0600, NULL);
	if (q == (mqd_t)-1)
		return errno;
	if (mq_send(q, MQ_MSG, sizeof(MQ_MSG), 0))
		return errno;
	n = mq_receive(q, buf, sizeof(buf), NULL);
	mq_close(q);
	mq_unlink(MQ_NAME);
	return n == (ssize_t)sizeof(MQ_MSG) ? 0 : BROKEN;
}

static void test_mqueue(const char *m)
{
	const char *what = "mq_open() a POSIX message queue a service made outside (0600) and "
			   "take its message";
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	int rc;

	mq_unlink(MQ_NAME);
	mq_out = mq_open(MQ_NAME, O_RDWR | O_CREAT | O_EXCL | O_NONBLOCK, 0600, &attr);
	if (mq_out == (mqd_t)-1) {
		skip(what, errno == ENOSYS ? "no POSIX message queues in this kernel" :
						"no queue of the service's");
		return;
	}
	mq_refill();
	rc = control(cg.ctl, what, p_mq_take, NULL);
	if (rc == 0)
		mq_refill();
	attempt(m, HOLD, false, what,
		"file_open (self-protection): no queue of the machine's IPC namespace opened, "
		"as SysV objects made outside are not used; mq_open() is no path a files "
		"rule names",
		p_mq_take, NULL);
	rc = control(cg.ctl, "mq_unlink() the service's queue", p_mq_unlink, NULL);
	if (rc == 0) {
		mq_close(mq_out);
		mq_out = mq_open(MQ_NAME, O_RDWR | O_CREAT | O_EXCL | O_NONBLOCK, 0600, &attr);
	}
	attempt(m, HOLD, false, "mq_unlink() the service's queue",
		"guard inode_unlink: no queue of the machine's IPC namespace removed",
		p_mq_unlink, NULL);
	if (control(cg.ctl, "mq_open(O_CREAT) a queue in the machine's IPC namespace",
		    p_mq_make, NULL) == 0)
		mq_unlink(MQ_NAME "-new");
	attempt(m, HOLD, false, "mq_open(O_CREAT) a queue in the machine's IPC namespace "
		"(a name a service would take)",
		"guard inode_create: no queue made in the machine's IPC namespace",
		p_mq_make, NULL);
	mq_unlink(MQ_NAME "-new");
	expect_errno(m, 0, "in an IPC namespace of its own (unshare -i), a queue made, "
		     "written and read inside", p_mq_own_ns, NULL);
	mq_close(mq_out);
	mq_out = (mqd_t)-1;
	mq_unlink(MQ_NAME);
}

void test_review7(void)
{
	const char *m = cg.main;

	tap_note("--- the twelfth session's allow-lists (review 7)");
	test_repair_hijack(m);
	test_cn_proc(m);
	attempt(m, HOLD, true,
		"RTM_GETDCB carrying DCB_CMD_SSTATE (a set) in init_net: a GET by its type, "
		"a change of a NIC's DCB state by its payload",
		"netlink_send: dcb_doit() serves RTM_GETDCB and RTM_SETDCB alike and runs "
		"the command in struct dcbmsg, so a GET by type is not a read",
		p_getdcb_set, NULL);
	test_icmp_error(m);
	test_mqueue(m);
	test_vsock(m);
	attempt(m, HOLD, true,
		"GTP's GTP_CMD_GETPDP from a network namespace of its own, naming init_net by "
		"GTPA_NET_NS_FD (a descriptor kept from before unshare)",
		"netlink_send: a namespace of its own may use only the generic netlink families "
		"whose state is its own (loader/genl.c); GTP's takes another namespace's "
		"devices by descriptor", p_gtp_netns_fd, NULL);
	attempt(m, HOLD, true,
		"nfnetlink_cthelper's NFNL_MSG_CTHELPER_DEL from a network namespace of its "
		"own (one list of userspace helpers for the machine)",
		"netlink_send: netfilter's subsystems whose state is not the namespace's are "
		"refused there (OSF's fingerprints, cthelper's helpers)",
		p_own_cthelper_del, NULL);
}
