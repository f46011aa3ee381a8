/* SPDX-License-Identifier: GPL-2.0-only */
/* task_counters.h - the counters behind a row of the Tasks or Cgroups view: the kernel's
 * generic events (engine/tasks.h's TASK_EVENTS), opened once per thread of a task or once
 * per CPU for a cgroup, read as one sum. */
#ifndef PMUTOP_TASK_COUNTERS_H
#define PMUTOP_TASK_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/tasks.h"

struct task_counters {
	int n;                  /* threads, or CPUs */
	int (*fd)[TASK_EVENTS]; /* -1: not counted */
};

/* What each event is on this machine (perf_event_attr's type and config), or not here:
 * the generic ones everywhere (the kernel refuses those a CPU lacks), slots and the
 * TopDown metrics where a core PMU has Intel's perf metrics (its aliases, encoded as perf
 * encodes them: perf stat --topdown's events) */
struct task_events {
	bool here[TASK_EVENTS];
	uint32_t type[TASK_EVENTS];
	uint64_t config[TASK_EVENTS];
	const struct cpulist *metrics_cpus; /* the CPUs of the PMU with perf metrics (a hybrid's
					     * P-cores): a cgroup's TopDown opens on those only */
};
struct machine;
void task_events_of(const struct machine *m, struct task_events *te);
/* How many of them are here (the most a row opens a thread or CPU) */
int task_events_here(const struct task_events *te);

void task_counters_init(struct task_counters *c, int n);
/* Row r's events on pid (a thread, or a cgroup's descriptor with PERF_FLAG_PID_CGROUP)
 * and cpu (-1: wherever it runs), as perf_event_open takes them; inherit: and on the
 * threads and children it starts. slots leads the TopDown metrics (the kernel takes them
 * only in its group); the others count alone. The first refusal's errno (0: none);
 * *absent is set where the CPU lacks a generic event beyond task-clock (no core PMU).
 * TopDown that does not open is left out quietly: the row has no TopDown, the rest
 * counts. */
int task_counters_open_row(struct task_counters *c, const struct task_events *te, int r, int pid, int cpu, bool inherit,
			   unsigned long flags, bool *absent);
/* Each event's sum over the rows, scaled where the kernel multiplexed it; UINT64_MAX
 * where no row counts it */
void task_counters_read(const struct task_counters *c, struct task_counts *out);
/* A probe's read and close (engine/tasks.h's ops) where its handle is a malloc'd set */
bool task_counters_probe_read(void *ctx, void *handle, uint64_t now_ns, struct task_counts *out);
void task_counters_probe_close(void *ctx, void *handle);
/* How many are open */
int task_counters_open_count(const struct task_counters *c);
void task_counters_close(struct task_counters *c);

/* Descriptors held back while rows' counters open, so /proc and the cgroups can still be
 * listed when the counters have taken all the others (a low ulimit -n): released for a
 * listing, held again after it. */
#define SPARE_FDS 4
struct fd_spares {
	int fd[SPARE_FDS];
};
void fd_spares_init(struct fd_spares *s);
void fd_spares_hold(struct fd_spares *s, bool hold);

#endif
