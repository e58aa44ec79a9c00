/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader of the events journal (engine.h's lab_journal_slot): each
 * reader keeps its own place, so any number of them (lsmctl events,
 * learn) each get every event, and each knows exactly how many it lost
 * when it fell more than LAB_JOURNAL_SLOTS events behind.
 */
#ifndef LSMCTL_JOURNAL_H
#define LSMCTL_JOURNAL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "../bpf-progs/policy/engine.h"

struct journal_reader {
	int slots, head;	/* the pinned maps (store_journal()) */
	__u64 next;		/* the number of the next event to read */
	__u64 lost;		/* events written over before this reader read them */
	__u64 unwritten;	/* numbered, not written within JOURNAL_WAIT_MS */
	long long waited_ms;	/* since when the next event is numbered, not written; 0 */
};

/*
 * How long a reader waits for an event that is numbered but not yet
 * written (its report held between the two: a preempted task) before it
 * counts it as lost and reads on.
 */
#define JOURNAL_WAIT_MS 1000

/* Called with each event in order; non-zero stops the read there. */
typedef int (*journal_fn)(void *ctx, const struct lab_event *e);

/*
 * Open the journal for reading: from the oldest event it still holds
 * when @history, else from the next one written. 0, or -errno with why
 * in @err.
 */
int journal_open(struct journal_reader *j, bool history, char *err, size_t errlen);
/*
 * Give @fn each event written since the last read; when there was none,
 * wait up to @timeout_ms first. The number given, or -errno.
 */
int journal_poll(struct journal_reader *j, int timeout_ms, journal_fn fn, void *ctx);
/*
 * Give @fn what is there, and count the events numbered but not written
 * by now as unwritten: a reader's last read. The number given, or -errno.
 */
int journal_drain(struct journal_reader *j, journal_fn fn, void *ctx);
void journal_close(struct journal_reader *j);

#endif /* LSMCTL_JOURNAL_H */
