/* SPDX-License-Identifier: GPL-2.0-only */
/* bind.h - binding profiles to a machine: instances, their events and filters. The room
 * bind/ puts profiles onto one machine; it reads profile/ and machine/ and knows nothing
 * of sources' insides, frames or the run loop. The engine's files use it; others reach
 * it through session.h. */
#ifndef PMUTOP_BIND_H
#define PMUTOP_BIND_H

#include "bind/state.h"
#include "profile/profile_match.h"

/* Find every instance of every group of the session's profiles, encode their events,
 * make the value slots and the static halves of frames. */
void session_bind(struct session *s);
/* Encode every event of the instance with its current filters. The first call makes its
 * counters; later calls change their attrs only. On an encoding error returns -1 with
 * *err set, leaving the instance as it was. */
int instance_encode(struct session *s, struct instance *inst, char **err);
/* Is filter f usable on the instance's PMU (its format/ has the field)? */
bool instance_has_filter(const struct instance *inst, int f);
/* After sources opened counters: copy the kinds and widths they set into the infos. */
void session_refresh_counter_info(struct session *s);
void instance_free(struct instance *inst);
/* An event's name as frames give it: the sysfs alias the profile names, else its own. */
const char *instance_event_name(const struct instance *inst, int event);
/* Its alias's .unit ("Joules"), or NULL. */
const char *instance_event_unit(const struct instance *inst, int event);

/* Does some event of the instance accept choice c of enum filter f (HNS3's filtermode/:
 * a mode no event supports is not offered)? */
bool session_choice_offered(const struct session *s, int instance, int f, int c);
/* "src_rp_mask=0x3,dst_loc_cmem=1" of the instance's set filters, into a malloc'd string. */
char *instance_filter_string(const struct instance *inst);

/* May enum filter f take choice c: does some event the instance has accept it? */
bool instance_choice_offered(const struct instance *inst, int f, int c);


#endif
