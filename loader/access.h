/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file accesses a rule names (access: [read, write, ...]), in their
 * bit order: the one list the parser, the compiler and the drafts use.
 * X(ENUM, name): ENUM as in the engine's LAB_ENUM class (engine.h), name
 * as written in a policy. SEP goes between two entries.
 */
#ifndef LSMCTL_ACCESS_H
#define LSMCTL_ACCESS_H

#define LAB_ACCESSES(X, SEP)	\
	X(READ, read) SEP	\
	X(WRITE, write) SEP	\
	X(EXEC, exec) SEP	\
	X(CREATE, create) SEP	\
	X(UNLINK, unlink)

#define ACCESS_COMMA ,
#define ACCESS_INDEX_(E, n)	ACCESS_INDEX_##E
#define ACCESS_NAME_(E, n)	#n

/* A file access's bit number; N_ACCESS of them. */
enum access_index { LAB_ACCESSES(ACCESS_INDEX_, ACCESS_COMMA), N_ACCESS };

/* "read, write, exec, create, unlink", for messages. */
#define ACCESS_NAMES_TEXT	LAB_ACCESSES(ACCESS_NAME_, ", ")

/* The names, by bit number. */
static const char *const access_names[N_ACCESS] __attribute__((unused)) = {
	LAB_ACCESSES(ACCESS_NAME_, ACCESS_COMMA)
};

#endif /* LSMCTL_ACCESS_H */
