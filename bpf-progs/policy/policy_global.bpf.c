// SPDX-License-Identifier: GPL-2.0
/* The policy engine as global lsm/ programs: one instance for all policies. */
#define LAB_BACKEND_GLOBAL
#include "engine.bpf.h"
