// SPDX-License-Identifier: GPL-2.0
/* Printing for lsmctl (see output.h). */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "errors.h"
#include "guard.h"
#include "output.h"
#include "utf8.h"

#define MSG_MAX 16384	/* one error: check's are every error of a file */

int json;
json_writer_t *json_wtr;

int json_open(bool pretty)
{
	json = 1;
	if (json_wtr)
		return 0;
	json_wtr = jsonw_new(stdout);
	if (!json_wtr)
		return -1;
	jsonw_pretty(json_wtr, pretty);
	return 0;
}

/* libbpf's warnings since the last error, whole lines, for p_err() to give. */
static char libbpf_said[MSG_MAX];
static size_t libbpf_len;

int lsmctl_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t room = sizeof(libbpf_said) - libbpf_len;
	int n;

	if (getenv("LSMCTL_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	if (level == LIBBPF_DEBUG || room < 2)
		return 0;
	n = vsnprintf(libbpf_said + libbpf_len, room, fmt, ap);
	if (n < 0)
		return n;
	/* a verifier log longer than the room: its start, cut at a line */
	libbpf_len += (size_t)n < room ? (size_t)n : room - 1;
	if (libbpf_len && libbpf_said[libbpf_len - 1] != '\n') {
		if (libbpf_len == sizeof(libbpf_said) - 1)
			libbpf_len--;
		libbpf_said[libbpf_len++] = '\n';
		libbpf_said[libbpf_len] = '\0';
	}
	return n;
}

/* What libbpf said before an error: its own lines on stderr, or a "libbpf" array. */
static void libbpf_give(void)
{
	char *line, *save;

	if (!libbpf_len)
		return;
	if (!json_wtr) {
		fputs(libbpf_said, stderr);
	} else {
		jsonw_name(json_wtr, "libbpf");
		jsonw_start_array(json_wtr);
		for (line = strtok_r(libbpf_said, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			jsonw_string(json_wtr, line);
		jsonw_end_array(json_wtr);
	}
	libbpf_len = 0;
	libbpf_said[0] = '\0';
}

int p_err(const char *fmt, ...)
{
	static char msg[MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (json_wtr) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "error", msg);
		libbpf_give();
		jsonw_end_object(json_wtr);
	} else {
		fflush(stdout);
		fprintf(stderr, "lsmctl: %s\n", msg);
		libbpf_give();
	}
	return EXIT_FAIL;
}

void p_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	fputs("lsmctl: warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

const char *event_hook_name(unsigned int hook)
{
	if (hook >= LAB_GUARD_HOOK_BASE)
		return guard_hook_name(hook - LAB_GUARD_HOOK_BASE);
	return hook_name(hook);
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t n;

	fputc('"', f);
	while (*p) {
		n = utf8_char(p, &cp);
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else if (*p == '\t') {
			fputs("\\t", f);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else if (!n) {
			/* names are bytes: one that is not UTF-8 becomes U+FFFD */
			fputs("\\ufffd", f);
			n = 1;
		} else {
			fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
	fputc('"', f);
}

void format_mono_time(unsigned long long ns, char *buf, size_t len)
{
	struct timespec mono, real;
	long long at;
	time_t secs;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	at = (long long)real.tv_sec * 1000000000LL + real.tv_nsec -
	     ((long long)mono.tv_sec * 1000000000LL + mono.tv_nsec - (long long)ns);
	secs = at / 1000000000LL;
	format_rfc3339(secs, (at % 1000000000LL) / 1000000LL, buf, len);
}

void format_rfc3339(long long secs, long long ms, char *buf, size_t len)
{
	time_t t = (time_t)secs;
	struct tm tm;
	long off;

	localtime_r(&t, &tm);
	off = tm.tm_gmtoff / 60;
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03lld%c%02ld:%02ld",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 ms, off < 0 ? '-' : '+', labs(off) / 60, labs(off) % 60);
}

void format_object(const struct lab_event *e, const char *name, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN];
	static const char *const types[] = { "any", "stream", "dgram", "raw" };

	switch (e->class) {
	case LAB_READ:
	case LAB_WRITE:
	case LAB_EXEC:
	case LAB_CREATE:
	case LAB_UNLINK:
		snprintf(buf, len, "%s(%s,ino=%llu,dir=%llu)", name[0] ? name : "?",
			 class_name(e->class), (unsigned long long)e->ino,
			 (unsigned long long)e->dir_ino);
		break;
	case LAB_SOCKET:
		snprintf(buf, len, "family=%u,type=%s", e->family,
			 e->number < 4 ? types[e->number] : "other");
		break;
	case LAB_BIND:
	case LAB_CONNECT:
		inet_ntop(e->family == AF_INET6 ? AF_INET6 : AF_INET, e->addr, addr, sizeof(addr));
		snprintf(buf, len, e->family == AF_INET6 ? "[%s]:%u" : "%s:%u", addr, e->port);
		break;
	case LAB_CAPABILITY:
		snprintf(buf, len, "cap=%u", e->number);
		break;
	case LAB_PTRACE:
		snprintf(buf, len, "pid=%u", e->target_pid);
		break;
	case LAB_SIGNAL:
		snprintf(buf, len, "pid=%u,sig=%u", e->target_pid, e->number);
		break;
	case LAB_SELF:
		if (name[0])
			snprintf(buf, len, "%s", name);
		else if (e->target_pid)
			snprintf(buf, len, "pid=%u,number=%u", e->target_pid, e->number);
		else
			snprintf(buf, len, "number=%u", e->number);
		break;
	case LAB_MODULE_LOAD:
		snprintf(buf, len, "%s", e->number == 2 ? "module" : "kexec");
		break;
	default:
		snprintf(buf, len, "%s", class_name(e->class));
		break;
	}
}
