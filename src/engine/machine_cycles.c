/* SPDX-License-Identifier: GPL-2.0-only */
/* machine_cycles.c - the cycles the machine's CPUs ran over a frame's interval, from the
 * session's own counters. The denominator of a task's cycles share: a task that kept a
 * CPU busy at a low clock had a smaller share than its CPU% says. Found once: per CPU of
 * a core PMU, the first counter whose encoding is its cycles (PERF_TYPE_HARDWARE's, or
 * the core PMU's own event for them: machine/generic_events.h); a CPU without one leaves
 * the sum unknown rather than short. Looked for each time it is asked (only while a
 * table of tasks or cgroups is sampled): which counters are open changes with the panes. */
#include "engine/machine_cycles.h"

#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/cpulist.h"
#include "base/util.h"
#include "bind/counter_share.h"
#include "bind/state.h"
#include "engine/frame.h"
#include "machine/encode.h"
#include "machine/generic_events.h"

/* the core PMU's cycles as an encoding, or false */
static bool core_cycles(const struct machine *m, const struct pmu *p, struct event_attr *out)
{
	char text[160];
	snprintf(text, sizeof(text), "%s/%s/", p->name, core_pmu_generic_events(p)[0]);
	struct encoded_event enc;
	char *err = NULL;
	if (encode_event(m, text, &enc, &err) < 0) {
		free(err);
		return false;
	}
	*out = enc.attr;
	return true;
}

/* Is ct a count of its CPU's cycles: the generic event, or a core PMU's own (its type is
 * the PMU's: no lookup of the CPU's PMU per counter) */
static bool is_cycles(const struct session *s, const struct counter *ct)
{
	if (ct->attr.type == PERF_TYPE_HARDWARE && ct->attr.config[0] == PERF_COUNT_HW_CPU_CYCLES)
		return true;
	for (int i = 0; i < s->ncycles_attrs; i++)
		if (ct->attr.type == s->cycles_attr[i].type && ct->attr.config[0] == s->cycles_attr[i].config[0] &&
		    !ct->attr.config[1])
			return true;
	return false;
}

static void find_core_cycles(struct session *s)
{
	const struct machine *m = s->machine;
	s->cycles_pmu = xcalloc((size_t)(m->npmus ? m->npmus : 1), sizeof(*s->cycles_pmu));
	s->cycles_attr = xcalloc((size_t)(m->npmus ? m->npmus : 1), sizeof(*s->cycles_attr));
	for (int i = 0; i < m->npmus; i++)
		if (core_pmu_generic_events(&m->pmus[i]) && core_cycles(m, &m->pmus[i], &s->cycles_attr[s->ncycles_attrs]))
			s->cycles_pmu[s->ncycles_attrs++] = &m->pmus[i];
	for (int i = 0; i < m->online.n; i++) /* the CPUs whose cycles make the whole */
		if (machine_core_pmu_of(m, m->online.cpu[i]))
			cpulist_add(&s->cycles_cpus, m->online.cpu[i]);
	int cap = 0; /* the counters that may count them: whether each does changes, what it is not */
	for (int i = 0; i < s->ninstances; i++)
		for (int k = 0; k < s->inst[i].ncounters; k++)
			if (is_cycles(s, &s->inst[i].counters[k])) {
				grow_array(&s->cycles_counters, &cap, s->ncycles_counters + 1, sizeof(*s->cycles_counters));
				s->cycles_counters[s->ncycles_counters++] = (struct counter_ref){ i, k };
			}
	s->cycles_found = true;
}

/* A counter that counted its CPU's cycles this interval, its own (not another group's
 * read for it, not closed) */
static bool counts_cycles(const struct instance *inst, const struct counter *ct)
{
	return inst->opened && !inst->nmembers && instance_counts_event(inst, ct->event) &&
	       !instance_shares_event(inst, ct->event) && !ct->attr.exclude;
}

double session_machine_cycles(struct session *s, const struct frame *f)
{
	const struct machine *m = s->machine;
	if (!s->cycles_found)
		find_core_cycles(s);
	bool *seen = xcalloc((size_t)(m->max_cpu > 0 ? m->max_cpu : 1), sizeof(bool));
	double sum = 0;
	for (int j = 0; j < s->ncycles_counters; j++) {
		const struct instance *inst = &s->inst[s->cycles_counters[j].instance];
		const struct counter *ct = &inst->counters[s->cycles_counters[j].counter];
		if (ct->cpu < 0 || ct->cpu >= m->max_cpu || seen[ct->cpu] || !counts_cycles(inst, ct) ||
		    f->counters[ct->slot].state != VS_OK)
			continue;
		seen[ct->cpu] = true;
		sum += f->counters[ct->slot].delta;
	}
	bool all = true; /* every CPU of a core PMU: else the sum would be short */
	for (int i = 0; i < s->cycles_cpus.n; i++)
		all &= s->cycles_cpus.cpu[i] < m->max_cpu && seen[s->cycles_cpus.cpu[i]];
	free(seen);
	return s->cycles_cpus.n && all ? sum : NAN;
}

void session_machine_cycles_free(struct session *s)
{
	free(s->cycles_pmu);
	free(s->cycles_attr);
	free(s->cycles_counters);
	cpulist_free(&s->cycles_cpus);
}
