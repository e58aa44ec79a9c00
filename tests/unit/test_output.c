// SPDX-License-Identifier: GPL-2.0
/* Unit tests of lsmctl's JSON strings, times and errors (loader/output.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "errors.h"
#include "output.h"
#include "text.h"

/* json_string(@in) as a string (static buffer). */
static const char *json_of(const char *in)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	json_string(f, in);
	fclose(f);
	return buf;
}

static void test_ascii_and_escapes(void **state)
{
	(void)state;
	assert_string_equal(json_of("cat"), "\"cat\"");
	assert_string_equal(json_of("a\"b\\c"), "\"a\\\"b\\\\c\"");
	assert_string_equal(json_of("tab\there\nnl"), "\"tab\\there\\nnl\"");
	assert_string_equal(json_of("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
}

static void test_utf8_passes_through(void **state)
{
	(void)state;
	/* é (2 bytes), € (3), 😀 (4): as they are, not byte by byte */
	assert_string_equal(json_of("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
	assert_string_equal(json_of("\xe2\x82\xac"), "\"\xe2\x82\xac\"");
	assert_string_equal(json_of("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
}

static void test_invalid_bytes(void **state)
{
	(void)state;
	/* Latin-1 é, a lone continuation byte, a truncated sequence */
	assert_string_equal(json_of("caf\xe9"), "\"caf\\ufffd\"");
	assert_string_equal(json_of("\x80x"), "\"\\ufffdx\"");
	assert_string_equal(json_of("\xe2\x82"), "\"\\ufffd\\ufffd\"");
	/* overlong "/", a UTF-16 surrogate, past U+10FFFF */
	assert_string_equal(json_of("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
	assert_string_equal(json_of("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	assert_string_equal(json_of("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

/* text_escaped(@in) into a buffer of @len bytes (static buffer). */
static const char *text_of(const char *in, size_t len)
{
	static char buf[256];

	assert_true(len <= sizeof(buf));
	memset(buf, 'Z', sizeof(buf));
	text_escaped(buf, len, in);
	return buf;
}

static void test_text_fields(void **state)
{
	(void)state;
	/* what ends a field or a line, and the escape itself */
	assert_string_equal(text_of("a b\\c\nd\x1b[2J\x7f", 256),
			    "a\\x20b\\x5cc\\x0ad\\x1b[2J\\x7f");
	/* what stands for another field or an object's part */
	assert_string_equal(text_of("x=1,y(2)", 256), "x\\x3d1\\x2cy\\x282\\x29");
	/* the rest of printable ASCII as it is */
	assert_string_equal(text_of("/sys/fs/cgroup/web-1.service:a_b+c~!#*?[]", 256),
			    "/sys/fs/cgroup/web-1.service:a_b+c~!#*?[]");
}

static void test_text_past_ascii(void **state)
{
	(void)state;
	/* UTF-8 a byte each: é; C1's CSI (U+009B); a right-to-left override */
	assert_string_equal(text_of("caf\xc3\xa9", 256), "caf\\xc3\\xa9");
	assert_string_equal(text_of("x\xc2\x9b" "2J", 256), "x\\xc2\\x9b2J");
	assert_string_equal(text_of("a\xe2\x80\xae" "b", 256), "a\\xe2\\x80\\xaeb");
	/* spaces and '=' of other scripts, which forge fields as ' ' and '=' would */
	assert_string_equal(text_of("a\xc2\xa0verdict\xef\xbc\x9d" "allow", 256),
			    "a\\xc2\\xa0verdict\\xef\\xbc\\x9dallow");
	assert_string_equal(text_of("w\xe2\x80\x8b" "eb\xe3\x80\x80", 256),
			    "w\\xe2\\x80\\x8beb\\xe3\\x80\\x80");
	/* bytes that are not UTF-8 */
	assert_string_equal(text_of("\x80x\xe9", 256), "\\x80x\\xe9");
}

static void test_text_cut(void **state)
{
	(void)state;
	/* cut before a byte or an escape that would not fit, always ended */
	assert_string_equal(text_of("abc\x1b", 7), "abc");
	assert_string_equal(text_of("abc\x1b", 8), "abc\\x1b");
	assert_string_equal(text_of("abcdef", 4), "abc");
	assert_string_equal(text_of("", 1), "");
}

static void test_rfc3339(void **state)
{
	char buf[64];

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	format_rfc3339(0, 5, buf, sizeof(buf));
	assert_string_equal(buf, "1970-01-01T00:00:00.005+00:00");
	setenv("TZ", "IST-5:30", 1);	/* POSIX TZ: 5 h 30 east of UTC */
	tzset();
	format_rfc3339(0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "1970-01-01T05:30:00.000+05:30");
	setenv("TZ", "EST5", 1);
	tzset();
	format_rfc3339(0, 999, buf, sizeof(buf));
	assert_string_equal(buf, "1969-12-31T19:00:00.999-05:00");
}

/* libbpf's message, as libbpf hands it to its print callback. */
static void libbpf_says(enum libbpf_print_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lsmctl_libbpf_print(level, fmt, ap);
	va_end(ap);
}

/*
 * libbpf's warnings are given with the error they led to, in its object
 * under -j, and once; its debug lines never.
 */
static void test_error_with_libbpf(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	json_wtr = jsonw_new(f);
	assert_non_null(json_wtr);
	unsetenv("LSMCTL_DEBUG");
	assert_int_equal(p_err("nothing from libbpf"), EXIT_FAIL);
	libbpf_says(LIBBPF_DEBUG, "libbpf: %s\n", "a debug line");
	libbpf_says(LIBBPF_WARN, "libbpf: prog '%s': failed to load\n", "guard_x");
	libbpf_says(LIBBPF_WARN, "libbpf: no newline");
	p_err("%s: %s", "load", "Permission denied");
	p_err("again");
	jsonw_destroy(&json_wtr);
	fclose(f);
	assert_string_equal(buf,
		"{\"error\":\"nothing from libbpf\"}\n"
		"{\"error\":\"load: Permission denied\",\"libbpf\":"
		"[\"libbpf: prog 'guard_x': failed to load\",\"libbpf: no newline\"]}\n"
		"{\"error\":\"again\"}\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii_and_escapes),
		cmocka_unit_test(test_utf8_passes_through),
		cmocka_unit_test(test_invalid_bytes),
		cmocka_unit_test(test_text_fields),
		cmocka_unit_test(test_text_past_ascii),
		cmocka_unit_test(test_text_cut),
		cmocka_unit_test(test_rfc3339),
		cmocka_unit_test(test_error_with_libbpf),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
