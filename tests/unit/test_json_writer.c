// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lsmctl's streaming JSON writer (loader/json_writer.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json_writer.h"
#include "output.h"

static char *buf;
static size_t len;
static FILE *f;

static json_writer_t *open_writer(bool pretty)
{
	json_writer_t *w;

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	w = jsonw_new(f);
	assert_non_null(w);
	jsonw_pretty(w, pretty);
	return w;
}

/* Ends @w's value and returns what it wrote (freed by the next test). */
static const char *close_writer(json_writer_t **w)
{
	jsonw_destroy(w);
	assert_null(*w);
	fclose(f);
	return buf;
}

static int teardown(void **state)
{
	(void)state;
	free(buf);
	buf = NULL;
	return 0;
}

/* One object with every kind of field, nested object and array, compact. */
static void write_sample(json_writer_t *w)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "policy", "confine-shell");
	jsonw_uint_field(w, "rules", 3);
	jsonw_int_field(w, "delta", -7);
	jsonw_bool_field(w, "fits", true);
	jsonw_null_field(w, "slots_taken");
	jsonw_float_field_fmt(w, "ratio", "%.2f", 0.5);
	jsonw_name(w, "hooks");
	jsonw_start_array(w);
	jsonw_string(w, "file_open");
	jsonw_string(w, "ptrace_traceme");
	jsonw_end_array(w);
	jsonw_name(w, "warnings");
	jsonw_start_array(w);
	jsonw_end_array(w);
	jsonw_name(w, "lsm_cgroup");
	jsonw_start_object(w);
	jsonw_uint_field(w, "hook_slots", 10);
	jsonw_name(w, "empty");
	jsonw_start_object(w);
	jsonw_end_object(w);
	jsonw_end_object(w);
	jsonw_end_object(w);
}

static void test_compact_nesting(void **state)
{
	json_writer_t *w = open_writer(false);

	(void)state;
	write_sample(w);
	assert_string_equal(close_writer(&w),
		"{\"policy\":\"confine-shell\",\"rules\":3,\"delta\":-7,\"fits\":true,"
		"\"slots_taken\":null,\"ratio\":0.50,"
		"\"hooks\":[\"file_open\",\"ptrace_traceme\"],\"warnings\":[],"
		"\"lsm_cgroup\":{\"hook_slots\":10,\"empty\":{}}}\n");
}

/*
 * Pretty (lsmctl -p): bpftool -p's layout, four spaces a level, ": "
 * after a name, an empty object or array on its line.
 */
static void test_pretty_layout(void **state)
{
	json_writer_t *w = open_writer(true);

	(void)state;
	write_sample(w);
	assert_string_equal(close_writer(&w),
		"{\n"
		"    \"policy\": \"confine-shell\",\n"
		"    \"rules\": 3,\n"
		"    \"delta\": -7,\n"
		"    \"fits\": true,\n"
		"    \"slots_taken\": null,\n"
		"    \"ratio\": 0.50,\n"
		"    \"hooks\": [\n"
		"        \"file_open\",\n"
		"        \"ptrace_traceme\"\n"
		"    ],\n"
		"    \"warnings\": [],\n"
		"    \"lsm_cgroup\": {\n"
		"        \"hook_slots\": 10,\n"
		"        \"empty\": {}\n"
		"    }\n"
		"}\n");
}

static void test_string_escaping(void **state)
{
	json_writer_t *w = open_writer(false);

	(void)state;
	jsonw_start_array(w);
	jsonw_string(w, "a\"b\\c");
	jsonw_string(w, "tab\there\nnl\x01\x7f");
	jsonw_string(w, "caf\xc3\xa9");
	jsonw_string(w, "bad\xff");
	jsonw_end_array(w);
	assert_string_equal(close_writer(&w),
		"[\"a\\\"b\\\\c\",\"tab\\there\\nnl\\u0001\\u007f\","
		"\"caf\xc3\xa9\",\"bad\\ufffd\"]\n");
}

/* Names are escaped as strings are. */
static void test_name_escaping(void **state)
{
	json_writer_t *w = open_writer(true);

	(void)state;
	jsonw_start_object(w);
	jsonw_uint_field(w, "a\"b", 1);
	jsonw_end_object(w);
	assert_string_equal(close_writer(&w), "{\n    \"a\\\"b\": 1\n}\n");
}

/* An empty object stays {}, pretty or not. */
static void test_empty_top_level(void **state)
{
	json_writer_t *w = open_writer(true);

	(void)state;
	jsonw_start_object(w);
	jsonw_end_object(w);
	assert_string_equal(close_writer(&w), "{}\n");
}

/* Top-level values one after another: one a line, no comma between them (events -j). */
static void test_values_one_a_line(void **state)
{
	json_writer_t *w = open_writer(false);

	(void)state;
	jsonw_start_object(w);
	jsonw_uint_field(w, "lost", 2);
	jsonw_end_object(w);
	jsonw_start_array(w);
	jsonw_end_array(w);
	jsonw_uint(w, 7);
	jsonw_start_object(w);
	jsonw_string_field(w, "verdict", "deny");
	jsonw_end_object(w);
	assert_string_equal(close_writer(&w), "{\"lost\":2}\n[]\n7\n{\"verdict\":\"deny\"}\n");
}

/* A value is out (flushed) as soon as it is complete, before the writer ends. */
static void test_value_flushed_when_complete(void **state)
{
	json_writer_t *w = open_writer(true);

	(void)state;
	jsonw_start_object(w);
	jsonw_uint_field(w, "lost", 2);
	jsonw_end_object(w);
	assert_string_equal(buf, "{\n    \"lost\": 2\n}\n");
	assert_string_equal(close_writer(&w), "{\n    \"lost\": 2\n}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_compact_nesting, teardown),
		cmocka_unit_test_teardown(test_pretty_layout, teardown),
		cmocka_unit_test_teardown(test_string_escaping, teardown),
		cmocka_unit_test_teardown(test_name_escaping, teardown),
		cmocka_unit_test_teardown(test_empty_top_level, teardown),
		cmocka_unit_test_teardown(test_values_one_a_line, teardown),
		cmocka_unit_test_teardown(test_value_flushed_when_complete, teardown),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
