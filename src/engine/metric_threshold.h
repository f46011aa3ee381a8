/* metric_threshold.h - where a metric marks a bottleneck (perf's MetricThreshold):
 * "threshold = tma_memory_bound > 0.2 && tma_backend_bound > 0.2", a condition on the
 * metrics of its profile by name, on one instance's values. */
#ifndef PMUTOP_METRIC_THRESHOLD_H
#define PMUTOP_METRIC_THRESHOLD_H

struct profile;
struct prof_metric;
struct loader;

/* Compile every metric's threshold (names: the profile's metrics); errors through L. */
void metric_thresholds_compile(struct loader *L, struct profile *p);

/* The metrics (indices in the profile) m's threshold reads: calls fn for each. */
void metric_threshold_reads(const struct prof_metric *m, void (*fn)(void *ctx, int metric), void *ctx);

/* m's threshold on one instance, given the values of the profile's metrics there as
 * their formulae give them (unscaled: perf's thresholds compare fractions, not %),
 * indexed by metric: 1 past it, 0 not, -1 no threshold or a value it reads is missing. */
int metric_threshold_eval(const struct prof_metric *m, const double *values);

#endif
