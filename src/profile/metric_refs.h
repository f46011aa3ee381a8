/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_refs.h - formulae that read other metrics by name, as perf's MetricExpr do
 * (tma_memory_bound reads tma_backend_bound), and the order that evaluates each metric
 * after the ones it reads. A reference is a value slot, not the text of the other
 * formula: perf's deepest metrics would inline to tens of kilobytes. */
#ifndef PMUTOP_METRIC_REFS_H
#define PMUTOP_METRIC_REFS_H

struct profile;
struct prof_formula;

/* The slot formula f (its group settled) reads metric mi of the same profile in, the
 * metric's value on the same instance: first_slot + its place in f->refs (added once);
 * -1 where the metric has no form for f's group. */
int metric_ref_slot(const struct profile *p, struct prof_formula *f, int mi, int first_slot);

/* The profile's metrics (indices, malloc'd) in an order where each comes after every
 * metric its forms read. NULL on a cycle, with *cycle a metric on it and *through the
 * one it reads next. */
int *metric_order(const struct profile *p, int *cycle, int *through);

#endif
