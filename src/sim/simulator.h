/* SPDX-License-Identifier: GPL-2.0-only */
/* simulator.h - the simulated machine, as the rest of pmutop may see it: a traffic model to load
 * and share, and the three things it answers as the real machine's parts do — a counter
 * source (engine/source.h), BlueField's driver behind the hwmon source's files
 * (sources/hwmon_io.h) and the hwmon sensors' readings (sources/sensor_feed.h). Nothing
 * outside src/sim/ reads more of it (tests/rooms.py). */
#ifndef PMUTOP_SIMULATOR_H
#define PMUTOP_SIMULATOR_H

#include <stdint.h>

struct hwmon_io;
struct machine;
struct sensor_feed;
struct sim_model;
struct source;

struct sim_model *sim_model_load(const char *path); /* NULL after printing errors */
struct sim_model *sim_model_default(void);          /* no file: plausible rates for anything */
/* Another holder of m (the sources of one session share one parse); free drops one. */
struct sim_model *sim_model_ref(struct sim_model *m);
void sim_model_free(struct sim_model *m);
const char *sim_model_title(const struct sim_model *m);
/* [model] metrics = LIST: the metrics of perf's catalogue for the machine's CPU that the
 * demo counts beside its profiles (-M's syntax), or NULL. */
const char *sim_model_metrics(const struct sim_model *m);

struct sim_options {
	struct sim_model *model; /* shared (a reference is taken), or NULL: */
	const char *model_path;  /* loaded from here; NULL: default rates for whatever the tree shows */
	uint64_t seed;
};
/* The counter source; NULL with a diagnostic if the model file is bad. */
struct source *source_sim_new(const struct machine *m, const struct sim_options *opt);

/* The mlxbf-pmc driver simulated in memory from the tree's files and a traffic model
 * (a reference is taken); the tree is never written. */
struct hwmon_io *hwmon_io_sim_new(const struct machine *m, struct sim_model *model, uint64_t seed);

/* The model's tasks ([task NAME]) for the Tasks view and batch --tasks (engine/tasks.h);
 * user names from root's etc/passwd (a reference to the model is taken); their TopDown
 * where m's core PMU has perf metrics. */
struct task_probe;
struct task_probe *sim_task_probe_new(struct sim_model *model, const char *root, const struct machine *m);
/* Its cgroups (sim_cgroups.c says the rule): names (-G's; NULL: every one) or NULL with
 * *why naming the model's; m: the machine (its online CPUs, the cost a live probe would
 * pay; its perf metrics, whether TopDown counts). */
struct task_probe *sim_cgroup_probe_new(struct sim_model *model, const char *root, const struct machine *m,
					const char *const *names, int nnames, char **why);

/* Sensor readings from the model: levels in °C, W, RPM for the sensor PMU's "value"
 * event (a reference is taken). */
struct sensor_feed *sim_sensor_feed_new(struct sim_model *model);

#endif
