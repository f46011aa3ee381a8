/* SPDX-License-Identifier: GPL-2.0-only */
/* group_keys.c - the keys of a [group NAME] section: its PMU pattern, events, typed
 * filters and their choices, attributes, and how its instances count and sum. */
#include "profile/profile.h"
#include "profile/profile_load.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/expr.h"
#include "base/util.h"
#include "machine/encode.h"

static struct prof_group *cur_group(struct loader *L)
{
	return &L->p->groups[L->index];
}

/* filter.TERM = TYPE [default=V] [enable=TERM] [events=E,E] [range=MIN..MAX] [accepts=ATTR]
 * [needs=F,F] [title=words...] */
static void parse_filter(struct loader *L, const char *term, const char *value)
{
	struct prof_group *g = cur_group(L);
	for (int i = 0; i < g->nfilters; i++) {
		if (!strcmp(g->filters[i].term, term)) {
			lerror(L, L->in.line, 0, "filter '%s' defined twice (first on line %d)", term, g->filters[i].line);
			return;
		}
	}
	struct prof_filter f = { .term = xstrdup(term), .line = L->in.line };
	char *copy = xstrdup(value);
	char *title = strstr(copy, "title=");
	if (title) {
		f.title = xstrdup(trim(title + 6));
		*title = '\0';
	}
	int n;
	char **w = str_split(copy, &n);
	bool ok = n >= 1 && filter_type_parse(w[0], &f.type);
	if (!ok)
		lerror(L, L->in.line, prof_value_column(L), "filter '%s': type must be one of flag, mask, int, hex, bdf, enum, event", term);
	for (int i = 1; ok && i < n; i++) {
		if (str_has_prefix(w[i], "default=")) { /* a repeated option: the last one counts */
			free(L->pending_default);
			L->pending_default = xstrdup(w[i] + 8); /* an enum's choices come later */
			f.has_default = true;
		} else if (str_has_prefix(w[i], "enable=") && w[i][7]) {
			free(f.enable);
			f.enable = xstrdup(w[i] + 7);
		} else if (str_has_prefix(w[i], "events=") && w[i][7]) {
			char *list = xstrdup(w[i] + 7);
			for (char *c = list; *c; c++)
				if (*c == ',')
					*c = ' ';
			str_split_free(f.events);
			f.events = str_split(list, NULL);
			free(list);
		} else if (str_has_prefix(w[i], "range=") && w[i][6]) {
			free(f.range);
			f.range = xstrdup(w[i] + 6);
		} else if (str_has_prefix(w[i], "accepts=") && w[i][8]) {
			free(f.accepts);
			f.accepts = xstrdup(w[i] + 8);
		} else if (str_has_prefix(w[i], "needs=") && w[i][6]) {
			str_split_free(f.needs);
			f.needs = str_split(w[i] + 6, NULL);
		} else {
			lerror(L, L->in.line, 0, "filter '%s': unknown option '%s' (known: default=, enable=, events=, range=, accepts=, needs=, title=)",
			       term, w[i]);
			ok = false;
		}
	}
	str_split_free(w);
	free(copy);
	if (!f.title)
		f.title = xstrdup(term);
	g->filters = xrealloc(g->filters, sizeof(f) * (size_t)(g->nfilters + 1));
	g->filters[g->nfilters++] = f;
	if (L->pending_default) {
		struct prof_filter *nf = &g->filters[g->nfilters - 1];
		char *err;
		if (nf->type == FILTER_ENUM) {
			nf->def_name = L->pending_default; /* its choices follow: resolved at the group's end */
		} else {
			if (!filter_parse_value(nf, L->pending_default, &nf->def, &err)) {
				lerror(L, L->in.line, 0, "filter '%s': default %s", term, err);
				free(err);
			}
			free(L->pending_default);
		}
		L->pending_default = NULL;
	}
}

/* choice.FILTER.NAME = TERMS: one value of an enum filter and the terms it sets. */
static void parse_choice(struct loader *L, const char *key, const char *value)
{
	struct prof_group *g = cur_group(L);
	const char *dot = strchr(key, '.');
	struct prof_filter *f = NULL;
	for (int i = 0; dot && i < g->nfilters; i++)
		if (strlen(g->filters[i].term) == (size_t)(dot - key) && !strncmp(g->filters[i].term, key, (size_t)(dot - key)))
			f = &g->filters[i];
	if (!dot || !dot[1]) {
		lerror(L, L->in.line, 0, "choice.%s: want choice.FILTER.NAME = TERMS", key);
		return;
	}
	if (!f || f->type != FILTER_ENUM) {
		lerror(L, L->in.line, 0, "choice.%s: no enum filter '%.*s' defined above it in [group %s]", key, (int)(dot - key),
		       key, g->name);
		return;
	}
	for (int i = 0; i < f->nchoices; i++)
		if (!strcmp(f->choices[i].name, dot + 1)) {
			lerror(L, L->in.line, 0, "choice '%s' of filter '%s' defined twice (first on line %d)", dot + 1, f->term,
			       f->choices[i].line);
			return;
		}
	/* TERMS, and uses=FILTER,... naming the filters that count under this choice */
	char **uses = NULL, **needs = NULL;
	size_t cap = strlen(value) + 1, len = 0;
	char *terms = xcalloc(1, cap);
	/* blanks only: a word of terms may hold commas (tc=0xf,queue=0xffff) */
	char **w = str_split_blanks(value, NULL);
	for (char **p = w; *p; p++) {
		if (str_has_prefix(*p, "uses=")) {
			char **u = str_split(*p + 5, NULL);
			str_split_free(uses);
			uses = u;
			continue;
		}
		if (str_has_prefix(*p, "needs=")) {
			char **u = str_split(*p + 6, NULL);
			str_split_free(needs);
			needs = u;
			continue;
		}
		len += (size_t)snprintf(terms + len, cap - len, "%s%s", len ? "," : "", *p);
	}
	str_split_free(w);
	f->choices = xrealloc(f->choices, sizeof(*f->choices) * (size_t)(f->nchoices + 1));
	f->choices[f->nchoices++] = (struct prof_choice){ xstrdup(dot + 1), terms, uses, needs, L->in.line };
}

static char *event_ident(const char *alias)
{
	char *s = xstrdup(alias);
	for (char *p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

static void add_event(struct loader *L, const char *name, const char *terms, bool optional)
{
	struct prof_group *g = cur_group(L);
	char *ident = event_ident(name);
	for (int i = 0; i < g->nevents; i++) {
		if (!strcmp(g->events[i].name, ident)) {
			lerror(L, L->in.line, 0, "event '%s' listed twice in group '%s' (first on line %d)", ident, g->name,
			       g->events[i].line);
			free(ident);
			return;
		}
	}
	const char *colon = strrchr(terms, ':'), *bad;
	if (colon && encode_modifiers(colon + 1, &bad) < 0) /* perf's ":k": the letters it counts by */
		lerror(L, L->in.line, prof_value_column(L) + (int)(bad - terms),
		       "event '%s': modifier '%c' is not one pmutop takes (it counts, it does not sample: u user, "
		       "k kernel, h hypervisor)",
		       ident, *bad);
	g->events = xrealloc(g->events, sizeof(*g->events) * (size_t)(g->nevents + 1));
	g->events[g->nevents++] = (struct prof_event){ .name = ident, .terms = xstrdup(terms),
						       .optional = optional, .line = L->in.line };
}

static char *attr_ident(const char *attr)
{
	char *s = xstrdup(attr);
	for (char *p = s; *p; p++)
		if (*p == '/' || *p == '-')
			*p = '.';
	return s;
}

/* The end of one {name}, or of {@ATTR} whose ATTR may be PMU/ATTR and hold {name}s
 * (uncore_iio_{stack}/die{socket}); NULL with *why and *at (where) when malformed. */
static const char *brace_end(const char *p, const char **why, const char **at)
{
	bool attr = p[1] == '@';
	const char *q = p + 1 + attr;
	while (isalnum((unsigned char)*q) || *q == '_' || (attr && (*q == '/' || *q == '{'))) {
		if (*q != '{') {
			q++;
		} else if (q[1] == '@') {
			*why = "an {@attribute} inside another";
			*at = q;
			return NULL;
		} else if (!(q = brace_end(q, why, at))) {
			return NULL;
		}
	}
	if (*q != '}' || q == p + 1 + attr || q - p > 64) {
		*why = *q == '}' ? "an empty or over-long {name}" : "'{' not closed by '}' after a name";
		*at = q;
		return NULL;
	}
	return q + 1;
}

/* A pattern or template's {name} places: closed, a name binding can hold (letters,
 * digits, '_' or a leading '@', under 64 characters; only an {@attribute} holds '/' and
 * {names}), at most 8 of them. */
static void check_braces(struct loader *L, const char *key, const char *value)
{
	int n = 0;
	for (const char *p = value; *p; p++) {
		if (*p == '}') {
			lerror(L, L->in.line, prof_value_column(L) + (int)(p - value), "%s: '}' without '{'", key);
			return;
		}
		if (*p != '{')
			continue;
		const char *why = "", *at = p, *q = brace_end(p, &why, &at);
		if (!q) {
			lerror(L, L->in.line, prof_value_column(L) + (int)(at - value), "%s: %s", key, why);
			return;
		}
		if (++n > 8) {
			lerror(L, L->in.line, prof_value_column(L) + (int)(p - value), "%s: more than 8 {names}", key);
			return;
		}
		p = q - 1;
	}
}

/* exclusive = TERM TERM... [: the driver's message] */
static void parse_exclusive(struct loader *L, const char *value)
{
	struct prof_group *g = cur_group(L);
	char *copy = xstrdup(value);
	char *colon = strchr(copy, ':');
	char *why = NULL;
	if (colon) {
		*colon = '\0';
		why = xstrdup(trim(colon + 1));
	}
	int n;
	char **w = str_split(copy, &n);
	free(copy);
	if (n < 2) {
		lerror(L, L->in.line, prof_value_column(L), "exclusive needs two or more filter terms");
		str_split_free(w);
		free(why);
		return;
	}
	g->exclusive = xrealloc(g->exclusive, sizeof(char **) * (size_t)(g->nexclusive + 1));
	g->exclusive_why = xrealloc(g->exclusive_why, sizeof(char *) * (size_t)(g->nexclusive + 1));
	g->exclusive_why[g->nexclusive] = why;
	g->exclusive[g->nexclusive++] = w;
}

/* alternative = yes, no, or another group's name (checked once every group is read). */
static void parse_alternative(struct loader *L, struct prof_group *g, const char *value)
{
	free(g->alternative_to);
	g->alternative_to = prof_parse_bool(value, &g->alternative) ? NULL : xstrdup(value);
	g->alternative_line = L->in.line;
	g->alternative_col = prof_value_column(L);
}

/* The keys of how a group's instances count and sum (per, aggregate, perf groups, ...);
 * false for a key that is not one of them. */
static bool group_counting_key(struct loader *L, struct prof_group *g, const char *name, const char *value)
{
	if (!strcmp(name, "per")) {
		if (!strcmp(value, "pmu"))
			g->split = SPLIT_PMU;
		else if (!strcmp(value, "cpu"))
			g->split = SPLIT_CPU;
		else
			lerror(L, L->in.line, prof_value_column(L), "per must be 'pmu' or 'cpu', not '%s'", value);
	} else if (!strcmp(name, "aggregate")) {
		char **w = str_split(value, NULL);
		for (char **p = w; *p; p++) {
			if (!strcmp(*p, "all"))
				g->aggregate_all = true;
			else if (!strcmp(*p, "socket"))
				g->aggregate_socket = true;
			else
				lerror(L, L->in.line, prof_value_column(L), "aggregate takes 'all' and/or 'socket', not '%s'", *p);
		}
		str_split_free(w);
	} else if (!strcmp(name, "aggregate_suffix")) {
		prof_set_string(&g->aggregate_suffix, value);
	} else if (!strcmp(name, "cpus_of")) {
		prof_set_string(&g->cpus_of, value);
	} else if (!strcmp(name, "weight")) {
		if (!g->weight)
			g->weight = xcalloc(1, sizeof(*g->weight));
		prof_set_string(&g->weight->text, value);
		g->weight->line = L->in.line;
		g->weight->col = prof_value_column(L);
	} else if (!strcmp(name, "blend_suffix")) {
		prof_set_string(&g->blend_suffix, value);
	} else if (!strcmp(name, "grouped")) {
		if (!prof_parse_bool(value, &g->perf_group))
			lerror(L, L->in.line, prof_value_column(L), "grouped must be yes or no");
	} else if (!strcmp(name, "target")) {
		if (!strcmp(value, "tasks") || !strcmp(value, "machine"))
			g->for_target = value[0];
		else
			lerror(L, L->in.line, prof_value_column(L), "target must be 'tasks' or 'machine', not '%s'", value);
	} else if (!strcmp(name, "leader")) {
		prof_set_string(&g->leader, value);
	} else if (!strcmp(name, "per_thread")) {
		str_split_free(g->per_thread);
		g->per_thread = str_split(value, NULL);
		g->per_thread_line = L->in.line;
		g->per_thread_col = prof_value_column(L);
	} else {
		return false;
	}
	return true;
}

void profile_group_key(struct loader *L, const char *name, const char *value)
{
	struct prof_group *g = cur_group(L);
	if (!strcmp(name, "pmu") || !strcmp(name, "instance") || !strcmp(name, "label") || !strcmp(name, "pci_bus"))
		check_braces(L, name, value);
	if (!strcmp(name, "pmu")) {
		prof_set_string(&g->pmu_pattern, value);
	} else if (!strcmp(name, "instance")) {
		prof_set_string(&g->instance, value);
	} else if (!strcmp(name, "label")) {
		prof_set_string(&g->label, value);
	} else if (!strcmp(name, "pci_rc")) {
		prof_set_string(&g->pci_rc, value);
	} else if (!strcmp(name, "pci_bus")) {
		prof_set_string(&g->pci_bus, value);
	} else if (!strcmp(name, "per_bit")) {
		prof_set_string(&g->per_bit, value);
	} else if (!strcmp(name, "title")) {
		prof_set_string(&g->title, value);
	} else if (!strcmp(name, "events") || !strcmp(name, "optional")) {
		char **w = str_split(value, NULL);
		for (char **p = w; *p; p++)
			add_event(L, *p, *p, name[0] == 'o');
		str_split_free(w);
	} else if (str_has_prefix(name, "event.") && name[6]) {
		add_event(L, name + 6, value, false);
	} else if (str_has_prefix(name, "optional.") && name[9]) {
		add_event(L, name + 9, value, true);
	} else if (str_has_prefix(name, "filter.") && name[7]) {
		parse_filter(L, name + 7, value);
	} else if (str_has_prefix(name, "choice.") && name[7]) {
		parse_choice(L, name + 7, value);
	} else if (!strcmp(name, "attrs")) {
		char **w = str_split(value, NULL);
		for (char **p = w; *p; p++) {
			g->attrs = xrealloc(g->attrs, sizeof(char *) * (size_t)(g->nattrs + 1));
			g->attr_ids = xrealloc(g->attr_ids, sizeof(char *) * (size_t)(g->nattrs + 1));
			g->attrs[g->nattrs] = xstrdup(*p);
			g->attr_ids[g->nattrs++] = attr_ident(*p);
		}
		str_split_free(w);
	} else if (!strcmp(name, "needs")) {
		prof_append_words(&g->needs, &g->nneeds, value);
	} else if (!strcmp(name, "lacks")) {
		prof_append_words(&g->lacks, &g->nlacks, value);
	} else if (!strcmp(name, "when") || !strcmp(name, "unless")) {
		char ***w = !strcmp(name, "when") ? &g->when : &g->unless;
		str_split_free(*w);
		*w = str_split(value, NULL);
		if (!(*w)[0] || !(*w)[1])
			lerror(L, L->in.line, prof_value_column(L), "%s wants a PMU attribute and one or more values", name);
		prof_check_model_regexes(L, name, value, (*w)[0] ? *w + 1 : *w);
	} else if (!strcmp(name, "alternative")) {
		parse_alternative(L, g, value);
	} else if (!strcmp(name, "notes")) {
		prof_append_words(&g->notes, &g->nnotes, value);
	} else if (!strcmp(name, "exclusive")) {
		parse_exclusive(L, value);
	} else if (!group_counting_key(L, g, name, value)) {
		lerror(L, L->in.line, 0, "unknown key '%s' in [group %s] (known: pmu, instance, label, pci_rc, pci_bus, per_bit, title, events, "
		       "optional, event.NAME, optional.NAME, filter.TERM, choice.FILTER.NAME, attrs, notes, needs, lacks, when, unless, alternative, exclusive, per, aggregate, aggregate_suffix, cpus_of, weight, blend_suffix, grouped, target, leader, per_thread)",
		       name, g->name);
	}
}
