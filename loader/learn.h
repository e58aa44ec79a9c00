/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmctl learn: run a command (or watch a cgroup) under a policy that
 * reports everything and denies nothing, and make a draft policy of what
 * it did (draft.h).
 */
#ifndef LSMCTL_LEARN_H
#define LSMCTL_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "backend.h"
#include "policy.h"

struct learn_opts {
	enum backend backend;
	bool backend_given;	/* --backend: @backend, else backend_pick()'s choice */
	const char *cgroup;	/* watch this cgroup, which has no policy, for @timeout s */
	long timeout;		/* seconds; 0: until the command ends (or SIGINT) */
	char **cmd;		/* else: run this in a new cgroup below lsmctl's own */
	unsigned int fold;	/* --fold: files of a folder that make it one rule; 0: none */
	const struct policy *merge;	/* --merge: an earlier draft's rules, or NULL */
	const char *merge_file;		/* its file, for messages */
};

/* What a learn saw. */
struct learned {
	int status;		/* the command's exit status (128+N: killed by signal N) */
	unsigned long events, lost, unresolved;
	size_t rules;
};

/*
 * Learn as @o says and write the draft to @out; 0, or -errno with why in
 * @err having changed nothing (the policy it applied is detached, its
 * cgroup removed).
 */
int learn(const struct learn_opts *o, FILE *out, struct learned *l, char *err, size_t errlen);

#endif /* LSMCTL_LEARN_H */
