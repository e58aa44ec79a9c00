/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's programs, one a hook of LAB_HOOKS (engine.h): each turns
 * its hook's arguments into requests for check(), which the backend's
 * source file supplies before it includes this, with LAB_SEC_PREFIX
 * (the programs' section: lsm/ or lsm_cgroup/) and LAB_RET (a verdict
 * as the program type returns it).
 *
 * lsm_cgroup: lsmctl loads one instance a policy, attaches it to the
 * policy's cgroup, and sets lab_policy; the kernel runs it for that
 * cgroup and its descendants, and runs every ancestor's programs too,
 * so nested policies add up (any deny denies).
 *
 * global: one instance for every policy, attached as lsm/ programs that
 * run for every task; each looks the task's cgroup and its ancestors up
 * in the policies map and checks every policy found, the same way.
 */
#ifndef LSMLAB_HOOKS_BPF_H
#define LSMLAB_HOOKS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "engine.bpf.h"
#include "cmsg.bpf.h"
#include "kdefs.bpf.h"
#include "mount_api.bpf.h"

/* enum lab_hook by the hook's name, for LAB_PROG to check its hook is listed */
#define LAB_HOOK_OF(ENUM, hook)	lab_hook_##hook = LAB_HOOK_##ENUM,
enum { LAB_HOOKS(LAB_HOOK_OF) };
#undef LAB_HOOK_OF

/*
 * The program lab_<hook> on LSM hook <hook>, with the hook's arguments:
 * BPF_PROG()'s, but a task the backend says no policy can apply to
 * (lab_outside()) leaves before the arguments are read.
 */
#define LAB_PROG(hook, args...)						\
	_Static_assert(lab_hook_##hook < LAB_NR_HOOKS, #hook " is in LAB_HOOKS"); \
	static __always_inline int ____lab_##hook(unsigned long long *ctx, ##args); \
	SEC(LAB_SEC_PREFIX #hook) int lab_##hook(unsigned long long *ctx)	\
	{								\
		if (lab_outside())					\
			return LAB_RET(0);				\
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")	\
		return ____lab_##hook(___bpf_ctx_cast(args));		\
		_Pragma("GCC diagnostic pop")				\
	}								\
	static __always_inline int ____lab_##hook(unsigned long long *ctx, ##args)

static __always_inline int check_dentry(__u16 hook, __u8 class, struct dentry *dentry)
{
	struct lab_req req = { .hook = hook, .class = class, .dentry = dentry };

	return check(&req);
}

/*
 * A file made at a name (create, mknod): the directory's create rules,
 * and no program of the task's own at a name an exec rule by path allows
 * (match_file()'s onto).
 */
static __always_inline int check_made(__u16 hook, struct dentry *dentry)
{
	struct lab_req req = {
		.hook = hook,
		.class = LAB_CREATE,
		.onto = 1 << LAB_EXEC,
		.dentry = dentry,
	};

	return check(&req);
}

/*
 * file_open: the classes an open asks for, checked one after the other
 * by one callback, so that the verifier goes through check() once.
 * (sealed_step() below takes one too.)
 */
struct open_ctx {
	struct lab_req req;
	struct dentry *dir;	/* O_TMPFILE: the directory the file is made in */
	__u32 classes;		/* a bit per class still to check */
	int deny;
};

/*
 * Exec allowed, read denied (loader/POLICY.md, "What the rules mean":
 * exec-only files): a task whose program (its mm's exe_file) the
 * current task may not read is sealed against it: its memory holds the
 * program's bytes. One callback makes the hooks' checks besides
 * file_open's (the read checks, bprm_check_security's exec check,
 * ptrace_access_check's ptrace check) on an open_ctx, so that the
 * verifier goes through check() once more, and the stack holds one
 * request.
 */
static long sealed_step(__u32 i, void *data)
{
	struct open_ctx *s = data;

	s->deny = check(&s->req);
	return 1;
}

/*
 * Is a read of @file denied to the current task? (hook @hook's events)
 * @s: where to build the request (file_open has one: no more stack).
 */
static __always_inline int read_denied(struct open_ctx *s, __u16 hook, struct file *file)
{
	if (!file)
		return 0;
	s->req.hook = hook;
	s->req.class = LAB_READ;
	s->req.self = 0;
	s->req.file = file;
	s->req.dentry = file->f_path.dentry;
	s->deny = 0;
	if (!s->req.dentry)
		return 0;
	bpf_loop(1, sealed_step, s, 0);
	return s->deny;
}

/* Is @task running a program the current task may not read? */
static __always_inline int sealed(struct open_ctx *s, __u16 hook, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;

	return mm ? read_denied(s, hook, mm->exe_file) : 0;
}

static long open_step(__u32 i, void *data)
{
	struct open_ctx *o = data;
	__u32 left = o->classes;

	if (i > LAB_SELF || !(left >> i))
		return 1;
	if (!((left >> i) & 1))
		return 0;
	o->req.class = i;
	if (i == LAB_CREATE)
		o->req.dentry = o->dir;
	if (check(&o->req)) {
		o->deny = 1;
		return 1;
	}
	o->req.self = 0;	/* self-protection has had its say with the first */
	return 0;
}

LAB_PROG(file_open, struct file *file)
{
	unsigned int mode = file->f_mode, flags = file->f_flags;
	struct dentry *dentry = file->f_path.dentry;
	struct open_ctx o = {
		.req = {
			.hook = LAB_HOOK_FILE_OPEN,
			.dentry = dentry,
			.self = LAB_SELF_OPEN,
			.file = file,
		},
	};
	__u32 classes = 0;

	if (flags & __FMODE_EXEC) {
		/*
		 * exec's own opens: the program (bprm_check_security checks it
		 * too) and its ELF interpreter (which nothing else checks).
		 * They are execs, not reads. Outside an execve (uselib(), on
		 * kernels with CONFIG_USELIB) the file is mapped readable into
		 * the caller: a read too.
		 */
		classes = 1 << LAB_EXEC;
		if (!BPF_CORE_READ_BITFIELD_PROBED(bpf_get_current_task_btf(), in_execve))
			classes |= 1 << LAB_READ;
	} else {
		/* O_ACCMODE 3: neither mode, ioctls only; counted as both */
		if ((mode & FMODE_READ) || (flags & O_ACCMODE) == O_ACCMODE)
			classes |= 1 << LAB_READ;
		if ((mode & FMODE_WRITE) || (flags & O_ACCMODE) == O_ACCMODE ||
		    ((flags & O_TRUNC) && (file->f_inode->i_mode & S_IFMT) == S_IFREG))
			classes |= 1 << LAB_WRITE;
		/* O_TMPFILE: a file made in the directory (no inode_create in 6.1) */
		if (flags & __O_TMPFILE) {
			classes |= 1 << LAB_CREATE;
			o.dir = dentry->d_parent;
		}
	}
	/*
	 * A core dump's file, opened by the dumping task: the dump would
	 * hold its program's image, which must not leave if the task may
	 * not read the program (a pipe core_pattern is a limit: no open).
	 */
	if (bpf_get_current_task_btf()->signal->core_state) {
		if (sealed(&o, LAB_HOOK_FILE_OPEN, bpf_get_current_task_btf()))
			return LAB_RET(1);
		o.req.class = 0;
		o.req.dentry = dentry;
		o.req.self = LAB_SELF_OPEN;
		o.req.file = file;
		o.deny = 0;
	}
	o.classes = classes ? classes : 1 << LAB_SELF;
	/* up to the highest class asked: a read-only open is one call */
	bpf_loop(!classes ? LAB_SELF + 1 : (classes >> LAB_CREATE) ? LAB_CREATE + 1 :
		 (classes >> LAB_EXEC) ? LAB_EXEC + 1 : (classes >> LAB_WRITE) ? LAB_WRITE + 1 :
		 LAB_READ + 1, open_step, &o, 0);
	return LAB_RET(o.deny);
}

LAB_PROG(bprm_check_security, struct linux_binprm *bprm)
{
	/* the file too: its mount, for subtrees across mounts */
	struct open_ctx s = {
		.req = {
			.hook = LAB_HOOK_BPRM_CHECK,
			.class = LAB_EXEC,
			.dentry = bprm->file->f_path.dentry,
			.file = bprm->file,
		},
	};

	bpf_loop(1, sealed_step, &s, 0);
	if (s.deny)
		return LAB_RET(1);
	/*
	 * An exec-only program (exec allowed, read denied): not under a
	 * tracer, which would read it from the new image; and AT_SECURE,
	 * so that the dynamic loader takes no LD_PRELOAD, LD_LIBRARY_PATH
	 * or LD_AUDIT, whose code would read the image from inside.
	 */
	if (read_denied(&s, LAB_HOOK_BPRM_CHECK, bprm->file)) {
		if (bpf_get_current_task_btf()->ptrace)
			return LAB_RET(1);
		bpf_bprm_opts_set(bprm, BPF_F_BPRM_SECUREEXEC);
	}
	return LAB_RET(0);
}

LAB_PROG(inode_create, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_made(LAB_HOOK_INODE_CREATE, dentry));
}

LAB_PROG(inode_mkdir, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_MKDIR, LAB_CREATE, dentry));
}

LAB_PROG(inode_mknod, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_made(LAB_HOOK_INODE_MKNOD, dentry));
}

LAB_PROG(inode_symlink, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_SYMLINK, LAB_CREATE, dentry));
}

/*
 * A link or a rename: the old name's unlink, the new name's create (and
 * no allow by path on it: match_file()), and over a file, that file's
 * unlink (what a rename replaces is removed).
 * One callback goes through them, so that the verifier sees check() once.
 */
struct move_ctx {
	__u16 hook;
	struct dentry *old, *new;
	int deny;
};

static long move_step(__u32 i, void *data)
{
	struct move_ctx *m = data;
	struct lab_req req = {
		.hook = m->hook,
		.class = i == 1 ? LAB_CREATE : LAB_UNLINK,
		.onto = i == 1 ? (1 << LAB_FILE_CLASSES) - 1 : 0,	/* any allow */
		.dentry = i ? m->new : m->old,
	};

	if (!check(&req))
		return 0;
	m->deny = 1;
	return 1;
}

static __always_inline int check_move(__u16 hook, struct dentry *old, struct dentry *new)
{
	struct move_ctx m = { .hook = hook, .old = old, .new = new };

	bpf_loop(new->d_inode ? 3 : 2, move_step, &m, 0);
	return m.deny;
}

LAB_PROG(inode_link, struct dentry *old_dentry, struct inode *dir,
	     struct dentry *new_dentry)
{
	return LAB_RET(check_move(LAB_HOOK_INODE_LINK, old_dentry, new_dentry));
}

LAB_PROG(inode_rename, struct inode *old_dir, struct dentry *old_dentry,
	     struct inode *new_dir, struct dentry *new_dentry)
{
	return LAB_RET(check_move(LAB_HOOK_INODE_RENAME, old_dentry, new_dentry));
}

LAB_PROG(inode_unlink, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_UNLINK, LAB_UNLINK, dentry));
}

LAB_PROG(inode_rmdir, struct inode *dir, struct dentry *dentry)
{
	return LAB_RET(check_dentry(LAB_HOOK_INODE_RMDIR, LAB_UNLINK, dentry));
}

/* network */

LAB_PROG(socket_create, int family, int type, int protocol, int kern)
{
	struct lab_req req = {
		.hook = LAB_HOOK_SOCKET_CREATE,
		.class = LAB_SOCKET,
		.family = family,
		.type = type,
		.protocol = protocol,
		.number = type,
	};

	if (kern)
		return LAB_RET(0);
	return LAB_RET(check(&req));
}

/*
 * Fill in the address of a bind, connect or sendto. An IPv4-mapped IPv6
 * address is IPv4 traffic and is matched as such. Returns 0 for the
 * families bind and connect rules do not cover.
 *
 * @unspec_is_inet: IPv4 bind() and UDP sendmsg() take an AF_UNSPEC
 * address as an IPv4 one; connect() takes it as "disconnect".
 */
static __always_inline int read_sockaddr(struct lab_req *req, struct sockaddr *address,
					 int unspec_is_inet)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;
	__u16 family = 0;

	if (bpf_probe_read_kernel(&family, sizeof(family), &address->sa_family))
		return 0;
	if (family == AF_UNSPEC && unspec_is_inet)
		family = AF_INET;
	if (family == AF_INET) {
		if (bpf_probe_read_kernel(&sin, sizeof(sin), address))
			return 0;
		req->port = bpf_ntohs(sin.sin_port);
		__builtin_memcpy(req->addr, &sin.sin_addr, 4);
	} else if (family == AF_INET6) {
		if (bpf_probe_read_kernel(&sin6, sizeof(sin6), address))
			return 0;
		req->port = bpf_ntohs(sin6.sin6_port);
		if (sin6.sin6_addr.in6_u.u6_addr32[0] == 0 &&
		    sin6.sin6_addr.in6_u.u6_addr32[1] == 0 &&
		    sin6.sin6_addr.in6_u.u6_addr32[2] == bpf_htonl(0xffff)) {
			family = AF_INET;
			__builtin_memcpy(req->addr, &sin6.sin6_addr.in6_u.u6_addr32[3], 4);
		} else {
			__builtin_memcpy(req->addr, &sin6.sin6_addr, 16);
		}
	} else {
		return 0;
	}
	req->family = family;
	return 1;
}

static __always_inline void sock_kind(struct lab_req *req, struct socket *sock)
{
	req->protocol = BPF_CORE_READ(sock, sk, sk_protocol);
	/* MPTCP is TCP on the wire (its subflows): tcp rules are its rules */
	if (req->protocol == IPPROTO_MPTCP)
		req->protocol = IPPROTO_TCP;
	req->type = BPF_CORE_READ(sock, type);
}

static __always_inline int check_address(__u16 hook, __u8 class, struct socket *sock,
					 struct sockaddr *address)
{
	struct lab_req req = { .hook = hook, .class = class };
	int inet = BPF_CORE_READ(sock, sk, __sk_common.skc_family) == AF_INET;

	if (!address || !read_sockaddr(&req, address, inet && hook != LAB_HOOK_SOCKET_CONNECT))
		return 0;
	sock_kind(&req, sock);
	return check(&req);
}

/*
 * An AF_INET6 socket with IPV6_V6ONLY off bound to [::]:P takes IPv4
 * connections on P too: judged as a bind of [::]:P, then of 0.0.0.0:P.
 * (::ffff:0.0.0.0 is v4-mapped, read_sockaddr() makes it 0.0.0.0.)
 */
static __always_inline int dual_stack_any(struct socket *sock, struct sockaddr *address,
					  __u16 *port)
{
	struct sockaddr_in6 sin6;
	struct sock *sk = BPF_CORE_READ(sock, sk);

	if (!sk || BPF_CORE_READ(sk, __sk_common.skc_family) != AF_INET6 ||
	    BPF_CORE_READ_BITFIELD_PROBED(sk, __sk_common.skc_ipv6only))
		return 0;
	if (bpf_probe_read_kernel(&sin6, sizeof(sin6), address) || sin6.sin6_family != AF_INET6)
		return 0;
	*port = bpf_ntohs(sin6.sin6_port);
	return !(sin6.sin6_addr.in6_u.u6_addr32[0] | sin6.sin6_addr.in6_u.u6_addr32[1] |
		 sin6.sin6_addr.in6_u.u6_addr32[2] | sin6.sin6_addr.in6_u.u6_addr32[3]);
}

LAB_PROG(socket_bind, struct socket *sock, struct sockaddr *address, int addrlen)
{
	struct lab_req req = { .hook = LAB_HOOK_SOCKET_BIND, .class = LAB_BIND,
			       .family = AF_INET };
	int ret = check_address(LAB_HOOK_SOCKET_BIND, LAB_BIND, sock, address);

	if (ret || !address || !dual_stack_any(sock, address, &req.port))
		return LAB_RET(ret);
	sock_kind(&req, sock);
	return LAB_RET(check(&req));
}

LAB_PROG(socket_connect, struct socket *sock, struct sockaddr *address, int addrlen)
{
	return LAB_RET(check_address(LAB_HOOK_SOCKET_CONNECT, LAB_CONNECT, sock, address));
}

/*
 * SCTP names more than one address at a time: a list of sockaddr_in and
 * sockaddr_in6 back to back (connectx, bindx: sctp_bind_connect), or
 * sendmsg()'s SCTP_DSTADDRV4 and SCTP_DSTADDRV6 cmsgs, more peer
 * addresses for the association msg_name starts (on msg_name's port),
 * which sctp_sendmsg_new_asoc() adds with no LSM hook of its own. Each
 * address is judged as a bind or a connect of its own, one callback
 * call each, which makes one check(): the verifier goes through it
 * once, and the program's own frame holds no request (it counts the
 * program's stack and the callback's together). The first address
 * denied denies the call. Where the list cannot be read on, the kernel
 * refuses it too (EINVAL): the walk stops there.
 */
struct addr_list {
	struct lab_req req;	/* hook, class, protocol, type; each step its address */
	const void *buf;	/* the list or msg_control: kernel memory */
	struct sockaddr *name;	/* sendmsg(): msg_name, judged first */
	struct sock *sk;	/* its family and IPV6_V6ONLY, read by the steps themselves */
	__u32 len;		/* buf's bytes (a kmalloc()'s: 4 MiB at most) */
	__u32 off;		/* the next entry's */
	__u16 port;		/* cmsgs: msg_name's port, every address's */
	__u8 cmsgs;		/* buf holds cmsgs, not sockaddrs */
	__u8 deny;
};

/* Steps' answers: an address in l->req to judge, none this step, the list's end */
#define LIST_JUDGE	1
#define LIST_SKIP	0
#define LIST_END	(-1)

/* An IPv4-mapped address in @req (AF_INET6) is IPv4 traffic: made so. */
static __always_inline void unmap_v4(struct lab_req *req)
{
	__u8 *a = req->addr;

	if (!(a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7] | a[8] | a[9]) &&
	    a[10] == 0xff && a[11] == 0xff) {
		__builtin_memcpy(a, a + 12, 4);
		__builtin_memset(a + 4, 0, 12);
		req->family = AF_INET;
	}
}

/*
 * read_sockaddr() for the steps: straight into @req, no copy of the
 * sockaddr on the stack, which the global programs' 512 bytes, their
 * callbacks' and all, have no room for. (sin_port and sin6_port are
 * both at offset 2, sin_addr at 4, sin6_addr at 8.)
 */
static __always_inline int read_sockaddr_into(struct lab_req *req, const void *at,
					      int unspec_is_inet)
{
	__u16 family = 0;

	if (bpf_probe_read_kernel(&family, sizeof(family), at) ||
	    bpf_probe_read_kernel(&req->port, sizeof(req->port), at + 2))
		return 0;
	req->port = bpf_ntohs(req->port);
	__builtin_memset(req->addr, 0, sizeof(req->addr));
	if (family == AF_UNSPEC && unspec_is_inet)
		family = AF_INET;
	req->family = family;
	if (family == AF_INET)
		return !bpf_probe_read_kernel(req->addr, 4, at + 4);
	if (family != AF_INET6 || bpf_probe_read_kernel(req->addr, 16, at + 8))
		return 0;
	unmap_v4(req);
	return 1;
}

/*
 * The list's entry at l->off, two steps each: the first judges it, the
 * second moves on, and judges a bind of [::] on a dual-stack socket
 * again as 0.0.0.0. Both read the entry, and the socket's family and
 * IPV6_V6ONLY, afresh: 6.1 verifies a bpf_loop() callback from the
 * state at the call, where a flag carried from one step to the next, or
 * worked out by the program before the call, is a known constant, and
 * may prune the paths with the other value: the branch it guards becomes
 * dead code, hard-wired (a dual-stack flag did so on the global
 * backend). The step's parity is unknown to the verifier.
 */
static __always_inline int next_sockaddr(struct addr_list *l, __u32 second)
{
	const void *at = l->buf + l->off;
	__u16 family = 0;
	__u64 size;
	__u8 *a = l->req.addr;

	if (l->off + sizeof(family) > l->len ||
	    bpf_probe_read_kernel(&family, sizeof(family), at))
		return LIST_END;
	size = family == AF_INET ? sizeof(struct sockaddr_in) :
	       family == AF_INET6 ? sizeof(struct sockaddr_in6) : 0;
	if (!size || l->off + size > l->len)
		return LIST_END;	/* sctp_get_af_specific() knows no such entry: EINVAL */
	if (!read_sockaddr_into(&l->req, at, 0))
		return LIST_END;
	if (!second)
		return LIST_JUDGE;
	l->off += size;
	/* an AF_INET6 socket with IPV6_V6ONLY off bound to [::] takes IPv4 too */
	if (l->req.class != LAB_BIND || l->req.family != AF_INET6 ||
	    l->sk->__sk_common.skc_family != AF_INET6 || l->sk->__sk_common.skc_ipv6only ||
	    (a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7] | a[8] | a[9] | a[10] |
	     a[11] | a[12] | a[13] | a[14] | a[15]))
		return LIST_SKIP;
	l->req.family = AF_INET;	/* [::]: 0.0.0.0, its address all zeros too */
	return LIST_JUDGE;
}

static __always_inline int next_cmsg(struct addr_list *l)
{
	struct lab_cmsghdr c;
	const void *at = l->buf + l->off;
	__u8 *a = l->req.addr;

	switch (cmsg_at(l->buf, l->len, l->off, &c)) {
	case CMSG_UNREAD:
		l->deny = 1;	/* a user pointer, were one ever here */
		return LIST_END;
	case CMSG_END:
		return LIST_END;
	}
	l->off += (__u32)LAB_CMSG_ALIGN(c.len);
	if (c.level != IPPROTO_SCTP || (c.type != SCTP_DSTADDRV4 && c.type != SCTP_DSTADDRV6))
		return LIST_SKIP;
	__builtin_memset(a, 0, sizeof(l->req.addr));
	l->req.port = l->port;
	l->req.family = AF_INET;
	if (c.type == SCTP_DSTADDRV4)
		return c.len >= sizeof(c) + 4 && !bpf_probe_read_kernel(a, 4, at + sizeof(c)) ?
		       LIST_JUDGE : LIST_END;
	if (c.len < sizeof(c) + 16 || bpf_probe_read_kernel(a, 16, at + sizeof(c)))
		return LIST_END;
	l->req.family = AF_INET6;
	unmap_v4(&l->req);
	return LIST_JUDGE;
}

static long list_step(__u32 i, void *data)
{
	struct addr_list *l = data;
	int next;

	if (l->name) {
		/* sendmsg()'s msg_name, as check_address() reads it */
		next = read_sockaddr_into(&l->req, l->name,
					  l->sk->__sk_common.skc_family == AF_INET) ?
		       LIST_JUDGE : LIST_END;
		l->name = NULL;
	} else {
		next = l->cmsgs ? next_cmsg(l) : next_sockaddr(l, i & 1);
	}
	if (next != LIST_JUDGE)
		return next == LIST_END;
	if (check(&l->req)) {
		l->deny = 1;
		return 1;
	}
	return 0;
}

/*
 * sendto() and sendmsg() with an address connect for one datagram; on an
 * SCTP socket, its SCTP_DSTADDRV4/6 cmsgs too.
 */
LAB_PROG(socket_sendmsg, struct socket *sock, struct msghdr *msg, int size)
{
	struct sock *sk = sock->sk;
	struct addr_list l = {
		.req = { .hook = LAB_HOOK_SOCKET_SENDMSG, .class = LAB_CONNECT },
		.name = msg->msg_name,
		.sk = sk,
		.cmsgs = 1,
	};
	__u64 len = msg->msg_controllen;
	__u32 steps = 1;

	if (!l.name || !sk)
		return LAB_RET(0);
	l.req.protocol = sk->sk_protocol;
	/* MPTCP is TCP on the wire (its subflows): tcp rules are its rules */
	if (l.req.protocol == IPPROTO_MPTCP)
		l.req.protocol = IPPROTO_TCP;
	l.req.type = sock->type;
	/*
	 * msg_control is the kernel's copy (____sys_sendmsg()), the compat
	 * entry's too, though it leaves msg_control_is_user set
	 * (cmsghdr_from_user_compat_to_kern()); the cmsgs name no port, and
	 * without msg_name they start no association
	 */
	if (l.req.protocol == IPPROTO_SCTP && msg->msg_control &&
	    len <= 1U << 31 && !bpf_probe_read_kernel(&l.port, sizeof(l.port),
						      &((struct sockaddr_in *)l.name)->sin_port)) {
		l.buf = msg->msg_control;
		l.len = len;
		l.port = bpf_ntohs(l.port);
		/* msg_name, then at most one cmsg every 16 bytes */
		steps = list_steps(l.len, sizeof(struct lab_cmsghdr));
	}
	bpf_loop(steps, list_step, &l, 0);
	return LAB_RET(l.deny);
}

/*
 * SCTP's own ways to an address (security_sctp_bind_connect()), on
 * kernels with SCTP (lsmctl attaches it there only: loader/POLICY.md):
 * connectx and a sendmsg() that starts an association (every address
 * of the list), SCTP_PRIMARY_ADDR (a peer address the task makes its
 * primary path) are connects; bindx and SCTP_SET_PEER_PRIMARY_ADDR (a
 * local address the peer is asked to send to) are binds. The hook's
 * other two calls, SCTP_PARAM_ADD_IP and SCTP_PARAM_SET_PRIMARY, are
 * the peer's ASCONF chunks, in softirq context, not the current task's
 * doing: not judged.
 */
LAB_PROG(sctp_bind_connect, struct sock *sk, int optname, struct sockaddr *address,
	     int addrlen)
{
	struct addr_list l = { .req = { .hook = LAB_HOOK_SCTP_BIND_CONNECT } };

	switch (optname) {
	case SCTP_SOCKOPT_BINDX_ADD:
	case SCTP_SET_PEER_PRIMARY_ADDR:
		l.req.class = LAB_BIND;
		break;
	case SCTP_SOCKOPT_CONNECTX:
	case SCTP_SENDMSG_CONNECT:
	case SCTP_PRIMARY_ADDR:
		l.req.class = LAB_CONNECT;
		break;
	default:
		return LAB_RET(0);
	}
	if (!sk || !address || addrlen <= 0)
		return LAB_RET(0);
	l.req.protocol = sk->sk_protocol;
	l.req.type = sk->sk_type;
	l.buf = address;
	l.len = addrlen;
	l.sk = sk;
	/* two steps an entry (next_sockaddr()), 16 bytes at least: one step each 8 */
	bpf_loop(list_steps(l.len, 8), list_step, &l, 0);
	return LAB_RET(l.deny);
}

/* ptrace, mount, module_load, signal, capability */

static __always_inline int check_fixed(__u16 hook, __u8 class, struct task_struct *target,
				       __u32 number)
{
	struct lab_req req = { .hook = hook, .class = class, .target = target, .number = number };

	return check(&req);
}

LAB_PROG(ptrace_access_check, struct task_struct *child, unsigned int mode)
{
	/*
	 * A task running a program the tracer may not read: no access of
	 * any mode (PTRACE_ATTACH, /proc/PID/mem, map_files, maps and
	 * environ, process_vm_readv, pidfd_getfd), which would give its
	 * image's bytes or its fds.
	 */
	struct open_ctx s = {};

	if (sealed(&s, LAB_HOOK_PTRACE_ACCESS, child))
		return LAB_RET(1);
	/* reading /proc/PID files is not tracing; attaching (and /proc/PID/mem) is */
	if (!(mode & PTRACE_MODE_ATTACH))
		return LAB_RET(0);
	/* (through the same callback, on the same stack) */
	s.req.class = LAB_PTRACE;
	s.req.dentry = NULL;
	s.req.file = NULL;
	s.req.target = child;
	s.deny = 0;
	bpf_loop(1, sealed_step, &s, 0);
	return LAB_RET(s.deny);
}

LAB_PROG(ptrace_traceme, struct task_struct *parent)
{
	return LAB_RET(check_fixed(LAB_HOOK_PTRACE_TRACEME, LAB_PTRACE, parent, 0));
}

LAB_PROG(sb_mount, const char *dev_name, const struct path *path)
{
	return LAB_RET(check_fixed(LAB_HOOK_SB_MOUNT, LAB_MOUNT, NULL, 0));
}

LAB_PROG(move_mount, const struct path *from_path, const struct path *to_path)
{
	return LAB_RET(check_fixed(LAB_HOOK_MOVE_MOUNT, LAB_MOUNT, NULL, 0));
}

LAB_PROG(sb_umount, struct vfsmount *mnt, int flags)
{
	return LAB_RET(check_fixed(LAB_HOOK_SB_UMOUNT, LAB_MOUNT, NULL, flags));
}

LAB_PROG(kernel_load_data, enum kernel_load_data_id id, bool contents)
{
	if (id != LOADING_MODULE && id != LOADING_KEXEC_IMAGE && id != LOADING_KEXEC_INITRAMFS)
		return LAB_RET(0);
	return LAB_RET(check_fixed(LAB_HOOK_KERNEL_LOAD_DATA, LAB_MODULE_LOAD, NULL, id));
}

LAB_PROG(kernel_read_file, struct file *file, enum kernel_read_file_id id,
	     bool contents)
{
	if (id != READING_MODULE && id != READING_KEXEC_IMAGE && id != READING_KEXEC_INITRAMFS)
		return LAB_RET(0);
	return LAB_RET(check_fixed(LAB_HOOK_KERNEL_READ_FILE, LAB_MODULE_LOAD, NULL, id));
}

LAB_PROG(task_kill, struct task_struct *p, struct kernel_siginfo *info, int sig)
{
	if (!sig)
		return LAB_RET(0);	/* kill(pid, 0) only asks whether pid exists */
	return LAB_RET(check_fixed(LAB_HOOK_TASK_KILL, LAB_SIGNAL, p, sig));
}

LAB_PROG(capable, const struct cred *cred, struct user_namespace *ns, int cap)
{
	long nr;

	/* the new mount API is a mount (mount_api.bpf.h) */
	if (cap == CAP_SYS_ADMIN) {
		nr = current_syscall();
		if (mount_api_syscall(nr) && check_fixed(LAB_HOOK_CAPABLE, LAB_MOUNT, NULL, nr))
			return LAB_RET(1);
	}
	return LAB_RET(check_fixed(LAB_HOOK_CAPABLE, LAB_CAPABILITY, NULL, cap));
}

#endif /* LSMLAB_HOOKS_BPF_H */
