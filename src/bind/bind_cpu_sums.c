/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_cpu_sums.c - the CPUs a per-CPU group counts on, and its socket rows counting
 * them themselves where no output shows a CPU's row (session.cpu_sums): one instance a
 * socket whose counters are its CPUs' (one an event and CPU, as the CPUs' rows would open
 * them), named and labelled as the sum of those rows is, and "all" their sum (bind.c).
 * The counts are the same; the memory goes as sockets, not CPUs: perf's TopDown group on
 * a 144-CPU machine is 3 instances, not 147, and a hand pane showing its values 3 more. */
#include "bind/bind_cpu_sums.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/numtext.h"
#include "base/util.h"
#include "bind/instance.h"
#include "machine/pmu.h"
#include "profile/profile_match.h"

static bool cpu_sums_apply(const struct session *s, const struct prof_group *g, int npmus, int ncpus)
{
	/* one PMU: its socket rows are the socket's (a big.LITTLE's two would each have one) */
	return s->cpu_sums && g->split == SPLIT_CPU && (g->aggregate_socket || g->aggregate_all) && !s->per_kind &&
	       !s->count_tasks && npmus == 1 && ncpus > s->cpu_rows_max;
}

/* -C: does a core or software PMU count on this CPU? (An uncore PMU's cpumask stands:
 * its box counts for the machine, whichever CPU reads it.) */
static bool cpu_in_scope(const struct session *s, const struct pmu *p, int cpu)
{
	return !s->some_cpus || !pmu_counts_tasks(p) || cpulist_contains(&s->only_cpus, cpu);
}

/* The CPUs of p a per-CPU group counts on: of its cpus_of's kind, and of -C's. */
void group_cpus_on(const struct session *s, const struct prof_group *g, const struct pmu *p, struct cpulist *out)
{
	const struct pmu *of = g->cpus_of ? machine_find_pmu(s->machine, g->cpus_of) : NULL;
	for (int c = 0; c < p->cpus.n; c++)
		if ((!g->cpus_of || (of && cpulist_contains(&of->cpus, p->cpus.cpu[c]))) && cpu_in_scope(s, p, p->cpus.cpu[c]))
			cpulist_add(out, p->cpus.cpu[c]);
}

/* Does g bind its CPUs as socket rows counting them (bind_cpu_sums.c), not a row each? */
bool binds_cpu_sums(const struct session *s, const struct prof_group *g)
{
	if (!s->cpu_sums || g->split != SPLIT_CPU)
		return false;
	int npmus = 0, ncpus = 0, unplaced = 0;
	for (int i = 0; i < s->machine->npmus; i++) {
		const struct pmu *p = &s->machine->pmus[i];
		char caps[PROFILE_MAX_CAPS][2][64];
		int ncaps;
		enum model_verdict v;
		if (!group_matches(g, p, caps, &ncaps, &v))
			continue;
		struct cpulist cpus = { 0 };
		group_cpus_on(s, g, p, &cpus);
		npmus++;
		ncpus += cpus.n;
		for (int k = 0; k < cpus.n; k++) /* a CPU of no known socket is in no socket's sum */
			unplaced += machine_socket_of(s->machine, cpus.cpu[k]) < 0;
		cpulist_free(&cpus);
	}
	return !(unplaced && g->aggregate_socket) && cpu_sums_apply(s, g, npmus, ncpus);
}

/* One row counting cpus on p: a socket's ('s') or the machine's ('a'). */
static void counting_row(struct session *s, int *cap, struct profile *prof, const struct prof_group *g,
			 const struct pmu *p, const struct cpulist *cpus, int socket, char kind)
{
	const char *suffix = g->aggregate_suffix ? g->aggregate_suffix : "";
	struct instance *inst = instance_add(s, cap);
	inst->profile = prof;
	inst->group = g;
	inst->pmu = p;
	inst->socket = socket;
	inst->sum_kind = kind;
	cpulist_copy(&inst->cpus, cpus);
	if (socket >= 0) {
		char num[16];
		format_int(num, sizeof(num), socket);
		inst->name = xasprintf("socket%s%s", num, suffix);
		instance_add_label(inst, "socket", num);
	} else {
		inst->name = xasprintf("all%s", suffix);
	}
	instance_alloc_arrays(inst);
	instance_read_attrs(inst);
	inst->notes = xstrdup("");
}

void bind_cpu_sums(struct session *s, int *cap, struct profile *prof, const struct prof_group *g, const struct pmu *p,
		   const struct cpulist *cpus)
{
	if (!cpus->n)
		return;
	if (!g->aggregate_socket) {
		counting_row(s, cap, prof, g, p, cpus, -1, 'a');
		return;
	}
	int maxsock = -1;
	for (int c = 0; c < cpus->n; c++)
		if (machine_socket_of(s->machine, cpus->cpu[c]) > maxsock)
			maxsock = machine_socket_of(s->machine, cpus->cpu[c]);
	for (int sk = 0; sk <= maxsock; sk++) {
		struct cpulist of_socket = { 0 };
		for (int c = 0; c < cpus->n; c++)
			if (machine_socket_of(s->machine, cpus->cpu[c]) == sk)
				cpulist_add(&of_socket, cpus->cpu[c]);
		if (of_socket.n)
			counting_row(s, cap, prof, g, p, &of_socket, sk, 's');
		cpulist_free(&of_socket);
	}
}
