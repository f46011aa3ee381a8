/* SPDX-License-Identifier: GPL-2.0-only */
/* bfperf.h - BlueField's performance counters (mlxbf-pmc's hwmon device "bfperf") seen
 * as PMUs: one per block directory, named "bfperf_<block>", with an alias per event of
 * its event_list (or per register file) and one format field, "event". */
#ifndef PMUTOP_BFPERF_H
#define PMUTOP_BFPERF_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct pmu;

#define BFPERF_PREFIX "bfperf_"

/* Add the blocks of the hwmon device named bfperf (found by name, never by number). */
void bfperf_discover(struct machine *m);

/* A file name pmutop may use inside a block: not empty, no '/', not "." or "..", no
 * control characters. */
bool bfperf_valid_name(const char *name);

/* May n be written to an event<N> file of the block: listed in event_list, or beyond its
 * end when the kernel cut the list at one page? */
bool bfperf_event_known(const struct pmu *p, uint64_t n);

#endif
