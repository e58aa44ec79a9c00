/* SPDX-License-Identifier: GPL-2.0 */
/* Printing for lsmctl: JSON strings, times, and a denial's object. */
#ifndef LSMCTL_OUTPUT_H
#define LSMCTL_OUTPUT_H

#include <stdio.h>

#include "compile.h"

/*
 * @s as a JSON string, quotes included: UTF-8 as it is, control
 * characters escaped, a byte that is not part of valid UTF-8 as U+FFFD.
 */
void json_string(FILE *f, const char *s);
/*
 * The compact JSON in @json (@len bytes, one value) to @f indented, four
 * spaces a level, as bpftool -p prints it; a newline after it.
 */
void json_pretty(FILE *f, const char *json, size_t len);
/*
 * From now on, every line printed to stdout that is JSON is printed
 * through json_pretty() (lsmctl -p); 0, or -1 when stdout stays as it was.
 */
int json_pretty_stdout(void);
/* The name of an event's hook (lab_event.hook): the engine's or the guard's. */
const char *event_hook_name(unsigned int hook);
/* A CLOCK_MONOTONIC time in ns as local wall-clock time, RFC 3339 (format_rfc3339()). */
void format_mono_time(unsigned long long ns, char *buf, size_t len);
/* @secs since the epoch and @ms as local time, RFC 3339 with the UTC offset. */
void format_rfc3339(long long secs, long long ms, char *buf, size_t len);
/* What a denial was about: a file name, an address, a capability... */
void format_object(const struct lab_event *e, char *buf, size_t len);

#endif /* LSMCTL_OUTPUT_H */
