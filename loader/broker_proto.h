/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The broker's requests (lsmctl serve, broker.c): what a confined lsmctl
 * sends, as text, parsed and written here alone so that the parser can
 * be fuzzed and unit-tested on its own.
 *
 * A request is a header of lines, then a policy's bytes:
 *
 *   lsmctl-broker 1
 *   verb apply|detach
 *   cgroup ID             the target cgroup's id (its cgroup2 inode number)
 *   mode file|enforce|audit   (apply)
 *   name NAME             (apply) the file's name as the requester gave it
 *   length N              (apply) the policy's bytes after the header
 *   <empty line>
 *   <N bytes of YAML>
 *
 * in that order, each line at most BROKER_LINE_MAX bytes, the header at
 * most BROKER_HEADER_MAX. The reply is one line: "ok TEXT" or
 * "error ERRNO TEXT".
 */
#ifndef LSMCTL_BROKER_PROTO_H
#define LSMCTL_BROKER_PROTO_H

#include <linux/types.h>
#include <stddef.h>

#define BROKER_MAGIC		"lsmctl-broker 1"
#define BROKER_LINE_MAX		300	/* a header line, its newline included */
#define BROKER_HEADER_MAX	1024	/* the header, its empty line included */
#define BROKER_NAME_MAX		256	/* the policy file's name, its NUL included */
#define BROKER_REPLY_MAX	4096	/* a reply line, its newline included */

enum broker_verb {
	BROKER_APPLY = 1,
	BROKER_DETACH,
};

struct broker_req {
	enum broker_verb verb;
	__u64 cgroup_id;
	int audit;			/* apply: -1 the file's mode, 0 enforce, 1 audit */
	char name[BROKER_NAME_MAX];	/* apply: printable ASCII, no '/' beyond a path's */
	size_t length;			/* apply: the policy's bytes, 1 .. @max_policy */
};

/*
 * Parse the header in @buf (@len bytes, up to and including its empty
 * line: broker_header_end() found it); the policy's length at most
 * @max_policy. 0, or -EINVAL with why in @err.
 */
int broker_parse(const char *buf, size_t len, size_t max_policy, struct broker_req *req,
		 char *err, size_t errlen);
/* The end of a header in @buf's @len bytes: the length up to its empty line, or 0. */
size_t broker_header_end(const char *buf, size_t len);
/* Write @req's header into @buf; its length, or -ENOSPC. */
int broker_format(const struct broker_req *req, char *buf, size_t len);

#endif /* LSMCTL_BROKER_PROTO_H */
