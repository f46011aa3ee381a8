/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_delegate.h - one definition per metric: a hand profile's metric that says
 * 'perf = NAME...' (the core pane's IPC: perf's tma_info_thread_ipc) is perf's metric
 * where this CPU's catalogue defines one, its values that metric's on the instance of the
 * same name, counted on perf's events; elsewhere its own formula's. */
#ifndef PMUTOP_METRIC_DELEGATE_H
#define PMUTOP_METRIC_DELEGATE_H

#include <stdbool.h>

struct machine;
struct profile;

/* The perf metrics the chosen metrics of the n profiles (none of them perf's catalogue)
 * whose group has a PMU on m name (perf =), NULL-terminated (malloc'd; the names are the
 * profiles'), or NULL for none. */
char **metrics_perf_names(struct profile *const *ps, int n, const struct machine *m);

/* With perf's catalogue among the n profiles: each other profile's chosen metric naming
 * perf's takes the first the catalogue defines, on groups whose sums are the hand group's
 * (prof_metric.perf_profile, perf_metric). Where choose is set, that metric (and what it
 * reads) is chosen quietly where nothing chose it; else only a metric chosen already is
 * taken (a replay binds what was recorded). Profiles with such metrics then count only
 * what their other metrics read. Returns how many metrics were delegated. */
int metrics_delegate(struct profile **ps, int n, const struct machine *m, bool choose);

#endif
