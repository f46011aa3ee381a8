/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_cpu_sums.h - the CPUs a per-CPU group counts on, and its socket rows counting
 * them themselves where no output shows a CPU's row (session.cpu_sums). */
#ifndef PMUTOP_BIND_CPU_SUMS_H
#define PMUTOP_BIND_CPU_SUMS_H

#include <stdbool.h>

#include "bind/state.h"

/* The CPUs of p a per-CPU group counts on: of its cpus_of's kind, and of -C's. */
void group_cpus_on(const struct session *s, const struct prof_group *g, const struct pmu *p, struct cpulist *out);
/* Does g bind its CPUs as socket rows counting them, not a row each? */
bool binds_cpu_sums(const struct session *s, const struct prof_group *g);
/* g's socket rows on p, each counting its CPUs of cpus (the machine's row where g has
 * no socket sums), their events not yet encoded; "all", their sum, is bind.c's. */
void bind_cpu_sums(struct session *s, int *cap, struct profile *prof, const struct prof_group *g, const struct pmu *p,
		   const struct cpulist *cpus);

#endif
