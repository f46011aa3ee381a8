/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_refs.c - metrics that read other metrics by name, and their evaluation order. */
#include "profile/metric_refs.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "profile/profile.h"

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
/* A metric on the walk's stack: which of its references comes next. */
struct walk_step {
	int metric, form, ref;
};

/* Depth first from mi, each metric after what it reads, with a stack of our own (a
 * chain of references as long as a file allows, 100 000 deep, overflowed the C stack
 * when this recursed): false on a cycle (*cycle reads *through, which reads it back). */
static bool visit(const struct profile *p, int root, char *colour, struct walk_step *stack, int *order, int *n,
		  int *cycle, int *through)
{
	if (colour[root] == BLACK)
		return true;
	int depth = 0;
	stack[depth++] = (struct walk_step){ root, 0, 0 };
	colour[root] = GREY;
	while (depth) {
		struct walk_step *w = &stack[depth - 1];
		const struct prof_metric *m = &p->metrics[w->metric];
		while (w->form < m->nforms && w->ref >= m->forms[w->form].nrefs) {
			w->form++;
			w->ref = 0;
		}
		if (w->form == m->nforms) { /* all it reads is ordered: now it */
			colour[w->metric] = BLACK;
			order[(*n)++] = w->metric;
			depth--;
			continue;
		}
		int to = m->forms[w->form].refs[w->ref++];
		if (colour[to] == GREY) {
			*cycle = w->metric;
			*through = to;
			return false;
		}
		if (colour[to] == WHITE) { /* (a metric is grey at most once: the stack holds each once) */
			colour[to] = GREY;
			stack[depth++] = (struct walk_step){ to, 0, 0 };
		}
	}
	return true;
}

int *metric_order(const struct profile *p, int *cycle, int *through)
{
	int *order = xmalloc(sizeof(int) * (size_t)(p->nmetrics ? p->nmetrics : 1));
	char *colour = xcalloc((size_t)(p->nmetrics ? p->nmetrics : 1), 1);
	struct walk_step *stack = xmalloc(sizeof(*stack) * (size_t)(p->nmetrics ? p->nmetrics : 1));
	int n = 0;
	bool ok = true;
	/* in file order where nothing forces another: a profile without references keeps it */
	for (int mi = 0; mi < p->nmetrics && ok; mi++)
		ok = visit(p, mi, colour, stack, order, &n, cycle, through);
	free(stack);
	free(colour);
	if (!ok) {
		free(order);
		return NULL;
	}
	return order;
}
