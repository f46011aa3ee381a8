/* SPDX-License-Identifier: GPL-2.0-only */
/* hostmeters.h - the host's meters (CPU utilisation, temperature) for frames; the engine's
 * own (session_use_host_meters() is the public side). */
#ifndef PMUTOP_HOSTMETERS_H
#define PMUTOP_HOSTMETERS_H

#include <stdbool.h>

struct frame;
struct procstat;
struct session;

/* Frames carry CPU utilisation from this /proc/stat reader (the session owns it), and
 * with sensors the hottest CPU temperature (libsensors reads the real /sys only). */
void session_use_host_meters(struct session *s, struct procstat *ps, bool sensors);

/* Read the meters into the frame being built (sampler.c). */
void host_meters_read(struct session *s, struct frame *f);
/* Stop them and free the /proc/stat reader (session_free). */
void host_meters_done(struct session *s);

#endif
