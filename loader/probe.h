/* SPDX-License-Identifier: GPL-2.0 */
/* lsmctl probe and --version: what the running kernel offers lsmctl. */
#ifndef LSMCTL_PROBE_H
#define LSMCTL_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/* Exit status of probe when neither backend can run, and of apply and run without BPF LSM. */
#define EXIT_NO_BPF_LSM 4

/* Print what the running kernel offers (text, or one JSON object); its exit status. */
int probe_report(bool json);
/*
 * 0 when BPF LSM is active in the running kernel, or securityfs cannot
 * say; else -ENOPKG, why and the lsm= line that would make it so in
 * @err: programs would load and attach, and never run.
 */
int probe_bpf_lsm(char *err, size_t errlen);
int cmd_version(int argc, char **argv);

#endif /* LSMCTL_PROBE_H */
