/* metric_refs.c - metrics that read other metrics by name, and their evaluation order. */
#include "engine/metric_refs.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/profile.h"

int metric_ref_slot(const struct profile *p, struct prof_formula *f, int mi, int first_slot)
{
	const struct prof_metric *m = &p->metrics[mi];
	bool same_group = false;
	for (int k = 0; k < m->nforms && !same_group; k++)
		same_group = m->forms[k].group == f->group && m->forms[k].text;
	if (!same_group)
		return -1;
	for (int k = 0; k < f->nrefs; k++)
		if (f->refs[k] == mi)
			return first_slot + k;
	f->refs = xrealloc(f->refs, sizeof(int) * (size_t)(f->nrefs + 1));
	f->refs[f->nrefs] = mi;
	return first_slot + f->nrefs++;
}

enum { WHITE, GREY, BLACK };

/* Depth first: a metric is placed after everything it reads; a grey one met again is a
 * cycle. Returns false on one, with *cycle and *through set. */
static bool visit(const struct profile *p, int mi, char *colour, int *order, int *n, int *cycle, int *through)
{
	if (colour[mi] == BLACK)
		return true;
	colour[mi] = GREY;
	const struct prof_metric *m = &p->metrics[mi];
	for (int k = 0; k < m->nforms; k++) {
		for (int r = 0; r < m->forms[k].nrefs; r++) {
			int to = m->forms[k].refs[r];
			if (colour[to] == GREY) {
				*cycle = mi;
				*through = to;
				return false;
			}
			if (!visit(p, to, colour, order, n, cycle, through))
				return false;
		}
	}
	colour[mi] = BLACK;
	order[(*n)++] = mi;
	return true;
}

int *metric_order(const struct profile *p, int *cycle, int *through)
{
	int *order = xmalloc(sizeof(int) * (size_t)(p->nmetrics ? p->nmetrics : 1));
	char *colour = xcalloc((size_t)(p->nmetrics ? p->nmetrics : 1), 1);
	int n = 0;
	bool ok = true;
	/* in file order where nothing forces another: a profile without references keeps it */
	for (int mi = 0; mi < p->nmetrics && ok; mi++)
		ok = visit(p, mi, colour, order, &n, cycle, through);
	free(colour);
	if (!ok) {
		free(order);
		return NULL;
	}
	return order;
}
