/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_sensors.c - the simulated machine's hwmon sensors: levels in °C, W and RPM from the
 * traffic model's "value" rate of each sensor PMU (its 'reading' is what the tree's file
 * read at start), energy as the running sum of the modelled power, so demos have a
 * sensors strip that moves. */
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "base/util.h"
#include "bind/state.h"
#include "machine/hwsensors.h"
#include "sim/simmodel.h"
#include "sources/sensor_feed.h"

struct sim_sensor_feed {
	struct sensor_feed feed;
	struct sim_model *model;
	uint64_t start_ns;
	bool started;
};

struct sim_sensor {
	const struct sim_section *sec; /* found once at open: matching globs each refresh cost more */
	int value_rate;                /* the section's "value" rate, -1 if it has none */
	double reading;                /* the tree's level at open (the model's 'reading') */
	double energy_uj;              /* a simulated energy counter */
	uint64_t last_ns;
};

/* A level in the sensor's unit from a file of the tree (scaled as its counter is), or 0. */
static double file_level(const char *path, double scale)
{
	char *text = path ? read_text_file(path, 64) : NULL;
	double v = 0;
	bool ok = text && parse_double(trim(text), &v);
	free(text);
	return ok ? v * scale : 0;
}

/* What the tree says the sensor reads, for a model's 'reading': its file's level; for an
 * energy counter (a running total, no level) its power meter's power beside it, in W. */
static double tree_reading(const struct sensor_feature *sf, double scale)
{
	if (!sf->file)
		return 0;
	if (sf->kind != SENSOR_ENERGY)
		return file_level(sf->file, scale);
	const char *slash = strrchr(sf->file, '/');
	double w = 0;
	for (int k = 0; slash && k < 2 && w <= 0; k++) {
		char *p = xasprintf("%.*s/%s", (int)(slash - sf->file), sf->file, k ? "power1_input" : "power1_average");
		w = file_level(p, 1e-6);
		free(p);
	}
	return w;
}

static double sensor_scale(const struct instance *inst)
{
	return inst->scale[0] > 0 ? inst->scale[0] : 1;
}

static void *feed_open(struct sensor_feed *feed, const struct instance *inst, uint64_t now_ns)
{
	struct sim_sensor_feed *sf = (struct sim_sensor_feed *)feed;
	if (!sf->started) {
		sf->start_ns = now_ns;
		sf->started = true;
	}
	struct sim_sensor *st = xcalloc(1, sizeof(*st));
	st->sec = sim_model_section(sf->model, inst->pmu);
	st->value_rate = sim_rate_index(st->sec, "value");
	st->reading = tree_reading(inst->pmu->sensor, sensor_scale(inst));
	st->last_ns = now_ns;
	return st;
}

static bool feed_value(struct sensor_feed *feed, void *state, const struct instance *inst, uint64_t now_ns, double *v)
{
	struct sim_sensor_feed *sf = (struct sim_sensor_feed *)feed;
	struct sim_sensor *st = state;
	double scale = sensor_scale(inst);
	int idx = st->value_rate;
	double t = (double)(now_ns - sf->start_ns) / 1e9;
	if (inst->pmu->sensor->kind != SENSOR_ENERGY) {
		*v = (idx >= 0 ? sim_rate_of_reading(st->sec, idx, "value", t, inst->socket, st->reading) : 0) / scale;
	} else { /* the model gives watts: the counter adds them up, at the interval's
		  * middle as the counter source does (RAPL's packages agree with it) */
		double dt = (double)(now_ns - st->last_ns) / 1e9;
		double level = idx >= 0 ? sim_rate_of_reading(st->sec, idx, "value", t - dt / 2, inst->socket, st->reading) : 0;
		st->energy_uj += level * dt / scale;
		*v = st->energy_uj;
	}
	st->last_ns = now_ns;
	return true;
}

static void feed_destroy(struct sensor_feed *feed)
{
	struct sim_sensor_feed *sf = (struct sim_sensor_feed *)feed;
	sim_model_free(sf->model);
	free(sf);
}

static const struct sensor_feed_ops sim_feed_ops = {
	.open = feed_open,
	.value = feed_value,
	.destroy = feed_destroy,
};

struct sensor_feed *sim_sensor_feed_new(struct sim_model *model)
{
	struct sim_sensor_feed *sf = xcalloc(1, sizeof(*sf));
	sf->feed.ops = &sim_feed_ops;
	sf->model = sim_model_ref(model);
	return &sf->feed;
}
