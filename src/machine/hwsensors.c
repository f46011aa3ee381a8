/* SPDX-License-Identifier: GPL-2.0-only */
/* hwsensors.c - CPU temperature from hwmon through libsensors. */
#include "machine/hwsensors.h"

#include <math.h>
#include <sensors/sensors.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int users; /* discovery and the header's meter share one libsensors */
static bool started;

bool hw_sensors_init(void)
{
	if (users++ > 0)
		return started;
	FILE *empty = fmemopen((char[]){ "\n" }, 1, "r");
	int r = sensors_init(empty);
	if (empty)
		fclose(empty);
	started = r == 0;
	return started;
}

void hw_sensors_each(void (*fn)(void *ctx, const struct hw_sensor_found *f), void *ctx)
{
	static const struct {
		sensors_feature_type feature;
		sensors_subfeature_type input, alt;
		enum sensor_kind kind;
	} kinds[] = {
		{ SENSORS_FEATURE_TEMP, SENSORS_SUBFEATURE_TEMP_INPUT, SENSORS_SUBFEATURE_TEMP_INPUT, SENSOR_TEMP },
		{ SENSORS_FEATURE_POWER, SENSORS_SUBFEATURE_POWER_INPUT, SENSORS_SUBFEATURE_POWER_AVERAGE, SENSOR_POWER },
		{ SENSORS_FEATURE_ENERGY, SENSORS_SUBFEATURE_ENERGY_INPUT, SENSORS_SUBFEATURE_ENERGY_INPUT, SENSOR_ENERGY },
		{ SENSORS_FEATURE_FAN, SENSORS_SUBFEATURE_FAN_INPUT, SENSORS_SUBFEATURE_FAN_INPUT, SENSOR_FAN },
	};
	if (!started)
		return;
	const sensors_chip_name *chip;
	int c = 0;
	while ((chip = sensors_get_detected_chips(NULL, &c))) {
		char name[128];
		if (sensors_snprintf_chip_name(name, sizeof(name), chip) < 0)
			str_copy(name, sizeof(name), chip->prefix ? chip->prefix : "chip");
		const sensors_feature *feat;
		int f = 0;
		while ((feat = sensors_get_features(chip, &f))) {
			for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
				if (feat->type != kinds[k].feature)
					continue;
				const sensors_subfeature *sub = sensors_get_subfeature(chip, feat, kinds[k].input);
				if (!sub)
					sub = sensors_get_subfeature(chip, feat, kinds[k].alt);
				if (!sub)
					continue;
				char *label = sensors_get_label(chip, feat);
				struct hw_sensor_found found = { .kind = kinds[k].kind, .chip = name, .feature = feat->name,
					.label = label ? label : feat->name, .path = chip->path, .handle = chip, .subfeature = sub->number };
				fn(ctx, &found);
				free(label);
			}
		}
	}
}

bool hw_sensor_value(const void *handle, int subfeature, double *v)
{
	return started && sensors_get_value(handle, subfeature, v) == 0;
}

/* hwmon drivers of CPU temperature sensors, by their chip prefix */
static bool is_cpu_chip(const char *prefix)
{
	static const char *const cpu[] = { "coretemp", "k10temp", "zenpower", "cpu_thermal", "cpu-thermal",
					   "thermal_zone", "tegra_thermal", "soc_thermal" };
	for (size_t i = 0; i < ARRAY_SIZE(cpu); i++)
		if (str_has_prefix(prefix, cpu[i]))
			return true;
	return false;
}

void hw_sensors_read(struct hw_temps *out)
{
	memset(out, 0, sizeof(*out));
	out->cpu_c = NAN;
	if (!started)
		return;
	const sensors_chip_name *chip;
	int c = 0;
	while ((chip = sensors_get_detected_chips(NULL, &c))) {
		if (!chip->prefix || !is_cpu_chip(chip->prefix))
			continue;
		const sensors_feature *feat;
		int f = 0;
		while ((feat = sensors_get_features(chip, &f))) {
			if (feat->type != SENSORS_FEATURE_TEMP)
				continue;
			const sensors_subfeature *sub = sensors_get_subfeature(chip, feat, SENSORS_SUBFEATURE_TEMP_INPUT);
			double v;
			if (!sub || sensors_get_value(chip, sub->number, &v) != 0 || v < -100 || v > 200)
				continue;
			if (!out->have || v > out->cpu_c) {
				out->cpu_c = v;
				out->have = true;
				str_copy(out->chip, sizeof(out->chip), chip->prefix);
			}
		}
	}
}

void hw_sensors_done(void)
{
	if (users > 0 && --users > 0)
		return;
	if (started)
		sensors_cleanup();
	started = false;
}
