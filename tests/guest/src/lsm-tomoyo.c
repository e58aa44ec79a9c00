// SPDX-License-Identifier: GPL-2.0
/*
 * TOMOYO enforces: in a domain whose profile makes file::execute
 * enforcing (this program run again by itself), an execve() that the
 * domain's policy does not list fails with EPERM (tomoyo_supervisor()'s
 * error in enforcing mode), while the one it lists runs; in the test's
 * own domain the same execve() succeeds.
 *
 *   lsm-tomoyo                     the test
 *   lsm-tomoyo exec PATH [ARG...]  the probe: execs PATH, exits with the errno
 */
#define _GNU_SOURCE /* memmem */
#include "lab_test.h"

#define TOMOYOFS	"/sys/kernel/security/tomoyo"
#define ACTIVATE	"/lab/tomoyo/activate"
#define SELF		"/lab/tests/lsm-tomoyo"
#define ALLOWED		"/bin/true"
#define DENIED		"/bin/busybox"

/* Profile 3: everything disabled but file::execute, which is enforcing. */
static const char profile[] =
	"PROFILE_VERSION=20150505\n"
	"3-COMMENT=lsm-tomoyo: enforce execve only\n"
	"3-CONFIG={ mode=disabled }\n"
	"3-CONFIG::file::execute={ mode=enforcing grant_log=no reject_log=yes }\n";
#define ENFORCING "3-CONFIG::file::execute={ mode=enforcing"

/* Run this program as the probe (in domain "<ours> SELF"): execve()'s errno. */
static int probe_exec(char *path)
{
	char *argv[] = { SELF, "exec", path, "true", NULL };

	return run(argv);
}

int main(int argc, char **argv)
{
	char domain[1024], policy[2048];
	char *direct[] = { DENIED, "true", NULL };
	char *profiles;
	size_t len;
	int err, rc;

	if (argc >= 3 && !strcmp(argv[1], "exec")) {
		execv(argv[2], argv + 2);
		return errno;
	}

	/* The kernel runs the lab's loader (profile 0, managers) on this exec. */
	rc = run((char *[]){ ACTIVATE, NULL });
	tap_result(rc == 0, "run %s (got %d)", ACTIVATE, rc);

	err = read_str(TOMOYOFS "/self_domain", domain, sizeof(domain));
	if (err)
		tap_bail("TOMOYO is active: read %s/self_domain (%s)", TOMOYOFS,
			 errname(err));
	tap_result(1, "TOMOYO is active, the test runs in domain %s", domain);

	err = write_str(TOMOYOFS "/profile", profile);
	tap_result(!err, "write profile 3 (got %s)", errname(err));
	profiles = slurp(TOMOYOFS "/profile", &len);
	tap_result(profiles && memmem(profiles, len, ENFORCING, strlen(ENFORCING)),
		   "profile 3 reads back with %s", ENFORCING);
	free(profiles);

	/* The probe's domain: ours, then SELF. It may execute ALLOWED only. */
	snprintf(policy, sizeof(policy), "%s %s\nuse_profile 3\nfile execute %s\n",
		 domain, SELF, ALLOWED);
	err = write_str(TOMOYOFS "/domain_policy", policy);
	tap_result(!err, "define domain '%s %s' with profile 3 (got %s)", domain, SELF,
		   errname(err));

	rc = probe_exec(DENIED);
	tap_result(rc == EPERM, "enforcing domain: execve(%s) fails with EPERM (got %s)",
		   DENIED, errname(rc));
	rc = probe_exec(ALLOWED);
	tap_result(rc == 0, "enforcing domain: execve(%s) succeeds (got %s)", ALLOWED,
		   errname(rc));
	rc = run(direct);
	tap_result(rc == 0, "the test's own domain: execve(%s) succeeds (got %s)", DENIED,
		   errname(rc));
	return tap_exit();
}
