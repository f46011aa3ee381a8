/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_perf_names.h - an encoding by the name perf's JSON gives it on this CPU (the
 * catalogue file of the machine's CPU model), for model sections that say events = perf. */
#ifndef PMUTOP_SIM_PERF_NAMES_H
#define PMUTOP_SIM_PERF_NAMES_H

#include "machine/encode.h"
#include "machine/pmu.h"
#include "sim/simmodel.h"

struct machine;
struct sim_perf_names;

struct sim_perf_names *sim_perf_names_new(const struct machine *m);
void sim_perf_names_free(struct sim_perf_names *pn);
/* perf's name of the event attr counts on p that the model section sec names a rate for
 * (a catalogue identifier, e.g. "CYCLE_ACTIVITY.STALLS_L1D_MISS" or
 * "UOPS_EXECUTED.THREAD__cmask_1"), or NULL. The catalogue is read at the first
 * question; the name lives as long as pn. */
const char *sim_perf_name(struct sim_perf_names *pn, const struct pmu *p, const struct event_attr *attr,
			  const struct sim_section *sec);

#endif
