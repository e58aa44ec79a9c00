/* SPDX-License-Identifier: GPL-2.0 */
/* Names as fields of lsmctl's lines of text, and paths as text. */
#ifndef LSMCTL_TEXT_H
#define LSMCTL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * @src, a name a confined task may have chosen (a cgroup, a comm, a file,
 * a program), as one field of a line of text, in @dst (@len bytes): an
 * allow-list, printable ASCII as it is, but for what separates a line's
 * fields and an object's parts (space, '=', '(', ')', ',') and the escape
 * '\' itself; every other byte, UTF-8 included, as \xNN. Nothing in a
 * name can then end its field, stand for another field, act on a
 * terminal, or look like what it is not; -j gives names as they are.
 */
void text_escaped(char *dst, size_t len, const char *src);
/* Is the path @path @top or below it, component by component ("/" is above all)? */
bool path_under(const char *path, const char *top);

#endif /* LSMCTL_TEXT_H */
