/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_threshold.c - perf's MetricThreshold, compiled once, evaluated on demand. */
#include "profile/metric_threshold.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "base/expr.h"
#include "base/name_index.h"
#include "profile/profile.h"
#include "profile/profile_load.h"

/* A threshold reads metrics by name, as perf matches them: whatever their case. */
struct metric_names {
	const struct profile *p;
	struct name_index ix;
};

static int resolve_metric(void *ctx, const char *name)
{
	return name_index_find(&((struct metric_names *)ctx)->ix, name);
}

static const char *known_metric(void *ctx, int i)
{
	const struct profile *p = ((struct metric_names *)ctx)->p;
	return i < p->nmetrics ? p->metrics[i].name : NULL;
}

static const char *metric_name_at(const void *list, int i)
{
	return ((const struct prof_metric *)list)[i].name;
}

static struct expr *compile_one(struct loader *L, struct expr_names *names, const struct prof_metric *m,
				const char *text, int line, int col0)
{
	char *err;
	int col;
	struct expr *e = expr_compile(text, names, &err, &col);
	if (!e) {
		lerror(L, line, col0 + col - 1, "[metric %s] threshold: %s (it reads the profile's metrics by name)",
		       m->name, err);
		free(err);
	}
	return e;
}

void metric_thresholds_compile(struct loader *L, struct profile *p)
{
	struct metric_names mn = { p, { 0 } };
	name_index_init(&mn.ix, p->metrics, p->nmetrics, metric_name_at, strcasecmp);
	struct expr_names names = { resolve_metric, known_metric, &mn };
	for (int i = 0; i < p->nmetrics; i++) {
		struct prof_metric *m = &p->metrics[i];
		if (m->threshold_text)
			m->threshold = compile_one(L, &names, m, m->threshold_text, m->threshold_line, m->threshold_col);
		for (int f = 0; f < m->nforms; f++) {
			struct prof_formula *fm = &m->forms[f];
			if (fm->threshold_text)
				fm->threshold = compile_one(L, &names, m, fm->threshold_text, fm->threshold_line,
							    fm->threshold_col);
		}
	}
	name_index_free(&mn.ix);
}

static const struct expr *threshold_of(const struct prof_metric *m, int form)
{
	if (form >= 0 && form < m->nforms && m->forms[form].threshold_text)
		return m->forms[form].threshold;
	return m->threshold;
}

bool metric_has_threshold(const struct prof_metric *m, int form)
{
	return threshold_of(m, form) != NULL;
}

const char *metric_threshold_text(const struct prof_metric *m, int form)
{
	if (form >= 0 && form < m->nforms && m->forms[form].threshold_text)
		return m->forms[form].threshold_text;
	return m->threshold_text;
}

void metric_threshold_reads(const struct prof_metric *m, int form, void (*fn)(void *ctx, int metric), void *ctx)
{
	const struct expr *e = threshold_of(m, form);
	if (e)
		expr_foreach_var(e, fn, ctx);
}

int metric_threshold_eval(const struct prof_metric *m, int form, const double *values)
{
	const struct expr *e = threshold_of(m, form);
	if (!e)
		return -1;
	double v = expr_eval(e, values);
	return isnan(v) ? -1 : v != 0;
}
