// SPDX-License-Identifier: GPL-2.0
/*
 * AppArmor enforces: once the profile for /lab/tests/lsm-apparmor
 * (tests/guest/apparmor/lsm-apparmor.profile, compiled on the host) is
 * loaded, this program, run again by itself and so confined, fails to
 * open a file the profile does not list with EACCES, while it opens the
 * file the profile allows; unconfined, the same open succeeds.
 *
 *   lsm-apparmor              the test
 *   lsm-apparmor open PATH    the probe: exits with open()'s errno, or 0
 */
#include "lab_test.h"

#define SELF		"/lab/tests/lsm-apparmor"
#define POLICY		"/lab/apparmor/lsm-apparmor.bin"
#define APPARMORFS	"/sys/kernel/security/apparmor"
#define PROFILE		"lsm-apparmor-confined"
#define ALLOWED_FILE	"/tmp/aa-allowed"
#define DENIED_FILE	"/tmp/aa-denied"

/* Run this program as the probe: the errno of its open(@path). */
static int probe_open(const char *path)
{
	char *argv[] = { SELF, "open", (char *)path, NULL };

	return run(argv);
}

int main(int argc, char **argv)
{
	char buf[4096];
	size_t len;
	void *policy;
	int err, rc;

	if (argc == 3 && !strcmp(argv[1], "open"))
		return try_open(argv[2]);

	err = read_str("/proc/self/attr/current", buf, sizeof(buf));
	if (err || strcmp(buf, "unconfined"))
		tap_bail("AppArmor is active: the test runs unconfined (got %s)",
			 err ? errname(err) : buf);
	tap_result(1, "AppArmor is active: the test runs unconfined");
	if (make_file(ALLOWED_FILE) || make_file(DENIED_FILE))
		tap_bail("create the test files: %s", strerror(errno));

	rc = probe_open(DENIED_FILE);
	tap_result(rc == 0, "before the load: the probe's open(%s) succeeds (got %s)",
		   DENIED_FILE, errname(rc));

	policy = slurp(POLICY, &len);
	if (!policy)
		tap_bail("read %s: %s", POLICY, strerror(errno));
	err = write_file(APPARMORFS "/.replace", policy, len);
	free(policy);
	tap_result(!err, "load %s through %s/.replace (got %s)", POLICY, APPARMORFS,
		   errname(err));
	err = read_str(APPARMORFS "/profiles", buf, sizeof(buf));
	tap_result(!err && strstr(buf, PROFILE " (enforce)"),
		   "profiles lists " PROFILE " (enforce) (got %s)", err ? errname(err) : buf);

	rc = probe_open(DENIED_FILE);
	tap_result(rc == EACCES, "confined: the probe's open(%s) fails with EACCES (got %s)",
		   DENIED_FILE, errname(rc));
	rc = probe_open(ALLOWED_FILE);
	tap_result(rc == 0, "confined: the probe's open(%s) succeeds (got %s)",
		   ALLOWED_FILE, errname(rc));
	rc = try_open(DENIED_FILE);
	tap_result(rc == 0, "unconfined: open(%s) succeeds (got %s)", DENIED_FILE,
		   errname(rc));
	return tap_exit();
}
