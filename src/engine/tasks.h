/* SPDX-License-Identifier: GPL-2.0-only */
/* tasks.h - who is busy: the top tasks by CPU time each refresh (top's, htop's), each with
 * its core figures where its counters open (tiptop's: IPC, cache and branch misses per
 * thousand instructions; TopDown level 1 where the CPU has perf metrics). A probe lists the tasks and counts one: the live machine's
 * (/proc and perf, sources/perf_tasks.c) or the simulator's (its model's tasks).
 *
 * Counting a task costs a descriptor per event and thread: the table counts only while
 * an output asks for it (the monitor's Tasks view, batch --tasks), only its top N, and
 * says what that costs and where a task's counters could not be opened. */
#ifndef PMUTOP_TASKS_H
#define PMUTOP_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/frame.h"
#include "machine/proctasks.h"

/* TASK_CLOCK (ns on a CPU, perf's task-clock) counts on any machine; the rest need a
 * core PMU; slots and the four TopDown level-1 metrics one with Intel's perf metrics
 * (Ice Lake and later: the cpu PMU's slots and topdown-* events), as perf stat --topdown
 * counts a task */
enum task_event {
	TASK_CLOCK, TASK_CYCLES, TASK_INSTRUCTIONS, TASK_CACHE_MISSES, TASK_BRANCH_MISSES,
	TASK_SLOTS, TASK_TD_RETIRING, TASK_TD_BAD_SPEC, TASK_TD_FE_BOUND, TASK_TD_BE_BOUND,
	TASK_EVENTS
};

/* One task's counts so far, per event; a count the CPU cannot give is UINT64_MAX. */
struct task_counts {
	uint64_t v[TASK_EVENTS];
};
_Static_assert(TASK_EVENTS == TASK_ROW_COUNTS, "a frame's row carries each event's count");

struct task_probe_ops {
	/* every process now (proc_tasks_read's contract), or every thread (proc_threads_read's) */
	int (*list)(void *ctx, uint64_t now_ns, bool threads, struct task_sample **out);
	/* open pid's events (each thread's, inherited by what they start), or, thread, that
	 * thread's alone: a handle, or NULL with *why ("permission denied: another user's
	 * task (perf_event_paranoid 2)"); *fds the descriptors it holds (the cost said) */
	void *(*open)(void *ctx, int pid, bool thread, int *fds, char **why);
	bool (*read)(void *ctx, void *handle, uint64_t now_ns, struct task_counts *out);
	void (*close)(void *ctx, void *handle);
	void (*destroy)(void *ctx);
	/* what the whole table should say, or NULL: "no core PMU: ...", "cannot list /proc: ..." */
	const char *(*note)(void *ctx);
	/* the cgroup task pid is in ("/system.slice/x.service") into buf, "" unknown; NULL
	 * where rows are not tasks */
	void (*cgroup)(void *ctx, int pid, char *buf, int len);
};

struct task_probe {
	const struct task_probe_ops *ops;
	void *ctx;
	const char *root; /* for user names: its etc/passwd */
};

struct task_table;

/* The table owns the probe from now on. */
struct task_table *task_table_new(struct task_probe *probe, int max);
void task_table_free(struct task_table *t);
/* Count (or stop counting) the top tasks: only while an output shows them. */
void task_table_want(struct task_table *t, bool want);
/* Rows of threads rather than processes (htop's H, perf's --per-thread): counting starts
 * afresh, each thread's events its own. */
void task_table_threads(struct task_table *t, bool threads);
bool task_table_shows_threads(const struct task_table *t);
/* The table at now_ns (rows by CPU time, highest first); the rows stay until the call
 * after next (frames are published alternately). *cost: the descriptors open.
 * machine_cycles: the cycles the machine's CPUs ran over the interval (a row's cycles
 * share's whole), NAN where not known. */
int task_table_sample(struct task_table *t, uint64_t now_ns, double machine_cycles, const struct task_row **rows,
		      int *cost);
/* A row's counts and TopDown shares, none counted yet (NAN). */
void task_row_uncounted(struct task_row *r);
/* What the table says as a whole (the probe's note), or NULL. */
const char *task_table_note(const struct task_table *t);

#endif
