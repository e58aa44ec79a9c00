/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer for lsmctl, after the API of bpftool's
 * json_writer.h (jsonw_new, jsonw_start_object, jsonw_name, ...): values
 * are written as they come, commas and (with jsonw_pretty) newlines and
 * indentation, four spaces a level as bpftool -p, put in by the writer.
 * Strings go through json_string() (output.h): UTF-8 as it is, control
 * characters escaped, invalid bytes as U+FFFD. A writer may write one
 * top-level value after another: each ends with a newline and is flushed
 * when it is complete (one value a line, or with jsonw_pretty one value
 * over its lines), so that a stream (lsmctl events -j) is read as it comes.
 */
#ifndef LSMCTL_JSON_WRITER_H
#define LSMCTL_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json_writer json_writer_t;

/* A writer to @f (not closed by jsonw_destroy()); NULL when out of memory. */
json_writer_t *jsonw_new(FILE *f);
/* Flushes, frees *@self and sets it NULL (a complete value has its newline already). */
void jsonw_destroy(json_writer_t **self);
/* Indent what follows (bpftool -p). */
void jsonw_pretty(json_writer_t *self, bool on);

void jsonw_name(json_writer_t *self, const char *name);
void jsonw_start_object(json_writer_t *self);
void jsonw_end_object(json_writer_t *self);
void jsonw_start_array(json_writer_t *self);
void jsonw_end_array(json_writer_t *self);

void jsonw_string(json_writer_t *self, const char *value);
void jsonw_bool(json_writer_t *self, bool value);
void jsonw_null(json_writer_t *self);
void jsonw_uint(json_writer_t *self, uint64_t value);
void jsonw_int(json_writer_t *self, int64_t value);
void jsonw_float_fmt(json_writer_t *self, const char *fmt, double value);

/* jsonw_name() and the value. */
void jsonw_string_field(json_writer_t *self, const char *name, const char *value);
void jsonw_bool_field(json_writer_t *self, const char *name, bool value);
void jsonw_null_field(json_writer_t *self, const char *name);
void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t value);
void jsonw_int_field(json_writer_t *self, const char *name, int64_t value);
void jsonw_float_field_fmt(json_writer_t *self, const char *name, const char *fmt,
			   double value);

#endif /* LSMCTL_JSON_WRITER_H */
