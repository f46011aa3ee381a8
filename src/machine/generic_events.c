/* SPDX-License-Identifier: GPL-2.0-only */
/* generic_events.c - what perf's generic cache-misses counts on a machine's CPU.
 *
 * The kernel maps PERF_COUNT_HW_CACHE_MISSES to an event of the core PMU's driver, and
 * the drivers differ in the level they count: Intel's core.c takes 0x412e
 * (LONGEST_LAT_CACHE.MISS, the last level); AMD's core.c 0x0964 on Zen (L2 misses of
 * the instruction and data caches) and 0x077e before it (L2 misses); arm_pmuv3.c
 * L1D_CACHE_REFILL for every core it drives (its per-core maps change only the cache
 * events). So a task's "cache misses" are a different cache on each, and a column named
 * LLC would be true on Intel alone. Hygon's cores use AMD's driver. */
#include "machine/generic_events.h"

#include <string.h>

#include "base/cpulist.h"
#include "machine/pmu.h"

static const struct cache_misses_name names[] = {
	{ "LLC", "LLC-MPKI", "llc_mpki" },
	{ "L2", "L2-MPKI", "l2_mpki" },
	{ "L1D", "L1D-MPKI", "l1d_mpki" },
	{ NULL, "CACHE-MPKI", "cache_mpki" },
};

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* arm_pmuv3.c names its PMUs armv8_pmuv3[_N] (ACPI) or armv8_/armv9_ and the core */
static bool arm_pmuv3(const char *name);

static bool has_arm_pmuv3(const struct machine *m)
{
	for (int i = 0; i < m->npmus; i++)
		if (arm_pmuv3(m->pmus[i].name))
			return true;
	return false;
}

const struct cache_misses_name *machine_cache_misses(const struct machine *m)
{
	if (!m)
		return &names[3];
	if (starts(m->cpuid, "GenuineIntel-"))
		return &names[0];
	if (starts(m->cpuid, "AuthenticAMD-") || starts(m->cpuid, "HygonGenuine-"))
		return &names[1];
	if (has_arm_pmuv3(m))
		return &names[2];
	return &names[3];
}

const char *const perf_metrics_alias[PERF_METRICS_EVENTS] = { "slots", "topdown-retiring", "topdown-bad-spec",
							     "topdown-fe-bound", "topdown-be-bound" };

const struct pmu *machine_perf_metrics_pmu(const struct machine *m)
{
	for (int i = 0; m && i < m->npmus; i++) {
		int k = 0;
		while (k < PERF_METRICS_EVENTS && pmu_find_alias(&m->pmus[i], perf_metrics_alias[k]))
			k++;
		if (k == PERF_METRICS_EVENTS)
			return &m->pmus[i];
	}
	return NULL;
}

static bool x86_core(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom");
}

static bool arm_pmuv3(const char *name)
{
	return starts(name, "armv8_") || starts(name, "armv9_");
}

const char *const *core_pmu_generic_events(const struct pmu *p)
{
	static const char *const x86[GENERIC_EVENTS] = { "cpu-cycles", "instructions", "cache-misses", "branch-misses" };
	static const char *const arm[GENERIC_EVENTS] = { "cpu_cycles", "inst_retired", "l1d_cache_refill", "br_mis_pred" };
	return x86_core(p->name) ? x86 : arm_pmuv3(p->name) ? arm : NULL;
}

const struct pmu *machine_core_pmu_of(const struct machine *m, int cpu)
{
	for (int i = 0; m && i < m->npmus; i++)
		if (core_pmu_generic_events(&m->pmus[i]) && cpulist_contains(&m->pmus[i].cpus, cpu))
			return &m->pmus[i];
	return NULL;
}
