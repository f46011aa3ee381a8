/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_tasks.h - a simulated task's counts by its model's rule (sim_tasks.c says it), for
 * its own row and for its cgroup's. */
#ifndef PMUTOP_SIM_TASKS_H
#define PMUTOP_SIM_TASKS_H

#include <stdint.h>

#include "engine/tasks.h"

struct machine;
struct sim_model;
struct sim_task;

/* share: of the task (1; a thread's 1/threads); now_ns: seconds since the model's tasks
 * started, as /proc's times count from boot; width: its cores' slots a cycle (0: no
 * perf metrics, its TopDown not counted) */
void sim_task_counts(const struct sim_task *k, double share, uint64_t now_ns, double width, struct task_counts *out);
/* The width the tasks' TopDown counts with on m: the model's where m's core PMU has perf
 * metrics (as the live probe opens them only there), else 0 */
double sim_task_width(const struct sim_model *model, const struct machine *m);
/* The events a task's row would hold a descriptor for, at that width */
int sim_task_events(double width);

#endif
