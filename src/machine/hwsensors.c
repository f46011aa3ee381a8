/* hwsensors.c - CPU temperature from hwmon through libsensors. */
#include "machine/hwsensors.h"

#include <math.h>
#include <sensors/sensors.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static bool started;

bool hw_sensors_init(void)
{
	FILE *empty = fmemopen((char[]){ "\n" }, 1, "r");
	int r = sensors_init(empty);
	if (empty)
		fclose(empty);
	started = r == 0;
	return started;
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
				snprintf(out->chip, sizeof(out->chip), "%s", chip->prefix);
			}
		}
	}
}

void hw_sensors_done(void)
{
	if (started)
		sensors_cleanup();
	started = false;
}
