/* SPDX-License-Identifier: GPL-2.0-only */
/* filter.c - changing an instance's filters while it counts: check the value against the
 * group's constraints and the PMU's format, re-encode, reopen only what changed. A change
 * to an aggregate applies to all its members or to none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"
#include "base/util.h"
#include "engine/attach.h"
#include "bind/bind.h"
#include "engine/session.h"
#include "machine/bfperf.h"
#include "engine/source.h"

bool session_filter(const struct session *s, int instance, int f, uint64_t *value)
{
	const struct instance *inst = &s->inst[instance];
	*value = inst->filter_value[f];
	return inst->filter_set[f];
}

int session_filter_width(const struct session *s, int instance, int f)
{
	const struct instance *inst = &s->inst[instance];
	if (inst->nmembers)
		inst = &s->inst[inst->members[0]];
	if (!instance_has_filter(inst, f))
		return 0;
	const struct prof_filter *pf = &inst->group->filters[f];
	if (pf->type == FILTER_ENUM || !inst->pmu)
		return 64;
	return pmu_find_format(inst->pmu, pf->type == FILTER_EVENT ? "event" : pf->term)->width;
}

static const struct pmu *instance_pmu(const struct session *s, int instance)
{
	const struct instance *inst = &s->inst[instance];
	return inst->nmembers ? s->inst[inst->members[0]].pmu : inst->pmu;
}

const char *session_event_name(const struct session *s, int instance, uint64_t n)
{
	return pmu_event_name(instance_pmu(s, instance), n);
}

bool session_event_step(const struct session *s, int instance, uint64_t cur, int dir, uint64_t *next)
{
	const struct pmu *p = instance_pmu(s, instance);
	bool found = false, wrap_found = false;
	uint64_t best = 0, wrap = 0;
	for (int i = 0; p && i < p->naliases; i++) {
		int64_t n = pmu_alias_event_number(p->aliases[i].terms);
		if (n < 0)
			continue;
		uint64_t v = (uint64_t)n;
		if (dir > 0 ? v > cur : v < cur) { /* the nearest beyond cur */
			if (!found || (dir > 0 ? v < best : v > best))
				best = v;
			found = true;
		}
		if (!wrap_found || (dir > 0 ? v < wrap : v > wrap)) /* else wrap to the far end */
			wrap = v;
		wrap_found = true;
	}
	*next = found ? best : wrap;
	return found || wrap_found;
}

/* An event filter's value as written: a number, or an event name of the PMU. */
static bool parse_event_value(const struct session *s, int instance, const char *text, uint64_t *v, char **err)
{
	const struct pmu *p = instance_pmu(s, instance);
	const struct pmu_alias *a = p ? pmu_find_alias(p, text) : NULL;
	int64_t n = a ? pmu_alias_event_number(a->terms) : -1;
	if (n >= 0) {
		*v = (uint64_t)n;
		return true;
	}
	if (parse_u64(text, v))
		return true;
	*err = xasprintf("'%s' is not an event of %s (a name from its event list, or a number)", text,
			 p ? p->name : "this PMU");
	return false;
}

char *session_instance_filters(const struct session *s, int instance)
{
	return instance_filter_string(&s->inst[instance]);
}

static int find_filter(const struct prof_group *g, const char *term)
{
	for (int f = 0; f < g->nfilters; f++)
		if (!strcmp(g->filters[f].term, term))
			return f;
	return -1;
}

/* Does a filter set to v select something? 0 is "no filter" for a mask or flag, but a
 * real choice where a companion enables it (src_bdf=00:00.0 with src_bdf_en). */
static bool filter_selects(const struct prof_filter *pf, bool set, uint64_t v)
{
	return set && (v || pf->enable);
}

/* One end of a range=MIN..MAX: a number, or a PMU attribute holding one (bdf_min);
 * NULL when the PMU does not say. */
static const char *range_end(const struct instance *inst, const struct prof_filter *pf, const char *text,
			     uint64_t *v)
{
	if (parse_u64(text, v))
		return text;
	const char *attr = inst->pmu ? pmu_attr(inst->pmu, text) : NULL;
	char *err = NULL;
	bool ok = attr && filter_parse_value(pf, attr, v, &err);
	free(err);
	return ok ? attr : NULL;
}

/* Is v outside the filter's range (the PMU's bounds, or the document's for a mode)? */
static bool out_of_range(const struct instance *inst, const struct prof_filter *pf, uint64_t v, char **err)
{
	char *copy = xstrdup(pf->range), *dots = strstr(copy, "..");
	uint64_t lo, hi;
	const char *lo_t = dots ? (*dots = '\0', range_end(inst, pf, copy, &lo)) : NULL;
	const char *hi_t = dots ? range_end(inst, pf, dots + 2, &hi) : NULL;
	bool out = lo_t && hi_t && (v < lo || v > hi);
	if (out && lo_t == copy) /* plain numbers */
		*err = xasprintf("%s: %s=0x%llx is outside %s..%s", inst->name, pf->term, (unsigned long long)v, lo_t, hi_t);
	else if (out)
		*err = xasprintf("%s: %s=0x%llx is outside %s's range %s..%s (%s..%s)", inst->name, pf->term,
				 (unsigned long long)v, inst->pmu->name, lo_t, hi_t, copy, dots + 2);
	free(copy);
	return out;
}

/* May filter f be set to v on inst (format width, range, exclusive sets, offered)? */
static int check_filter(const struct instance *inst, int f, bool set, uint64_t v, char **err)
{
	const struct prof_group *g = inst->group;
	const struct prof_filter *pf = &g->filters[f];
	if (inst->unavailable) {
		*err = xasprintf("%s: %s", inst->name, inst->unavailable);
		return -1;
	}
	if (!instance_has_filter(inst, f)) {
		*err = xasprintf("%s: PMU %s has no '%s' filter (its format/ lacks it)", inst->name, inst->pmu->name, pf->term);
		return -1;
	}
	if (f == inst->locked_filter) {
		*err = xasprintf("%s counts one root port: its %s is fixed (filter the root complex instead)", inst->name,
				 pf->term);
		return -1;
	}
	if (set && pf->type == FILTER_EVENT && inst->pmu->hw && !bfperf_event_known(inst->pmu, v)) {
		*err = xasprintf("%s: event 0x%llx is not in %s's event_list", inst->name, (unsigned long long)v,
				 inst->pmu->hw->block);
		return -1;
	}
	if (set && pf->type == FILTER_ENUM && v < (uint64_t)pf->nchoices && !instance_choice_offered(inst, f, (int)v)) {
		*err = xasprintf("%s: %s %s is accepted by none of its events (%s)", inst->name, pf->term,
				 pf->choices[v].name, pf->accepts ? pf->accepts : "");
		return -1;
	}
	if (pf->type != FILTER_ENUM) {
		const struct format_field *ff = pmu_find_format(inst->pmu, pf->type == FILTER_EVENT ? "event" : pf->term);
		if (set && v > format_max(ff)) {
			*err = xasprintf("%s: %s=0x%llx is too wide for %s (%s), maximum 0x%llx", inst->name, pf->term,
					 (unsigned long long)v, pf->term, ff->spec, (unsigned long long)format_max(ff));
			return -1;
		}
	}
	if (set && pf->range && out_of_range(inst, pf, v, err))
		return -1;
	for (int x = 0; filter_selects(pf, set, v) && x < g->nexclusive; x++) {
		bool mine = false;
		for (char **t = g->exclusive[x]; *t; t++)
			mine |= !strcmp(*t, pf->term);
		if (!mine)
			continue;
		for (char **t = g->exclusive[x]; *t; t++) {
			int o = find_filter(g, *t);
			if (o >= 0 && o != f && filter_selects(&g->filters[o], inst->filter_set[o], inst->filter_value[o])) {
				const char *why = g->exclusive_why[x];
				*err = xasprintf("%s: %s and %s are mutually exclusive%s%s%s; clear %s first", inst->name, pf->term,
						 *t, why ? " (" : "", why ? why : "", why ? ")" : "", *t);
				return -1;
			}
		}
	}
	return 0;
}

/* Close and open again with the instance's current encoding; prime its counters so the
 * next interval does not mix the old and new filters. */
static void reopen(struct session *s, struct instance *inst, bool was_open)
{
	if (was_open) {
		inst->source->ops->close(inst->source, inst);
		inst->opened = false;
		session_open_instance(s, inst);
		if (inst->opened) {
			inst->source->ops->read(inst->source, inst, s->last_ns);
			if (inst->source->ops->read_done)
				inst->source->ops->read_done(inst->source);
		}
	}
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		counter_prime(ct, inst->opened);
		counter_reopened(ct);
	}
}

static void mark_changed(struct session *s, struct instance *inst)
{
	char *fs = instance_filter_string(inst);
	inst->filters = session_intern(s, fs);
	free(fs);
	inst->skip_next = true;
	inst->filters_seq = s->nsamples + 1;
}

/* Set filter f on every instance of list[0..n), all or none. */
static int set_on_all(struct session *s, int *list, int n, int f, bool set, uint64_t v, char **err)
{
	for (int i = 0; i < n; i++)
		if (check_filter(&s->inst[list[i]], f, set, v, err) < 0)
			return -1;
	bool *old_set = xcalloc((size_t)n, sizeof(bool));
	uint64_t *old_v = xcalloc((size_t)n, sizeof(uint64_t));
	bool *was_open = xcalloc((size_t)n, sizeof(bool));
	int done = 0, r = 0;
	for (; done < n; done++) {
		struct instance *inst = &s->inst[list[done]];
		old_set[done] = inst->filter_set[f];
		old_v[done] = inst->filter_value[f];
		was_open[done] = inst->opened;
		inst->filter_set[f] = set;
		inst->filter_value[f] = v;
		if (instance_encode(s, inst, err) < 0) {
			inst->filter_set[f] = old_set[done];
			inst->filter_value[f] = old_v[done];
			r = -1;
			break;
		}
	}
	if (r == 0) {
		for (int i = 0; i < n; i++) {
			struct instance *inst = &s->inst[list[i]];
			reopen(s, inst, was_open[i]);
			if (was_open[i] && !inst->opened && r == 0) {
				*err = xasprintf("%s: the driver refused the new filters: %s", inst->name,
						 inst->open_error ? inst->open_error : "cannot open");
				r = -1;
			}
		}
	}
	if (r < 0) { /* put back what was changed; reopen with the old filters if reopened */
		bool reopened = done == n;
		for (int i = 0; i < done; i++) {
			struct instance *inst = &s->inst[list[i]];
			inst->filter_set[f] = old_set[i];
			inst->filter_value[f] = old_v[i];
			char *e2 = NULL;
			if (instance_encode(s, inst, &e2) == 0 && reopened)
				reopen(s, inst, was_open[i]);
			free(e2);
		}
	} else {
		for (int i = 0; i < n; i++)
			mark_changed(s, &s->inst[list[i]]);
	}
	free(old_set);
	free(old_v);
	free(was_open);
	return r;
}

static char *filter_list(const struct prof_group *g)
{
	size_t cap = 128, len = 0;
	char *list = xcalloc(1, cap);
	for (int i = 0; i < g->nfilters; i++) {
		size_t n = strlen(g->filters[i].term) + 3;
		if (len + n + 1 > cap)
			list = xrealloc(list, cap = (len + n + 1) * 2);
		len += (size_t)snprintf(list + len, cap - len, "%s%s", i ? ", " : "", g->filters[i].term);
	}
	return list;
}

void session_reset_filters(struct session *s)
{
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		const struct prof_group *g = inst->group;
		bool changed = false;
		for (int f = 0; f < g->nfilters; f++) {
			if (f == inst->locked_filter)
				continue; /* a root port's own bit */
			changed |= inst->filter_set[f] != g->filters[f].has_default ||
				   (inst->filter_set[f] && inst->filter_value[f] != g->filters[f].def);
			inst->filter_set[f] = g->filters[f].has_default;
			inst->filter_value[f] = g->filters[f].def;
		}
		if (!changed)
			continue;
		char *err = NULL;
		if (!inst->nmembers && instance_encode(s, inst, &err) == 0)
			reopen(s, inst, inst->opened);
		free(err);
		mark_changed(s, inst);
	}
}

int session_set_filter(struct session *s, int instance, const char *term, const char *value, char **err)
{
	struct instance *inst = &s->inst[instance];
	const struct prof_group *g = inst->group;
	*err = NULL;
	if (inst->nparts) { /* its parts are other groups' sums, each with its own filters */
		*err = xasprintf("%s blends several groups' sums: set '%s' on each of them", inst->name, term);
		return -1;
	}
	int f = find_filter(g, term);
	if (f < 0) {
		char *list = filter_list(g);
		struct suggest sg;
		suggest_init(&sg, term);
		for (int k = 0; k < g->nfilters; k++)
			suggest_offer(&sg, g->filters[k].term);
		*err = xasprintf("group %s has no filter '%s'%s (filters: %s)", g->name, term, suggest_text(&sg),
				 g->nfilters ? list : "none");
		suggest_free(&sg);
		free(list);
		return -1;
	}
	uint64_t v = 0;
	bool set = value && strcmp(value, "default") != 0;
	if (!set && g->filters[f].type == FILTER_ENUM) { /* an enum always has a choice */
		set = true;
		v = g->filters[f].def;
	}
	bool parsed = !set || !value || !strcmp(value, "default") ||
		      (g->filters[f].type == FILTER_EVENT ? parse_event_value(s, instance, value, &v, err)
							  : filter_parse_value(&g->filters[f], value, &v, err));
	if (!parsed) {
		char *e = xasprintf("%s=%s: %s", term, value, *err);
		free(*err);
		*err = e;
		return -1;
	}
	if (!inst->nmembers) {
		if (set_on_all(s, &instance, 1, f, set, v, err) < 0)
			return -1;
		session_note_event(s, SEV_FILTER, instance, term, set ? value : NULL);
		/* a root complex's root-port instances follow its other filters where they can
		 * (their own bit of the mask stays; a filter exclusive with it is theirs to miss) */
		for (int i = 0; i < s->ninstances; i++) {
			char *e2 = NULL;
			if (s->inst[i].parent == instance && f != s->inst[i].locked_filter &&
			    set_on_all(s, &i, 1, f, set, v, &e2) < 0)
				free(e2);
		}
		return 0;
	}
	if (set_on_all(s, inst->members, inst->nmembers, f, set, v, err) < 0)
		return -1;
	inst->filter_set[f] = set;
	inst->filter_value[f] = v;
	mark_changed(s, inst);
	session_note_event(s, SEV_FILTER, instance, term, set ? value : NULL);
	return 0;
}
