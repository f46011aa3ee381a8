/* SPDX-License-Identifier: GPL-2.0-only */
/* sensors.c - hwmon sensor inputs as a gauge source: temperatures, power and fans as
 * readings, energy as a count (power from energy is its rate). On the live machine the
 * values come through libsensors; on another tree from its files; with --sim from the
 * traffic model (levels in °C, W, RPM for the PMU's "value" event), so demos have a
 * sensors strip that moves. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "base/util.h"
#include "engine/session.h"
#include "machine/hwsensors.h"
#include "sources/simmodel.h"
#include "sources/sources.h"

struct sensors_source {
	struct sim_model *model; /* --sim: levels from the model, NULL otherwise */
	uint64_t start_ns;
	bool started;
};

struct sensor_state {
	double energy_uj; /* a simulated energy counter */
	uint64_t last_ns, open_ns;
	const struct sim_section *sec; /* --sim: the model's section, found once at open */
	int value_rate;                /* and its "value" rate, -1 if it has none */
	double reading;                /* --sim: the tree's level at open (the model's 'reading') */
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

static bool sn_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && inst->pmu->sensor;
}

static int sn_open(struct source *src, struct instance *inst)
{
	struct sensors_source *ss = src->priv;
	if (!ss->started) {
		ss->start_ns = src->now_ns;
		ss->started = true;
	}
	const struct sensor_feature *sf = inst->pmu->sensor;
	for (int c = 0; c < inst->ncounters; c++)
		inst->counters[c].kind = sf->kind == SENSOR_ENERGY ? COUNTER_CUMULATIVE : COUNTER_GAUGE;
	struct sensor_state *st = xcalloc(1, sizeof(*st));
	st->last_ns = st->open_ns = src->now_ns;
	if (ss->model) { /* matching the section's globs every refresh cost more than the read */
		st->sec = sim_model_section(ss->model, inst->pmu->name);
		st->value_rate = sim_rate_index(st->sec, "value");
		st->reading = tree_reading(sf, inst->scale[0] > 0 ? inst->scale[0] : 1);
	}
	inst->priv = st;
	return 0;
}

/* The raw value: what the file or libsensors gives (energy in µJ), or the model's. */
static bool raw_value(struct source *src, struct instance *inst, uint64_t now_ns, double *v)
{
	struct sensors_source *ss = src->priv;
	const struct sensor_feature *sf = inst->pmu->sensor;
	struct sensor_state *st = inst->priv;
	double scale = inst->scale[0] > 0 ? inst->scale[0] : 1;
	if (ss->model) {
		const struct sim_section *sec = st->sec;
		int idx = st->value_rate;
		double t = (double)(now_ns - ss->start_ns) / 1e9;
		if (sf->kind != SENSOR_ENERGY) {
			*v = (idx >= 0 ? sim_rate_of_reading(sec, idx, "value", t, inst->socket, st->reading) : 0) / scale;
		} else { /* the model gives watts: the counter adds them up, at the interval's
			  * middle as the counter source does (RAPL's packages agree with it) */
			double dt = (double)(now_ns - st->last_ns) / 1e9;
			double level = idx >= 0 ? sim_rate_of_reading(sec, idx, "value", t - dt / 2, inst->socket, st->reading) : 0;
			st->energy_uj += level * dt / scale;
			*v = st->energy_uj;
		}
		st->last_ns = now_ns;
		return true;
	}
	if (sf->file) {
		char *text = read_text_file(sf->file, 64);
		bool ok = text && parse_double(trim(text), v);
		free(text);
		return ok;
	}
	if (!hw_sensor_value(sf->handle, sf->subfeature, v))
		return false;
	if (sf->kind == SENSOR_ENERGY)
		*v *= 1e6; /* libsensors says joules; the counter counts microjoules */
	return true;
}

static int sn_read(struct source *src, struct instance *inst, uint64_t now_ns)
{
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		double v;
		if (!raw_value(src, inst, now_ns, &v)) {
			counter_read_failed(ct);
		} else if (ct->kind == COUNTER_GAUGE) {
			counter_read_level(ct, v);
		} else {
			struct sensor_state *st = inst->priv;
			counter_read_count(ct, v > 0 ? (uint64_t)v : 0, now_ns - st->open_ns, now_ns - st->open_ns);
		}
	}
	return 0;
}

static void sn_close(struct source *src, struct instance *inst)
{
	(void)src;
	free(inst->priv);
	inst->priv = NULL;
}

static void sn_destroy(struct source *src)
{
	struct sensors_source *ss = src->priv;
	sim_model_free(ss->model);
	free(ss);
	free(src);
}

static const struct source_ops sensors_ops = {
	.kind = "sensors",
	.claims = sn_claims,
	.open = sn_open,
	.read = sn_read,
	.close = sn_close,
	.destroy = sn_destroy,
};

struct source *source_sensors_new(const struct machine *m, struct sim_model *sim_model)
{
	struct sim_model *model = sim_model ? sim_model_ref(sim_model) : NULL;
	struct source *s = xcalloc(1, sizeof(*s));
	struct sensors_source *ss = xcalloc(1, sizeof(*ss));
	ss->model = model;
	s->ops = &sensors_ops;
	s->machine = m;
	s->priv = ss;
	return s;
}
