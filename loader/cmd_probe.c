// SPDX-License-Identifier: GPL-2.0
/* lsmctl probe: what the running kernel offers each backend. */
#define _GNU_SOURCE

#include "probe.h"
#include "main.h"


static const char help_probe[] =
	"usage: lsmctl probe [-j]\n"
	"What the running kernel offers lsmctl: whether BPF LSM is active (and the\n"
	"lsm= boot parameter that would make it so), the kernel's BTF, cgroup v2\n"
	"and the BPF filesystem, lsm_cgroup programs and their hook slots, which\n"
	"of the engine's and of self-protection's hooks the kernel has, and what\n"
	"each backend can do. Loads nothing. -j: one JSON object.\n"
	"Exit status: 0 both backends can run; 3 only the global backend (no\n"
	"lsm_cgroup programs); 4 neither (BPF LSM not active, or no BTF, cgroup v2\n"
	"or BPF filesystem); 2 bad usage.\n";

int cmd_probe(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_probe, "j", &o);

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_probe, "%s", "probe takes no operands");
	return probe_report(json_wtr);
}
