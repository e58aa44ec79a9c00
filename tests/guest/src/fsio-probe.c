// SPDX-License-Identifier: GPL-2.0
/*
 * fsio-probe: ioctls on a file, a directory or a block device for
 * fsio-scope's test, made from wherever the caller put this process.
 * Each ioctl prints "fsio-probe: WHAT: RESULT"; the command exits with
 * the first failing ioctl's errno (0 when all went through).
 *
 *   fsio-probe PATH r|w WHAT...  PATH opened O_RDONLY (r: a directory
 *                        too) or O_RDWR (w), or descriptor N already open
 *                        when PATH is fd:N; then each WHAT in turn:
 *                        getflags, setflags (its flags set again as they
 *                        are), fsgetxattr, freeze (FIFREEZE, then FITHAW
 *                        at once when it worked), trim (FITRIM), tcgets,
 *                        fionread, size64 (BLKGETSIZE64), flsbuf
 *                        (BLKFLSBUF), clone:SRC (FICLONE from SRC),
 *                        nstype (NS_GET_NSTYPE, on a namespace file)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/nsfs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static int first_err;

static void said(const char *what, int rc)
{
	int e = rc < 0 ? errno : 0;

	printf("fsio-probe: %s: %s\n", what, e ? strerror(e) : "ok");
	fflush(stdout);
	if (e && !first_err)
		first_err = e;
}

static int one(int fd, const char *what)
{
	struct fstrim_range range = { .len = ULLONG_MAX };
	struct fsxattr fsx;
	struct termios t;
	uint64_t size;
	int flags = 0, n;

	if (!strcmp(what, "getflags")) {
		said(what, ioctl(fd, FS_IOC_GETFLAGS, &flags));
	} else if (!strcmp(what, "setflags")) {
		ioctl(fd, FS_IOC_GETFLAGS, &flags);
		said(what, ioctl(fd, FS_IOC_SETFLAGS, &flags));
	} else if (!strcmp(what, "fsgetxattr")) {
		said(what, ioctl(fd, FS_IOC_FSGETXATTR, &fsx));
	} else if (!strcmp(what, "freeze")) {
		n = ioctl(fd, FIFREEZE, 0);
		said(what, n);
		if (!n)
			ioctl(fd, FITHAW, 0);
	} else if (!strcmp(what, "trim")) {
		said(what, ioctl(fd, FITRIM, &range));
	} else if (!strcmp(what, "tcgets")) {
		said(what, ioctl(fd, TCGETS, &t));
	} else if (!strcmp(what, "fionread")) {
		said(what, ioctl(fd, FIONREAD, &n));
	} else if (!strcmp(what, "size64")) {
		said(what, ioctl(fd, BLKGETSIZE64, &size));
	} else if (!strcmp(what, "flsbuf")) {
		said(what, ioctl(fd, BLKFLSBUF, 0));
	} else if (!strcmp(what, "nstype")) {
		said(what, ioctl(fd, NS_GET_NSTYPE) < 0 ? -1 : 0);
	} else if (!strncmp(what, "clone:", 6)) {
		int src = open(what + 6, O_RDONLY);

		said("clone", src < 0 ? src : ioctl(fd, FICLONE, src));
		if (src >= 0)
			close(src);
	} else {
		fprintf(stderr, "fsio-probe: unknown %s\n", what);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fd, i;

	if (argc < 4 || (strcmp(argv[2], "r") && strcmp(argv[2], "w"))) {
		fprintf(stderr, "usage: fsio-probe PATH r|w WHAT...\n");
		return 2;
	}
	if (!strncmp(argv[1], "fd:", 3))
		fd = atoi(argv[1] + 3);
	else
		fd = open(argv[1], argv[2][0] == 'w' ? O_RDWR : O_RDONLY);
	if (fd < 0) {
		said("open", -1);
		return first_err;
	}
	for (i = 3; i < argc; i++)
		if (one(fd, argv[i]))
			return 2;
	return first_err;
}
