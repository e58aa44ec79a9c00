/* SPDX-License-Identifier: GPL-2.0 */
/* The engine's request: what a hook program asks the policies (engine.bpf.h). */
#ifndef LSMLAB_REQUEST_BPF_H
#define LSMLAB_REQUEST_BPF_H

#include "vmlinux.h"

/* What a hook asks the policies: the class of access and its object. */
struct lab_req {
	__u16 hook;
	__u8 class;
	__u8 onto;			/* a new name: the classes whose allow refuses it (match_file()) */
	struct dentry *dentry;		/* files */
	struct task_struct *target;	/* ptrace, signal */
	__u16 family;			/* network */
	__u16 type;
	__u16 protocol;
	__u16 port;
	__u8 addr[16];
	__u32 number;			/* capability, signal */
	__u8 self;			/* LAB_SELF_*: what self-protection checks */
	struct file *file;		/* LAB_SELF_OPEN: the file being opened */
};

#endif /* LSMLAB_REQUEST_BPF_H */
