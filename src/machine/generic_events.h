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

#endif
