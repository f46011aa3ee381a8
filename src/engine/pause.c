/* SPDX-License-Identifier: GPL-2.0-only */
/* pause.c - counters only where something shows what they give: an output says which
 * values it shows (the monitor: its panes not hidden), and the instances none of those
 * values needs are closed, to be opened again when shown; an instance some of them need
 * opens only the events they read. A hidden pane's group then takes no counter (perf's
 * rule of thumb: what is not asked for is not counted), which leaves the PMU's counters
 * to the groups on screen, even where a hidden pane's metrics are perf's and share one
 * instance a CPU with a shown one's. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/attach.h"
#include "bind/counter_share.h"
#include "profile/metric_select.h"
#include "engine/session.h"
#include "engine/source.h"
#include "bind/state.h"

struct need_walk {
	const struct session *s;
	bool *inst;    /* per instance: needed */
	bool *value;   /* per value slot: walked */
	bool **events; /* per instance: per group event, read by a value needed (NULL: none yet) */
};

/* Event e of instance i is read: a sum's, its members'. */
static void need_event(struct need_walk *w, int i, int e)
{
	const struct instance *inst = &w->s->inst[i];
	if (e < 0 || e >= inst->group->nevents)
		return; /* a builtin (clock.ncpus), no event */
	for (int k = 0; k < inst->nmembers; k++)
		need_event(w, inst->members[k], e);
	if (inst->nmembers)
		return;
	if (!w->events[i])
		w->events[i] = xcalloc((size_t)inst->group->nevents + 1, sizeof(bool));
	w->events[i][e] = true;
}

static void need_instance(struct need_walk *w, int i)
{
	if (w->inst[i])
		return;
	w->inst[i] = true;
	const struct instance *inst = &w->s->inst[i];
	for (int k = 0; k < inst->nmembers; k++) /* a sum: its members */
		need_instance(w, inst->members[k]);
	for (int k = 0; k < inst->nparts; k++) /* a blend: the sums it weighs */
		need_instance(w, inst->parts[k]);
}

/* A value: its instance, the partners of its imports, the values it reads by name, a
 * blend's parts, its threshold's values. */
static void need_value(struct need_walk *w, int k)
{
	if (w->value[k])
		return;
	w->value[k] = true;
	const struct value_info *vi = &w->s->vinfo[k];
	need_instance(w, vi->instance);
	const struct prof_formula *f = &vi->m->forms[vi->form];
	for (int i = 0; i < f->ninputs; i++)
		need_event(w, vi->instance, f->inputs[i]);
	for (int i = 0; vi->partners && i < f->nimports; i++)
		if (vi->partners[i] >= 0) {
			need_instance(w, vi->partners[i]);
			need_event(w, vi->partners[i], f->imports[i].event);
		}
	for (int i = 0; vi->refs && i < f->nrefs; i++)
		need_value(w, vi->refs[i]);
	for (int i = 0; vi->parts && i < w->s->inst[vi->instance].nparts; i++)
		need_value(w, vi->parts[i]);
	for (int i = 0; vi->thresh && i < vi->nthresh; i++)
		need_value(w, vi->thresh[2 * i + 1]);
	if (vi->perf_slot) /* a hand metric showing perf's value */
		need_value(w, vi->perf_slot - 1);
}

static void pause_instance(struct instance *inst, uint64_t nsamples)
{
	inst->source->ops->close(inst->source, inst);
	inst->opened = false;
	inst->paused = true;
	inst->paused_at = nsamples;
}

/* Opened again as a gone device is when it is back: this read primes the counters, the
 * next interval is the first whole one. */
static void resume_instance(struct session *s, struct instance *inst)
{
	inst->paused = false;
	session_open_instance(s, inst);
	if (!inst->opened)
		return;
	inst->source->ops->read(inst->source, inst, s->last_ns);
	if (inst->source->ops->read_done)
		inst->source->ops->read_done(inst->source);
	counters_copy_shared(s, inst);
	for (int c = 0; c < inst->ncounters; c++) {
		counter_prime(&inst->counters[c], true);
		counter_reopened(&inst->counters[c]);
	}
	inst->skip_next = true;
}

/* The events of a needed instance that stay closed: those no needed value reads, but
 * its perf group's leader and its weight's inputs; NULL (all open) where no value reads
 * an event of it. Whether that changes what is closed. */
static bool set_closed(struct instance *inst, const bool *needed)
{
	const struct prof_group *g = inst->group;
	bool *closed = NULL;
	for (int e = 0; needed && e < g->nevents; e++) {
		bool lead = g->leader && !strcmp(g->events[e].name, g->leader);
		if (!needed[e] && !lead) {
			if (!closed)
				closed = xcalloc((size_t)g->nevents + 1, sizeof(bool));
			closed[e] = true;
		}
	}
	for (int i = 0; closed && g->weight && i < g->weight->ninputs; i++)
		closed[g->weight->inputs[i]] = false;
	bool same = !closed == !inst->closed;
	for (int e = 0; same && closed && e < g->nevents; e++)
		same = closed[e] == inst->closed[e];
	free(inst->closed);
	inst->closed = closed;
	return !same;
}

void session_need_values(struct session *s, const bool *shown)
{
	struct need_walk w = { s, xcalloc((size_t)(s->ninstances + 1), sizeof(bool)),
			       xcalloc((size_t)(s->nvalues + 1), sizeof(bool)),
			       xcalloc((size_t)(s->ninstances + 1), sizeof(bool *)) };
	for (int k = 0; k < s->nvalues; k++)
		if (!shown || shown[k])
			need_value(&w, k);
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (inst->nmembers || inst->nparts || !inst->ncounters || !inst->source)
			continue;
		if (shown && !w.inst[i]) {
			if (inst->opened)
				pause_instance(inst, s->nsamples);
			continue;
		}
		bool changed = set_closed(inst, shown ? w.events[i] : NULL);
		if (inst->paused)
			resume_instance(s, inst);
		else if (changed && inst->opened) { /* its events needed are others now */
			pause_instance(inst, s->nsamples);
			resume_instance(s, inst);
		}
	}
	/* a counter it read closed, or one it could read opened: opened again to read it */
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (inst->nshares && inst->opened && counters_shares_stale(s, inst)) {
			pause_instance(inst, s->nsamples);
			resume_instance(s, inst);
		}
	}
	for (int i = 0; i < s->ninstances; i++)
		free(w.events[i]);
	free(w.events);
	free(w.inst);
	free(w.value);
}

bool *session_default_values(const struct session *s)
{
	bool *shown = xmalloc(sizeof(bool) * (size_t)(s->nvalues + 1));
	bool any_left = false;
	for (int k = 0; k < s->nvalues; k++) {
		const struct value_info *vi = &s->vinfo[k];
		/* perf's metric chosen as a hand metric's definition: shown where that one is */
		shown[k] = !vi->m->quiet && !metric_only_in_hidden_panes(s->profiles[vi->profile], vi->metric);
		any_left |= !shown[k];
	}
	if (!any_left) {
		free(shown);
		return NULL;
	}
	return shown;
}
