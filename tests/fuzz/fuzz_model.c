/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_model.c - libFuzzer target: any bytes as a simulated machine's traffic model. */
#include <stdio.h>
#include <unistd.h>

#include "base/diag.h"
#include "machine/pmu.h"
#include "sim/simmodel.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/pmutop-fuzz-model-%d.ini", (int)getpid());
		diag_set_quiet(true);
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	struct sim_model *m = sim_model_load(path);
	if (m) {
		/* a PMU as discovery makes one (its attributes none: pmu_name =, midr = sections
		 * do not match it) */
		static struct pmu ucf = { .name = (char *)"nvidia_ucf_pmu_0", .type = -1 };
		const struct sim_section *sec = sim_model_section(m, &ucf);
		int r = sim_rate_index(sec, "cycles");
		(void)sim_rate(sec, r, "cycles", 1.5, 0, 0, 0);
	}
	sim_model_free(m);
	diag_clear();
	return 0;
}
