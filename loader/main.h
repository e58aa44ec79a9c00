/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lsmctl's commands share (after bpftool's main.h): -j and the
 * error printers (output.h: json_wtr, p_err(), p_warn()), usage_error(), the option parser and the output helpers, all in
 * lsmctl.c, and the commands, one a file (cmd_NAME.c), which lsmctl.c's
 * table runs.
 */
#ifndef LSMCTL_MAIN_H
#define LSMCTL_MAIN_H

#include <linux/types.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "apply.h"
#include "backend.h"
#include "output.h"

#define ERR_MAX 4096	/* a message lsmctl prints: a path or two, and why */

/* Parse --cgroup, --backend, -j, --count, --timeout; the rest are operands. */
struct opts {
	const char *cgroup;
	enum backend backend;
	long count;
	long timeout;
	long filler;
	long fold;		/* --fold N: -1 when not given */
	int audit;		/* --mode: -1 the file's, 0 enforce, 1 audit */
	bool dry_run;
	bool follow;		/* --follow */
	bool new_only;		/* --new: events from the next one on */
	bool prometheus;
	bool backend_given;	/* --backend, not the default */
	const char *output;	/* -o FILE */
	const char *merge;	/* --merge FILE */
	char unit_path[PATH_MAX];	/* --unit NAME's cgroup folder, @cgroup then */
	int nargs;
	char **args;
};

/* The options of a command: those in @allowed, as getopt letters; 0 or EXIT_USAGE. */
int parse_opts(int argc, char **argv, const char *help, const char *allowed,
	       struct opts *o);
/* Bad usage: on stderr with the command's help; with -j also p_err()'s object. */
int usage_error(const char *help, const char *fmt, const char *arg);
/* Finish or undo what a killed lsmctl left, before reading the pins; 0 or EXIT_FAIL. */
int settle(void);
/* The hooks of @mask, space-separated, after @prefix (text) or as a JSON array. */
void print_hooks(const char *prefix, __u64 mask);
/* @lines, one a line: as a JSON array of strings, or each on stderr. */
void print_lines(char *lines);
/* A policy's warnings: with -j a "warnings" field, else p_warn() lines on stderr. */
void print_warnings(const char *lines);

/* Shared by commands: apply (run's too), and detach (run's). */
int apply_policy(const char *file, const char *cgroup, const struct apply_opts *ao);
int detach_policy(const char *cgroup, int quiet);
/* The broker's answer (broker_change()'s @rc, its @reply): printed; 0 or EXIT_FAIL. */
int broker_said(int rc, const char *reply);

/* The commands: cmd_NAME.c each. */
int cmd_check(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_learn(int argc, char **argv);
int cmd_serve(int argc, char **argv);

#endif /* LSMCTL_MAIN_H */
