/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_counters.h - how many counters each PMU of the simulated machine has, as the
 * kernel's drivers give them: the simulator counts what is opened past them in turn (the
 * kernel's rotation), so a demo shows what the real machine would. */
#ifndef PMUTOP_SIM_COUNTERS_H
#define PMUTOP_SIM_COUNTERS_H

#include <stdbool.h>

struct machine;
struct pmu;
struct event_attr;
struct hw_counters;

/* The row of the PMU asked last, kept by its caller (the simulated source): opens go PMU
 * by PMU, and a 224-CPU core asking the table per counter was 19 M instructions of
 * --demo spr's start. Zeroed: empty. */
struct sim_hw_memo {
	const struct pmu *pmu;
	const struct hw_counters *row;
};

/* The general counters one CPU of pmu has for an event of this encoding (legacy: a
 * generic hardware event, whose name is given), 0 where it takes none (a fixed counter,
 * a free-running one) or the table does not know the PMU. */
int sim_hw_general_counters(struct sim_hw_memo *memo, const struct machine *m, const struct pmu *pmu,
			    const struct event_attr *attr, const char *legacy);

/* The same for the PMU as a whole (its general counters), 0 where none is known. */
int sim_hw_counters_of(struct sim_hw_memo *memo, const struct machine *m, const struct pmu *pmu);

#endif
