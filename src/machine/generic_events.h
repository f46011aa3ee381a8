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

#endif
