/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_tasks.h - a simulated task's counts by its model's rule (sim_tasks.c says it), for
 * its own row and for its cgroup's. */
#ifndef PMUTOP_SIM_TASKS_H
#define PMUTOP_SIM_TASKS_H

#include <stdint.h>

#include "engine/tasks.h"

struct sim_task;

/* share: of the task (1; a thread's 1/threads); now_ns: seconds since the model's tasks
 * started, as /proc's times count from boot */
void sim_task_counts(const struct sim_task *k, double share, uint64_t now_ns, struct task_counts *out);

#endif
