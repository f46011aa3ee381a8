/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_values.c - the value slots of a session: one per metric and instance that can
 * have it, in an order where a metric read by name by another (perf's metrics read each
 * other) is evaluated first, with what each formula reads beyond its instance's events:
 * a partner's imported events, other metrics' values, a blend's parts. */
#include "bind/bind_values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "base/int_map.h"
#include "base/util.h"
#include "bind/bind_blend.h"
#include "bind/instance_index.h"
#include "profile/metric_threshold.h"
#include "bind/state.h"
#include "base/cpulist.h"
#include "machine/facts.h"
#include "machine/pmu.h"

/* A metric's value slot exists for an instance unless the formula needs an event the
 * instance's PMU does not have (e.g. C2C write latency with a CPU peer). */
static bool has_inputs(const struct instance *inst, const struct prof_formula *f)
{
	for (int i = 0; i < f->ninputs; i++)
		if (!inst->present[f->inputs[i]])
			return false;
	return true;
}

/* Each import's partner instance, the other group's instance of the same name (socket0
 * with socket0), or NULL when one has none (a slice, a channel: then the value has none). */
static int *import_partners(struct instance_index *ix, const struct instance *inst, const struct prof_formula *f)
{
	int *partners = xcalloc((size_t)f->nimports, sizeof(int));
	for (int i = 0; i < f->nimports; i++) {
		bool seen = false; /* most imports share a group: look each group up once */
		for (int j = 0; j < i && !seen; j++)
			if (f->imports[j].group == f->imports[i].group) {
				partners[i] = partners[j];
				seen = true;
			}
		if (!seen && (partners[i] = instance_index_find(ix, f->imports[i].group, inst->name)) < 0) {
			free(partners);
			return NULL;
		}
	}
	return partners;
}

/* Whether a form's values may join the metric's: one metric has one unit in a session
 * (a column, a series name), so a form in another unit than the first bound is refused. */
static bool unit_agrees(const struct profile *p, const struct prof_metric *m, int fi, const char **unit)
{
	const struct prof_formula *f = &m->forms[fi];
	if (!*unit) {
		*unit = f->unit;
		return true;
	}
	if (!strcmp(*unit, f->unit))
		return true;
	diag_warn("%s: [metric %s]: group %s gives it in '%s', a group bound before in '%s'; its values are left out",
		  p->path, m->name, p->groups[f->group].name, f->unit, *unit);
	return false;
}

/* The metric's unit for this session: its bound forms' (the first form's if none bound). */
static void settle_unit(struct prof_metric *m, const char *unit)
{
	if (!unit && m->nforms)
		unit = m->forms[0].unit;
	if (unit && strcmp(unit, m->unit)) {
		free(m->unit);
		m->unit = xstrdup(unit);
	}
}

/* While binding one profile's values: where each (metric, instance) value went, for the
 * formulae that read other metrics (only kept when some do). */
struct value_binding {
	int pi;
	const struct profile *p;
	bool *member;      /* per instance: a member of a sum (its values are details) */
	struct int_map *value_at; /* (metric << 32 | instance): its value slot; or NULL */
	struct instance_index ix; /* the profile's instances by group */
	int vcap, nscratch;
	const char *unit;  /* the metric's unit so far */
	int refused;       /* a form whose unit was refused (said once) */
	int first_value;   /* the metric's first value slot */
};

static uint64_t value_key(int metric, int instance)
{
	return (uint64_t)(uint32_t)metric << 32 | (uint32_t)instance;
}

static int value_slot(const struct value_binding *vb, int metric, int instance)
{
	return int_map_get(vb->value_at, value_key(metric, instance), -1);
}

/* The value slots of what f reads by name on instance ii (malloc'd), or NULL where one
 * has no value there (then neither has this one). */
static int *ref_slots(const struct session *s, const struct value_binding *vb, const struct prof_formula *f, int ii)
{
	int *refs = xmalloc(sizeof(int) * (size_t)f->nrefs);
	for (int k = 0; k < f->nrefs; k++) {
		refs[k] = value_slot(vb, f->refs[k], ii);
		if (refs[k] < 0) {
			free(refs);
			return NULL;
		}
	}
	return refs;
}

static void add_value(struct session *s, struct value_binding *vb, struct value_info vi)
{
	grow_array(&s->vinfo, &vb->vcap, s->nvalues + 1, sizeof(struct value_info));
	if (vb->value_at)
		int_map_put(vb->value_at, value_key(vi.metric, vi.instance), s->nvalues);
	s->vinfo[s->nvalues++] = vi;
}

/* Metric mi's value on instance ii, where it has one. */
static void bind_value(struct session *s, struct value_binding *vb, int mi, int ii)
{
	const struct instance *inst = &s->inst[ii];
	const struct profile *p = vb->p;
	const struct prof_metric *m = &p->metrics[mi];
	int fi = metric_form_index(m, (int)(inst->group - p->groups));
	if (fi < 0 || (p->selecting && !m->selected) || m->perf_profile || !m->forms[fi].expr)
		return; /* -M chose others; perf's values (bind_copies), or perf's alone and not here */
	struct value_info vi = { .profile = vb->pi, .metric = mi, .instance = ii, .form = fi, .m = m };
	if (inst->nparts) { /* parts come before: their values are this metric's so far */
		if ((vi.parts = blend_value_parts(s, ii, vb->first_value)))
			add_value(s, vb, vi);
		return;
	}
	const struct prof_formula *f = &m->forms[fi];
	if (!inst->unavailable && !has_inputs(inst, f))
		return;
	if (fi == vb->refused || !unit_agrees(p, m, fi, &vb->unit)) {
		vb->refused = fi; /* said once */
		return;
	}
	if (f->nimports && !(vi.partners = import_partners(&vb->ix, inst, f)))
		return; /* no value where another group has no instance */
	if (f->nrefs && !(vi.refs = ref_slots(s, vb, f, ii))) {
		free(vi.partners);
		return;
	}
	int scratch = group_nvars(inst->group) + (f->nrefs ? FORMULA_MAX_IMPORTS + f->nrefs : f->nimports);
	if ((f->nimports || f->nrefs) && scratch > vb->nscratch)
		vb->nscratch = scratch;
	vi.detail = vb->member[ii];
	add_value(s, vb, vi);
}

static bool reads_metrics(const struct profile *p)
{
	for (int mi = 0; mi < p->nmetrics; mi++) {
		if (p->metrics[mi].threshold)
			return true;
		for (int k = 0; k < p->metrics[mi].nforms; k++)
			if (p->metrics[mi].forms[k].nrefs)
				return true;
	}
	return false;
}

struct thresh_reads {
	const struct session *s;
	const struct value_binding *vb;
	int instance, n;
	int *pairs; /* metric, slot */
	bool missing;
};

static void thresh_read(void *ctx, int metric)
{
	struct thresh_reads *tr = ctx;
	int slot = value_slot(tr->vb, metric, tr->instance);
	if (slot < 0) {
		tr->missing = true;
		return;
	}
	tr->pairs = xrealloc(tr->pairs, sizeof(int) * (size_t)(2 * tr->n + 2));
	tr->pairs[2 * tr->n] = metric;
	tr->pairs[2 * tr->n + 1] = slot;
	tr->n++;
}

/* The values perf's thresholds of profile pi read, from first on (all its values bound:
 * a threshold may read a metric bound after its own). */
static void bind_thresholds(struct session *s, const struct value_binding *vb, int first)
{
	for (int v = first; v < s->nvalues; v++) {
		struct value_info *vi = &s->vinfo[v];
		if (!metric_has_threshold(vi->m, vi->form))
			continue;
		struct thresh_reads tr = { s, vb, vi->instance, 0, NULL, false };
		metric_threshold_reads(vi->m, vi->form, thresh_read, &tr);
		if (tr.missing || !tr.n) {
			free(tr.pairs);
			continue;
		}
		vi->thresh = tr.pairs;
		vi->nthresh = tr.n;
	}
}

/* Whether perf's instance b counts what the hand instance a does: the same PMU on the
 * same CPUs (uncore_imc_7 on CPU 0, whatever each profile names it: socket0/ch7 and
 * socket0/imc7), or, summing others, the same name (socket0, all). */
static bool same_place(const struct instance *a, const struct instance *b)
{
	if (!a->pmu || !b->pmu)
		return !a->pmu && !b->pmu && !strcmp(a->name, b->name);
	return a->pmu == b->pmu && a->cpus.n == b->cpus.n && !memcmp(a->cpus.cpu, b->cpus.cpu, sizeof(int) * (size_t)a->cpus.n);
}

/* Of perf's metric's n value slots, the one on the instance that counts what inst does,
 * or -1. The two groups' instances come in one order (cpu0, cpu1, ..., socket0, all):
 * the search starts after the last found (*hint), so a 2 000-CPU machine does not
 * compare them squared. */
static int perf_value(const struct session *s, const int *slots, int n, const struct instance *inst, int *hint)
{
	for (int j = 0; j < n; j++) {
		int k = (*hint + j) % n;
		if (same_place(inst, &s->inst[s->vinfo[slots[k]].instance])) {
			*hint = k + 1;
			return slots[k];
		}
	}
	return -1;
}

/* The hand metrics that are perf's (metric_delegate.c): on each instance of their group
 * where perf's metric has a value on one counting the same (same_place), a slot showing it,
 * after every other slot, so perf's is evaluated before it is copied. */
static void bind_copies(struct session *s, struct value_binding *vb, const bool *member)
{
	int first = s->nvalues;
	int *slots = xmalloc(sizeof(int) * (size_t)(s->nvalues + 1));
	for (int pi = 0; pi < s->nprofiles; pi++) {
		const struct profile *p = s->profiles[pi];
		for (int mi = 0; mi < p->nmetrics; mi++) {
			const struct prof_metric *m = &p->metrics[mi];
			int pc = 0, n = 0, hint = 0;
			while (m->perf_profile && pc < s->nprofiles && s->profiles[pc] != m->perf_profile)
				pc++;
			if (!m->perf_profile || pc == s->nprofiles || (p->selecting && !m->selected))
				continue;
			for (int k = 0; k < first; k++)
				if (s->vinfo[k].profile == pc && s->vinfo[k].metric == m->perf_metric)
					slots[n++] = k;
			for (int ii = 0; ii < s->ninstances; ii++) {
				const struct instance *inst = &s->inst[ii];
				int fi = inst->profile == p ? metric_form_index(m, (int)(inst->group - p->groups)) : -1;
				int from = fi >= 0 && n ? perf_value(s, slots, n, inst, &hint) : -1;
				if (from >= 0)
					add_value(s, vb, (struct value_info){ .profile = pi, .metric = mi, .instance = ii, .form = fi,
									     .m = m, .detail = member[ii], .perf_slot = from + 1 });
			}
		}
	}
	free(slots);
	s->ncopies = s->nvalues - first;
}

void bind_values(struct session *s)
{
	struct value_binding vb = { 0 };
	vb.member = xcalloc((size_t)(s->ninstances ? s->ninstances : 1), sizeof(bool));
	for (int ii = 0; ii < s->ninstances; ii++)
		for (int k = 0; k < s->inst[ii].nmembers; k++)
			vb.member[s->inst[ii].members[k]] = !s->inst[s->inst[ii].members[k]].sum_kind; /* not
				* a socket row counting its CPUs, a member of "all" (bind_cpu_sums.c) */
	for (int pi = 0; pi < s->nprofiles; pi++) {
		struct profile *p = s->profiles[pi];
		vb.pi = pi;
		vb.p = p;
		int first = s->nvalues;
		struct int_map value_at = { 0 };
		vb.value_at = reads_metrics(p) ? &value_at : NULL;
		instance_index_init(&vb.ix, s, p);
		/* each metric after those it reads: their values are bound (and evaluated) first */
		for (int k = 0; k < p->nmetrics; k++) {
			int mi = p->metric_order ? p->metric_order[k] : k, n;
			vb.unit = NULL;
			vb.refused = -1;
			vb.first_value = s->nvalues;
			int *of = instance_index_of_metric(&vb.ix, &p->metrics[mi], &n);
			for (int j = 0; j < n; j++)
				bind_value(s, &vb, mi, of[j]);
			free(of);
			settle_unit(&p->metrics[mi], vb.unit);
		}
		if (vb.value_at)
			bind_thresholds(s, &vb, first);
		int_map_free(&value_at);
		instance_index_free(&vb.ix);
	}
	vb.value_at = NULL;
	bind_copies(s, &vb, vb.member);
	free(vb.member);
	free(s->import_vars);
	s->import_vars = vb.nscratch ? xcalloc((size_t)vb.nscratch, sizeof(double)) : NULL;
	int widest = 0;
	for (int pi = 0; pi < s->nprofiles; pi++)
		if (s->profiles[pi]->nmetrics > widest)
			widest = s->profiles[pi]->nmetrics;
	free(s->thresh_vals);
	s->thresh_vals = xmalloc(sizeof(double) * (size_t)(widest + 1));
	for (int k = 0; k <= widest; k++)
		s->thresh_vals[k] = NAN;
}

/* Whether a formula of the session's values, or a sum's weight, reads the machine's
 * literals; each (profile, metric, form) asked once: every CPU's instance has the same. */
static bool session_reads_facts(const struct session *s)
{
	int *first = xcalloc((size_t)s->nprofiles + 1, sizeof(int)), total = 0;
	for (int p = 0; p < s->nprofiles; p++) {
		first[p] = total;
		total += s->profiles[p]->nmetrics;
	}
	uint32_t *asked = xcalloc((size_t)total + 1, sizeof(uint32_t)); /* per metric, a bit a form */
	bool any = false;
	for (int k = 0; k < s->nvalues && !any; k++) {
		const struct value_info *vi = &s->vinfo[k];
		uint32_t bit = vi->form < 32 ? 1u << vi->form : 0, *seen = &asked[first[vi->profile] + vi->metric];
		if (!bit || !(*seen & bit)) /* (a metric's 33rd form on is asked every time) */
			any = group_expr_reads_facts(s->inst[vi->instance].group, vi->m->forms[vi->form].expr);
		*seen |= bit;
	}
	for (int i = 0; i < s->ninstances && !any; i++) {
		const struct prof_group *g = s->inst[i].group;
		any = g->weight && group_expr_reads_facts(g, g->weight->expr);
	}
	free(asked);
	free(first);
	return any;
}

/* The online CPUs a sum stands for: its socket's (every socket's for "all"), of its kind
 * of core where it has one (cpus_of, or its members' core PMU without a cpumask: a
 * hybrid's cpu_atom). Not its members' CPUs: an uncore box's sum is the socket's, though
 * each box is opened on one CPU of it. */
static void row_cpus(const struct session *s, const struct instance *inst, struct cpulist *out)
{
	const struct machine *m = s->machine;
	const struct pmu *of = inst->group->cpus_of ? machine_find_pmu(m, inst->group->cpus_of) : NULL;
	for (int k = 0; !of && k <= inst->nmembers; k++) { /* (or a socket row's own PMU) */
		const struct pmu *p = k < inst->nmembers ? s->inst[inst->members[k]].pmu : inst->pmu;
		if (p && !pmu_attr(p, "cpumask"))
			of = p; /* a core PMU: its CPUs are the kind's (every CPU for a plain 'cpu') */
	}
	for (int i = 0; i < m->online.n; i++) {
		int cpu = m->online.cpu[i];
		if ((inst->socket < 0 || machine_socket_of(m, cpu) == inst->socket) && (!of || cpulist_contains(&of->cpus, cpu)))
			cpulist_add(out, cpu);
	}
}

/* The machine's literals into each instance's variables, the topology's counted over the
 * CPUs the row stands for: a CPU's own; an uncore box's, the CPUs it is opened on (one a
 * socket it counts on: #num_dies is the dies its count covers); a sum's, row_cpus. So
 * #num_dies or #num_cpus_online means on every row what it means on "all" (perf 6.12
 * gives every row the machine's: pmutop-profile(5), "Rows of many CPUs"). */
void bind_facts(struct session *s)
{
	if (!session_reads_facts(s)) /* the topology's files are read only for formulae that use them */
		return;
	double facts[FACT_COUNT], row[FACT_COUNT];
	machine_facts_read(s->machine, facts);
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (!inst->vars)
			continue;
		const double *f = facts;
		if (inst->sum_kind && (inst->socket >= 0 || inst->group->cpus_of || inst->group->aggregate_suffix)) {
			struct cpulist cpus = { 0 };
			row_cpus(s, inst, &cpus);
			machine_facts_of_cpus(s->machine, &cpus, row);
			cpulist_free(&cpus);
			f = row;
		} else if (!inst->nmembers && !inst->nparts && !inst->sum_kind && inst->cpus.n) {
			machine_facts_of_cpus(s->machine, &inst->cpus, row);
			f = row;
		}
		memcpy(inst->vars + inst->group->nevents + VAR_FACTS, f, sizeof(facts));
	}
}
