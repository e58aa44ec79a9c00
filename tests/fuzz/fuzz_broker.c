// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the broker's request parser (loader/broker_proto.c),
 * which reads what a confined root sends to a daemon outside. Any bytes:
 * broker_parse() either refuses them or gives a request within its
 * limits, which broker_format() writes back as the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../loader/broker_proto.h"

#define MAX_POLICY 65536

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], again[BROKER_HEADER_MAX];
	struct broker_req req;
	size_t end = broker_header_end((const char *)data, size);
	int n;

	if (!end)
		return 0;
	if (broker_parse((const char *)data, end, MAX_POLICY, &req, err, sizeof(err)))
		return 0;
	if (req.cgroup_id == 0 || (req.verb != BROKER_APPLY && req.verb != BROKER_DETACH))
		abort();
	if (req.verb == BROKER_APPLY && (req.length == 0 || req.length > MAX_POLICY ||
					 strlen(req.name) >= sizeof(req.name)))
		abort();
	n = broker_format(&req, again, sizeof(again));
	if (n < 0 || (size_t)n != end || memcmp(again, data, end))
		abort();
	return 0;
}
