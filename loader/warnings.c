// SPDX-License-Identifier: GPL-2.0
/* What a valid policy leaves undone (see warnings.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "warnings.h"

/* The classes, after the file accesses (access.h, N_ACCESS of them). */
enum open_class {
	OPEN_SOCKET = N_ACCESS,
	OPEN_BIND,
	OPEN_CONNECT,
	OPEN_CAPABILITY,
	OPEN_PTRACE,
	OPEN_MOUNT,
	OPEN_MODULE_LOAD,
	OPEN_SIGNAL,
	N_OPEN_CLASSES,
};

static const char *const other_names[N_OPEN_CLASSES - N_ACCESS] = {
	"socket", "bind", "connect", "capability", "ptrace", "mount", "module_load", "signal",
};

static const char *class_name(unsigned int class)
{
	return class < N_ACCESS ? access_names[class] : other_names[class - N_ACCESS];
}

/* The classes rule @r is about, a bit each. */
static unsigned int rule_classes(const struct policy_rule *r)
{
	switch (r->kind) {
	case RULE_FILES:
		return r->file.access;
	case RULE_EXEC:
		return ACCESS_EXEC;
	case RULE_NETWORK:
		return 1u << (OPEN_SOCKET + r->net.op);
	case RULE_CAPABILITY:
		return 1u << OPEN_CAPABILITY;
	case RULE_PTRACE:
		return 1u << OPEN_PTRACE;
	case RULE_MOUNT:
		return 1u << OPEN_MOUNT;
	case RULE_MODULE_LOAD:
		return 1u << OPEN_MODULE_LOAD;
	case RULE_SIGNAL:
		return 1u << OPEN_SIGNAL;
	}
	return 0;
}

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

unsigned int policy_warnings(const struct policy *p, char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = len };
	unsigned int closed = 0, c;
	size_t i;

	_Static_assert(NET_SOCKET == 0 && NET_BIND == 1 && NET_CONNECT == 2,
		       "network ops in class order");
	if (len)
		buf[0] = 0;
	if (p->no_self_protection)
		add(&o, "self-protection is off: a task in the subtree may undo the policy");
	if (p->audit)
		add(&o, "audit mode: the policy reports and denies nothing");
	for (i = 0; i < p->n_rules; i++)
		if (p->rules[i].deny || p->default_deny)
			closed |= rule_classes(&p->rules[i]);
	for (c = 0; c < N_OPEN_CLASSES; c++)
		if (!(closed & (1u << c)))
			add(&o, "%s is left open: no rule %s it", class_name(c),
			    p->default_deny ? "allows or denies" : "denies");
	return o.n;
}
