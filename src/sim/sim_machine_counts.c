/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_machine_counts.c - the simulated machine's own counts of a task row's events, for
 * the cgroups' root. The rule: the root cgroup is the machine, as the kernel counts it
 * (perf stat -a -G / counts every task): its cycles, instructions, cache and branch
 * misses are the model's rates of the events the kernel maps perf's generic ones to on
 * each CPU's core PMU (machine/generic_events.h), summed over the online CPUs, and its
 * TopDown the perf-metrics events' where the tree has them; its CPU time is its cycles
 * at the cores' clock ([model] ghz). So the root is what the Cores and TopDown panes
 * count, and the model's tasks, each in its cgroup, are a part of it. */
#include "sim/sim_machine_counts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/cpulist.h"
#include "base/util.h"
#include "machine/encode.h"
#include "machine/generic_events.h"
#include "machine/pmu.h"
#include "sim/simmodel.h"
#include "sim/simmodel_data.h"

/* where one CPU's rates are evaluated, and each event's rate there (-1: the default) */
struct cpu_rates {
	const struct sim_section *sec;
	struct sim_point *at;
	const char *event[TASK_EVENTS];
	int rate[TASK_EVENTS];
};

struct sim_machine_counts {
	struct sim_model *model;
	int ncpus;
	struct cpu_rates *cpu;
	bool counted[TASK_EVENTS];
	double acc[TASK_EVENTS];
	uint64_t last_ns, origin_ns;
	bool started;
};

/* The model's rate for the PMU's event: by its name, else as perf writes it raw (a model
 * of perf's JSON names the encodings), else -1 */
static int rate_of(const struct sim_section *sec, const struct machine *m, const struct pmu *p, const char *event)
{
	int r = sim_rate_index(sec, event);
	if (r >= 0 || !sec)
		return r;
	char text[160], raw[24];
	snprintf(text, sizeof(text), "%s/%s/", p->name, event);
	struct encoded_event enc;
	char *err = NULL;
	if (encode_event(m, text, &enc, &err) < 0) {
		free(err);
		return -1;
	}
	snprintf(raw, sizeof(raw), "r%llx", (unsigned long long)enc.attr.config[0]);
	return sim_rate_index(sec, raw);
}

static void place(struct sim_machine_counts *mc, const struct machine *m, const struct pmu *p, int cpu, struct cpu_rates *cr)
{
	const char *const *generic = core_pmu_generic_events(p);
	const struct pmu *metrics = machine_perf_metrics_pmu(m);
	cr->sec = sim_model_section_on(mc->model, m, p);
	for (int e = 0; e < TASK_EVENTS; e++) {
		cr->rate[e] = -1;
		if (e >= TASK_CYCLES && e < TASK_SLOTS)
			cr->event[e] = generic[e - TASK_CYCLES];
		else if (e >= TASK_SLOTS && metrics == p)
			cr->event[e] = perf_metrics_alias[e - TASK_SLOTS];
		if (cr->event[e]) {
			cr->rate[e] = rate_of(cr->sec, m, p, cr->event[e]);
			mc->counted[e] = true;
		}
	}
	cr->at = cr->sec ? sim_point_at(cr->sec, machine_socket_of(m, cpu), sim_place_index(p->name), cpu) : NULL;
}

struct sim_machine_counts *sim_machine_counts_new(struct sim_model *model, const struct machine *m)
{
	struct sim_machine_counts *mc = xcalloc(1, sizeof(*mc));
	mc->model = sim_model_ref(model);
	mc->cpu = xcalloc((size_t)(m->online.n ? m->online.n : 1), sizeof(*mc->cpu));
	for (int i = 0; i < m->online.n; i++) {
		const struct pmu *p = machine_core_pmu_of(m, m->online.cpu[i]);
		if (p)
			place(mc, m, p, m->online.cpu[i], &mc->cpu[mc->ncpus++]);
	}
	if (!mc->ncpus) {
		sim_machine_counts_free(mc);
		return NULL;
	}
	mc->counted[TASK_CLOCK] = model->ghz > 0 && mc->counted[TASK_CYCLES];
	return mc;
}

/* The machine's events a second at t: every CPU's rate summed */
static void machine_rates(struct sim_machine_counts *mc, double t, double *rate)
{
	for (int e = 0; e < TASK_EVENTS; e++)
		rate[e] = 0;
	for (int i = 0; i < mc->ncpus; i++) {
		struct cpu_rates *cr = &mc->cpu[i];
		for (int e = TASK_CYCLES; e < TASK_EVENTS; e++)
			if (cr->event[e])
				rate[e] += cr->rate[e] >= 0 ? sim_point_rate(cr->at, cr->rate[e], t) : sim_default_rate(cr->event[e]);
	}
	rate[TASK_CLOCK] = mc->model->ghz > 0 ? rate[TASK_CYCLES] / mc->model->ghz : 0; /* busy ns a second */
}

void sim_machine_counts_read(struct sim_machine_counts *mc, uint64_t now_ns, struct task_counts *out)
{
	if (!mc->started) { /* the source's clock: its counters' t is from their first open */
		mc->started = true;
		mc->last_ns = now_ns;
		mc->origin_ns = sim_model_origin(mc->model, now_ns);
	} else if (now_ns > mc->last_ns) {
		double rate[TASK_EVENTS], dt = (double)(now_ns - mc->last_ns) / 1e9;
		machine_rates(mc, ((double)(mc->last_ns + now_ns) / 2 - (double)mc->origin_ns) / 1e9, rate);
		for (int e = 0; e < TASK_EVENTS; e++)
			mc->acc[e] += rate[e] * dt;
		mc->last_ns = now_ns;
	}
	for (int e = 0; e < TASK_EVENTS; e++)
		out->v[e] = mc->counted[e] ? (uint64_t)llround(mc->acc[e]) : UINT64_MAX;
}

void sim_machine_counts_free(struct sim_machine_counts *mc)
{
	if (!mc)
		return;
	for (int i = 0; i < mc->ncpus; i++)
		for (int e = 0; e < TASK_EVENTS; e++)
			if (mc->cpu[i].rate[e] >= 0)
				sim_rate_release(mc->cpu[i].sec, mc->cpu[i].rate[e]);
	free(mc->cpu);
	sim_model_free(mc->model);
	free(mc);
}
