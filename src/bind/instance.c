/* SPDX-License-Identifier: GPL-2.0-only */
/* instance.c - making the instances binding and blending add to a session. */
#include "bind/instance.h"

#include <math.h>
#include <string.h>

#include "base/diag.h"
#include "base/numtext.h"
#include "base/util.h"
#include "bind/state.h"

struct instance *instance_add(struct session *s, int *cap)
{
	grow_array(&s->inst, cap, s->ninstances + 1, sizeof(struct instance));
	struct instance *inst = &s->inst[s->ninstances++];
	memset(inst, 0, sizeof(*inst));
	inst->socket = -1;
	inst->parent = -1;
	inst->locked_filter = -1;
	return inst;
}

/* Attribute files as formula numbers, parsed without the locale (C rules always). */
void instance_read_attrs(struct instance *inst)
{
	const struct prof_group *g = inst->group;
	for (int a = 0; a < g->nattrs; a++) {
		const char *v = inst->pmu ? pmu_attr(inst->pmu, g->attrs[a]) : NULL;
		double d = NAN;
		if (v && !parse_double(v, &d)) {
			diag_warn("%s/%s: '%s' is not a number; formulae using it have no value", inst->pmu->dir,
				  g->attrs[a], v);
			d = NAN;
		}
		inst->vars[group_attr_slot(g, a)] = d;
	}
}

void instance_add_label(struct instance *inst, const char *key, const char *value)
{
	for (int i = 0; i < inst->nlabels; i++)
		if (!strcmp(inst->labels[i].key, key))
			return;
	inst->labels = xrealloc(inst->labels, sizeof(*inst->labels) * (size_t)(inst->nlabels + 1));
	struct label *l = &inst->labels[inst->nlabels++];
	str_copy(l->key, sizeof(l->key), key);
	str_copy(l->value, sizeof(l->value), value);
}

/* The per-event and per-filter arrays, carved from one block (event_str is its start, the
 * one to free): a demo has hundreds of instances, and nine small blocks each cost their
 * malloc headers (about 40 KB of a demo's resident set). Widest types first, for alignment. */
void instance_alloc_arrays(struct instance *inst)
{
	const struct prof_group *g = inst->group;
	size_t ne = (size_t)g->nevents, nf = (size_t)g->nfilters + 1, nv = (size_t)group_nvars(g);
	size_t bytes = ne * (2 * sizeof(char *) + 2 * sizeof(double) + sizeof(enum value_state) + sizeof(int) +
			     sizeof(bool)) + nf * (sizeof(uint64_t) + sizeof(bool)) + nv * sizeof(double);
	char *p = xcalloc(1, bytes ? bytes : 1);
	inst->event_str = (char **)p;
	p += ne * sizeof(char *);
	inst->event_na = (char **)p;
	p += ne * sizeof(char *);
	inst->scale = (double *)p;
	p += ne * sizeof(double);
	inst->event_coverage = (double *)p;
	p += ne * sizeof(double);
	inst->vars = (double *)p;
	p += nv * sizeof(double);
	inst->filter_value = (uint64_t *)p;
	p += nf * sizeof(uint64_t);
	inst->event_state = (enum value_state *)p;
	p += ne * sizeof(enum value_state);
	inst->live = (int *)p;
	p += ne * sizeof(int);
	inst->present = (bool *)p;
	p += ne * sizeof(bool);
	inst->filter_set = (bool *)p;
	/* the events it may count (-M's, a root port's): the sampler's loops skip the others,
	 * which stay unavailable (a catalogue group has 40 events, -M TopdownL1 reads 5) */
	inst->nlive = 0;
	for (int e = 0; e < g->nevents; e++) {
		inst->event_coverage[e] = 1.0;
		if ((inst->wanted && !inst->wanted[e]) || (g->wanted && !g->wanted[e]))
			inst->event_state[e] = VS_UNAVAILABLE;
		else
			inst->live[inst->nlive++] = e;
	}
	for (int f = 0; f < g->nfilters; f++) {
		inst->filter_set[f] = g->filters[f].has_default;
		inst->filter_value[f] = g->filters[f].def;
	}
}
