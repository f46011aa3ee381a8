/* SPDX-License-Identifier: GPL-2.0-only */
/* sources.h - the counter sources' constructors; what each answers is engine/source.h.
 * The room sources/ counts a real machine and never knows whether what it reads through
 * (hwmon_io.h, sensor_feed.h) is simulated; the simulator's are in sim/simulator.h. */
#ifndef PMUTOP_SOURCES_H
#define PMUTOP_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/source.h"

struct machine;

/* t: who core and software events count (NULL: the machine); uncore PMUs (those with a
 * cpumask) count the machine whatever it says, as perf's do. */
struct target;
/* The live machine's tasks for the Tasks view and batch --tasks (engine/tasks.h): /proc
 * below proc_root lists them, perf's generic hardware events count each (and TopDown
 * level 1 where m's core PMU has perf metrics). */
struct task_probe *task_probe_live_new(const char *proc_root, const struct machine *m);
/* The live machine's cgroups for the Cgroups view, batch and serve's -G and --cgroups
 * (perf stat -G): names (-G's, NULL: every cgroup, the top N shown), each counted on the
 * CPUs cpus; NULL with *why where there is no perf_event hierarchy or a name is not a
 * cgroup in it. The root, /, is always a row: the machine's whole. */
struct cpulist;
struct task_probe *cgroup_probe_live_new(const char *proc_root, const struct machine *m, const char *const *names,
					 int nnames, const struct cpulist *cpus, char **why);
struct source *source_perf_new(const struct machine *m, const struct target *t);
/* What perf_event_open's errno means for the user and what to do about it. */
char *source_perf_errno_advice(const char *pmu, int err, int paranoid);
/* read() calls the perf source made so far (make bench). */
uint64_t source_perf_reads(const struct source *src);
struct hwmon_io;
/* BlueField's bfperf blocks through io (files or the simulated driver); takes io. */
struct source *source_hwmon_new(const struct machine *m, struct hwmon_io *io);

/* hwmon sensor inputs (gauges; energy counts): libsensors live, files on other trees,
 * or feed's readings where it is not NULL (the simulator's: sim/simulator.h; the source takes it). */
struct sensor_feed;
struct source *source_sensors_new(const struct machine *m, struct sensor_feed *feed);

/* Arm's generic timer on the live machine (machine/archtimer.c): no open, no file. */
struct source *source_timer_new(const struct machine *m);

#endif
