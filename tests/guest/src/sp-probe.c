// SPDX-License-Identifier: GPL-2.0
/*
 * sp-probe: one system call self-protection's tests ask about, made
 * from wherever the caller put this process; exits with its errno (0
 * when it went through) and prints "sp-probe: WHAT: RESULT".
 *
 *   sp-probe objget PATH       BPF_OBJ_GET, read-write
 *   sp-probe objget-ro PATH    BPF_OBJ_GET, read-only
 *   sp-probe flock PATH        flock(LOCK_EX | LOCK_NB)
 *   sp-probe setown PID        a socket's owner: fcntl(F_SETOWN, PID), then
 *                              O_ASYNC and a write (SIGIO to PID)
 *   sp-probe setown-ex PID     the same with F_SETOWN_EX (F_OWNER_PID)
 *   sp-probe fiosetown PID     the same with ioctl(FIOSETOWN)
 *   sp-probe tty-async         O_ASYNC on a pseudo-terminal
 *   sp-probe tiocsti           TIOCSTI into a pseudo-terminal opened for
 *                              ioctl only (O_ACCMODE 3)
 *   sp-probe perf PID          perf_event_open on task PID
 *   sp-probe mapid-rw PATH     BPF_MAP_GET_FD_BY_ID, read-write, of the
 *                              map pinned at PATH (found read-only)
 *   sp-probe mapname-ro NAME   the map named NAME, found by id
 *                              (BPF_MAP_GET_NEXT_ID), read-only by
 *                              BPF_MAP_GET_FD_BY_ID; EPERM if an fd was refused
 *   sp-probe socket FAMILY     socket(FAMILY, SOCK_DGRAM, 0): for a family
 *                              no module has registered, a module request
 *   sp-probe cad-on            reboot(LINUX_REBOOT_CMD_CAD_ON): harmless,
 *                              and CAP_SYS_BOOT's like a reboot
 *   sp-probe prlimit PID       prlimit(PID, RLIMIT_CORE, 0): another task's
 *                              limits (RLIMIT_CPU would kill it)
 *   sp-probe flood N PATH      open(PATH) N times: denied, N events (exits 0)
 *   sp-probe pivot-root NEW OLD  pivot_root(NEW, OLD)
 *   sp-probe tiocsctty-hi      TIOCSCTTY with 0x100000001 (1 to the kernel's
 *                              int: steal the terminal), as a session leader
 *   sp-probe lease PATH        fcntl(F_SETLEASE, F_RDLCK) on PATH
 *   sp-probe fsopen            fsopen("tmpfs"), the new mount API's first step
 *   sp-probe open-tree DIR     open_tree(DIR, OPEN_TREE_CLONE): a detached copy
 *   sp-probe mount-setattr DIR mount_setattr(DIR): clear MOUNT_ATTR_NOSUID
 *   sp-probe mount-setattr-hi DIR  the same, with bits above the 32 the
 *                              kernel reads set in the system call number
 *   sp-probe rtnl-addr add|del RTM_NEWADDR / RTM_DELADDR of 10.99.0.1/32 on lo
 *   sp-probe rtnl-getlink      RTM_GETLINK dump (ip link's read)
 *   sp-probe scm-cred PID|self a datagram on a socketpair whose SCM_CREDENTIALS
 *                              name PID (the kernel checks CAP_SYS_ADMIN for
 *                              a pid not the sender's); the receiver must see it
 *   sp-probe rtnl-batch        one send: RTM_GETLINK, then RTM_NEWADDR
 *                              10.99.0.2/32 on lo, then RTM_DELADDR of it
 *   sp-probe mtu get|set       SIOCGIFMTU of lo; set: SIOCSIFMTU to that MTU
 *   sp-probe ipt-replace       setsockopt(IPT_SO_SET_REPLACE) with an empty
 *                              "filter" replacement on a raw socket
 *   sp-probe audit get|set     AUDIT_GET, or AUDIT_SET with an empty mask (changes
 *                              nothing), over NETLINK_AUDIT: CAP_AUDIT_CONTROL's
 *   sp-probe nl-send PROTO GROUP  a netlink message on protocol PROTO to this
 *                              socket's own port and, GROUP nonzero, multicast
 *                              group GROUP, where a listener must receive it
 *   sp-probe newnsid PID       RTM_NEWNSID: an nsid, here, for PID's netns
 *   sp-probe fioasync PID CGROUP  a socket's owner set to PID (0: this process)
 *                              here, then this process moved to CGROUP, then
 *                              ioctl(FIOASYNC) and a write (SIGIO to PID)
 *   sp-probe packet            socket(AF_PACKET, SOCK_RAW, ETH_P_ALL): capture
 *   sp-probe raw PROTO         socket(AF_INET, SOCK_RAW, PROTO)
 *   sp-probe ping              socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP): a ping socket
 *   sp-probe fanout CGROUP     a packet socket made here, then this process
 *                              moved to CGROUP, then setsockopt(PACKET_FANOUT)
 *   sp-probe set-tid           clone3() with set_tid naming a free pid (the
 *                              first one 50 above this process's with none);
 *                              ok when the child got it
 *   sp-probe clone3-newpid     clone3(CLONE_NEWPID), no set_tid: a pid namespace
 *   sp-probe set-tid-newpid    clone3(CLONE_NEWPID) with set_tid 1 there and
 *                              a free pid here
 *   sp-probe fd-send SOCK FILE FILE opened for writing here, and sent by
 *                              SCM_RIGHTS to the listener on the Unix socket SOCK
 *   sp-probe fd-recv-write SOCK TEXT  listen on SOCK, take one descriptor
 *                              (EPERM when the kernel refused it: MSG_CTRUNC)
 *                              and write TEXT to it
 *   sp-probe tiocexcl CGROUP   a pty made here, its slave made exclusive
 *                              (TIOCEXCL), then this process moved to CGROUP
 *                              and the slave opened again (root's bypass)
 *
 * SIGIO is ignored here, so that an owner set to this process survives.
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <linux/audit.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/sched.h>
#include <linux/mount.h>
#include <linux/net_namespace.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <linux/perf_event.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/ioctl.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int objget(const char *path, __u32 flags)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = flags);
	int fd = bpf_obj_get_opts(path, &opts);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int mapname_ro(const char *name)
{
	LIBBPF_OPTS(bpf_get_fd_by_id_opts, opts, .open_flags = BPF_F_RDONLY);
	struct bpf_map_info info;
	__u32 id = 0, len;
	int fd, refused = 0;

	while (!bpf_map_get_next_id(id, &id)) {
		fd = bpf_map_get_fd_by_id_opts(id, &opts);
		if (fd < 0) {
			refused |= errno == EPERM;
			continue;
		}
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, name)) {
			close(fd);
			return 0;
		}
		close(fd);
	}
	return refused ? EPERM : ENOENT;
}

static int mapid_rw(const char *path)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = BPF_F_RDONLY);
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	int fd = bpf_obj_get_opts(path, &opts);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return errno;
	close(fd);
	fd = bpf_map_get_fd_by_id(info.id);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int try_flock(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return errno;
	if (flock(fd, LOCK_EX | LOCK_NB))
		rc = errno;
	close(fd);
	return rc;
}

enum owner_how { BY_FCNTL, BY_FCNTL_EX, BY_IOCTL };

static int setown(enum owner_how how, pid_t pid)
{
	struct f_owner_ex ex = { .type = F_OWNER_PID, .pid = pid };
	int p[2], rc = 0;

	/* a socket: FIOSETOWN is a socket ioctl; SIGIO comes as the peer writes */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p))
		return errno;
	if (how == BY_FCNTL ? fcntl(p[0], F_SETOWN, pid) :
	    how == BY_FCNTL_EX ? fcntl(p[0], F_SETOWN_EX, &ex) : ioctl(p[0], FIOSETOWN, &pid))
		rc = errno;
	else if (fcntl(p[0], F_SETFL, O_ASYNC) || write(p[1], "x", 1) != 1)
		rc = errno;
	close(p[0]);
	close(p[1]);
	return rc;
}

/* A pseudo-terminal's follower, opened with @flags; -errno on failure. */
static int open_pty(int flags, int *leader)
{
	char name[64];
	int fd;

	*leader = posix_openpt(O_RDWR | O_NOCTTY);
	if (*leader < 0 || grantpt(*leader) || unlockpt(*leader) ||
	    ptsname_r(*leader, name, sizeof(name)))
		return -errno;
	fd = open(name, flags | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

static int tty_async(void)
{
	int leader, fd = open_pty(O_RDWR, &leader), rc = 0;

	if (fd < 0)
		return -fd;
	if (fcntl(fd, F_SETFL, O_ASYNC))
		rc = errno;
	close(fd);
	close(leader);
	return rc;
}

static int tiocsti(void)
{
	int leader, fd = open_pty(O_ACCMODE, &leader), rc = 0;
	char c = '\n';

	if (fd < 0)
		return -fd;
	if (ioctl(fd, TIOCSTI, &c))
		rc = errno;
	close(fd);
	close(leader);
	return rc;
}

static int perf(pid_t pid)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1, 0);

	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

static int try_socket(int family)
{
	int fd = socket(family, SOCK_DGRAM, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int cad_on(void)
{
	return reboot(RB_ENABLE_CAD) ? errno : 0;
}

static int try_prlimit(pid_t pid)
{
	struct rlimit none = { 0, 0 };

	return prlimit(pid, RLIMIT_CORE, &none, NULL) ? errno : 0;
}

static int flood(long n, const char *path)
{
	int fd;

	while (n-- > 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

static int tiocsctty_hi(void)
{
	int leader, fd, status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0) {
		/* a session leader with no terminal, as TIOCSCTTY wants */
		if (setsid() < 0)
			_exit(errno);
		fd = open_pty(O_RDWR, &leader);
		if (fd < 0)
			_exit(-fd);
		_exit(ioctl(fd, TIOCSCTTY, 0x100000001UL) ? errno : 0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
}

static int lease(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return errno;
	if (fcntl(fd, F_SETLEASE, F_RDLCK))
		rc = errno;
	close(fd);
	return rc;
}

static int fd_result(long fd)
{
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

static int mount_setattr_nosuid(const char *dir, long high)
{
	struct mount_attr attr = { .attr_clr = MOUNT_ATTR_NOSUID };

	return syscall(high | SYS_mount_setattr, AT_FDCWD, dir, 0, &attr, sizeof(attr)) ?
	       errno : 0;
}

/* One netlink send of @len bytes at @buf on @proto; the first error answered. */
static int nl_send(int proto, const void *buf, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char ans[8192];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto), err = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = errno;
		close(fd);
		return err;
	}
	/* the answers: an error message with a nonzero error, or the dump's data */
	while ((n = recv(fd, ans, sizeof(ans), MSG_DONTWAIT)) > 0) {
		struct nlmsghdr *h = (struct nlmsghdr *)ans;

		for (; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n))
			if (h->nlmsg_type == NLMSG_ERROR &&
			    ((struct nlmsgerr *)NLMSG_DATA(h))->error && !err)
				err = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
	}
	close(fd);
	return err;
}

static int rtnl_send(const void *buf, size_t len)
{
	return nl_send(NETLINK_ROUTE, buf, len);
}

struct addr_req {
	struct nlmsghdr h;
	struct ifaddrmsg a;
	struct rtattr rta;
	struct in_addr in;
};

static void addr_msg(struct addr_req *r, int type, const char *addr)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = sizeof(*r);
	r->h.nlmsg_type = type;
	r->h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (type == RTM_NEWADDR ? NLM_F_CREATE : 0);
	r->a.ifa_family = AF_INET;
	r->a.ifa_prefixlen = 32;
	r->a.ifa_index = if_nametoindex("lo");
	r->rta.rta_len = RTA_LENGTH(sizeof(r->in));
	r->rta.rta_type = IFA_LOCAL;
	inet_pton(AF_INET, addr, &r->in);
}

static int rtnl_addr(const char *op)
{
	struct addr_req r;

	addr_msg(&r, strcmp(op, "add") ? RTM_DELADDR : RTM_NEWADDR, "10.99.0.1");
	return rtnl_send(&r, sizeof(r));
}

struct link_req {
	struct nlmsghdr h;
	struct ifinfomsg i;
};

static void link_msg(struct link_req *r)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = sizeof(*r);
	r->h.nlmsg_type = RTM_GETLINK;
	r->h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	r->i.ifi_family = AF_UNSPEC;
}

/*
 * In a network namespace of its own (made here, after keeping a
 * descriptor of the one it was in), RTM_SETLINK on its lo with one
 * attribute: "mtu" (IFLA_MTU, its own), "pid" (IFLA_NET_NS_PID 1: move
 * it to pid 1's namespace), "fd" (IFLA_NET_NS_FD: to the kept one), or
 * "peer" (RTM_NEWLINK of a veth whose peer, nested three deep, is made
 * in pid 1's). The kernel refuses to move lo and may have no veth: the
 * LSM's answer comes first.
 */
static int link_netns(const char *how)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
		char attrs[128];
	} r;
	int keep = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	struct rtattr *a = (struct rtattr *)r.attrs;
	__u32 v;

	if (keep < 0 || unshare(CLONE_NEWNET))
		return errno;
	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = RTM_SETLINK;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.i.ifi_family = AF_UNSPEC;
	r.i.ifi_index = if_nametoindex("lo");
	if (!strcmp(how, "peer")) {
		struct rtattr *info = a, *data, *peer, *kind;
		struct ifinfomsg *pi;

		r.h.nlmsg_type = RTM_NEWLINK;
		r.h.nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
		r.i.ifi_index = 0;
		info->rta_type = IFLA_LINKINFO;
		kind = RTA_DATA(info);
		kind->rta_type = 1;	/* IFLA_INFO_KIND */
		kind->rta_len = RTA_LENGTH(5);
		memcpy(RTA_DATA(kind), "veth", 5);
		data = (struct rtattr *)((char *)kind + RTA_ALIGN(kind->rta_len));
		data->rta_type = 2;	/* IFLA_INFO_DATA */
		peer = RTA_DATA(data);
		peer->rta_type = 1;	/* VETH_INFO_PEER */
		pi = RTA_DATA(peer);
		pi->ifi_family = AF_UNSPEC;
		a = (struct rtattr *)(pi + 1);
		a->rta_type = IFLA_NET_NS_PID;
		a->rta_len = RTA_LENGTH(4);
		v = 1;
		memcpy(RTA_DATA(a), &v, 4);
		peer->rta_len = RTA_LENGTH(sizeof(*pi) + RTA_ALIGN(a->rta_len));
		data->rta_len = RTA_LENGTH(peer->rta_len);
		info->rta_len = RTA_LENGTH(RTA_ALIGN(kind->rta_len) + data->rta_len);
		a = info;
	} else {
		a->rta_type = !strcmp(how, "mtu") ? IFLA_MTU :
			      !strcmp(how, "fd") ? IFLA_NET_NS_FD : IFLA_NET_NS_PID;
		a->rta_len = RTA_LENGTH(4);
		v = !strcmp(how, "mtu") ? 65536 : !strcmp(how, "fd") ? (__u32)keep : 1;
		memcpy(RTA_DATA(a), &v, 4);
	}
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.i)) + RTA_ALIGN(a->rta_len);
	return rtnl_send(&r, r.h.nlmsg_len);
}

static int scm_cred(pid_t pid)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u = { 0 };
	struct ucred cred = { .pid = pid, .uid = 0, .gid = 0 }, *got;
	char data = 'x';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int sv[2], one = 1, err = 0;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) ||
	    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
		return errno;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(c), &cred, sizeof(cred));
	if (sendmsg(sv[0], &msg, 0) < 0) {
		err = errno;
	} else {
		memset(u.buf, 0, sizeof(u.buf));
		msg.msg_controllen = sizeof(u.buf);
		c = recvmsg(sv[1], &msg, 0) < 0 ? NULL : CMSG_FIRSTHDR(&msg);
		got = c ? (struct ucred *)CMSG_DATA(c) : NULL;
		if (!got || got->pid != pid)
			err = EIO;	/* sent, but not as that pid */
	}
	close(sv[0]);
	close(sv[1]);
	return err;
}

static int fd_send(const char *sock, const char *file)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u = { 0 };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char data = 'x';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int fd = open(file, O_WRONLY | O_CLOEXEC), s, err = 0;

	if (fd < 0)
		return errno;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa))) {
		err = errno;
	} else {
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
		if (sendmsg(s, &msg, 0) < 0)
			err = errno;
	}
	close(fd);
	if (s >= 0)
		close(s);
	return err;
}

static int fd_recv_write(const char *sock, const char *text)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u = { 0 };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char data;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), s, fd = -1, err = 0;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) || listen(l, 1))
		return errno;
	s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (s < 0 || recvmsg(s, &msg, 0) < 0) {
		err = errno;
	} else {
		c = CMSG_FIRSTHDR(&msg);
		if (c && c->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
		if (fd < 0)
			err = (msg.msg_flags & MSG_CTRUNC) ? EPERM : EIO;
		else if (write(fd, text, strlen(text)) < 0)
			err = errno;
	}
	if (fd >= 0)
		close(fd);
	if (s >= 0)
		close(s);
	close(l);
	return err;
}

static int rtnl_getlink(void)
{
	struct link_req r;

	link_msg(&r);
	return rtnl_send(&r, sizeof(r));
}

/* A write behind a read in one send: the guard reads every message. */
static int rtnl_batch(void)
{
	struct {
		struct link_req l;
		struct addr_req add, del;
	} b;

	link_msg(&b.l);
	b.l.h.nlmsg_flags = NLM_F_REQUEST;	/* one link's answer, no dump */
	b.l.i.ifi_index = if_nametoindex("lo");
	addr_msg(&b.add, RTM_NEWADDR, "10.99.0.2");
	addr_msg(&b.del, RTM_DELADDR, "10.99.0.2");
	return rtnl_send(&b, sizeof(b));
}

static int mtu(const char *op)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFMTU, &ifr))
		return errno;
	if (!strcmp(op, "set") && ioctl(fd, SIOCSIFMTU, &ifr))
		return errno;
	return 0;
}

/* IPT_SO_SET_REPLACE (64) with a struct ipt_replace-sized buffer of zeroes. */
static int ipt_replace(void)
{
	char buf[512] = { 0 };
	int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);

	if (fd < 0)
		return errno;
	snprintf(buf, 32, "filter");
	return setsockopt(fd, SOL_IP, 64, buf, sizeof(buf)) ? errno : 0;
}

/*
 * setsockopt(LEVEL, OPT) with an int 1 on a datagram socket of the
 * level's family (a raw IGMP one for multicast routing's MRT_*, 200+),
 * as an option's first step would; the kernel may then refuse the value,
 * after the LSM let the call through.
 */
static int sockopt(const char *level, int opt)
{
	int v6 = !strcmp(level, "ipv6"), one = 1, fd;

	if (!v6 && opt >= 200 && opt <= 211)
		fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_IGMP);
	else
		fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	return setsockopt(fd, v6 ? SOL_IPV6 : SOL_IP, opt, &one, sizeof(one)) ? errno : 0;
}

/* ioctl(CMD) on a UDP socket with a zeroed struct ifreq naming lo */
static int sioc(unsigned long cmd)
{
	struct ifreq ifr[4] = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno;
	snprintf(ifr[0].ifr_name, sizeof(ifr[0].ifr_name), "lo");
	/* SIOCGSKNS answers a descriptor */
	return ioctl(fd, cmd, ifr) < 0 ? errno : 0;
}

/*
 * SysV IPC by key: "shm-make" makes (or opens) a 0600 segment and writes
 * to it, "shm-get" attaches it read-only and reads it, "shm-rm" removes
 * it (IPC_RMID), "msg-make" makes a 0600 queue, "msg-send" sends to it;
 * "shm-rmid" and "msg-rmid" remove by id.
 */
static int sysv(const char *op, key_t key)
{
	struct { long type; char text[8]; } m = { 1, "lab" };
	volatile char *p;
	int id;

	/* by id, as ipcs shows it: shmget() of another's key is judged itself */
	if (!strcmp(op, "shm-rmid"))
		return shmctl(key, IPC_RMID, NULL) ? errno : 0;
	if (!strcmp(op, "msg-rmid"))
		return msgctl(key, IPC_RMID, NULL) ? errno : 0;
	if (!strncmp(op, "msg-", 4)) {
		id = msgget(key, !strcmp(op, "msg-make") ? IPC_CREAT | 0600 : 0);
		if (id < 0)
			return errno;
		if (!strcmp(op, "msg-send") && msgsnd(id, &m, sizeof(m.text), IPC_NOWAIT))
			return errno;
		if (!strcmp(op, "msg-rm") && msgctl(id, IPC_RMID, NULL))
			return errno;
		return 0;
	}
	id = shmget(key, !strcmp(op, "shm-make") ? 4096 : 0,
		    !strcmp(op, "shm-make") ? IPC_CREAT | 0600 : 0);
	if (id < 0)
		return errno;
	if (!strcmp(op, "shm-rm"))
		return shmctl(id, IPC_RMID, NULL) ? errno : 0;
	p = shmat(id, NULL, !strcmp(op, "shm-make") ? 0 : SHM_RDONLY);
	if (p == (void *)-1)
		return errno;
	if (!strcmp(op, "shm-make"))
		p[0] = 'x';
	else if (p[0] != 'x')
		return EIO;
	shmdt((void *)p);
	return 0;
}

/* AUDIT_GET, or AUDIT_SET with an empty mask: both need CAP_AUDIT_CONTROL */
static int audit(const char *op)
{
	struct {
		struct nlmsghdr h;
		struct audit_status s;
	} r;
	int set = !strcmp(op, "set");

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = set ? sizeof(r) : NLMSG_LENGTH(0);
	r.h.nlmsg_type = set ? AUDIT_SET : AUDIT_GET;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	return nl_send(NETLINK_AUDIT, &r, r.h.nlmsg_len);
}

static int nl_socket(int proto, __u32 groups, __u32 *portid)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = groups };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len)) {
		close(fd);
		return -errno;
	}
	*portid = sa.nl_pid;
	return fd;
}

/* Whether @fd has a message holding @tag queued (it reads them all). */
static int nl_got(int fd, const char *tag)
{
	char buf[8192];
	ssize_t n;
	int got = 0;

	while ((n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0)
		if (memmem(buf, n, tag, strlen(tag)))
			got = 1;
	return got;
}

/*
 * A message sent to the sender's own port and, @group nonzero, to that
 * multicast group, which a second socket has joined: the kernel's
 * broadcast skips the port named, so the listener gets it by multicast
 * only. On NETLINK_KOBJECT_UEVENT the message is uevent-shaped, for a
 * device that does not exist; no kernel socket is addressed.
 */
static int nl_send_to(int proto, unsigned int group)
{
	static const char msg[] = "add@/devices/lab-sp-probe\0ACTION=add\0"
				  "DEVPATH=/devices/lab-sp-probe\0SUBSYSTEM=lab\0SEQNUM=1";
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	int fd, lfd = -1, err = 0;
	__u32 self, lport;

	if (group > 32)
		return EINVAL;
	fd = nl_socket(proto, 0, &self);
	if (fd < 0)
		return -fd;
	if (group) {
		lfd = nl_socket(proto, 1u << (group - 1), &lport);
		if (lfd < 0) {
			close(fd);
			return -lfd;
		}
	}
	to.nl_pid = self;
	to.nl_groups = group ? 1u << (group - 1) : 0;
	if (sendto(fd, msg, sizeof(msg), 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		err = errno;
	else if (!nl_got(fd, "lab-sp-probe") || (group && !nl_got(lfd, "lab-sp-probe")))
		err = ENOMSG;	/* sent, but not received where it was sent */
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return err;
}

/* RTM_NEWNSID: an nsid here for the network namespace of task @pid */
static int newnsid(pid_t pid)
{
	struct {
		struct nlmsghdr h;
		struct rtgenmsg g;
		char pad[3];
		struct rtattr nsid_rta;
		__s32 nsid;
		struct rtattr pid_rta;
		__u32 pid;
	} r;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = sizeof(r);
	r.h.nlmsg_type = RTM_NEWNSID;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.g.rtgen_family = AF_UNSPEC;
	r.nsid_rta.rta_len = RTA_LENGTH(sizeof(r.nsid));
	r.nsid_rta.rta_type = NETNSA_NSID;
	r.nsid = -1;	/* the kernel picks one */
	r.pid_rta.rta_len = RTA_LENGTH(sizeof(r.pid));
	r.pid_rta.rta_type = NETNSA_PID;
	r.pid = pid;
	return rtnl_send(&r, sizeof(r));
}

/*
 * The owner set where this process starts (outside any policy: there the
 * guard asks nothing), then into @cgroup, then O_ASYNC by ioctl.
 */
static int fioasync(pid_t pid, const char *cgroup)
{
	char path[4096], me[32];
	int p[2], fd, on = 1, rc = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p))
		return errno;
	if (fcntl(p[0], F_SETOWN, pid ? pid : getpid()))
		return errno;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
	snprintf(me, sizeof(me), "%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, me, strlen(me)) < 0) {
		fprintf(stderr, "sp-probe: cannot move into %s: %s\n", cgroup, strerror(errno));
		return EINVAL;
	}
	close(fd);
	if (ioctl(p[0], FIOASYNC, &on) || write(p[1], "x", 1) != 1)
		rc = errno;
	close(p[0]);
	close(p[1]);
	return rc;
}

static int raw_socket(int family, int type, int proto)
{
	return fd_result(socket(family, type | SOCK_CLOEXEC, proto));
}

/* Move this process into @cgroup (a path to its folder). */
static int move_to(const char *cgroup)
{
	char path[4096], me[32];
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
	snprintf(me, sizeof(me), "%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, me, strlen(me)) < 0) {
		fprintf(stderr, "sp-probe: cannot move into %s: %s\n", cgroup, strerror(errno));
		return EINVAL;
	}
	close(fd);
	return 0;
}

static int fanout(const char *cgroup)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	int arg = (getpid() & 0xffff) | PACKET_FANOUT_HASH << 16, err;

	if (fd < 0)
		return errno;
	err = move_to(cgroup);
	if (!err && setsockopt(fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg)))
		err = errno;
	close(fd);
	return err;
}

static int tiocexcl(const char *cgroup)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), s, again, err;
	char *name;

	if (m < 0 || grantpt(m) || unlockpt(m) || !(name = ptsname(m)))
		return errno;
	s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0 || ioctl(s, TIOCEXCL))
		return errno;
	err = move_to(cgroup);
	if (err)
		return err;
	again = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (again < 0)
		return errno;
	close(again);
	return 0;
}

/* clone3(@flags); @ntid pids by set_tid (0: none): 1 in a new pid namespace, then a free one */
static int set_tid(__u64 flags, int ntid)
{
	pid_t want = getpid() + 50, got, tids[2];
	struct clone_args args = { .flags = flags };
	int status;

	while (!kill(want, 0) || errno != ESRCH)
		want++;
	tids[0] = ntid == 2 ? 1 : want;
	tids[1] = want;
	args.exit_signal = SIGCHLD;
	args.set_tid = ntid ? (__u64)(unsigned long)tids : 0;
	args.set_tid_size = ntid;
	got = syscall(SYS_clone3, &args, sizeof(args));
	if (got < 0)
		return errno;
	if (!got)
		_exit(0);
	waitpid(got, &status, 0);
	if (ntid && got != want) {
		fprintf(stderr, "sp-probe: set_tid asked %d, got %d\n", (int)want, (int)got);
		return EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : "";
	int err;

	signal(SIGIO, SIG_IGN);
	if (argc == 3 && !strcmp(what, "objget"))
		err = objget(arg, 0);
	else if (argc == 3 && !strcmp(what, "objget-ro"))
		err = objget(arg, BPF_F_RDONLY);
	else if (argc == 3 && !strcmp(what, "mapname-ro"))
		err = mapname_ro(arg);
	else if (argc == 3 && !strcmp(what, "mapid-rw"))
		err = mapid_rw(arg);
	else if (argc == 3 && !strcmp(what, "flock"))
		err = try_flock(arg);
	else if (argc == 3 && !strcmp(what, "setown"))
		err = setown(BY_FCNTL, atoi(arg));
	else if (argc == 3 && !strcmp(what, "setown-ex"))
		err = setown(BY_FCNTL_EX, atoi(arg));
	else if (argc == 3 && !strcmp(what, "fiosetown"))
		err = setown(BY_IOCTL, atoi(arg));
	else if (argc == 2 && !strcmp(what, "tty-async"))
		err = tty_async();
	else if (argc == 2 && !strcmp(what, "tiocsti"))
		err = tiocsti();
	else if (argc == 3 && !strcmp(what, "perf"))
		err = perf(atoi(arg));
	else if (argc == 3 && !strcmp(what, "socket"))
		err = try_socket(atoi(arg));
	else if (argc == 2 && !strcmp(what, "cad-on"))
		err = cad_on();
	else if (argc == 3 && !strcmp(what, "prlimit"))
		err = try_prlimit(atoi(arg));
	else if (argc == 4 && !strcmp(what, "flood"))
		err = flood(atol(arg), argv[3]);
	else if (argc == 4 && !strcmp(what, "pivot-root"))
		err = syscall(SYS_pivot_root, arg, argv[3]) ? errno : 0;
	else if (argc == 2 && !strcmp(what, "tiocsctty-hi"))
		err = tiocsctty_hi();
	else if (argc == 3 && !strcmp(what, "lease"))
		err = lease(arg);
	else if (argc == 2 && !strcmp(what, "fsopen"))
		err = fd_result(syscall(SYS_fsopen, "tmpfs", 0));
	else if (argc == 3 && !strcmp(what, "open-tree"))
		err = fd_result(syscall(SYS_open_tree, AT_FDCWD, arg, OPEN_TREE_CLONE));
	else if (argc == 3 && !strcmp(what, "mount-setattr"))
		err = mount_setattr_nosuid(arg, 0);
	else if (argc == 3 && !strcmp(what, "mount-setattr-hi"))
		err = mount_setattr_nosuid(arg, 1L << 32);
	else if (argc == 3 && !strcmp(what, "rtnl-addr"))
		err = rtnl_addr(arg);
	else if (argc == 3 && (!strncmp(what, "shm-", 4) || !strncmp(what, "msg-", 4)))
		err = sysv(what, (key_t)strtol(arg, NULL, 0));
	else if (argc == 3 && !strcmp(what, "link-netns"))
		err = link_netns(arg);
	else if (argc == 3 && !strcmp(what, "scm-cred"))
		err = scm_cred(strcmp(arg, "self") ? atoi(arg) : getpid());
	else if (argc == 2 && !strcmp(what, "rtnl-getlink"))
		err = rtnl_getlink();
	else if (argc == 2 && !strcmp(what, "rtnl-batch"))
		err = rtnl_batch();
	else if (argc == 3 && !strcmp(what, "mtu"))
		err = mtu(arg);
	else if (argc == 4 && !strcmp(what, "sockopt"))
		err = sockopt(arg, atoi(argv[3]));
	else if (argc == 3 && !strcmp(what, "sioc"))
		err = sioc(strtoul(arg, NULL, 0));
	else if (argc == 2 && !strcmp(what, "ipt-replace"))
		err = ipt_replace();
	else if (argc == 3 && !strcmp(what, "audit"))
		err = audit(arg);
	else if (argc == 4 && !strcmp(what, "nl-send"))
		err = nl_send_to(atoi(arg), atoi(argv[3]));
	else if (argc == 3 && !strcmp(what, "newnsid"))
		err = newnsid(atoi(arg));
	else if (argc == 4 && !strcmp(what, "fioasync"))
		err = fioasync(atoi(arg), argv[3]);
	else if (argc == 2 && !strcmp(what, "packet"))
		err = raw_socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	else if (argc == 3 && !strcmp(what, "raw"))
		err = raw_socket(AF_INET, SOCK_RAW, atoi(arg));
	else if (argc == 2 && !strcmp(what, "ping"))
		err = raw_socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);	/* a ping socket */
	else if (argc == 3 && !strcmp(what, "fanout"))
		err = fanout(arg);
	else if (argc == 2 && !strcmp(what, "set-tid"))
		err = set_tid(0, 1);
	else if (argc == 4 && !strcmp(what, "fd-send"))
		err = fd_send(arg, argv[3]);
	else if (argc == 4 && !strcmp(what, "fd-recv-write"))
		err = fd_recv_write(arg, argv[3]);
	else if (argc == 3 && !strcmp(what, "tiocexcl"))
		err = tiocexcl(arg);
	else if (argc == 2 && !strcmp(what, "clone3-newpid"))
		err = set_tid(CLONE_NEWPID, 0);
	else if (argc == 2 && !strcmp(what, "set-tid-newpid"))
		err = set_tid(CLONE_NEWPID, 2);
	else {
		fprintf(stderr, "usage: sp-probe objget|objget-ro|mapid-rw|flock PATH | mapname-ro NAME | "
			"setown|setown-ex|fiosetown|perf|prlimit PID | tty-async | tiocsti | cad-on | "
			"socket FAMILY | fsopen | open-tree|mount-setattr DIR | flood N PATH | "
			"pivot-root NEW OLD | tiocsctty-hi | lease PATH | mount-setattr-hi DIR | "
			"rtnl-addr add|del | rtnl-getlink | rtnl-batch | mtu get|set | ipt-replace | "
			"sockopt ip|ipv6 OPT | sioc CMD | link-netns mtu|pid|fd|peer | "
			"shm-make|shm-get|shm-rm|msg-make|msg-send|msg-rm KEY | shm-rmid|msg-rmid ID | "
			"audit get|set | nl-send PROTO GROUP | newnsid PID | fioasync PID CGROUP | "

			"packet | raw PROTO | ping | fanout CGROUP | set-tid | clone3-newpid | set-tid-newpid | tiocexcl CGROUP | "
			"fd-send SOCK FILE | fd-recv-write SOCK TEXT\n");
		return 2;
	}
	printf("sp-probe: %s %s: %s\n", what, arg, err ? strerror(err) : "ok");
	return err;
}
