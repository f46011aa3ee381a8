/* sampler.c - one refresh: read every counter, turn cumulative readings into interval
 * deltas (wrap, multiplex scaling, states), then evaluate every metric into the frame.
 *
 * Time comes from the caller (the injected clock), never from the system here. */
#include <math.h>
#include <string.h>

#include "base/expr.h"
#include "engine/session.h"
#include "sources/source.h"

static enum value_state worse(enum value_state a, enum value_state b)
{
	return a > b ? a : b;
}

static void counter_delta(struct counter *ct, double scale)
{
	ct->delta = 0;
	ct->coverage = 1.0;
	ct->d_enabled = ct->d_running = 0;
	if (!ct->read_ok) {
		ct->state = VS_UNREADABLE;
		ct->primed = false;
		return;
	}
	if (!ct->primed) {
		ct->state = VS_NO_VALUE;
		goto remember;
	}
	uint64_t dv = ct->value - ct->prev_value;
	if (ct->width < 64) {
		dv &= (1ull << ct->width) - 1; /* a narrow counter wrapped at most once */
	} else if (ct->value < ct->prev_value) {
		ct->state = VS_UNREADABLE; /* a 64-bit count went backwards: reset, not traffic */
		goto remember;
	}
	uint64_t de = ct->enabled - ct->prev_enabled;
	uint64_t dr = ct->running - ct->prev_running;
	ct->d_enabled = de;
	ct->d_running = dr;
	if (ct->enabled < ct->prev_enabled || ct->running < ct->prev_running) {
		ct->state = VS_UNREADABLE;
		goto remember;
	}
	if (dr == 0) {
		ct->state = VS_NOT_COUNTED;
		goto remember;
	}
	double v = (double)dv;
	if (dr < de) {
		ct->coverage = (double)dr / (double)de;
		v = v * ((double)de / (double)dr);
	}
	ct->delta = v * scale;
	ct->state = VS_OK;
remember:
	ct->prev_value = ct->value;
	ct->prev_enabled = ct->enabled;
	ct->prev_running = ct->running;
	ct->primed = true;
}

static void instance_vars(struct session *s, struct instance *inst, double elapsed_ns)
{
	const struct prof_group *g = inst->group;
	for (int e = 0; e < g->nevents; e++) {
		inst->vars[e] = 0;
		inst->event_state[e] = inst->present[e] ? VS_OK : VS_UNAVAILABLE;
		inst->event_coverage[e] = 1.0;
	}
	if (inst->nmembers) {
		int ncpus = 0;
		for (int i = 0; i < inst->nmembers; i++) {
			const struct instance *mb = &s->inst[inst->members[i]];
			ncpus += (int)mb->vars[g->nevents + VAR_NCPUS];
			for (int e = 0; e < g->nevents; e++) {
				inst->vars[e] += mb->vars[e];
				inst->event_state[e] = worse(inst->event_state[e], mb->event_state[e]);
				if (mb->event_coverage[e] < inst->event_coverage[e])
					inst->event_coverage[e] = mb->event_coverage[e];
			}
		}
		inst->vars[g->nevents + VAR_NCPUS] = ncpus;
	} else {
		for (int c = 0; c < inst->ncounters; c++) {
			struct counter *ct = &inst->counters[c];
			if (!inst->opened) {
				ct->state = VS_UNAVAILABLE;
			} else {
				counter_delta(ct, inst->scale[ct->event]);
			}
			inst->vars[ct->event] += ct->delta;
			inst->event_state[ct->event] = worse(inst->event_state[ct->event], ct->state);
			if (ct->coverage < inst->event_coverage[ct->event])
				inst->event_coverage[ct->event] = ct->coverage;
		}
		inst->vars[g->nevents + VAR_NCPUS] = inst->cpus.n;
		if (inst->skip_next) {
			for (int e = 0; e < g->nevents; e++)
				inst->event_state[e] = worse(inst->event_state[e], VS_NO_VALUE);
		}
	}
	inst->vars[g->nevents + VAR_ELAPSED_NS] = elapsed_ns;
	inst->vars[g->nevents + VAR_ELAPSED_S] = elapsed_ns / 1e9;
}

void session_sample(struct session *s, uint64_t now_ns)
{
	double elapsed = now_ns > s->last_ns ? (double)(now_ns - s->last_ns) : 0.0;
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (inst->opened && !inst->nmembers) {
			if (s->source->ops->read(s->source, inst, now_ns) < 0)
				for (int c = 0; c < inst->ncounters; c++)
					inst->counters[c].read_ok = false;
		}
	}
	s->source->now_ns = now_ns;
	/* members come before their aggregates, so one pass in order suffices */
	for (int i = 0; i < s->ninstances; i++)
		instance_vars(s, &s->inst[i], elapsed);
	for (int i = 0; i < s->ninstances; i++)
		s->inst[i].skip_next = false; /* aggregates inherited it through the event states */
	for (int k = 0; k < s->nvalues; k++) {
		struct metric_value *v = &s->values[k];
		const struct instance *inst = &s->inst[v->instance];
		const struct prof_formula *m = &session_metric(s, v)->forms[v->form];
		enum value_state state = VS_OK;
		double coverage = 1.0;
		if (inst->unavailable || (!inst->opened && !inst->nmembers)) {
			state = VS_UNAVAILABLE;
		} else {
			for (int i = 0; i < m->ninputs; i++) {
				state = worse(state, inst->event_state[m->inputs[i]]);
				if (inst->event_coverage[m->inputs[i]] < coverage)
					coverage = inst->event_coverage[m->inputs[i]];
			}
		}
		if (elapsed <= 0 && state == VS_OK)
			state = VS_NO_VALUE;
		v->coverage = coverage;
		v->multiplexed = coverage < 1.0;
		if (state != VS_OK) {
			v->state = state;
			v->value = NAN;
			continue;
		}
		v->value = expr_eval(m->expr, inst->vars);
		v->state = isnan(v->value) ? VS_NO_VALUE : VS_OK;
	}
	s->interval_ns = now_ns > s->last_ns ? now_ns - s->last_ns : 0;
	s->last_ns = now_ns;
	s->nsamples++;
}
