// SPDX-License-Identifier: GPL-2.0
/*
 * On the debug kernel: 10,000 creations that an inode_init_security
 * program refuses leak nothing, as kmemleak sees it (on tmpfs, after
 * whatever LSMs that set attributes have filled the array).
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inode_init_probe.skel.h"
#include "lab_test.h"

#define KMEMLEAK "/sys/kernel/debug/kmemleak"
#define DENY_DIR "/tmp/iis-leak"
#define ROUNDS 10000

static int kmemleak(const char *cmd)
{
	int fd = open(KMEMLEAK, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, cmd, strlen(cmd));
	close(fd);
	return n == (ssize_t)strlen(cmd) ? 0 : -1;
}

/* The number of unreferenced objects kmemleak reports. */
static int leaks(void)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(KMEMLEAK, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "unreferenced object")) {
			n++;
			if (n <= 3)
				tap_note("%s", strtok(line, "\n"));
		}
	}
	fclose(f);
	return n;
}

int main(void)
{
	struct inode_init_probe *skel;
	struct bpf_link *link;
	struct stat st;
	int i, fd, failed = 0, n;

	if (kmemleak("clear"))
		tap_bail("kmemleak is not available at " KMEMLEAK);
	skel = inode_init_probe__open_and_load();
	if (!skel)
		tap_bail("load inode_init_probe.bpf.o: %s", strerror(errno));
	if ((mkdir(DENY_DIR, 0755) && errno != EEXIST) || stat(DENY_DIR, &st))
		tap_bail("mkdir %s: %s", DENY_DIR, strerror(errno));
	skel->bss->deny_ino = st.st_ino;
	skel->bss->deny_dev = major(st.st_dev) << 20 | minor(st.st_dev);
	link = bpf_program__attach(skel->progs.inode_init_probe);
	if (!link)
		tap_bail("attach lsm/inode_init_security: %s", strerror(errno));

	for (i = 0; i < ROUNDS; i++) {
		fd = open(DENY_DIR "/f", O_CREAT | O_WRONLY, 0644);
		if (fd >= 0)
			close(fd);
		else if (errno == EPERM)
			failed++;
	}
	tap_result(failed == ROUNDS, "%d of %d creations refused with EPERM", failed, ROUNDS);

	bpf_link__destroy(link);
	inode_init_probe__destroy(skel);
	/* Objects freed by RCU need a grace period before kmemleak agrees. */
	sleep(5);
	kmemleak("scan");
	sleep(1);
	kmemleak("scan");
	n = leaks();
	tap_result(n == 0, "kmemleak reports %d unreferenced objects after %d refused creations",
		   n, ROUNDS);
	return tap_exit();
}
