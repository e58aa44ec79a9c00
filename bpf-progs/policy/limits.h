/* SPDX-License-Identifier: GPL-2.0 */
/* The engine's and the guard's limits, for their BPF programs and lsmctl alike. */
#ifndef LSMLAB_LIMITS_H
#define LSMLAB_LIMITS_H

#define LAB_MAX_NET_RULES	256	/* bind/connect rules a policy, scanned */
#define LAB_MAX_DEPTH		64	/* directory levels a subtree walk climbs */
#define LAB_MAX_CGROUP_DEPTH	32	/* cgroup levels the global backend climbs */
#define LAB_MAX_POLICIES	4096	/* policy ids are 1 .. LAB_MAX_POLICIES - 1 */
/*
 * A followed cgroup path (apply --follow), as the cgroup_mkdir tracepoint
 * gives it (relative to the cgroup2 root, "/system.slice/nginx.service"):
 * the global instance's follows map's key, zero-padded; a path is at most
 * LAB_FOLLOW_PATH_LEN - 2 bytes (a read that fills the key may be cut short).
 */
#define LAB_FOLLOW_PATH_LEN	256
#define LAB_IPC_GUARDS		4	/* nested guarded cgroups a SysV IPC object made inside names */
#define LAB_MAX_IPC_INSIDE	(1 << 15)	/* SysV IPC objects made by guarded tasks (msgmni's, semmni's 32000) */
#define LAB_MAX_TOUCHED		(1 << 14)	/* regular files guarded tasks changed the mode, owner, ACL, name or mapped bytes of */
/*
 * Mount namespaces guarded tasks made, in which they may mount: the
 * least recently used forgotten past this (mounts there refused).
 */
#define LAB_MAX_MNTNS_INSIDE	4096
#define LAB_MAX_GENL_INSIDE	64	/* generic netlink families usable in a netns of its own (loader/genl.c) */
#define LAB_MAX_RULES		4096	/* rules a policy file: numbers below engine.h's LAB_RULE_* */
/*
 * The events journal (engine.h's lab_journal_slot): its slots, a power
 * of two; a reader more than this many events behind loses the oldest.
 */
#define LAB_JOURNAL_SLOTS	4096
/* policies replaced or detached whose meta and rules lsmctl keeps for their events */
#define LAB_EVENT_HISTORY	64
/*
 * lsm_cgroup hook slots (system-wide: 10 on stock 6.1) that a policy's
 * refusal hooks (inode_link, ... for its rules by path) leave free for
 * other policies' own hooks: a network policy's three, say.
 */
#define LAB_REFUSAL_SLOTS_SPARE	3
/*
 * lsm_cgroup hook slots lsmctl probe counts, taken or not: more than any
 * kernel has (6.1: 10; the lab's series caps CONFIG_BPF_LSM_CGROUP_HOOKS
 * at 150).
 */
#define LAB_MAX_CGROUP_SLOTS	256

/*
 * The rule maps' room, for every policy of the global instance (an
 * lsm_cgroup instance is sized to its policy): hash maps allocated as
 * they fill, so a large cap costs nothing until rules are there.
 */
#define LAB_MAX_FILE_RULES	(1 << 21)	/* inodes with rules */
#define LAB_MAX_PATH_RULES	(1 << 21)	/* names in directories with rules */
#define LAB_MAX_GLOB_DIRS	(1 << 16)	/* directories with glob rules */
#define LAB_MAX_SOCK_RULES	(1 << 16)	/* socket families and types */
#define LAB_MAX_NET_KEYS	(1 << 16)	/* bind and connect rules */
#define LAB_MAX_HITS		(1 << 16)	/* rules that decided something */
#define LAB_BLOOM_INODES	(1 << 16)	/* global: inodes some policy names */

/*
 * Rules by path: a name in a directory. A name (the path's last
 * component) is at most LAB_PATH_NAME_LEN - 1 bytes, read from the
 * dentry with one bounded load; a directory has at most LAB_GLOB_PATTERNS
 * glob rules ("*" within the last component), each matched by comparing
 * at most 2 * (LAB_PATH_NAME_LEN - 1) bytes.
 */
#define LAB_PATH_NAME_LEN	64
#define LAB_GLOB_PATTERNS	8

/*
 * Rules with '*' as a whole middle component (/home/'*'/.ssh in a policy): keyed by
 * the directory before the first '*' (the anchor), with at most
 * LAB_MGLOB_COMPS components from there on, and at most
 * LAB_MGLOB_PATTERNS such rules an anchor. A check climbs at most
 * LAB_MAX_DEPTH levels, a name's read and hash and one lookup a level,
 * and compares at most LAB_MGLOB_PATTERNS * LAB_MGLOB_COMPS hashes at
 * an anchor.
 */
#define LAB_MGLOB_COMPS		4
#define LAB_MGLOB_PATTERNS	4

/*
 * The folders above a file's folder an event names by inode (struct
 * lab_event_up): lsmctl learn gives a file of a folder the run made and
 * removed to the nearest of them that stays.
 */
#define LAB_EVENT_UP		8

/*
 * What a guarded subtree may have applied below it through the broker
 * (lsmctl serve): policies at once, rules a policy, and a policy file's
 * bytes. Its policies go on the global backend, which takes no hook slot.
 */
#define LAB_BROKER_MAX_POLICIES	8
#define LAB_BROKER_MAX_RULES	256
#define LAB_BROKER_POLICY_MAX	(64 * 1024)

/* Strings in events (struct lab_event). */
#define LAB_COMM_LEN		16	/* a task's comm: the kernel's TASK_COMM_LEN */
#define LAB_NAME_LEN		LAB_PATH_NAME_LEN	/* a file's name, cut short */
#define LAB_EVENT_CGROUP_LEN	256	/* the task's cgroup path, a power of two */
#define LAB_EVENT_CGROUP_DEPTH	16	/* its levels, from the task's up */

#endif /* LSMLAB_LIMITS_H */
