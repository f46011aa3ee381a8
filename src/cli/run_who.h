/* SPDX-License-Identifier: GPL-2.0-only */
/* run_who.h - who is busy, for the outputs that ask: the top tasks (the Tasks view,
 * --tasks) and the cgroups (the Cgroups view, -G, --cgroups), the live machine's (/proc,
 * the perf_event cgroup hierarchy) or the simulated machine's (its model's). */
#ifndef PMUTOP_RUN_WHO_H
#define PMUTOP_RUN_WHO_H

struct machine;
struct options;
struct session;
struct sim_model;

/* Give the session its task and cgroup tables as o asks (model: the simulated
 * machine's, NULL live; root: its tree). 0, or the exit status where -G or --cgroups
 * cannot be had (said). */
int run_who(struct session *s, const struct options *o, const struct machine *m, struct sim_model *model,
	    const char *root);

#endif
