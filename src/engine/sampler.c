/* SPDX-License-Identifier: GPL-2.0-only */
/* sampler.c - one refresh: read every counter through its source, turn readings into
 * interval deltas (width, wrap versus reset, multiplex scaling, states), evaluate every
 * metric, and publish it all as one frame.
 *
 * Time comes from the caller (the injected clock), never from the system here. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/clock.h"
#include "base/expr.h"
#include "base/util.h"
#include "engine/machine_cycles.h"
#include "engine/attach.h"
#include "bind/counter_share.h"
#include "engine/hostmeters.h"
#include "profile/metric_threshold.h"
#include "engine/session.h"
#include "engine/source.h"
#include "engine/tasks.h"

static enum value_state worse(enum value_state a, enum value_state b)
{
	return a > b ? a : b;
}

static void remember(struct counter *ct)
{
	counter_prime(ct, true);
}

/* Step one: the interval's raw count (a gauge: its reading's bits) and times from the
 * source's readings, and the state they leave it in. fc->enabled/running are set to what
 * the frame shows. A replay gives these directly (READING_INTERVAL): step two then makes
 * exactly the frame the live run made. */
static enum value_state raw_delta(struct counter *ct, struct frame_counter *fc, bool follows_tasks)
{
	const struct counter_reading *rd = &ct->read;
	struct counter_memory *mem = &ct->mem;
	fc->raw = 0;
	fc->enabled = fc->running = 0;
	switch (rd->kind) {
	case READING_INTERVAL:
		fc->raw = rd->value;
		fc->enabled = rd->enabled;
		fc->running = rd->running;
		return rd->state;
	case READING_FAILED:
		mem->primed = false;
		return VS_UNREADABLE;
	case READING_LEVEL: /* a level: the reading is the value */
		memcpy(&fc->raw, &rd->level, sizeof(fc->raw));
		return isnan(rd->level) ? VS_NO_VALUE : VS_OK;
	case READING_COUNT:
		break;
	}
	if (!mem->primed) {
		remember(ct);
		return VS_NO_VALUE;
	}
	uint64_t dv = rd->value - mem->value;
	if (ct->width < 64) {
		/* modulo the counter's width: a small step past the top is a wrap; a step back
		 * of more than half the range is a reset (cleared, reprogrammed), not traffic */
		uint64_t range_mask = (1ull << ct->width) - 1;
		dv &= range_mask;
		if (rd->value < mem->value && dv > range_mask / 2) {
			remember(ct);
			return VS_UNREADABLE;
		}
	} else if (rd->value < mem->value) {
		remember(ct); /* a 64-bit count went backwards: reset, not traffic */
		return VS_UNREADABLE;
	}
	fc->raw = dv;
	fc->enabled = rd->enabled - mem->enabled;
	fc->running = rd->running - mem->running;
	enum value_state st = VS_OK;
	if (rd->enabled < mem->enabled || rd->running < mem->running)
		st = VS_UNREADABLE;
	else if (fc->running == 0 && !ct->takes_turns && !follows_tasks)
		st = VS_NOT_COUNTED;
	remember(ct);
	return st;
}

/* Step two: scaling (multiplexing, turns, the alias's .scale) into the frame's value. */
static void scaled_delta(struct counter *ct, enum value_state st, double scale, struct frame_counter *fc)
{
	fc->delta = 0;
	fc->coverage = 1.0f;
	fc->state = fc->raw_state = (uint8_t)st;
	if (ct->kind == COUNTER_GAUGE) {
		double reading;
		memcpy(&reading, &fc->raw, sizeof(reading));
		fc->delta = st == VS_UNREADABLE ? 0 : reading * scale;
		return;
	}
	if (st != VS_OK)
		return;
	uint64_t dv = fc->raw, de = fc->enabled, dr = fc->running;
	if (ct->takes_turns) { /* its turn's rate stands until its next turn; coverage says how much ran */
		struct counter_memory *mem = &ct->mem;
		if (dr) {
			mem->held_rate = (double)dv / (double)dr;
			mem->held = true;
		}
		mem->ran_total += dr;
		mem->enabled_total += de;
		fc->coverage = mem->enabled_total ? (float)((double)mem->ran_total / (double)mem->enabled_total) : 0.0f;
		fc->delta = mem->held_rate * (double)de * scale;
		fc->state = mem->held ? VS_OK : VS_NOT_COUNTED;
		return;
	}
	double v = (double)dv;
	if (dr < de) {
		fc->coverage = (float)((double)dr / (double)de);
		v = v * ((double)de / (double)dr);
	}
	fc->delta = v * scale;
}

static void counter_delta(struct counter *ct, double scale, struct frame_counter *fc, bool follows_tasks)
{
	scaled_delta(ct, raw_delta(ct, fc, follows_tasks), scale, fc);
}

/* A blend counts where a part does; its values come from its parts' (blend_value). */
static void blend_state(const struct instance *inst, struct frame_instance *fi, const struct frame_instance *fis)
{
	*fi = (struct frame_instance){ .filters = "", .coverage = 1.0f };
	for (int k = 0; k < inst->nparts; k++) {
		const struct frame_instance *p = &fis[inst->parts[k]];
		fi->counting |= p->counting;
		if (p->coverage < fi->coverage)
			fi->coverage = p->coverage;
	}
}

/* A sum's weight in its blends this interval: its group's weight formula, NAN unless
 * every event it reads has a value. */
static void sum_weight(struct instance *inst)
{
	const struct prof_formula *w = inst->group->weight;
	inst->weight = NAN;
	if (!w || !w->expr || !inst->sum_kind)
		return;
	for (int i = 0; i < w->ninputs; i++)
		if (inst->event_state[w->inputs[i]] != VS_OK)
			return;
	inst->weight = expr_eval(w->expr, inst->vars);
}

/* Why event e of inst is not counted, or NULL: its own reason, or a sum's first member's
 * (a replay's event the recording lacks is each CPU's). *absent: that it is not there at all. */
static const char *event_reason(const struct session *s, const struct instance *inst, int e, bool *absent)
{
	const struct instance *src = inst;
	for (int k = 0; !src->event_na[e] && k < inst->nmembers; k++)
		if (s->inst[inst->members[k]].event_na[e])
			src = &s->inst[inst->members[k]];
	*absent = src->event_absent && src->event_absent[e];
	return src->event_na[e];
}

/* Why a value is unavailable, where something says: an event it reads (its own, or an
 * import's on its partner instance), an import's instance that could not count, a
 * metric it reads by name. */
static void unavailable_reason(struct session *s, const struct value_info *vi, const struct prof_formula *m,
			       const struct frame_value *fvs, struct frame_value *v)
{
	const struct instance *inst = &s->inst[vi->instance];
	bool absent = false;
	const char *why = NULL;
	for (int i = 0; i < m->ninputs && !why; i++)
		why = event_reason(s, inst, m->inputs[i], &absent);
	for (int i = 0; vi->partners && i < m->nimports && !why; i++) {
		const struct instance *pt = &s->inst[vi->partners[i]];
		int e = m->imports[i].event;
		if (pt->unavailable || (!pt->opened && !pt->nmembers)) {
			why = pt->unavailable ? pt->unavailable : pt->open_error;
			absent = pt->absent;
		} else if (e < pt->group->nevents) {
			why = event_reason(s, pt, e, &absent);
		}
	}
	v->why = why ? session_intern(s, why) : NULL;
	v->absent = why && absent;
	for (int k = 0; vi->refs && k < m->nrefs && !v->why; k++) {
		const struct frame_value *rv = &fvs[vi->refs[k]];
		if (rv->state == VS_UNAVAILABLE && rv->why) {
			v->why = rv->why;
			v->absent = rv->absent;
		}
	}
}

/* An event not counted: unavailable (absent, or not under the filters), or closed while
 * no value shown reads it, which is no value ("-": a pane just shown counts from now). */
static enum value_state event_idle(const struct instance *inst, int e)
{
	return inst->present[e] && !inst->event_na[e] ? VS_NO_VALUE : VS_UNAVAILABLE;
}

/* An event that ticks alike on every CPU (the TSC) is, on a row of several, one thread's
 * count: the mean of the members that counted, as Intel's TMA and toplev take TSC
 * (pmutop-profile(5), "Rows of many CPUs"). perf 6.12 sums it over -a's CPUs. */
static void per_thread_means(struct instance *inst, int ncounted)
{
	const struct prof_group *g = inst->group;
	for (int k = 0; k < inst->nlive && ncounted > 1; k++) {
		int e = inst->live[k];
		if (e < g->nevents && g->events[e].per_thread)
			inst->vars[e] /= ncounted;
	}
}

/* A CPU's counters, or an instance's: whether they ran, and for how long. */
struct cpu_tally {
	int ncum, nenabled, nen;
	uint64_t en;
	bool off;
};

/* Each counter's delta (counter_delta), tallied by CPU for a socket row counting its
 * CPUs itself (by_cpu: its counters are event-major, a CPU each), else in one tally. */
static void counter_deltas(struct instance *inst, struct frame_counter *fcs, struct cpu_tally *tally, bool by_cpu)
{
	int ncpu = inst->cpus.n;
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		struct frame_counter *fc = &fcs[ct->slot];
		struct cpu_tally *t = &tally[by_cpu ? c % ncpu : 0];
		if (!inst->opened || inst->event_na[ct->event] || (inst->closed && inst->closed[ct->event])) {
			memset(fc, 0, sizeof(*fc));
			fc->state = inst->opened ? event_idle(inst, ct->event) : VS_UNAVAILABLE;
			fc->coverage = 1.0f;
			continue;
		}
		counter_delta(ct, inst->scale[ct->event], fc, inst->follows_tasks);
		if (ct->kind == COUNTER_CUMULATIVE && ct->mem.primed) {
			t->ncum++;
			t->nenabled += fc->enabled > 0;
		}
		if (ct->kind == COUNTER_CUMULATIVE && fc->enabled && fc->raw_state == VS_OK) {
			t->en += fc->enabled;
			t->nen++;
		}
	}
}

/* An instance's counters into its variables; the interval they saw. A socket row
 * counting its CPUs itself (bind_cpu_sums.c) sums them as the sum of the CPUs' own rows
 * would (instance_vars' members): a CPU whose counters were not enabled (offline) is
 * left out, not summed as zeros, of the states, #ncpus and per-thread means, and the
 * interval is the mean of the others' own. */
static double counters_vars(struct instance *inst, double elapsed_ns, struct frame_counter *fcs,
			    struct frame_instance *fi)
{
	const struct prof_group *g = inst->group;
	int ncpu = inst->cpus.n;
	bool by_cpu = inst->sum_kind && ncpu > 1, tasks = inst->follows_tasks;
	struct cpu_tally one = { 0 }, *tally = &one;
	if (by_cpu) {
		if (!inst->tally)
			inst->tally = xmalloc(sizeof(*inst->tally) * (size_t)ncpu);
		tally = inst->tally;
		memset(tally, 0, sizeof(*tally) * (size_t)ncpu);
	}
	counter_deltas(inst, fcs, tally, by_cpu);
	int non = 0;
	double el = 0;
	for (int k = 0; k < (by_cpu ? ncpu : 1); k++) {
		struct cpu_tally *t = &tally[k];
		/* perf stops a CPU's counters' enabled time while the CPU is offline */
		t->off = inst->opened && t->ncum > 0 && t->nenabled == 0 && elapsed_ns > 0 && !tasks;
		/* the interval as the counters themselves saw it (their enabled time between two
		 * reads), not the clock's: a read that came late (moved to a busy CPU to read it
		 * there) then covers a longer time and says so, and its rate stays right. A
		 * task's are enabled only while it runs: its rates are over the clock's */
		if (!t->off) {
			non++;
			el += t->nen && elapsed_ns > 0 && !tasks ? (double)t->en / t->nen : elapsed_ns;
		}
	}
	for (int c = 0; c < inst->ncounters; c++) {
		const struct counter *ct = &inst->counters[c];
		const struct frame_counter *fc = &fcs[ct->slot];
		if (by_cpu && tally[c % ncpu].off)
			continue;
		inst->vars[ct->event] += fc->delta;
		inst->event_state[ct->event] = worse(inst->event_state[ct->event], (enum value_state)fc->state);
		if (fc->coverage < inst->event_coverage[ct->event])
			inst->event_coverage[ct->event] = fc->coverage;
	}
	inst->vars[g->nevents + VAR_NCPUS] = by_cpu ? non : ncpu;
	if (inst->skip_next || (by_cpu && !non))
		for (int k = 0; k < inst->nlive; k++)
			inst->event_state[inst->live[k]] =
				by_cpu && !non ? VS_UNAVAILABLE : worse(inst->event_state[inst->live[k]], VS_NO_VALUE);
	if (by_cpu)
		per_thread_means(inst, non);
	fi->counting = inst->opened && (!by_cpu || non);
	inst->off = inst->opened && !non;
	return non ? el / non : elapsed_ns;
}

static void instance_vars(struct session *s, struct instance *inst, double elapsed_ns, struct frame_counter *fcs,
			  struct frame_instance *fi)
{
	const struct prof_group *g = inst->group;
	for (int i = 0; i < inst->nlive; i++) {
		int e = inst->live[i];
		inst->vars[e] = 0;
		inst->event_state[e] = instance_counts_event(inst, e) ? VS_OK : event_idle(inst, e);
		inst->event_coverage[e] = 1.0;
	}
	if (inst->nmembers) {
		int ncpus = 0, nel = 0;
		double el = 0;
		bool any = false;
		for (int i = 0; i < inst->nmembers; i++) {
			const struct instance *mb = &s->inst[inst->members[i]];
			if (!mb->opened || mb->off) /* a member that cannot count (offline CPU) is not a zero */
				continue;
			any = true;
			ncpus += (int)mb->vars[g->nevents + VAR_NCPUS];
			el += mb->vars[g->nevents + VAR_ELAPSED_NS];
			nel++;
			for (int k = 0; k < inst->nlive; k++) {
				int e = inst->live[k];
				inst->vars[e] += mb->vars[e];
				inst->event_state[e] = worse(inst->event_state[e], mb->event_state[e]);
				if (mb->event_coverage[e] < inst->event_coverage[e])
					inst->event_coverage[e] = mb->event_coverage[e];
			}
		}
		if (!any) /* the members' own state, not "no value" */
			for (int k = 0; k < inst->nlive; k++)
				inst->event_state[inst->live[k]] = VS_UNAVAILABLE;
		inst->vars[g->nevents + VAR_NCPUS] = ncpus;
		per_thread_means(inst, nel);
		fi->counting = any;
		if (nel)
			elapsed_ns = el / nel;
	} else {
		elapsed_ns = counters_vars(inst, elapsed_ns, fcs, fi);
	}
	inst->vars[g->nevents + VAR_ELAPSED_NS] = elapsed_ns;
	inst->vars[g->nevents + VAR_ELAPSED_S] = elapsed_ns / 1e9;
	/* interned: an error string changes (a device gone, back) while older frames are read */
	const char *err = inst->unavailable ? inst->unavailable : inst->open_error;
	if (err && (!inst->error_interned || strcmp(inst->error_interned, err)))
		inst->error_interned = session_intern(s, err);
	fi->error = err ? inst->error_interned : NULL;
	fi->absent = inst->unavailable && inst->absent;
	fi->filters = inst->filters;
	fi->filters_seq = inst->filters_seq;
	double cov = 1.0;
	for (int k = 0; k < inst->nlive; k++)
		if (inst->event_coverage[inst->live[k]] < cov)
			cov = inst->event_coverage[inst->live[k]];
	fi->coverage = (float)cov;
	sum_weight(inst);
}

/* A blend's value: its parts' weighted by their weights (their slots), in the worst of
 * their states. */
static void blend_value(const struct session *s, const struct value_info *vi, const struct frame_value *fvs,
			struct frame_value *v)
{
	const struct instance *b = &s->inst[vi->instance];
	enum value_state state = VS_OK;
	double sum = 0, weights = 0;
	float cov = 1.0f;
	for (int k = 0; k < b->nparts; k++) {
		const struct frame_value *pv = &fvs[vi->parts[k]];
		double w = s->inst[b->parts[k]].weight;
		state = worse(state, (enum value_state)pv->state);
		if (state == VS_OK && !(w >= 0))
			state = VS_NO_VALUE;
		if (pv->coverage < cov)
			cov = pv->coverage;
		sum += w * pv->value;
		weights += w;
	}
	v->coverage = cov;
	v->multiplexed = cov < 1.0f;
	v->why = NULL;
	v->absent = false;
	v->value = state == VS_OK && weights > 0 ? sum / weights : NAN;
	v->state = (uint8_t)(state != VS_OK ? state : isnan(v->value) ? VS_NO_VALUE : VS_OK);
}

/* The variables a formula reads beyond its instance's own, and their states and coverage:
 * imports (GROUP.EVENT) from their partner instances, and the values of the metrics it reads
 * by name (evaluated before it: bind_values orders them). */
static const double *with_extras(struct session *s, const struct value_info *vi, const struct prof_formula *m,
				 const struct frame_value *fvs, enum value_state *state, double *coverage)
{
	const struct instance *inst = &s->inst[vi->instance];
	int n = group_nvars(inst->group);
	memcpy(s->import_vars, inst->vars, sizeof(double) * (size_t)n);
	for (int i = 0; vi->partners && i < m->nimports; i++) {
		const struct instance *pt = &s->inst[vi->partners[i]];
		if (pt->unavailable || (!pt->opened && !pt->nmembers))
			*state = VS_UNAVAILABLE;
		int e = m->imports[i].event; /* past its events: a builtin (clock.ncpus) */
		if (e < pt->group->nevents) {
			*state = worse(*state, pt->event_state[e]);
			if (pt->event_coverage[e] < *coverage)
				*coverage = pt->event_coverage[e];
		}
		s->import_vars[n + i] = pt->vars[e];
	}
	for (int k = 0; k < m->nrefs; k++) {
		const struct frame_value *rv = &fvs[vi->refs[k]];
		*state = worse(*state, (enum value_state)rv->state);
		if (rv->coverage < *coverage)
			*coverage = rv->coverage;
		s->import_vars[n + FORMULA_MAX_IMPORTS + k] = rv->value / s->vinfo[vi->refs[k]].m->scale; /* as its formula gave it */
	}
	return s->import_vars;
}

/* Closed because no output shows it, long enough that both frame buffers hold that:
 * nothing of it changes until it is opened again. */
static bool settled(const struct session *s, const struct instance *inst)
{
	return inst->paused && s->nsamples >= inst->paused_at + 2;
}

/* Every metric value from its instance's event values, states and coverage; a sum's
 * member's only when an output reads it. */
static void evaluate_values(struct session *s, struct frame_value *fvs, double elapsed)
{
	for (int k = 0; k < s->nvalues - s->ncopies; k++) {
		const struct value_info *vi = &s->vinfo[k];
		struct frame_value *v = &fvs[k];
		if (!vi->parts && settled(s, &s->inst[vi->instance]))
			continue;
		if (vi->detail && s->skip_details) { /* no output reads it: not worth a formula */
			v->state = VS_NO_VALUE;
			v->value = NAN;
			v->why = NULL;
			v->absent = false;
			v->coverage = 1.0f;
			v->multiplexed = false;
			continue;
		}
		if (vi->parts) {
			blend_value(s, vi, fvs, v);
			continue;
		}
		const struct instance *inst = &s->inst[vi->instance];
		const struct prof_formula *m = &vi->m->forms[vi->form];
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
		const double *vars = vi->partners || vi->refs ? with_extras(s, vi, m, fvs, &state, &coverage) : inst->vars;
		if (elapsed <= 0 && state == VS_OK)
			state = VS_NO_VALUE;
		v->coverage = (float)coverage;
		v->multiplexed = coverage < 1.0;
		if (state != VS_OK) {
			v->state = (uint8_t)state;
			v->value = NAN;
			v->why = NULL;
			v->absent = false;
			if (state == VS_UNAVAILABLE)
				unavailable_reason(s, vi, m, fvs, v);
			continue;
		}
		v->why = NULL;
		v->absent = false;
		v->value = expr_eval(m->expr, vars) * vi->m->scale;
		v->state = isnan(v->value) ? VS_NO_VALUE : VS_OK;
	}
}

/* perf's MetricThreshold of each value that has one, on the values of its instance (as
 * their formulae give them: perf's thresholds compare fractions, not %). */
static void evaluate_thresholds(struct session *s, struct frame_value *fvs)
{
	double *vals = s->thresh_vals;
	for (int k = 0; k < s->nvalues - s->ncopies; k++) {
		const struct value_info *vi = &s->vinfo[k];
		fvs[k].past = -1;
		if (!vi->thresh || fvs[k].state != VS_OK)
			continue;
		for (int i = 0; i < vi->nthresh; i++) {
			const struct frame_value *r = &fvs[vi->thresh[2 * i + 1]];
			vals[vi->thresh[2 * i]] = r->state == VS_OK ? r->value / s->vinfo[vi->thresh[2 * i + 1]].m->scale : NAN;
		}
		fvs[k].past = (int8_t)metric_threshold_eval(vi->m, vi->form, vals);
		for (int i = 0; i < vi->nthresh; i++)
			vals[vi->thresh[2 * i]] = NAN;
	}
}

const struct frame *session_sample_whole(struct session *s, uint64_t now_ns)
{
	for (int i = 0; i < s->ninstances; i++)
		for (int c = 0; c < s->inst[i].ncounters; c++) {
			struct counter_memory *mem = &s->inst[i].counters[c].mem;
			mem->value = mem->base_value;
			mem->enabled = mem->base_enabled;
			mem->running = mem->base_running;
			mem->primed = mem->based; /* no reading from the start: no value */
			mem->ran_total = mem->enabled_total = 0;
		}
	s->last_ns = s->start_ns;
	struct frame *f = (struct frame *)session_sample(s, now_ns);
	f->whole_run = true;
	return f;
}

/* Who is busy, where an output asks: the top tasks, the cgroups (engine/tasks.h), or a
 * replay's tasks as recorded */
static void sample_who(struct session *s, struct frame *f, uint64_t now_ns)
{
	f->ntasks = 0;
	f->tasks = NULL;
	f->task_fds = 0;
	f->tasks_note = NULL;
	f->tasks_threads = false;
	f->ncgroups = 0;
	f->cgroups = NULL;
	f->cgroup_fds = 0;
	f->cgroups_note = NULL;
	/* batch's and serve's cgroups open at the priming read, as perf stat -G counts from
	 * its start: the first interval has their figures */
	bool cg = s->cgroups && s->cgroups_wanted && (!s->priming || s->cgroups_always);
	bool tk = s->tasks && s->tasks_wanted && !s->priming;
	double cycles = cg || tk ? session_machine_cycles(s, f) : NAN; /* a row's cycles share's whole */
	if (cg) {
		f->ncgroups = task_table_sample(s->cgroups, now_ns, cycles, &f->cgroups, &f->cgroup_fds);
		f->cgroups_note = task_table_note(s->cgroups);
	} else if (s->task_rows && s->cgroups_wanted && !s->priming) {
		s->task_rows(s->task_rows_ctx, f, true);
	}
	if (tk) {
		f->ntasks = task_table_sample(s->tasks, now_ns, cycles, &f->tasks, &f->task_fds);
		f->tasks_note = task_table_note(s->tasks);
		f->tasks_threads = task_table_shows_threads(s->tasks);
	} else if (s->task_rows && s->tasks_wanted && !s->priming) {
		s->task_rows(s->task_rows_ctx, f, false);
	}
}

const struct frame *session_sample(struct session *s, uint64_t now_ns)
{
	struct frame *f = &s->frames[s->cur ^ 1]; /* the one outputs are not reading (members
						    * before aggregates, slots in range: assert_bound()) */
	assert(s->cur == 0 || s->cur == 1);
	struct frame_counter *fcs = (struct frame_counter *)f->counters;
	struct frame_instance *fis = (struct frame_instance *)f->inst;
	struct frame_value *fvs = (struct frame_value *)f->values;
	double elapsed = now_ns > s->last_ns ? (double)(now_ns - s->last_ns) : 0.0;
	if (s->ngone)
		s->ngone = session_retry_gone(s, now_ns);
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		inst->read_errno = 0;
		if (inst->opened && !inst->nmembers) {
			int r = inst->source->ops->read(inst->source, inst, now_ns);
			if (r < 0)
				inst->read_errno = -r;
		}
	}
	for (int k = 0; k < s->nsources; k++) {
		if (s->sources[k]->ops->read_done)
			s->sources[k]->ops->read_done(s->sources[k]);
		s->sources[k]->now_ns = now_ns;
	}
	for (int k = 0; k < s->nsharers; k++)
		if (s->inst[s->sharers[k]].opened)
			counters_copy_shared(s, &s->inst[s->sharers[k]]);
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (!inst->read_errno || !inst->opened)
			continue;
		for (int c = 0; c < inst->ncounters; c++)
			counter_read_failed(&inst->counters[c]);
		if (inst->read_errno == ENODEV) {
			session_instance_gone(s, inst, ENODEV, now_ns);
			s->ngone++;
		}
	}
	/* members come before their aggregates, so one pass in order suffices */
	for (int i = 0; i < s->ninstances; i++) {
		if (s->inst[i].nparts)
			blend_state(&s->inst[i], &fis[i], fis);
		else if (!settled(s, &s->inst[i]))
			instance_vars(s, &s->inst[i], elapsed, fcs, &fis[i]);
	}
	for (int i = 0; i < s->ninstances; i++)
		s->inst[i].skip_next = false; /* aggregates inherited it through the event states */
	evaluate_values(s, fvs, elapsed);
	evaluate_thresholds(s, fvs);
	for (int k = s->nvalues - s->ncopies; k < s->nvalues; k++) { /* hand metrics that are perf's */
		fvs[k] = fvs[s->vinfo[k].perf_slot - 1];
		struct frame_instance *fi = &fis[s->vinfo[k].instance]; /* counted in turn where perf's are */
		if (fvs[k].state == VS_OK && fvs[k].coverage < fi->coverage)
			fi->coverage = fvs[k].coverage;
		fi->counting |= fis[s->vinfo[s->vinfo[k].perf_slot - 1].instance].counting; /* and counting */
	}
	if (s->meters)
		s->meters(s->meters_ctx, f);
	else
		host_meters_read(s, f);
	/* the events since the last frame go with this one */
	int b = s->cur ^ 1;
	int n = s->priming ? 0 : s->npending;
	grow_array(&s->frame_events[b], &s->capframe_events[b], n ? n : 1, sizeof(struct session_event));
	if (n)
		memcpy(s->frame_events[b], s->pending, sizeof(struct session_event) * (size_t)n);
	s->nframe_events[b] = n;
	if (!s->priming)
		s->npending = 0;
	f->events = s->frame_events[b];
	f->nevents = s->nframe_events[b];
	f->interval_ns = now_ns > s->last_ns ? now_ns - s->last_ns : 0;
	f->whole_run = false;
	f->who = s->who;
	f->who_end = s->who_end;
	sample_who(s, f, now_ns);
	f->time_ns = now_ns;
	f->wall_ns = s->clock ? s->clock->ops->wall(s->clock, now_ns) : now_ns;
	f->seq = ++s->nsamples;
	s->last_ns = now_ns;
	s->cur ^= 1;
	return f;
}
