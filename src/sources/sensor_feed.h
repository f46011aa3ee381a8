/* SPDX-License-Identifier: GPL-2.0-only */
/* sensor_feed.h - where the sensors source's readings come from when not from the machine
 * (libsensors or the tree's files): the simulated machine's model (sim/sim_sensors.c).
 * The source's code is the same over both, as hwmon_io.h is for BlueField's counters. */
#ifndef PMUTOP_SENSOR_FEED_H
#define PMUTOP_SENSOR_FEED_H

#include <stdbool.h>
#include <stdint.h>

struct instance;
struct sensor_feed;

struct sensor_feed_ops {
	/* A sensor PMU's instance starts at now_ns: its state (freed with free()). */
	void *(*open)(struct sensor_feed *feed, const struct instance *inst, uint64_t now_ns);
	/* Its raw value at now_ns, in the sensor file's unit (an energy meter's: the µJ so far). */
	bool (*value)(struct sensor_feed *feed, void *state, const struct instance *inst, uint64_t now_ns, double *v);
	void (*destroy)(struct sensor_feed *feed);
};

struct sensor_feed {
	const struct sensor_feed_ops *ops;
};

#endif
