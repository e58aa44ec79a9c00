// SPDX-License-Identifier: GPL-2.0
/*
 * lsmctl: per-cgroup BPF LSM policies for policy developers.
 *
 * Policies are YAML files (loader/POLICY.md); applied ones are pinned
 * under /sys/fs/bpf/lsmlab (store.h) and enforced by the engine in
 * bpf-progs/policy/, through one of two backends (backend.h).
 */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "compile.h"
#include "guard.h"
#include "output.h"
#include "policy.h"
#include "probe.h"
#include "store.h"

#define EXIT_FAIL 1
#define EXIT_USAGE 2

static const char *const commands_help =
	"usage: lsmctl COMMAND [ARGS]\n"
	"\n"
	"commands:\n"
	"  check FILE                       validate a policy file; nothing is loaded\n"
	"  apply FILE --cgroup PATH [--backend cgroup|global]\n"
	"                                   enforce FILE on a cgroup and everything below it,\n"
	"                                   replacing its policy atomically\n"
	"  detach --cgroup PATH             remove a cgroup's policy\n"
	"  list [-j]                        the applied policies\n"
	"  show PATH [-j]                   one cgroup's policy: rules, hooks, origin\n"
	"  events [-j] [--cgroup PATH] [--count N] [--timeout SECONDS]\n"
	"                                   stream denials and audit-mode reports\n"
	"  stats [-j]                       per-rule hits, per-program runs and run time\n"
	"  run FILE [--backend B] -- CMD [ARG...]\n"
	"                                   run CMD in a new cgroup under FILE's policy\n"
	"  probe [-j]                       what the running kernel offers each backend\n"
	"  --version                        lsmctl's version\n"
	"\n"
	"'lsmctl COMMAND --help' describes each. Exit status: 0 success; 1 the policy\n"
	"is invalid or the operation failed, and nothing was changed; 2 bad usage;\n"
	"run exits with CMD's status, probe as its --help says. Policy format:\n"
	"loader/POLICY.md.\n";

static int json;

static int usage_error(const char *help, const char *fmt, const char *arg)
{
	fprintf(stderr, "lsmctl: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", help);
	return EXIT_USAGE;
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "lsmctl: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAIL;
}

/* Parse --cgroup, --backend, -j, --count, --timeout; the rest are operands. */
struct opts {
	const char *cgroup;
	enum backend backend;
	long count;
	long timeout;
	long filler;
	int nargs;
	char **args;
};

static int parse_opts(int argc, char **argv, const char *help, const char *allowed,
		      struct opts *o)
{
	static const struct option longopts[] = {
		{ "cgroup", required_argument, NULL, 'c' },
		{ "backend", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "filler", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jhc:b:n:t:f:", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			exit(0);
		}
		if (c == '?' || !strchr(allowed, c))
			return usage_error(help, "unknown or misplaced option '%s'", argv[optind - 1]);
		switch (c) {
		case 'c':
			o->cgroup = optarg;
			break;
		case 'b':
			if (!strcmp(optarg, "cgroup") || !strcmp(optarg, "lsm_cgroup"))
				o->backend = BACKEND_CGROUP;
			else if (!strcmp(optarg, "global"))
				o->backend = BACKEND_GLOBAL;
			else
				return usage_error(help, "backend '%s': cgroup or global", optarg);
			break;
		case 'j':
			json = 1;
			break;
		case 'n':
		case 't':
		case 'f':
			errno = 0;
			*(c == 'n' ? &o->count : c == 't' ? &o->timeout : &o->filler) =
				strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || strtol(optarg, NULL, 10) < 0)
				return usage_error(help, "'%s' is not a count of 0 or more", optarg);
			break;
		}
	}
	o->nargs = argc - optind;
	o->args = argv + optind;
	return 0;
}

/*
 * Before reading the pins: finish or undo what a killed lsmctl left, so
 * that what is listed is what is enforced.
 */
static int settle(void)
{
	char err[512];

	if (store_open(false, err, sizeof(err)))
		return fail("%s", err);
	store_close();
	return 0;
}

static const char *backend_name(unsigned int b)
{
	return b == BACKEND_GLOBAL ? "global" : "cgroup";
}

/* check */

static const char help_check[] =
	"usage: lsmctl check FILE\n"
	"Validate the policy in FILE without loading anything: every error names\n"
	"FILE:LINE:COL. Paths are resolved by apply, not here.\n";

static int cmd_check(int argc, char **argv)
{
	size_t i, counts[RULE_CAPABILITY + 1] = { 0 };
	struct policy p;
	struct opts o;
	char err[512];
	int rc = parse_opts(argc, argv, help_check, "", &o);

	if (rc)
		return rc;
	if (o.nargs != 1)
		return usage_error(help_check, "%s", "check takes one FILE");
	if (policy_parse_file(o.args[0], &p, err, sizeof(err)))
		return fail("%s", err);
	for (i = 0; i < p.n_rules; i++)
		counts[p.rules[i].kind]++;
	printf("%s: policy '%s', %s, default %s, %zu rule(s):", o.args[0], p.name,
	       p.audit ? "audit" : "enforce", p.default_deny ? "deny" : "allow", p.n_rules);
	for (i = 0; i <= RULE_CAPABILITY; i++)
		if (counts[i])
			printf(" %zu %s", counts[i], rule_kind_name((enum rule_kind)i));
	printf("\n");
	policy_free(&p);
	return 0;
}

/* apply */

static const char help_apply[] =
	"usage: lsmctl apply FILE --cgroup PATH [--backend cgroup|global] [--filler N]\n"
	"Enforce the policy in FILE on the cgroup2 folder PATH and every cgroup\n"
	"below it. A policy already on PATH is replaced atomically: its tasks are\n"
	"never unconfined. On any failure nothing changes and the reason is\n"
	"printed. Backends: cgroup (default; lsm_cgroup programs attached to PATH)\n"
	"or global (lsm/ programs for every task, which look PATH up in a map).\n"
	"--filler N adds N file rules that match nothing, for benchmarks of\n"
	"cost against rule count.\n";

/* The cgroup2 folder lsmctl runs in, below CGROUP_ROOT; 0 or -1. */
static int own_cgroup(char *buf, size_t len)
{
	char line[PATH_MAX];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int rc = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, len, CGROUP_ROOT "%.3000s", strcmp(line + 3, "/") ? line + 3 : "");
			rc = 0;
		}
	fclose(f);
	return rc;
}

/* Is the cgroup @path (below CGROUP_ROOT, "/" for the root) @top or below it? */
static int cgroup_under(const char *path, const char *top)
{
	size_t n = strlen(top);

	return !strcmp(top, "/") || (!strncmp(path, top, n) && (!path[n] || path[n] == '/'));
}

/*
 * Parse, compile and apply @file to @cgroup; 0, or EXIT_FAIL having
 * printed why and left everything as it was.
 */
static int apply_policy(const char *file, const char *cgroup, enum backend backend,
			long filler)
{
	char err[1024], ignored[256], staging[256], final[256], rel[256], own[PATH_MAX];
	struct lab_meta meta = { 0 };
	struct compiled c;
	struct policy p;
	struct stat st;
	__u64 cgid;
	__u32 level, id;
	int cgfd, rc;

	if (policy_parse_file(file, &p, err, sizeof(err)))
		return fail("%s", err);
	rc = policy_compile(file, &p, &c, err, sizeof(err));
	if (rc) {
		policy_free(&p);
		return fail("%s", err);
	}
	if (compiled_add_filler(&c, (size_t)filler)) {
		rc = fail("out of memory for %ld filler rules", filler);
		goto out_compiled;
	}
	if (cgroup_resolve(cgroup, &cgid, &level, rel, sizeof(rel), err, sizeof(err))) {
		rc = fail("%s", err);
		goto out_compiled;
	}
	/*
	 * The engine finds a policy by the cgroup's level in the kernel's
	 * hierarchy, counted here from the path: that needs the hierarchy's
	 * root (id 1) at CGROUP_ROOT, not a cgroup namespace's view of it.
	 */
	if (stat(CGROUP_ROOT, &st) || st.st_ino != 1) {
		rc = fail(CGROUP_ROOT " is not the root of the cgroup2 hierarchy (a cgroup "
			  "namespace, or a bind mount of a cgroup): cgroup levels would be wrong");
		goto out_compiled;
	}
	/* self-protection would keep lsmctl itself from undoing the policy */
	if ((c.conf.flags & LAB_SELF_PROTECT) && !own_cgroup(own, sizeof(own)) &&
	    cgroup_under(own + strlen(CGROUP_ROOT), rel)) {
		rc = fail("self-protection on %s would confine this lsmctl too (it runs in %s), "
			  "which could then not detach it: apply from outside the cgroup, or "
			  "with self_protection: off", rel, own);
		goto out_compiled;
	}
	if (level >= LAB_MAX_CGROUP_DEPTH) {
		rc = fail("cgroup %s is %u levels deep: policies go on cgroups less than %d deep",
			  cgroup, level, LAB_MAX_CGROUP_DEPTH);
		goto out_compiled;
	}
	cgfd = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgfd < 0) {
		rc = fail("cgroup %s: %s", cgroup, strerror(errno));
		goto out_compiled;
	}
	/* the cgroup attached to is the one resolved: not one made again at its path */
	if (fstat(cgfd, &st) || st.st_ino != cgid) {
		rc = fail("cgroup %s was removed and made again while applying: nothing was changed",
			  cgroup);
		goto out_cgfd;
	}
	if (store_open(true, err, sizeof(err))) {
		rc = fail("%s", err);
		goto out_cgfd;
	}
	id = store_next_policy_id();
	if (!id) {
		rc = fail("%d policies are applied already: detach some first", LAB_MAX_POLICIES - 1);
		goto out_store;
	}
	c.conf.cgroup_id = cgid;
	c.conf.cgroup_level = level;
	snprintf(meta.name, sizeof(meta.name), "%s", p.name);
	snprintf(meta.cgroup, sizeof(meta.cgroup), "%s", rel);
	snprintf(meta.file, sizeof(meta.file), "%s", file);
	meta.cgroup_id = cgid;
	meta.applied = time(NULL);
	meta.hooks = c.hooks;
	meta.backend = backend;
	meta.policy = id;
	meta.flags = c.conf.flags;
	if (c.conf.fixed_rule[LAB_SIGNAL] && !c.conf.fixed_deny[LAB_SIGNAL])
		meta.flags |= LAB_GUARD_SIGNAL;	/* self-protection lets signals out */
	meta.cgroup_level = level;
	meta.default_deny = c.conf.default_deny;
	meta.n_rules = c.n_rules;
	meta.pid = getpid();

	snprintf(staging, sizeof(staging), PIN_ROOT "/new-%llu-%d", (unsigned long long)cgid,
		 getpid());
	policy_dir(cgid, final, sizeof(final));
	if (mkdir(staging, 0700) || pin_meta(staging, &meta, &c)) {
		rc = fail("pin the policy in %s: %s", staging, strerror(errno));
		teardown(staging);
		goto out_store;
	}
	/*
	 * The guard takes the cgroup on before any of the policy is: its
	 * pins in staging are the guarded tasks' to leave alone too.
	 */
	rc = guard_sync(&meta, err, sizeof(err));
	if (!rc && backend == BACKEND_GLOBAL)
		rc = global_install(staging, &c, id, cgid, err, sizeof(err));
	else if (!rc)
		rc = cgroup_install(staging, &c, id, cgfd, err, sizeof(err));
	if (rc) {
		teardown(staging);
		guard_sync(NULL, ignored, sizeof(ignored));	/* back to the committed ones */
		rc = fail("%s: %s; nothing was changed", file, err);
		goto out_store;
	}
	/* commit: one rename puts the whole policy in place */
	if (!renameat2(AT_FDCWD, staging, AT_FDCWD, final, RENAME_NOREPLACE)) {
		rc = 0;
	} else if (errno == EEXIST &&
		   !renameat2(AT_FDCWD, staging, AT_FDCWD, final, RENAME_EXCHANGE)) {
		teardown(staging);	/* the replaced policy, now in staging */
		rc = 0;
	} else {
		rc = fail("commit %s: %s; nothing was changed", final, strerror(errno));
		teardown(staging);
	}
	if (guard_sync(NULL, err, sizeof(err)) && !rc)
		rc = fail("%s: applied, but self-protection's guard: %s", file, err);
	if (!rc && !json)
		printf("applied '%s' to %s (%s backend, %s, %zu rule(s), %d hook(s))\n", p.name,
		       rel, backend_name(backend), p.audit ? "audit" : "enforce", c.n_rules,
		       __builtin_popcountll(c.hooks));
out_store:
	store_close();
out_cgfd:
	close(cgfd);
out_compiled:
	compiled_free(&c);
	policy_free(&p);
	return rc;
}

static int cmd_apply(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_apply, "cbjf", &o);

	if (rc)
		return rc;
	if (o.nargs != 1 || !o.cgroup)
		return usage_error(help_apply, "%s", "apply takes FILE and --cgroup PATH");
	return apply_policy(o.args[0], o.cgroup, o.backend, o.filler);
}

/* detach */

static const char help_detach[] =
	"usage: lsmctl detach --cgroup PATH\n"
	"Remove the policy applied to the cgroup PATH (not its ancestors' or\n"
	"descendants' policies).\n";

static int detach_policy(const char *cgroup, int quiet)
{
	char err[512], rel[256], final[256], old[256];
	struct stat st;
	__u64 cgid;
	__u32 level;
	int rc = 0;

	if (cgroup_resolve(cgroup, &cgid, &level, rel, sizeof(rel), err, sizeof(err)))
		return fail("%s", err);
	if (store_open(true, err, sizeof(err)))
		return fail("%s", err);
	policy_dir(cgid, final, sizeof(final));
	snprintf(old, sizeof(old), PIN_ROOT "/old-%llu-%d", (unsigned long long)cgid, getpid());
	if (stat(final, &st))
		rc = fail("no policy on %s", rel);
	else if (rename(final, old))
		rc = fail("detach %s: %s", rel, strerror(errno));
	else
		teardown(old);
	if (!rc && guard_sync(NULL, err, sizeof(err)))
		rc = fail("detached, but self-protection's guard: %s", err);
	if (!rc && !quiet && !json)
		printf("detached the policy on %s\n", rel);
	store_close();
	return rc;
}

static int cmd_detach(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, help_detach, "c", &o);

	if (rc)
		return rc;
	if (o.nargs || !o.cgroup)
		return usage_error(help_detach, "%s", "detach takes --cgroup PATH");
	return detach_policy(o.cgroup, 0);
}

/* list, show */

static const char help_list[] =
	"usage: lsmctl list [-j]\n"
	"The applied policies: cgroup, name, backend, mode, rules and hooks.\n";

static void print_policy_json(const struct stored *s, int with_rules)
{
	unsigned int h, i, first = 1;

	printf("{\"cgroup\":");
	json_string(stdout, s->meta.cgroup);
	printf(",\"cgroup_id\":%llu,\"name\":", (unsigned long long)s->meta.cgroup_id);
	json_string(stdout, s->meta.name);
	printf(",\"backend\":\"%s\",\"mode\":\"%s\",\"rules\":%u,\"file\":",
	       backend_name(s->meta.backend), s->meta.flags & LAB_AUDIT ? "audit" : "enforce",
	       s->meta.n_rules);
	json_string(stdout, s->meta.file);
	printf(",\"applied\":%llu,\"policy_id\":%u,\"hooks\":[",
	       (unsigned long long)s->meta.applied, s->meta.policy);
	for (h = 0; h < LAB_NR_HOOKS; h++)
		if (s->meta.hooks & (1ull << h)) {
			printf("%s\"%s\"", first ? "" : ",", hook_name(h));
			first = 0;
		}
	printf("]");
	if (with_rules) {
		printf(",\"rule_list\":[");
		for (i = 0; i < s->meta.n_rules; i++) {
			printf("%s{\"index\":%u,\"line\":%u,\"text\":", i ? "," : "", i,
			       s->rules[i].line);
			json_string(stdout, s->rules[i].text);
			printf("}");
		}
		printf("]");
	}
	printf("}");
}

static int cmd_list(int argc, char **argv)
{
	struct stored *list;
	struct opts o;
	int rc = parse_opts(argc, argv, help_list, "j", &o), n, i;

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_list, "%s", "list takes no operands");
	if (settle())
		return EXIT_FAIL;
	n = stored_list(&list);
	if (n < 0)
		return fail(PIN_ROOT ": %s", strerror(errno));
	if (json) {
		printf("[");
		for (i = 0; i < n; i++) {
			printf(i ? "," : "");
			print_policy_json(&list[i], 0);
		}
		printf("]\n");
	} else {
		printf("%-24s %-20s %-7s %-7s %5s %5s\n", "CGROUP", "POLICY", "BACKEND", "MODE",
		       "RULES", "HOOKS");
		for (i = 0; i < n; i++)
			printf("%-24s %-20s %-7s %-7s %5u %5d\n", list[i].meta.cgroup,
			       list[i].meta.name, backend_name(list[i].meta.backend),
			       list[i].meta.flags & LAB_AUDIT ? "audit" : "enforce",
			       list[i].meta.n_rules, __builtin_popcountll(list[i].meta.hooks));
	}
	stored_list_free(list, n);
	return 0;
}

static const char help_show[] =
	"usage: lsmctl show PATH [-j]\n"
	"The policy on the cgroup PATH: its file, mode, backend, hooks and rules.\n";

static int cmd_show(int argc, char **argv)
{
	char err[512], rel[256], dir[256];
	struct stored s;
	struct opts o;
	__u64 cgid;
	__u32 level, i, h;
	int rc = parse_opts(argc, argv, help_show, "j", &o);

	if (rc)
		return rc;
	if (o.nargs != 1)
		return usage_error(help_show, "%s", "show takes one cgroup PATH");
	if (cgroup_resolve(o.args[0], &cgid, &level, rel, sizeof(rel), err, sizeof(err)))
		return fail("%s", err);
	if (settle())
		return EXIT_FAIL;
	policy_dir(cgid, dir, sizeof(dir));
	if (stored_read(dir, &s))
		return fail("no policy on %s", rel);
	if (json) {
		print_policy_json(&s, 1);
		printf("\n");
	} else {
		char when[64];
		time_t t = (time_t)s.meta.applied;

		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime(&t));
		printf("cgroup:  %s (id %llu)\npolicy:  %s, from %s, applied %s\n", s.meta.cgroup,
		       (unsigned long long)s.meta.cgroup_id, s.meta.name, s.meta.file, when);
		printf("mode:    %s, %s backend\nhooks:  ",
		       s.meta.flags & LAB_AUDIT ? "audit" : "enforce", backend_name(s.meta.backend));
		for (h = 0; h < LAB_NR_HOOKS; h++)
			if (s.meta.hooks & (1ull << h))
				printf(" %s", hook_name(h));
		printf("\nrules:\n");
		for (i = 0; i < s.meta.n_rules; i++)
			printf("  %3u  line %-4u %s\n", i, s.rules[i].line, s.rules[i].text);
	}
	stored_free(&s);
	return 0;
}

/* events */

static const char help_events[] =
	"usage: lsmctl events [-j] [--cgroup PATH] [--count N] [--timeout SECONDS]\n"
	"Print each denial (verdict deny) and each audit-mode would-be denial\n"
	"(verdict audit) as it happens: time, verdict, the task's cgroup, pid,\n"
	"comm, hook, object, and the deciding rule (or 'default'). Events queued\n"
	"while nobody listened come first. --cgroup keeps the events of tasks in\n"
	"PATH and of PATH's policy; stop after N events or SECONDS seconds.\n"
	"Events the ring had no room for (every policy's, while it was full) are\n"
	"counted: a line 'lost N event(s)' ({\"lost\":N} with -j) says how many\n"
	"went since the last such line (the first: since the policies were\n"
	"applied); lsmctl stats has the totals.\n";

struct events_ctx {
	__u64 cgroup_id;
	long count, seen;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The policy and rule text of an event, looked up in its policy's pins. */
static void event_rule(const struct lab_event *e, char *name, size_t nlen, char *text,
		       size_t tlen)
{
	char dir[256];
	struct stored s;

	snprintf(name, nlen, "?");
	snprintf(text, tlen, e->rule == LAB_RULE_DEFAULT ? "default: deny" :
		 e->rule == LAB_RULE_SELF ? "self-protection" : "?");
	policy_dir(e->policy_cgroup_id, dir, sizeof(dir));
	if (stored_read(dir, &s))
		return;
	snprintf(name, nlen, "%s", s.meta.name);
	if (e->rule < s.meta.n_rules)
		snprintf(text, tlen, "%s", s.rules[e->rule].text);
	stored_free(&s);
}

static int on_event(void *data, void *raw, size_t size)
{
	struct events_ctx *ctx = data;
	const struct lab_event *e = raw;
	char when[64], object[128], name[64], text[RULE_TEXT_MAX], comm[17], rule[16];
	const char *verdict;

	if (size < sizeof(*e))
		return 0;
	if (ctx->cgroup_id && e->cgroup_id != ctx->cgroup_id &&
	    e->policy_cgroup_id != ctx->cgroup_id)
		return 0;
	verdict = e->verdict == LAB_VERDICT_AUDIT ? "audit" : "deny";
	format_mono_time(e->time_ns, when, sizeof(when));
	format_object(e, object, sizeof(object));
	event_rule(e, name, sizeof(name), text, sizeof(text));
	snprintf(comm, sizeof(comm), "%.16s", e->comm);
	if (e->rule == LAB_RULE_DEFAULT)
		snprintf(rule, sizeof(rule), "default");
	else if (e->rule == LAB_RULE_SELF)
		snprintf(rule, sizeof(rule), "self");
	else
		snprintf(rule, sizeof(rule), "%u", e->rule);
	if (json) {
		printf("{\"time\":\"%s\",\"verdict\":\"%s\",\"cgroup\":", when, verdict);
		json_string(stdout, cgroup_path_of(e->cgroup_id));
		printf(",\"policy_cgroup\":");
		json_string(stdout, cgroup_path_of(e->policy_cgroup_id));
		printf(",\"pid\":%u,\"comm\":", e->pid);
		json_string(stdout, comm);
		printf(",\"hook\":\"%s\",\"class\":\"%s\",\"object\":", event_hook_name(e->hook),
		       class_name(e->class));
		json_string(stdout, object);
		printf(",\"rule\":\"%s\",\"rule_text\":", rule);
		json_string(stdout, text);
		printf(",\"policy\":");
		json_string(stdout, name);
		printf("}\n");
	} else {
		printf("%s verdict=%s cgroup=%s pid=%u comm=%s hook=%s object=%s rule=%s (%s) policy=%s\n",
		       when, verdict, cgroup_path_of(e->cgroup_id), e->pid, comm,
		       event_hook_name(e->hook), object, rule, text, name);
	}
	fflush(stdout);
	ctx->seen++;
	if (ctx->count && ctx->seen >= ctx->count)
		stop = 1;
	return 0;
}

/* Every policy's and the guard's events the ring had no room for, so far. */
static __u64 lost_events(void)
{
	struct stored *list;
	__u64 sum = guard_lost();
	int i, n = stored_list(&list);

	for (i = 0; i < n; i++)
		sum += policy_lost(&list[i]);
	if (n >= 0)
		stored_list_free(list, n);
	return sum;
}

/* Say how many events were lost since @seen, if any; the new total. */
static __u64 report_lost(__u64 seen)
{
	__u64 now = lost_events();

	if (now > seen) {
		if (json)
			printf("{\"lost\":%llu}\n", (unsigned long long)(now - seen));
		else
			printf("lost %llu event(s): the ring was full\n",
			       (unsigned long long)(now - seen));
		fflush(stdout);
	}
	return now;
}

static int cmd_events(int argc, char **argv)
{
	struct events_ctx ctx = { 0 };
	struct ring_buffer *rb;
	struct timespec start, now;
	time_t checked;
	__u64 lost;
	char err[512], rel[256];
	__u32 level;
	struct opts o;
	int rc = parse_opts(argc, argv, help_events, "jcnt", &o), fd;

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_events, "%s", "events takes no operands");
	if (o.cgroup &&
	    cgroup_resolve(o.cgroup, &ctx.cgroup_id, &level, rel, sizeof(rel), err, sizeof(err)))
		return fail("%s", err);
	ctx.count = o.count;
	if (store_open(false, err, sizeof(err)))
		return fail("%s", err);
	fd = store_events_fd();
	store_close();	/* reading needs no lock */
	if (fd < 0 && errno == EPERM)
		return fail("the events ring buffer: %s (a task under self-protection cannot "
			    "consume events: read them from outside its cgroup)", strerror(errno));
	if (fd < 0)
		return fail("the events ring buffer: %s", strerror(errno));
	rb = ring_buffer__new(fd, on_event, &ctx, NULL);
	if (!rb)
		return fail("read the events ring buffer: %s", strerror(errno));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &start);
	lost = 0;	/* what was lost before this listener came is said too */
	checked = 0;
	while (!stop) {
		rc = ring_buffer__poll(rb, 100);
		if (rc < 0 && rc != -EINTR) {
			ring_buffer__free(rb);
			return fail("poll the events: %s", strerror(-rc));
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec != checked) {	/* once a second */
			lost = report_lost(lost);
			checked = now.tv_sec;
		}
		if (o.timeout && now.tv_sec - start.tv_sec >= o.timeout)
			break;
	}
	ring_buffer__consume(rb);
	report_lost(lost);
	ring_buffer__free(rb);
	close(fd);
	return 0;
}

/* stats */

static const char help_stats[] =
	"usage: lsmctl stats [-j]\n"
	"Per policy: how often each rule (and the default) decided, and per\n"
	"program the kernel's run count and run_time_ns. The kernel counts runs\n"
	"only while sysctl kernel.bpf_stats_enabled is 1. Programs of the global\n"
	"backend are shared by every global policy.\n";

static int bpf_stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static void stats_programs(const struct stored *s)
{
	struct bpf_link_info link;
	struct bpf_prog_info prog;
	unsigned int hooks[LAB_NR_HOOKS];
	int fds[LAB_NR_HOOKS], n, i, pfd;
	__u32 len;

	n = policy_links(s, fds, hooks, LAB_NR_HOOKS);
	for (i = 0; i < n; i++) {
		memset(&link, 0, sizeof(link));
		memset(&prog, 0, sizeof(prog));
		len = sizeof(link);
		if (!bpf_obj_get_info_by_fd(fds[i], &link, &len)) {
			pfd = bpf_prog_get_fd_by_id(link.prog_id);
			len = sizeof(prog);
			if (pfd >= 0) {
				bpf_obj_get_info_by_fd(pfd, &prog, &len);
				close(pfd);
			}
		}
		close(fds[i]);
		if (json)
			printf("%s{\"hook\":\"%s\",\"prog_id\":%u,\"run_cnt\":%llu,\"run_time_ns\":%llu}",
			       i ? "," : "", hook_name(hooks[i]), link.prog_id,
			       (unsigned long long)prog.run_cnt,
			       (unsigned long long)prog.run_time_ns);
		else
			printf("  program %-22s id %-5u runs %-10llu run_time_ns %-12llu avg %.0f\n",
			       hook_name(hooks[i]), link.prog_id, (unsigned long long)prog.run_cnt,
			       (unsigned long long)prog.run_time_ns,
			       prog.run_cnt ? (double)prog.run_time_ns / prog.run_cnt : 0.0);
	}
}

static int cmd_stats(int argc, char **argv)
{
	struct stored *list;
	struct opts o;
	__u64 *hits, default_hits;
	int rc = parse_opts(argc, argv, help_stats, "j", &o), n, i, enabled;
	__u32 r;

	if (rc)
		return rc;
	if (o.nargs)
		return usage_error(help_stats, "%s", "stats takes no operands");
	if (settle())
		return EXIT_FAIL;
	n = stored_list(&list);
	if (n < 0)
		return fail(PIN_ROOT ": %s", strerror(errno));
	enabled = bpf_stats_enabled();
	if (json)
		printf("{\"bpf_stats_enabled\":%s,\"policies\":[", enabled ? "true" : "false");
	else if (!enabled)
		printf("(run counts: sysctl kernel.bpf_stats_enabled=1 to have the kernel count)\n");
	for (i = 0; i < n; i++) {
		struct stored *s = &list[i];

		hits = calloc(s->meta.n_rules + 1, sizeof(*hits));
		if (!hits)
			break;
		policy_hits(s, hits, &default_hits);
		if (json) {
			printf("%s{\"cgroup\":", i ? "," : "");
			json_string(stdout, s->meta.cgroup);
			printf(",\"name\":");
			json_string(stdout, s->meta.name);
			printf(",\"backend\":\"%s\",\"rules\":[", backend_name(s->meta.backend));
			for (r = 0; r < s->meta.n_rules; r++) {
				printf("%s{\"index\":%u,\"line\":%u,\"hits\":%llu,\"text\":",
				       r ? "," : "", r, s->rules[r].line,
				       (unsigned long long)hits[r]);
				json_string(stdout, s->rules[r].text);
				printf("}");
			}
			printf("],\"default_hits\":%llu,\"lost_events\":%llu,\"programs\":[",
			       (unsigned long long)default_hits,
			       (unsigned long long)policy_lost(s));
			stats_programs(s);
			printf("]}");
		} else {
			printf("%s: policy '%s' (%s backend)\n", s->meta.cgroup, s->meta.name,
			       backend_name(s->meta.backend));
			for (r = 0; r < s->meta.n_rules; r++)
				printf("  rule %-3u line %-4u hits %-10llu %s\n", r, s->rules[r].line,
				       (unsigned long long)hits[r], s->rules[r].text);
			printf("  default           hits %llu\n", (unsigned long long)default_hits);
			printf("  events lost (the ring was full): %llu\n",
			       (unsigned long long)policy_lost(s));
			stats_programs(s);
		}
		free(hits);
	}
	if (json)
		printf("],\"guard_lost_events\":%llu}\n", (unsigned long long)guard_lost());
	else
		printf("self-protection's guard: events lost (the ring was full): %llu\n",
		       (unsigned long long)guard_lost());
	stored_list_free(list, n);
	return 0;
}

/* run */

static const char help_run[] =
	"usage: lsmctl run FILE [--backend cgroup|global] -- CMD [ARG...]\n"
	"Create a new cgroup below lsmctl's own, apply FILE to it, run CMD in it\n"
	"and wait; then end what CMD left running there, detach the policy, and\n"
	"remove the cgroup. Exits with CMD's status (128+N if killed by signal N).\n";

static void write_file(const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, value, strlen(value)) < 0)
		(void)0;	/* cgroup.kill is new in 5.14: best effort */
	close(fd);
}

/* Has the cgroup @dir, or one below it, a task (cgroup.events)? */
static int cgroup_populated(const char *dir)
{
	char path[PATH_MAX], line[64];
	int populated = 1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	f = fopen(path, "r");
	if (!f)
		return errno != ENOENT;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "populated ", 10))
			populated = atoi(line + 10) != 0;
	fclose(f);
	return populated;
}

static int cmd_run(int argc, char **argv)
{
	char parent[PATH_MAX - 64], cg[PATH_MAX];
	struct opts o;
	char **cmd;
	int rc, status, tries, dash;
	pid_t pid;

	/* lsmctl's options come before "--", CMD's after */
	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	rc = parse_opts(dash, argv, help_run, "b", &o);
	if (rc)
		return rc;
	if (o.nargs != 1 || dash >= argc - 1)
		return usage_error(help_run, "%s", "run takes FILE -- CMD [ARG...]");
	cmd = argv + dash + 1;
	if (own_cgroup(parent, sizeof(parent)))
		return fail("/proc/self/cgroup: no cgroup2 entry");
	snprintf(cg, sizeof(cg), "%s/lsmctl-run-%d", parent, getpid());
	if (mkdir(cg, 0755))
		return fail("mkdir %s: %s", cg, strerror(errno));
	if (apply_policy(o.args[0], cg, o.backend, 0)) {
		rmdir(cg);
		return EXIT_FAIL;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		rc = fail("fork: %s", strerror(errno));
	} else if (pid == 0) {
		write_file(cg, "cgroup.procs", "0");
		execvp(cmd[0], cmd);
		fprintf(stderr, "lsmctl: run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	} else {
		signal(SIGINT, SIG_IGN);	/* CMD gets them; we wait for it */
		signal(SIGQUIT, SIG_IGN);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	/*
	 * What CMD left behind is killed under the policy, and only then is
	 * the policy taken off: the other way round, a task left running
	 * could leave the cgroup between the two.
	 */
	write_file(cg, "cgroup.kill", "1");
	for (tries = 0; cgroup_populated(cg) && tries < 100; tries++)
		usleep(50 * 1000);
	if (cgroup_populated(cg))
		return fail("%s: tasks still running after cgroup.kill: the policy stays", cg);
	detach_policy(cg, 1);
	for (tries = 0; rmdir(cg) && errno == EBUSY && tries < 100; tries++)
		usleep(50 * 1000);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} commands[] = {
		{ "check", cmd_check }, { "apply", cmd_apply }, { "detach", cmd_detach },
		{ "list", cmd_list },   { "show", cmd_show },   { "events", cmd_events },
		{ "stats", cmd_stats }, { "run", cmd_run },
		{ "probe", cmd_probe }, { "--version", cmd_version },
	};
	size_t i;

	if (argc < 2) {
		fputs(commands_help, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(commands_help, stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "lsmctl: unknown command '%s'\n", argv[1]);
	fputs(commands_help, stderr);
	return EXIT_USAGE;
}
