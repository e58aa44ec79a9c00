// SPDX-License-Identifier: GPL-2.0
/* Printing for lsmctl (see output.h). */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "guard.h"
#include "output.h"

const char *event_hook_name(unsigned int hook)
{
	if (hook >= LAB_GUARD_HOOK_BASE)
		return guard_hook_name(hook - LAB_GUARD_HOOK_BASE);
	return hook_name(hook);
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);	/* comm and names are bytes */
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void format_mono_time(unsigned long long ns, char *buf, size_t len)
{
	struct timespec mono, real;
	long long at;
	time_t secs;
	struct tm tm;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	at = (long long)real.tv_sec * 1000000000LL + real.tv_nsec -
	     ((long long)mono.tv_sec * 1000000000LL + mono.tv_nsec - (long long)ns);
	secs = at / 1000000000LL;
	localtime_r(&secs, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03lld", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (at % 1000000000LL) / 1000000LL);
}

void format_object(const struct lab_event *e, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN];
	static const char *const types[] = { "any", "stream", "dgram", "raw" };

	switch (e->class) {
	case LAB_READ:
	case LAB_WRITE:
	case LAB_EXEC:
	case LAB_CREATE:
	case LAB_UNLINK:
		snprintf(buf, len, "%s(%s,ino=%llu,dir=%llu)", e->name[0] ? e->name : "?",
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
		if (e->name[0])
			snprintf(buf, len, "%s", e->name);
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
