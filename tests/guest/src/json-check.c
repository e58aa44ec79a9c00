// SPDX-License-Identifier: GPL-2.0
/*
 * json-check: a strict JSON (RFC 8259) reader for the guest's shell
 * tests, which have no other: each line of stdin must be one JSON value,
 * strings in valid UTF-8. Exit 0 when every line is (and there is one),
 * else 1, naming the line and column where it went wrong. -k KEY: also
 * require each line to have a member "KEY". -a: the whole input is a
 * sequence of JSON values, each over as many lines as it likes (lsmctl -p).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

static const unsigned char *at, *start;

static bool value(int depth);

static void skip_ws(void)
{
	while (*at == ' ' || *at == '\t' || *at == '\r' || *at == '\n')
		at++;
}

static bool literal(const char *word)
{
	size_t n = strlen(word);

	if (strncmp((const char *)at, word, n))
		return false;
	at += n;
	return true;
}

/* One UTF-8 sequence, not overlong, no surrogate, at most U+10FFFF. */
static bool utf8(void)
{
	unsigned int c, n, i;

	if (at[0] < 0x80)
		return at++, true;
	if (at[0] >= 0xc2 && at[0] <= 0xdf)
		n = 2, c = at[0] & 0x1f;
	else if (at[0] >= 0xe0 && at[0] <= 0xef)
		n = 3, c = at[0] & 0x0f;
	else if (at[0] >= 0xf0 && at[0] <= 0xf4)
		n = 4, c = at[0] & 0x07;
	else
		return false;
	for (i = 1; i < n; i++) {
		if ((at[i] & 0xc0) != 0x80)
			return false;
		c = c << 6 | (at[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return false;
	at += n;
	return true;
}

static bool string(void)
{
	int i;

	if (*at++ != '"')
		return false;
	while (*at != '"') {
		if (*at < 0x20)
			return false;	/* control characters must be escaped */
		if (*at == '\\') {
			at++;
			if (strchr("\"\\/bfnrt", *at) && *at) {
				at++;
			} else if (*at == 'u') {
				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", at[i]) || !at[i])
						return false;
				at += 5;
			} else {
				return false;
			}
		} else if (!utf8()) {
			return false;
		}
	}
	at++;
	return true;
}

static bool digits(void)
{
	const unsigned char *from = at;

	while (*at >= '0' && *at <= '9')
		at++;
	return at > from;
}

static bool number(void)
{
	if (*at == '-')
		at++;
	if (*at == '0')
		at++;
	else if (!digits())
		return false;
	if (*at == '.' && (at++, !digits()))
		return false;
	if (*at == 'e' || *at == 'E') {
		at++;
		if (*at == '+' || *at == '-')
			at++;
		if (!digits())
			return false;
	}
	return true;
}

/* The members of an object or the elements of an array, up to @close. */
static bool members(int depth, bool object, char close)
{
	at++;
	skip_ws();
	if (*at == close)
		return at++, true;
	for (;;) {
		skip_ws();
		if (object) {
			if (!string())
				return false;
			skip_ws();
			if (*at++ != ':')
				return false;
		}
		if (!value(depth + 1))
			return false;
		skip_ws();
		if (*at == close)
			return at++, true;
		if (*at++ != ',')
			return false;
	}
}

static bool value(int depth)
{
	skip_ws();
	if (depth > MAX_DEPTH)
		return false;
	switch (*at) {
	case '{': return members(depth, true, '}');
	case '[': return members(depth, false, ']');
	case '"': return string();
	case 't': return literal("true");
	case 'f': return literal("false");
	case 'n': return literal("null");
	default: return number();
	}
}

/* -a: values, white space between them, and nothing else. */
static int check_all(void)
{
	static char buf[1 << 20];
	size_t len = fread(buf, 1, sizeof(buf) - 1, stdin);
	int n = 0;

	buf[len] = 0;
	start = at = (const unsigned char *)buf;
	for (skip_ws(); *at; skip_ws(), n++) {
		if (!value(0)) {
			fprintf(stderr, "json-check: byte %ld: not JSON\n", (long)(at - start) + 1);
			return 1;
		}
	}
	if (!n)
		fprintf(stderr, "json-check: no input\n");
	return n ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *key = argc == 3 && !strcmp(argv[1], "-k") ? argv[2] : NULL;
	char line[65536], want[256];
	int n = 0;

	if (argc == 2 && !strcmp(argv[1], "-a"))
		return check_all();
	if (argc != 1 && !key) {
		fprintf(stderr, "usage: json-check [-a | -k KEY] <LINES\n");
		return 2;
	}
	snprintf(want, sizeof(want), "{\"%s\":", key ? key : "");
	while (fgets(line, sizeof(line), stdin)) {
		n++;
		start = at = (const unsigned char *)line;
		if (!value(0) || (skip_ws(), *at)) {
			fprintf(stderr, "json-check: line %d, column %ld: not JSON: %s", n,
				(long)(at - start) + 1, line);
			return 1;
		}
		/* lsmctl writes its objects compactly: the key is first or not there */
		if (key && strncmp(line, want, strlen(want)) && !strstr(line, want + 1)) {
			fprintf(stderr, "json-check: line %d has no key \"%s\": %s", n, key, line);
			return 1;
		}
	}
	if (!n)
		fprintf(stderr, "json-check: no input\n");
	return n ? 0 : 1;
}
