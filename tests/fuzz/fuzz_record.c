/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_record.c - libFuzzer target for what a recording's reader parses: a chunk blob
 * (the first byte says how many counters the recording claims) and, with a leading
 * 'M', a machine description. Either decodes or is refused; never a crash, a leak, or
 * memory out of proportion to the input (run.sh sets -rss_limit_mb). */
#include <stdlib.h>
#include <string.h>

#include "machine/pmu.h"
#include "machine/snapshot.h"
#include "record/codec.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] == 'M') {
		char *text = malloc(size);
		memcpy(text, data + 1, size - 1);
		text[size - 1] = '\0';
		char *err = NULL;
		struct machine *m = machine_from_snapshot(text, &err);
		if (m) {
			char *again = machine_snapshot(m);
			free(again);
			machine_free(m);
		}
		free(err);
		free(text);
		return 0;
	}
	struct rec_sample *s;
	int n;
	char *err = NULL;
	if (codec_decode(data + 1, size - 1, data[0], 60, &s, &n, &err) == 0) /* a chunk holds 60 */
		rec_samples_free(s);
	free(err);
	return 0;
}
