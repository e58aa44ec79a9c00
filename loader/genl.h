/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LSMCTL_GENL_H
#define LSMCTL_GENL_H

/*
 * Fill the guard's genl_inside map (fd @map) with the ids of the generic
 * netlink families a guarded task may use in a network namespace of its
 * own; 0 or -errno.
 */
int genl_sync(int map);

#endif /* LSMCTL_GENL_H */
