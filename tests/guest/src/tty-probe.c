// SPDX-License-Identifier: GPL-2.0
/*
 * tty-probe: terminal and device ioctls for tty-scope's test, made from
 * wherever the caller put this process. Each ioctl prints
 * "tty-probe: WHAT: RESULT"; the command exits with the first failing
 * ioctl's errno (0 when all went through).
 *
 *   tty-probe victim DEV PTSFILE MARK  the outside "shell": a session of
 *                        its own whose terminal is DEV (a serial port), or
 *                        a new pty when DEV is "pty" (its slave's name
 *                        written to PTSFILE); -echo, ISIG on; runs each
 *                        line it reads with sh -c, and appends "winch" or
 *                        "int" to MARK at SIGWINCH and SIGINT. Forks: the
 *                        parent exits once the terminal is ready.
 *   tty-probe ioctl DEV WHAT...  on DEV (opened O_RDWR | O_NOCTTY |
 *                        O_NONBLOCK), each WHAT in turn: gwinsz, swinsz,
 *                        tcgets, tcsets, mget, mbis-loop, mset-loop,
 *                        mbic-loop, tcsbrk, sbrk (TIOCSBRK, then TIOCCBRK),
 *                        fionread, fionbio, write:TEXT (TEXT, its '+'
 *                        spaces, and a newline), intr (a ^C), sleep (200 ms)
 *   tty-probe own        makes a pty (posix_openpt, unlockpt), in a child
 *                        that setsid()s and takes its slave as controlling
 *                        terminal (TIOCSCTTY 0): TIOCSWINSZ on the slave and
 *                        the master, TCSETS on the slave
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#ifndef TIOCM_LOOP
#define TIOCM_LOOP	0x8000	/* asm-generic/termios.h */
#endif

static int first_err;

static void said(const char *what, int rc)
{
	int e = rc < 0 ? errno : 0;

	printf("tty-probe: %s: %s\n", what, e ? strerror(e) : "ok");
	fflush(stdout);
	if (e && !first_err)
		first_err = e;
}

static int one(int fd, const char *what)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	struct termios t;
	int loop = TIOCM_LOOP, n = 0, bits = TIOCM_LOOP | TIOCM_DTR | TIOCM_RTS;

	if (!strcmp(what, "gwinsz"))
		said(what, ioctl(fd, TIOCGWINSZ, &ws));
	else if (!strcmp(what, "swinsz")) {
		ws.ws_col = 81 + (getpid() & 15);	/* a change: SIGWINCH only then */
		said(what, ioctl(fd, TIOCSWINSZ, &ws));
	} else if (!strcmp(what, "tcgets"))
		said(what, ioctl(fd, TCGETS, &t));
	else if (!strcmp(what, "tcsets")) {
		memset(&t, 0, sizeof(t));
		ioctl(fd, TCGETS, &t);
		said(what, ioctl(fd, TCSETS, &t));
	} else if (!strcmp(what, "mget"))
		said(what, ioctl(fd, TIOCMGET, &n));
	else if (!strcmp(what, "mbis-loop"))
		said(what, ioctl(fd, TIOCMBIS, &loop));
	else if (!strcmp(what, "mset-loop"))
		said(what, ioctl(fd, TIOCMSET, &bits));
	else if (!strcmp(what, "mbic-loop"))
		said(what, ioctl(fd, TIOCMBIC, &loop));
	else if (!strcmp(what, "tcsbrk"))
		said(what, ioctl(fd, TCSBRK, 0));
	else if (!strcmp(what, "sbrk")) {
		said(what, ioctl(fd, TIOCSBRK, 0));
		ioctl(fd, TIOCCBRK, 0);
	} else if (!strcmp(what, "fionread"))
		said(what, ioctl(fd, FIONREAD, &n));
	else if (!strcmp(what, "fionbio")) {
		n = 1;
		said(what, ioctl(fd, FIONBIO, &n));
	} else if (!strncmp(what, "write:", 6)) {
		char line[256], *c;

		snprintf(line, sizeof(line), "%s\n", what + 6);
		for (c = line; *c; c++)
			if (*c == '+')
				*c = ' ';
		said("write", write(fd, line, strlen(line)) < 0 ? -1 : 0);
	} else if (!strcmp(what, "intr"))
		said(what, write(fd, "\003", 1) < 0 ? -1 : 0);
	else if (!strcmp(what, "sleep"))
		usleep(200000);
	else {
		fprintf(stderr, "tty-probe: unknown %s\n", what);
		return 2;
	}
	return 0;
}

static const char *mark;

static void note(const char *s)
{
	int fd = open(mark, O_WRONLY | O_APPEND | O_CREAT, 0644);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			_exit(3);
		close(fd);
	}
}

static void on_sig(int sig)
{
	note(sig == SIGWINCH ? "winch\n" : "int\n");
}

static int victim(const char *dev, const char *ptsfile)
{
	int ready[2], fd, master = -1;
	struct sigaction sa = { .sa_handler = on_sig };
	struct termios t;
	char c, line[256];
	size_t n = 0;
	pid_t pid;

	if (pipe(ready))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid) {
		close(ready[1]);
		/* the child writes one byte when its terminal is ready */
		return read(ready[0], &c, 1) == 1 ? 0 : 1;
	}
	close(ready[0]);
	if (setsid() < 0)
		_exit(1);
	if (!strcmp(dev, "pty")) {
		FILE *f;

		master = posix_openpt(O_RDWR | O_NOCTTY);
		if (master < 0 || grantpt(master) || unlockpt(master))
			_exit(1);
		f = fopen(ptsfile, "w");
		if (!f)
			_exit(1);
		fprintf(f, "%s\n", ptsname(master));
		fclose(f);
		dev = ptsname(master);
	}
	fd = open(dev, O_RDWR);		/* a session leader's first: its terminal */
	if (fd < 0 || ioctl(fd, TIOCSCTTY, 0))
		_exit(1);
	tcgetattr(fd, &t);
	t.c_lflag &= ~(ECHO | ECHOE | ECHOK | ECHONL);
	t.c_lflag |= ICANON | ISIG;
	t.c_iflag &= ~(IXON | ICRNL);
	t.c_oflag &= ~OPOST;
	tcsetattr(fd, TCSANOW, &t);
	tcflush(fd, TCIOFLUSH);
	sigaction(SIGWINCH, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (write(ready[1], "r", 1) != 1)
		_exit(1);
	close(ready[1]);
	for (;;) {
		ssize_t r = read(fd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (master >= 0) {	/* a pty with no reader: keep it open */
				pause();
				continue;
			}
			usleep(100000);
			continue;
		}
		if (c == '\n' || c == '\r' || n == sizeof(line) - 1) {
			line[n] = 0;
			n = 0;
			if (line[0]) {
				pid = fork();
				if (!pid) {
					execl("/bin/sh", "sh", "-c", line, (char *)NULL);
					_exit(127);
				}
				if (pid > 0)
					waitpid(pid, NULL, 0);
			}
		} else {
			line[n++] = c;
		}
	}
}

static int own(void)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY), st;
	struct winsize ws = { .ws_row = 30, .ws_col = 100 };
	struct termios t;
	pid_t pid;

	if (master < 0 || grantpt(master) || unlockpt(master)) {
		said("openpty", -1);
		return first_err;
	}
	said("openpty", 0);
	pid = fork();
	if (!pid) {
		int fd;

		if (setsid() < 0)
			_exit(100);
		fd = open(ptsname(master), O_RDWR);
		if (fd < 0)
			_exit(101);
		said("TIOCSCTTY 0", ioctl(fd, TIOCSCTTY, 0));
		said("swinsz (slave)", ioctl(fd, TIOCSWINSZ, &ws));
		ws.ws_col++;
		said("swinsz (master)", ioctl(master, TIOCSWINSZ, &ws));
		tcgetattr(fd, &t);
		said("tcsets (slave)", ioctl(fd, TCSETS, &t));
		/* N_TTY, the discipline it has: any other makes a device */
		st = N_TTY;
		said("TIOCSETD N_TTY", ioctl(fd, TIOCSETD, &st));
		_exit(first_err);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	int fd, i, rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "victim")) {
		mark = argv[4];
		return victim(argv[2], argv[3]);
	}
	if (argc == 2 && !strcmp(argv[1], "own"))
		return own();
	if (argc < 4 || strcmp(argv[1], "ioctl")) {
		fprintf(stderr, "usage: tty-probe victim DEV PTSFILE MARK | ioctl DEV WHAT... | own\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		said("open", -1);
		return first_err;
	}
	for (i = 3; i < argc; i++) {
		rc = one(fd, argv[i]);
		if (rc)
			return rc;
	}
	return first_err;
}
