/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_delegate.c - hand metrics that are perf's: the core pane keeps its rows and
 * names, and where perf's catalogue for this CPU has the figure, it is perf's definition
 * on perf's events (IPC as tma_info_thread_ipc, L2 misses per kilo-instruction as
 * tma_info_memory_l2mpki, which no generic event gives), its value slot a copy of
 * perf's (bind/bind_values.c); the hand formula's events are then not counted. */
#include "bind/metric_delegate.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/util.h"
#include "bind/bind.h"
#include "profile/metric_select.h"
#include "profile/profile.h"
#include "machine/pmu.h"

static bool chosen(const struct profile *p, const struct prof_metric *m)
{
	return !p->selecting || m->selected;
}

/* Which of a profile's groups bind on this machine, asked once each (per group: 0 not yet
 * asked, 1 binds, -1 not): a metric's forms are tried against every PMU. */
struct groups_here {
	const struct machine *m;
	signed char *v;
};

static bool group_here(const struct profile *p, int g, struct groups_here *h)
{
	for (int i = 0; !h->v[g] && i < h->m->npmus; i++)
		if (group_binds_to(&p->groups[g], &h->m->pmus[i]))
			h->v[g] = 1;
	if (!h->v[g])
		h->v[g] = -1;
	return h->v[g] > 0;
}

/* The group of metric pm's form that binds to a PMU of the machine (TopDown's arm_v2 on a
 * Neoverse V2, perfmetrics on a Sapphire Rapids), or -1: perf's metric is asked for only
 * where the hand metric counts, so an AMD core's cpu PMU loads no catalogue for a pane it
 * lacks. */
static int bound_group(const struct profile *p, const struct prof_metric *pm, struct groups_here *h)
{
	for (int f = 0; f < pm->nforms; f++)
		if (pm->forms[f].group >= 0 && group_here(p, pm->forms[f].group, h))
			return pm->forms[f].group;
	return -1;
}

static struct groups_here groups_here_new(const struct profile *p, const struct machine *m)
{
	return (struct groups_here){ m, xcalloc((size_t)(p->ngroups ? p->ngroups : 1), 1) };
}

char **metrics_perf_names(struct profile *const *ps, int n, const struct machine *m)
{
	char **names = NULL;
	int k = 0;
	for (int pi = 0; pi < n; pi++) {
		struct groups_here here = groups_here_new(ps[pi], m);
		for (int mi = 0; !ps[pi]->perf && mi < ps[pi]->nmetrics; mi++) {
			const struct prof_metric *pm = &ps[pi]->metrics[mi];
			if (!pm->perf || !chosen(ps[pi], pm) || bound_group(ps[pi], pm, &here) < 0)
				continue;
			for (char **w = pm->perf; *w; w++) {
				names = xrealloc(names, sizeof(char *) * (size_t)(k + 2));
				names[k++] = *w;
				names[k] = NULL;
			}
		}
		free(here.v);
	}
	return names;
}

/* Do perf's metric's forms live on groups summed as the hand metric's group is (cpuN,
 * socketN, all: no hybrid's -pcores)? Then every value of the hand row has perf's. */
static bool same_instances(const struct profile *cat, const struct prof_metric *cm, const struct profile *p, int hand_group)
{
	const struct prof_group *hg = hand_group >= 0 ? &p->groups[hand_group] : NULL;
	if (hg && hg->nfilters) /* its filters would change the hand values, not perf's */
		return false;
	for (int k = 0; hg && k < cm->nforms; k++) {
		const struct prof_group *g = cm->forms[k].group >= 0 ? &cat->groups[cm->forms[k].group] : NULL;
		if (!g || g->aggregate_suffix || g->split != hg->split || g->aggregate_socket != hg->aggregate_socket ||
		    g->aggregate_all != hg->aggregate_all)
			return false;
	}
	return hg && cm->nforms > 0;
}

/* A unit's SI prefix (MB/s: 'M'), where the rest is a unit of its own ("B/s"), or 0. */
static char si_prefix(const char *unit)
{
	return unit[0] && unit[1] && strchr("kMGTmun", unit[0]) ? unit[0] : 0;
}

/* One quantity in two scales of a unit (MB/s and GB/s, ns and us) would be shown wrong
 * by their ratio: a profile's mistake, said, and its own formula kept. Other spellings
 * ("cycles", perf's "core clocks") are the profile's to vouch for. */
static bool same_unit(const struct profile *p, const struct prof_metric *m, const struct prof_metric *cm)
{
	char a = si_prefix(m->unit), b = si_prefix(cm->unit);
	if (a == b || strcmp(m->unit + (a != 0), cm->unit + (b != 0)))
		return true;
	diag_warn("%s:%d: [metric %s]: perf's %s is in '%s', this metric in '%s': its own formula is used",
		  p->path, m->line, m->name, cm->name, cm->unit, m->unit);
	return false;
}

static int perf_metric(const struct profile *cat, const struct profile *p, const struct prof_metric *m,
		       struct groups_here *here)
{
	int hand_group = bound_group(p, m, here);
	for (char **w = m->perf; *w; w++)
		for (int mi = 0; mi < cat->nmetrics; mi++) {
			const struct prof_metric *cm = &cat->metrics[mi];
			if ((!strcmp(cm->name, *w) || (cm->perf_name && !strcmp(cm->perf_name, *w))) &&
			    same_instances(cat, cm, p, hand_group))
				return same_unit(p, m, cm) ? mi : -1;
		}
	return -1;
}

/* Whether another metric of p reads metric mi by name (its value slot): then it keeps its
 * own formula, for that reader. */
static bool read_by_name(const struct profile *p, int mi)
{
	for (int k = 0; k < p->nmetrics; k++)
		for (int f = 0; f < p->metrics[k].nforms; f++)
			for (int r = 0; r < p->metrics[k].forms[f].nrefs; r++)
				if (p->metrics[k].forms[f].refs[r] == mi)
					return true;
	return false;
}

/* The hand profile counts what its other metrics read: every metric stays chosen. */
static void count_the_rest(struct profile *p)
{
	if (!p->selecting) /* (all of them, as asked for: batch prints each) */
		for (int mi = 0; mi < p->nmetrics; mi++)
			p->metrics[mi].selected = p->metrics[mi].asked = true;
	p->selecting = true;
	metrics_want_events(p);
}

int metrics_delegate(struct profile **ps, int n, const struct machine *mach, bool choose)
{
	struct profile *cat = NULL;
	for (int pi = 0; pi < n && !cat; pi++)
		cat = ps[pi]->perf ? ps[pi] : NULL;
	if (!cat)
		return 0;
	int count = 0;
	for (int pi = 0; pi < n; pi++) {
		struct profile *p = ps[pi];
		struct groups_here groups = groups_here_new(p, mach);
		int here = 0;
		for (int mi = 0; !p->perf && mi < p->nmetrics; mi++) {
			struct prof_metric *m = &p->metrics[mi];
			if (!m->perf || !chosen(p, m) || read_by_name(p, mi))
				continue;
			int cm = perf_metric(cat, p, m, &groups);
			if (cm < 0 || (!choose && cat->selecting && !cat->metrics[cm].selected))
				continue;
			if (choose && cat->selecting)
				metrics_choose_quietly(cat, cm);
			m->perf_profile = cat;
			m->perf_metric = cm;
			here++;
		}
		free(groups.v);
		if (here)
			count_the_rest(p);
		count += here;
	}
	if (count && choose && cat->selecting)
		metrics_want_events(cat);
	return count;
}
