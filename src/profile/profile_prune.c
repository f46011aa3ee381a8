/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_prune.c - perf's catalogue keeps only the events its chosen metrics read.
 *
 * A catalogue group holds every event of its CPU's metrics (Neoverse V2: 40; a Sapphire
 * Rapids core: hundreds), and each of a machine's per-CPU instances carries arrays the
 * size of its group. Under -M, a demo model's choice or the hand metrics that are perf's
 * (metric_delegate.c: five metrics of the Cores pane), most of them are never read: before
 * binding, the unread events are dropped and the chosen metrics' formulas renumbered. A
 * metric not chosen loses its compiled formula here (it has no value: bind_values.c). */
#include "profile/profile_prune.h"

#include <stdlib.h>

#include "base/expr.h"
#include "base/util.h"
#include "profile/profile.h"

struct renumber {
	int old_ne, new_ne;
	int *map; /* old event index -> new, -1 dropped; NULL: the group is kept whole */
};

static int renumber_slot(void *ctx, int slot)
{
	const struct renumber *r = ctx;
	if (!r->map)
		return slot;
	return slot < r->old_ne ? r->map[slot] : slot - (r->old_ne - r->new_ne);
}

/* The events a chosen metric's formula reads, wanted whatever metrics_want_events said,
 * so no chosen formula can read a dropped one. */
static void want_chosen_inputs(struct profile *p)
{
	for (int mi = 0; mi < p->nmetrics; mi++) {
		const struct prof_metric *m = &p->metrics[mi];
		for (int k = 0; m->selected && k < m->nforms; k++) {
			const struct prof_formula *f = &m->forms[k];
			if (f->group < 0 || !f->expr)
				continue;
			for (int i = 0; p->groups[f->group].wanted && i < f->ninputs; i++)
				p->groups[f->group].wanted[f->inputs[i]] = true;
			for (int i = 0; i < f->nimports; i++) {
				struct prof_group *o = &p->groups[f->imports[i].group];
				if (o->wanted && f->imports[i].event < o->nevents)
					o->wanted[f->imports[i].event] = true;
			}
		}
	}
}

/* Group g's new event numbers, where some of its events are read and some not. */
static struct renumber plan_group(const struct prof_group *g)
{
	struct renumber r = { g->nevents, 0, NULL };
	for (int e = 0; g->wanted && e < g->nevents; e++)
		r.new_ne += g->wanted[e];
	if (!g->wanted || r.new_ne == 0 || r.new_ne == g->nevents) {
		r.new_ne = g->nevents; /* nothing read (the group binds nothing) or all of it */
		return r;
	}
	r.map = xmalloc(sizeof(int) * (size_t)g->nevents);
	for (int e = 0, k = 0; e < g->nevents; e++)
		r.map[e] = g->wanted[e] ? k++ : -1;
	return r;
}

/* The perf groups the kept events open in (prof_group.sets, planned on every event),
 * numbered again from 0 in their order: a group of only dropped events is gone, and the
 * numbers stay below the group's event count (an instance's refused[] is that long). */
static void keep_sets(struct prof_group *g, const struct renumber *r)
{
	if (!g->sets)
		return;
	int *kept = xmalloc(sizeof(int) * (size_t)r->new_ne);
	int *number = xmalloc(sizeof(int) * (size_t)g->nevents);
	for (int e = 0; e < g->nevents; e++)
		number[e] = -1;
	for (int e = 0; e < g->nevents; e++) /* the groups a kept event opens in */
		if (r->map[e] >= 0 && g->sets[e] >= 0)
			number[g->sets[e]] = 0;
	for (int set = 0, n = 0; set < g->nevents; set++) /* their order kept: perf's, largest first */
		if (number[set] == 0)
			number[set] = n++;
	for (int e = 0; e < g->nevents; e++)
		if (r->map[e] >= 0)
			kept[r->map[e]] = g->sets[e] >= 0 ? number[g->sets[e]] : -1;
	free(number);
	free(g->sets);
	g->sets = kept;
}

static void drop_events(struct prof_group *g, const struct renumber *r)
{
	keep_sets(g, r);
	struct prof_event *kept = xmalloc(sizeof(*kept) * (size_t)r->new_ne);
	for (int e = 0; e < g->nevents; e++) {
		if (r->map[e] >= 0) {
			kept[r->map[e]] = g->events[e];
			continue;
		}
		free(g->events[e].name);
		free(g->events[e].terms);
	}
	free(g->events);
	g->events = kept;
	g->nevents = r->new_ne;
	for (int e = 0; e < g->nevents; e++)
		g->wanted[e] = true;
}

/* f on a group renumbered as own (a weight's group index is not set: its own group's). */
static void renumber_formula(struct prof_formula *f, const struct renumber *own, const struct renumber *byg)
{
	const struct renumber *r = own;
	if (f->expr)
		expr_map_vars(f->expr, renumber_slot, (void *)r);
	for (int i = 0; r->map && i < f->ninputs; i++)
		f->inputs[i] = r->map[f->inputs[i]];
	for (int i = 0; i < f->nimports; i++)
		f->imports[i].event = renumber_slot((void *)&byg[f->imports[i].group], f->imports[i].event);
}

/* Whether formula f reads a group whose events are renumbered. */
static bool reads_renumbered(const struct prof_formula *f, const struct renumber *byg)
{
	bool any = byg[f->group].map != NULL;
	for (int i = 0; i < f->nimports; i++)
		any |= byg[f->imports[i].group].map != NULL;
	return any;
}

static void renumber_metrics(struct profile *p, const struct renumber *byg)
{
	for (int mi = 0; mi < p->nmetrics; mi++) {
		struct prof_metric *m = &p->metrics[mi];
		for (int k = 0; k < m->nforms; k++) {
			struct prof_formula *f = &m->forms[k];
			if (f->group < 0 || !reads_renumbered(f, byg))
				continue;
			if (m->selected) {
				renumber_formula(f, &byg[f->group], byg);
			} else { /* not chosen: no value, and its slots no longer name its events */
				expr_free(f->expr);
				f->expr = NULL;
				f->ninputs = 0;
			}
		}
	}
}

void profile_keep_read_events(struct profile *p)
{
	if (!p->perf || !p->selecting || !p->ngroups)
		return;
	want_chosen_inputs(p);
	struct renumber *byg = xcalloc((size_t)p->ngroups, sizeof(*byg));
	bool any = false;
	for (int gi = 0; gi < p->ngroups; gi++) {
		byg[gi] = plan_group(&p->groups[gi]);
		any |= byg[gi].map != NULL;
	}
	if (any)
		renumber_metrics(p, byg);
	for (int gi = 0; gi < p->ngroups; gi++) {
		struct prof_group *g = &p->groups[gi];
		if (!byg[gi].map)
			continue;
		if (g->weight && g->weight->expr)
			renumber_formula(g->weight, &byg[gi], byg);
		drop_events(g, &byg[gi]);
		free(byg[gi].map);
	}
	free(byg);
}
