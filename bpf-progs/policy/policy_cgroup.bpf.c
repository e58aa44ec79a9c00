// SPDX-License-Identifier: GPL-2.0
/* The policy engine as lsm_cgroup programs: one instance a policy. */
#define LAB_BACKEND_CGROUP
#include "engine.bpf.h"
