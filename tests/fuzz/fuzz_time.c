/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_time.c - libFuzzer target for the grammar of durations and moments
 * (base/timetext.h): every text is read or refused with a reason, never a crash, and
 * what is read stays in range (a duration at most 1e9 s, a moment before the year
 * 2540 or a duration from its reference). */
#include <stdlib.h>
#include <string.h>

#include "base/timetext.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	char why[256];
	uint64_t ns, wall;
	if (duration_parse(text, &ns, why, sizeof(why)) && ns > 1000000000ull * 1000000000ull)
		abort();
	why[0] = '\0';
	struct moment_ref ref = { .day_ns = 1764000000ull * 1000000000ull, .plus_ns = 1764000000ull * 1000000000ull,
				  .minus = size & 1 };
	if (moment_parse(text, &ref, &wall, why, sizeof(why))) {
		if (wall > 18000000001ull * 1000000000ull && wall - ref.plus_ns > 1000000000ull * 1000000000ull)
			abort();
	} else if (!why[0]) {
		abort(); /* a refusal always says why */
	}
	free(text);
	return 0;
}
