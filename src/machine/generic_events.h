/* SPDX-License-Identifier: GPL-2.0-only */
/* generic_events.h - what perf's generic cache-misses counts on a machine's CPU. */
#ifndef PMUTOP_GENERIC_EVENTS_H
#define PMUTOP_GENERIC_EVENTS_H

struct machine;

/* The names a per-kilo-instruction figure of PERF_COUNT_HW_CACHE_MISSES takes: level
 * "LLC", column "LLC-MPKI", key "llc_mpki"; on a CPU whose map is not known, level NULL,
 * "CACHE-MPKI" and "cache_mpki" (perf's own name, cache-misses). */
struct cache_misses_name {
	const char *level, *column, *key;
};

const struct cache_misses_name *machine_cache_misses(const struct machine *m);

/* The TopDown level-1 events of Intel's perf metrics (Ice Lake and later), the aliases a
 * core PMU has for them: slots leads, the four metrics follow in TopDown's order. */
#define PERF_METRICS_EVENTS 5
extern const char *const perf_metrics_alias[PERF_METRICS_EVENTS];
/* The core PMU that has them all (the cpu PMU; a hybrid's cpu_core), or NULL. */
const struct pmu *machine_perf_metrics_pmu(const struct machine *m);

/* perf's generic events as a core PMU's own events, in this order: cycles, instructions,
 * cache-misses, branch-misses (the kernel's map: x86's sysfs names them so, arm_pmuv3
 * counts CPU_CYCLES, INST_RETIRED, L1D_CACHE_REFILL, BR_MIS_PRED) */
#define GENERIC_EVENTS 4
/* The core PMU counting cpu whose driver pmutop knows (x86's cpu, cpu_core, cpu_atom; an
 * arm_pmuv3 PMU), or NULL */
const struct pmu *machine_core_pmu_of(const struct machine *m, int cpu);
/* Its events for the generic ones, or NULL for a PMU of another driver */
const char *const *core_pmu_generic_events(const struct pmu *p);

#endif
