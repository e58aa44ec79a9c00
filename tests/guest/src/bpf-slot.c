// SPDX-License-Identifier: GPL-2.0
/*
 * BPF LSM's runtime slot: on the lsm kernel, file_open's BPF slot is
 * off until a program attaches and off again when the last one goes,
 * for lsm/ and lsm_cgroup/ programs alike; on both kernels the attached
 * program denies what it should.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "lab_test.h"
#include "file_open_probe.skel.h"

#define TARGET "/tmp/bpf-slot-target"
#define OTHER "/tmp/bpf-slot-other"
#define SLOTS "/sys/kernel/security/lsm_slots"

static bool has_slots;

/* "on", "off", or why the state could not be read. */
static const char *bpf_slot(const char *hook)
{
	static char state[64];
	char line[4096], *p;
	size_t n = strlen(hook);
	FILE *f = fopen(SLOTS, "r");

	if (!f)
		return "no " SLOTS;
	snprintf(state, sizeof(state), "no line for %s", hook);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, hook, n) || (line[n] != ' ' && line[n] != '\n'))
			continue;
		p = strstr(line, " bpf:");
		snprintf(state, sizeof(state), "%s", p ? p + 5 : "no bpf slot");
		state[strcspn(state, " \n")] = '\0';
		break;
	}
	fclose(f);
	return state;
}

static void expect_slot(const char *want, const char *when)
{
	const char *have;

	if (!has_slots)
		return;
	have = bpf_slot("file_open");
	tap_result(!strcmp(have, want), "file_open's bpf slot is %s %s (%s)",
		   want, when, have);
}

static int try_target(void)
{
	return try_open(TARGET);
}

static void expect_open(const char *path, int want, const char *when)
{
	int rc = try_open(path);

	tap_result(rc == want, "open(%s) %s %s (got %s)", path,
		   want ? "fails with EPERM" : "succeeds", when,
		   rc ? strerror(rc) : "success");
}

int main(void)
{
	struct file_open_probe *skel;
	struct bpf_link *deny, *count, *cg_link;
	struct stat st;
	int cg, rc;

	has_slots = access(SLOTS, R_OK) == 0;
	if (lab_series())
		tap_result(has_slots, "the %s kernel has " SLOTS, getenv("LAB_VARIANT") ?: "?");
	else
		tap_result(!has_slots, "the %s kernel has no " SLOTS, getenv("LAB_VARIANT") ?: "?");

	if (make_file(TARGET) || make_file(OTHER) || stat(TARGET, &st))
		tap_bail("create test files: %s", strerror(errno));

	skel = file_open_probe__open_and_load();
	if (!skel)
		tap_bail("load file_open_probe.bpf.o: %s", strerror(errno));
	skel->bss->target_ino = st.st_ino;
	/* The kernel's dev_t: 12 bits of major above 20 of minor. */
	skel->bss->target_dev = major(st.st_dev) << 20 | minor(st.st_dev);

	expect_slot("off", "at boot");
	expect_open(TARGET, 0, "with no program");

	deny = bpf_program__attach(skel->progs.deny_target);
	if (!deny)
		tap_bail("attach lsm/file_open: %s", strerror(errno));
	expect_slot("on", "with one lsm/file_open program");
	expect_open(TARGET, EPERM, "with the deny program");
	expect_open(OTHER, 0, "with the deny program");

	count = bpf_program__attach(skel->progs.count_opens);
	if (!count)
		tap_bail("attach a second lsm/file_open: %s", strerror(errno));
	bpf_link__destroy(deny);
	expect_slot("on", "with one of two programs detached");
	expect_open(TARGET, 0, "once the deny program is detached");
	tap_result(skel->bss->counted > 0, "the counting program ran (%llu opens)",
		   (unsigned long long)skel->bss->counted);
	bpf_link__destroy(count);
	expect_slot("off", "with both programs detached");

	cg = cgroup_make("bpf-slot");
	if (cg < 0)
		tap_bail("create cgroup: %s", strerror(errno));
	cg_link = bpf_program__attach_cgroup(skel->progs.cgroup_deny_target, cg);
	if (!cg_link)
		tap_bail("attach lsm_cgroup/file_open: %s", strerror(errno));
	expect_slot("on", "with an lsm_cgroup/file_open program");
	rc = cgroup_run("bpf-slot", try_target);
	tap_result(rc == EPERM, "open(%s) in the cgroup fails with EPERM (got %s)",
		   TARGET, rc ? strerror(rc) : "success");
	expect_open(TARGET, 0, "outside the cgroup");
	bpf_link__destroy(cg_link);
	expect_slot("off", "with the lsm_cgroup program detached");
	rc = cgroup_run("bpf-slot", try_target);
	tap_result(rc == 0, "open(%s) in the cgroup succeeds after detach (got %s)",
		   TARGET, rc ? strerror(rc) : "success");

	file_open_probe__destroy(skel);
	return tap_exit();
}
