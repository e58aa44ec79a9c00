// SPDX-License-Identifier: GPL-2.0
/* A reader of the events journal (see journal.h). */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "journal.h"
#include "store.h"

/* Events written so far, or -errno. */
static long long journal_count(const struct journal_reader *j)
{
	struct lab_journal_head head;
	__u32 zero = 0;

	if (bpf_map_lookup_elem_flags(j->head, &zero, &head, BPF_F_LOCK))
		return -errno;
	return (long long)head.count;
}

int journal_open(struct journal_reader *j, bool history, char *err, size_t errlen)
{
	long long count;
	int rc;

	memset(j, 0, sizeof(*j));
	rc = store_journal(false, &j->slots, &j->head);
	if (rc)
		return errf(err, errlen, rc, "the events journal: %s", strerror(-rc));
	count = journal_count(j);
	if (count < 0) {
		journal_close(j);
		return errf(err, errlen, (int)count, "read the events journal: %s",
			    strerror((int)-count));
	}
	j->next = (__u64)count;
	if (history)
		j->next = j->next > LAB_JOURNAL_SLOTS ? j->next - LAB_JOURNAL_SLOTS : 0;
	return 0;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Has the next event, numbered and not written, waited long enough to be
 * counted as lost? Its report may be held (a preempted task) as long as
 * its task likes: readers do not wait on it for ever.
 */
static bool waited_enough(struct journal_reader *j)
{
	long long now = now_ms();

	if (!j->waited_ms) {
		j->waited_ms = now;
		return false;
	}
	return now - j->waited_ms >= JOURNAL_WAIT_MS;
}

/*
 * Read what is there; the number of events given, or -errno. @last: the
 * reader's last read, which waits for no event numbered and not written
 * (it counts it, and reads on).
 */
static int journal_read(struct journal_reader *j, journal_fn fn, void *ctx, bool last)
{
	struct lab_journal_slot slot;
	long long count = journal_count(j);
	__u32 index;
	int given = 0;

	if (count < 0)
		return (int)count;
	if ((__u64)count - j->next > LAB_JOURNAL_SLOTS) {
		j->lost += (__u64)count - LAB_JOURNAL_SLOTS - j->next;
		j->next = (__u64)count - LAB_JOURNAL_SLOTS;
	}
	while (j->next < (__u64)count) {
		index = (__u32)(j->next & (LAB_JOURNAL_SLOTS - 1));
		if (bpf_map_lookup_elem_flags(j->slots, &index, &slot, BPF_F_LOCK))
			return -errno;
		if (slot.seq < j->next + 1) {
			if (!last && !waited_enough(j))
				break;	/* numbered, not yet written: a next read may have it */
			j->unwritten++;
			j->waited_ms = 0;
			j->next++;
			continue;
		}
		j->waited_ms = 0;
		if (slot.seq > j->next + 1) {
			j->lost++;	/* written over since the count was read */
		} else {
			given++;
			if (fn(ctx, &slot.e)) {
				j->next++;
				break;
			}
		}
		j->next++;
	}
	return given;
}

int journal_poll(struct journal_reader *j, int timeout_ms, journal_fn fn, void *ctx)
{
	struct timespec wait = { 0, (long)(timeout_ms < 50 ? timeout_ms : 50) * 1000000L };
	int n = journal_read(j, fn, ctx, false);

	if (n)
		return n;
	nanosleep(&wait, NULL);
	return journal_read(j, fn, ctx, false);
}

int journal_drain(struct journal_reader *j, journal_fn fn, void *ctx)
{
	/* the events written after one still unwritten are read too */
	return journal_read(j, fn, ctx, true);
}

void journal_close(struct journal_reader *j)
{
	if (j->slots >= 0)
		close(j->slots);
	if (j->head >= 0)
		close(j->head);
	j->slots = j->head = -1;
}
