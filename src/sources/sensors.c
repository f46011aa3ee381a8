/* SPDX-License-Identifier: GPL-2.0-only */
/* sensors.c - hwmon sensor inputs as a gauge source: temperatures, power and fans as
 * readings, energy as a count (power from energy is its rate). On the live machine the
 * values come through libsensors; on another tree from its files; with --sim from a
 * feed (sensor_feed.h: the simulator's model). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "base/util.h"
#include "engine/session.h"
#include "machine/hwsensors.h"
#include "sources/sensor_feed.h"
#include "sources/sources.h"

struct sensor_state {
	uint64_t open_ns;
	void *fed; /* the feed's state for the instance, or NULL */
};

static bool sn_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && inst->pmu->sensor;
}

static int sn_open(struct source *src, struct instance *inst)
{
	struct sensor_feed *feed = src->priv;
	const struct sensor_feature *sf = inst->pmu->sensor;
	for (int c = 0; c < inst->ncounters; c++)
		inst->counters[c].kind = sf->kind == SENSOR_ENERGY ? COUNTER_CUMULATIVE : COUNTER_GAUGE;
	struct sensor_state *st = xcalloc(1, sizeof(*st));
	st->open_ns = src->now_ns;
	if (feed)
		st->fed = feed->ops->open(feed, inst, src->now_ns);
	inst->priv = st;
	return 0;
}

/* The raw value: what the file or libsensors gives (energy in µJ), or the feed's. */
static bool raw_value(struct source *src, struct instance *inst, uint64_t now_ns, double *v)
{
	struct sensor_feed *feed = src->priv;
	const struct sensor_feature *sf = inst->pmu->sensor;
	struct sensor_state *st = inst->priv;
	if (feed)
		return feed->ops->value(feed, st->fed, inst, now_ns, v);
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
	struct sensor_state *st = inst->priv;
	if (st)
		free(st->fed);
	free(st);
	inst->priv = NULL;
}

static void sn_destroy(struct source *src)
{
	struct sensor_feed *feed = src->priv;
	if (feed)
		feed->ops->destroy(feed);
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

struct source *source_sensors_new(const struct machine *m, struct sensor_feed *feed)
{
	struct source *s = xcalloc(1, sizeof(*s));
	s->ops = &sensors_ops;
	s->machine = m;
	s->priv = feed;
	return s;
}
