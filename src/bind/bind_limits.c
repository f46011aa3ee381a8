/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_limits.c - the counters a session asks of each CPU, tallied group by group as
 * they are bound, so a profile asking for too many is refused before it is all bound. */
#include "bind/bind_limits.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "profile/profile.h"
#include "bind/state.h"

static void tally_grow(struct counter_tally *t, int cpu)
{
	int n = t->ncpus ? t->ncpus : 64;
	while (n <= cpu)
		n *= 2;
	t->per_cpu = xrealloc(t->per_cpu, sizeof(int) * (size_t)n);
	memset(t->per_cpu + t->ncpus, 0, sizeof(int) * (size_t)(n - t->ncpus));
	t->ncpus = n;
}

char *counter_tally_add(struct counter_tally *t, const struct session *s, int from, const struct profile *prof)
{
	for (int i = from; i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		for (int c = 0; c < inst->ncounters; c++) {
			int cpu = inst->counters[c].cpu;
			if (cpu < 0)
				continue;
			if (cpu >= t->ncpus)
				tally_grow(t, cpu);
			if (++t->per_cpu[cpu] > SESSION_MAX_COUNTERS_PER_CPU)
				return xasprintf("%s: its groups ask for more than %d counters on CPU %d, the most "
						 "pmutop opens on one CPU (a CPU has about ten: each event would "
						 "count under 1%% of the time); ask for fewer (-M)",
						 prof->path ? prof->path : prof->name, SESSION_MAX_COUNTERS_PER_CPU, cpu);
		}
	}
	return NULL;
}

void counter_tally_free(struct counter_tally *t)
{
	free(t->per_cpu);
	t->per_cpu = NULL;
	t->ncpus = 0;
}
