/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_threshold.h - where a metric marks a bottleneck (perf's MetricThreshold):
 * "threshold = tma_memory_bound > 0.2 && tma_backend_bound > 0.2", a condition on the
 * metrics of its profile by name, on one instance's values. */
#ifndef PMUTOP_METRIC_THRESHOLD_H
#define PMUTOP_METRIC_THRESHOLD_H

#include <stdbool.h>

struct profile;
struct prof_metric;
struct loader;

/* Compile every metric's threshold (names: the profile's metrics); errors through L. */
void metric_thresholds_compile(struct loader *L, struct profile *p);

/* Which threshold applies to m's values of form (a hybrid's kinds of core may each have
 * their own, threshold@GROUP; else the metric's): whether there is one, and its text. */
bool metric_has_threshold(const struct prof_metric *m, int form);
const char *metric_threshold_text(const struct prof_metric *m, int form);

/* The metrics (indices in the profile) that threshold reads: calls fn for each. */
void metric_threshold_reads(const struct prof_metric *m, int form, void (*fn)(void *ctx, int metric), void *ctx);

/* That threshold on one instance, given the values of the profile's metrics there as
 * their formulae give them (unscaled: perf's thresholds compare fractions, not %),
 * indexed by metric: 1 past it, 0 not, -1 no threshold or a value it reads is missing. */
int metric_threshold_eval(const struct prof_metric *m, int form, const double *values);

#endif
