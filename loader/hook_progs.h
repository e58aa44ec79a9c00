/* SPDX-License-Identifier: GPL-2.0 */
/* A skeleton's programs by enum lab_hook: both backends name them alike. */
#ifndef LSMCTL_HOOK_PROGS_H
#define LSMCTL_HOOK_PROGS_H

#define HOOK_PROGS(skel) {						\
	[LAB_HOOK_FILE_OPEN] = (skel)->progs.lab_file_open,		\
	[LAB_HOOK_BPRM_CHECK] = (skel)->progs.lab_bprm_check,		\
	[LAB_HOOK_INODE_CREATE] = (skel)->progs.lab_inode_create,	\
	[LAB_HOOK_INODE_MKDIR] = (skel)->progs.lab_inode_mkdir,		\
	[LAB_HOOK_INODE_MKNOD] = (skel)->progs.lab_inode_mknod,		\
	[LAB_HOOK_INODE_SYMLINK] = (skel)->progs.lab_inode_symlink,	\
	[LAB_HOOK_INODE_LINK] = (skel)->progs.lab_inode_link,		\
	[LAB_HOOK_INODE_RENAME] = (skel)->progs.lab_inode_rename,	\
	[LAB_HOOK_INODE_UNLINK] = (skel)->progs.lab_inode_unlink,	\
	[LAB_HOOK_INODE_RMDIR] = (skel)->progs.lab_inode_rmdir,		\
	[LAB_HOOK_SOCKET_CREATE] = (skel)->progs.lab_socket_create,	\
	[LAB_HOOK_SOCKET_BIND] = (skel)->progs.lab_socket_bind,		\
	[LAB_HOOK_SOCKET_CONNECT] = (skel)->progs.lab_socket_connect,	\
	[LAB_HOOK_SOCKET_SENDMSG] = (skel)->progs.lab_socket_sendmsg,	\
	[LAB_HOOK_PTRACE_ACCESS] = (skel)->progs.lab_ptrace_access,	\
	[LAB_HOOK_PTRACE_TRACEME] = (skel)->progs.lab_ptrace_traceme,	\
	[LAB_HOOK_SB_MOUNT] = (skel)->progs.lab_sb_mount,		\
	[LAB_HOOK_MOVE_MOUNT] = (skel)->progs.lab_move_mount,		\
	[LAB_HOOK_SB_UMOUNT] = (skel)->progs.lab_sb_umount,		\
	[LAB_HOOK_KERNEL_LOAD_DATA] = (skel)->progs.lab_kernel_load_data, \
	[LAB_HOOK_KERNEL_READ_FILE] = (skel)->progs.lab_kernel_read_file, \
	[LAB_HOOK_TASK_KILL] = (skel)->progs.lab_task_kill,		\
	[LAB_HOOK_CAPABLE] = (skel)->progs.lab_capable,			\
}

#endif /* LSMCTL_HOOK_PROGS_H */
