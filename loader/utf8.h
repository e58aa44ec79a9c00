/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8, as lsmctl reads the names it prints and writes into drafts. */
#ifndef LSMCTL_UTF8_H
#define LSMCTL_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * The length of the UTF-8 character at @s (1 to 4) and its code point
 * in *@cp; 0 when the bytes there are not one (a stray or truncated
 * byte, an overlong form, a surrogate, past U+10FFFF).
 */
size_t utf8_char(const unsigned char *s, uint32_t *cp);

#endif /* LSMCTL_UTF8_H */
