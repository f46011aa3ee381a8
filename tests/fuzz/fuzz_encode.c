/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_encode.c - libFuzzer target: any text as a perf event string against the demo
 * Tegra410 tree encodes or is refused with a message. */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "machine/encode.h"
#include "machine/discover.h"
#include "machine/pmu.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct machine *m;
	if (!m) {
		diag_set_quiet(true);
		const char *root = getenv("PMUTOP_FUZZ_ROOT");
		m = machine_discover(root ? root : "profiles/machines/tegra410");
	}
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct encoded_event enc;
	char *err;
	if (encode_event(m, text, &enc, &err) < 0) {
		if (!err)
			abort(); /* a refusal always says why */
		free(err);
	}
	free(text);
	return 0;
}
