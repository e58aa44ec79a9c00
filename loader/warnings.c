// SPDX-License-Identifier: GPL-2.0
/* What a valid policy leaves undone (see warnings.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "compile.h"
#include "warnings.h"

struct out {
	char *buf;
	size_t len, used;
	unsigned int n;
};

__attribute__((format(printf, 2, 3)))
static void add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	o->n++;
	if (o->used + 1 >= o->len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	o->used += (size_t)k;
	if (o->used + 1 < o->len) {
		o->buf[o->used++] = '\n';
		o->buf[o->used] = 0;
	} else {
		o->used = o->len - 1;
	}
}

/* The one text of the warnings, from what a policy or a meta says. */
static unsigned int warnings(bool self_protection, bool audit, bool default_deny,
			     unsigned int closed, char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = len };
	unsigned int c;

	if (len)
		buf[0] = 0;
	if (!self_protection)
		add(&o, "self-protection is off: a task in the subtree may undo the policy");
	if (audit)
		add(&o, "audit mode: the policy reports and denies nothing");
	for (c = 0; c < LAB_SELF; c++)	/* the rules' classes: enum lab_class */
		if (!(closed & (1u << c)))
			add(&o, "%s is left open: no rule %s it", class_name(c),
			    default_deny ? "allows or denies" : "denies");
	return o.n;
}

unsigned int policy_warnings(const struct policy *p, char *buf, size_t len)
{
	return warnings(!p->no_self_protection, p->audit, p->default_deny,
			policy_closed_classes(p), buf, len);
}

unsigned int meta_warnings(const struct lab_meta *m, char *buf, size_t len)
{
	return warnings(m->flags & LAB_SELF_PROTECT, m->flags & LAB_AUDIT, m->deny_by_default,
			m->closed, buf, len);
}
