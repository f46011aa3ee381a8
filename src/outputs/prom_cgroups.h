/* SPDX-License-Identifier: GPL-2.0-only */
/* prom_cgroups.h - the exporter's cgroup series (serve --cgroups, -G): each cgroup's CPU
 * seconds, cycles, instructions, cache and branch misses as Prometheus counters (label
 * cgroup; rate() of two of them is its IPC, as cAdvisor's container_cpu_usage_seconds_total
 * is its CPU), and its processes as a gauge. Opt-in: a cgroup a series is cardinality a
 * fleet pays for. */
#ifndef PMUTOP_PROM_CGROUPS_H
#define PMUTOP_PROM_CGROUPS_H

#include <stdbool.h>

struct frame;
struct prom_cgroup;

struct prom_cgroups {
	struct prom_cgroup *cg; /* every cgroup seen, its counts summed since */
	int n, cap;
	const char *cache_level; /* what perf's cache-misses counts here ("L1D"), or NULL */
};

/* The refresh side: add the frame's rows' counts (a cgroup out of the top N keeps its
 * sums, and is not served until it is back) */
void prom_cgroups_feed(struct prom_cgroups *c, const struct frame *f);
/* The series of the cgroups the last frame had, each family's HELP and TYPE first;
 * put appends text to the exposition */
void prom_cgroups_render(const struct prom_cgroups *c, bool openmetrics, void (*put)(void *ctx, const char *s), void *ctx);
void prom_cgroups_free(struct prom_cgroups *c);

#endif
