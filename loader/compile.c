// SPDX-License-Identifier: GPL-2.0
/*
 * The rule compiler (see compile.h). What each rule kind becomes, and
 * which hooks it needs, is documented in loader/POLICY.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "compile.h"
#include "devices.h"
#include "errors.h"
#include "text.h"

#define BIT(n) (1ull << (n))
#define FILLER_MAJOR	LAB_MAJOR(~0U)	/* the largest major: no such device */

#define HOOK_NAME(ENUM, hook)	[LAB_HOOK_##ENUM] = #hook,
static const char *const hook_names[LAB_NR_HOOKS] = { LAB_HOOKS(HOOK_NAME) };
#undef HOOK_NAME

static const char *const class_names[LAB_NR_CLASSES] = {
#define CLASS_NAME(E, n)	[LAB_##E] = #n,
	LAB_ACCESSES(CLASS_NAME, )
#undef CLASS_NAME
	[LAB_SOCKET] = "socket",
	[LAB_BIND] = "bind",
	[LAB_CONNECT] = "connect",
	[LAB_CAPABILITY] = "capability",
	[LAB_PTRACE] = "ptrace",
	[LAB_MOUNT] = "mount",
	[LAB_MODULE_LOAD] = "module_load",
	[LAB_SIGNAL] = "signal",
	[LAB_SELF] = "self_protection",
};

/* closed:'s bits are the engine's classes (policy.h) */
_Static_assert((int)CLOSED_SOCKET == LAB_SOCKET && (int)CLOSED_BIND == LAB_BIND &&
	       (int)CLOSED_CONNECT == LAB_CONNECT && (int)CLOSED_CAPABILITY == LAB_CAPABILITY,
	       "closed: and the engine's classes");

/* The hooks each class of access is checked at. */
static const __u64 class_hooks[LAB_NR_CLASSES] = {
	[LAB_READ] = BIT(LAB_HOOK_FILE_OPEN),
	[LAB_WRITE] = BIT(LAB_HOOK_FILE_OPEN),
	/* file_open: exec's own opens, the ELF interpreter's among them */
	[LAB_EXEC] = BIT(LAB_HOOK_BPRM_CHECK) | BIT(LAB_HOOK_FILE_OPEN),
	/* file_open: O_TMPFILE, which calls no inode_create in 6.1 */
	[LAB_CREATE] = BIT(LAB_HOOK_FILE_OPEN) |
		       BIT(LAB_HOOK_INODE_CREATE) | BIT(LAB_HOOK_INODE_MKDIR) |
		       BIT(LAB_HOOK_INODE_MKNOD) | BIT(LAB_HOOK_INODE_SYMLINK) |
		       BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME),
	[LAB_UNLINK] = BIT(LAB_HOOK_INODE_UNLINK) | BIT(LAB_HOOK_INODE_RMDIR) |
		       BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME),
	[LAB_SOCKET] = BIT(LAB_HOOK_SOCKET_CREATE),
	/*
	 * sctp_bind_connect: SCTP's address lists (compile() drops it
	 * where no rule can match SCTP, probe_kernel_hooks() without SCTP)
	 */
	[LAB_BIND] = BIT(LAB_HOOK_SOCKET_BIND) | BIT(LAB_HOOK_SCTP_BIND_CONNECT),
	[LAB_CONNECT] = BIT(LAB_HOOK_SOCKET_CONNECT) | BIT(LAB_HOOK_SOCKET_SENDMSG) |
			BIT(LAB_HOOK_SCTP_BIND_CONNECT),
	[LAB_CAPABILITY] = BIT(LAB_HOOK_CAPABLE),
	[LAB_PTRACE] = BIT(LAB_HOOK_PTRACE_ACCESS) | BIT(LAB_HOOK_PTRACE_TRACEME),
	/* capable: the new mount API's CAP_SYS_ADMIN check (mount_api.bpf.h) */
	[LAB_MOUNT] = BIT(LAB_HOOK_SB_MOUNT) | BIT(LAB_HOOK_MOVE_MOUNT) | BIT(LAB_HOOK_SB_UMOUNT) |
		      BIT(LAB_HOOK_CAPABLE),
	[LAB_MODULE_LOAD] = BIT(LAB_HOOK_KERNEL_LOAD_DATA) | BIT(LAB_HOOK_KERNEL_READ_FILE),
	[LAB_SIGNAL] = BIT(LAB_HOOK_TASK_KILL),
	/* the policy's own part of self-protection; the guard has the rest (POLICY.md) */
	[LAB_SELF] = BIT(LAB_HOOK_FILE_OPEN),
};

const char *hook_name(unsigned int hook)
{
	return hook < LAB_NR_HOOKS ? hook_names[hook] : "?";
}

const char *class_name(unsigned int class)
{
	return class < LAB_NR_CLASSES ? class_names[class] : "?";
}

const char *hook_rule_kinds(unsigned int hook)
{
	static char buf[128];
	size_t len = 0;
	unsigned int c;

	buf[0] = 0;
	for (c = 0; c < LAB_NR_CLASSES; c++)
		if (class_hooks[c] & BIT(hook))
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? ", " : "",
					class_names[c]);
	return buf;
}

/* Where the compiler says what it found: errors, and with check's, warnings. */
struct said {
	const char *file;
	char *err, *warn;	/* one message a line; no @warn: warnings are errors */
	size_t errlen, warnlen;
	unsigned int errors, warnings;
};

/* FILE:LINE:COL of @r (FILE:0:0 for none), then the message, on a line of its own. */
__attribute__((format(printf, 6, 0)))
static void vsay(char *buf, size_t len, unsigned int *count, const struct said *s,
		 const struct policy_rule *r, const char *fmt, va_list ap)
{
	size_t off = *count ? strlen(buf) : 0;
	int n;

	if (off + 1 >= len)
		return;	/* no room for more: the first ones are said */
	n = snprintf(buf + off, len - off, "%s%s:%u:%u: ", *count ? "\n" : "", s->file,
		     r ? r->line : 0, r ? r->col : 0);
	(*count)++;
	if (n >= 0 && (size_t)n < len - off)
		verrf(buf + off + n, len - off - n, -1, fmt, ap);
}

__attribute__((format(printf, 3, 4)))
static int compile_fail(struct said *s, const struct policy_rule *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(s->err, s->errlen, &s->errors, s, r, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 3, 4)))
static void warn(struct said *s, const struct policy_rule *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(s->warn, s->warnlen, &s->warnings, s, r, fmt, ap);
	va_end(ap);
}

static const char *family_name(int family)
{
	switch (family) {
	case AF_UNIX: return "unix";
	case AF_INET: return "inet";
	case AF_INET6: return "inet6";
	default: return "any";
	}
}

static const char *protocol_name(int protocol)
{
	switch (protocol) {
	case IPPROTO_TCP: return "tcp";
	case IPPROTO_UDP: return "udp";
	case IPPROTO_ICMP: return "icmp";
	case IPPROTO_ICMPV6: return "icmpv6";
	case IPPROTO_SCTP: return "sctp";
	default: return "any";
	}
}

static const char *type_name(int type)
{
	switch (type) {
	case SOCK_STREAM: return "stream";
	case SOCK_DGRAM: return "dgram";
	case SOCK_RAW: return "raw";
	default: return "any";
	}
}

/* snprintf that may cut a long rule's text short, on purpose. */
__attribute__((format(printf, 3, 4)))
static void put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* "/" and two stars after a subtree rule's path; after "/" itself, the stars. */
static const char *subtree_suffix(const struct policy_rule *r)
{
	if (!r->file.subtree)
		return "";
	return strcmp(r->file.path, "/") ? "/**" : "**";
}

/* What a rule looks like in show, stats and events: one line, YAML-ish. */
static void describe(const struct policy_rule *r, char *buf, size_t len)
{
	static const char *const ops[] = { "socket", "bind", "connect" };
	char access[RULE_TEXT_MAX] = "", addr[INET6_ADDRSTRLEN + 4] = "";	/* and /128 */
	char path[4 * RULE_TEXT_MAX];
	unsigned int i;

	/* a learnt rule's path is a confined task's choosing: escaped as names are */
	if (r->kind == RULE_FILES || r->kind == RULE_EXEC)
		text_escaped(path, sizeof(path), r->file.path);
	switch (r->kind) {
	case RULE_FILES:
		for (i = 0; i < LAB_FILE_CLASSES; i++)
			if (r->file.access & (1u << i))
				snprintf(access + strlen(access), sizeof(access) - strlen(access),
					 "%s%s", access[0] ? "," : "", class_names[i]);
		put(buf, len, "files %s%s %s %s%s", path, subtree_suffix(r),
			 access, r->deny ? "deny" : "allow", r->file.by_inode ? " match inode" : "");
		return;
	case RULE_EXEC:
		put(buf, len, "exec %s%s %s%s", path, subtree_suffix(r),
			 r->deny ? "deny" : "allow", r->file.by_inode ? " match inode" : "");
		return;
	case RULE_NETWORK:
		if (r->net.op == NET_SOCKET) {
			put(buf, len, "network socket family %s type %s %s", family_name(r->net.family),
				 type_name(r->net.type), r->deny ? "deny" : "allow");
			return;
		}
		if (r->net.prefix >= 0) {	/* address/prefix, /0 included */
			inet_ntop(r->net.family == AF_INET6 ? AF_INET6 : AF_INET, r->net.addr,
				  addr, sizeof(addr));
			put(addr + strlen(addr), sizeof(addr) - strlen(addr), "/%d", r->net.prefix);
		}
		put(buf, len, "network %s family %s protocol %s address %s ports %u-%u %s", ops[r->net.op],
			 family_name(r->net.family), protocol_name(r->net.protocol),
			 r->net.prefix >= 0 ? addr : "any", r->net.port_min, r->net.port_max,
			 r->deny ? "deny" : "allow");
		return;
	case RULE_CAPABILITY:
		/* by name, as the policy writes them (capability(7) less CAP_) */
		for (i = 0; i < 64; i++)
			if ((r->caps & (1ull << i)) && policy_cap_name(i))
				snprintf(access + strlen(access), sizeof(access) - strlen(access),
					 "%s%s", access[0] ? "," : "", policy_cap_name(i));
		put(buf, len, "capability %s %s", access, r->deny ? "deny" : "allow");
		return;
	default:
		put(buf, len, "%s %s", rule_kind_name(r->kind), r->deny ? "deny" : "allow");
		return;
	}
}

/* Set @access's classes in @rule and @deny_bits, where no earlier rule has. */
static void set_classes(__u16 *rule, __u8 *deny_bits, unsigned int access, bool deny,
			unsigned int index)
{
	unsigned int cls;

	for (cls = 0; cls < LAB_FILE_CLASSES; cls++) {
		if (!(access & (1u << cls)) || rule[cls])
			continue;
		rule[cls] = index + 1;
		if (deny)
			*deny_bits |= 1u << cls;
	}
}

static int add_file(struct compiled *c, __u64 ino, __u32 dev, bool subtree, unsigned int access,
		    bool deny, unsigned int index)
{
	struct file_entry *e = NULL;
	size_t i;

	for (i = 0; i < c->n_files; i++)
		if (c->files[i].key.ino == ino && c->files[i].key.dev == dev)
			e = &c->files[i];
	if (!e) {
		e = &c->files[c->n_files++];
		memset(e, 0, sizeof(*e));
		e->key.ino = ino;
		e->key.dev = dev;
	}
	if (subtree)
		set_classes(e->val.tree, &e->val.tree_deny, access, deny, index);
	else
		set_classes(e->val.exact, &e->val.exact_deny, access, deny, index);
	return 0;
}

/*
 * @path (errno set) cannot be resolved: an error, but for check's warning
 * when it does not exist yet.
 */
static int missing(struct said *said, const struct policy_rule *r, const char *path)
{
	if (errno == ENOENT && said->warn) {
		warn(said, r, "warning: %s: %s: apply would refuse the policy", path,
		     strerror(errno));
		return 0;
	}
	return compile_fail(said, r, "%s: %s (paths are resolved when applied)", path,
			    strerror(errno));
}

/* @name zero-padded into @words, and its hash as the engine works it out (engine.h). */
static __u64 name_hash(const char *name, __u64 words[LAB_PATH_NAME_LEN / 8])
{
	size_t len = strlen(name), k;	/* parse_path() bounds it */
	__u64 h = LAB_NAME_HASH_SEED;

	memset(words, 0, LAB_PATH_NAME_LEN);
	memcpy(words, name, len);	/* x86: the words as the engine reads them */
	for (k = 0; k * 8 < len; k++)
		h = lab_name_hash_step(h, words[k]);
	return lab_name_hash_step(h, len);
}

/* A rule by path: its entry, or NULL when another name of @dir has its hash. */
static struct path_entry *add_path(struct compiled *c, __u32 dev, __u64 dir, const char *name,
				   unsigned int access, bool deny, unsigned int index)
{
	__u64 words[LAB_PATH_NAME_LEN / 8], hash = name_hash(name, words);
	struct path_entry *e = NULL;
	size_t i;

	for (i = 0; i < c->n_paths && !e; i++) {
		if (c->paths[i].key.dev != dev || c->paths[i].key.dir != dir ||
		    c->paths[i].key.hash != hash)
			continue;
		if (memcmp(c->paths[i].val.name, words, sizeof(words)))
			return NULL;
		e = &c->paths[i];
	}
	if (!e) {
		e = &c->paths[c->n_paths++];
		memset(e, 0, sizeof(*e));
		e->key.dev = dev;
		e->key.dir = dir;
		e->key.hash = hash;
		e->val.len = (__u8)strlen(name);
		memcpy(e->val.name, words, sizeof(words));
	}
	set_classes(e->val.rule, &e->val.deny, access, deny, index);
	return e;
}

/* Directory @dir's entry of glob rules, made when it has none. */
static struct glob_entry *glob_entry(struct compiled *c, __u32 dev, __u64 dir)
{
	struct glob_entry *e;
	size_t i;

	for (i = 0; i < c->n_globs; i++)
		if (c->globs[i].key.dev == dev && c->globs[i].key.dir == dir)
			return &c->globs[i];
	e = &c->globs[c->n_globs++];
	memset(e, 0, sizeof(*e));
	e->key.dev = dev;
	e->key.dir = dir;
	return e;
}

/* A glob "PREFIX*SUFFIX" in directory @dir: 0, or -1 when it has too many. */
static int add_glob(struct compiled *c, __u32 dev, __u64 dir, const char *pattern,
		    unsigned int access, bool deny, unsigned int index)
{
	const char *star = strchr(pattern, '*');
	size_t plen = (size_t)(star - pattern), slen = strlen(star + 1), i;
	struct glob_entry *e = glob_entry(c, dev, dir);
	struct lab_glob *g = NULL;

	for (i = 0; i < e->val.n && !g; i++)
		if (e->val.pattern[i].prefix_len == plen && e->val.pattern[i].suffix_len == slen &&
		    !memcmp(e->val.pattern[i].prefix, pattern, plen) &&
		    !memcmp(e->val.pattern[i].suffix, star + 1, slen))
			g = &e->val.pattern[i];
	if (!g) {
		if (e->val.n == LAB_GLOB_PATTERNS)
			return -1;
		g = &e->val.pattern[e->val.n++];
		g->prefix_len = (__u8)plen;
		g->suffix_len = (__u8)slen;
		memcpy(g->prefix, pattern, plen);	/* parse_path() bounds both */
		memcpy(g->suffix, star + 1, slen);
	}
	set_classes(g->rule, &g->deny, access, deny, index);
	return 0;
}

/*
 * Rules by path are keyed by their directory's inode: had a confined
 * task renamed that directory, or one above it, away (or removed it) and
 * made a new one at its path, they would stay with the old one. So
 * each of these directories gets an unlink deny of rule @index on its
 * inode: rename() and rmdir() of it are refused inside. Collected here,
 * merged after every rule of the policy (guard_dirs_add()): the policy's
 * own rules on these inodes come first.
 */
static int guard_dirs(struct compiled *c, const char *dir, unsigned int index)
{
	char path[PATH_MAX], *slash;
	struct file_entry *grown;
	struct stat st;
	size_t i;
	__u32 dev;

	if (!realpath(dir[0] ? dir : "/", path))
		return -1;
	while ((slash = strrchr(path, '/')) && slash[1]) {	/* "/" cannot be renamed */
		if (path_kernel_dev(path, &st, &dev))
			return -1;
		for (i = 0; i < c->n_guards; i++)
			if (c->guards[i].key.ino == st.st_ino && c->guards[i].key.dev == dev)
				break;
		if (i == c->n_guards) {
			grown = realloc(c->guards, (c->n_guards + 1) * sizeof(*c->guards));
			if (!grown)
				return -1;
			c->guards = grown;
			memset(&grown[i], 0, sizeof(grown[i]));
			grown[i].key.ino = st.st_ino;
			grown[i].key.dev = dev;
			grown[i].val.exact[LAB_UNLINK] = index + 1;
			c->n_guards++;
		}
		slash[slash == path] = '\0';	/* "/tmp" -> "/": the loop ends there */
	}
	return 0;
}

/*
 * The guarded directories' unlink denies: into the policy's own entry of
 * an inode with rules (where it has no unlink rule of its own); the
 * others stay in c->guards, which lsmctl adds to the file rules map.
 */
/* The classes some rule by path or last-component glob allows: a bit per class. */
static unsigned int allowed_by_name(const struct compiled *c)
{
	unsigned int allowed = 0, cls;
	size_t i, k;

	for (i = 0; i < c->n_paths; i++)
		for (cls = 0; cls < LAB_FILE_CLASSES; cls++)
			if (c->paths[i].val.rule[cls] && !((c->paths[i].val.deny >> cls) & 1))
				allowed |= 1u << cls;
	for (i = 0; i < c->n_globs; i++)
		for (k = 0; k < c->globs[i].val.n; k++)
			for (cls = 0; cls < LAB_FILE_CLASSES; cls++)
				if (c->globs[i].val.pattern[k].rule[cls] &&
				    !((c->globs[i].val.pattern[k].deny >> cls) & 1))
					allowed |= 1u << cls;
	return allowed;
}

static int guard_dirs_add(struct compiled *c)
{
	unsigned int allowed = allowed_by_name(c);
	size_t i, j, kept = 0;

	/*
	 * The hooks that refuse, inside, a link or a rename onto a name an
	 * allow rule by path names, and a new file at one an exec rule
	 * allows (match_file()); renaming and removing the guarded
	 * directories. No more than needed: on stock's cgroup backend each
	 * takes one of 10 hook slots that other policies need too.
	 */
	if (allowed)
		c->guard_hooks |= BIT(LAB_HOOK_INODE_LINK) | BIT(LAB_HOOK_INODE_RENAME);
	if ((allowed >> LAB_EXEC) & 1)
		c->guard_hooks |= BIT(LAB_HOOK_INODE_CREATE) | BIT(LAB_HOOK_INODE_MKNOD);
	if (c->n_guards)
		c->guard_hooks |= BIT(LAB_HOOK_INODE_RENAME) | BIT(LAB_HOOK_INODE_RMDIR);
	if (!c->n_guards)
		return 0;
	for (i = 0; i < c->n_guards; i++) {
		struct file_entry *g = &c->guards[i];

		g->val.exact_deny = 1u << LAB_UNLINK;
		for (j = 0; j < c->n_files; j++)
			if (c->files[j].key.ino == g->key.ino && c->files[j].key.dev == g->key.dev)
				break;
		if (j == c->n_files)
			c->guards[kept++] = *g;
		else
			set_classes(c->files[j].val.exact, &c->files[j].val.exact_deny,
				    ACCESS_UNLINK, true, g->val.exact[LAB_UNLINK] - 1);
	}
	c->n_guards = kept;
	c->conf.file_exact |= 1u << LAB_UNLINK;
	return 0;
}

/* The subtree rules' entry for folder @path, or NULL. */
static const struct file_entry *tree_entry(const struct compiled *c, const char *path)
{
	struct stat st;
	__u32 dev;
	size_t i;

	if (path_kernel_dev(path[0] ? path : "/", &st, &dev))
		return NULL;
	for (i = 0; i < c->n_files; i++)
		if (c->files[i].key.ino == st.st_ino && c->files[i].key.dev == dev)
			return &c->files[i];
	return NULL;
}

/* mountinfo's escapes (\040 for a space...) undone in place */
static void unescape_octal(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* A line of /proc/self/mountinfo: its device, the folder it shows, where. */
struct mount_line {
	char dev[32];
	char root[PATH_MAX];
	char at[PATH_MAX];
};

/* The mount table, a malloc()ed array in *@out: its length, or -1. */
static int mount_lines(struct mount_line **out)
{
	char line[3 * PATH_MAX];
	struct mount_line *all = NULL, *grown;
	int n = 0, cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(all, cap * sizeof(*all));
			if (!grown) {
				n = -1;
				break;
			}
			all = grown;
		}
		/* ID PARENT MAJ:MIN ROOT MOUNT_POINT ... */
		if (sscanf(line, "%*s %*s %31s %4095s %4095s", all[n].dev, all[n].root,
			   all[n].at) != 3)
			continue;
		unescape_octal(all[n].root);
		unescape_octal(all[n].at);
		n++;
	}
	fclose(f);
	if (n < 0)
		free(all);
	else
		*out = all;
	return n;
}

/*
 * Which of @classes the nearest subtree rule at @path or above it
 * denies (a mask), and each class's rule in @rules (NULL: not wanted).
 * @from_parent: start at @path's folder, not @path.
 */
static unsigned int nearest_denies(const struct compiled *c, const char *path,
				   unsigned int classes, bool from_parent, __u16 *rules)
{
	char at[PATH_MAX], *slash;
	const struct file_entry *up;
	unsigned int cls, denied = 0;

	snprintf(at, sizeof(at), "%s", path);
	if (from_parent && (slash = strrchr(at, '/')))
		*slash = '\0';
	for (;;) {
		up = tree_entry(c, at);
		for (cls = 0; up && cls < LAB_FILE_CLASSES; cls++) {
			if (!((classes >> cls) & 1) || !up->val.tree[cls])
				continue;
			classes &= ~(1u << cls);
			denied |= ((up->val.tree_deny >> cls) & 1) << cls;
			if (rules)
				rules[cls] = up->val.tree[cls];
		}
		slash = strrchr(at, '/');
		if (!classes || !slash || !at[0])
			return denied;
		*slash = '\0';
	}
}

/*
 * A filesystem, or a folder or file of one, mounted below a subtree
 * rule's folder at apply is under the rule by the climb across mounts;
 * bound elsewhere, in a mount namespace of a confined task's own, it
 * would not be. So where the nearest subtree rule above its mount point
 * denies a class, the deny is keyed on what the mount shows too (unless
 * a rule of the policy keys that class there): it follows it wherever
 * it is mounted. Not when another mount shows it, or a folder above it,
 * where no deny of the class reaches: it is reachable there anyway, and
 * the key would deny it there too. 0, or -1 when out of memory.
 */
static int mounted_denies_add(struct compiled *c)
{
	struct mount_line *all = NULL;
	struct file_entry *e, *grown;
	unsigned int cls, todo, denied;
	__u16 rules[LAB_FILE_CLASSES];
	struct stat st;
	size_t i;
	__u32 dev;
	int n, k, m, rc = 0;

	for (i = 0; i < c->n_files && !c->files[i].val.tree_deny; i++)
		;
	if (i == c->n_files)
		return 0;	/* no subtree deny */
	n = mount_lines(&all);
	if (n < 0)
		return n == -1 && errno == ENOMEM ? -1 : 0;
	for (k = 0; k < n && !rc; k++) {
		if (!strcmp(all[k].at, "/") || path_kernel_dev(all[k].at, &st, &dev))
			continue;
		todo = (1u << LAB_FILE_CLASSES) - 1;
		e = NULL;
		for (i = 0; i < c->n_files; i++)
			if (c->files[i].key.ino == st.st_ino && c->files[i].key.dev == dev)
				e = &c->files[i];
		for (cls = 0; e && cls < LAB_FILE_CLASSES; cls++)
			if (e->val.tree[cls])
				todo &= ~(1u << cls);
		denied = todo ? nearest_denies(c, all[k].at, todo, true, rules) : 0;
		/* shown elsewhere, where no deny of the class reaches */
		for (m = 0; m < n && denied; m++)
			if (m != k && !strcmp(all[m].dev, all[k].dev) &&
			    path_under(all[k].root, all[m].root))
				denied &= nearest_denies(c, all[m].at, denied, false, NULL);
		for (cls = 0; cls < LAB_FILE_CLASSES && denied; cls++) {
			if (!((denied >> cls) & 1))
				continue;
			if (!e) {
				grown = realloc(c->files, (c->n_files + 1) * sizeof(*c->files));
				if (!grown) {
					rc = -1;
					break;
				}
				c->files = grown;
				e = &c->files[c->n_files++];
				memset(e, 0, sizeof(*e));
				e->key.ino = st.st_ino;
				e->key.dev = dev;
			}
			/* the rule whose deny reaches the mount point */
			e->val.tree[cls] = rules[cls];
			e->val.tree_deny |= 1u << cls;
		}
	}
	free(all);
	return rc;
}

/*
 * A rule with '*' middle components: in its anchor @dir's entry, the
 * components of @rest ("*", or names; parse_mglob() bounds them). 0, or
 * -1 when the anchor has LAB_MGLOB_PATTERNS such rules already.
 */
static int add_mglob(struct compiled *c, __u32 dev, __u64 dir, const char *rest, bool subtree,
		     unsigned int access, bool deny, unsigned int index)
{
	struct glob_entry *e = glob_entry(c, dev, dir);
	struct lab_mglob want = { .subtree = subtree }, *g = NULL;
	char name[LAB_PATH_NAME_LEN];
	__u64 words[LAB_PATH_NAME_LEN / 8];
	const char *comp, *end;
	__u32 i;

	for (comp = rest; *comp && want.n < LAB_MGLOB_COMPS; comp = *end ? end + 1 : end) {
		size_t len;

		end = strchr(comp, '/');
		if (!end)
			end = comp + strlen(comp);
		len = (size_t)(end - comp);
		if (len == 1 && *comp == '*') {
			want.star |= 1u << want.n++;
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, comp);
		want.comp[want.n++] = name_hash(name, words);
	}
	for (i = 0; i < e->val.n_mglob && !g; i++)
		if (e->val.mglob[i].n == want.n && e->val.mglob[i].star == want.star &&
		    e->val.mglob[i].subtree == want.subtree &&
		    !memcmp(e->val.mglob[i].comp, want.comp, sizeof(want.comp)))
			g = &e->val.mglob[i];
	if (!g) {
		if (e->val.n_mglob == LAB_MGLOB_PATTERNS)
			return -1;
		g = &e->val.mglob[e->val.n_mglob++];
		*g = want;
	}
	set_classes(g->rule, &g->deny, access, deny, index);
	return 0;
}

/*
 * A rule with '*' middle components: its anchor, the directory above the
 * first '*', resolved at apply as a subtree rule's DIR is; the
 * components below it are names, compared by hash (POLICY.md).
 */
static int compile_mglob_rule(struct said *said, const struct policy_rule *r, unsigned int index,
			      unsigned int access, struct compiled *c)
{
	char anchor[PATH_MAX];
	const char *star = strchr(r->file.path, '*'), *rest;
	struct stat st;
	__u32 dev;

	rest = star;
	while (rest[-1] != '/')
		rest--;
	snprintf(anchor, sizeof(anchor), "%.*s", (int)(rest - r->file.path), r->file.path);
	if (strlen(anchor) > 1)
		anchor[strlen(anchor) - 1] = '\0';	/* "/home/" is "/home"; "/" stays */
	if (path_kernel_dev(anchor, &st, &dev))
		return missing(said, r, anchor);
	if (!S_ISDIR(st.st_mode))
		return compile_fail(said, r, "%s: %s is not a directory", r->file.path, anchor);
	if (guard_dirs(c, anchor, index))
		return compile_fail(said, r, "%s: %s: %s", r->file.path, anchor, strerror(errno));
	if (add_mglob(c, dev, st.st_ino, rest, r->file.subtree, access, r->deny, index))
		return compile_fail(said, r, "%s: more than %d rules with a '*' component below %s",
				    r->file.path, LAB_MGLOB_PATTERNS, anchor);
	return 0;
}

/*
 * A rule by path: its directory's inode and its name, and for a deny the
 * inode of the file there now, if any (a file renamed or linked
 * elsewhere stays denied; one put at the name later is covered by the
 * name). An allow is the name's alone: an inode number is reused once
 * its file is gone (ext4 gives it to the next file made nearby), so an
 * allow kept by inode could pass to a file a confined task made. A path
 * that exists at apply is taken as realpath() gives it: a symlink's
 * target, "." and ".." resolved.
 *
 * An allowed name gets its file from outside: link() and rename() onto it
 * are refused inside, and a new file at a name an exec rule allows
 * (match_file()).
 */
static int compile_path_rule(struct said *said, const struct policy_rule *r, unsigned int index,
			     unsigned int access, struct compiled *c)
{
	char path[PATH_MAX], real[PATH_MAX], *name;
	unsigned int won = 0, cls;
	struct path_entry *e;
	struct stat st, dir_st;
	__u32 dev, dir_dev;

	snprintf(path, sizeof(path), "%s", r->file.path);
	if (!r->file.glob && realpath(path, real))
		snprintf(path, sizeof(path), "%s", real);
	if (!strcmp(path, "/")) {	/* "/." or a link to "/": no name, the root by inode */
		if (path_kernel_dev(path, &st, &dev))
			return compile_fail(said, r, "/: %s", strerror(errno));
		return add_file(c, st.st_ino, dev, false, access, r->deny, index);
	}
	name = strrchr(path, '/');
	*name++ = '\0';
	if (path_kernel_dev(path[0] ? path : "/", &dir_st, &dir_dev))
		return missing(said, r, r->file.path);
	if (!S_ISDIR(dir_st.st_mode))
		return compile_fail(said, r, "%s: %s is not a directory", r->file.path, path);
	if (guard_dirs(c, path, index))
		return compile_fail(said, r, "%s: %s: %s", r->file.path, path[0] ? path : "/",
				    strerror(errno));
	if (r->file.glob) {
		if (add_glob(c, dir_dev, dir_st.st_ino, name, access, r->deny, index))
			return compile_fail(said, r, "%s: more than %d globs in %s",
					    r->file.path, LAB_GLOB_PATTERNS, path[0] ? path : "/");
		return 0;
	}
	if (strlen(name) >= LAB_PATH_NAME_LEN)	/* the symlink's target's name */
		return compile_fail(said, r,
				    "%s: the name is longer than %d bytes: add 'match: inode'",
				    r->file.path, LAB_PATH_NAME_LEN - 1);
	e = add_path(c, dir_dev, dir_st.st_ino, name, access, r->deny, index);
	/* the inode's classes: those of this rule's at the name (an earlier rule's win) */
	for (cls = 0; e && cls < LAB_FILE_CLASSES; cls++)
		if (e->val.rule[cls] == index + 1)
			won |= 1u << cls;
	if (!e)
		return compile_fail(said, r,
				    "%s: another name in %s has the same hash: 'match: inode'",
				    r->file.path, path[0] ? path : "/");
	path[strlen(path)] = '/';	/* the whole path again */
	if (path_kernel_dev(path, &st, &dev)) {
		/* nothing there yet: the name waits for it (check says so: a typo?) */
		if (errno == ENOENT && said->warn)
			warn(said, r, "warning: %s: %s: the rule waits for a file at that name",
			     r->file.path, strerror(errno));
		return 0;
	}
	return r->deny && won ? add_file(c, st.st_ino, dev, false, won, true, index) : 0;
}

static int compile_file_rule(struct said *said, const struct policy_rule *r, unsigned int index,
			     struct compiled *c)
{
	unsigned int access = r->kind == RULE_EXEC ? ACCESS_EXEC : r->file.access;
	struct stat st;
	__u32 dev;

	/* the policy's bits and the engine's classes line up: read .. unlink */
#define SAME_BIT(E, n)	_Static_assert(ACCESS_##E == 1 << LAB_##E, #n ": access bit is class bit");
	LAB_ACCESSES(SAME_BIT, )
#undef SAME_BIT
	if (!r->file.subtree && (access & ACCESS_CREATE))
		return compile_fail(said, r, "create applies to a directory's subtree: write %s/**",
				    r->file.path);
	if (path_on_view(r->file.path))
		c->conf.flags |= LAB_RULES_ON_VIEWS;
	if (r->file.mglob)
		return compile_mglob_rule(said, r, index, access, c);
	/* by path, but for a subtree, 'match: inode' and the root (no name) */
	if (!r->file.subtree && !r->file.by_inode && strcmp(r->file.path, "/"))
		return compile_path_rule(said, r, index, access, c);
	if (path_kernel_dev(r->file.path, &st, &dev))
		return missing(said, r, r->file.path);
	if (r->file.subtree && !S_ISDIR(st.st_mode))
		return compile_fail(said, r, "%s/** but %s is not a directory", r->file.path,
				    r->file.path);
	return add_file(c, st.st_ino, dev, r->file.subtree, access, r->deny, index);
}

static void compile_net_rule(const struct policy_rule *r, unsigned int index, struct compiled *c)
{
	struct lab_net_rule *n;
	size_t i;

	if (r->net.op == NET_SOCKET) {
		for (i = 0; i < c->n_socks; i++)
			if (c->socks[i].key.family == r->net.family &&
			    c->socks[i].key.type == r->net.type)
				return;	/* an earlier rule for the same sockets wins */
		c->socks[c->n_socks].key.family = r->net.family;
		c->socks[c->n_socks].key.type = r->net.type;
		c->socks[c->n_socks].val.rule = index + 1;
		c->socks[c->n_socks].val.deny = r->deny;
		c->n_socks++;
		return;
	}
	n = &c->nets[c->n_nets++];
	memset(n, 0, sizeof(*n));
	n->rule = index + 1;
	n->class = r->net.op == NET_BIND ? LAB_BIND : LAB_CONNECT;
	n->deny = r->deny;
	n->family = r->net.family;
	n->protocol = r->net.protocol;
	n->port_min = r->net.port_min;
	n->port_max = r->net.port_max;
	n->prefix = r->net.prefix < 0 ? 0 : r->net.prefix;
	memcpy(n->addr, r->net.addr, sizeof(n->addr));
}

static unsigned int rule_classes(const struct policy_rule *r)
{
	switch (r->kind) {
	case RULE_FILES:
		return r->file.access;
	case RULE_EXEC:
		return 1u << LAB_EXEC;
	case RULE_NETWORK:
		return 1u << (r->net.op == NET_SOCKET ? LAB_SOCKET :
			      r->net.op == NET_BIND ? LAB_BIND : LAB_CONNECT);
	case RULE_PTRACE:
		return 1u << LAB_PTRACE;
	case RULE_MOUNT:
		return 1u << LAB_MOUNT;
	case RULE_MODULE_LOAD:
		return 1u << LAB_MODULE_LOAD;
	case RULE_SIGNAL:
		return 1u << LAB_SIGNAL;
	case RULE_CAPABILITY:
		return 1u << LAB_CAPABILITY;
	}
	return 0;
}

unsigned int policy_closed_classes(const struct policy *p)
{
	unsigned int allowed = 0, denied = 0;
	size_t i;

	for (i = 0; i < p->n_rules; i++) {
		if (p->rules[i].deny)
			denied |= rule_classes(&p->rules[i]);
		else
			allowed |= rule_classes(&p->rules[i]);
	}
	/* default: deny closes the classes that have allow rules; closed: its own */
	return denied | (p->default_deny ? allowed : 0) | p->closed;
}

static int compile(struct said *said, const struct policy *p, struct compiled *c)
{
	size_t i, k;
	unsigned int cls, cap, allowed = 0, denied = 0;

	memset(c, 0, sizeof(*c));
	c->files = calloc(p->n_rules ? p->n_rules : 1, sizeof(*c->files));
	c->paths = calloc(p->n_rules ? p->n_rules : 1, sizeof(*c->paths));
	c->globs = calloc(p->n_rules ? p->n_rules : 1, sizeof(*c->globs));
	c->socks = calloc(p->n_rules ? p->n_rules : 1, sizeof(*c->socks));
	c->nets = calloc(p->n_rules ? p->n_rules : 1, sizeof(*c->nets));
	c->rules = calloc(p->n_rules ? p->n_rules : 1, sizeof(*c->rules));
	if (!c->files || !c->paths || !c->globs || !c->socks || !c->nets || !c->rules) {
		compiled_free(c);
		return compile_fail(said, NULL, "out of memory");
	}
	if (p->audit)
		c->conf.flags |= LAB_AUDIT;
	if (!p->no_self_protection) {
		c->conf.flags |= LAB_SELF_PROTECT;
		c->classes |= 1u << LAB_SELF;
	}

	for (i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];
		unsigned int classes = rule_classes(r);

		c->rules[i].line = r->line;
		describe(r, c->rules[i].text, sizeof(c->rules[i].text));
		c->n_rules++;
		c->classes |= classes;
		if (!r->deny)
			allowed |= classes;
		else
			denied |= classes;
		switch (r->kind) {
		case RULE_FILES:
		case RULE_EXEC:
			compile_file_rule(said, r, i, c);	/* the next rules are checked too */
			break;
		case RULE_NETWORK:
			compile_net_rule(r, i, c);
			break;
		case RULE_CAPABILITY:
			for (cap = 0; cap < 64; cap++) {
				if (!(r->caps & (1ull << cap)) || c->conf.cap_rule[cap])
					continue;
				c->conf.cap_rule[cap] = i + 1;
				if (r->deny)
					c->conf.cap_deny |= 1ull << cap;
			}
			break;
		default:
			cls = __builtin_ctz(classes);
			if (!c->conf.fixed_rule[cls]) {
				c->conf.fixed_rule[cls] = i + 1;
				c->conf.fixed_deny[cls] = r->deny;
			}
			break;
		}
	}
	if (c->n_nets > LAB_MAX_NET_RULES) {
		const struct policy_rule *past = NULL;
		size_t n_nets = 0;

		/* name the first rule past the limit */
		for (i = 0; i < p->n_rules && !past; i++)
			if (p->rules[i].kind == RULE_NETWORK && p->rules[i].net.op != NET_SOCKET &&
			    ++n_nets > LAB_MAX_NET_RULES)
				past = &p->rules[i];
		compile_fail(said, past, "%u bind and connect rules at most, not %zu",
			     LAB_MAX_NET_RULES, c->n_nets);
	}
	if (!said->errors && (guard_dirs_add(c) || mounted_denies_add(c)))
		compile_fail(said, NULL, "out of memory");
	if (said->errors) {
		compiled_free(c);
		return -1;
	}
	c->conf.n_net = c->n_nets;
	/* which file classes the engine must look rules up for, and how */
	for (i = 0; i < c->n_files; i++) {
		for (cls = 0; cls < LAB_FILE_CLASSES; cls++) {
			if (c->files[i].val.exact[cls])
				c->conf.file_exact |= 1u << cls;
			if (c->files[i].val.tree[cls])
				c->conf.file_tree |= 1u << cls;
		}
	}
	for (i = 0; i < c->n_paths; i++)
		for (cls = 0; cls < LAB_FILE_CLASSES; cls++)
			if (c->paths[i].val.rule[cls])
				c->conf.file_path |= 1u << cls;
	for (i = 0; i < c->n_globs; i++)
		for (cls = 0; cls < LAB_FILE_CLASSES; cls++)
			for (k = 0; k < c->globs[i].val.n; k++)
				if (c->globs[i].val.pattern[k].rule[cls])
					c->conf.file_glob |= 1u << cls;
	for (i = 0; i < c->n_globs; i++)
		for (cls = 0; cls < LAB_FILE_CLASSES; cls++)
			for (k = 0; k < c->globs[i].val.n_mglob; k++)
				if (c->globs[i].val.mglob[k].rule[cls])
					c->conf.file_mglob |= 1u << cls;
	/* a deny's leading directories: their unlink climbs (match.bpf.h's mglob_lead()) */
	for (i = 0; i < c->n_globs; i++)
		for (k = 0; k < c->globs[i].val.n_mglob; k++)
			if (c->globs[i].val.mglob[k].deny)
				c->conf.file_mglob |= 1u << LAB_UNLINK;
	/* default: deny closes the classes that have allow rules; closed: its own */
	if (p->default_deny)
		c->conf.default_deny = allowed;
	c->conf.default_deny |= p->closed;
	c->classes |= p->closed;
	for (cls = 0; cls < LAB_NR_CLASSES; cls++)
		if (c->classes & (1u << cls))
			c->hooks |= class_hooks[cls];
	/*
	 * SCTP's address lists: only where a rule can match an SCTP request
	 * (protocol any or sctp), or default: deny closes bind or connect.
	 * Rules on tcp, udp or icmp alone would never judge one: no hook.
	 */
	if (!(c->conf.default_deny & ((1u << LAB_BIND) | (1u << LAB_CONNECT)))) {
		bool sctp = false;

		for (i = 0; i < c->n_nets; i++)
			if (!c->nets[i].protocol || c->nets[i].protocol == IPPROTO_SCTP)
				sctp = true;
		if (!sctp)
			c->hooks &= ~BIT(LAB_HOOK_SCTP_BIND_CONNECT);
	}
	/*
	 * A file whose read is denied may be run all the same: the hooks
	 * that keep its bytes in the tasks that run it (POLICY.md,
	 * exec-only files): a tracer and AT_SECURE at exec, access to a
	 * task running it.
	 */
	if (((denied | c->conf.default_deny) >> LAB_READ) & 1)
		c->hooks |= BIT(LAB_HOOK_BPRM_CHECK) | BIT(LAB_HOOK_PTRACE_ACCESS);
	c->guard_hooks &= ~c->hooks;
	return 0;
}

/* As many rules by path, each a name in a directory of no such device. */
static int add_path_filler(struct compiled *c, size_t n)
{
	struct path_entry *grown = realloc(c->paths, (c->n_paths + n) * sizeof(*c->paths));
	size_t i;

	if (!grown)
		return -ENOMEM;
	c->paths = grown;
	for (i = 0; i < n; i++) {
		struct path_entry *e = &c->paths[c->n_paths++];

		memset(e, 0, sizeof(*e));
		e->key.dev = LAB_MKDEV(FILLER_MAJOR, 0);
		e->key.dir = i + 1;
		e->key.hash = name_hash("filler", e->val.name);
		e->val.len = sizeof("filler") - 1;
		e->val.rule[LAB_READ] = 1;
	}
	c->conf.file_path |= 1u << LAB_READ;
	return 0;
}

int policy_compile(const char *file, const struct policy *p, struct compiled *out,
		   char *err, size_t errlen)
{
	struct said said = { .file = file, .err = err, .errlen = errlen };

	return compile(&said, p, out);
}

int policy_compile_check(const char *file, const struct policy *p, struct compiled *out,
			 char *warnings, size_t warnlen, char *err, size_t errlen)
{
	struct said said = { .file = file, .err = err, .errlen = errlen,
			     .warn = warnings, .warnlen = warnlen };

	if (warnlen)
		warnings[0] = 0;
	return compile(&said, p, out);
}

int compiled_add_filler(struct compiled *c, size_t n)
{
	struct file_entry *grown;
	size_t i;

	if (!n)
		return 0;
	grown = realloc(c->files, (c->n_files + n) * sizeof(*c->files));
	if (!grown)
		return -ENOMEM;
	c->files = grown;
	for (i = 0; i < n; i++) {
		struct file_entry *e = &c->files[c->n_files++];

		memset(e, 0, sizeof(*e));
		e->key.dev = LAB_MKDEV(FILLER_MAJOR, 0);
		e->key.ino = i + 1;
		e->val.exact[LAB_READ] = 1;	/* rule 0's, were it ever hit */
	}
	c->conf.file_exact |= 1u << LAB_READ;
	return c->n_paths ? add_path_filler(c, n) : 0;
}

void compiled_free(struct compiled *c)
{
	free(c->files);
	free(c->paths);
	free(c->globs);
	free(c->socks);
	free(c->nets);
	free(c->rules);
	free(c->guards);
	memset(c, 0, sizeof(*c));
}
