/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_counters.c - the hardware's counters per PMU, for the simulated machine. Each row
 * says where the number comes from in linux 6.12 (the source the build unpacks); where
 * the driver reads it from the hardware, the figure is the part the row names. A PMU no
 * row matches (NVIDIA's CoreSight PMUs: PMCFGR.N, which no public document gives) counts
 * without a limit. A model's section may still say `counters =` itself. */
#include "sim/sim_counters.h"

#include <fnmatch.h>
#include <string.h>

#include "base/util.h"
#include "machine/encode.h"
#include "machine/pmu.h"

/* Which events take no general counter: Intel's fixed counters (instructions, core and
 * reference cycles, slots and the TopDown metrics, by their exact encodings: a cmask or
 * edge moves one to a general counter), Arm's cycle counter. */
enum fixed_set { FIXED_NONE, FIXED_INTEL, FIXED_INTEL_TOPDOWN, FIXED_ARM_CYCLES, FIXED_INTEL_UNCORE_CLOCK };

struct hw_counters {
	const char *pmu;     /* a glob of the PMU's name */
	const char *vendor;  /* the cpuid's prefix it is for, or NULL */
	const char *pmu_cap; /* caps/pmu_name globs ("sapphire_rapids icelake"), or NULL */
	int general;         /* 0: no limit (free-running counters) */
	enum fixed_set fixed;
	const char *source;  /* where linux 6.12 says it */
};

static const struct hw_counters table[] = {
	/* Intel cores: CPUID 0xA's general counters (x86_pmu.cntr_mask), 8 a thread from Ice
	 * Lake on, 4 a thread on earlier cores with SMT on; fixed: instructions, cycles,
	 * reference cycles (and slots with PERF_METRICS) */
	{ "cpu_core", "GenuineIntel", NULL, 8, FIXED_INTEL_TOPDOWN, "arch/x86/events/intel/core.c: intel_pmu_init, Golden Cove" },
	{ "cpu_atom", "GenuineIntel", NULL, 6, FIXED_INTEL, "arch/x86/events/intel/core.c: Gracemont, 6 general" },
	{ "cpu", "GenuineIntel", "sapphire_rapids granite_rapids icelake", 8, FIXED_INTEL_TOPDOWN,
	  "arch/x86/events/intel/core.c: CPUID 0xA EAX[15:8] = 8 (Ice Lake, Sapphire Rapids)" },
	{ "cpu", "GenuineIntel", NULL, 4, FIXED_INTEL, "arch/x86/events/intel/core.c: CPUID 0xA EAX[15:8] = 4 with SMT on" },
	/* AMD Zen: core.c's six PerfCtr; uncore.c's L3 (NUM_COUNTERS_L3) and, with
	 * PerfMonV2, CPUID 0x80000022 EBX's data fabric counters (16 on an EPYC 9654) and
	 * UMC counters split among the active UMCs (4 each) */
	{ "cpu", "AuthenticAMD", NULL, 6, FIXED_NONE, "arch/x86/events/amd/core.c: AMD64_NUM_COUNTERS_CORE" },
	{ "amd_l3", NULL, NULL, 6, FIXED_NONE, "arch/x86/events/amd/uncore.c: NUM_COUNTERS_L3" },
	{ "amd_df", NULL, NULL, 16, FIXED_NONE, "arch/x86/events/amd/uncore.c: CPUID 0x80000022 EBX num_df_pmc (EPYC 9654)" },
	{ "amd_umc_*", NULL, NULL, 4, FIXED_NONE, "arch/x86/events/amd/uncore.c: group_num_pmcs / group_num_pmus" },
	/* Intel server uncore (the discovery table's, SNB-EP on): four a box, the IMC's
	 * DCLK fixed, the UBOX two; the free-running counters are registers of their own */
	{ "uncore_*_free_running*", NULL, NULL, 0, FIXED_NONE, "arch/x86/events/intel/uncore_snbep.c: free-running" },
	{ "uncore_imc*", NULL, NULL, 4, FIXED_INTEL_UNCORE_CLOCK, "arch/x86/events/intel/uncore_snbep.c: .num_counters = 4, fixed DCLK" },
	{ "uncore_ubox", NULL, NULL, 2, FIXED_NONE, "arch/x86/events/intel/uncore_snbep.c: ubox .num_counters = 2" },
	{ "uncore_*", NULL, NULL, 4, FIXED_NONE, "arch/x86/events/intel/uncore_snbep.c: .num_counters = 4" },
	/* Arm cores: PMCR_EL0.N event counters (6 on Neoverse N1, N2, V1, V2) and the cycle
	 * counter */
	{ "armv8_*", NULL, NULL, 6, FIXED_ARM_CYCLES, "drivers/perf/arm_pmuv3.c: PMCR_EL0.N (6 on Neoverse)" },
	/* HiSilicon HNS3: eight hardware events a PMU, each two counters (config bit 16 picks
	 * one): a statistic's pair shares one event, so sixteen events of eight statistics */
	{ "hns3_pmu_*", NULL, NULL, 16, FIXED_NONE,
	  "drivers/perf/hisilicon/hns3_pmu.c: HNS3_PMU_MAX_HW_EVENTS, hns3_pmu_cmp_event" },
};

static bool caps_match(const struct pmu *pmu, const char *globs)
{
	const char *name = pmu_attr(pmu, "caps/pmu_name");
	if (!globs)
		return true;
	if (!name)
		return false;
	char want[64];
	for (const char *p = globs; *p;) {
		size_t n = strcspn(p, " ");
		if (n < sizeof(want)) {
			memcpy(want, p, n);
			want[n] = '\0';
			if (!fnmatch(want, name, 0))
				return true;
		}
		p += n + strspn(p + n, " ");
	}
	return false;
}

static const struct hw_counters *find_row(const struct machine *m, const struct pmu *pmu)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct hw_counters *r = &table[i];
		if (fnmatch(r->pmu, pmu->name, 0) || (r->vendor && (!m->cpuid || !str_has_prefix(m->cpuid, r->vendor))))
			continue;
		if (caps_match(pmu, r->pmu_cap))
			return r;
	}
	return NULL;
}

static const struct hw_counters *row_of(struct sim_hw_memo *memo, const struct machine *m, const struct pmu *pmu)
{
	if (memo->pmu != pmu) {
		memo->row = find_row(m, pmu);
		memo->pmu = pmu;
	}
	return memo->row;
}

/* Intel's fixed counters take only the exact encodings (event, umask, nothing else) */
static bool intel_fixed(uint64_t config, bool topdown)
{
	uint64_t event_umask = config & 0xffff;
	if (config & ~0xffffull)
		return false;
	return event_umask == 0x00c0 || event_umask == 0x003c || event_umask == 0x0300 ||
	       (topdown && (event_umask == 0x0400 || (event_umask & 0xf0ff) == 0x8000));
}

static bool is_fixed(enum fixed_set set, const struct event_attr *attr, const char *legacy)
{
	if (legacy) /* the kernel's generic cycles, instructions and reference cycles */
		return set != FIXED_NONE && set != FIXED_INTEL_UNCORE_CLOCK &&
		       (!strcmp(legacy, "cycles") || !strcmp(legacy, "cpu-cycles") ||
			(set != FIXED_ARM_CYCLES && (!strcmp(legacy, "instructions") || !strcmp(legacy, "ref-cycles"))));
	switch (set) {
	case FIXED_INTEL: return intel_fixed(attr->config[0], false);
	case FIXED_INTEL_TOPDOWN: return intel_fixed(attr->config[0], true);
	case FIXED_ARM_CYCLES: return (attr->config[0] & 0xffff) == 0x11;
	case FIXED_INTEL_UNCORE_CLOCK: return (attr->config[0] & 0xff) == 0xff;
	default: return false;
	}
}

int sim_hw_general_counters(struct sim_hw_memo *memo, const struct machine *m, const struct pmu *pmu,
			    const struct event_attr *attr, const char *legacy)
{
	const struct hw_counters *r = row_of(memo, m, pmu);
	return r && !is_fixed(r->fixed, attr, legacy) ? r->general : 0;
}

int sim_hw_counters_of(struct sim_hw_memo *memo, const struct machine *m, const struct pmu *pmu)
{
	const struct hw_counters *r = row_of(memo, m, pmu);
	return r ? r->general : 0;
}
