/* SPDX-License-Identifier: GPL-2.0-only */
/* sensorchips.h - temperature, power, energy and fan inputs of hwmon devices as PMUs
 * named sensor_<kind>_<chip>_<feature>, with one event ("value") and the attributes
 * chip, label and socket, so profiles bind them as they bind any PMU. On the live
 * machine they come from libsensors (its labels and computations); on any other tree
 * from the tree's files (so demos and tests have them too). */
#ifndef PMUTOP_SENSORCHIPS_H
#define PMUTOP_SENSORCHIPS_H

struct machine;

void sensors_discover(struct machine *m);

#endif
