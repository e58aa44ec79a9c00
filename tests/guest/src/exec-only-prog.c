// SPDX-License-Identifier: GPL-2.0
/*
 * The program of the exec-only test (tests/guest/tests/exec-only.sh):
 * copied to the exec-only file F and to a control file, it is the
 * program run; from a sibling, it is the tool that tries to read a task
 * running it. A static, non-PIE binary: its ELF header is at 0x400000.
 *
 *   exec-only-prog sleep          print the marker's address, sleep
 *   exec-only-prog mem PID        pread /proc/PID/mem at 0x400000
 *   exec-only-prog vmread PID     process_vm_readv at 0x400000
 *   exec-only-prog mapfile PID    open /proc/PID/map_files/'s first entry
 *   exec-only-prog uselib PATH    uselib(PATH) by int 0x80, nr 86
 *
 * Exit status: 0 on success, the errno otherwise; 100 for a probe that
 * could not try (uselib: no IA32 entry, the child died of a signal).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define IMAGE	0x400000UL

/* what a core dump or a read of the image would show */
const char marker[] = "lab-exec-only-" "marker-7f3a";

static char path32[256];	/* below 4 GiB: int 0x80 takes 32-bit pointers */

static int uselib32(const char *path)
{
	long ret;
	pid_t pid;
	int status;

	snprintf(path32, sizeof(path32), "%s", path);
	if ((unsigned long)path32 >> 32)
		return 100;
	pid = fork();
	if (pid < 0)
		return 100;
	if (!pid) {
		__asm__ volatile("int $0x80" : "=a"(ret) : "a"(86L), "b"(path32) : "memory");
		_exit(ret < 0 ? (int)-ret : 0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 100;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	char path[600], buf[4];
	const char *what = argc > 1 ? argv[1] : "";
	int fd;

	if (!strcmp(what, "sleep")) {
		printf("%p %s\n", (void *)marker, marker);
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc < 3)
		return 100;
	if (!strcmp(what, "mem")) {
		snprintf(path, sizeof(path), "/proc/%s/mem", argv[2]);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return errno;
		if (pread(fd, buf, 4, IMAGE) != 4)
			return errno;
		return memcmp(buf, "\177ELF", 4) ? 100 : 0;
	}
	if (!strcmp(what, "vmread")) {
		struct iovec local = { buf, 4 }, remote = { (void *)IMAGE, 4 };

		if (process_vm_readv(atoi(argv[2]), &local, 1, &remote, 1, 0) != 4)
			return errno;
		return memcmp(buf, "\177ELF", 4) ? 100 : 0;
	}
	if (!strcmp(what, "mapfile")) {
		struct dirent *d;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%s/map_files", argv[2]);
		dir = opendir(path);
		if (!dir)
			return errno;
		errno = ENOENT;
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.')
				break;
		if (!d)
			return errno;
		snprintf(path, sizeof(path), "/proc/%s/map_files/%s", argv[2], d->d_name);
		fd = open(path, O_RDONLY);
		return fd < 0 ? errno : 0;
	}
	if (!strcmp(what, "uselib"))
		return uselib32(argv[2]);
	return 100;
}
