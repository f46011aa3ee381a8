/* bind.h - the engine's own entry points into binding (session.c, filter.c, sampler.c);
 * outputs use session.h. */
#ifndef PMUTOP_BIND_H
#define PMUTOP_BIND_H

#include "engine/session.h"

/* Find every instance of every group of the session's profiles, encode their events,
 * make the value slots and the static halves of frames. */
void session_bind(struct session *s);
/* Encode every event of the instance with its current filters. The first call makes its
 * counters; later calls change their attrs only. On an encoding error returns -1 with
 * *err set, leaving the instance as it was. */
int instance_encode(const struct machine *m, struct instance *inst, char **err);
/* Is filter f usable on the instance's PMU (its format/ has the field)? */
bool instance_has_filter(const struct instance *inst, int f);
/* After sources opened counters: copy the kinds and widths they set into the infos. */
void session_refresh_counter_info(struct session *s);
void instance_free(struct instance *inst);
/* An event's name as frames give it: the sysfs alias the profile names, else its own. */
const char *instance_event_name(const struct instance *inst, int event);
/* Its alias's .unit ("Joules"), or NULL. */
const char *instance_event_unit(const struct instance *inst, int event);



#endif
