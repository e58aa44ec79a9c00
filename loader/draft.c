// SPDX-License-Identifier: GPL-2.0
/* A draft policy from what a program was seen to do (see draft.h). */
#define _GNU_SOURCE	/* vasprintf() */
#include "draft.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../bpf-progs/policy/limits.h"
#include "utf8.h"

bool draft_utf8(const char *s)
{
	uint32_t cp;
	size_t n;

	for (; *s; s += n)
		if (!(n = utf8_char((const unsigned char *)s, &cp)))
			return false;
	return true;
}

/*
 * @s, escaped for a YAML double-quoted scalar (@quoted: with the
 * quotes) or for a comment: '\' and '"' escaped, every character libyaml
 * would not take as it is (controls, C1, U+FEFF, ...) as \xNN, \uNNNN
 * and the line breaks YAML knows besides \n (U+0085, U+2028, U+2029) as
 * \uNNNN; the printable rest as it is. A byte that is not UTF-8
 * is written \xNN too: in a comment that is the byte, in a scalar it
 * would be U+00NN, not the byte, so no rule is ever written with one
 * (draft_utf8()). Nothing in @s can end the line, the scalar or the
 * comment.
 */
void draft_escaped(FILE *f, const char *s, bool quoted)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t n;

	if (quoted)
		fputc('"', f);
	for (; *p; p += n) {
		n = utf8_char(p, &cp);
		if (!n) {
			fprintf(f, "\\x%02x", *p);
			n = 1;
		} else if (cp == '\\' || cp == '"') {
			fprintf(f, "\\%c", (int)cp);
		} else if (cp == '\n') {
			fputs("\\n", f);
		} else if (cp == '\t') {
			fputs("\\t", f);
		} else if (cp < 0x20 || cp == 0x7f) {
			fprintf(f, "\\x%02x", (unsigned int)cp);
		} else if (cp < 0x7f || (cp >= 0xa0 && cp <= 0xd7ff && cp != 0x2028 && cp != 0x2029) ||
			   (cp >= 0xe000 && cp <= 0xfffd && cp != 0xfeff) || cp >= 0x10000) {
			fwrite(p, 1, n, f);	/* printable, as libyaml reads it */
		} else {
			fprintf(f, "\\u%04x", (unsigned int)cp);
		}
	}
	if (quoted)
		fputc('"', f);
}

/*
 * Can @path be a rule's path, read back as the same bytes and nothing
 * wider, and be matched by path (a file's name of at most
 * LAB_PATH_NAME_LEN - 1 bytes: the parser refuses longer)?
 */
static bool rule_path_ok(const char *path, bool subtree)
{
	size_t len = strlen(path);

	return path[0] == '/' && len + 3 < POLICY_PATH_MAX && !strchr(path, '*') &&
	       (len == 1 || path[len - 1] != '/') && draft_utf8(path) &&
	       (subtree || strlen(strrchr(path, '/') + 1) < LAB_PATH_NAME_LEN);
}

/* @form with each "*" component made a plain name, for rule_path_ok() */
static bool form_ok(const char *form)
{
	char plain[POLICY_PATH_MAX];
	size_t i, n = strlen(form);

	if (n >= sizeof(plain))
		return false;
	for (i = 0; i <= n; i++) {
		bool whole = form[i] == '*' && i && form[i - 1] == '/' && (!form[i + 1] || form[i + 1] == '/');

		if (form[i] == '*' && !whole)
			return false;
		plain[i] = whole ? 'x' : form[i];
	}
	return rule_path_ok(plain, false);
}

static void add_comm(struct draft_rule *r, const char *comm)
{
	size_t i;

	for (i = 0; i < DRAFT_COMMS && r->comms[i][0]; i++)
		if (!strcmp(r->comms[i], comm))
			return;
	if (i == DRAFT_COMMS)
		r->more_comms = true;
	else
		snprintf(r->comms[i], sizeof(r->comms[i]), "%s", comm);
}

/* A new rule at the end, zeroed but for @kind; NULL when out of memory. */
static struct draft_rule *new_rule(struct draft *d, enum rule_kind kind)
{
	struct draft_rule *grown;

	if (d->n_rules == d->cap) {
		grown = realloc(d->rules, (d->cap ? d->cap * 2 : 16) * sizeof(*grown));
		if (!grown)
			return NULL;
		d->rules = grown;
		d->cap = d->cap ? d->cap * 2 : 16;
	}
	memset(&d->rules[d->n_rules], 0, sizeof(d->rules[0]));
	d->rules[d->n_rules].kind = kind;
	return &d->rules[d->n_rules++];
}

/* A new files rule on @path; NULL when out of memory. */
static struct draft_rule *new_file_rule(struct draft *d, const char *path, bool subtree,
					bool inode, unsigned int access)
{
	struct draft_rule *r = new_rule(d, RULE_FILES);

	if (!r)
		return NULL;
	r->path = strdup(path);
	if (!r->path) {
		d->n_rules--;
		return NULL;
	}
	r->subtree = subtree;
	r->inode = inode;
	r->access = access;
	return r;
}

static struct draft_rule *find_file(struct draft *d, const char *path, bool subtree,
				    unsigned int access)
{
	size_t i;

	for (i = 0; i < d->n_rules; i++)
		if (d->rules[i].kind == RULE_FILES && d->rules[i].subtree == subtree &&
		    !d->rules[i].inode &&
		    d->rules[i].access == access && !strcmp(d->rules[i].path, path))
			return &d->rules[i];
	return NULL;
}

/* One use more of @r by @comm. */
static int used(struct draft_rule *r, const char *comm)
{
	r->count++;
	add_comm(r, comm);
	return 0;
}

/*
 * Would a rule for @path, a form with '*' components, be one more than
 * its anchor (the folder above its first '*') may hold? The engine
 * keeps LAB_MGLOB_PATTERNS such paths an anchor (compile.c refuses more).
 */
static bool anchor_full(const struct draft *d, const char *path)
{
	const char *star = strstr(path, "/*");
	size_t i, j, n = 0, len;

	if (!star)
		return false;
	len = (size_t)(star - path) + 1;	/* the anchor and its '/' */
	for (i = 0; i < d->n_rules; i++) {
		const struct draft_rule *r = &d->rules[i];

		if (r->kind != RULE_FILES || r->inode || strncmp(r->path, path, len) ||
		    !strchr(r->path + len, '*'))
			continue;
		if (!strcmp(r->path, path))
			return false;	/* there already: no new pattern */
		for (j = 0; j < i; j++)	/* each path once, whatever its access */
			if (d->rules[j].kind == RULE_FILES && !strcmp(d->rules[j].path, r->path))
				break;
		if (j == i)
			n++;
	}
	return n >= LAB_MGLOB_PATTERNS;
}

int draft_file(struct draft *d, const char *path, bool subtree, unsigned int access,
	       const char *comm)
{
	struct draft_rule *r;

	/* a form's "*" components are any task's (procfs.h); a file's own '*' is no rule */
	if (!(path[0] == '/' && !subtree && !strncmp(path, "/proc/", 6) ? form_ok(path) :
	      rule_path_ok(path, subtree)))	/* escaped in the note: see draft_escaped() */
		return draft_note(d, "a file whose path has a '*', a final '/', is too long or not "
				  "UTF-8 (by %s), no rule: %s", comm, path);
	r = find_file(d, path, subtree, access);
	if (!r && anchor_full(d, path))
		return draft_note(d, "%s by %s, no rule: a policy holds at most %d paths with a '*' "
				  "component below one folder (LAB_MGLOB_PATTERNS), and this one "
				  "came after them", path, comm, LAB_MGLOB_PATTERNS);
	if (!r)
		r = new_file_rule(d, path, subtree, false, access);
	return r ? used(r, comm) : -ENOMEM;
}

int draft_file_root(struct draft *d, const char *path, unsigned int access, const char *comm)
{
	struct draft_rule *r;
	size_t i;

	if (!rule_path_ok(path, true))
		return draft_note(d, "a filesystem's root whose path has a '*', is too long or not "
				  "UTF-8 (by %s), no rule: %s", comm, path);
	for (i = 0; i < d->n_rules; i++)
		if (d->rules[i].kind == RULE_FILES && d->rules[i].inode &&
		    d->rules[i].access == access && !strcmp(d->rules[i].path, path))
			return used(&d->rules[i], comm);
	r = new_file_rule(d, path, false, true, access);
	return r ? used(r, comm) : -ENOMEM;
}

int draft_socket(struct draft *d, int family, int type, const char *comm)
{
	struct draft_rule *r;
	size_t i;

	for (i = 0; i < d->n_rules; i++) {
		r = &d->rules[i];
		if (r->kind == RULE_NETWORK && r->op == NET_SOCKET && r->family == family &&
		    r->type == type)
			return used(r, comm);
	}
	r = new_rule(d, RULE_NETWORK);
	if (!r)
		return -ENOMEM;
	r->op = NET_SOCKET;
	r->family = family;
	r->type = type;
	return used(r, comm);
}

int draft_net(struct draft *d, enum net_op op, int family, const uint8_t addr[16],
	      unsigned int port, const char *comm)
{
	uint8_t none[16] = { 0 };
	struct draft_rule *r;
	size_t i;

	if (family == AF_UNIX) {	/* no address or port to say */
		addr = none;
		port = 0;
	}
	for (i = 0; i < d->n_rules; i++) {
		r = &d->rules[i];
		if (r->kind == RULE_NETWORK && r->op == op && r->family == family &&
		    r->port == port && !memcmp(r->addr, addr, sizeof(r->addr)))
			return used(r, comm);
	}
	r = new_rule(d, RULE_NETWORK);
	if (!r)
		return -ENOMEM;
	r->op = op;
	r->family = family;
	memcpy(r->addr, addr, sizeof(r->addr));
	r->port = port;
	return used(r, comm);
}

int draft_cap(struct draft *d, unsigned int cap, const char *comm)
{
	struct draft_rule *r;
	size_t i;

	if (cap >= 64 || !policy_cap_name(cap))
		return draft_note(d, "capability %u (by %s): no name for it, no rule", cap, comm);
	for (i = 0; i < d->n_rules; i++)
		if (d->rules[i].kind == RULE_CAPABILITY && d->rules[i].caps == 1ull << cap)
			return used(&d->rules[i], comm);
	r = new_rule(d, RULE_CAPABILITY);
	if (!r)
		return -ENOMEM;
	r->caps = 1ull << cap;
	return used(r, comm);
}

void draft_fixed(struct draft *d, enum rule_kind kind, const char *comm)
{
	if (!d->fixed_seen[kind]++)
		snprintf(d->fixed_comm[kind], sizeof(d->fixed_comm[kind]), "%s", comm);
}

/* The rules of @p as a draft's, or an error naming the first that is none (draft.h). */
int draft_merge(struct draft *d, const struct policy *p, const char *file, char *err,
		size_t errlen)
{
	static const char by[] = "earlier run";
	bool fixed_denied[RULE_CAPABILITY + 1] = { false };
	size_t i, k;
	int rc = 0;

	for (i = 0; i < p->n_rules && !rc; i++) {
		const struct policy_rule *r = &p->rules[i];
		unsigned int full = r->net.family == AF_INET6 ? 128 : 32;
		uint64_t caps;

		switch (r->kind) {
		case RULE_PTRACE:
		case RULE_MOUNT:
		case RULE_MODULE_LOAD:
		case RULE_SIGNAL:
			fixed_denied[r->kind] |= r->deny;	/* "KIND: deny": unused there */
			continue;
		case RULE_FILES:
		case RULE_EXEC:
			/* globs only as learn writes them: /proc's forms (procfs.h) */
			if (r->deny || ((r->file.glob || r->file.mglob) &&
					strncmp(r->file.path, "/proc/", 6)))
				break;
			/* a subtree only where learn would make one: never a secret's folder */
			if (r->file.subtree && (!strcmp(r->file.path, "/") ||
						!draft_foldable(r->file.path))) {
				snprintf(err, errlen, "%s:%u:%u: %s%s would cover a secret (lsmctl(8), "
					 "learn): a draft never holds it; name its files", file, r->line,
					 r->col, r->file.path, strcmp(r->file.path, "/") ? "/**" : "**");
				return -EINVAL;
			}
			if (r->file.by_inode)
				rc = draft_file_root(d, r->file.path, r->kind == RULE_EXEC ?
						     ACCESS_EXEC : r->file.access, by);
			else if (r->kind == RULE_EXEC)
				rc = draft_file(d, r->file.path, r->file.subtree, ACCESS_EXEC, by);
			else
				for (k = 0; k < N_ACCESS && !rc; k++)
					if (r->file.access & (1u << k))
						rc = draft_file(d, r->file.path, r->file.subtree,
								1u << k, by);
			continue;
		case RULE_NETWORK:
			if (r->deny || r->net.protocol)
				break;
			if (r->net.op == NET_SOCKET) {
				rc = draft_socket(d, r->net.family, r->net.type, by);
				continue;
			}
			if (r->net.family == AF_UNIX) {
				rc = draft_net(d, r->net.op, AF_UNIX, r->net.addr, 0, by);
				continue;
			}
			if ((r->net.family != AF_INET && r->net.family != AF_INET6) ||
			    r->net.prefix != (int)full || r->net.port_min != r->net.port_max)
				break;
			rc = draft_net(d, r->net.op, r->net.family, r->net.addr, r->net.port_min, by);
			continue;
		case RULE_CAPABILITY:
			if (r->deny)
				break;
			for (caps = r->caps, k = 0; caps && !rc; caps >>= 1, k++)
				if (caps & 1)
					rc = draft_cap(d, (unsigned int)k, by);
			continue;
		}
		snprintf(err, errlen, "%s:%u:%u: a rule a draft cannot carry (a deny, a glob, an "
			 "address range or a port range, a protocol): --merge takes a draft "
			 "lsmctl learn wrote; edit such rules in after merging", file, r->line,
			 r->col);
		return -EINVAL;
	}
	/* a kind the earlier run used (no "KIND: deny" there) stays used */
	for (k = RULE_PTRACE; k <= RULE_SIGNAL && !rc; k++)
		if (!fixed_denied[k])
			draft_fixed(d, (enum rule_kind)k, by);
	return rc;
}

int draft_note(struct draft *d, const char *fmt, ...)
{
	char *line, *esc = NULL, *grown;
	size_t n = 0;
	va_list ap;
	FILE *m;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	/* escaped now: a name in it cannot end the line, nor the comment */
	m = open_memstream(&esc, &n);
	if (!m) {
		free(line);
		return -ENOMEM;
	}
	draft_escaped(m, line, false);
	free(line);
	if (fclose(m)) {
		free(esc);
		return -ENOMEM;
	}
	grown = realloc(d->notes, d->notes_len + n + 2);
	if (!grown) {
		free(esc);
		return -ENOMEM;
	}
	d->notes = grown;
	memcpy(d->notes + d->notes_len, esc, n);
	d->notes_len += n;
	d->notes[d->notes_len++] = '\n';
	d->notes[d->notes_len] = 0;
	free(esc);
	return 0;
}

/* @src's uses and names into @dst, which covers it; @src is removed. */
static void fold_into(struct draft *d, struct draft_rule *dst, size_t src_index)
{
	struct draft_rule *src = &d->rules[src_index];
	const char *name = strrchr(src->path, '/') + 1;
	size_t i;

	dst->count += src->count;
	for (i = 0; i < DRAFT_COMMS && src->comms[i][0]; i++)
		add_comm(dst, src->comms[i]);
	dst->more_comms |= src->more_comms;
	if (dst->n_folded < DRAFT_FOLDED)
		dst->folded[dst->n_folded] = strdup(src->subtree ? src->path : name);
	dst->n_folded += src->n_folded ? src->n_folded : 1;
	free(src->path);
	for (i = 0; i < DRAFT_FOLDED && i < src->n_folded; i++)
		free(src->folded[i]);
	d->rules[src_index] = d->rules[--d->n_rules];
}

/* Is @path @dir itself or below it? */
static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* Files below a subtree rule whose access it has: left to it. */
static bool absorb(struct draft *d)
{
	bool changed = false;
	size_t i, j;

	for (i = 0; i < d->n_rules; i++) {
		struct draft_rule *s = &d->rules[i];

		if (s->kind != RULE_FILES || !s->subtree)
			continue;
		for (j = 0; j < d->n_rules; j++) {
			struct draft_rule *f = &d->rules[j];

			if (j == i || f->kind != RULE_FILES || (f->access & ~s->access) ||
			    !below(f->path, s->path) || (f->subtree && !strcmp(f->path, s->path)))
				continue;
			fold_into(d, s, j);
			if (i == d->n_rules)	/* @s was the last: fold_into() moved it to j */
				i = j;
			s = &d->rules[i];
			changed = true;
			j = (size_t)-1;		/* the rules moved: look again */
		}
	}
	return changed;
}

/* The folder of @path, in @buf ("/" for a file in the root). */
static void folder_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash > path ? (size_t)(slash - path) : 1;

	snprintf(buf, len, "%.*s", (int)n, path);
}

/*
 * The machine's and its users' secrets: no folded rule is on one of
 * these, on a folder that holds one, or on a folder inside one
 * (lsmctl(8), learn). A draft names such a file only when the run used
 * it, and then that file alone.
 */
static const char *const secrets[] = {
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/sudoers", "/etc/sudoers.d", "/etc/ssh", "/etc/ssl/private",
	"/etc/security/opasswd", "/etc/krb5.keytab", "/etc/machine-id",
	"/root", "/boot", "/var/backups", "/var/lib/sudo",
};
/* ... and, in a home or any folder, these names (a folder's or its subfolders') */
static const char *const secret_names[] = {
	".ssh", ".gnupg", ".netrc", ".pgpass", ".aws", ".kube", ".docker", ".git-credentials",
};

/* Does @dir hold an entry named one of secret_names? */
static bool holds_secret_name(const char *dir)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(secret_names) / sizeof(secret_names[0]); i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, secret_names[i]) >= (int)sizeof(path) ||
		    !access(path, F_OK))
			return true;	/* too long to look at: kept as files */
	}
	return false;
}

bool draft_foldable(const char *dir)
{
	struct dirent *de;
	char sub[PATH_MAX];
	bool ok = true;
	size_t i;
	DIR *dh;

	for (i = 0; i < sizeof(secrets) / sizeof(secrets[0]); i++)
		if (below(secrets[i], dir) || below(dir, secrets[i]))
			return false;
	/* /proc: its folders are every task's (a task's files are named by form) */
	if (below(dir, "/proc"))
		return false;
	if (holds_secret_name(dir))
		return false;
	/* a folder of homes: each one's */
	dh = opendir(dir);
	if (!dh)
		return true;
	while (ok && (de = readdir(dh))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		ok = snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) < (int)sizeof(sub) &&
		     !holds_secret_name(sub);
	}
	closedir(dh);
	return ok;
}

int draft_fold(struct draft *d, unsigned int min)
{
	char dir[POLICY_PATH_MAX], other[POLICY_PATH_MAX];
	struct draft_rule *s;
	unsigned int n;
	bool changed = true;
	size_t i, j;

	while (changed && min) {
		changed = absorb(d);
		for (i = 0; i < d->n_rules && !changed; i++) {
			/* programs are named one by one: a folder's would run anything put in it */
			if (d->rules[i].kind != RULE_FILES || (d->rules[i].access & (1u << ACCESS_INDEX_EXEC)))
				continue;
			folder_of(d->rules[i].path, dir, sizeof(dir));
			if (!strcmp(dir, "/") || !draft_foldable(dir))
				continue;	/* the root's subtree is everything */
			for (j = 0, n = 0; j < d->n_rules; j++) {
				if (d->rules[j].kind != RULE_FILES ||
				    d->rules[j].access != d->rules[i].access)
					continue;
				folder_of(d->rules[j].path, other, sizeof(other));
				n += !strcmp(dir, other);
			}
			if (n < min)
				continue;
			s = find_file(d, dir, true, d->rules[i].access);
			if (!s) {
				s = new_file_rule(d, dir, true, false, d->rules[i].access);
				if (!s)
					return -ENOMEM;
			}
			changed = true;	/* absorb() folds the siblings into it */
		}
	}
	return 0;
}

/* The comment over a rule; @what before it, when the rule stands for several. */
static void write_comment(FILE *f, const struct draft_rule *r, bool what)
{
	size_t i, n;

	fprintf(f, "  # ");
	for (i = 0, n = 0; what && i < N_ACCESS; i++)
		if (r->access & (1u << i))
			fprintf(f, "%s%s", n++ ? "," : "", access_names[i]);
	if (what)
		fprintf(f, ": ");
	if (r->kind == RULE_CAPABILITY)
		fprintf(f, "%s: ", policy_cap_name(__builtin_ctzll(r->caps)));
	if (r->n_folded) {
		fprintf(f, "folded: %u file(s) below ", r->n_folded);
		draft_escaped(f, r->path, false);
		fprintf(f, " (");
		/* the names kept (a folded folder stands for its files): never a "?" */
		for (i = 0, n = 0; i < r->n_folded && i < DRAFT_FOLDED; i++) {
			if (!r->folded[i])
				continue;
			fprintf(f, "%s", n++ ? ", " : "");
			draft_escaped(f, r->folded[i], false);
		}
		fprintf(f, "%s); ", n < r->n_folded ? (n ? ", ..." : "...") : "");
	}
	fprintf(f, "%lu time%s, by ", r->count, r->count == 1 ? "" : "s");
	for (i = 0; i < DRAFT_COMMS && r->comms[i][0]; i++) {
		fprintf(f, "%s", i ? ", " : "");
		draft_escaped(f, r->comms[i], false);
	}
	fprintf(f, "%s\n", r->more_comms ? ", ..." : "");
}

/* @r, with @access (files: its own and the rules' it stands for too). */
static void write_rule(FILE *f, const struct draft_rule *r, unsigned int access)
{
	static const char *const ops[] = { "socket", "bind", "connect" };
	char addr[INET6_ADDRSTRLEN], text[POLICY_PATH_MAX + 4];
	size_t i, n;

	switch (r->kind) {
	case RULE_FILES:
		snprintf(text, sizeof(text), "%s%s", r->path,
			 !r->subtree ? "" : strcmp(r->path, "/") ? "/**" : "**");
		fprintf(f, access == ACCESS_EXEC && !r->inode ? "  - exec: " : "  - files: ");
		draft_escaped(f, text, true);
		fprintf(f, "\n");
		if (access != ACCESS_EXEC || r->inode) {
			fprintf(f, "    access: [");
			for (i = 0, n = 0; i < N_ACCESS; i++)
				if (access & (1u << i))
					fprintf(f, "%s%s", n++ ? ", " : "", access_names[i]);
			fprintf(f, "]\n");
		}
		if (r->inode)
			fprintf(f, "    match: inode\n");
		break;
	case RULE_NETWORK:
		fprintf(f, "  - network: %s\n", ops[r->op]);
		if (policy_family_name(r->family))
			fprintf(f, "    family: %s\n", policy_family_name(r->family));
		if (r->op == NET_SOCKET) {
			if (policy_type_name(r->type))
				fprintf(f, "    type: %s\n", policy_type_name(r->type));
			break;
		}
		if (r->family == AF_INET || r->family == AF_INET6) {
			inet_ntop(r->family, r->addr, addr, sizeof(addr));
			snprintf(text, sizeof(text), "%s/%d", addr, r->family == AF_INET6 ? 128 : 32);
			fprintf(f, "    cidr: ");
			draft_escaped(f, text, true);
			fprintf(f, "\n    ports: %u\n", r->port);
		}
		break;
	case RULE_CAPABILITY:
		fprintf(f, "  - capability: %s\n", policy_cap_name(__builtin_ctzll(r->caps)));
		break;
	default:
		break;
	}
	fprintf(f, "    action: allow\n");
}

/* Are @a and @b file rules on the same file, or the same folder's subtree? */
static bool same_object(const struct draft_rule *a, const struct draft_rule *b)
{
	return a->kind == RULE_FILES && b->kind == RULE_FILES && a->subtree == b->subtree &&
	       a->inode == b->inode && !strcmp(a->path, b->path);
}

/* Files first, by path; then network; then capabilities. */
static int rule_order(const void *a, const void *b)
{
	const struct draft_rule *x = a, *y = b;

	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	if (x->kind == RULE_FILES)
		return strcmp(x->path, y->path) ?: (int)x->subtree - (int)y->subtree ?:
		       (int)x->access - (int)y->access;	/* one object's rules together */
	if (x->kind == RULE_NETWORK && x->op != y->op)
		return (int)x->op - (int)y->op;
	return 0;
}

/* @len bytes of @line as the rest of a comment line, escaped. */
static void comment_line(FILE *f, const char *line, size_t len)
{
	char *copy = strndup(line, len);

	draft_escaped(f, copy ? copy : "(out of memory)", false);
	fputc('\n', f);
	free(copy);
}

/* The classes the draft's rules allow something of, as closed:'s bits. */
static unsigned int draft_allowed(const struct draft *d)
{
	unsigned int allowed = 0;
	size_t i;

	for (i = 0; i < d->n_rules; i++) {
		const struct draft_rule *r = &d->rules[i];

		if (r->kind == RULE_FILES)
			allowed |= r->access;
		else if (r->kind == RULE_NETWORK)
			allowed |= 1u << (CLOSED_SOCKET + r->op);
		else if (r->kind == RULE_CAPABILITY)
			allowed |= 1u << CLOSED_CAPABILITY;
	}
	return allowed;
}

int draft_write(struct draft *d, FILE *f, const char *name, const char *header)
{
	static const enum rule_kind fixed[] = { RULE_PTRACE, RULE_MOUNT, RULE_MODULE_LOAD,
						RULE_SIGNAL };
	const char *line, *end;
	unsigned int closed;
	size_t i, j, k;

	if (d->n_rules)
		qsort(d->rules, d->n_rules, sizeof(d->rules[0]), rule_order);
	for (line = header; line && *line; line = end + (*end == '\n')) {
		end = strchrnul(line, '\n');
		fprintf(f, "# ");
		comment_line(f, line, (size_t)(end - line));
	}
	for (line = d->notes; line && *line; line = end + 1) {
		end = strchr(line, '\n');
		fprintf(f, "# - %.*s\n", (int)(end - line), line);	/* escaped */
	}
	fprintf(f, "name: ");
	draft_escaped(f, name, true);
	fprintf(f, "\nmode: enforce\ndefault: deny\n");
	closed = ((1u << N_CLOSED) - 1) & ~draft_allowed(d);
	if (closed) {
		fprintf(f, "# what the run never did: closed, as default: deny closes the rest\nclosed: [");
		for (i = 0, j = 0; i < N_CLOSED; i++)
			if (closed & (1u << i))
				fprintf(f, "%s%s", j++ ? ", " : "", policy_closed_name(i));
		fprintf(f, "]\n");
	}
	fprintf(f, "rules:\n");
	for (i = 0; i < d->n_rules; i = j) {
		unsigned int access = d->rules[i].access;

		/* one rule for each file or folder: the accesses of those on it, a comment each */
		for (j = i + 1; j < d->n_rules && same_object(&d->rules[i], &d->rules[j]); j++)
			access |= d->rules[j].access;
		for (k = i; k < j; k++)
			write_comment(f, &d->rules[k], j - i > 1);
		write_rule(f, &d->rules[i], access);
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (d->fixed_seen[fixed[i]]) {
			fprintf(f, "  # %s: used %lu time%s (by ", rule_kind_name(fixed[i]),
				d->fixed_seen[fixed[i]], d->fixed_seen[fixed[i]] == 1 ? "" : "s");
			draft_escaped(f, d->fixed_comm[fixed[i]], false);
			fprintf(f, "): left to the default, allowed\n");
			continue;
		}
		fprintf(f, "  # %s: not used\n  - %s: deny\n", rule_kind_name(fixed[i]),
			rule_kind_name(fixed[i]));
	}
	return ferror(f) ? -EIO : 0;
}

void draft_free(struct draft *d)
{
	size_t i, j;

	for (i = 0; i < d->n_rules; i++) {
		free(d->rules[i].path);
		for (j = 0; j < DRAFT_FOLDED && j < d->rules[i].n_folded; j++)
			free(d->rules[i].folded[j]);
	}
	free(d->rules);
	free(d->notes);
	memset(d, 0, sizeof(*d));
}
