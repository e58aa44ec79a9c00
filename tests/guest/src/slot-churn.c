// SPDX-License-Identifier: GPL-2.0
/*
 * Attach and detach BPF LSM programs on file_open many times (argv[1] or
 * $CHURN; 500 by default, 10,000 in make check-load) while two processes
 * open files without
 * pause: the deny program must deny while attached and never after, and
 * at the end BPF LSM's file_open slot must be off again (on the lsm
 * kernel) with nothing in the kernel log. lsm/ and lsm_cgroup/
 * programs take turns, so both paths of the slot switching are churned.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "lab_test.h"
#include "file_open_probe.skel.h"

#define TARGET "/tmp/churn-target"
#define SLOTS "/sys/kernel/security/lsm_slots"

/* The bpf slot's state on file_open's line of the slot table. */
static int bpf_slot_on(void)
{
	char line[4096], *p;
	FILE *f = fopen(SLOTS, "r");
	int on = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "file_open ", 10) && (p = strstr(line, " bpf:")))
			on = !strncmp(p + 5, "on", 2);
	fclose(f);
	return on;
}

/* Open files in a loop until killed: the workload the switching races. */
static void workload(void)
{
	/* niced: the switching gets the CPU, the opens never pause */
	if (nice(19) < 0)
		_exit(1);
	for (;;)
		close(open(TARGET, O_RDONLY));
}

/* Kernel log lines that mean trouble. */
static int kernel_complaints(void)
{
	char line[1024];
	FILE *f = popen("dmesg", "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "WARNING") || strstr(line, "BUG") || strstr(line, "Oops") ||
		    strstr(line, "kmemleak") || strstr(line, "KASAN") || strstr(line, "lockdep")) {
			printf("# dmesg: %s", line);
			n++;
		}
	pclose(f);
	return n;
}

int main(int argc, char **argv)
{
	const char *churn = argc > 1 ? argv[1] : getenv("CHURN");
	long rounds = churn ? atol(churn) : 500, i, wrong = 0;
	struct file_open_probe *skel;
	struct bpf_link *link;
	pid_t workers[2];
	struct stat st;
	int cg, has_slots = access(SLOTS, R_OK) == 0, before;

	if (make_file(TARGET) || stat(TARGET, &st))
		tap_bail("create %s: %s", TARGET, strerror(errno));
	cg = cgroup_make("slot-churn");
	skel = file_open_probe__open_and_load();
	if (cg < 0 || !skel)
		tap_bail("set up: %s", strerror(errno));
	skel->bss->target_ino = st.st_ino;
	skel->bss->target_dev = major(st.st_dev) << 20 | minor(st.st_dev);
	before = kernel_complaints();
	for (i = 0; i < 2; i++) {
		workers[i] = fork();
		if (workers[i] == 0)
			workload();
	}
	for (i = 0; i < rounds; i++) {
		link = i % 2 ? bpf_program__attach_cgroup(skel->progs.cgroup_deny_target, cg) :
			       bpf_program__attach(skel->progs.deny_target);
		if (!link)
			tap_bail("attach, round %ld: %s", i, strerror(errno));
		/* lsm/ denies everyone; lsm_cgroup/ only the cgroup, we are outside */
		if (i % 2 == 0 && try_open(TARGET) != EPERM)
			wrong++;
		bpf_link__destroy(link);
		if (try_open(TARGET) != 0)
			wrong++;
	}
	for (i = 0; i < 2; i++) {
		kill(workers[i], SIGKILL);
		waitpid(workers[i], NULL, 0);
	}
	tap_result(wrong == 0, "%ld attach/detach rounds (lsm/ and lsm_cgroup/ in turn) "
		   "under a workload: each denied while attached, allowed after (%ld wrong)",
		   rounds, wrong);
	if (has_slots)
		tap_result(bpf_slot_on() == 0, "file_open's bpf slot is off at the end");
	else
		tap_result(1, "no slot table on this kernel (%s)", getenv("LAB_VARIANT") ?: "?");
	tap_result(kernel_complaints() == before, "no warning, BUG, oops or leak report in "
		   "the kernel log");
	file_open_probe__destroy(skel);
	return tap_exit();
}
