/* attach.h - instances and the sources that count them; the engine's own. */
#ifndef PMUTOP_ATTACH_H
#define PMUTOP_ATTACH_H

struct instance;
struct session;

/* Give each instance the first source that claims it (an instance none claims is
 * unavailable, with the reason) and note the kinds of source that count something. */
void session_assign_sources(struct session *s);
/* Open the instance on its source; sets opened or open_error. */
void session_open_instance(struct session *s, struct instance *inst);

#endif
