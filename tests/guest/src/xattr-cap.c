// SPDX-License-Identifier: GPL-2.0
/*
 * Setting and removing a security.* extended attribute needs
 * CAP_SYS_ADMIN (cap_inode_setxattr(), cap_inode_removexattr()). On 6.1
 * those checks run only when the LSMs' inode_setxattr hooks answer 1:
 * BPF LSM's stub answers 0, so with bpf in lsm= and neither SELinux nor
 * Smack, a user sets and removes them on the files it owns. The series'
 * patch 11 checks the capabilities at the LSM layer first. Here, on a
 * tmpfs file the user owns: root's set and remove pass (the control),
 * the user's are refused with EPERM where the checks run, and pass on a
 * kernel without the series (stock, debian) when no LSM here makes them
 * (SELinux and Smack do: lsm-selinux's boot shows the refusal on stock).
 */
#define _GNU_SOURCE
#include <sys/xattr.h>
#include <unistd.h>

#include "lab_test.h"

#define DIR "/tmp/xattr-cap"
#define OWNED DIR "/owned"
#define NAME "security.lab-test"
#define USER 1000

/* Do the LSMs booted here make the capability checks themselves? */
static int lsm_checks_caps(void)
{
	char lsms[256];

	if (read_str("/sys/kernel/security/lsm", lsms, sizeof(lsms)))
		return 0;
	return strstr(lsms, "selinux") || strstr(lsms, "smack");
}

static int as_user(int (*fn)(void))
{
	if (setresgid(USER, USER, USER) || setresuid(USER, USER, USER))
		return 255;
	return fn();
}

static int set_it(void)
{
	return setxattr(OWNED, NAME, "1", 1, 0) ? errno : 0;
}

static int remove_it(void)
{
	return removexattr(OWNED, NAME) ? errno : 0;
}

static int user_set(const void *arg)
{
	(void)arg;
	return as_user(set_it);
}

static int user_remove(const void *arg)
{
	(void)arg;
	return as_user(remove_it);
}

int main(void)
{
	const char *series = getenv("LAB_SERIES");
	int checked = (series && !strcmp(series, "1")) || lsm_checks_caps();
	int want = checked ? EPERM : 0;
	const char *why = checked ? "the capability checks run" :
		"no series, no SELinux or Smack: 6.1's defect, shown";
	int rc;

	mkdir(DIR, 0755);
	if (put_str(OWNED, "x", 0644) || chown(OWNED, USER, USER))
		tap_bail("make %s owned by uid %d: %s", OWNED, USER, strerror(errno));

	rc = set_it();
	tap_result(rc == 0, "root sets %s on a tmpfs file (got %s)", NAME, errname(rc));
	rc = in_child(user_remove, NULL);
	tap_result(rc == want, "uid %d removes %s from its own file: %s (%s; got %s)", USER, NAME,
		   errname(want), why, errname(rc));
	if (rc == 0)
		set_it();	/* the user removed it: back for root's removal */
	rc = remove_it();
	tap_result(rc == 0, "root removes %s (got %s)", NAME, errname(rc));
	rc = in_child(user_set, NULL);
	tap_result(rc == want, "uid %d sets %s on its own file: %s (%s; got %s)", USER, NAME,
		   errname(want), why, errname(rc));
	remove_it();
	unlink(OWNED);
	rmdir(DIR);
	return tap_exit();
}
