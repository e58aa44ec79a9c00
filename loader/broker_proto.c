// SPDX-License-Identifier: GPL-2.0
/* The broker's requests, parsed and written: broker_proto.h has their form. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "broker_proto.h"
#include "errors.h"

size_t broker_header_end(const char *buf, size_t len)
{
	size_t i;

	for (i = 1; i < len; i++)
		if (buf[i] == '\n' && buf[i - 1] == '\n')
			return i + 1;
	return 0;
}

/* The next line of the header at *@pos, without its newline, into @line; 0 or -EINVAL. */
static int next_line(const char *buf, size_t len, size_t *pos, char *line, size_t size)
{
	size_t start = *pos, n;
	const char *nl;

	if (start >= len)
		return -EINVAL;
	nl = memchr(buf + start, '\n', len - start);
	if (!nl)
		return -EINVAL;
	n = nl - (buf + start);
	if (n >= size)
		return -EINVAL;
	memcpy(line, buf + start, n);
	line[n] = '\0';
	if (memchr(line, '\0', n))
		return -EINVAL;	/* a NUL inside the line */
	*pos = start + n + 1;
	return 0;
}

/* "KEY VALUE": the value, or NULL when the line is not KEY's. */
static const char *value_of(const char *line, const char *key)
{
	size_t k = strlen(key);

	if (strncmp(line, key, k) || line[k] != ' ' || !line[k + 1])
		return NULL;
	return line + k + 1;
}

/* A decimal number of 1 to 20 digits, at most @max; 0 or -EINVAL. */
static int number(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	if (!*s || strlen(s) > 20 || (s[0] == '0' && s[1]))
		return -EINVAL;
	for (i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (max - (s[i] - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* Printable ASCII (a file name as the requester gave it, shown in list and show). */
static int printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e)
			return 0;
	return 1;
}

int broker_parse(const char *buf, size_t len, size_t max_policy, struct broker_req *req,
		 char *err, size_t errlen)
{
	char line[BROKER_LINE_MAX];
	unsigned long long n;
	size_t pos = 0;
	const char *v;

	memset(req, 0, sizeof(*req));
	req->audit = -1;
	if (len > BROKER_HEADER_MAX || broker_header_end(buf, len) != len)
		return errf(err, errlen, -EINVAL, "the header is not %d bytes or less ending in an "
			    "empty line", BROKER_HEADER_MAX);
	if (next_line(buf, len, &pos, line, sizeof(line)) || strcmp(line, BROKER_MAGIC))
		return errf(err, errlen, -EINVAL, "the first line is not '" BROKER_MAGIC "'");
	if (next_line(buf, len, &pos, line, sizeof(line)) || !(v = value_of(line, "verb")))
		return errf(err, errlen, -EINVAL, "the second line is not 'verb apply|detach'");
	if (!strcmp(v, "apply"))
		req->verb = BROKER_APPLY;
	else if (!strcmp(v, "detach"))
		req->verb = BROKER_DETACH;
	else
		return errf(err, errlen, -EINVAL, "the verb is not apply or detach");
	if (next_line(buf, len, &pos, line, sizeof(line)) || !(v = value_of(line, "cgroup")) ||
	    number(v, ~0ULL, &n) || !n)
		return errf(err, errlen, -EINVAL, "the third line is not 'cgroup ID', an id above 0");
	req->cgroup_id = n;
	if (req->verb == BROKER_APPLY) {
		if (next_line(buf, len, &pos, line, sizeof(line)) || !(v = value_of(line, "mode")))
			return errf(err, errlen, -EINVAL, "no 'mode file|enforce|audit' line");
		if (!strcmp(v, "file"))
			req->audit = -1;
		else if (!strcmp(v, "enforce") || !strcmp(v, "audit"))
			req->audit = !strcmp(v, "audit");
		else
			return errf(err, errlen, -EINVAL, "the mode is not file, enforce or audit");
		if (next_line(buf, len, &pos, line, sizeof(line)) || !(v = value_of(line, "name")) ||
		    strlen(v) >= sizeof(req->name) || !printable(v))
			return errf(err, errlen, -EINVAL, "no 'name NAME' line of printable ASCII, "
				    "%d bytes or less", BROKER_NAME_MAX - 1);
		strcpy(req->name, v);
		if (next_line(buf, len, &pos, line, sizeof(line)) || !(v = value_of(line, "length")) ||
		    number(v, max_policy, &n) || !n)
			return errf(err, errlen, -EINVAL, "no 'length N' line, N from 1 to %zu",
				    max_policy);
		req->length = n;
	}
	if (next_line(buf, len, &pos, line, sizeof(line)) || line[0] || pos != len)
		return errf(err, errlen, -EINVAL, "a line more than the verb takes");
	return 0;
}

int broker_format(const struct broker_req *req, char *buf, size_t len)
{
	int n;

	if (req->verb == BROKER_APPLY)
		n = snprintf(buf, len, BROKER_MAGIC "\nverb apply\ncgroup %llu\nmode %s\nname %s\n"
			     "length %zu\n\n", (unsigned long long)req->cgroup_id,
			     req->audit < 0 ? "file" : req->audit ? "audit" : "enforce", req->name,
			     req->length);
	else
		n = snprintf(buf, len, BROKER_MAGIC "\nverb detach\ncgroup %llu\n\n",
			     (unsigned long long)req->cgroup_id);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}
