/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_tree.h - perf's TopDown as a tree of metrics: a metric's parent is the metric
 * whose "<name>_group" perf files it under (tma_memory_bound is in
 * tma_backend_bound_group), the roots perf's level 1 (TopdownL1, AMD's PipelineL1). The
 * monitor draws it (ui/tree.c); the exporter labels its series with the path. */
#ifndef PMUTOP_METRIC_TREE_H
#define PMUTOP_METRIC_TREE_H

#include <stdbool.h>

struct profile;
struct prof_metric;

/* Is m one of perf's level-1 metrics (a root)? */
bool metric_tree_root(const struct prof_metric *m);
/* Each of p's metrics' parent (an index in p), or -1: malloc'd, p->nmetrics long. */
int *metric_tree_parents(const struct profile *p);
/* "tma_backend_bound/tma_memory_bound/tma_dram_bound": metric mi's path down from its
 * root (malloc'd), or NULL where no root is above it (not in a tree). */
char *metric_tree_path(const struct profile *p, const int *parents, int mi);

/* The one bottleneck, as toplev names it (its find_bn): from the roots (parents[m] < 0)
 * down, the largest share among the nodes past their thresholds (share[m], a fraction;
 * NAN where not past, or not a node), until none of its children is, or the two largest
 * are within 5 % of the slots of each other (which is it, nobody can say). The node, or
 * -1. The monitor's tree and the summary of a run both ask this. */
int metric_tree_bottleneck(int n, const int *parents, const double *share);

#endif
