// SPDX-License-Identifier: GPL-2.0
/*
 * Escapes: the eighth review's (issue #24 item 9), against the
 * thirteenth session's socket_sendmsg (no IP_HDRINCL send and no source
 * route in a control message, in init_net), the engine's reading of
 * SCTP's SCTP_DSTADDRV4/6 cmsgs, and the machine's POSIX message queues.
 * Each attempt's control runs the same probe in the sibling cgroup
 * without a policy, where it must get through.
 *
 * - A 32-bit sendmsg() (the compat entry: int 0x80, nr 370, from this
 *   64-bit program; an i386 binary is the same) carrying a source route
 *   (IP_RETOPTS with LSRR) on a UDP socket of init_net. The compat path
 *   copies the control messages into kernel memory
 *   (cmsghdr_from_user_compat_to_kern()) but leaves the msghdr's
 *   msg_control_is_user set from __get_compat_msghdr(), and the guard's
 *   socket_sendmsg scanned only when that flag was clear: the source
 *   route passed, as it does not from a 64-bit sendmsg(). debian only
 *   (lsm has no IA32_EMULATION: skipped there, ENOSYS).
 * - The same door into the engine's rules: a 32-bit sendmsg() on a
 *   one-to-many SCTP socket to an allowed peer ([::1]:25) carrying a
 *   denied one (127.0.0.1) in an SCTP_DSTADDRV4 cmsg, which the
 *   association takes as a peer address with no LSM hook of its own.
 *   The engine's socket_sendmsg read the cmsgs under the same condition:
 *   the denied address passed. debian only (SCTP and compat).
 * - An IPPROTO_RAW socket of init_net (which socket_create keeps, for
 *   iptables' sockopts) with IP_HDRINCL (IPV6_HDRINCL) cleared, a
 *   socket option the allow-list keeps: socket_sendmsg refused a raw
 *   send only while hdrincl was set, so the socket sends datagrams of
 *   its own payload to any address (protocol 255: the kernel writes the
 *   header), where docs/threat-model.md says every IPPROTO_RAW send is
 *   refused; a raw socket passed in from outside (raw ICMP: errors for
 *   other tasks' sockets) passed the same way. Both families, every
 *   kernel. Closed: socket_sendmsg refuses every raw send in init_net.
 * - A POSIX message queue of the machine's IPC namespace through a mount
 *   of its mqueue filesystem made outside (/dev/mqueue, as systemd
 *   mounts it): opening, making and removing a queue are refused, but
 *   chmod() and chown() are not (the guard's inode_setattr judges bpffs
 *   and cgroup2 only): a service's 0600 queue made 0666 is any user's
 *   outside to read and write, made 0 or handed to another owner it is
 *   lost to its service. debian only (lsm has no POSIX queues).
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <netinet/ip.h>
#include <fcntl.h>
#include <mqueue.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <sys/wait.h>

#include "escapes.h"

#define SCTP_DSTADDRV4	7	/* linux/sctp.h, which wants its own includes first */

#define NR32_GETPID	20
#define NR32_SENDMSG	370

/* struct compat_msghdr, compat_iovec, compat_cmsghdr: 32-bit pointers */
struct c32_msghdr {
	uint32_t name, namelen, iov, iovlen, control, controllen, flags;
};

struct c32_iovec {
	uint32_t base, len;
};

struct c32_cmsghdr {
	uint32_t len;
	int32_t level, type;
};

/* A page below 4 GiB: int 0x80 takes 32-bit pointers */
static char *low;

static long int80(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

/*
 * Does int 0x80 reach a system call? Tried in a child: without
 * IA32_EMULATION it is a general protection fault, SIGSEGV.
 */
static bool compat_entry(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0)
		_exit(int80(NR32_GETPID, 0, 0, 0) == getpid() ? 0 : 1);
	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Is there a compat entry (IA32_EMULATION) and a page below 4 GiB for it? */
static bool compat_ready(void)
{
	if (!low) {
		low = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
		if (low == MAP_FAILED) {
			low = NULL;
			return false;
		}
	}
	return compat_entry();
}

/*
 * A 32-bit sendmsg() of 4 bytes on @fd to @ss, with one control message
 * (@level, @type, @data of @dlen bytes, 4-byte aligned): 0 when sent.
 */
static int compat_sendmsg(int fd, const struct sockaddr_storage *ss, socklen_t slen,
			  int level, int type, const void *data, uint32_t dlen)
{
	struct c32_msghdr *m = (void *)low;
	struct c32_iovec *iov = (void *)(low + 64);
	char *name = low + 128, *ctl = low + 256, *payload = low + 512;
	struct c32_cmsghdr *cm = (void *)ctl;
	long ret;

	memset(low, 0, 4096);
	memcpy(name, ss, slen);
	memcpy(payload, "esc8", 4);
	iov->base = (uint32_t)(uintptr_t)payload;
	iov->len = 4;
	cm->len = sizeof(*cm) + dlen;
	cm->level = level;
	cm->type = type;
	memcpy(ctl + sizeof(*cm), data, dlen);
	m->name = (uint32_t)(uintptr_t)name;
	m->namelen = slen;
	m->iov = (uint32_t)(uintptr_t)iov;
	m->iovlen = 1;
	m->control = (uint32_t)(uintptr_t)ctl;
	m->controllen = cm->len;
	ret = int80(NR32_SENDMSG, fd, (long)(uintptr_t)m, 0);
	return ret < 0 ? (int)-ret : 0;
}

/* --- a source route by the compat sendmsg ------------------------------- */

/* LSRR through 127.0.0.1, then EOL: a source route of one hop */
static const unsigned char lsrr[8] = { IPOPT_LSRR, 7, 4, 127, 0, 0, 1, IPOPT_END };

/* How a UDP datagram to 127.0.0.1:PORT_OTHER goes: by which entry, with which cmsg */
struct route_try {
	bool compat;
	int type;		/* IP_RETOPTS (the source route) or IP_TTL (none) */
};

static int p_udp_route(const void *arg)
{
	const struct route_try *t = arg;
	struct sockaddr_storage ss;
	struct msghdr msg = { 0 };
	struct iovec iov = { .iov_base = "esc8", .iov_len = 4 };
	union {
		char buf[CMSG_SPACE(sizeof(lsrr))];
		struct cmsghdr align;
	} u;
	struct cmsghdr *cm;
	int ttl = 9, fd, err = 0;
	const void *data = t->type == IP_RETOPTS ? (const void *)lsrr : (const void *)&ttl;
	uint32_t dlen = t->type == IP_RETOPTS ? sizeof(lsrr) : sizeof(ttl);
	socklen_t len;

	if (t->compat && !compat_ready())
		return ENOSYS;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	fill_addr(&ss, &len, AF_INET, "127.0.0.1", PORT_OTHER);
	if (t->compat) {
		err = compat_sendmsg(fd, &ss, len, SOL_IP, t->type, data, dlen);
	} else {
		memset(&u, 0, sizeof(u));
		msg.msg_name = &ss;
		msg.msg_namelen = len;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = u.buf;
		msg.msg_controllen = CMSG_SPACE(dlen);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_IP;
		cm->cmsg_type = t->type;
		cm->cmsg_len = CMSG_LEN(dlen);
		memcpy(CMSG_DATA(cm), data, dlen);
		if (sendmsg(fd, &msg, 0) < 0)
			err = errno;
	}
	close(fd);
	return err;
}

/* --- SCTP_DSTADDRV4 by the compat sendmsg -------------------------------- */

/*
 * A one-to-many SCTP socket (inet6, IPV6_V6ONLY off) sends to [::1]:25
 * with 127.0.0.1 in an SCTP_DSTADDRV4 cmsg, by the compat entry: 0 when
 * sent (the association made, 127.0.0.1 among its peers).
 */
static int p_sctp_dstaddr_compat(const void *arg)
{
	struct sockaddr_storage ss;
	struct in_addr v4 = { htonl(INADDR_LOOPBACK) };
	int zero = 0, one = 1, fd, err;
	socklen_t len;

	(void)arg;
	if (!compat_ready())
		return ENOSYS;
	fd = socket(AF_INET6, SOCK_SEQPACKET | SOCK_CLOEXEC, IPPROTO_SCTP);
	if (fd < 0)
		return errno == EPROTONOSUPPORT ? ENOSYS : errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero))) {
		err = errno;
		close(fd);
		return err;
	}
	fill_addr(&ss, &len, AF_INET6, "::1", PORT);
	err = compat_sendmsg(fd, &ss, len, IPPROTO_SCTP, SCTP_DSTADDRV4, &v4, sizeof(v4));
	close(fd);
	return err;
}

/* --- IPPROTO_RAW with its header the kernel's --------------------------- */

/* An IPPROTO_RAW socket of family *@arg, IP(V6)_HDRINCL off, sends to loopback: 0 */
static int p_raw_nohdrincl(const void *arg)
{
	int family = *(const int *)arg, zero = 0, fd, err = 0;
	struct sockaddr_storage ss;
	socklen_t len;

	fd = socket(family, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (fd < 0)
		return errno;
	if (family == AF_INET ? setsockopt(fd, SOL_IP, IP_HDRINCL, &zero, sizeof(zero)) :
	    setsockopt(fd, SOL_IPV6, 36 /* IPV6_HDRINCL */, &zero, sizeof(zero))) {
		err = errno;
		close(fd);
		return err == EPERM ? EPERM : BROKEN;
	}
	fill_addr(&ss, &len, family, family == AF_INET ? "127.0.0.1" : "::1", 0);
	if (sendto(fd, "esc8", 4, 0, (struct sockaddr *)&ss, len) < 0)
		err = errno;
	close(fd);
	return err;
}

/* --- a queue of the machine's through its mqueue mount ------------------ */

#define MQ8_NAME	"/lab-r8-outside"

static char mq_dir[PLEN], mq_path[PLEN + 32];

/* chmod() the service's queue, by its path on the mount outside, 0666: 0 when done */
static int p_mq_chmod(const void *arg)
{
	(void)arg;
	return chmod(mq_path, 0666) ? errno : 0;
}

static void test_mq_setattr(const char *m)
{
	const char *what = "chmod() 0666 a POSIX message queue a service made outside (0600), "
			   "by its path on the machine's mqueue mount (/dev/mqueue)";
	mqd_t q;

	tmpname(mq_dir, sizeof(mq_dir), "mq8");
	snprintf(mq_path, sizeof(mq_path), "%s%s", mq_dir, MQ8_NAME);
	q = mq_open(MQ8_NAME, O_RDWR | O_CREAT, 0600, NULL);
	if (q == (mqd_t)-1) {
		skip(what, "no POSIX message queues in this kernel");
		return;
	}
	mq_close(q);
	if (mkdir(mq_dir, 0755) || mount("mqueue", mq_dir, "mqueue", 0, NULL)) {
		skip(what, "no mqueue mount outside");
		mq_unlink(MQ8_NAME);
		rmdir(mq_dir);
		return;
	}
	/* the control's chmod is undone before the attempt */
	if (control(cg.ctl, what, p_mq_chmod, NULL) == 0 && !chmod(mq_path, 0600))
		attempt(m, HOLD, false, what,
			"the machine's queues are refused whole: opened, made, removed, and "
			"their modes and owners (a service's queue handed to any user)",
			p_mq_chmod, NULL);
	umount2(mq_dir, MNT_DETACH);
	rmdir(mq_dir);
	mq_unlink(MQ8_NAME);
}

void test_review8(void)
{
	static const struct route_try native_rr = { false, IP_RETOPTS },
		compat_ttl = { true, IP_TTL }, compat_rr = { true, IP_RETOPTS };
	const char *m = cg.main;
	int rc;

	static const int inet = AF_INET, inet6 = AF_INET6;

	tap_note("--- the thirteenth session's socket_sendmsg and POSIX queues (review 8)");
	attempt(m, HOLD, true, "an IPPROTO_RAW socket of init_net, IP_HDRINCL cleared, sends to "
		"127.0.0.1", "socket_sendmsg: no raw send in init_net, hdrincl or not",
		p_raw_nohdrincl, &inet);
	attempt(m, HOLD, true, "an IPPROTO_RAW socket of init_net (inet6), IPV6_HDRINCL cleared, "
		"sends to ::1", "socket_sendmsg: no raw send in init_net, hdrincl or not",
		p_raw_nohdrincl, &inet6);
	test_mq_setattr(m);
	if (!compat_ready()) {
		skip("a 32-bit sendmsg() (int 0x80) with a source route, or an SCTP_DSTADDRV4 "
		     "cmsg", "no IA32 compat entry in this kernel");
		return;
	}
	attempt(m, HOLD, true, "a 64-bit sendmsg() on UDP of init_net with a source route "
		"(IP_RETOPTS, LSRR via 127.0.0.1)",
		"socket_sendmsg: no source route in init_net", p_udp_route, &native_rr);
	rc = probe_pid(m, p_udp_route, &compat_ttl, NULL);
	tap_result(rc == 0, "control: a 32-bit sendmsg() with IP_TTL works in %s (got %s)", m,
		   errname(rc));
	attempt(m, HOLD, true, "a 32-bit sendmsg() (int 0x80) on UDP of init_net with a source "
		"route (IP_RETOPTS, LSRR via 127.0.0.1)",
		"socket_sendmsg: the compat entry's cmsgs are the kernel's copy too, though "
		"msg_control_is_user stays set", p_udp_route, &compat_rr);
	attempt(cg.v4, HOLD, true, "a 32-bit sendmsg() (int 0x80) on SCTP to [::1]:25 with "
		"127.0.0.1 (denied) in an SCTP_DSTADDRV4 cmsg",
		"the engine's socket_sendmsg reads SCTP_DSTADDRV4/6 from the compat entry's "
		"kernel copy too", p_sctp_dstaddr_compat, NULL);
}
