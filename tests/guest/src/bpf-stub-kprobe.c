// SPDX-License-Identifier: GPL-2.0
/*
 * What a kprobe on a BPF LSM stub sees (patch 4's message says it): on
 * stock, bpf_lsm_file_open() is called on every open once bpf is in
 * lsm=; with the series, its slot is off while no BPF program is
 * attached to file_open, so a kprobe on it counts no hit, and it counts
 * every open again while a program is attached.
 */
#include <sys/mount.h>

#include "file_open_probe.skel.h"
#include "lab_test.h"

#define TRACING "/sys/kernel/tracing"
#define PROBE "labstub"
#define TARGET "/tmp/bpf-stub-kprobe"
#define OPENS 50

/* The probe's hit count from kprobe_profile, or -1. */
static long hits(void)
{
	char line[256], name[128];
	unsigned long nhit, nmissed;
	long n = -1;
	FILE *f = fopen(TRACING "/kprobe_profile", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %127s %lu %lu", name, &nhit, &nmissed) == 3 &&
		    !strcmp(name, PROBE))
			n = (long)nhit;
	fclose(f);
	return n;
}

/* The stub's hits during OPENS opens of TARGET. */
static long hits_of_opens(void)
{
	long before = hits(), after;
	int i;

	for (i = 0; i < OPENS; i++)
		try_open(TARGET);
	after = hits();
	return before < 0 || after < 0 ? -1 : after - before;
}

static void expect(bool stub_called, const char *when)
{
	long n = hits_of_opens();

	if (stub_called)
		tap_result(n >= OPENS, "a kprobe on bpf_lsm_file_open counts each of %d opens %s (%ld hits)",
			   OPENS, when, n);
	else
		tap_result(n == 0, "a kprobe on bpf_lsm_file_open counts no hit in %d opens %s (%ld hits)",
			   OPENS, when, n);
}

int main(void)
{
	bool series = lab_series();
	struct file_open_probe *skel;
	struct bpf_link *link;
	static const char probe[] = "p:" PROBE " bpf_lsm_file_open\n";
	int err;

	if (access(TRACING "/kprobe_events", F_OK) &&
	    mount("tracefs", TRACING, "tracefs", 0, NULL))
		tap_bail("mount tracefs: %s", strerror(errno));
	if (make_file(TARGET))
		tap_bail("create %s: %s", TARGET, strerror(errno));
	err = write_file(TRACING "/kprobe_events", probe, strlen(probe));
	if (err)
		tap_bail("add a kprobe on bpf_lsm_file_open: %s", strerror(err));
	err = write_file(TRACING "/events/kprobes/" PROBE "/enable", "1", 1);
	if (err)
		tap_bail("enable the kprobe: %s", strerror(err));

	expect(!series, series ? "with no BPF program: its slot is off" :
				 "with no BPF program, on stock");

	skel = file_open_probe__open_and_load();
	if (!skel)
		tap_bail("load file_open_probe.bpf.o: %s", strerror(errno));
	link = bpf_program__attach(skel->progs.count_opens);
	if (!link)
		tap_bail("attach lsm/file_open: %s", strerror(errno));
	expect(true, "while an lsm/file_open program is attached");
	bpf_link__destroy(link);
	expect(!series, series ? "once the program is detached" :
				 "once the program is detached, on stock");

	file_open_probe__destroy(skel);
	write_file(TRACING "/events/kprobes/" PROBE "/enable", "0", 1);
	write_file(TRACING "/kprobe_events", "-:" PROBE "\n", strlen(PROBE) + 3);
	return tap_exit();
}
