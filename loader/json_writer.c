// SPDX-License-Identifier: GPL-2.0
/* lsmctl's streaming JSON writer (see json_writer.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "json_writer.h"
#include "output.h"

struct json_writer {
	FILE *out;
	unsigned int depth;
	bool pretty;
	bool sep;	/* a value was written at this level: a comma before the next */
	bool named;	/* a name was written: its value comes right after it */
};

json_writer_t *jsonw_new(FILE *f)
{
	json_writer_t *self = calloc(1, sizeof(*self));

	if (self)
		self->out = f;
	return self;
}

void jsonw_destroy(json_writer_t **self)
{
	if (!*self)
		return;
	fflush((*self)->out);
	free(*self);
	*self = NULL;
}

void jsonw_pretty(json_writer_t *self, bool on)
{
	self->pretty = on;
}

/* After a value: a top-level one ends its line, and is out at once. */
static void jsonw_done(json_writer_t *self)
{
	if (self->depth)
		return;
	fputc('\n', self->out);
	fflush(self->out);
	self->sep = false;
}

static void jsonw_indent(json_writer_t *self)
{
	unsigned int i;

	fputc('\n', self->out);
	for (i = 0; i < self->depth; i++)
		fputs("    ", self->out);
}

/* Before a name or an element: the comma, and in pretty mode the new line. */
static void jsonw_eor(json_writer_t *self)
{
	if (self->sep)
		fputc(',', self->out);
	if (self->pretty && self->depth)
		jsonw_indent(self);
	self->sep = true;
}

/* Before a value: after a name nothing, else what jsonw_eor() writes. */
static void jsonw_value(json_writer_t *self)
{
	if (self->named)
		self->named = false;
	else
		jsonw_eor(self);
}

void jsonw_name(json_writer_t *self, const char *name)
{
	jsonw_eor(self);
	json_string(self->out, name);
	fputs(self->pretty ? ": " : ":", self->out);
	self->named = true;
}

static void jsonw_open(json_writer_t *self, char c)
{
	jsonw_value(self);
	fputc(c, self->out);
	self->depth++;
	self->sep = false;
}

static void jsonw_close(json_writer_t *self, char c)
{
	self->depth--;
	/* an empty object or array stays {} or [] */
	if (self->pretty && self->sep)
		jsonw_indent(self);
	fputc(c, self->out);
	self->sep = true;
	jsonw_done(self);
}

void jsonw_start_object(json_writer_t *self)
{
	jsonw_open(self, '{');
}

void jsonw_end_object(json_writer_t *self)
{
	jsonw_close(self, '}');
}

void jsonw_start_array(json_writer_t *self)
{
	jsonw_open(self, '[');
}

void jsonw_end_array(json_writer_t *self)
{
	jsonw_close(self, ']');
}

void jsonw_string(json_writer_t *self, const char *value)
{
	jsonw_value(self);
	json_string(self->out, value);
	jsonw_done(self);
}

void jsonw_bool(json_writer_t *self, bool value)
{
	jsonw_value(self);
	fputs(value ? "true" : "false", self->out);
	jsonw_done(self);
}

void jsonw_null(json_writer_t *self)
{
	jsonw_value(self);
	fputs("null", self->out);
	jsonw_done(self);
}

void jsonw_uint(json_writer_t *self, uint64_t value)
{
	jsonw_value(self);
	fprintf(self->out, "%" PRIu64, value);
	jsonw_done(self);
}

void jsonw_int(json_writer_t *self, int64_t value)
{
	jsonw_value(self);
	fprintf(self->out, "%" PRId64, value);
	jsonw_done(self);
}

void jsonw_float_fmt(json_writer_t *self, const char *fmt, double value)
{
	jsonw_value(self);
	fprintf(self->out, fmt, value);
	jsonw_done(self);
}

void jsonw_string_field(json_writer_t *self, const char *name, const char *value)
{
	jsonw_name(self, name);
	jsonw_string(self, value);
}

void jsonw_bool_field(json_writer_t *self, const char *name, bool value)
{
	jsonw_name(self, name);
	jsonw_bool(self, value);
}

void jsonw_null_field(json_writer_t *self, const char *name)
{
	jsonw_name(self, name);
	jsonw_null(self);
}

void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t value)
{
	jsonw_name(self, name);
	jsonw_uint(self, value);
}

void jsonw_int_field(json_writer_t *self, const char *name, int64_t value)
{
	jsonw_name(self, name);
	jsonw_int(self, value);
}

void jsonw_float_field_fmt(json_writer_t *self, const char *name, const char *fmt,
			   double value)
{
	jsonw_name(self, name);
	jsonw_float_fmt(self, fmt, value);
}
