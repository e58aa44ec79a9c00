/* SPDX-License-Identifier: GPL-2.0 */
/* lsmctl probe and --version: what the running kernel offers lsmctl. */
#ifndef LSMCTL_PROBE_H
#define LSMCTL_PROBE_H

int cmd_probe(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif /* LSMCTL_PROBE_H */
