/* metric_threshold.c - perf's MetricThreshold, compiled once, evaluated on demand. */
#include "engine/metric_threshold.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "base/expr.h"
#include "engine/profile.h"
#include "engine/profile_load.h"

static int resolve_metric(void *ctx, const char *name)
{
	const struct profile *p = ctx;
	for (int i = 0; i < p->nmetrics; i++)
		if (!strcasecmp(p->metrics[i].name, name))
			return i;
	return -1;
}

static const char *known_metric(void *ctx, int i)
{
	const struct profile *p = ctx;
	return i < p->nmetrics ? p->metrics[i].name : NULL;
}

void metric_thresholds_compile(struct loader *L, struct profile *p)
{
	struct expr_names names = { resolve_metric, known_metric, p };
	for (int i = 0; i < p->nmetrics; i++) {
		struct prof_metric *m = &p->metrics[i];
		if (!m->threshold_text)
			continue;
		char *err;
		int col;
		m->threshold = expr_compile(m->threshold_text, &names, &err, &col);
		if (!m->threshold) {
			lerror(L, m->threshold_line, m->threshold_col + col - 1, "[metric %s] threshold: %s (it reads the profile's metrics by name)",
			       m->name, err);
			free(err);
		}
	}
}

void metric_threshold_reads(const struct prof_metric *m, void (*fn)(void *ctx, int metric), void *ctx)
{
	if (m->threshold)
		expr_foreach_var(m->threshold, fn, ctx);
}

int metric_threshold_eval(const struct prof_metric *m, const double *values)
{
	if (!m->threshold)
		return -1;
	double v = expr_eval(m->threshold, values);
	return isnan(v) ? -1 : v != 0;
}
