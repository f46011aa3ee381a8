/* SPDX-License-Identifier: GPL-2.0-only */
/* attach.h - instances and the sources that count them; the engine's own. */
#ifndef PMUTOP_ATTACH_H
#define PMUTOP_ATTACH_H

#include <stdint.h>

struct instance;
struct session;
struct source;

/* Add a counter source; the session owns it from now on. Sources added first are asked
 * first whether they count an instance. */
void session_add_source(struct session *s, struct source *src);

/* Give each instance the first source that claims it (an instance none claims is
 * unavailable, with the reason) and note the kinds of source that count something. */
void session_assign_sources(struct session *s);
/* Open the instance on its source; sets opened or open_error. */
void session_open_instance(struct session *s, struct instance *inst);
/* Its source says the device went away (every read failed, err an errno): close it, say
 * "gone" and try it again from time to time; the rest of the session goes on. */
void session_instance_gone(struct session *s, struct instance *inst, int err, uint64_t now_ns);
/* Open again the gone instances whose time has come; one that opens counts from the next
 * interval (this one is partial). Returns how many are still gone. */
int session_retry_gone(struct session *s, uint64_t now_ns);

#endif
