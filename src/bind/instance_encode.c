/* SPDX-License-Identifier: GPL-2.0-only */
/* instance_encode.c - an instance's events as perf event strings under its filters,
 * encoded.
 *
 * Every event of an instance is encoded from a perf event string built here
 * ("pmu/alias,filter=value/"), through the same encoder as `pmutop encode`, so what
 * pmutop opens is exactly what perf would open for that string. A filter reaches only
 * the events it applies to; an event that does not accept the current value of an enum
 * filter (HNS3's filtermode/) is "n/a" with the reason, not a failure of the instance. */
#include "bind/bind.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/encode_memo.h"

/* Append n bytes of piece to the growing string *out (length *len, capacity *cap). */
static void append(char **out, size_t *len, size_t *cap, const char *piece, int n)
{
	if (*len + (size_t)n + 1 > *cap)
		*out = xrealloc(*out, *cap = (*len + (size_t)n + 1) * 2);
	memcpy(*out + *len, piece, (size_t)n);
	*len += (size_t)n;
	(*out)[*len] = '\0';
}

/* Is the filter usable on this instance's PMU (its format/ has the field, or for an
 * enum, every field its choices set)? */
bool instance_has_filter(const struct instance *inst, int f)
{
	const struct prof_filter *pf = &inst->group->filters[f];
	if (!inst->pmu)
		return true;
	if (pf->type == FILTER_EVENT) /* it sets the event field itself */
		return pmu_find_format(inst->pmu, "event") != NULL;
	if (pf->type != FILTER_ENUM)
		return pmu_find_format(inst->pmu, pf->term) != NULL;
	return true;
}

/* The names of the choices the PMU says event e accepts (the accepts= attribute), or
 * NULL when it does not say (every choice is accepted). */
static const char *accepted_choices(const struct instance *inst, const struct prof_filter *f, int e)
{
	if (!f->accepts || !inst->pmu)
		return NULL;
	const char *alias = inst->group->events[e].terms;
	char attr[320];
	const char *at = strstr(f->accepts, "{event}");
	if (at)
		snprintf(attr, sizeof(attr), "%.*s%s%s", (int)(at - f->accepts), f->accepts, alias, at + 7);
	else
		str_copy(attr, sizeof(attr), f->accepts);
	return pmu_attr(inst->pmu, attr);
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	/* the driver separates with blanks; the kernel document with '/' */
	for (const char *p = list; (p = strstr(p, word)); p += n) {
		bool start = p == list || isspace((unsigned char)p[-1]) || p[-1] == '/' || p[-1] == ',';
		bool end = !p[n] || isspace((unsigned char)p[n]) || p[n] == '/' || p[n] == ',';
		if (start && end)
			return true;
	}
	return false;
}

/* The first of the filters named in needs that the instance has not set, or NULL. */
static const char *unset_need(const struct instance *inst, char **needs)
{
	const struct prof_group *g = inst->group;
	for (char **nd = needs; nd && *nd; nd++)
		for (int k = 0; k < g->nfilters; k++)
			if (!strcmp(g->filters[k].term, *nd) && !inst->filter_set[k])
				return *nd;
	return NULL;
}

/* The filter terms of event e under the instance's current filters, appended to out;
 * NULL when the event does not accept them (with *why set). */
static char *event_filter_terms(const struct instance *inst, int e, char **why)
{
	const struct prof_group *g = inst->group;
	size_t cap = 64, len = 0;
	char *out = xcalloc(1, cap);
	*why = NULL;
	for (int f = 0; f < g->nfilters; f++) {
		const struct prof_filter *pf = &g->filters[f];
		if (!inst->filter_set[f] || !filter_applies(g, pf, e) || !instance_has_filter(inst, f) ||
		    !filter_in_use(g, f, inst->filter_value, inst->filter_set) || pf->type == FILTER_EVENT)
			continue;
		char piece[400];
		int n;
		if (pf->type == FILTER_ENUM) {
			const struct prof_choice *c = &pf->choices[inst->filter_value[f]];
			const char *acc = accepted_choices(inst, pf, e);
			const char *nd = unset_need(inst, c->needs); /* without it the driver picks another mode */
			if (nd) {
				*why = xasprintf("%s %s needs %s set", pf->term, c->name, nd);
				free(out);
				return NULL;
			}
			if (acc && !word_in(acc, c->name)) {
				*why = xasprintf("%s %s not supported by this event (%s)", pf->term, c->name,
						 *acc ? acc : "it supports none");
				free(out);
				return NULL;
			}
			if (!*c->terms)
				continue;
			n = snprintf(piece, sizeof(piece), "%s%s", len ? "," : "", c->terms);
		} else {
			const char *nd = unset_need(inst, pf->needs); /* half a filter: say so, count nothing wrong */
			if (nd) {
				*why = xasprintf("%s needs %s set too", pf->term, nd);
				free(out);
				return NULL;
			}
			n = snprintf(piece, sizeof(piece), "%s%s=0x%llx", len ? "," : "", pf->term,
				     (unsigned long long)inst->filter_value[f]);
			if (pf->enable)
				n += snprintf(piece + n, sizeof(piece) - (size_t)n, ",%s=1", pf->enable);
		}
		append(&out, &len, &cap, piece, n < (int)sizeof(piece) ? n : (int)sizeof(piece) - 1);
	}
	return out;
}

/* "event=0x4c" when an event filter that is set chooses what event e watches, else NULL. */
static char *chosen_event(const struct instance *inst, int e)
{
	const struct prof_group *g = inst->group;
	for (int f = 0; f < g->nfilters; f++)
		if (g->filters[f].type == FILTER_EVENT && inst->filter_set[f] && filter_applies(g, &g->filters[f], e))
			return xasprintf("event=0x%llx", (unsigned long long)inst->filter_value[f]);
	return NULL;
}

/* A profile's event "event=0x3c,umask=0x0:k" or "cycles:u" (perf's modifiers, the
 * catalogue's CPU_CLK_UNHALTED.THREAD_P:k): the letters after the last colon, and in *plain
 * the event without them (NULL where it has none). The encoder judges the letters. */
static const char *event_modifiers(const char *terms, char **plain)
{
	const char *colon = strrchr(terms, ':');
	*plain = NULL;
	if (!colon)
		return "";
	*plain = xstrndup(terms, (size_t)(colon - terms));
	return colon + 1;
}

/* A bare legacy name ("cycles", "page-faults") is this group's event only on a PMU of
 * that type (software) or a core PMU (perf's rule: "cpu" or a PMU with a cpus file); on
 * an uncore PMU that lacks the alias (Grace's SCF without a cycle counter) it would
 * count the CPU's cycles under the PMU's name. */
static bool pmu_takes_legacy(const struct pmu *p, const struct event_attr *legacy)
{
	return p->type == (int)legacy->type || !strcmp(p->name, "cpu") || pmu_attr(p, "cpus") != NULL;
}

/* A PMU with none of a group's events, all of them optional (a RAPL PMU with no events
 * at all, as some VMs have): nothing to count there, and nothing failed. */
static char *none_present(const struct prof_group *g, const struct pmu *p)
{
	char *names = xstrdup("");
	for (int e = 0; e < g->nevents; e++) {
		char *n = xasprintf("%s%s%s", names, e ? ", " : "", g->events[e].terms);
		free(names);
		names = n;
	}
	char *why = xasprintf("PMU %s has none of the events %s (not on this machine)", p->name, names);
	free(names);
	return why;
}

/* The instance's counters: one per present event and CPU; how many events are present. */
static int make_counters(struct instance *inst, const struct encoded_event *enc, const bool *present)
{
	const struct prof_group *g = inst->group;
	int ncpu = inst->cpus.n, n = 0, npresent = 0;
	for (int e = 0; e < g->nevents; e++) {
		n += present[e] ? ncpu : 0;
		npresent += present[e];
	}
	inst->counters = xcalloc((size_t)(n ? n : 1), sizeof(struct counter));
	inst->ncounters = n;
	int k = 0;
	for (int e = 0; e < g->nevents; e++) {
		for (int c = 0; present[e] && c < ncpu; c++, k++) {
			struct counter *ct = &inst->counters[k];
			ct->attr = enc[e].attr;
			ct->event = e;
			ct->cpu = inst->cpus.cpu[c];
			ct->width = 64;
			ct->kind = COUNTER_CUMULATIVE;
		}
	}
	for (int e = 0; e < g->nevents; e++)
		inst->present[e] = present[e];
	return npresent;
}

int instance_encode(struct session *s, struct instance *inst, char **err)
{
	const struct prof_group *g = inst->group;
	const struct pmu *p = inst->pmu;
	struct encoded_event *enc = xcalloc((size_t)g->nevents, sizeof(*enc));
	char **strs = xcalloc((size_t)g->nevents, sizeof(char *));
	char **na = xcalloc((size_t)g->nevents, sizeof(char *));
	bool *present = xcalloc((size_t)g->nevents, sizeof(bool));
	char *missing = NULL;
	int r = 0, nwanted = 0;
	*err = NULL;
	for (int e = 0; e < g->nevents && r == 0; e++) {
		const char *terms = g->events[e].terms;
		if ((inst->wanted && !inst->wanted[e]) || (g->wanted && !g->wanted[e]))
			continue; /* a root port's instance counts only its events; -M only what it reads */
		nwanted++;
		char *chosen = chosen_event(inst, e);
		if (chosen)
			terms = chosen;
		char *plain = NULL; /* "event=0x3c:k": the terms, the modifiers after the PMU's slash */
		const char *mods = event_modifiers(terms, &plain);
		if (plain)
			terms = plain;
		bool is_terms = strchr(terms, '=') != NULL || pmu_find_alias(p, terms) != NULL;
		struct event_attr legacy_attr;
		if (!is_terms && encode_legacy_event(terms, &legacy_attr) && pmu_takes_legacy(p, &legacy_attr)) {
			strs[e] = xstrcat(terms, *mods ? ":" : "", mods);
		} else if (!is_terms) {
			if (!g->events[e].optional && !missing)
				missing = xasprintf("PMU %s has no event '%s' (not on this machine)", p->name, terms);
		} else {
			char *filters = event_filter_terms(inst, e, &na[e]);
			if (!filters) { /* present, but not under these filters: encode it bare */
				strs[e] = xstrcat(p->name, "/", terms, "/", mods);
			} else {
				strs[e] = xstrcat(p->name, "/", terms, *filters ? "," : "", filters, "/", mods);
				free(filters);
			}
		}
		free(chosen);
		free(plain);
		if (!strs[e])
			continue;
		char *eerr;
		if ((s->encodings ? encode_event_memo(s->encodings, strs[e], &enc[e], &eerr)
				  : encode_event(s->machine, strs[e], &enc[e], &eerr)) < 0) {
			*err = eerr;
			r = -1;
			break;
		}
		present[e] = true;
	}
	if (r == 0 && inst->counters) {
		/* a re-encode (filter change): the counters stay, their attrs change */
		for (int c = 0; c < inst->ncounters; c++) {
			struct counter *ct = &inst->counters[c];
			ct->attr = enc[ct->event].attr;
		}
	} else if (r == 0) {
		int npresent = make_counters(inst, enc, present);
		if (!missing && !npresent && nwanted) /* none wanted: its values are perf's (hosts_perf) */
			missing = none_present(g, p);
		if (missing && !inst->unavailable) {
			inst->unavailable = missing;
			inst->absent = true;
			missing = NULL;
		}
	}
	if (r == 0) {
		for (int e = 0; e < g->nevents; e++) {
			free(inst->event_str[e]);
			inst->event_str[e] = strs[e];
			strs[e] = NULL;
			free(inst->event_na[e]);
			inst->event_na[e] = na[e];
			na[e] = NULL;
			inst->scale[e] = present[e] ? enc[e].scale : 1.0;
		}
	}
	for (int e = 0; e < g->nevents; e++) {
		free(strs[e]);
		free(na[e]);
	}
	free(missing);
	free(strs);
	free(na);
	free(present);
	free(enc);
	return r;
}

char *instance_filter_string(const struct instance *inst)
{
	const struct prof_group *g = inst->group;
	size_t cap = 64, len = 0;
	char *out = xcalloc(1, cap);
	for (int f = 0; f < g->nfilters; f++) {
		const struct prof_filter *pf = &g->filters[f];
		if (!inst->filter_set[f] || !instance_has_filter(inst, f) ||
		    !filter_in_use(g, f, inst->filter_value, inst->filter_set))
			continue;
		char piece[200];
		int n;
		const char *ev = pf->type == FILTER_EVENT ? pmu_event_name(inst->pmu, inst->filter_value[f]) : NULL;
		if (pf->type == FILTER_ENUM)
			n = snprintf(piece, sizeof(piece), "%s%s=%s", len ? "," : "", pf->term,
				     pf->choices[inst->filter_value[f]].name);
		else if (ev)
			n = snprintf(piece, sizeof(piece), "%s%s=%s", len ? "," : "", pf->term, ev);
		else
			n = snprintf(piece, sizeof(piece), "%s%s=0x%llx", len ? "," : "", pf->term,
				     (unsigned long long)inst->filter_value[f]);
		append(&out, &len, &cap, piece, n < (int)sizeof(piece) ? n : (int)sizeof(piece) - 1);
	}
	return out;
}

bool session_choice_offered(const struct session *s, int instance, int f, int c)
{
	const struct instance *inst = &s->inst[instance];
	return instance_choice_offered(inst->nmembers ? &s->inst[inst->members[0]] : inst, f, c);
}

bool instance_choice_offered(const struct instance *inst, int f, int c)
{
	const struct prof_filter *pf = &inst->group->filters[f];
	if (pf->type != FILTER_ENUM || c < 0 || c >= pf->nchoices)
		return false;
	for (int e = 0; e < inst->group->nevents; e++) {
		if (!inst->present[e])
			continue;
		const char *acc = accepted_choices(inst, pf, e);
		if (!acc || word_in(acc, pf->choices[c].name))
			return true;
	}
	return false;
}
