// SPDX-License-Identifier: GPL-2.0
/* The events ring's reader and its lost-event accounting (see events.h). */
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cgroup.h"
#include "compile.h"
#include "errors.h"
#include "events.h"
#include "guard.h"
#include "json_writer.h"
#include "output.h"
#include "store.h"

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

static void event_json(json_writer_t *w, const struct lab_event *e, const char *when,
		       const char *verdict, const char *comm, const char *object,
		       const char *rule, const char *text, const char *name, const char *exe)
{
	char dev[32];

	snprintf(dev, sizeof(dev), "%u:%u", LAB_MAJOR(e->exe_dev), LAB_MINOR(e->exe_dev));
	jsonw_start_object(w);
	jsonw_string_field(w, "time", when);
	jsonw_string_field(w, "verdict", verdict);
	jsonw_string_field(w, "cgroup", cgroup_path_of(e->cgroup_id));
	jsonw_string_field(w, "policy_cgroup", cgroup_path_of(e->policy_cgroup_id));
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

static int on_event(void *data, void *raw, size_t size)
{
	struct events_ctx *ctx = data;
	const struct lab_event *e = raw;
	char when[64], object[128], name[POLICY_NAME_MAX], text[RULE_TEXT_MAX];
	char comm[LAB_COMM_LEN + 1], exe[LAB_NAME_LEN + 1], rule[16];
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
	snprintf(comm, sizeof(comm), "%.*s", LAB_COMM_LEN, e->comm);	/* no NUL when it is full */
	snprintf(exe, sizeof(exe), "%.*s", LAB_NAME_LEN, e->exe[0] ? e->exe : "?");
	if (e->rule == LAB_RULE_DEFAULT)
		snprintf(rule, sizeof(rule), "default");
	else if (e->rule == LAB_RULE_SELF)
		snprintf(rule, sizeof(rule), "self");
	else
		snprintf(rule, sizeof(rule), "%u", e->rule);
	if (ctx->json) {
		event_json(ctx->json, e, when, verdict, comm, object, rule, text, name, exe);
	} else {
		printf("%s verdict=%s cgroup=%s pid=%u comm=%s hook=%s object=%s rule=%s (%s) policy=%s"
		       " uid=%u exe=%s(dev=%u:%u,ino=%llu)\n",
		       when, verdict, cgroup_path_of(e->cgroup_id), e->pid, comm,
		       event_hook_name(e->hook), object, rule, text, name, e->uid, exe,
		       LAB_MAJOR(e->exe_dev), LAB_MINOR(e->exe_dev),
		       (unsigned long long)e->exe_ino);
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
static __u64 report_lost(__u64 seen, json_writer_t *json)
{
	__u64 now = lost_events();

	if (now > seen) {
		if (json) {
			jsonw_start_object(json);
			jsonw_uint_field(json, "lost", now - seen);
			jsonw_end_object(json);
		} else {
			printf("lost %llu event(s): the ring was full\n",
			       (unsigned long long)(now - seen));
		}
		fflush(stdout);
	}
	return now;
}

int events_stream(int fd, const struct events_opts *o, char *err, size_t errlen)
{
	struct events_ctx ctx = { .cgroup_id = o->cgroup_id, .count = o->count, .json = o->json };
	struct ring_buffer *rb;
	struct timespec start, now;
	time_t checked;
	__u64 lost;
	int rc;

	rb = ring_buffer__new(fd, on_event, &ctx, NULL);
	if (!rb)
		return errf(err, errlen, -errno, "read the events ring buffer: %s", strerror(errno));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &start);
	lost = 0;	/* what was lost before this listener came is said too */
	checked = 0;
	while (!stop) {
		rc = ring_buffer__poll(rb, 100);
		if (rc < 0 && rc != -EINTR) {
			ring_buffer__free(rb);
			return errf(err, errlen, rc, "poll the events: %s", strerror(-rc));
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec != checked) {	/* once a second */
			lost = report_lost(lost, o->json);
			checked = now.tv_sec;
		}
		if (o->timeout && now.tv_sec - start.tv_sec >= o->timeout)
			break;
	}
	ring_buffer__consume(rb);
	report_lost(lost, o->json);
	ring_buffer__free(rb);
	return 0;
}
