/* SPDX-License-Identifier: GPL-2.0 */
/* A short name read from the kernel, compared with a string literal. */
#ifndef LSMLAB_NAME_EQ_BPF_H
#define LSMLAB_NAME_EQ_BPF_H

/* Is the name read into @name (16 bytes, NUL-padded) the literal @lit? */
#define name_eq(name, lit)	name_eq_len(name, lit, sizeof(lit))
static __always_inline int name_eq_len(const char *name, const char *want, int size)
{
	for (int i = 0; i < size && i < 16; i++)	/* the NUL too */
		if (name[i] != want[i])
			return 0;
	return 1;
}

#endif /* LSMLAB_NAME_EQ_BPF_H */
