/* SPDX-License-Identifier: GPL-2.0 */
/* A skeleton's programs by enum lab_hook: both backends name them alike. */
#ifndef LSMCTL_HOOK_PROGS_H
#define LSMCTL_HOOK_PROGS_H

#define HOOK_PROG(ENUM, hook)	[LAB_HOOK_##ENUM] = skel->progs.lab_##hook,
/* In a function whose skeleton is @skel. */
#define HOOK_PROGS { LAB_HOOKS(HOOK_PROG) }

#endif /* LSMCTL_HOOK_PROGS_H */
