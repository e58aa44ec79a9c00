// SPDX-License-Identifier: GPL-2.0
/* lsmctl events: the journal's events, printed, and what was lost (see events.h). */
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cgroup.h"
#include "compile.h"
#include "errors.h"
#include "events.h"
#include "guard.h"
#include "journal.h"
#include "json_writer.h"
#include "output.h"
#include "store.h"
#include "text.h"

struct events_ctx {
	__u64 cgroup_id;
	long count, seen;
	json_writer_t *json;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * The policy and rule text of an event, as they were: from the pins of
 * its policy's generation (the applied one, or one kept since), read
 * once for the events of a generation that come one after another.
 */
static void event_rule(const struct lab_event *e, char *name, size_t nlen, char *text,
		       size_t tlen)
{
	static struct stored s;
	static __u64 cgroup_id;
	static __u32 generation;
	static int missing = -1;	/* -1: nothing read yet */

	if (missing < 0 || e->policy_cgroup_id != cgroup_id || e->generation != generation) {
		if (!missing)
			stored_free(&s);
		missing = stored_read_generation(e->policy_cgroup_id, e->generation, &s) ? 1 : 0;
		cgroup_id = e->policy_cgroup_id;
		generation = e->generation;
	}
	snprintf(name, nlen, "?");
	snprintf(text, tlen, e->rule == LAB_RULE_DEFAULT ? "default: deny" :
		 e->rule == LAB_RULE_SELF ? "self-protection" : "?");
	if (missing)
		return;
	snprintf(name, nlen, "%s", s.meta.name);
	if (e->rule < s.meta.n_rules)
		snprintf(text, tlen, "%s", s.rules[e->rule].text);
}

/*
 * The task's cgroup and the policy's, as the event has them (their
 * names when it happened), or as they are now for an event without.
 */
static void event_cgroups(const struct lab_event *e, char *cgroup, size_t clen,
			  char *policy, size_t plen)
{
	const char *top = e->cgroup_cut & LAB_CUT_TOP ? "..." : "";
	const char *end = e->cgroup_cut & LAB_CUT_END ? "..." : "";
	int len = e->policy_cgroup_len;

	if (!e->cgroup[0]) {
		snprintf(cgroup, clen, "%s", cgroup_path_of(e->cgroup_id));
		snprintf(policy, plen, "%s", cgroup_path_of(e->policy_cgroup_id));
		return;
	}
	snprintf(cgroup, clen, "%s%.*s%s", top, LAB_EVENT_CGROUP_LEN, e->cgroup, end);
	if (len > 0 && len <= LAB_EVENT_CGROUP_LEN && !e->cgroup_cut)
		snprintf(policy, plen, "%.*s", len, e->cgroup);
	else
		snprintf(policy, plen, "%s", cgroup_path_of(e->policy_cgroup_id));
}

static void event_json(json_writer_t *w, const struct lab_event *e, const char *when,
		       const char *verdict, const char *comm, const char *object,
		       const char *rule, const char *text, const char *name, const char *exe,
		       const char *cgroup, const char *policy_cgroup)
{
	char dev[32];

	snprintf(dev, sizeof(dev), "%u:%u", LAB_MAJOR(e->exe_dev), LAB_MINOR(e->exe_dev));
	jsonw_start_object(w);
	jsonw_string_field(w, "time", when);
	jsonw_string_field(w, "verdict", verdict);
	jsonw_string_field(w, "cgroup", cgroup);
	jsonw_string_field(w, "policy_cgroup", policy_cgroup);
	jsonw_uint_field(w, "pid", e->pid);
	jsonw_string_field(w, "comm", comm);
	jsonw_string_field(w, "hook", event_hook_name(e->hook));
	jsonw_string_field(w, "class", class_name(e->class));
	jsonw_string_field(w, "object", object);
	jsonw_string_field(w, "rule", rule);
	jsonw_string_field(w, "rule_text", text);
	jsonw_string_field(w, "policy", name);
	jsonw_uint_field(w, "uid", e->uid);
	jsonw_string_field(w, "exe", exe);
	jsonw_string_field(w, "exe_dev", dev);
	jsonw_uint_field(w, "exe_ino", e->exe_ino);
	jsonw_end_object(w);
}

static int on_event(void *data, const struct lab_event *e)
{
	struct events_ctx *ctx = data;
	char when[64], name[POLICY_NAME_MAX], text[RULE_TEXT_MAX];
	char comm[LAB_COMM_LEN + 1], exe[LAB_NAME_LEN + 1], file[LAB_NAME_LEN + 1], rule[16];
	char object[4 * sizeof(file) + 64];	/* the file's name escaped, and the rest */
	char cgroup[LAB_EVENT_CGROUP_LEN + 8], policy_cgroup[LAB_EVENT_CGROUP_LEN + 8];
	const char *verdict;

	if (stop)
		return 1;
	if (ctx->cgroup_id && e->cgroup_id != ctx->cgroup_id &&
	    e->policy_cgroup_id != ctx->cgroup_id)
		return 0;
	verdict = e->verdict == LAB_VERDICT_AUDIT ? "audit" : "deny";
	format_mono_time(e->time_ns, when, sizeof(when));
	event_rule(e, name, sizeof(name), text, sizeof(text));
	event_cgroups(e, cgroup, sizeof(cgroup), policy_cgroup, sizeof(policy_cgroup));
	snprintf(comm, sizeof(comm), "%.*s", LAB_COMM_LEN, e->comm);	/* no NUL when it is full */
	snprintf(exe, sizeof(exe), "%.*s", LAB_NAME_LEN, e->exe[0] ? e->exe : "?");
	snprintf(file, sizeof(file), "%.*s", LAB_NAME_LEN, e->name);
	if (e->rule == LAB_RULE_DEFAULT)
		snprintf(rule, sizeof(rule), "default");
	else if (e->rule == LAB_RULE_SELF)
		snprintf(rule, sizeof(rule), "self");
	else
		snprintf(rule, sizeof(rule), "%u", e->rule);
	if (ctx->json) {
		format_object(e, file, object, sizeof(object));
		event_json(ctx->json, e, when, verdict, comm, object, rule, text, name, exe,
			   cgroup, policy_cgroup);
	} else {
		char safe_cgroup[4 * sizeof(cgroup)], safe_comm[4 * sizeof(comm)];
		char safe_file[4 * sizeof(file)], safe_exe[4 * sizeof(exe)];

		/* the names, not the object's own '(', ',' and '=' */
		text_escaped(safe_cgroup, sizeof(safe_cgroup), cgroup);
		text_escaped(safe_comm, sizeof(safe_comm), comm);
		text_escaped(safe_file, sizeof(safe_file), file);
		text_escaped(safe_exe, sizeof(safe_exe), exe);
		format_object(e, safe_file, object, sizeof(object));
		printf("%s verdict=%s cgroup=%s pid=%u comm=%s hook=%s object=%s rule=%s (%s) policy=%s"
		       " uid=%u exe=%s(dev=%u:%u,ino=%llu)\n",
		       when, verdict, safe_cgroup, e->pid, safe_comm,
		       event_hook_name(e->hook), object, rule, text, name, e->uid, safe_exe,
		       LAB_MAJOR(e->exe_dev), LAB_MINOR(e->exe_dev),
		       (unsigned long long)e->exe_ino);
	}
	fflush(stdout);
	ctx->seen++;
	if (ctx->count && ctx->seen >= ctx->count)
		stop = 1;
	return 0;
}

/* Say that @n events were lost, and @why. */
static void say_lost(__u64 n, const char *why, const char *text, json_writer_t *json)
{
	if (!n)
		return;
	if (json) {
		jsonw_start_object(json);
		jsonw_uint_field(json, "lost", n);
		jsonw_string_field(json, "why", why);
		jsonw_end_object(json);
	} else {
		printf("lost %llu event(s): %s\n", (unsigned long long)n, text);
	}
	fflush(stdout);
}

/* A count of events the kernel could not report: a policy's (its folder) or the guard's (""). */
struct unreported {
	char dir[512];
	__u64 seen;
};

struct lost {
	__u64 behind, unwritten;	/* the reader's, said so far */
	struct unreported *counts;	/* the kernel's, as last seen */
	size_t n;
	bool counting;			/* counts hold what was seen; else all is new */
};

/*
 * Count @now for the counter @dir: what it grew by since it was last
 * seen (all of it the first time, when @l counts from nothing). A
 * counter lower than it was is a new one (its policy applied again, the
 * guard loaded again): all of it is new.
 */
static __u64 grew(struct lost *l, const char *dir, __u64 now)
{
	struct unreported *u;
	__u64 before;
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->counts[i].dir, dir))
			continue;
		before = l->counts[i].seen;
		l->counts[i].seen = now;
		return now >= before ? now - before : now;
	}
	u = realloc(l->counts, (l->n + 1) * sizeof(*u));
	if (!u)
		return 0;
	l->counts = u;
	snprintf(u[l->n].dir, sizeof(u[l->n].dir), "%s", dir);
	u[l->n++].seen = now;
	return l->counting ? now : 0;
}

/*
 * The events the kernel could not report since the last look, each
 * policy's and the guard's counter on its own: a counter that goes with
 * its policy hides no other's growth.
 */
static __u64 unreported_since(struct lost *l)
{
	struct stored *list;
	__u64 sum = grew(l, "", guard_lost());
	int i, n = stored_list(&list);
	char key[sizeof(list->dir) + 16];

	for (i = 0; i < n; i++) {
		/* a folder's counter is its policy's: one applied again there has its own */
		snprintf(key, sizeof(key), "%s:%u", list[i].dir, list[i].meta.policy);
		sum += grew(l, key, policy_lost(&list[i]));
	}
	if (n >= 0)
		stored_list_free(list, n);
	return sum;
}

static void report_lost(struct lost *l, const struct journal_reader *j, json_writer_t *json)
{
	say_lost(j->lost - l->behind, "behind", "this reader fell more than the journal holds "
		 "behind", json);
	l->behind = j->lost;
	say_lost(j->unwritten - l->unwritten, "unwritten", "numbered but not written in time "
		 "(their reports were held)", json);
	l->unwritten = j->unwritten;
	say_lost(unreported_since(l), "unreported", "the kernel could not report them "
		 "(another report held its CPU's draft, or the journal went round)", json);
}

int events_stream(const struct events_opts *o, char *err, size_t errlen)
{
	struct events_ctx ctx = { .cgroup_id = o->cgroup_id, .count = o->count, .json = o->json };
	struct timespec start, now;
	struct lost lost = { 0 };
	struct journal_reader j;
	time_t checked;
	int rc;

	rc = journal_open(&j, o->history, err, errlen);
	if (rc)
		return rc;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* the kernel's losses before this reader came: said with the history only */
	if (!o->history)
		unreported_since(&lost);	/* not counting yet: remembered */
	lost.counting = true;
	checked = 0;
	while (!stop) {
		rc = journal_poll(&j, 100, on_event, &ctx);
		if (rc < 0 && rc != -EINTR) {
			journal_close(&j);
			return errf(err, errlen, rc, "read the events journal: %s", strerror(-rc));
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec != checked) {	/* once a second */
			report_lost(&lost, &j, o->json);
			checked = now.tv_sec;
		}
		if (o->timeout && now.tv_sec - start.tv_sec >= o->timeout) {
			/* its time is up: what is there now, and the rest counted */
			journal_drain(&j, on_event, &ctx);
			break;
		}
	}
	report_lost(&lost, &j, o->json);
	journal_close(&j);
	free(lost.counts);
	return 0;
}
