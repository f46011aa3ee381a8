/* SPDX-License-Identifier: GPL-2.0-only */
/* bottleneck.c - the one TopDown bottleneck of a frame's machine row (toplev's find_bn). */
#include "outputs/bottleneck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/frame.h"
#include "profile/metric_tree.h"
#include "profile/profile.h"

/* Per metric of profile pi, its value on the row named "all" as a fraction where past its
 * threshold, else NAN. False where the profile has no such row. */
static bool shares_past(const struct frame *f, int pi, const int *parents, double *share)
{
	const struct profile *p = f->profiles[pi];
	bool any = false;
	for (int m = 0; m < p->nmetrics; m++)
		share[m] = NAN;
	for (int k = 0; k < f->nvalues; k++) {
		const struct value_info *vi = &f->vinfo[k];
		const struct frame_value *v = &f->values[k];
		if (vi->profile != pi || strcmp(f->iinfo[vi->instance].name, "all"))
			continue;
		any = true;
		bool node = parents[vi->metric] >= 0 || metric_tree_root(vi->m); /* not tma_info_* */
		if (node && v->state == VS_OK && v->past == 1 && isfinite(v->value))
			share[vi->metric] = v->value / (vi->m->scale > 0 ? vi->m->scale : 1);
	}
	return any;
}

/* "a/b/c" -> "a > b > c" (malloc'd; path freed) */
static char *arrows(char *path)
{
	size_t n = 1;
	for (const char *c = path; *c; c++)
		n += *c == '/' ? 3 : 1;
	char *out = xmalloc(n), *o = out;
	for (const char *c = path; *c; c++) {
		if (*c == '/') {
			memcpy(o, " > ", 3);
			o += 3;
		} else {
			*o++ = *c;
		}
	}
	*o = '\0';
	free(path);
	return out;
}

char *frame_bottleneck(const struct frame *f, double *share_out)
{
	for (int pi = 0; pi < f->nprofiles; pi++) {
		const struct profile *p = f->profiles[pi];
		double *share = xmalloc(sizeof(double) * (size_t)(p->nmetrics + 1));
		int *parents = metric_tree_parents(p);
		int neck = shares_past(f, pi, parents, share) ? metric_tree_bottleneck(p->nmetrics, parents, share) : -1;
		char *path = neck >= 0 ? metric_tree_path(p, parents, neck) : NULL;
		if (path) {
			*share_out = share[neck];
			path = arrows(path);
		}
		free(share);
		free(parents);
		if (path)
			return path;
	}
	return NULL;
}
