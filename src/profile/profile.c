/* SPDX-License-Identifier: GPL-2.0-only */
/* profile.c - load a profile INI file with inih and check it.
 *
 * base/iniread.c counts lines and shows us section headers first; errors then name the
 * file, line and (for formulae) the column. Every error is reported, not just the first. */
#include "profile/profile.h"
#include "profile/profile_load.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "base/iniread.h"
#include "base/regex_memo.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/encode.h"

static void append_words(char ***list, int *n, const char *value)
{
	int m;
	char **w = str_split(value, &m);
	*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + m + 1));
	for (int i = 0; i < m; i++)
		(*list)[(*n)++] = w[i];
	(*list)[*n] = NULL;
	free(w);
}

static void set_string(char **dst, const char *value)
{
	free(*dst);
	*dst = xstrdup(value);
}

/* Column (1-based) where value starts in the raw line. */
static int value_column(const struct loader *L)
{
	return ini_value_column(&L->in);
}

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
		lerror(L, L->in.line, value_column(L), "filter '%s': type must be one of flag, mask, int, hex, bdf, enum, event", term);
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
		lerror(L, L->in.line, value_column(L) + (int)(bad - terms),
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
			lerror(L, L->in.line, value_column(L) + (int)(p - value), "%s: '}' without '{'", key);
			return;
		}
		if (*p != '{')
			continue;
		const char *why = "", *at = p, *q = brace_end(p, &why, &at);
		if (!q) {
			lerror(L, L->in.line, value_column(L) + (int)(at - value), "%s: %s", key, why);
			return;
		}
		if (++n > 8) {
			lerror(L, L->in.line, value_column(L) + (int)(p - value), "%s: more than 8 {names}", key);
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
		lerror(L, L->in.line, value_column(L), "exclusive needs two or more filter terms");
		str_split_free(w);
		free(why);
		return;
	}
	g->exclusive = xrealloc(g->exclusive, sizeof(char **) * (size_t)(g->nexclusive + 1));
	g->exclusive_why = xrealloc(g->exclusive_why, sizeof(char *) * (size_t)(g->nexclusive + 1));
	g->exclusive_why[g->nexclusive] = why;
	g->exclusive[g->nexclusive++] = w;
}

/* constraint = perf's MetricConstraint word (jevents.py's: NO_NMI_WATCHDOG is _NMI's). */
static void parse_constraint(struct loader *L, struct prof_metric *m, const char *value)
{
	static const char *const words[] = { "NO_GROUP_EVENTS", "NO_GROUP_EVENTS_NMI", "NO_NMI_WATCHDOG",
					     "NO_GROUP_EVENTS_SMT" };
	static const enum metric_constraint means[] = { CONSTRAINT_NO_GROUP, CONSTRAINT_NO_GROUP_NMI,
							CONSTRAINT_NO_GROUP_NMI, CONSTRAINT_NO_GROUP_SMT };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(value, words[i])) {
			m->constraint = means[i];
			return;
		}
	lerror(L, L->in.line, value_column(L), "constraint is perf's NO_GROUP_EVENTS, NO_GROUP_EVENTS_NMI, "
	       "NO_NMI_WATCHDOG or NO_GROUP_EVENTS_SMT, not '%s'", value);
}

/* alternative = yes, no, or another group's name (checked once every group is read). */
static void parse_alternative(struct loader *L, struct prof_group *g, const char *value)
{
	free(g->alternative_to);
	g->alternative_to = prof_parse_bool(value, &g->alternative) ? NULL : xstrdup(value);
	g->alternative_line = L->in.line;
	g->alternative_col = value_column(L);
}

/* perf's mapfile expressions (when = cpuid ~REGEX) must compile: a group whose expression
 * does not would never bind, and say nothing. */
static void check_model_regexes(struct loader *L, const char *name, const char *value, char **values)
{
	for (char **v = values; *v; v++)
		if ((*v)[0] == '~' && regex_refusal(*v + 1))
			lerror(L, L->in.line, value_column(L) + (int)(strstr(value, *v) - value),
			       "%s: '%s' is refused: %s", name, *v + 1, regex_refusal(*v + 1));
		else if ((*v)[0] == '~' && !regex_memo(*v + 1))
			lerror(L, L->in.line, value_column(L) + (int)(strstr(value, *v) - value),
			       "%s: '%s' is not a POSIX extended regular expression", name, *v + 1);
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
			lerror(L, L->in.line, value_column(L), "per must be 'pmu' or 'cpu', not '%s'", value);
	} else if (!strcmp(name, "aggregate")) {
		char **w = str_split(value, NULL);
		for (char **p = w; *p; p++) {
			if (!strcmp(*p, "all"))
				g->aggregate_all = true;
			else if (!strcmp(*p, "socket"))
				g->aggregate_socket = true;
			else
				lerror(L, L->in.line, value_column(L), "aggregate takes 'all' and/or 'socket', not '%s'", *p);
		}
		str_split_free(w);
	} else if (!strcmp(name, "aggregate_suffix")) {
		set_string(&g->aggregate_suffix, value);
	} else if (!strcmp(name, "cpus_of")) {
		set_string(&g->cpus_of, value);
	} else if (!strcmp(name, "weight")) {
		if (!g->weight)
			g->weight = xcalloc(1, sizeof(*g->weight));
		set_string(&g->weight->text, value);
		g->weight->line = L->in.line;
		g->weight->col = value_column(L);
	} else if (!strcmp(name, "blend_suffix")) {
		set_string(&g->blend_suffix, value);
	} else if (!strcmp(name, "grouped")) {
		if (!prof_parse_bool(value, &g->perf_group))
			lerror(L, L->in.line, value_column(L), "grouped must be yes or no");
	} else if (!strcmp(name, "leader")) {
		set_string(&g->leader, value);
	} else if (!strcmp(name, "per_thread")) {
		str_split_free(g->per_thread);
		g->per_thread = str_split(value, NULL);
		g->per_thread_line = L->in.line;
		g->per_thread_col = value_column(L);
	} else {
		return false;
	}
	return true;
}

static void group_key(struct loader *L, const char *name, const char *value)
{
	struct prof_group *g = cur_group(L);
	if (!strcmp(name, "pmu") || !strcmp(name, "instance") || !strcmp(name, "label") || !strcmp(name, "pci_bus"))
		check_braces(L, name, value);
	if (!strcmp(name, "pmu")) {
		set_string(&g->pmu_pattern, value);
	} else if (!strcmp(name, "instance")) {
		set_string(&g->instance, value);
	} else if (!strcmp(name, "label")) {
		set_string(&g->label, value);
	} else if (!strcmp(name, "pci_rc")) {
		set_string(&g->pci_rc, value);
	} else if (!strcmp(name, "pci_bus")) {
		set_string(&g->pci_bus, value);
	} else if (!strcmp(name, "per_bit")) {
		set_string(&g->per_bit, value);
	} else if (!strcmp(name, "title")) {
		set_string(&g->title, value);
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
		append_words(&g->needs, &g->nneeds, value);
	} else if (!strcmp(name, "lacks")) {
		append_words(&g->lacks, &g->nlacks, value);
	} else if (!strcmp(name, "when") || !strcmp(name, "unless")) {
		char ***w = !strcmp(name, "when") ? &g->when : &g->unless;
		str_split_free(*w);
		*w = str_split(value, NULL);
		if (!(*w)[0] || !(*w)[1])
			lerror(L, L->in.line, value_column(L), "%s wants a PMU attribute and one or more values", name);
		check_model_regexes(L, name, value, (*w)[0] ? *w + 1 : *w);
	} else if (!strcmp(name, "alternative")) {
		parse_alternative(L, g, value);
	} else if (!strcmp(name, "notes")) {
		append_words(&g->notes, &g->nnotes, value);
	} else if (!strcmp(name, "exclusive")) {
		parse_exclusive(L, value);
	} else if (!group_counting_key(L, g, name, value)) {
		lerror(L, L->in.line, 0, "unknown key '%s' in [group %s] (known: pmu, instance, label, pci_rc, pci_bus, per_bit, title, events, "
		       "optional, event.NAME, optional.NAME, filter.TERM, choice.FILTER.NAME, attrs, notes, needs, lacks, when, unless, alternative, exclusive, per, aggregate, aggregate_suffix, cpus_of, weight, blend_suffix, grouped, leader, per_thread)",
		       name, g->name);
	}
}

static struct prof_formula *form_named(struct prof_metric *m, const char *group)
{
	for (int i = 0; i < m->nforms; i++)
		if ((!group && i == 0) || (group && i > 0 && m->forms[i].group_name && !strcmp(m->forms[i].group_name, group)))
			return &m->forms[i];
	if (!group && m->nforms == 0) {
		m->forms = xcalloc(1, sizeof(*m->forms));
		m->nforms = 1;
		return &m->forms[0];
	}
	if (!m->nforms) { /* keep forms[0] for 'formula' */
		m->forms = xcalloc(1, sizeof(*m->forms));
		m->nforms = 1;
	}
	m->forms = xrealloc(m->forms, sizeof(*m->forms) * (size_t)(m->nforms + 1));
	struct prof_formula *f = &m->forms[m->nforms++];
	memset(f, 0, sizeof(*f));
	if (group)
		f->group_name = xstrdup(group);
	return f;
}

static void metric_key(struct loader *L, const char *name, const char *value)
{
	struct prof_metric *m = &L->p->metrics[L->index];
	if (!strcmp(name, "formula") || (str_has_prefix(name, "formula@") && name[8])) {
		struct prof_formula *f = form_named(m, name[7] == '@' ? name + 8 : NULL);
		if (f->text) { /* an indented continuation line */
			char *t = xasprintf("%s %s", f->text, value);
			free(f->text);
			f->text = t;
		} else {
			f->text = xstrdup(value);
			f->line = L->in.line;
			f->col = value_column(L);
		}
	} else if (!strcmp(name, "group")) {
		struct prof_formula *f = form_named(m, NULL);
		set_string(&f->group_name, value);
	} else if (!strcmp(name, "unit")) {
		set_string(&m->unit, value);
	} else if (str_has_prefix(name, "threshold@") && name[10]) {
		struct prof_formula *f = form_named(m, name + 10);
		set_string(&f->threshold_text, value);
		f->threshold_line = L->in.line;
		f->threshold_col = value_column(L);
		if (!f->text) { /* where messages point until its formula comes */
			f->line = L->in.line;
			f->col = value_column(L);
		}
	} else if (str_has_prefix(name, "unit@") && name[5]) {
		/* Zen 5's L3 latency: perf's one name, in ns there and in core clocks on Zen 4 */
		struct prof_formula *f = form_named(m, name + 5);
		set_string(&f->unit, value);
		if (!f->text) { /* where messages point until its formula comes */
			f->line = L->in.line;
			f->col = value_column(L);
		}
	} else if (!strcmp(name, "title")) {
		set_string(&m->title, value);
	} else if (!strcmp(name, "max")) {
		char *end;
		m->max = strtod_c(value, &end);
		if (end == value || *end || !(m->max >= 0))
			lerror(L, L->in.line, value_column(L), "max must be a non-negative number, not '%s'", value);
	} else if (!strcmp(name, "groups")) { /* perf's MetricGroup: "TopdownL1;tma_L1_group" */
		str_split_free(m->groups);
		char *copy = xstrdup(value);
		for (char *c = copy; *c; c++)
			if (*c == ';')
				*c = ' ';
		m->groups = str_split(copy, NULL);
		free(copy);
	} else if (!strcmp(name, "description")) {
		set_string(&m->description, value);
	} else if (!strcmp(name, "perf_name")) {
		set_string(&m->perf_name, value);
	} else if (!strcmp(name, "perf")) { /* perf's metrics that are this one, first found first */
		str_split_free(m->perf);
		m->perf = str_split(value, NULL);
		if (!m->perf[0]) {
			lerror(L, L->in.line, value_column(L), "perf = names perf's metrics that are this one (tma_info_thread_ipc ...)");
			str_split_free(m->perf);
			m->perf = NULL;
		}
	} else if (!strcmp(name, "constraint")) {
		parse_constraint(L, m, value);
	} else if (!strcmp(name, "threshold")) {
		set_string(&m->threshold_text, value);
		m->threshold_line = L->in.line;
		m->threshold_col = value_column(L);
	} else if (!strcmp(name, "scale")) {
		char *end;
		m->scale = strtod_c(value, &end);
		if (end == value || *end || !isfinite(m->scale) || m->scale == 0)
			lerror(L, L->in.line, value_column(L), "scale must be a non-zero number (perf's ScaleUnit: 100 for a share in %%), not '%s'",
			       value);
	} else if (!strcmp(name, "alert")) {
		char *end;
		m->alert = strtod_c(value, &end);
		m->has_alert = true;
		if (end == value || *end || isnan(m->alert))
			lerror(L, L->in.line, value_column(L), "alert must be a number (values above it are alarms), not '%s'",
			       value);
	} else {
		lerror(L, L->in.line, 0, "unknown key '%s' in [metric %s] (known: formula, formula@GROUP, group, unit, unit@GROUP, title, description, perf, perf_name, threshold, threshold@GROUP, constraint, groups, scale, max, alert)", name,
		       m->name);
	}
}

static void pane_key(struct loader *L, const char *name, const char *value)
{
	struct prof_pane *pn = &L->p->panes[L->index];
	if (!strcmp(name, "title")) {
		set_string(&pn->title, value);
	} else if (!strcmp(name, "style")) {
		static const char *const styles[] = { "bars", "table", "stacked", "values" };
		bool ok = false;
		for (size_t i = 0; i < ARRAY_SIZE(styles); i++)
			ok |= !strcmp(value, styles[i]);
		if (!ok)
			lerror(L, L->in.line, value_column(L), "style must be bars, table, stacked or values, not '%s'", value);
		set_string(&pn->style, value);
	} else if (!strcmp(name, "metrics")) {
		append_words(&pn->metrics, &pn->nmetrics, value);
		pn->metrics_line = L->in.line;
	} else if (!strcmp(name, "detail")) {
		append_words(&pn->detail, &pn->ndetail, value);
		pn->detail_line = L->in.line;
	} else if (!strcmp(name, "missing")) {
		set_string(&pn->missing, value);
	} else if (!strcmp(name, "letters")) {
		char *l = xcalloc(1, strlen(value) + 1);
		for (const char *s = value; *s; s++)
			if (*s != ' ')
				strncat(l, s, 1);
		free(pn->letters);
		pn->letters = l;
	} else if (!strcmp(name, "hidden")) {
		if (!prof_parse_bool(value, &pn->hidden))
			lerror(L, L->in.line, value_column(L), "hidden must be yes or no");
	} else if (!strcmp(name, "tree_stands_in")) {
		if (!prof_parse_bool(value, &pn->tree_stands_in))
			lerror(L, L->in.line, value_column(L), "tree_stands_in must be yes or no");
	} else {
		lerror(L, L->in.line, 0,
		       "unknown key '%s' in [pane %s] (known: title, style, metrics, detail, letters, missing, hidden, "
		       "tree_stands_in)",
		       name, pn->name);
	}
}

static void profile_key(struct loader *L, const char *name, const char *value)
{
	struct profile *p = L->p;
	if (!strcmp(name, "name")) {
		set_string(&p->name, value);
	} else if (!strcmp(name, "title")) {
		set_string(&p->title, value);
	} else if (!strcmp(name, "requires")) {
		append_words(&p->requires, &p->nrequires, value);
	} else if (!strcmp(name, "fallback")) {
		if (!prof_parse_bool(value, &p->fallback))
			lerror(L, L->in.line, value_column(L), "fallback must be yes or no");
	} else if (!strcmp(name, "always")) {
		if (!prof_parse_bool(value, &p->always))
			lerror(L, L->in.line, value_column(L), "always must be yes or no");
	} else if (!strcmp(name, "when") || !strcmp(name, "unless")) {
		char ***w = !strcmp(name, "when") ? &p->when : &p->unless;
		str_split_free(*w);
		*w = str_split(value, NULL);
		if (!(*w)[0] || (strcmp((*w)[0], "cpuid") && strcmp((*w)[0], "midr_el1")) || !(*w)[1])
			lerror(L, L->in.line, value_column(L), "[profile] %s wants cpuid or midr_el1 and one or more models",
			       name);
		check_model_regexes(L, name, value, (*w)[0] ? *w + 1 : *w);
	} else {
		lerror(L, L->in.line, 0,
		       "unknown key '%s' in [profile] (known: name, title, requires, fallback, always, when, unless)", name);
	}
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct loader *L = user;
	(void)section;
	switch (L->kind) {
	case SEC_PROFILE: profile_key(L, name, value); break;
	case SEC_GROUP: group_key(L, name, value); break;
	case SEC_METRIC: metric_key(L, name, value); break;
	case SEC_PANE: pane_key(L, name, value); break;
	case SEC_NONE: lerror(L, L->in.line, 0, "'%s' outside any section", name); break;
	case SEC_BAD: break; /* already reported at the section header */
	}
	return 1;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			return false;
	return true;
}

/* Called by the reader for every "[...]" line, before inih sees it. */
static void start_section(struct loader *L, char *header)
{
	char *end = strchr(header, ']');
	if (!end) {
		L->kind = SEC_BAD;
		return; /* inih reports it */
	}
	*end = '\0';
	char *s = trim(header + 1);
	char *space = strpbrk(s, " \t");
	char *arg = NULL;
	if (space) {
		*space = '\0';
		arg = trim(space + 1);
	}
	struct profile *p = L->p;
	L->kind = SEC_BAD;
	bool is_profile = !strcmp(s, "profile") && !arg;
	if (L->header_only && !is_profile && L->header_read) {
		L->in.stop = true;
		return;
	}
	if (is_profile) {
		L->kind = SEC_PROFILE;
		L->header_read = !p->ngroups && !p->nmetrics && !p->npanes && !L->header_late;
		return;
	}
	L->header_late = true;
	if (!arg || !valid_name(arg)) {
		lerror(L, L->in.line, 0, "section [%s%s%s] needs a name of letters, digits, '_', '.', '-' "
		       "(sections: [profile], [group NAME], [metric NAME], [pane NAME])", s, arg ? " " : "", arg ? arg : "");
		return;
	}
	int first = profile_section_seen(L, s[0], arg);
	if (first > 0 && (!strcmp(s, "group") || !strcmp(s, "metric") || !strcmp(s, "pane"))) {
		lerror(L, L->in.line, 0, "[%s %s] defined twice (first on line %d)", s, arg, first);
		return;
	}
	if (!strcmp(s, "group")) {
		grow_array(&p->groups, &L->gcap, p->ngroups + 1, sizeof(*p->groups));
		p->groups[p->ngroups] = (struct prof_group){ .name = xstrdup(arg), .line = L->in.line, .perf_group = true };
		profile_section_note(L, 'g', p->groups[p->ngroups].name);
		L->index = p->ngroups++;
		L->kind = SEC_GROUP;
	} else if (!strcmp(s, "metric")) {
		grow_array(&p->metrics, &L->mcap, p->nmetrics + 1, sizeof(*p->metrics));
		p->metrics[p->nmetrics] = (struct prof_metric){ .name = xstrdup(arg), .line = L->in.line, .scale = 1 };
		profile_section_note(L, 'm', p->metrics[p->nmetrics].name);
		L->index = p->nmetrics++;
		L->kind = SEC_METRIC;
	} else if (!strcmp(s, "pane")) {
		grow_array(&p->panes, &L->pcap, p->npanes + 1, sizeof(*p->panes));
		p->panes[p->npanes] = (struct prof_pane){ .name = xstrdup(arg), .line = L->in.line };
		profile_section_note(L, 'p', p->panes[p->npanes].name);
		L->index = p->npanes++;
		L->kind = SEC_PANE;
	} else {
		lerror(L, L->in.line, 0, "unknown section [%s] (sections: [profile], [group NAME], [metric NAME], [pane NAME])", s);
	}
}

static void on_section(void *ctx, char *header)
{
	start_section(ctx, header);
}

static struct profile *load_stream(const char *path, FILE *f, int *nerrors, bool header_only);

struct profile *profile_load(const char *path, int *nerrors)
{
	*nerrors = 0;
	const char *why;
	FILE *f = open_user_file(path, &why);
	if (!f) {
		diag_error("%s: cannot open profile: %s", path, why);
		*nerrors = 1;
		return NULL;
	}
	return load_stream(path, f, nerrors, false);
}

struct profile *profile_load_header(const char *path)
{
	const char *why;
	FILE *f = open_user_file(path, &why);
	int nerrors;
	return f ? load_stream(path, f, &nerrors, true) : NULL;
}

struct profile *profile_load_text(const char *path, const char *text, int *nerrors)
{
	*nerrors = 0;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f) { /* an empty text: fmemopen wants a size */
		f = fopen("/dev/null", "r");
		if (!f) {
			diag_error("%s: cannot read profile text: %s", path, strerror(errno));
			*nerrors = 1;
			return NULL;
		}
	}
	return load_stream(path, f, nerrors, false);
}

/* Takes f. */
static struct profile *load_stream(const char *path, FILE *f, int *nerrors, bool header_only)
{
	struct loader L = { .path = path, .in = { .path = path, .f = f, .section = on_section, .quiet = header_only },
			    .header_only = header_only };
	L.in.ctx = &L;
	L.p = xcalloc(1, sizeof(struct profile));
	L.p->path = xstrdup(path);
	ini_read(&L.in, handler, &L);
	fclose(f);
	ini_reader_free(&L.in);
	free(L.seen);
	if (header_only && (L.in.nerrors || !L.header_read)) {
		profile_free(L.p); /* not a header to trust: the caller reads it whole */
		return NULL;
	}

	struct profile *p = L.p;
	if (!p->name) {
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		size_t n = strlen(base);
		p->name = str_has_suffix(base, ".ini") ? xstrndup(base, n - 4) : xstrdup(base);
	}
	if (!p->title)
		p->title = xstrdup(p->name);
	if (header_only) {
		p->header_only = true;
		*nerrors = 0;
		return p;
	}
	if (!p->ngroups && !p->nmetrics && !L.in.nerrors)
		lerror(&L, L.in.line ? L.in.line : 1, 0, "defines no [group] and no [metric]: it would count nothing");
	profile_check(&L);
	*nerrors = L.in.nerrors;
	if (L.in.nerrors) {
		profile_free(p);
		return NULL;
	}
	return p;
}

static void formula_free(struct prof_formula *f)
{
	free(f->group_name);
	free(f->text);
	free(f->unit);
	free(f->threshold_text);
	expr_free(f->threshold);
	expr_free(f->expr);
	free(f->inputs);
	for (int k = 0; k < f->nimports; k++)
		free(f->imports[k].name);
	free(f->imports);
	free(f->refs);
}

static void metric_free(struct prof_metric *m)
{
	free(m->name);
	for (int j = 0; j < m->nforms; j++)
		formula_free(&m->forms[j]);
	free(m->forms);
	free(m->unit);
	free(m->title);
	free(m->description);
	free(m->perf_name);
	str_split_free(m->perf);
	free(m->threshold_text);
	expr_free(m->threshold);
	str_split_free(m->groups);
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	str_split_free(p->when);
	str_split_free(p->unless);
	for (int i = 0; i < p->ngroups; i++) {
		struct prof_group *g = &p->groups[i];
		free(g->name);
		free(g->title);
		free(g->pmu_pattern);
		free(g->instance);
		free(g->label);
		free(g->pci_rc);
		free(g->pci_bus);
		free(g->per_bit);
		free(g->leader);
		str_split_free(g->per_thread);
		free(g->sets);
		free(g->aggregate_suffix);
		free(g->cpus_of);
		free(g->alternative_to);
		free(g->blend_suffix);
		if (g->weight)
			formula_free(g->weight);
		free(g->weight);
		for (int j = 0; j < g->nevents; j++) {
			free(g->events[j].name);
			free(g->events[j].terms);
		}
		free(g->events);
		for (int j = 0; j < g->nattrs; j++) {
			free(g->attrs[j]);
			free(g->attr_ids[j]);
		}
		free(g->attrs);
		free(g->attr_ids);
		for (int j = 0; j < g->nfilters; j++) {
			free(g->filters[j].term);
			free(g->filters[j].title);
			free(g->filters[j].enable);
			free(g->filters[j].def_name);
			free(g->filters[j].accepts);
			str_split_free(g->filters[j].events);
			str_split_free(g->filters[j].needs);
			for (int c = 0; c < g->filters[j].nchoices; c++) {
				free(g->filters[j].choices[c].name);
				free(g->filters[j].choices[c].terms);
				str_split_free(g->filters[j].choices[c].uses);
				str_split_free(g->filters[j].choices[c].needs);
			}
			free(g->filters[j].range);
			free(g->filters[j].choices);
		}
		free(g->filters);
		for (int j = 0; j < g->nexclusive; j++) {
			str_split_free(g->exclusive[j]);
			free(g->exclusive_why[j]);
		}
		free(g->exclusive_why);
		str_split_free(g->notes);
		str_split_free(g->needs);
		str_split_free(g->lacks);
		str_split_free(g->when);
		str_split_free(g->unless);
		free(g->wanted);
		free(g->exclusive);
	}
	free(p->groups);
	for (int i = 0; i < p->nmetrics; i++)
		metric_free(&p->metrics[i]);
	free(p->metrics);
	free(p->metric_order);
	for (int i = 0; i < p->npanes; i++) {
		free(p->panes[i].name);
		free(p->panes[i].title);
		free(p->panes[i].style);
		for (int j = 0; j < p->panes[i].nmetrics; j++)
			free(p->panes[i].metrics[j]);
		free(p->panes[i].metrics);
		str_split_free(p->panes[i].detail);
		free(p->panes[i].missing);
		free(p->panes[i].letters);
	}
	free(p->panes);
	for (int i = 0; i < p->nrequires; i++)
		free(p->requires[i]);
	free(p->requires);
	free(p->path);
	free(p->name);
	free(p->title);
	free(p);
}
