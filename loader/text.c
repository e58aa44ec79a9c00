// SPDX-License-Identifier: GPL-2.0
/* Names as fields of lsmctl's lines of text. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* A byte a line of text takes as it is: see text_escaped(). */
static bool text_plain(unsigned char c)
{
	return c > ' ' && c < 0x7f && !strchr("\\=(),", c);
}

void text_escaped(char *dst, size_t len, const char *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t n = 0;

	if (!len)
		return;
	for (; *p; p++) {
		if (text_plain(*p)) {
			if (n + 1 >= len)
				break;
			dst[n++] = (char)*p;
		} else {
			if (n + 4 >= len)
				break;
			n += (size_t)snprintf(dst + n, len - n, "\\x%02x", *p);
		}
	}
	dst[n] = 0;
}

bool path_under(const char *path, const char *top)
{
	size_t n = strlen(top);

	return !strcmp(top, "/") || (!strncmp(path, top, n) && (!path[n] || path[n] == '/'));
}
