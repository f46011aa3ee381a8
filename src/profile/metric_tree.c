/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_tree.c - perf's TopDown as a tree of metrics (see metric_tree.h). */
#include "profile/metric_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "profile/profile.h"

bool metric_tree_root(const struct prof_metric *m)
{
	for (char **g = m->groups; g && *g; g++)
		if (!strcasecmp(*g, "TopdownL1") || !strcasecmp(*g, "PipelineL1"))
			return true;
	return false;
}

/* The metric whose "<name>_group" p's metric mi is filed under, or -1. */
static int parent_of(const struct profile *p, int mi)
{
	for (char **g = p->metrics[mi].groups; g && *g; g++) {
		size_t n = strlen(*g);
		if (n <= 6 || strcasecmp(*g + n - 6, "_group"))
			continue;
		for (int k = 0; k < p->nmetrics; k++)
			if (k != mi && strlen(p->metrics[k].name) == n - 6 && !strncasecmp(p->metrics[k].name, *g, n - 6))
				return k;
	}
	return -1;
}

int *metric_tree_parents(const struct profile *p)
{
	int *parents = xmalloc(sizeof(int) * (size_t)(p->nmetrics + 1));
	for (int k = 0; k < p->nmetrics; k++)
		parents[k] = parent_of(p, k);
	return parents;
}

/* toplev's SIB_THRESH */
#define SIBLINGS_APART 0.05

int metric_tree_bottleneck(int n, const int *parents, const double *share)
{
	int neck = -1;
	for (;;) {
		int best = -1;
		double bv = -INFINITY, second = -INFINITY;
		for (int m = 0; m < n; m++) {
			if (parents[m] != neck || isnan(share[m]))
				continue;
			if (share[m] > bv) {
				second = bv;
				bv = share[m];
				best = m;
			} else if (share[m] > second) {
				second = share[m];
			}
		}
		if (best < 0 || (neck >= 0 && bv - second <= SIBLINGS_APART))
			return neck;
		neck = best;
	}
}

char *metric_tree_path(const struct profile *p, const int *parents, int mi)
{
	int chain[16], n = 0;
	for (int k = mi; k >= 0 && n < 16; k = parents[k])
		chain[n++] = k;
	if (!n || parents[chain[n - 1]] >= 0 || !metric_tree_root(&p->metrics[chain[n - 1]]))
		return NULL; /* a loop, too deep, or no root above it */
	size_t len = 1;
	for (int i = 0; i < n; i++)
		len += strlen(p->metrics[chain[i]].name) + 1;
	char *path = xcalloc(len, 1);
	for (int i = n - 1; i >= 0; i--) {
		strcat(path, p->metrics[chain[i]].name);
		if (i)
			strcat(path, "/");
	}
	return path;
}
