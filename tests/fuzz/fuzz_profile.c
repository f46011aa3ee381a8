/* fuzz_profile.c - libFuzzer target: any bytes as a profile file must load or be
 * refused with diagnostics, never crash or leak. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/diag.h"
#include "engine/profile.h"

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
	diag_clear();
	return 0;
}
