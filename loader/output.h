/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing for lsmctl: the tool's JSON writer and its error and warning
 * printers (after bpftool's json_wtr, p_err() and p_info()), JSON
 * strings, times, and a denial's object.
 */
#ifndef LSMCTL_OUTPUT_H
#define LSMCTL_OUTPUT_H

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "compile.h"
#include "json_writer.h"

/* -j or -p: every command's output is JSON on stdout, through json_wtr. */
extern int json;
/* The tool's one JSON writer, on stdout, from json_open(); NULL for text. */
extern json_writer_t *json_wtr;
/* JSON from now on (-j), indented (-p) when @pretty; 0, or -1 when out of memory. */
int json_open(bool pretty);
/*
 * Why a command failed, once: "lsmctl: MSG" on stderr, or with -j an
 * {"error": MSG} object through json_wtr (between values, not inside
 * one); then what libbpf said before it (lsmctl_libbpf_print()). Returns
 * EXIT_FAIL, for "return p_err(...)".
 */
int p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Something the user should know that does not stop the command:
 * "lsmctl: warning: MSG" on stderr, after what is on stdout so far, -j
 * or not (stdout keeps one value a result; a result's own warnings are
 * its "warnings" field, print_warnings()).
 */
void p_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * libbpf's messages (libbpf_set_print()): with LSMCTL_DEBUG in the
 * environment every one on stderr as it comes; else its debug lines are
 * dropped and its warnings kept, for p_err() to give after the error
 * they led to (text: on stderr, each line as libbpf wrote it; -j: a
 * "libbpf" array of the error object), and never printed when no error
 * follows.
 */
int lsmctl_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap);

/*
 * @s as a JSON string, quotes included: UTF-8 as it is, control
 * characters escaped, a byte that is not part of valid UTF-8 as U+FFFD.
 */
void json_string(FILE *f, const char *s);
/* The name of an event's hook (lab_event.hook): the engine's or the guard's. */
const char *event_hook_name(unsigned int hook);
/* A CLOCK_MONOTONIC time in ns as local wall-clock time, RFC 3339 (format_rfc3339()). */
void format_mono_time(unsigned long long ns, char *buf, size_t len);
/* @secs since the epoch and @ms as local time, RFC 3339 with the UTC offset. */
void format_rfc3339(long long secs, long long ms, char *buf, size_t len);
/*
 * What a denial was about: a file (@name, the event's own or its text
 * form), an address, a capability...
 */
void format_object(const struct lab_event *e, const char *name, char *buf, size_t len);

#endif /* LSMCTL_OUTPUT_H */
