/* SPDX-License-Identifier: GPL-2.0-only */
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
#include "base/cpulist.h"
#include "base/util.h"
#include "bind/bind.h"
#include "engine/attach.h"
#include "bind/counter_share.h"
#include "bind/event_groups.h"
#include "engine/hostmeters.h"
#include "engine/source.h"
#include "engine/tasks.h"
#include "engine/machine_cycles.h"
#include "machine/generic_events.h"
#include "machine/topology.h"


static void alloc_frame(struct session *s, struct frame *f)
{
	f->nprofiles = s->nprofiles;
	f->profiles = s->profiles;
	f->nmissing = s->nmissing;
	f->missing = s->missing;
	f->missing_why = (const char *const *)s->missing_why;
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
	f->cache_misses = machine_cache_misses(s->machine);
	for (int k = 0; k < s->nvalues; k++)
		((struct frame_value *)f->values)[k] = (struct frame_value){ .value = NAN, .state = VS_NO_VALUE, .coverage = 1 };
}

struct session *session_new(const struct machine *m, struct profile **profiles, int nprofiles)
{
	return session_new_scoped(m, profiles, nprofiles, &(struct session_scope){ false, NULL, 0, false, 0 });
}

struct session *session_new_scoped(const struct machine *m, struct profile **profiles, int nprofiles,
				   const struct session_scope *scope)
{
	struct session *s = xcalloc(1, sizeof(*s));
	s->machine = m;
	s->count_tasks = scope->tasks;
	if ((s->some_cpus = scope->cpus != NULL))
		cpulist_copy(&s->only_cpus, scope->cpus);
	s->cpu_sums = scope->cpu_sums;
	s->cpu_rows_max = scope->cpu_rows_max;
	if ((s->per_kind = scope->per))
		s->per_of_cpu = scope->per == 'c' ? machine_cores(m) : machine_nodes(m);
	s->nprofiles = nprofiles;
	s->profiles = profiles;
	session_bind(s);
	for (int i = 0; i < s->ninstances; i++) {
		char *f = instance_filter_string(&s->inst[i]);
		s->inst[i].filters = session_intern(s, f);
		free(f);
	}
	s->frames = xcalloc(2, sizeof(*s->frames));
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
	session_machine_cycles_free(s);
	free(s->sharers);
	cpulist_free(&s->only_cpus);
	free(s->per_of_cpu);
	task_table_free(s->tasks);
	task_table_free(s->cgroups);
	free(s->share_refs);
	free(s->refusal);
	host_meters_done(s);
	free(s->sources);
	free(s->source_kinds);
	for (int k = 0; k < 2; k++) {
		free((void *)s->frames[k].inst);
		free((void *)s->frames[k].values);
		free((void *)s->frames[k].counters);
	}
	free(s->frames);
	for (int i = 0; i < s->nstrings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->inst);
	free(s->iinfo);
	for (int k = 0; k < s->nvalues; k++) {
		free(s->vinfo[k].parts);
		free(s->vinfo[k].refs);
		free(s->vinfo[k].thresh);
		free(s->vinfo[k].partners);
	}
	free(s->vinfo);
	free(s->import_vars);
	free(s->thresh_vals);
	free(s->cinfo);
	for (int i = 0; i < s->nmissing; i++)
		free(s->missing_why[i]);
	free(s->missing_why);
	for (int i = 0; s->pmu_note && i < s->machine->npmus; i++)
		free(s->pmu_note[i]);
	free(s->pmu_note);
	free(s->missing);
	free(s->pending);
	free(s->frame_events[0]);
	free(s->frame_events[1]);
	free(s);
}

void session_note_event(struct session *s, enum session_event_kind kind, int instance, const char *term,
			const char *value)
{
	grow_array(&s->pending, &s->cappending, s->npending + 1, sizeof(*s->pending));
	s->pending[s->npending++] = (struct session_event){ .kind = kind, .instance = instance,
		.seq = s->started ? s->nsamples + 1 : 0,
		.term = term ? session_intern(s, term) : NULL, .value = value ? session_intern(s, value) : NULL };
}

void session_set_source_label(struct session *s, const char *label)
{
	free(s->source_kinds);
	s->source_kinds = xstrdup(label);
	s->frames[0].source = s->frames[1].source = s->source_kinds;
}

void session_use_meters(struct session *s, void (*meters)(void *ctx, struct frame *f), void *ctx)
{
	s->meters = meters;
	s->meters_ctx = ctx;
}

void session_use_task_rows(struct session *s, void (*rows)(void *ctx, struct frame *f, bool cgroups), void *ctx,
			   bool has_cgroups)
{
	s->task_rows = rows;
	s->task_rows_ctx = ctx;
	if (!has_cgroups)
		s->cgroups_why = session_intern(s, "no cgroups in this recording (made without -G, --cgroups or the G view)");
	s->cgroups_recorded = has_cgroups;
}

void session_want_details(struct session *s, bool want)
{
	s->skip_details = !want;
}

void session_use_clock(struct session *s, struct clock *c)
{
	s->clock = c;
}

void session_start(struct session *s, uint64_t now_ns)
{
	session_assign_sources(s);
	counters_find_shares(s);
	for (int k = 0; k < s->nsources; k++)
		s->sources[k]->now_ns = now_ns;
	/* the instances whose counters others may read first, open when those open */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < s->ninstances; i++)
			if ((s->inst[i].nshares > 0) == (pass == 1))
				session_open_instance(s, &s->inst[i]);
	session_refresh_counter_info(s);
	session_note_refused_groups(s);
	s->last_ns = now_ns;
	s->priming = true; /* events so far (filters from the command line) go with frame 1 */
	session_sample(s, now_ns); /* primes every counter; the frame shows no values yet */
	s->priming = false;
	s->start_ns = now_ns;
	for (int i = 0; i < s->ninstances; i++)
		for (int c = 0; c < s->inst[i].ncounters; c++) {
			struct counter_memory *mem = &s->inst[i].counters[c].mem;
			mem->base_value = mem->value;
			mem->base_enabled = mem->enabled;
			mem->base_running = mem->running;
			mem->based = mem->primed;
		}
	s->started = true;
	s->nsamples = 0;
	((struct frame *)&s->frames[s->cur])->seq = 0;
}

void session_set_who(struct session *s, const char *who, const char *end)
{
	s->who = who ? session_intern(s, who) : NULL;
	s->who_end = end ? session_intern(s, end) : NULL;
}

void session_use_tasks(struct session *s, struct task_probe *probe, int max)
{
	task_table_free(s->tasks);
	s->tasks = task_table_new(probe, max);
}

void session_tasks_threads(struct session *s, bool threads)
{
	if (s->tasks)
		task_table_threads(s->tasks, threads);
}

void session_want_tasks(struct session *s, bool want)
{
	s->tasks_wanted = want;
	if (s->tasks)
		task_table_want(s->tasks, want);
}

void session_use_cgroups(struct session *s, struct task_probe *probe, int max, bool always)
{
	task_table_free(s->cgroups);
	s->cgroups = task_table_new(probe, max);
	s->cgroups_always = always;
	session_want_cgroups(s, always);
}

void session_want_cgroups(struct session *s, bool want)
{
	s->cgroups_wanted = want || s->cgroups_always;
	if (s->cgroups)
		task_table_want(s->cgroups, s->cgroups_wanted);
}

void session_no_cgroups(struct session *s, const char *why)
{
	s->cgroups_why = session_intern(s, why);
}

const char *session_cgroups_absent(const struct session *s)
{
	return s->cgroups || s->cgroups_recorded ? NULL : s->cgroups_why ? s->cgroups_why : "no cgroups are counted in this session";
}

const char *session_who(const struct session *s)
{
	return s->who;
}

const char *session_who_end(const struct session *s)
{
	return s->who_end;
}

void session_set_interval_start(struct session *s, uint64_t t_ns)
{
	s->last_ns = t_ns;
}

const struct frame *session_frame(const struct session *s)
{
	return &s->frames[s->cur];
}

const char *session_refusal(const struct session *s)
{
	return s->refusal;
}
