/* SPDX-License-Identifier: GPL-2.0-only */
/* event_groups.c - perf groups (event_groups.h). perf stat -M puts each metric's events
 * in a weak group, `{a,b,c}:W`, so that a ratio's terms count over the same time when
 * the counters multiplex; tools/perf/util/metricgroup.c decides which, and this file
 * follows it:
 *  - a metric's events are those of its formula, of every metric it reads by name, and
 *    of its MetricThreshold's metrics (perf parses the threshold in the metric's place);
 *  - the metrics are taken largest first (perf's metric_list_cmp, stably), each making
 *    a group of its events (perf's metric whose events an earlier group holds all of
 *    reads that group: below, the earlier group has taken them all, so nothing is made);
 *  - NO_GROUP_EVENTS metrics (and _NMI with the watchdog on, _SMT with SMT on) group
 *    nothing; perf splits a group by PMU, so each profile group (one PMU) has its own.
 * perf gives an event two counters where two groups need it; pmutop keeps one counter
 * per encoding (bind/counter_share.c), so an event stays in the first (the largest)
 * group that takes it and the later groups hold the rest of theirs. */
#include "bind/event_groups.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "base/textbuf.h"
#include "base/util.h"
#include "bind/counter_share.h"
#include "profile/metric_threshold.h"
#include "profile/profile.h"
#include "bind/state.h"
#include "machine/facts.h"

/* A set of a profile's events, every group's in one numbering (offset[g] + e). */
struct idset {
	int nwords;
	uint64_t *bits;
};

static void idset_add(struct idset *s, int id)
{
	s->bits[id / 64] |= 1ull << (id % 64);
}

static bool idset_has(const struct idset *s, int id)
{
	return s->bits[id / 64] >> (id % 64) & 1;
}

static int idset_count(const struct idset *s)
{
	int n = 0;
	for (int w = 0; w < s->nwords; w++)
		n += __builtin_popcountll(s->bits[w]);
	return n;
}

/* One of perf's metrics: a metric's form (a hybrid's per kind of core is perf's two). */
struct entry {
	int metric, form, order;
	bool group_events;
	struct idset ids;
};

struct planner {
	const struct profile *p;
	int *offset; /* per group: its first event's id */
	bool *visited; /* per metric, while one entry's events are gathered */
	const struct machine *mach;
	double facts[FACT_COUNT]; /* the machine's literals (machine/facts.h), once one is read */
	bool have_facts;
	struct entry *entries;
	int nentries;
};

static void gather(struct planner *pl, struct idset *ids, int mi, int g);

/* What one formula's walk is adding to. */
struct walk {
	struct planner *pl;
	struct idset *ids;
	const struct prof_formula *f;
	int g;
};

static void gather_threshold_metric(void *ctx, int metric)
{
	struct walk *w = ctx;
	gather(w->pl, w->ids, metric, w->g);
}

/* A slot the formula needs: an event of its group, of another (an import), or a metric
 * it reads by name, whose events it needs too. */
static void gather_slot(void *ctx, int slot)
{
	struct walk *w = ctx;
	const struct prof_group *pg = &w->pl->p->groups[w->g];
	int gnv = group_nvars(pg);
	if (slot < pg->nevents)
		idset_add(w->ids, w->pl->offset[w->g] + slot);
	else if (slot >= gnv + FORMULA_MAX_IMPORTS && slot - gnv - FORMULA_MAX_IMPORTS < w->f->nrefs)
		gather(w->pl, w->ids, w->f->refs[slot - gnv - FORMULA_MAX_IMPORTS], w->g);
	else if (slot >= gnv && slot - gnv < w->f->nimports) {
		const struct prof_import *im = &w->f->imports[slot - gnv];
		if (im->event < w->pl->p->groups[im->group].nevents) /* not clock.ncpus */
			idset_add(w->ids, w->pl->offset[im->group] + im->event);
	}
}

/* The machine's literals, read where a formula needs one (each CPU's topology files). */
static const double *planner_facts(struct planner *pl)
{
	if (!pl->have_facts)
		machine_facts_read(pl->mach, pl->facts);
	pl->have_facts = true;
	return pl->facts;
}

/* mi's events on group g's instances, and those of every metric it reads there: those
 * its formula needs with the machine's literals known (perf's: "x if #smt_on else y"
 * needs one of x and y). */
static void gather(struct planner *pl, struct idset *ids, int mi, int g)
{
	const struct prof_metric *m = &pl->p->metrics[mi];
	int k = metric_form_index(m, g);
	if (pl->visited[mi] || k < 0 || !m->forms[k].expr)
		return;
	pl->visited[mi] = true;
	const struct prof_group *pg = &pl->p->groups[g];
	int nknown = pg->nevents + VAR_NBUILTINS;
	const double *facts = group_expr_reads_facts(pg, m->forms[k].expr) ? planner_facts(pl) : NULL;
	double known[nknown];
	for (int i = 0; i < nknown; i++)
		known[i] = facts && i >= pg->nevents + VAR_FACTS ? facts[i - pg->nevents - VAR_FACTS] : NAN;
	struct walk w = { pl, ids, &m->forms[k], g };
	expr_foreach_needed(m->forms[k].expr, known, nknown, gather_slot, &w);
}

static bool groups_events(const struct prof_metric *m, struct planner *pl)
{
	switch (m->constraint) {
	case CONSTRAINT_NO_GROUP:
		return false;
	case CONSTRAINT_NO_GROUP_NMI:
		return pl->mach->nmi_watchdog != 1;
	case CONSTRAINT_NO_GROUP_SMT:
		return planner_facts(pl)[FACT_SMT_ON] != 1;
	default:
		return true;
	}
}

/* Each chosen metric's form as perf's metric list holds it, with its events. */
static void collect(struct planner *pl, int total)
{
	const struct profile *p = pl->p;
	for (int mi = 0; mi < p->nmetrics; mi++) {
		const struct prof_metric *m = &p->metrics[mi];
		if (p->selecting && !m->asked)
			continue; /* read by a chosen metric: its events are in that one's group */
		for (int k = 0; k < m->nforms; k++) {
			const struct prof_formula *f = &m->forms[k];
			if (f->group < 0 || !f->expr)
				continue;
			struct entry *en = &pl->entries[pl->nentries];
			*en = (struct entry){ mi, k, pl->nentries, groups_events(m, pl),
					      { (total + 63) / 64, xcalloc((size_t)(total + 63) / 64 + 1, 8) } };
			memset(pl->visited, 0, sizeof(bool) * (size_t)p->nmetrics);
			gather(pl, &en->ids, mi, f->group);
			struct walk w = { pl, &en->ids, f, f->group }; /* the threshold's metrics: the root's alone */
			metric_threshold_reads(m, k, gather_threshold_metric, &w);
			pl->nentries++;
		}
	}
}

static int by_size(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int nx = idset_count(&x->ids), ny = idset_count(&y->ids);
	return nx != ny ? ny - nx : x->order - y->order; /* largest first, stably */
}

/* Entry en makes a perf group: in each profile group it touches, its events no earlier
 * group took become group number nsets[g]. */
static void make_group(struct profile *p, const struct planner *pl, const struct entry *en, int *nsets)
{
	for (int g = 0; g < p->ngroups; g++) {
		struct prof_group *pg = &p->groups[g];
		if (!pg->sets)
			continue;
		bool took = false;
		for (int e = 0; e < pg->nevents; e++)
			if (idset_has(&en->ids, pl->offset[g] + e) && pg->sets[e] < 0) {
				pg->sets[e] = nsets[g];
				took = true;
			}
		nsets[g] += took;
	}
}

static void plan_profile(struct profile *p, const struct machine *mach)
{
	struct planner pl = { .p = p, .mach = mach };
	int total = 0;
	pl.offset = xcalloc((size_t)p->ngroups + 1, sizeof(int));
	for (int g = 0; g < p->ngroups; g++) {
		struct prof_group *pg = &p->groups[g];
		pl.offset[g] = total;
		total += pg->nevents;
		free(pg->sets);
		pg->sets = NULL;
		if (pg->perf_group)
			continue; /* one perf group already (TopDown's slots-led) */
		pg->sets = xmalloc(sizeof(int) * (size_t)(pg->nevents ? pg->nevents : 1));
		for (int e = 0; e < pg->nevents; e++)
			pg->sets[e] = -1;
	}
	int nforms = 0;
	for (int mi = 0; mi < p->nmetrics; mi++)
		nforms += p->metrics[mi].nforms;
	pl.entries = xcalloc((size_t)nforms + 1, sizeof(*pl.entries));
	pl.visited = xcalloc((size_t)p->nmetrics + 1, sizeof(bool));
	collect(&pl, total);
	qsort(pl.entries, (size_t)pl.nentries, sizeof(*pl.entries), by_size);
	int *nsets = xcalloc((size_t)p->ngroups + 1, sizeof(int));
	for (int i = 0; i < pl.nentries; i++)
		if (pl.entries[i].group_events) /* NO_GROUP_EVENTS: perf's ungrouped events */
			make_group(p, &pl, &pl.entries[i], nsets);
	for (int i = 0; i < pl.nentries; i++)
		free(pl.entries[i].ids.bits);
	free(nsets);
	free(pl.entries);
	free(pl.visited);
	free(pl.offset);
}

void profile_plan_event_groups(struct profile *p, const struct machine *m)
{
	if (!p->perf)
		return;
	plan_profile(p, m);
}

/* what the source opens for the event: less what it reads of another group's counter */
static bool opened(const struct instance *inst, int e)
{
	return instance_counts_event(inst, e) && !instance_shares_event(inst, e);
}

/* The perf group event e opens in: its group's, unless the PMU refused that one. */
static int open_set(const struct instance *inst, int e)
{
	int s = group_event_set(inst->group, e);
	return s >= 0 && inst->refused && inst->refused[s] ? -1 : s;
}

bool instance_refuse_weak_group(struct instance *inst)
{
	int s = inst->open_refused_set;
	inst->open_refused_set = -1;
	if (s < 0 || !group_sets_weak(inst->group) || (inst->refused && inst->refused[s]))
		return false;
	if (!inst->refused)
		inst->refused = xcalloc((size_t)inst->group->nevents + 1, sizeof(bool));
	inst->refused[s] = true;
	return true;
}

static int nrefused(const struct instance *inst)
{
	int n = 0;
	for (int k = 0; inst->refused && k < inst->group->nevents; k++)
		n += inst->refused[k];
	return n;
}

void session_note_refused_groups(const struct session *s)
{
	int *refused = xcalloc((size_t)s->ninstances + 1, sizeof(int)), any = 0;
	for (int i = 0; i < s->ninstances; i++)
		any += refused[i] = nrefused(&s->inst[i]);
	struct textbuf what = { 0 };
	for (int i = 0; any && i < s->ninstances; i++) {
		if (!refused[i])
			continue;
		const struct pmu *pmu = s->inst[i].pmu; /* once a PMU: its instances together */
		int most = 0, ninst = 0;
		for (int j = i; j < s->ninstances; j++)
			if (refused[j] && s->inst[j].pmu == pmu) {
				/* a socket row counting its CPUs (bind_cpu_sums.c): each CPU's group */
				ninst += s->inst[j].sum_kind && !s->inst[j].nmembers ? s->inst[j].cpus.n : 1;
				most = refused[j] > most ? refused[j] : most;
				refused[j] = 0;
			}
		textbuf_printf(&what, "%s%d on %s (%d instance%s)", what.len ? ", " : "", most, pmu->name, ninst,
			       ninst == 1 ? "" : "s");
	}
	if (what.len)
		diag_warn("perf's metric groups with more events than the PMU has counters: %s; their events are "
			  "counted ungrouped, each multiplexed on its own, as perf's weak groups are", what.data);
	textbuf_free(&what);
	free(refused);
}

int instance_open_order(const struct instance *inst, int *order, int *set)
{
	const struct prof_group *g = inst->group;
	int n = 0, nsets = 0, lead = -1;
	for (int e = 0; e < g->nevents; e++) {
		if (group_event_set(g, e) >= nsets)
			nsets = group_event_set(g, e) + 1;
		if (nsets && lead < 0 && g->leader && !strcmp(g->events[e].name, g->leader))
			lead = e;
	}
	for (int s = 0; s < nsets; s++) {
		int start = n;
		if (lead >= 0 && open_set(inst, lead) == s && opened(inst, lead)) { /* the leader first */
			order[n] = lead;
			set[n++] = s;
		}
		for (int e = 0; e < g->nevents; e++)
			if (e != lead && open_set(inst, e) == s && opened(inst, e)) {
				order[n] = e;
				set[n++] = s;
			}
		if (n - start == 1)
			set[start] = -1; /* a group of one is an event on its own */
	}
	for (int e = 0; e < g->nevents; e++)
		if (open_set(inst, e) < 0 && opened(inst, e)) {
			order[n] = e;
			set[n++] = -1;
		}
	return n;
}
