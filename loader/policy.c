// SPDX-License-Identifier: GPL-2.0
/*
 * The policy parser: YAML (libyaml's document API) to struct policy, with
 * every error naming FILE:LINE:COL. It goes on after an error to the
 * next rule or top-level key, so that every error is said at once.
 */
#include "policy.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <yaml.h>

#include "../bpf-progs/policy/limits.h"
#include "errors.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A policy's own keys, X(key) each: what parse_top() takes. */
#define TOP_KEYS(X) X(name) X(mode) X(default) X(closed) X(rules) X(self_protection)
/* A rule's keys besides its kind: what parse_rule() takes, kind by kind. */
#define RULE_KEYS(X) X(action) X(access) X(family) X(type) X(protocol) X(cidr) X(ports) X(match)

#define KEY_ENUM(key) KEY_##key,
enum top_key { TOP_KEYS(KEY_ENUM) NR_TOP_KEYS };
enum rule_key { RULE_KEYS(KEY_ENUM) NR_RULE_KEYS };
#undef KEY_ENUM

#define KEY_NAME(key) #key,
static const char *const top_keys[NR_TOP_KEYS] = { TOP_KEYS(KEY_NAME) };
static const char *const rule_keys[NR_RULE_KEYS] = { RULE_KEYS(KEY_NAME) };
#undef KEY_NAME

/* "name, mode, ...": for the message about a key that is none of them. */
#define KEY_TEXT(key) ", " #key
static const char *const top_keys_text = &TOP_KEYS(KEY_TEXT)[2];
#undef KEY_TEXT

struct ctx {
	const char *file;
	yaml_document_t *doc;
	char *err;
	size_t errlen;
	unsigned int errors;	/* found so far */
	unsigned int said;	/* of them, said in err, one a line */
};

static const char *const kind_names[] = {
	[RULE_FILES] = "files",
	[RULE_EXEC] = "exec",
	[RULE_NETWORK] = "network",
	[RULE_PTRACE] = "ptrace",
	[RULE_MOUNT] = "mount",
	[RULE_MODULE_LOAD] = "module_load",
	[RULE_SIGNAL] = "signal",
	[RULE_CAPABILITY] = "capability",
};

#define N_KINDS ARRAY_SIZE(kind_names)

/* Capability names, by number (include/uapi/linux/capability.h, 6.1). */
static const char *const cap_names[] = {
	"chown", "dac_override", "dac_read_search", "fowner", "fsetid",
	"kill", "setgid", "setuid", "setpcap", "linux_immutable",
	"net_bind_service", "net_broadcast", "net_admin", "net_raw",
	"ipc_lock", "ipc_owner", "sys_module", "sys_rawio", "sys_chroot",
	"sys_ptrace", "sys_pacct", "sys_admin", "sys_boot", "sys_nice",
	"sys_resource", "sys_time", "sys_tty_config", "mknod", "lease",
	"audit_write", "audit_control", "setfcap", "mac_override",
	"mac_admin", "syslog", "wake_alarm", "block_suspend", "audit_read",
	"perfmon", "bpf", "checkpoint_restore",
};

#define N_CAPS ARRAY_SIZE(cap_names)

const char *rule_kind_name(enum rule_kind kind)
{
	return (size_t)kind < N_KINDS ? kind_names[kind] : "?";
}

/* Room kept at the end of err for "... and N more errors". */
#define CUT_ROOM 48

/*
 * FILE:LINE:COL, then the message, on a line after the errors before;
 * returns -1. Past POLICY_ERRORS_MAX errors, or when err has no room for
 * the whole line, the error is counted and not said (see said_cut()).
 */
__attribute__((format(printf, 4, 0)))
static int vfail_at_mark(struct ctx *c, size_t line, size_t col, const char *fmt, va_list ap)
{
	size_t off = c->said ? strlen(c->err) : 0;
	size_t room = c->errlen > CUT_ROOM ? c->errlen - CUT_ROOM : c->errlen;
	int n;

	c->errors++;
	if (c->said >= POLICY_ERRORS_MAX || off + 1 >= room)
		return -1;
	n = snprintf(c->err + off, room - off, "%s%s:%zu:%zu: ", c->said ? "\n" : "", c->file,
		     line, col);
	if (n > 0 && (size_t)n < room - off)
		n += vsnprintf(c->err + off + n, room - off - n, fmt, ap);
	if (n < 0 || (size_t)n >= room - off) {
		if (c->said)
			c->err[off] = '\0';	/* not half a line: counted as cut */
		else
			c->said++;		/* the first, cut, is better than none */
		return -1;
	}
	c->said++;
	return -1;
}

/* When errors were counted but not said: "... and N more errors" after them. */
static void said_cut(struct ctx *c)
{
	size_t off;

	if (c->errors <= c->said || !c->errlen)
		return;
	off = strlen(c->err);
	snprintf(c->err + off, c->errlen - off, "\n... and %u more error%s", c->errors - c->said,
		 c->errors - c->said == 1 ? "" : "s");
}

/* FILE:LINE:COL of @n (1:1 for none), then the message; returns -1. */
__attribute__((format(printf, 3, 4)))
static int policy_fail(struct ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail_at_mark(c, n ? n->start_mark.line + 1 : 1, n ? n->start_mark.column + 1 : 1, fmt, ap);
	va_end(ap);
	return -1;
}

static yaml_node_t *node_at(struct ctx *c, int index)
{
	return yaml_document_get_node(c->doc, index);
}

/* A scalar's text, or NULL (with an error) when @n is not a scalar. */
static const char *scalar(struct ctx *c, const yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE) {
		policy_fail(c, n, "%s must be a single value", what);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

/* Index of @s in @names (case-insensitive), or -1. */
static int lookup(const char *s, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcasecmp(s, names[i]))
			return (int)i;
	return -1;
}

static int parse_action(struct ctx *c, const yaml_node_t *n, bool *deny)
{
	static const char *const actions[] = { "allow", "deny" };
	const char *s = scalar(c, n, "action");
	int i;

	if (!s)
		return -1;
	i = lookup(s, actions, ARRAY_SIZE(actions));
	if (i < 0)
		return policy_fail(c, n, "action must be allow or deny, not '%s'", s);
	*deny = i == 1;
	return 0;
}

/*
 * FILE:LINE:COL of byte @at of scalar @n's text: exact for a plain
 * scalar on one line, one further for a quoted one.
 */
__attribute__((format(printf, 4, 5)))
static int fail_at(struct ctx *c, const yaml_node_t *n, size_t at, const char *fmt, ...)
{
	size_t quoted = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
			n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	va_list ap;

	va_start(ap, fmt);
	vfail_at_mark(c, n->start_mark.line + 1, n->start_mark.column + 1 + quoted + at, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * From the first component that has a '*' on (a rule's anchor is the
 * directory above it): each component '*' or a name without one, at
 * most LAB_MGLOB_COMPS of them, each name at most LAB_PATH_NAME_LEN - 1
 * bytes.
 */
static int parse_mglob(struct ctx *c, const yaml_node_t *n, const char *path, const char *first)
{
	const char *comp = first, *end;
	unsigned int count = 0;

	for (; *comp; comp = *end ? end + 1 : end) {
		size_t len;

		end = strchr(comp, '/');
		if (!end)
			end = comp + strlen(comp);
		len = (size_t)(end - comp);
		if (++count > LAB_MGLOB_COMPS)
			return fail_at(c, n, (size_t)(comp - path),
				       "at most %d components from the first '*' on",
				       LAB_MGLOB_COMPS);
		if (memchr(comp, '*', len) && (len != 1))
			return fail_at(c, n, (size_t)((const char *)memchr(comp, '*', len) - path),
				       "a '*' above the last component, or before a final "
				       "'/**', must be a whole component ('/home/*/.ssh'): "
				       "'%.*s' is not supported yet", (int)len, comp);
		if (len >= LAB_PATH_NAME_LEN)
			return fail_at(c, n, (size_t)(comp - path),
				       "a name below a '*' is at most %d bytes",
				       LAB_PATH_NAME_LEN - 1);
		/* the engine compares names: these would never match one */
		if (!len || (comp[0] == '.' && (len == 1 || (len == 2 && comp[1] == '.'))))
			return fail_at(c, n, (size_t)(comp - path),
				       "an empty, '.' or '..' component below a '*' names "
				       "nothing: write the path without it");
	}
	return 0;
}

/*
 * A files or exec rule's path: absolute; DIR/ and two stars for a
 * subtree; one '*' within the last component for a glob, or '*' as
 * whole components below a directory (parse_mglob()). Any other '*' is
 * not supported (yet): POLICY.md.
 */
static int parse_path(struct ctx *c, const yaml_node_t *n, struct policy_rule *r)
{
	const char *s = scalar(c, n, "a path"), *last, *star;
	size_t len;

	if (!s)
		return -1;
	len = strlen(s);
	if (s[0] != '/')
		return policy_fail(c, n, "'%s' is not an absolute path", s);
	if (len >= POLICY_PATH_MAX)
		return policy_fail(c, n, "path longer than %d bytes", POLICY_PATH_MAX - 1);
	if (len >= 3 && !strcmp(s + len - 3, "/**")) {
		r->file.subtree = true;
		len = len > 3 ? len - 3 : 1;	/* the root itself, with the stars */
	}
	while (len > 1 && s[len - 1] == '/')
		len--;			/* "/etc/" is "/etc" */
	memcpy(r->file.path, s, len);
	r->file.path[len] = '\0';
	last = strrchr(r->file.path, '/') + 1;
	star = strchr(r->file.path, '*');
	if (star && (star < last || r->file.subtree)) {
		const char *first = star;

		while (first[-1] != '/')
			first--;	/* the component's start */
		r->file.mglob = true;
		return parse_mglob(c, n, r->file.path, first);
	}
	if (star && strchr(star + 1, '*'))
		return fail_at(c, n, (size_t)(strchr(star + 1, '*') - r->file.path),
			       "one '*' a name: '%s' has more", last);
	r->file.glob = star != NULL;
	return 0;
}

/*
 * What a rule by path can name: a name of at most LAB_PATH_NAME_LEN - 1
 * bytes; and a glob is by path.
 */
static int check_path_rule(struct ctx *c, const yaml_node_t *n, const struct policy_rule *r)
{
	const char *last = strrchr(r->file.path, '/') + 1;

	if ((r->file.glob || r->file.mglob) && r->file.by_inode)
		return policy_fail(c, n, "a glob matches names: it cannot be 'match: inode'");
	if (r->file.subtree || r->file.by_inode || r->file.mglob || !*last)
		return 0;	/* a subtree, an inode, "/", or parse_mglob()'s */
	if (strlen(last) >= LAB_PATH_NAME_LEN)
		return fail_at(c, n, (size_t)(last - r->file.path),
			       "a name longer than %d bytes cannot be matched by path: "
			       "add 'match: inode'", LAB_PATH_NAME_LEN - 1);
	return 0;
}

/*
 * Call @one for @n, or for each item of @n when it is a list, which may
 * not be empty: the keys that take one value or a list of them.
 */
static int for_each_value(struct ctx *c, const yaml_node_t *n, const char *what,
			  int (*one)(struct ctx *, const yaml_node_t *, void *), void *arg)
{
	yaml_node_item_t *it;

	if (n->type == YAML_SCALAR_NODE)
		return one(c, n, arg);
	if (n->type != YAML_SEQUENCE_NODE)
		return policy_fail(c, n, "%s must be one value or a list of them", what);
	if (n->data.sequence.items.start == n->data.sequence.items.top)
		return policy_fail(c, n, "%s is an empty list", what);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
		if (one(c, node_at(c, *it), arg))
			return -1;
	return 0;
}

static int one_access(struct ctx *c, const yaml_node_t *n, void *arg)
{
	unsigned int *access = arg;
	const char *s = scalar(c, n, "an access");
	int i;

	if (!s)
		return -1;
	i = lookup(s, access_names, N_ACCESS);
	if (i < 0)
		return policy_fail(c, n, "unknown access '%s' (" ACCESS_NAMES_TEXT ")", s);
	if (*access & (1u << i))
		return policy_fail(c, n, "access '%s' listed twice", s);
	*access |= 1u << i;
	return 0;
}

static int one_cap(struct ctx *c, const yaml_node_t *n, void *arg)
{
	uint64_t *caps = arg;
	const char *s = scalar(c, n, "a capability");
	int i;

	if (!s)
		return -1;
	if (!strncasecmp(s, "cap_", 4))
		s += 4;
	i = lookup(s, cap_names, N_CAPS);
	if (i < 0)
		return policy_fail(c, n, "unknown capability '%s'", s);
	*caps |= 1ull << i;
	return 0;
}

static int parse_cidr(struct ctx *c, const yaml_node_t *n, struct policy_rule *r)
{
	const char *s = scalar(c, n, "cidr");
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash;
	char *end;
	long prefix;
	int max;

	if (!s)
		return -1;
	slash = strchr(s, '/');
	if (!slash || (size_t)(slash - s) >= sizeof(addr))
		return policy_fail(c, n, "'%s' is not an address/prefix", s);
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	if (r->net.family == AF_UNIX)
		return policy_fail(c, n, "a cidr with family unix");
	if (inet_pton(AF_INET, addr, r->net.addr) == 1) {
		max = 32;
		if (r->net.family == AF_INET6)
			return policy_fail(c, n, "an IPv4 cidr with family inet6");
		r->net.family = AF_INET;
	} else if (inet_pton(AF_INET6, addr, r->net.addr) == 1) {
		max = 128;
		if (r->net.family == AF_INET)
			return policy_fail(c, n, "an IPv6 cidr with family inet");
		r->net.family = AF_INET6;
	} else {
		return policy_fail(c, n, "'%s' is not an IPv4 or IPv6 address", addr);
	}
	errno = 0;
	prefix = strtol(slash + 1, &end, 10);
	if (errno || end == slash + 1 || *end || prefix < 0 || prefix > max)
		return policy_fail(c, n, "prefix length must be 0 to %d in '%s'", max, s);
	r->net.prefix = (int)prefix;
	return 0;
}

static int parse_port(const char *s, char **end, long *port)
{
	errno = 0;
	*port = strtol(s, end, 10);
	return errno || *end == s || *port < 0 || *port > 65535 ? -1 : 0;
}

static int parse_ports(struct ctx *c, const yaml_node_t *n, struct policy_rule *r)
{
	const char *s = scalar(c, n, "ports");
	long lo, hi;
	char *end;

	if (!s)
		return -1;
	if (parse_port(s, &end, &lo))
		return policy_fail(c, n, "'%s' is not a port (0-65535) or a range lo-hi", s);
	hi = lo;
	if (*end == '-' && parse_port(end + 1, &end, &hi))
		return policy_fail(c, n, "'%s' is not a port range lo-hi", s);
	if (*end)
		return policy_fail(c, n, "'%s' is not a port (0-65535) or a range lo-hi", s);
	if (hi < lo)
		return policy_fail(c, n, "port range '%s' ends before it starts", s);
	r->net.port_min = (uint16_t)lo;
	r->net.port_max = (uint16_t)hi;
	return 0;
}

/* Values of the network rule's keys. */
static const char *const net_ops[] = { "socket", "bind", "connect" };

_Static_assert(CLOSED_SOCKET + NET_BIND == CLOSED_BIND &&
	       CLOSED_SOCKET + NET_CONNECT == CLOSED_CONNECT, "closed: in net_op order");

/* closed:'s names: the accesses, then the network's three and capability */
const char *policy_closed_name(unsigned int bit)
{
	if (bit < N_ACCESS)
		return access_names[bit];
	if (bit < CLOSED_CAPABILITY)
		return net_ops[bit - CLOSED_SOCKET];
	return bit == CLOSED_CAPABILITY ? "capability" : "?";
}

static int one_closed(struct ctx *c, const yaml_node_t *n, void *arg)
{
	unsigned int *closed = arg, i;
	const char *s = scalar(c, n, "a class");

	if (!s)
		return -1;
	for (i = 0; i < N_CLOSED; i++)
		if (!strcmp(s, policy_closed_name(i)))
			break;
	if (i == N_CLOSED)
		return policy_fail(c, n, "unknown class '%s' (" CLOSED_NAMES_TEXT ")", s);
	if (*closed & (1u << i))
		return policy_fail(c, n, "class '%s' listed twice", s);
	*closed |= 1u << i;
	return 0;
}
static const char *const families[] = { "any", "unix", "inet", "inet6" };
static const int family_values[] = { 0, AF_UNIX, AF_INET, AF_INET6 };
static const char *const types[] = { "any", "stream", "dgram", "raw" };
static const int type_values[] = { 0, SOCK_STREAM, SOCK_DGRAM, SOCK_RAW };
static const char *const protocols[] = { "any", "tcp", "udp", "icmp", "icmpv6", "sctp" };
static const int protocol_values[] = { 0, IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMP, IPPROTO_ICMPV6,
				       IPPROTO_SCTP };

static int parse_choice(struct ctx *c, const yaml_node_t *n, const char *what,
			const char *const *names, const int *values, size_t count, int *out)
{
	const char *s = scalar(c, n, what);
	int i;

	if (!s)
		return -1;
	i = lookup(s, names, count);
	if (i < 0)
		return policy_fail(c, n, "unknown %s '%s'", what, s);
	*out = values ? values[i] : i;
	return 0;
}

/* match: path (the default) or inode (the file at apply, wherever it goes). */
static int parse_match(struct ctx *c, const yaml_node_t *n, struct policy_rule *r)
{
	static const char *const matches[] = { "path", "inode" };
	int v;

	if (parse_choice(c, n, "match", matches, NULL, ARRAY_SIZE(matches), &v))
		return -1;
	r->file.by_inode = v == 1;
	return 0;
}

/* A value's name in @names by its number in @values, or NULL. */
static const char *name_of(int value, const char *const *names, const int *values, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (values[i] == value)
			return names[i];
	return NULL;
}

const char *policy_family_name(int family)
{
	return name_of(family, families, family_values, ARRAY_SIZE(families));
}

const char *policy_type_name(int type)
{
	return name_of(type, types, type_values, ARRAY_SIZE(types));
}

const char *policy_cap_name(unsigned int cap)
{
	return cap < N_CAPS ? cap_names[cap] : NULL;
}

/* Which keys each kind of rule takes besides its own and "action". */
static bool key_allowed(enum rule_kind kind, enum net_op op, int key)
{
	switch (kind) {
	case RULE_FILES:
		return key == KEY_access || key == KEY_match;
	case RULE_EXEC:
		return key == KEY_match;
	case RULE_NETWORK:
		if (key == KEY_family || key == KEY_protocol)
			return true;
		if (key == KEY_type)
			return op == NET_SOCKET;
		return op != NET_SOCKET && (key == KEY_cidr || key == KEY_ports);
	default:
		return false;
	}
}

/* A rule's key, matched as written (unlike values, and kinds): enum rule_key, or -1. */
static int rule_key(const char *k)
{
	int i;

	for (i = 0; i < NR_RULE_KEYS; i++)
		if (!strcmp(k, rule_keys[i]))
			return i;
	return -1;
}

/* Rules whose value is the action itself: "ptrace: deny". */
static bool kind_is_bare(enum rule_kind kind)
{
	return kind == RULE_PTRACE || kind == RULE_MOUNT ||
	       kind == RULE_MODULE_LOAD || kind == RULE_SIGNAL;
}

static int parse_rule(struct ctx *c, const yaml_node_t *n, struct policy_rule *r)
{
	const yaml_node_t *kind_value = NULL, *action = NULL, *cidr = NULL;
	int bad = 0;
	yaml_node_pair_t *pair;
	const yaml_node_t *key, *value;
	const char *k;
	int kind = -1, i, op = 0, rk;

	memset(r, 0, sizeof(*r));
	r->line = (unsigned int)n->start_mark.line + 1;
	r->col = (unsigned int)n->start_mark.column + 1;
	r->net.prefix = -1;
	r->net.port_max = 65535;
	if (n->type != YAML_MAPPING_NODE)
		return policy_fail(c, n, "a rule must be a mapping, e.g. '- files: /etc/shadow'");

	/* First pass: the rule's kind, which says what the other keys mean. */
	for (pair = n->data.mapping.pairs.start; pair < n->data.mapping.pairs.top; pair++) {
		yaml_node_pair_t *prev;

		key = node_at(c, pair->key);
		k = scalar(c, key, "a key");
		if (!k)
			return -1;
		for (prev = n->data.mapping.pairs.start; prev < pair; prev++)
			if (!strcmp(k, (const char *)node_at(c, prev->key)->data.scalar.value))
				return policy_fail(c, key, "'%s' given twice", k);
		i = lookup(k, kind_names, N_KINDS);
		if (i < 0)
			continue;
		if (kind >= 0)
			return policy_fail(c, key,
					   "a rule has one kind, and this one has %s and %s",
					   kind_names[kind], k);
		kind = i;
		kind_value = node_at(c, pair->value);
	}
	if (kind < 0)
		return policy_fail(c, n,
				   "a rule needs a kind: files, exec, network, ptrace, mount, module_load, signal or capability");
	r->kind = (enum rule_kind)kind;

	switch (r->kind) {
	case RULE_FILES:
	case RULE_EXEC:
		if (parse_path(c, kind_value, r))
			return -1;
		r->file.access = r->kind == RULE_EXEC ? ACCESS_EXEC : 0;
		break;
	case RULE_NETWORK:
		if (parse_choice(c, kind_value, "network operation", net_ops, NULL,
				 ARRAY_SIZE(net_ops), &op))
			return -1;
		r->net.op = (enum net_op)op;
		break;
	case RULE_CAPABILITY:
		if (for_each_value(c, kind_value, "capability", one_cap, &r->caps))
			return -1;
		break;
	default:
		action = kind_value;
		break;
	}

	/* Second pass: the other keys; an error in one, the next are looked at too. */
	for (pair = n->data.mapping.pairs.start; pair < n->data.mapping.pairs.top; pair++) {
		key = node_at(c, pair->key);
		value = node_at(c, pair->value);
		k = (const char *)key->data.scalar.value;
		if (lookup(k, kind_names, N_KINDS) >= 0)
			continue;
		rk = rule_key(k);
		if (rk == KEY_action) {
			if (kind_is_bare(r->kind))
				bad = policy_fail(c, key,
						  "%s takes its action as its value: '%s: deny'",
						  kind_names[kind], kind_names[kind]);
			else if (action)
				bad = policy_fail(c, key, "action given twice");
			else
				action = value;
			continue;
		}
		if (!key_allowed(r->kind, r->net.op, rk)) {
			bad = policy_fail(c, key, "unknown key '%s' in a %s rule", k,
					  kind_names[kind]);
			continue;
		}
		switch (rk) {
		case KEY_access:
			if (for_each_value(c, value, "access", one_access, &r->file.access))
				bad = -1;
			break;
		case KEY_family:
			if (parse_choice(c, value, "family", families, family_values,
					 ARRAY_SIZE(families), &r->net.family))
				bad = -1;
			break;
		case KEY_type:
			if (parse_choice(c, value, "socket type", types, type_values,
					 ARRAY_SIZE(types), &r->net.type))
				bad = -1;
			break;
		case KEY_protocol:
			if (parse_choice(c, value, "protocol", protocols, protocol_values,
					 ARRAY_SIZE(protocols), &r->net.protocol))
				bad = -1;
			break;
		case KEY_cidr:
			cidr = value;	/* once the family is known, wherever it is */
			break;
		case KEY_ports:
			if (parse_ports(c, value, r))
				bad = -1;
			break;
		case KEY_match:
			if (parse_match(c, value, r))
				bad = -1;
			break;
		}
	}
	if (cidr && parse_cidr(c, cidr, r))
		bad = -1;
	if (!action && !bad)
		bad = policy_fail(c, n, "the %s rule needs 'action: allow' or 'action: deny'",
				  kind_names[kind]);
	else if (action && parse_action(c, action, &r->deny))
		bad = -1;
	if (bad)
		return -1;	/* every error in the rule said */
	if (r->kind == RULE_FILES && !r->file.access)
		return policy_fail(c, n,
				   "the files rule needs 'access:' (read, write, exec, create, unlink)");
	if ((r->kind == RULE_FILES || r->kind == RULE_EXEC) && check_path_rule(c, kind_value, r))
		return -1;
	return 0;
}

static bool same_rule(const struct policy_rule *a, const struct policy_rule *b)
{
	struct policy_rule x = *a, y = *b;

	x.line = y.line = 0;
	/* parse_rule() zeroes a rule, padding and union included, first. */
	return !memcmp(&x, &y, sizeof(x)); // NOLINT(bugprone-suspicious-memory-comparison)
}

static int parse_rules(struct ctx *c, const yaml_node_t *n, struct policy *p)
{
	yaml_node_item_t *it;
	size_t count, i, j;
	bool *ok;

	if (n->type != YAML_SEQUENCE_NODE)
		return policy_fail(c, n, "rules must be a list ('- files: ...')");
	count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (!count)
		return policy_fail(c, n, "rules is empty");
	if (count > LAB_MAX_RULES)
		return policy_fail(c, n, "%zu rules, more than %d", count, LAB_MAX_RULES);
	p->rules = calloc(count, sizeof(*p->rules));
	if (!p->rules)
		return policy_fail(c, n, "out of memory");
	ok = calloc(count, sizeof(*ok));
	if (!ok)
		return policy_fail(c, n, "out of memory");
	/* a rule in error is said and skipped: the next ones are checked too */
	for (it = n->data.sequence.items.start, i = 0; i < count; it++, i++) {
		if (parse_rule(c, node_at(c, *it), &p->rules[i]))
			continue;
		ok[i] = true;
		for (j = 0; j < i && ok[i]; j++)
			if (ok[j] && same_rule(&p->rules[i], &p->rules[j])) {
				policy_fail(c, node_at(c, *it), "the same rule as line %u",
					    p->rules[j].line);
				ok[i] = false;
			}
	}
	free(ok);
	p->n_rules = count;
	return c->errors ? -1 : 0;
}

static int parse_name(struct ctx *c, const yaml_node_t *value, struct policy *p)
{
	const char *s = scalar(c, value, "name");
	size_t i;

	if (!s)
		return -1;
	if (!*s || strlen(s) >= POLICY_NAME_MAX)
		return policy_fail(c, value, "name must be 1 to %d characters",
				   POLICY_NAME_MAX - 1);
	for (i = 0; s[i]; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
			return policy_fail(c, value,
					   "name may only hold letters, digits, '.', '_' and '-'");
	snprintf(p->name, sizeof(p->name), "%s", s);
	return 0;
}

static int parse_top(struct ctx *c, struct policy *p)
{
	static const char *const switches[] = { "on", "true", "yes", "off", "false", "no" };
	static const int switch_values[] = { 1, 1, 1, 0, 0, 0 };
	static const char *const modes[] = { "enforce", "audit" };
	static const char *const defaults[] = { "allow", "deny" };
	const yaml_node_t *seen[NR_TOP_KEYS] = { NULL }, *root, *key, *value;
	yaml_node_pair_t *pair;
	const char *s;
	int i, v = 0;

	root = yaml_document_get_root_node(c->doc);
	if (!root)
		return policy_fail(c, NULL, "empty policy: it needs 'name:' and 'rules:'");
	if (root->type != YAML_MAPPING_NODE)
		return policy_fail(c, root,
				   "a policy is a mapping with name, mode, default and rules");
	/* a key in error is said and skipped: the next ones are checked too */
	for (pair = root->data.mapping.pairs.start; pair < root->data.mapping.pairs.top; pair++) {
		key = node_at(c, pair->key);
		s = scalar(c, key, "a key");
		if (!s)
			continue;
		i = lookup(s, top_keys, NR_TOP_KEYS);
		if (i < 0) {
			policy_fail(c, key, "unknown key '%s' (%s)", s, top_keys_text);
			continue;
		}
		if (seen[i]) {
			policy_fail(c, key, "'%s' given twice", s);
			continue;
		}
		seen[i] = key;
		value = node_at(c, pair->value);
		switch ((enum top_key)i) {
		case KEY_name:
			parse_name(c, value, p);
			break;
		case KEY_mode:
			if (!parse_choice(c, value, "mode", modes, NULL, ARRAY_SIZE(modes), &v))
				p->audit = v == 1;
			break;
		case KEY_default:
			if (!parse_choice(c, value, "default", defaults, NULL, ARRAY_SIZE(defaults),
					  &v))
				p->default_deny = v == 1;
			break;
		case KEY_closed:
			for_each_value(c, value, "closed", one_closed, &p->closed);
			break;
		case KEY_rules:
			parse_rules(c, value, p);
			break;
		case KEY_self_protection:
			if (!parse_choice(c, value, "self_protection", switches, switch_values,
					  ARRAY_SIZE(switches), &v))
				p->no_self_protection = !v;
			break;
		case NR_TOP_KEYS:
			break;
		}
	}
	if (!seen[KEY_name])
		policy_fail(c, root, "the policy needs a 'name:'");
	if (!seen[KEY_rules])
		policy_fail(c, root, "the policy needs 'rules:'");
	return c->errors ? -1 : 0;
}

/*
 * Where a reader error (bytes that are not UTF-8, a control character)
 * is: libyaml gives those a byte offset, and no line and column.
 */
static yaml_mark_t offset_mark(const char *buf, size_t len, size_t offset)
{
	yaml_mark_t mark = { .index = offset };
	size_t i;

	for (i = 0; i < offset && i < len; i++) {
		if (buf[i] == '\n') {
			mark.line++;
			mark.column = 0;
		} else if (((unsigned char)buf[i] & 0xc0) != 0x80) {
			mark.column++;	/* characters, as libyaml counts columns */
		}
	}
	return mark;
}

/* FILE:LINE:COL of @mark, then the message; returns -1. */
__attribute__((format(printf, 3, 4)))
static int fail_mark(struct ctx *c, yaml_mark_t mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail_at_mark(c, mark.line + 1, mark.column + 1, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The stream, event by event, before it is loaded: one document and
 * nothing after it (a second document, or text after '...', would be
 * read by nobody: rules a reader of the file sees but lsmctl does not);
 * no NUL inside a scalar (it would cut the value: "/\0/etc/passwd" is
 * not "/"); at most POLICY_DEPTH_MAX collections nested and
 * POLICY_EVENTS_MAX events, so that libyaml's work is bounded. The
 * errors are said in @c, a YAML syntax error too.
 */
static int check_stream(struct ctx *c, const char *buf, size_t len)
{
	unsigned int depth = 0, docs = 0;
	bool ended = false;	/* the first document's end seen */
	size_t events = 0;
	yaml_parser_t parser;
	yaml_event_t ev;
	bool done = false;

	if (!yaml_parser_initialize(&parser))
		return policy_fail(c, NULL, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			yaml_mark_t mark = parser.problem_mark;

			if (parser.error == YAML_READER_ERROR &&
			    parser.encoding == YAML_UTF8_ENCODING)
				mark = offset_mark(buf, len, parser.problem_offset);
			if (ended)	/* libyaml wants '---' after '...': text is no document */
				fail_mark(c, mark, "text after '...': a policy is one document");
			else
				fail_mark(c, mark, "not valid YAML: %s",
					  parser.problem ? parser.problem : "unknown error");
			break;
		}
		if (++events > POLICY_EVENTS_MAX) {
			fail_mark(c, ev.start_mark, "more than %d YAML events: not a policy (at most "
				  "%d rules)", POLICY_EVENTS_MAX, LAB_MAX_RULES);
			done = true;
		}
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (docs++) {
				fail_mark(c, ev.start_mark, "a second YAML document, or text after "
					  "'...': a policy is one document");
				done = true;
			}
			break;
		case YAML_DOCUMENT_END_EVENT:
			ended = true;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > POLICY_DEPTH_MAX) {
				fail_mark(c, ev.start_mark, "nested deeper than %d: not a policy",
					  POLICY_DEPTH_MAX);
				done = true;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_SCALAR_EVENT:
			if (strlen((const char *)ev.data.scalar.value) != ev.data.scalar.length)
				fail_mark(c, ev.start_mark, "a NUL byte inside '%.64s': refused, it "
					  "would cut the value there",
					  (const char *)ev.data.scalar.value);
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return c->errors ? -1 : 0;
}

int policy_parse(const char *name, const char *buf, size_t len, struct policy *p,
		 char *err, size_t errlen)
{
	struct ctx c = { .file = name, .err = err, .errlen = errlen };
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc;

	memset(p, 0, sizeof(*p));
	if (check_stream(&c, buf, len)) {
		said_cut(&c);
		return -1;
	}
	if (!yaml_parser_initialize(&parser))
		return errf(err, errlen, -1, "%s: out of memory", name);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_mark_t mark = parser.problem_mark;

		if (parser.error == YAML_READER_ERROR && parser.encoding == YAML_UTF8_ENCODING)
			mark = offset_mark(buf, len, parser.problem_offset);
		errf(err, errlen, -1, "%s:%zu:%zu: not valid YAML: %s", name, mark.line + 1,
		     mark.column + 1, parser.problem ? parser.problem : "unknown error");
		yaml_parser_delete(&parser);
		return -1;
	}
	c.doc = &doc;
	rc = parse_top(&c, p);
	said_cut(&c);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (rc)
		policy_free(p);
	return rc;
}

int policy_parse_file(const char *path, struct policy *p, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t len;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!f)
		return errf(err, errlen, -1, "%s: %s", path, strerror(errno));
	buf = malloc(POLICY_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		return errf(err, errlen, -1, "%s: out of memory", path);
	}
	len = fread(buf, 1, POLICY_FILE_MAX + 1, f);
	if (ferror(f) || len > POLICY_FILE_MAX) {
		errf(err, errlen, -1, "%s: %s", path,
		     ferror(f) ? strerror(errno) : "larger than 1 MiB: not a policy");
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	rc = policy_parse(path, buf, len, p, err, errlen);
	free(buf);
	return rc;
}

void policy_free(struct policy *p)
{
	free(p->rules);
	memset(p, 0, sizeof(*p));
}
