/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a valid policy leaves undone, for check, show, apply and diff to
 * warn about (issue 24 item 6): self-protection off, audit mode, and
 * every class of access left open.
 */
#ifndef LSMCTL_WARNINGS_H
#define LSMCTL_WARNINGS_H

#include <stddef.h>

#include "policy.h"
#include "store.h"

/* Room for every warning there can be: two lines and one a class. */
#define POLICY_WARNINGS_MAX 2048

/*
 * The warnings for @p, one a line ("self-protection is off", "audit mode:
 * nothing is denied", "exec is left open: no rule denies it"...), into @buf
 * (@len bytes, NUL-terminated, cut short if too small); how many.
 *
 * A class (read, write, exec, create, unlink, socket, bind, connect,
 * capability, ptrace, mount, module_load, signal: enum lab_class) is left
 * open when no rule closes any of it: no deny rule for it, and, under
 * default: deny, no allow rule either (default: deny closes only the
 * classes that have an allow rule, loader/POLICY.md).
 */
unsigned int policy_warnings(const struct policy *p, char *buf, size_t len);

/* The same warnings for an applied policy, from what its meta keeps (show). */
unsigned int meta_warnings(const struct lab_meta *m, char *buf, size_t len);

#endif /* LSMCTL_WARNINGS_H */
