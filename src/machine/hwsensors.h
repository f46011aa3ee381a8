/* SPDX-License-Identifier: GPL-2.0-only */
/* hwsensors.h - CPU temperature from hwmon through libsensors, for the header meters
 * (as htop and btop show it). libsensors always reads the real /sys; a simulated or
 * replayed machine has no sensors of its own, so pmutop asks only when counting live. */
#ifndef PMUTOP_HWSENSORS_H
#define PMUTOP_HWSENSORS_H

#include <stdbool.h>

struct hw_temps {
	bool have;
	double cpu_c;    /* hottest CPU temperature sensor (package, Tctl, ...) */
	char chip[32];   /* "coretemp", "k10temp", ... */
};

/* Start libsensors with an empty configuration (the system's sensors3.conf may rename
 * or hide features; we want the raw hwmon values). False if it cannot start. */
bool hw_sensors_init(void);
void hw_sensors_read(struct hw_temps *out);
void hw_sensors_done(void);

/* Every temperature, power, energy and fan input libsensors finds (it skips devices
 * with no sensor attributes, such as BlueField's bfperf). Values are °C, W, J, RPM. */
enum sensor_kind { SENSOR_TEMP, SENSOR_POWER, SENSOR_ENERGY, SENSOR_FAN };
struct hw_sensor_found {
	enum sensor_kind kind;
	const char *chip;    /* "coretemp-isa-0000" */
	const char *feature; /* "temp1" */
	const char *label;   /* "Package id 0", as sensors3.conf may rename it */
	const char *path;    /* the hwmon device directory */
	const void *handle;  /* for hw_sensor_value() */
	int subfeature;
};
/* Calls fn for each; libsensors must be started (hw_sensors_init). */
void hw_sensors_each(void (*fn)(void *ctx, const struct hw_sensor_found *f), void *ctx);
bool hw_sensor_value(const void *handle, int subfeature, double *v);

#endif
