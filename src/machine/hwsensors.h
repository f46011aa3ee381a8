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

#endif
