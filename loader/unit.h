/* SPDX-License-Identifier: GPL-2.0 */
/* A systemd unit's cgroup2 folder (--unit NAME), as systemd names it. */
#ifndef LSMCTL_UNIT_H
#define LSMCTL_UNIT_H

#include <stddef.h>

/*
 * The cgroup2 folder, CGROUP_ROOT included, of the unit @name: its
 * ControlGroup while it runs, else the folder systemd makes for it in
 * its slice (Slice=, "a-b.slice" being a.slice/a-b.slice), named by its
 * Id (an alias's unit's), where it will be; a name systemd would escape
 * there (_x, cpu.service) is refused until it runs. Asks
 * /usr/bin/systemctl show, with no environment of the caller's. 0, or -errno with the reason in @err
 * (a name that is no unit's, systemctl missing or failing).
 */
int unit_cgroup(const char *name, char *buf, size_t len, char *err, size_t errlen);

#endif /* LSMCTL_UNIT_H */
