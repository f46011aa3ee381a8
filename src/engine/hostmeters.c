/* SPDX-License-Identifier: GPL-2.0-only */
/* hostmeters.c - the host's own meters in each frame: CPU utilisation from /proc/stat
 * and the hottest CPU temperature through libsensors (live machines only: libsensors
 * always reads the real /sys). */
#include "engine/hostmeters.h"

#include <math.h>
#include <stdio.h>

#include "bind/state.h"
#include "engine/frame.h"
#include "machine/hwsensors.h"
#include "machine/procstat.h"
#include "base/util.h"

void session_use_host_meters(struct session *s, struct procstat *ps, bool sensors)
{
	s->procstat = ps;
	s->sensors = sensors && hw_sensors_init();
}

/* CPU utilisation and temperature into the frame being built. */
void host_meters_read(struct session *s, struct frame *f)
{
	f->cpu_util = NAN;
	if (s->procstat && procstat_update(s->procstat) && s->procstat->primed)
		f->cpu_util = s->procstat->util_all;
	f->have_temp = false;
	if (s->sensors) {
		struct hw_temps t = { 0 };
		hw_sensors_read(&t);
		f->have_temp = t.have;
		f->cpu_temp_c = t.cpu_c;
		str_copy(s->temp_chip, sizeof(s->temp_chip), t.chip);
		f->temp_chip = s->temp_chip;
	}
}

void host_meters_done(struct session *s)
{
	procstat_free(s->procstat);
	s->procstat = NULL;
	if (s->sensors)
		hw_sensors_done();
	s->sensors = false;
}
