// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the policy parser must reject or accept any input. */
#include <stddef.h>
#include <stdint.h>

#include "../../loader/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy p;
	char err[512];

	if (policy_parse("fuzz.yaml", (const char *)data, size, &p, err, sizeof(err)) == 0)
		policy_free(&p);
	return 0;
}
