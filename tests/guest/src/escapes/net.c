// SPDX-License-Identifier: GPL-2.0
/* Escapes: reaching the denied port some other way. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/sctp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <poll.h>

#include "escapes.h"

/* --- probes: network ----------------------------------------------------- */

enum net_how {
	N_CONNECT,		/* connect() */
	N_SENDTO,		/* sendto() with the address */
	N_SENDMSG,		/* sendmsg() with msg_name */
	N_SENDMMSG,		/* sendmmsg() with msg_name */
	N_CONNECTED_SENDTO,	/* connect() to PORT_OTHER, then sendto() the address */
	N_FASTOPEN,		/* TCP: sendto(MSG_FASTOPEN), which connects */
	N_URING_CONNECT,	/* io_uring IORING_OP_CONNECT */
	N_TFO_CONNECT,		/* TCP: TCP_FASTOPEN_CONNECT, then connect() */
	N_LISTEN_CONNECT,	/* TCP: listen on the address itself, then connect() */
};

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP	262
#endif
#ifndef SOL_SCTP
#define SOL_SCTP	132
#endif
#ifndef TCP_FASTOPEN_CONNECT
#define TCP_FASTOPEN_CONNECT	30
#endif

/* The address's family, when not the socket's. */
#define SA_INET		AF_INET		/* a sockaddr_in on an AF_INET6 socket */

#define SA_UNSPEC	(-1)		/* a sockaddr_in with sin_family AF_UNSPEC */

struct net {
	int family;
	int type;
	const char *addr;
	enum net_how how;
	int sa;		/* 0: the socket's family; SA_INET; SA_UNSPEC */
	int protocol;	/* socket()'s: 0 or IPPROTO_MPTCP */
};

/* Did a datagram carrying @tag reach listener @fd? Drains what is queued. */
bool udp_arrived(int fd, const char *tag)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[256];
	bool found = false;
	ssize_t n;

	poll(&pfd, 1, 500);
	while ((n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) >= 0) {
		buf[n] = '\0';
		if (!strcmp(buf, tag))
			found = true;
	}
	return found;
}

static int udp_listener_for(const char *addr)
{
	return strchr(addr, '.') ? l_udp4 : l_udp6;	/* IPv4 or IPv4-mapped */
}

static int p_net(const void *arg)
{
	const struct net *n = arg;
	struct sockaddr_storage ss, other;
	struct io_uring_sqe sqe = { 0 };
	struct iovec iov;
	struct mmsghdr mm = { 0 };
	struct msghdr msg = { 0 };
	socklen_t len, olen;
	struct uring r;
	char tag[32];
	int fd, err = 0, res;
	ssize_t sent;

	snprintf(tag, sizeof(tag), "esc-%d", getpid());
	fill_addr(&ss, &len, n->sa ? AF_INET : n->family, n->addr, PORT);
	if (n->sa == SA_UNSPEC)
		ss.ss_family = AF_UNSPEC;	/* udp_sendmsg() takes it for AF_INET */
	fd = socket(n->family, n->type | SOCK_CLOEXEC, n->protocol);
	if (fd < 0)
		return errno;
	iov.iov_base = tag;
	iov.iov_len = strlen(tag);
	msg.msg_name = &ss;
	msg.msg_namelen = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	switch (n->how) {
	case N_CONNECT:
		if (connect(fd, (struct sockaddr *)&ss, len))
			err = errno;
		return err;	/* connect() getting through is the escape */
	case N_SENDTO:
		sent = sendto(fd, tag, strlen(tag), 0, (struct sockaddr *)&ss, len);
		break;
	case N_SENDMSG:
		sent = sendmsg(fd, &msg, 0);
		break;
	case N_SENDMMSG:
		mm.msg_hdr = msg;
		sent = sendmmsg(fd, &mm, 1, 0) == 1 ? (ssize_t)mm.msg_len : -1;
		break;
	case N_CONNECTED_SENDTO:
		fill_addr(&other, &olen, n->family, n->addr, PORT_OTHER);
		if (connect(fd, (struct sockaddr *)&other, olen))
			return BROKEN;
		sent = sendto(fd, tag, strlen(tag), 0, (struct sockaddr *)&ss, len);
		break;
	case N_FASTOPEN:
		sent = sendto(fd, tag, strlen(tag), MSG_FASTOPEN, (struct sockaddr *)&ss, len);
		return sent < 0 ? errno : 0;	/* it connected and sent */
	case N_TFO_CONNECT:
		res = 1;
		if (setsockopt(fd, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, &res, sizeof(res)))
			return BROKEN;
		return connect(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	case N_LISTEN_CONNECT:
		res = socket(n->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (res < 0 || bind(res, (struct sockaddr *)&ss, len) || listen(res, 1))
			return BROKEN;
		return connect(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	case N_URING_CONNECT:
		err = uring_init(&r);
		if (err)
			return err;
		sqe.opcode = IORING_OP_CONNECT;
		sqe.fd = fd;
		sqe.addr = (uintptr_t)&ss;
		sqe.off = len;
		res = uring_run(&r, &sqe);
		return res < 0 ? -res : 0;
	default:
		return BROKEN;
	}
	if (sent < 0)
		return errno;
	return udp_arrived(udp_listener_for(n->addr), tag) ? 0 : BROKEN;
}

/*
 * A raw IPv4 socket (CAP_NET_RAW) sending a UDP datagram to port 25 of
 * its own making: the address it sends to has no port.
 */
static int p_raw_udp(const void *arg)
{
	struct {
		struct udphdr uh;
		char data[32];
	} pkt = { 0 };
	struct sockaddr_storage ss;
	socklen_t len;
	size_t dlen;
	int fd;

	(void)arg;
	snprintf(pkt.data, sizeof(pkt.data), "esc-%d", getpid());
	dlen = strlen(pkt.data);
	pkt.uh.source = htons(40000);
	pkt.uh.dest = htons(PORT);
	pkt.uh.len = htons(sizeof(pkt.uh) + dlen);
	pkt.uh.check = 0;	/* none: allowed for UDP over IPv4 */
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", 0);
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_UDP);
	if (fd < 0)
		return errno;
	if (sendto(fd, &pkt, sizeof(pkt.uh) + dlen, 0, (struct sockaddr *)&ss, len) < 0)
		return errno;
	return udp_arrived(l_udp4, pkt.data) ? 0 : BROKEN;
}

/* bind() a TCP socket to 0.0.0.0:PORT_BIND, the address's family @sa. */
static int p_bind(const void *sa)
{
	struct sockaddr_in sin = {
		.sin_family = *(const int *)sa,
		.sin_port = htons(PORT_BIND),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), err;
	socklen_t len = sizeof(sin);

	if (fd < 0)
		return errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	err = bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ? errno : 0;
	/* the port it got is the one asked for */
	if (!err && (getsockname(fd, (struct sockaddr *)&sin, &len) ||
		     ntohs(sin.sin_port) != PORT_BIND))
		err = BROKEN;
	close(fd);
	return err;
}

/*
 * An AF_INET6 TCP socket, IPV6_V6ONLY as @b->v6only, bound to
 * [@b->addr]:PORT_BIND; 0 when it got the port and, dual-stack, took an
 * IPv4 connection to 127.0.0.1:PORT_BIND.
 */
struct bind6 {
	const char *addr;
	int v6only;
};

static int p_bind6(const void *arg)
{
	const struct bind6 *b = arg;
	struct sockaddr_storage ss;
	int one = 1, fd, c, a, err = 0;
	socklen_t len;

	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &b->v6only, sizeof(b->v6only)))
		return BROKEN;
	fill_addr(&ss, &len, AF_INET6, b->addr, PORT_BIND);
	if (bind(fd, (struct sockaddr *)&ss, len))
		return errno;
	if (b->v6only)
		return 0;
	/* dual-stack: it serves IPv4 on the port */
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT_BIND);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listen(fd, 1) || c < 0 || connect(c, (struct sockaddr *)&ss, len))
		err = BROKEN;
	a = err ? -1 : accept(fd, NULL, NULL);
	if (a < 0)
		err = BROKEN;
	return err;
}

/* A socket connected outside (@req), passed in: send on it. */
static int p_passed_connected(const void *req)
{
	int fd = ask_outsider(*(const char *)req);
	char tag[32];
	ssize_t sent;

	if (fd < 0)
		return BROKEN;
	snprintf(tag, sizeof(tag), "esc-%d", getpid());
	sent = send(fd, tag, strlen(tag), MSG_NOSIGNAL);
	if (sent < 0)
		return errno;
	if (*(const char *)req == REQ_UDP_CONNECTED)
		return udp_arrived(l_udp4, tag) ? 0 : BROKEN;
	return 0;
}

/* A socket made outside (@req), not connected, passed in: reach port 25 with it. */
static int p_passed_fresh(const void *req)
{
	int fd = ask_outsider(*(const char *)req);
	struct sockaddr_storage ss;
	socklen_t len;
	char tag[32];

	if (fd < 0)
		return BROKEN;
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT);
	if (*(const char *)req == REQ_TCP_FRESH)
		return connect(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	snprintf(tag, sizeof(tag), "esc-%d", getpid());
	if (sendto(fd, tag, strlen(tag), 0, (struct sockaddr *)&ss, len) < 0)
		return errno;
	return udp_arrived(l_udp4, tag) ? 0 : BROKEN;
}

/*
 * Run from outside: a socket made inside the main cgroup (by a child
 * that joins it), passed out, connects to port 25 from here. Which
 * cgroup's policy the socket hooks follow: the socket's or the task's.
 */
static int p_socket_made_inside(const void *arg)
{
	struct sockaddr_storage ss;
	int sv[2], fd, s, err;
	socklen_t len;
	pid_t pid;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return BROKEN;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return BROKEN;
	if (pid == 0) {
		if (cgroup_enter(cg.main))
			_exit(1);
		s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		_exit(s < 0 || send_fd(sv[1], s) ? 1 : 0);
	}
	fd = recv_fd(sv[0]);
	wait_child(pid);
	if (fd < 0)
		return BROKEN;
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT);
	err = connect(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	close(fd);
	return err;
}

/* --- SCTP: its address lists (sctp_bind_connect) and sendmsg's cmsgs --------- */

/*
 * How an SCTP probe names its addresses, each on port @port: @addr[0]
 * and, when set, @addr[1] (a family each, by its form: "::1" or
 * "127.0.0.1").
 */
enum sctp_how {
	N_SCTP_CONNECT,		/* one-to-one socket: connect() addr[0] */
	N_SCTP_CONNECTX,	/* one-to-one socket: SCTP_SOCKOPT_CONNECTX, the list */
	N_SCTP_SENDMSG,		/* one-to-many socket: sendmsg() to addr[0], a new association */
	N_SCTP_DSTADDR,		/* the same, with addr[1] in an SCTP_DSTADDRV4/6 cmsg */
	N_SCTP_BIND,		/* bind() addr[0] */
	N_SCTP_BINDX,		/* SCTP_SOCKOPT_BINDX_ADD, the list, on an unbound socket */
	N_SCTP_PEER_V4,		/* connect() addr[0]: does the peer's INIT-ACK add 127.0.0.1? */
	N_SCTP_PRIMARY,		/* ... then SCTP_PRIMARY_ADDR addr[1], one of its addresses */
};

struct sctp_try {
	int family;		/* the socket's */
	enum sctp_how how;
	const char *addr[2];
	int port;
	int v6only;		/* on an AF_INET6 socket: IPV6_V6ONLY */
};

static int sctp_socket(const struct sctp_try *t, int type)
{
	int one = 1, fd = socket(t->family, type | SOCK_CLOEXEC, IPPROTO_SCTP);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (t->family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &t->v6only, sizeof(t->v6only))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int sa_family_of(const char *addr)
{
	return strchr(addr, ':') ? AF_INET6 : AF_INET;
}

/* t's addresses back to back, as connectx and bindx take them; their bytes */
static socklen_t sctp_list(const struct sctp_try *t, char *buf)
{
	struct sockaddr_storage ss;
	socklen_t len, n = 0;
	int i;

	for (i = 0; i < 2 && t->addr[i]; i++) {
		fill_addr(&ss, &len, sa_family_of(t->addr[i]), t->addr[i], t->port);
		memcpy(buf + n, &ss, len);
		n += len;
	}
	return n;
}

/* Is 127.0.0.1 one of the peer addresses of one-to-one socket @fd's association? */
static bool peer_has_v4_loopback(int fd)
{
	union {
		struct sctp_getaddrs ga;
		char buf[sizeof(struct sctp_getaddrs) + 16 * sizeof(struct sockaddr_in6)];
	} u = { 0 };
	socklen_t len = sizeof(u), off = 0;
	struct sockaddr_in *sin;
	struct sockaddr_in6 *sin6;
	__u32 i;

	if (getsockopt(fd, SOL_SCTP, SCTP_GET_PEER_ADDRS, &u, &len))
		return false;
	for (i = 0; i < u.ga.addr_num && off + sizeof(*sin) <= sizeof(u.buf) -
	     sizeof(struct sctp_getaddrs); i++) {
		sin = (struct sockaddr_in *)(u.ga.addrs + off);
		sin6 = (struct sockaddr_in6 *)sin;
		if (sin->sin_family == AF_INET) {
			if (sin->sin_addr.s_addr == htonl(INADDR_LOOPBACK))
				return true;
			off += sizeof(*sin);
		} else {
			if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr) &&
			    sin6->sin6_addr.s6_addr32[3] == htonl(INADDR_LOOPBACK))
				return true;
			off += sizeof(*sin6);
		}
	}
	return false;
}

static int p_sctp(const void *arg)
{
	const struct sctp_try *t = arg;
	struct sockaddr_storage ss;
	char buf[2 * sizeof(struct sockaddr_in6)], tag[32];
	char cbuf[CMSG_SPACE(sizeof(struct in6_addr))] = { 0 };
	struct sctp_prim prim = { 0 };
	struct iovec iov;
	struct msghdr msg = { 0 };
	struct cmsghdr *cm;
	socklen_t len;
	int fd, dst;

	snprintf(tag, sizeof(tag), "esc-%d", getpid());
	fill_addr(&ss, &len, sa_family_of(t->addr[0]), t->addr[0], t->port);
	switch (t->how) {
	case N_SCTP_CONNECT:
	case N_SCTP_CONNECTX:
	case N_SCTP_PEER_V4:
	case N_SCTP_PRIMARY:
		fd = sctp_socket(t, SOCK_STREAM);
		break;
	default:
		fd = sctp_socket(t, SOCK_SEQPACKET);
	}
	if (fd < 0)
		return errno == EPROTONOSUPPORT ? ENOSYS : errno;
	switch (t->how) {
	case N_SCTP_CONNECT:
		return connect(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	case N_SCTP_CONNECTX:
		len = sctp_list(t, buf);
		/* (the association's id: > 0) */
		return setsockopt(fd, SOL_SCTP, SCTP_SOCKOPT_CONNECTX, buf, len) < 0 ? errno : 0;
	case N_SCTP_BIND:
		return bind(fd, (struct sockaddr *)&ss, len) ? errno : 0;
	case N_SCTP_BINDX:
		len = sctp_list(t, buf);
		return setsockopt(fd, SOL_SCTP, SCTP_SOCKOPT_BINDX_ADD, buf, len) ? errno : 0;
	case N_SCTP_SENDMSG:
	case N_SCTP_DSTADDR:
		iov.iov_base = tag;
		iov.iov_len = strlen(tag);
		msg.msg_name = &ss;
		msg.msg_namelen = len;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		if (t->how == N_SCTP_DSTADDR) {
			dst = sa_family_of(t->addr[1]);
			msg.msg_control = cbuf;
			msg.msg_controllen = CMSG_SPACE(dst == AF_INET ? sizeof(struct in_addr) :
							sizeof(struct in6_addr));
			cm = CMSG_FIRSTHDR(&msg);
			cm->cmsg_level = IPPROTO_SCTP;
			cm->cmsg_type = dst == AF_INET ? SCTP_DSTADDRV4 : SCTP_DSTADDRV6;
			cm->cmsg_len = CMSG_LEN(dst == AF_INET ? sizeof(struct in_addr) :
						sizeof(struct in6_addr));
			inet_pton(dst, t->addr[1], CMSG_DATA(cm));
		}
		return sendmsg(fd, &msg, 0) < 0 ? errno : 0;
	case N_SCTP_PEER_V4:
	case N_SCTP_PRIMARY:
		if (connect(fd, (struct sockaddr *)&ss, len))
			return BROKEN;
		if (!peer_has_v4_loopback(fd))
			return t->how == N_SCTP_PEER_V4 ? EADDRNOTAVAIL : BROKEN;
		if (t->how == N_SCTP_PEER_V4)
			return 0;
		fill_addr(&ss, &len, sa_family_of(t->addr[1]), t->addr[1], t->port);
		memcpy(&prim.ssp_addr, &ss, len);
		return setsockopt(fd, SOL_SCTP, SCTP_PRIMARY_ADDR, &prim, sizeof(prim)) ? errno : 0;
	}
	return BROKEN;
}

/* An SCTP one-to-many socket listening on [::]:@port, IPv4 too; or -1. */
static int sctp_listener(int port)
{
	struct sockaddr_storage ss;
	int zero = 0, one = 1, fd;
	socklen_t len;

	fd = socket(AF_INET6, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_SCTP);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	fill_addr(&ss, &len, AF_INET6, "::", port);
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 128)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * SCTP, where the kernel has it (Debian's, sctp loaded outside the
 * jail): the main policy's connect rules (inet and inet6, port 25) and
 * the v4 policy's (inet 127.0.0.0/8 port 25; bind inet port 2525)
 * against every way SCTP names an address. The listener on port 25
 * takes associations from outside only: the controls.
 */
static void test_sctp(void)
{
	static const struct sctp_try
		connect4 = { AF_INET, N_SCTP_CONNECT, { "127.0.0.1" }, PORT, 0 },
		connect6 = { AF_INET6, N_SCTP_CONNECT, { "::1" }, PORT, 1 },
		connectx4 = { AF_INET, N_SCTP_CONNECTX, { "127.0.0.1" }, PORT, 0 },
		connectx6 = { AF_INET6, N_SCTP_CONNECTX, { "::1" }, PORT, 1 },
		connectx_v6 = { AF_INET6, N_SCTP_CONNECTX, { "::1" }, PORT, 0 },
		connectx_both = { AF_INET6, N_SCTP_CONNECTX, { "::1", "127.0.0.1" }, PORT, 0 },
		sendmsg4 = { AF_INET, N_SCTP_SENDMSG, { "127.0.0.1" }, PORT, 0 },
		sendmsg6 = { AF_INET6, N_SCTP_SENDMSG, { "::1" }, PORT, 1 },
		sendmsg_v6 = { AF_INET6, N_SCTP_SENDMSG, { "::1" }, PORT, 0 },
		dstaddr4 = { AF_INET6, N_SCTP_DSTADDR, { "::1", "127.0.0.1" }, PORT, 0 },
		dstaddr_mapped = { AF_INET6, N_SCTP_DSTADDR, { "::1", "::ffff:127.0.0.1" }, PORT, 0 },
		bind4 = { AF_INET, N_SCTP_BIND, { "0.0.0.0" }, PORT_BIND, 0 },
		bindx4 = { AF_INET, N_SCTP_BINDX, { "127.0.0.1" }, PORT_BIND, 0 },
		bindx_v6 = { AF_INET6, N_SCTP_BINDX, { "::1" }, PORT_BIND, 1 },
		bindx_both = { AF_INET6, N_SCTP_BINDX, { "::1", "127.0.0.1" }, PORT_BIND, 0 },
		bindx_any_only = { AF_INET6, N_SCTP_BINDX, { "::" }, PORT_BIND, 1 },
		bindx_any_dual = { AF_INET6, N_SCTP_BINDX, { "::" }, PORT_BIND, 0 },
		peer_v4 = { AF_INET6, N_SCTP_PEER_V4, { "::1" }, PORT, 0 },
		primary_v6 = { AF_INET6, N_SCTP_PRIMARY, { "::1", "::1" }, PORT, 0 },
		primary_v4 = { AF_INET6, N_SCTP_PRIMARY, { "::1", "127.0.0.1" }, PORT, 0 };
	const char *m = cg.main, *v4 = cg.v4;
	char buf[256];
	int l, rc;

	l = sctp_listener(PORT);
	if (l < 0) {
		skip("SCTP connect, connectx, sendmsg, SCTP_DSTADDRV4, bind, bindx, "
		     "SCTP_PRIMARY_ADDR", errno == EPROTONOSUPPORT ?
		     "no SCTP in this kernel" : "no SCTP listener on port 25");
		return;
	}
	tap_note("--- network, SCTP: %s denies connect to port 25 (inet and inet6)", m);
	attempt(m, HOLD, true, "SCTP connect() 127.0.0.1:25", "socket_connect", p_sctp,
		&connect4);
	attempt(m, HOLD, true, "SCTP connect() [::1]:25", "socket_connect", p_sctp, &connect6);
	attempt(m, HOLD, true, "SCTP SCTP_SOCKOPT_CONNECTX [127.0.0.1:25]",
		"sctp_bind_connect: every address of the list", p_sctp, &connectx4);
	attempt(m, HOLD, true, "SCTP SCTP_SOCKOPT_CONNECTX [[::1]:25]",
		"sctp_bind_connect: every address of the list", p_sctp, &connectx6);
	attempt(m, HOLD, true, "SCTP one-to-many sendmsg() to 127.0.0.1:25, a new association",
		"socket_sendmsg (msg_name), sctp_bind_connect (SCTP_SENDMSG_CONNECT)", p_sctp,
		&sendmsg4);
	attempt(m, HOLD, true, "SCTP one-to-many sendmsg() to [::1]:25, a new association",
		"socket_sendmsg (msg_name), sctp_bind_connect (SCTP_SENDMSG_CONNECT)", p_sctp,
		&sendmsg6);

	tap_note("--- network, SCTP: %s denies connect to inet 127.0.0.0/8 port 25 and bind to "
		 "inet port %d; [::1] is allowed", v4, PORT_BIND);
	rc = probe_pid(v4, p_sctp, &connectx_v6, NULL);
	tap_result(rc == 0, "control: SCTP_SOCKOPT_CONNECTX [[::1]:25] works in %s (got %s)", v4,
		   errname(rc));
	attempt(v4, HOLD, true, "SCTP SCTP_SOCKOPT_CONNECTX [[::1]:25, 127.0.0.1:25]: the "
		"second address denied", "sctp_bind_connect: every address of the list", p_sctp,
		&connectx_both);
	rc = probe_pid(v4, p_sctp, &sendmsg_v6, NULL);
	tap_result(rc == 0, "control: SCTP sendmsg() to [::1]:25 works in %s (got %s)", v4,
		   errname(rc));
	attempt(v4, HOLD, true, "SCTP sendmsg() to [::1]:25 with 127.0.0.1 in an SCTP_DSTADDRV4 "
		"cmsg (a second peer address, no LSM hook of its own)",
		"socket_sendmsg reads SCTP_DSTADDRV4/6 cmsgs", p_sctp, &dstaddr4);
	attempt(v4, HOLD, true, "SCTP sendmsg() to [::1]:25 with ::ffff:127.0.0.1 in an "
		"SCTP_DSTADDRV6 cmsg", "socket_sendmsg: an IPv4-mapped address is IPv4", p_sctp,
		&dstaddr_mapped);
	attempt(v4, HOLD, true, "SCTP bind() 0.0.0.0:2525", "socket_bind", p_sctp, &bind4);
	attempt(v4, HOLD, true, "SCTP SCTP_SOCKOPT_BINDX_ADD [127.0.0.1:2525]",
		"sctp_bind_connect", p_sctp, &bindx4);
	rc = probe_pid(v4, p_sctp, &bindx_v6, NULL);
	tap_result(rc == 0, "control: SCTP_SOCKOPT_BINDX_ADD [[::1]:%d] works in %s (got %s)",
		   PORT_BIND, v4, errname(rc));
	attempt(v4, HOLD, true, "SCTP SCTP_SOCKOPT_BINDX_ADD [[::1]:2525, 127.0.0.1:2525]: the "
		"second address denied", "sctp_bind_connect: every address of the list", p_sctp,
		&bindx_both);
	rc = probe_pid(v4, p_sctp, &bindx_any_only, NULL);
	tap_result(rc == 0, "control: IPV6_V6ONLY on, SCTP_SOCKOPT_BINDX_ADD [[::]:%d] works in "
		   "%s (got %s)", PORT_BIND, v4, errname(rc));
	attempt(v4, HOLD, true, "IPV6_V6ONLY off: SCTP_SOCKOPT_BINDX_ADD [[::]:2525], which "
		"takes IPv4 too", "sctp_bind_connect judges it as 0.0.0.0:2525 too", p_sctp,
		&bindx_any_dual);
	/*
	 * The listener is bound to [::] and IPv4 too: its INIT-ACK lists its
	 * addresses, 127.0.0.1 among them, and the association takes them
	 * with no LSM hook (peer-announced addresses, as MPTCP's ADD_ADDR).
	 */
	attempt(v4, DOC, true, "SCTP connect() [::1]:25: the peer's INIT-ACK adds 127.0.0.1 "
		"to the association's peer addresses",
		"addresses the peer announces (INIT, INIT-ACK, ASCONF) are not judged: "
		"POLICY.md, every way to an address", p_sctp, &peer_v4);
	if (probe_pid(cg.ctl, p_sctp, &peer_v4, NULL) == 0) {
		rc = probe_pid(v4, p_sctp, &primary_v6, NULL);
		tap_result(rc == 0, "control: SCTP_PRIMARY_ADDR [::1]:25 works in %s (got %s)",
			   v4, errname(rc));
		attempt(v4, HOLD, true, "SCTP_PRIMARY_ADDR 127.0.0.1:25, a peer address the "
			"peer announced: the task's own traffic to it", "sctp_bind_connect: "
			"a connect", p_sctp, &primary_v4);
	} else {
		skip("SCTP_PRIMARY_ADDR 127.0.0.1:25", "the peer announced no 127.0.0.1");
	}
	while (recv(l, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;
	close(l);
}

void test_network(void)
{
	static const struct net
		tcp4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_CONNECT, 0, 0 },
		tcp6 = { AF_INET6, SOCK_STREAM, "::1", N_CONNECT, 0, 0 },
		tcp_mapped = { AF_INET6, SOCK_STREAM, "::ffff:127.0.0.1", N_CONNECT, 0, 0 },
		udp4_connect = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_CONNECT, 0, 0 },
		udp6_connect = { AF_INET6, SOCK_DGRAM, "::1", N_CONNECT, 0, 0 },
		udp4_sendto = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDTO, 0, 0 },
		udp6_sendto = { AF_INET6, SOCK_DGRAM, "::1", N_SENDTO, 0, 0 },
		udp_mapped_sendto = { AF_INET6, SOCK_DGRAM, "::ffff:127.0.0.1", N_SENDTO, 0, 0 },
		udp4_sendmsg = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDMSG, 0, 0 },
		udp6_sendmsg = { AF_INET6, SOCK_DGRAM, "::1", N_SENDMSG, 0, 0 },
		udp4_sendmmsg = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDMMSG, 0, 0 },
		udp4_redirect = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_CONNECTED_SENDTO, 0, 0 },
		tfo4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_FASTOPEN, 0, 0 },
		tfo6 = { AF_INET6, SOCK_STREAM, "::1", N_FASTOPEN, 0, 0 },
		uring4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_URING_CONNECT, 0, 0 },
		uring6 = { AF_INET6, SOCK_STREAM, "::1", N_URING_CONNECT, 0, 0 },
		tcp4_any = { AF_INET, SOCK_STREAM, "0.0.0.0", N_CONNECT, 0, 0 },
		tcp6_any = { AF_INET6, SOCK_STREAM, "::", N_CONNECT, 0, 0 },
		udp4_unspec_sendto = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDTO, SA_UNSPEC, 0 },
		udp4_unspec_sendmsg = { AF_INET, SOCK_DGRAM, "127.0.0.1", N_SENDMSG, SA_UNSPEC, 0 },
		udp6_sin_sendto = { AF_INET6, SOCK_DGRAM, "127.0.0.1", N_SENDTO, SA_INET, 0 },
		tfo_connect4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_TFO_CONNECT, 0, 0 },
		mptcp4 = { AF_INET, SOCK_STREAM, "127.0.0.1", N_CONNECT, 0, IPPROTO_MPTCP },
		mptcp6 = { AF_INET6, SOCK_STREAM, "::1", N_CONNECT, 0, IPPROTO_MPTCP },
		lo2 = { AF_INET, SOCK_STREAM, "127.0.0.2", N_LISTEN_CONNECT, 0, 0 };
	static const int sa_inet = AF_INET, sa_unspec = AF_UNSPEC;
	static const struct bind6 any6_dual = { "::", 0 }, any6_only = { "::", 1 },
		mapped_any = { "::ffff:0.0.0.0", 0 };
	static const char udp_conn = REQ_UDP_CONNECTED, tcp_conn = REQ_TCP_CONNECTED;
	static const char tcp_fresh = REQ_TCP_FRESH, udp_fresh = REQ_UDP_FRESH;
	bool global = !strcmp(lab_backend, "global");
	const char *m = cg.main;
	int rc;

	tap_note("--- network: connect to port 25, family inet and family inet6");
	attempt(m, HOLD, true, "TCP connect 127.0.0.1:25", "socket_connect", p_net, &tcp4);
	attempt(m, HOLD, true, "TCP connect [::1]:25", "socket_connect, the inet6 rule",
		p_net, &tcp6);
	attempt(m, HOLD, true, "TCP connect [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"socket_connect", p_net, &tcp_mapped);
	attempt(m, HOLD, true, "UDP connect() 127.0.0.1:25", "socket_connect",
		p_net, &udp4_connect);
	attempt(m, HOLD, true, "UDP connect() [::1]:25", "socket_connect", p_net, &udp6_connect);
	attempt(m, HOLD, true, "UDP sendto() 127.0.0.1:25 without connect",
		"socket_sendmsg checks msg_name", p_net, &udp4_sendto);
	attempt(m, HOLD, true, "UDP sendto() [::1]:25 without connect",
		"socket_sendmsg checks msg_name", p_net, &udp6_sendto);
	attempt(m, HOLD, true, "UDP sendto() [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"socket_sendmsg", p_net, &udp_mapped_sendto);
	attempt(m, HOLD, true, "UDP sendmsg() with msg_name 127.0.0.1:25", "socket_sendmsg",
		p_net, &udp4_sendmsg);
	attempt(m, HOLD, true, "UDP sendmsg() with msg_name [::1]:25", "socket_sendmsg",
		p_net, &udp6_sendmsg);
	attempt(m, HOLD, true, "UDP sendto() 127.0.0.1:25, the sockaddr_in's sin_family "
		"AF_UNSPEC (udp_sendmsg() takes it as AF_INET)",
		"socket_sendmsg: POLICY.md, connect rules also check sendto with an address",
		p_net, &udp4_unspec_sendto);
	attempt(m, HOLD, true, "UDP sendmsg() with msg_name 127.0.0.1:25, sin_family AF_UNSPEC",
		"socket_sendmsg", p_net, &udp4_unspec_sendmsg);
	attempt(m, HOLD, true, "UDP sendto() a sockaddr_in 127.0.0.1:25 on an AF_INET6 socket",
		"socket_sendmsg: the address's own family", p_net, &udp6_sin_sendto);
	attempt(m, HOLD, true, "TCP connect 0.0.0.0:25 (Linux connects to loopback)",
		"socket_connect: the rule is on any address", p_net, &tcp4_any);
	attempt(m, HOLD, true, "TCP connect [::]:25 (Linux connects to ::1)",
		"socket_connect: the rule is on any address", p_net, &tcp6_any);
	attempt(m, HOLD, true, "UDP sendmmsg() with msg_name 127.0.0.1:25",
		"socket_sendmsg, once per message", p_net, &udp4_sendmmsg);
	attempt(m, HOLD, true, "UDP connect() to port 26 (allowed), then sendto() port 25",
		"socket_sendmsg checks msg_name", p_net, &udp4_redirect);
	attempt(m, HOLD, true, "TCP Fast Open: sendto(MSG_FASTOPEN) 127.0.0.1:25, no connect()",
		"socket_sendmsg sees the address", p_net, &tfo4);
	attempt(m, HOLD, true, "TCP Fast Open: sendto(MSG_FASTOPEN) [::1]:25, no connect()",
		"socket_sendmsg sees the address", p_net, &tfo6);
	attempt(m, HOLD, true, "TCP Fast Open: TCP_FASTOPEN_CONNECT, then connect() 127.0.0.1:25",
		"socket_connect", p_net, &tfo_connect4);
	rc = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_MPTCP);
	if (rc >= 0) {
		close(rc);
		attempt(m, HOLD, true, "MPTCP (IPPROTO_MPTCP) connect 127.0.0.1:25",
			"socket_connect: tcp rules are MPTCP's", p_net, &mptcp4);
		attempt(m, HOLD, true, "MPTCP (IPPROTO_MPTCP) connect [::1]:25",
			"socket_connect: tcp rules are MPTCP's", p_net, &mptcp6);
	} else {
		skip("MPTCP connect 127.0.0.1:25 and [::1]:25", "no MPTCP in this kernel");
	}
	attempt(m, HOLD, true, "io_uring IORING_OP_CONNECT 127.0.0.1:25", "socket_connect",
		p_net, &uring4);
	attempt(m, HOLD, true, "io_uring IORING_OP_CONNECT [::1]:25", "socket_connect",
		p_net, &uring6);
	attempt(m, global ? HOLD : DOC, true,
		"connect() 127.0.0.1:25 with a TCP socket made outside, passed in",
		global ? "the global backend checks the current task's cgroup" :
		"on the cgroup backend socket hooks run for the cgroup the socket was made "
		"in (POLICY.md: nesting, backends)", p_passed_fresh, &tcp_fresh);
	attempt(m, global ? HOLD : DOC, true,
		"sendto() 127.0.0.1:25 with a UDP socket made outside, passed in",
		global ? "the global backend checks the current task's cgroup" :
		"socket hooks run for the calling task's cgroup on 6.1 (POLICY.md)",
		p_passed_fresh, &udp_fresh);
	rc = probe_pid(cg.ctl, p_socket_made_inside, NULL, NULL);
	tap_result(rc == 0 || rc == EPERM, "which cgroup socket hooks follow: a socket made in %s, "
		   "passed out, connect() 127.0.0.1:25 from %s: %s, so the %s",
		   m, cg.ctl, errname(rc), rc == EPERM ? "socket's cgroup" : "task's cgroup");
	if (!global && rc == 0)
		tap_note("as POLICY.md says: the cgroup backend follows the calling "
			 "task's cgroup on 6.1, like the global backend");
	record("(info) a socket made inside, passed out, connect() :25 from outside",
	       rc == EPERM ? "denied: hooks follow the socket's cgroup" :
	       rc == 0 ? "allowed: hooks follow the task's cgroup" : "could not try", NULL);
	attempt(m, DOC, false, "send() on a TCP socket connected to :25 outside, passed in",
		"no rule on an already-connected socket's traffic (POLICY.md: cannot express "
		"yet)", p_passed_connected, &tcp_conn);
	attempt(m, DOC, false, "send() on a UDP socket connected to :25 outside, passed in",
		"no rule on an already-connected socket's traffic", p_passed_connected,
		&udp_conn);
	attempt(m, DOC, true, "a raw IPv4 socket sends a hand-made UDP datagram to port 25",
		"the raw socket's address has no port; needs CAP_NET_RAW, which a capability "
		"rule (net_raw) or a socket rule (type raw) would deny", p_raw_udp, NULL);

	tap_note("--- network, %s: connect family inet cidr 127.0.0.0/8 port 25; bind family "
		 "inet port %d", cg.v4, PORT_BIND);
	rc = probe_pid(cg.v4, p_net, &tcp6, NULL);
	tap_result(rc == 0, "control: TCP connect [::1]:25 works in %s: the rule is inet only "
		   "(got %s)", cg.v4, errname(rc));
	attempt(cg.v4, HOLD, false,
		"inet rule only: TCP connect [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"an IPv4-mapped address is IPv4 traffic", p_net, &tcp_mapped);
	attempt(cg.v4, HOLD, false,
		"inet rule only: UDP sendto() [::ffff:127.0.0.1]:25 on an AF_INET6 socket",
		"an IPv4-mapped address is IPv4 traffic", p_net, &udp_mapped_sendto);
	attempt(cg.v4, HOLD, true, "cidr 127.0.0.0/8: TCP connect 127.0.0.2:25 (a listener "
		"of the probe's own there)", "socket_connect: the prefix covers all of loopback",
		p_net, &lo2);
	attempt(cg.v4, DOC, true, "cidr 127.0.0.0/8: TCP connect 0.0.0.0:25, which Linux "
		"connects to 127.0.0.1", "rules match the address as given, and 0.0.0.0 (or [::]) "
		"means this host; a cidr rule meant for loopback must list 0.0.0.0/32 too",
		p_net, &tcp4_any);
	attempt(cg.v4, HOLD, true, "bind 0.0.0.0:2525", "socket_bind", p_bind, &sa_inet);
	attempt(cg.v4, HOLD, true, "bind 0.0.0.0:2525 with sin_family AF_UNSPEC (inet_bind() "
		"takes it as AF_INET for INADDR_ANY)", "socket_bind", p_bind, &sa_unspec);
	rc = probe_pid(cg.v4, p_bind6, &any6_only, NULL);
	tap_result(rc == 0, "control: IPV6_V6ONLY on, bind [::]:%d works in %s: the bind rule "
		   "is inet only (got %s)", PORT_BIND, cg.v4, errname(rc));
	attempt(cg.v4, HOLD, true, "IPV6_V6ONLY off: bind [::]:2525, which takes IPv4 "
		"connections to 127.0.0.1:2525", "socket_bind judges it as 0.0.0.0:2525 too",
		p_bind6, &any6_dual);
	attempt(cg.v4, HOLD, true, "bind [::ffff:0.0.0.0]:2525 on an AF_INET6 socket",
		"socket_bind: an IPv4-mapped address is IPv4", p_bind6, &mapped_any);
	test_sctp();
}
