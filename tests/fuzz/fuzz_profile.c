/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_profile.c - libFuzzer target: any bytes as a profile file must load or be
 * refused with diagnostics, never crash or leak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "profile/catalog_subset.h"
#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/pmutop-fuzz-%d.ini", (int)getpid());
		diag_set_quiet(true);
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	int nerr;
	profile_free(profile_load(path, &nerr));
	/* and cut as a catalogue file for a few of its metrics (catalog_subset.c) */
	char *text = malloc(size + 1), *const names[] = { "m", "tma_retiring", "a", NULL };
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
		char *cut = catalogue_subset(text, names);
		if (cut)
			profile_free(profile_load_text(path, cut, &nerr));
		free(cut);
		free(text);
	}
	diag_clear();
	return 0;
}
