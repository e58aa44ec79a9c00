/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the policy engine's BPF programs and lsmctl share: the layout of
 * the rule maps, the per-policy configuration and the denial events.
 *
 * Every map key starts with a policy id, so that one set of maps can
 * hold many policies (the global backend) or just one (an lsm_cgroup
 * instance, which loads its own copy of the programs and maps).
 */
#ifndef LSMLAB_ENGINE_H
#define LSMLAB_ENGINE_H

#include "limits.h"

#ifndef __VMLINUX_H__
#include <linux/bpf.h>		/* lsmctl's: struct bpf_spin_lock */
#endif

/* Access classes: what a rule restricts, one bit each in masks. */
enum lab_class {
	LAB_READ,
	LAB_WRITE,
	LAB_EXEC,
	LAB_CREATE,
	LAB_UNLINK,
	LAB_SOCKET,
	LAB_BIND,
	LAB_CONNECT,
	LAB_CAPABILITY,
	LAB_PTRACE,
	LAB_MOUNT,
	LAB_MODULE_LOAD,
	LAB_SIGNAL,
	LAB_SELF,		/* self-protection, not a rule kind */
	LAB_NR_CLASSES,
};

#define LAB_FILE_CLASSES	(LAB_UNLINK + 1)	/* read .. unlink */

/*
 * The hooks the engine has a program for, as the kernel's
 * lsm_hook_defs.h lists its own: X(ENUM, hook) for each, in the order of
 * enum lab_hook. LAB_HOOK_<ENUM> is the hook's number, <hook> the LSM
 * hook's name, which lsmctl prints and pins by, and lab_<hook> the
 * program on it (LAB_PROG, hooks.bpf.h).
 */
#define LAB_HOOKS(X)				\
	X(FILE_OPEN, file_open)			\
	X(BPRM_CHECK, bprm_check_security)	\
	X(INODE_CREATE, inode_create)		\
	X(INODE_MKDIR, inode_mkdir)		\
	X(INODE_MKNOD, inode_mknod)		\
	X(INODE_SYMLINK, inode_symlink)		\
	X(INODE_LINK, inode_link)		\
	X(INODE_RENAME, inode_rename)		\
	X(INODE_UNLINK, inode_unlink)		\
	X(INODE_RMDIR, inode_rmdir)		\
	X(SOCKET_CREATE, socket_create)		\
	X(SOCKET_BIND, socket_bind)		\
	X(SOCKET_CONNECT, socket_connect)	\
	X(SOCKET_SENDMSG, socket_sendmsg)	\
	X(PTRACE_ACCESS, ptrace_access_check)	\
	X(PTRACE_TRACEME, ptrace_traceme)	\
	X(SB_MOUNT, sb_mount)			\
	X(MOVE_MOUNT, move_mount)		\
	X(SB_UMOUNT, sb_umount)			\
	X(KERNEL_LOAD_DATA, kernel_load_data)	\
	X(KERNEL_READ_FILE, kernel_read_file)	\
	X(TASK_KILL, task_kill)			\
	X(CAPABLE, capable)			\
	X(SCTP_BIND_CONNECT, sctp_bind_connect)	/* last: hook numbers are in pins and events */

#define LAB_HOOK_ENUM(ENUM, hook)	LAB_HOOK_##ENUM,
enum lab_hook {
	LAB_HOOKS(LAB_HOOK_ENUM)
	LAB_NR_HOOKS,
};
#undef LAB_HOOK_ENUM

/*
 * Self-protection's guard (guard.bpf.c): one lsm/ program a hook for
 * the whole machine, on the hooks through which a confined root could
 * undo its policy or act outside its subtree. X(hook) for each; events
 * from the guard carry LAB_GUARD_HOOK_BASE + enum lab_guard_hook.
 */
#define LAB_GUARD_HOOKS(X)		\
	X(bpf)				\
	X(bpf_map)			\
	X(task_alloc)			\
	X(inode_create)			\
	X(inode_mkdir)			\
	X(inode_symlink)		\
	X(inode_link)			\
	X(inode_unlink)			\
	X(inode_rmdir)			\
	X(inode_rename)			\
	X(inode_setattr)		\
	X(file_lock)			\
	X(file_fcntl)			\
	X(file_ioctl)			\
	X(file_ioctl_compat)		\
	X(file_receive)			\
	X(ptrace_access_check)		\
	X(task_kill)			\
	X(perf_event_open)		\
	X(kernel_load_data)		\
	X(kernel_read_file)		\
	X(kernel_module_request)	\
	X(sb_mount)			\
	X(sb_umount)			\
	X(sb_pivotroot)			\
	X(sb_remount)			\
	X(move_mount)			\
	X(capable)			\
	X(locked_down)			\
	X(task_prlimit)			\
	X(path_notify)			\
	X(socket_setsockopt)		\
	X(socket_sendmsg)		\
	X(netlink_send)			\
	X(ipc_permission)		\
	X(msg_queue_alloc_security)	\
	X(msg_queue_free_security)	\
	X(msg_queue_msgctl)		\
	X(shm_alloc_security)		\
	X(shm_free_security)		\
	X(shm_shmctl)			\
	X(sem_alloc_security)		\
	X(sem_free_security)		\
	X(sem_semctl)			\
	X(socket_create)		\
	X(inode_setxattr)		\
	X(inode_removexattr)		\
	X(inode_mknod)			\
	X(mmap_file)			\
	X(file_mprotect)		\
	X(bprm_creds_from_file)		\
	X(cgroup_attach)

#define LAB_GUARD_ENUM(hook)	LAB_GUARD_##hook,
enum lab_guard_hook {
	LAB_GUARD_HOOKS(LAB_GUARD_ENUM)
	LAB_NR_GUARD_HOOKS,
};
#undef LAB_GUARD_ENUM
/* (a bit a hook in lsmctl's masks: LAB_GUARD_OPTIONAL, probe's missing hooks) */
_Static_assert(LAB_NR_GUARD_HOOKS <= 64, "the guard's hooks fit a 64-bit mask");

/*
 * Guard hooks that only the lab's series has (cgroup_attach, patch 12):
 * taken where the kernel has them; elsewhere what they decide is
 * refused whole by other hooks (cgroup.procs and cgroup.threads at
 * file_open, CLONE_INTO_CGROUP at task_alloc), and self-protection is
 * whole without them.
 */
#define LAB_GUARD_OPTIONAL	(1ull << LAB_GUARD_cgroup_attach)

#define LAB_GUARD_HOOK_BASE	64	/* above every enum lab_hook */

/* Rule numbers in events and hit counts: the rule's index in the file. */
#define LAB_RULE_DEFAULT	0xffff	/* no rule matched; the default decided */
#define LAB_RULE_SELF		0xfffe	/* self-protection decided */
#define LAB_RULE_LOST		0xfffd	/* in hits: events not reported (event.bpf.h) */
#define LAB_RULE_NONE		0	/* in maps: rule index + 1, 0 for none */
_Static_assert(LAB_MAX_RULES < LAB_RULE_LOST, "a rule's number is none of the above");

/* lab_conf.flags */
#define LAB_AUDIT		(1U << 0)	/* report, deny nothing */
#define LAB_SELF_PROTECT	(1U << 1)	/* confined root cannot undo the policy */
#define LAB_SELF_MOVES		(1U << 2)	/* the guard judges each move (cgroup_attach) */

/* What self-protection asks of an open (lab_req.self, BPF side). */
#define LAB_SELF_DENY		1	/* always: /dev/mem, sysctls... */
#define LAB_SELF_CGROUP		2	/* writes to a cgroup outside the subtree */
#define LAB_SELF_LIMIT		3	/* a cgroup's limits: its parent's to set */
#define LAB_SELF_MOVE		4	/* cgroup.procs, cgroup.threads: moving tasks */
#define LAB_SELF_OPEN		5	/* file_open: what the file is tells */

struct lab_conf {
	__u64 cgroup_id;	/* the cgroup the policy is applied to */
	__u32 cgroup_level;	/* its depth: the root cgroup is 0 */
	__u32 flags;
	__u32 default_deny;	/* classes (bits) where no match means deny */
	__u32 n_net;		/* bind/connect rules in net_rules */
	/*
	 * file classes (bits) with rules on an inode, on a subtree, on a
	 * name in a directory (by path), and on a glob in a directory
	 */
	__u8 file_exact;
	__u8 file_tree;
	__u8 file_path;
	__u8 file_glob;
	__u8 file_mglob;	/* on a '*' middle component (lab_mglob) */
	__u8 pad_file[3];
	/* ptrace, mount, module_load, signal: rule index + 1, and deny */
	__u16 fixed_rule[16];	/* indexed by class, masked to 4 bits */
	__u8 fixed_deny[16];
	/* capability rules: per CAP_*, rule index + 1, and the deny bits */
	__u64 cap_deny;
	__u16 cap_rule[64];
	__u32 generation;	/* lab_meta's: its events name the policy as it was */
	__u32 pad_generation;
};

/*
 * A device number as the kernel holds it (a superblock's s_dev, an
 * inode's i_rdev), and as BPF reads it: not userspace's dev_t.
 */
#define LAB_MINORBITS		20
#define LAB_MINORMASK		((1U << LAB_MINORBITS) - 1)
#define LAB_MKDEV(major, minor)	(((major) << LAB_MINORBITS) | (minor))
#define LAB_MAJOR(dev)		((dev) >> LAB_MINORBITS)
#define LAB_MINOR(dev)		((dev) & LAB_MINORMASK)

/* files and exec rules, on an inode; subtree rules on a directory's. */
struct lab_file_key {
	__u32 policy;
	__u32 dev;		/* LAB_MKDEV(major, minor) */
	__u64 ino;
};

struct lab_file_val {
	__u16 exact[LAB_FILE_CLASSES];	/* the inode itself: rule + 1 */
	__u16 tree[LAB_FILE_CLASSES];	/* anything below it (and it) */
	__u8 exact_deny;		/* a bit per class */
	__u8 tree_deny;
	__u8 pad[2];
};

/*
 * files and exec rules by path: the name in its directory, the directory
 * by inode (path_rules), the name by its hash (lab_name_hash()), and the
 * name itself in the value, compared on a hit. lsmctl refuses two names
 * of one directory with one hash.
 */
struct lab_path_key {
	__u32 policy;
	__u32 dev;		/* the directory's superblock: LAB_MKDEV() */
	__u64 dir;		/* the directory's inode */
	__u64 hash;		/* lab_name_hash() of the name */
};

struct lab_path_val {
	__u16 rule[LAB_FILE_CLASSES];	/* rule + 1 */
	__u8 deny;			/* a bit per class */
	__u8 len;			/* the name's */
	__u64 name[LAB_PATH_NAME_LEN / 8];	/* zero-padded */
};

/*
 * A name's hash: FNV-1a's step over the name's 8-byte words, zero-padded
 * and read as x86 reads them (little-endian), then over its length. Few
 * instructions a word: the map hashes the key again.
 */
#define LAB_NAME_HASH_SEED	0xcbf29ce484222325ULL
#define LAB_NAME_HASH_PRIME	0x100000001b3ULL

static inline __u64 lab_name_hash_step(__u64 h, __u64 word)
{
	return (h ^ word) * LAB_NAME_HASH_PRIME;
}

/*
 * Glob rules: "PREFIX*SUFFIX" as a directory's last component, a list a
 * directory (glob_rules, keyed by policy, device and the directory's
 * inode), in rule order: the first that matches the name and has a rule
 * for the class decides.
 */
struct lab_glob {
	__u16 rule[LAB_FILE_CLASSES];	/* rule + 1 */
	__u8 deny;			/* a bit per class */
	__u8 prefix_len;
	__u8 suffix_len;
	__u8 pad[3];
	char prefix[LAB_PATH_NAME_LEN];
	char suffix[LAB_PATH_NAME_LEN];
};

struct lab_glob_key {
	__u32 policy;
	__u32 dev;
	__u64 dir;
};

/*
 * A rule with '*' as a whole middle component, kept in its anchor's
 * glob_rules entry (the directory before the first '*'): the components
 * from there down, each a name, by its hash (lab_name_hash(): compared
 * by hash alone), or '*'. Without subtree the file is the last
 * component; with it, the last component or anything below it.
 */
struct lab_mglob {
	__u64 comp[LAB_MGLOB_COMPS];	/* a name's hash, or 0 for a '*' */
	__u16 rule[LAB_FILE_CLASSES];	/* rule + 1 */
	__u8 deny;			/* a bit per class */
	__u8 n;				/* components, 1 .. LAB_MGLOB_COMPS */
	__u8 star;			/* a bit per component: '*' */
	__u8 subtree;			/* written with a final slash and two stars */
	__u8 pad[2];
};

struct lab_glob_val {
	__u32 n;		/* patterns in use, at most LAB_GLOB_PATTERNS */
	__u32 n_mglob;		/* middle-component rules anchored here */
	struct lab_glob pattern[LAB_GLOB_PATTERNS];
	struct lab_mglob mglob[LAB_MGLOB_PATTERNS];
};

/* network socket rules, by family and type (0: any). */
struct lab_sock_key {
	__u32 policy;
	__u16 family;
	__u16 type;
};

struct lab_sock_val {
	__u16 rule;		/* rule index + 1 */
	__u8 deny;
	__u8 pad;
};

/* network bind and connect rules, scanned in order: key {policy, i}. */
struct lab_net_key {
	__u32 policy;
	__u32 index;
};

struct lab_net_rule {
	__u16 rule;		/* rule index + 1 */
	__u8 class;		/* LAB_BIND or LAB_CONNECT */
	__u8 deny;
	__u16 family;		/* AF_INET, AF_INET6, 0 any */
	__u16 protocol;		/* IPPROTO_*, 0 any */
	__u16 port_min, port_max;	/* host order */
	__u8 prefix;		/* address bits that must match, 0 any */
	__u8 pad[3];
	__u8 addr[16];		/* IPv4 in the first 4 bytes */
};

/* hits: key {policy, rule index or LAB_RULE_DEFAULT}, a per-CPU count. */
struct lab_hit_key {
	__u32 policy;
	__u32 rule;
};

/*
 * global backend: the cgroup levels that have a policy, and for each a
 * 64-bit filter of their cgroups' ids (bit id % 64): a task whose
 * ancestor misses the filter has no policy at that level, and the
 * programs skip the hash lookup. lsmctl sets bits before it adds a
 * cgroup to the policies map, and clears them after it took one out.
 */
struct lab_levels {
	__u32 mask;
	__u32 first;		/* the lowest level in mask */
	__u64 filter[LAB_MAX_CGROUP_DEPTH];
	/*
	 * What some global policy has (bits may outlive their policy: they
	 * only turn the short cut off). A file check of a class none has a
	 * subtree rule or default: deny for, and no self-protection to ask,
	 * is decided by the file_bloom map alone when the file is not in it.
	 */
	__u32 any_tree;		/* file classes with a subtree rule or a '*' middle component */
	__u32 any_default_deny;	/* classes closed by default: deny */
	__u32 any_self_protect;	/* a policy has self-protection on */
	/*
	 * file classes with a rule by path or glob: the file's name in its
	 * directory (a rule by path's entry in file_bloom) and the directory
	 * (a glob's) must miss the filter too
	 */
	__u32 any_path;
};

/*
 * global backend: what some global policy has a rule on (file_bloom): an
 * inode (LAB_BLOOM_INODE), a name in a directory (LAB_BLOOM_NAME: ino is
 * lab_bloom_name() of the directory's inode and the name's hash), or the
 * names of a directory that has globs (LAB_BLOOM_GLOBS: the directory's
 * inode). Kinds apart, so that a rule on a directory itself (its unlink
 * guard, say) does not turn the short cut off for every file in it.
 */
struct lab_inode {
	__u32 dev;
	__u32 kind;
	__u64 ino;
};

#define LAB_BLOOM_INODE	0
#define LAB_BLOOM_NAME	1
#define LAB_BLOOM_GLOBS	2

static inline __u64 lab_bloom_name(__u64 dir, __u64 name_hash)
{
	return lab_name_hash_step(dir, name_hash);
}

/*
 * global backend: which policy a cgroup has, the cgroup's level, and a
 * copy of the policy's configuration (one lookup finds both, and one
 * update of the policies map switches both).
 */
struct lab_policy_ref {
	__u32 policy;
	__u32 level;
	struct lab_conf conf;
};

/* global backend: a followed cgroup path (follows map's key), zero-padded. */
struct lab_follow_key {
	char path[LAB_FOLLOW_PATH_LEN];
};

/* The guard: a cgroup whose policy has self-protection (guarded map). */
struct lab_guard {
	__u64 cgroup_id;
	__u32 level;
	__u32 flags;		/* LAB_AUDIT, LAB_GUARD_SIGNAL, LAB_RULES_ON_VIEWS */
	/*
	 * A followed path's (apply --follow): its number, the same in its
	 * guard_follows template and in every entry guard_follow_mkdir()
	 * wrote from it; 0 in the entries lsmctl writes by cgroup id.
	 */
	__u32 follow;
	__u32 generation;	/* the guarded policy's (lab_conf's): for its events */
};

#define LAB_GUARD_SIGNAL	(1U << 8)	/* signal: allow, outside too */
/*
 * The policy's files rules name files of proc, sysfs or cgroup2, every
 * new mount of which shows the same objects under another device, where
 * no rule is keyed: its subtree mounts none of them (lsmctl at compile).
 */
#define LAB_RULES_ON_VIEWS	(1U << 9)

/*
 * A SysV IPC object of the initial IPC namespace made by a guarded
 * task: the guarded cgroups it was made below (the outermost
 * LAB_IPC_GUARDS), whose tasks may use it.
 */
struct lab_ipc_inside {
	__u64 guards[LAB_IPC_GUARDS];
};

/* The guard's levels: as lab_levels' mask and filter, for guarded cgroups. */
struct lab_guard_levels {
	__u32 mask;
	__u32 pad;
	__u64 filter[LAB_MAX_CGROUP_DEPTH];
};

#define LAB_VERDICT_DENY	1
#define LAB_VERDICT_AUDIT	2

/* files: the inodes of the folders above the file's folder, nearest first; 0 past the root */
struct lab_event_up {
	__u64 ino[LAB_EVENT_UP];
};

struct lab_event {
	__u64 time_ns;		/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u64 cgroup_id;	/* the task's cgroup */
	__u64 policy_cgroup_id;	/* the cgroup whose policy decided */
	__u32 pid;
	__u16 hook;		/* enum lab_hook, or LAB_GUARD_HOOK_BASE + lab_guard_hook */
	__u16 rule;		/* rule index, or LAB_RULE_DEFAULT */
	__u8 verdict;
	__u8 class;
	__u16 family;
	__u32 port;
	__u64 ino;		/* files: the inode */
	__u32 number;		/* capability, signal, module load: the number */
	__u32 dev;
	__u32 target_pid;	/* ptrace, signal */
	__u8 addr[16];
	char comm[LAB_COMM_LEN];
	char name[LAB_NAME_LEN];	/* files: the dentry's name, cut short */
	__u64 dir_ino;		/* files: the inode of the dentry's parent (rules by path, lsmctl learn) */
	/* the task: its real uid (the initial namespace's), its executable */
	__u32 uid;
	__u32 exe_dev;		/* mm->exe_file's superblock: LAB_MKDEV() */
	__u64 exe_ino;		/* 0: no executable (a kernel thread) */
	char exe[LAB_NAME_LEN];	/* the executable's name (last component), cut short */
	struct lab_event_up up;	/* files: lsmctl learn's, for a folder gone after the run */
	/* resolved when it happens: what lsmctl events prints after a cgroup or a policy goes */
	__u32 generation;	/* the policy's (lab_conf's): its name and rules then */
	__u16 policy_cgroup_len; /* @cgroup's first bytes that are the policy's cgroup; 0: not there */
	__u8 cgroup_cut;	/* LAB_CUT_*: @cgroup lacks its top, or its end */
	__u8 pad_cgroup;
	char cgroup[LAB_EVENT_CGROUP_LEN];	/* the task's, below the cgroup2 root: "/a/b" */
};

#define LAB_CUT_TOP	1	/* deeper than LAB_EVENT_CGROUP_DEPTH */
#define LAB_CUT_END	2	/* longer than LAB_EVENT_CGROUP_LEN */

/*
 * The events journal: LAB_JOURNAL_SLOTS events in a ring every reader
 * reads on its own (lsmctl's journal.c), none taking an event from
 * another. Event number N (from 0: journal_head's count when it was
 * written) is in slot N % LAB_JOURNAL_SLOTS, with seq N + 1, until event
 * N + LAB_JOURNAL_SLOTS takes its place; a reader that falls that far
 * behind knows exactly how many it lost. Each slot is written and read
 * under its lock (BPF_F_LOCK), so no reader sees half an event.
 */
struct lab_journal_slot {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 seq;		/* the event's number + 1; 0: never written */
	struct lab_event e;
};

struct lab_journal_head {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 count;		/* events written since the journal was made */
};

#endif /* LSMLAB_ENGINE_H */
