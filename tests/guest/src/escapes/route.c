// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: a datagram sent somewhere else than the address the rules
 * judge. connect and sendto rules judge msg_name (or connect()'s
 * address); a header the task writes itself (a raw socket with
 * IP_HDRINCL, which IPPROTO_RAW implies) names any destination and
 * port, and a source route (IP_RETOPTS, an IPv6 routing header) sends
 * the datagram to its first hop. In init_net the guard refuses both at
 * sendmsg (socket_sendmsg): each control, in the sibling cgroup, shows
 * the datagram leaving, and for a written header arriving at port 25.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>

#include "escapes.h"

#define PING_RANGE	"/proc/sys/net/ipv4/ping_group_range"

#ifndef IPV6_RTHDR
#define IPV6_RTHDR	57
#endif
#define IPV6_2292RTHDR_TYPE	5	/* the RFC 2292 cmsg_type, glibc's IPV6_2292RTHDR */

/* How a probe writes its own header: which socket, which family. */
enum hdr_how {
	HDR_RAW4,		/* AF_INET, IPPROTO_RAW */
	HDR_ICMP4,		/* AF_INET, IPPROTO_ICMP with IP_HDRINCL set */
	HDR_RAW6,		/* AF_INET6, IPPROTO_RAW */
};

static __u16 csum_fold(__u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

static __u32 csum_add(__u32 sum, const void *buf, size_t len)
{
	const __u8 *p = buf;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (__u32)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (__u32)p[len - 1] << 8;
	return sum;
}

/*
 * A UDP datagram to loopback's port 25 under a header of the task's own,
 * sent to the same loopback address with no port (which no port rule
 * names): 0 when it reached the listener on port 25.
 */
static int p_own_header(const void *arg)
{
	enum hdr_how how = *(const enum hdr_how *)arg;
	struct {
		struct iphdr ip;
		struct udphdr uh;
		char data[32];
	} __attribute__((packed)) pkt4 = { 0 };
	struct {
		struct ip6_hdr ip;
		struct udphdr uh;
		char data[32];
	} __attribute__((packed)) pkt6 = { 0 };
	struct sockaddr_storage ss;
	size_t dlen, len4, len6;
	socklen_t slen;
	char tag[32];
	__u32 sum;
	int fd, one = 1;
	ssize_t n;

	snprintf(tag, sizeof(tag), "hdr-%d-%d", (int)how, getpid());
	dlen = strlen(tag);

	/* IPv4: the kernel fills the header's checksum; UDP's may be 0 */
	len4 = sizeof(pkt4.ip) + sizeof(pkt4.uh) + dlen;
	pkt4.ip.version = 4;
	pkt4.ip.ihl = 5;
	pkt4.ip.ttl = 64;
	pkt4.ip.protocol = IPPROTO_UDP;
	pkt4.ip.tot_len = htons(len4);
	pkt4.ip.saddr = htonl(INADDR_LOOPBACK);
	pkt4.ip.daddr = htonl(INADDR_LOOPBACK);
	pkt4.uh.source = htons(40000);
	pkt4.uh.dest = htons(PORT);
	pkt4.uh.len = htons(sizeof(pkt4.uh) + dlen);
	memcpy(pkt4.data, tag, dlen);

	/* IPv6: UDP's checksum is not optional; over the pseudo-header */
	len6 = sizeof(pkt6.ip) + sizeof(pkt6.uh) + dlen;
	pkt6.ip.ip6_flow = htonl(6u << 28);
	pkt6.ip.ip6_plen = htons(sizeof(pkt6.uh) + dlen);
	pkt6.ip.ip6_nxt = IPPROTO_UDP;
	pkt6.ip.ip6_hlim = 64;
	pkt6.ip.ip6_src = in6addr_loopback;
	pkt6.ip.ip6_dst = in6addr_loopback;
	pkt6.uh.source = htons(40000);
	pkt6.uh.dest = htons(PORT);
	pkt6.uh.len = pkt6.ip.ip6_plen;
	memcpy(pkt6.data, tag, dlen);
	sum = csum_add(0, &pkt6.ip.ip6_src, 32) + sizeof(pkt6.uh) + dlen + IPPROTO_UDP;
	sum = csum_add(sum, &pkt6.uh, sizeof(pkt6.uh) + dlen);
	pkt6.uh.check = htons(csum_fold(sum) ? csum_fold(sum) : 0xffff);

	switch (how) {
	case HDR_RAW4:
	case HDR_ICMP4:
		fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC,
			    how == HDR_RAW4 ? IPPROTO_RAW : IPPROTO_ICMP);
		if (fd < 0)
			return errno;
		if (how == HDR_ICMP4 && setsockopt(fd, IPPROTO_IP, IP_HDRINCL, &one, sizeof(one))) {
			close(fd);
			return errno;
		}
		fill_addr(&ss, &slen, AF_INET, "127.0.0.1", 0);
		n = sendto(fd, &pkt4, len4, 0, (struct sockaddr *)&ss, slen);
		break;
	case HDR_RAW6:
		fd = socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
		if (fd < 0)
			return errno;
		fill_addr(&ss, &slen, AF_INET6, "::1", 0);
		n = sendto(fd, &pkt6, len6, 0, (struct sockaddr *)&ss, slen);
		break;
	default:
		return BROKEN;
	}
	close(fd);
	if (n < 0)
		return errno;
	return udp_arrived(how == HDR_RAW6 ? l_udp6 : l_udp4, tag) ? 0 : BROKEN;
}

/* Which source route a probe puts in its control message. */
enum route_how {
	ROUTE_LSRR4,		/* IP_RETOPTS: loose source route, first hop 127.0.0.2 */
	ROUTE_RTHDR6,		/* IPV6_RTHDR: a type 2 routing header, ::1 */
	ROUTE_RTHDR6_2292,	/* the same, RFC 2292's cmsg_type */
};

/*
 * A datagram to the allowed PORT_OTHER with a source route: 0 when the
 * kernel took it. The kernel takes an IPv6 routing header from a control
 * message only of type 2 (Mobile IPv6, IPV6_MIP6): EINVAL elsewhere,
 * which this reports as ENOSYS.
 */
static int p_source_route(const void *arg)
{
	enum route_how how = *(const enum route_how *)arg;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(64)];
	} ctl = { 0 };
	struct cmsghdr *c = &ctl.h;
	struct sockaddr_storage ss;
	struct msghdr msg = { 0 };
	struct iovec iov;
	char data[] = "route";
	int fd, family = how == ROUTE_LSRR4 ? AF_INET : AF_INET6;
	ssize_t n;

	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	fill_addr(&ss, &msg.msg_namelen, family, family == AF_INET ? "127.0.0.1" : "::1",
		  PORT_OTHER);
	iov.iov_base = data;
	iov.iov_len = sizeof(data);
	msg.msg_name = &ss;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	if (how == ROUTE_LSRR4) {
		/* NOP, then LSRR (type 131, length 7, pointer 4) through 127.0.0.2 */
		static const __u8 opt[8] = { IPOPT_NOP, IPOPT_LSRR, 7, 4, 127, 0, 0, 2 };

		c->cmsg_level = IPPROTO_IP;
		c->cmsg_type = IP_RETOPTS;
		c->cmsg_len = CMSG_LEN(sizeof(opt));
		memcpy(CMSG_DATA(c), opt, sizeof(opt));
		msg.msg_controllen = CMSG_SPACE(sizeof(opt));
	} else {
		/* nexthdr, hdrlen 2, type 2, segments left 1, reserved, an address */
		__u8 rh[24] = { 0, 2, 2, 1 };

		memcpy(rh + 8, &in6addr_loopback, 16);
		c->cmsg_level = IPPROTO_IPV6;
		c->cmsg_type = how == ROUTE_RTHDR6 ? IPV6_RTHDR : IPV6_2292RTHDR_TYPE;
		c->cmsg_len = CMSG_LEN(sizeof(rh));
		memcpy(CMSG_DATA(c), rh, sizeof(rh));
		msg.msg_controllen = CMSG_SPACE(sizeof(rh));
	}
	n = sendmsg(fd, &msg, 0);
	close(fd);
	if (n < 0)
		return errno == EINVAL && family == AF_INET6 ? ENOSYS : errno;
	return 0;
}

/*
 * An ICMP echo request to 127.0.0.1 on a ping socket (SOCK_DGRAM,
 * IPPROTO_ICMP), which sends echo requests only: ping's way in init_net,
 * where raw ICMP is refused.
 */
static int p_ping(const void *arg)
{
	struct { __u8 type, code; __u16 check, id, seq; } echo = { .type = 8 };
	struct sockaddr_storage ss;
	socklen_t slen;
	ssize_t n;
	int fd;

	(void)arg;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (fd < 0)
		return errno;
	fill_addr(&ss, &slen, AF_INET, "127.0.0.1", 0);
	n = sendto(fd, &echo, sizeof(echo), 0, (struct sockaddr *)&ss, slen);
	close(fd);
	return n < 0 ? errno : 0;
}

void test_elsewhere(void)
{
	static const enum hdr_how raw4 = HDR_RAW4, icmp4 = HDR_ICMP4, raw6 = HDR_RAW6;
	static const enum route_how lsrr = ROUTE_LSRR4, rthdr = ROUTE_RTHDR6;
	static const enum route_how rthdr2292 = ROUTE_RTHDR6_2292;
	const char *m = cg.main;

	tap_note("--- a datagram sent elsewhere than the address judged (init_net)");
	char range[64] = "";

	/* ping sockets for root's group, as systemd's default ping_group_range */
	if (read_str(PING_RANGE, range, sizeof(range)) || write_str(PING_RANGE, "0 2147483647"))
		tap_note("set %s: %s", PING_RANGE, strerror(errno));
	expect_errno(m, 0, "a ping socket's echo request to 127.0.0.1 passes inside", p_ping,
		     NULL);
	if (range[0])
		write_str(PING_RANGE, range);
	attempt(m, HOLD, true, "IPPROTO_RAW socket: UDP to 127.0.0.1:25 in a header of its own, "
		"sent to 127.0.0.1 (no port)",
		"guard socket_sendmsg: a header the task writes is refused in init_net",
		p_own_header, &raw4);
	attempt(m, HOLD, true, "raw ICMP socket with IP_HDRINCL: UDP to 127.0.0.1:25 in a "
		"header of its own", "guard socket_create: no raw ICMP in init_net (and "
		"socket_sendmsg: no IP_HDRINCL send)",
		p_own_header, &icmp4);
	attempt(m, HOLD, true, "IPv6 IPPROTO_RAW socket: UDP to [::1]:25 in a header of its own",
		"guard socket_sendmsg: a header the task writes is refused in init_net",
		p_own_header, &raw6);
	attempt(m, HOLD, true, "UDP sendmsg() to 127.0.0.1:26 with an IP_RETOPTS loose source "
		"route through 127.0.0.2",
		"guard socket_sendmsg: source routes in control messages refused in init_net",
		p_source_route, &lsrr);
	attempt(m, HOLD, true, "UDP sendmsg() to [::1]:26 with an IPV6_RTHDR routing header",
		"guard socket_sendmsg: source routes in control messages refused in init_net",
		p_source_route, &rthdr);
	attempt(m, HOLD, true, "UDP sendmsg() to [::1]:26 with an IPV6_2292RTHDR routing header",
		"guard socket_sendmsg: source routes in control messages refused in init_net",
		p_source_route, &rthdr2292);
}
