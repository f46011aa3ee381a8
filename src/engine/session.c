/* session.c - a session's life: bind, take sources, open instances on the source that
 * claims each, publish frames, free. Binding is bind.c; filters filter.c; refreshes
 * sampler.c. */
#include "engine/session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "engine/bind.h"
#include "engine/attach.h"
#include "engine/hostmeters.h"
#include "sources/source.h"


static void alloc_frame(struct session *s, struct frame *f)
{
	f->nprofiles = s->nprofiles;
	f->profiles = s->profiles;
	f->nmissing = s->nmissing;
	f->missing = s->missing;
	f->ninstances = s->ninstances;
	f->iinfo = s->iinfo;
	f->inst = xcalloc((size_t)(s->ninstances ? s->ninstances : 1), sizeof(struct frame_instance));
	f->nvalues = s->nvalues;
	f->vinfo = s->vinfo;
	f->values = xcalloc((size_t)(s->nvalues ? s->nvalues : 1), sizeof(struct frame_value));
	f->ncounters = s->ncounters;
	f->cinfo = s->cinfo;
	f->counters = xcalloc((size_t)(s->ncounters ? s->ncounters : 1), sizeof(struct frame_counter));
	f->source = "";
	f->cpu_util = NAN;
	for (int k = 0; k < s->nvalues; k++)
		((struct frame_value *)f->values)[k] = (struct frame_value){ .value = NAN, .state = VS_NO_VALUE, .coverage = 1 };
}

struct session *session_new(const struct machine *m, struct profile **profiles, int nprofiles)
{
	struct session *s = xcalloc(1, sizeof(*s));
	s->machine = m;
	s->nprofiles = nprofiles;
	s->profiles = profiles;
	session_bind(s);
	for (int i = 0; i < s->ninstances; i++) {
		char *f = instance_filter_string(&s->inst[i]);
		s->inst[i].filters = session_intern(s, f);
		free(f);
	}
	alloc_frame(s, &s->frames[0]);
	alloc_frame(s, &s->frames[1]);
	return s;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (inst->source && inst->opened)
			inst->source->ops->close(inst->source, inst);
		instance_free(inst);
	}
	for (int i = 0; i < s->nsources; i++)
		source_destroy(s->sources[i]);
	host_meters_done(s);
	free(s->sources);
	free(s->source_kinds);
	for (int k = 0; k < 2; k++) {
		free((void *)s->frames[k].inst);
		free((void *)s->frames[k].values);
		free((void *)s->frames[k].counters);
	}
	for (int i = 0; i < s->nstrings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->inst);
	free(s->iinfo);
	free(s->vinfo);
	free(s->cinfo);
	free(s->missing);
	free(s);
}

void session_use_clock(struct session *s, struct clock *c)
{
	s->clock = c;
}

void session_start(struct session *s, uint64_t now_ns)
{
	session_assign_sources(s);
	for (int k = 0; k < s->nsources; k++)
		s->sources[k]->now_ns = now_ns;
	for (int i = 0; i < s->ninstances; i++)
		session_open_instance(s, &s->inst[i]);
	session_refresh_counter_info(s);
	s->last_ns = now_ns;
	session_sample(s, now_ns); /* primes every counter; the frame shows no values yet */
	s->nsamples = 0;
	((struct frame *)&s->frames[s->cur])->seq = 0;
}

const struct frame *session_frame(const struct session *s)
{
	return &s->frames[s->cur];
}
