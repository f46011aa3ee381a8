/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_prune.h - perf's catalogue keeps only the events its chosen metrics read. */
#ifndef PMUTOP_PROFILE_PRUNE_H
#define PMUTOP_PROFILE_PRUNE_H

struct profile;

/* Before binding perf's catalogue profile p, where some of its metrics are chosen: each
 * group keeps only the events the chosen metrics (and its leader and weight) read, their
 * formulas renumbered; the metrics not chosen lose their compiled formulas. Nothing for a
 * hand profile or one with nothing chosen. Once is enough; again does nothing. */
void profile_keep_read_events(struct profile *p);

#endif
