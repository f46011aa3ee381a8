/* hostmeters.h - the host's meters (CPU utilisation, temperature) for frames; the engine's
 * own (session_use_host_meters() in session.h is the public side). */
#ifndef PMUTOP_HOSTMETERS_H
#define PMUTOP_HOSTMETERS_H

struct frame;
struct session;

/* Read the meters into the frame being built (sampler.c). */
void host_meters_read(struct session *s, struct frame *f);
/* Stop them and free the /proc/stat reader (session_free). */
void host_meters_done(struct session *s);

#endif
