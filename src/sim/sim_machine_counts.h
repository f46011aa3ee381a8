/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_machine_counts.h - the simulated machine's own counts of a task row's events, for the
 * cgroups' root: on a real machine the root cgroup is the whole machine. */
#ifndef PMUTOP_SIM_MACHINE_COUNTS_H
#define PMUTOP_SIM_MACHINE_COUNTS_H

#include <stdint.h>

#include "engine/tasks.h"

struct machine;
struct sim_model;
struct sim_machine_counts;

/* NULL where no CPU of m has a core PMU whose generic events the kernel maps (a tree
 * without one: BlueField's, HIP09's) */
struct sim_machine_counts *sim_machine_counts_new(struct sim_model *model, const struct machine *m);
/* Its counts since the first read (0 then), integrated at the model's rates as the counter
 * source integrates its counters: each interval at the rate of its middle, on the
 * source's clock; UINT64_MAX for an event not counted (TopDown without perf metrics,
 * task-clock without [model] ghz) */
void sim_machine_counts_read(struct sim_machine_counts *mc, uint64_t now_ns, struct task_counts *out);
void sim_machine_counts_free(struct sim_machine_counts *mc);

#endif
