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
#include "machine/hwsensors.h"
#include "machine/procstat.h"
#include "sources/source.h"

const char *value_state_name(enum value_state st)
{
	static const char *const names[] = { "ok", "no value", "not counted", "unreadable", "unavailable" };
	return (unsigned)st < ARRAY_SIZE(names) ? names[st] : "?";
}

const char *frame_label(const struct frame *f, int instance, const char *key)
{
	const struct instance_info *ii = &f->iinfo[instance];
	for (int i = 0; i < ii->nlabels; i++)
		if (!strcmp(ii->labels[i].key, key))
			return ii->labels[i].value;
	return NULL;
}

const char *session_intern(struct session *s, const char *str)
{
	if (!str)
		return NULL;
	/* filter strings repeat (a user toggles back and forth): reuse the recent ones */
	for (int i = s->nstrings - 1; i >= 0 && i >= s->nstrings - 16; i--)
		if (!strcmp(s->strings[i], str))
			return s->strings[i];
	grow_array(&s->strings, &s->capstrings, s->nstrings + 1, sizeof(char *));
	s->strings[s->nstrings] = xstrdup(str);
	return s->strings[s->nstrings++];
}

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
	procstat_free(s->procstat);
	if (s->sensors)
		hw_sensors_done();
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

void session_add_source(struct session *s, struct source *src)
{
	s->sources = xrealloc(s->sources, sizeof(*s->sources) * (size_t)(s->nsources + 1));
	s->sources[s->nsources++] = src;
}

void session_use_clock(struct session *s, struct clock *c)
{
	s->clock = c;
}

void session_use_host_meters(struct session *s, struct procstat *ps, bool sensors)
{
	s->procstat = ps;
	s->sensors = sensors && hw_sensors_init();
}

/* CPU utilisation and temperature into the frame being built. */
void session_read_host_meters(struct session *s, struct frame *f)
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
		snprintf(s->temp_chip, sizeof(s->temp_chip), "%s", t.chip);
		f->temp_chip = s->temp_chip;
	}
}

void session_open_instance(struct session *s, struct instance *inst)
{
	(void)s;
	if (inst->unavailable || inst->nmembers || !inst->ncounters || !inst->source)
		return;
	free(inst->open_error);
	inst->open_error = NULL;
	inst->open_errno = 0;
	for (int c = 0; c < inst->ncounters; c++) {
		inst->counters[c].kind = COUNTER_CUMULATIVE;
		inst->counters[c].width = 64;
	}
	int r = inst->source->ops->open(inst->source, inst);
	inst->opened = r == 0;
	if (r < 0) {
		inst->open_errno = -r;
		if (!inst->open_error)
			inst->open_error = xasprintf("cannot open: %s", strerror(-r));
	}
}

/* Which source counts each instance: the first that claims it. */
static void assign_sources(struct session *s)
{
	size_t cap = 16, len = 0;
	char *kinds = xcalloc(1, cap);
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (inst->nmembers || !inst->pmu)
			continue;
		for (int k = 0; k < s->nsources && !inst->source; k++) {
			struct source *src = s->sources[k];
			if (!src->ops->claims || src->ops->claims(src, inst))
				inst->source = src;
		}
		if (!inst->source && !inst->unavailable)
			inst->unavailable = xasprintf("no counter source in this session counts %s", inst->pmu->name);
	}
	for (int k = 0; k < s->nsources; k++) {
		bool used = false;
		for (int i = 0; i < s->ninstances && !used; i++)
			used = s->inst[i].source == s->sources[k];
		const char *kind = s->sources[k]->ops->kind;
		if (!used && (s->nsources > 1 || !kind))
			continue;
		if (len && strstr(kinds, kind))
			continue;
		size_t n = strlen(kind) + 2;
		if (len + n > cap)
			kinds = xrealloc(kinds, cap = (len + n) * 2);
		len += (size_t)snprintf(kinds + len, cap - len, "%s%s", len ? "+" : "", kind);
	}
	free(s->source_kinds);
	s->source_kinds = kinds;
	s->frames[0].source = s->frames[1].source = kinds;
}

void session_start(struct session *s, uint64_t now_ns)
{
	assign_sources(s);
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
