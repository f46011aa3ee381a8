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
	lerror(L, L->in.line, prof_value_column(L), "constraint is perf's NO_GROUP_EVENTS, NO_GROUP_EVENTS_NMI, "
	       "NO_NMI_WATCHDOG or NO_GROUP_EVENTS_SMT, not '%s'", value);
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
			f->col = prof_value_column(L);
		}
	} else if (!strcmp(name, "group")) {
		struct prof_formula *f = form_named(m, NULL);
		prof_set_string(&f->group_name, value);
	} else if (!strcmp(name, "unit")) {
		prof_set_string(&m->unit, value);
	} else if (str_has_prefix(name, "threshold@") && name[10]) {
		struct prof_formula *f = form_named(m, name + 10);
		prof_set_string(&f->threshold_text, value);
		f->threshold_line = L->in.line;
		f->threshold_col = prof_value_column(L);
		if (!f->text) { /* where messages point until its formula comes */
			f->line = L->in.line;
			f->col = prof_value_column(L);
		}
	} else if (str_has_prefix(name, "unit@") && name[5]) {
		/* Zen 5's L3 latency: perf's one name, in ns there and in core clocks on Zen 4 */
		struct prof_formula *f = form_named(m, name + 5);
		prof_set_string(&f->unit, value);
		if (!f->text) { /* where messages point until its formula comes */
			f->line = L->in.line;
			f->col = prof_value_column(L);
		}
	} else if (!strcmp(name, "title")) {
		prof_set_string(&m->title, value);
	} else if (!strcmp(name, "max")) {
		char *end;
		m->max = strtod_c(value, &end);
		if (end == value || *end || !(m->max >= 0))
			lerror(L, L->in.line, prof_value_column(L), "max must be a non-negative number, not '%s'", value);
	} else if (!strcmp(name, "groups")) { /* perf's MetricGroup: "TopdownL1;tma_L1_group" */
		str_split_free(m->groups);
		char *copy = xstrdup(value);
		for (char *c = copy; *c; c++)
			if (*c == ';')
				*c = ' ';
		m->groups = str_split(copy, NULL);
		free(copy);
	} else if (!strcmp(name, "description")) {
		prof_set_string(&m->description, value);
	} else if (!strcmp(name, "perf_name")) {
		prof_set_string(&m->perf_name, value);
	} else if (!strcmp(name, "perf")) { /* perf's metrics that are this one, first found first */
		str_split_free(m->perf);
		m->perf = str_split(value, NULL);
		if (!m->perf[0]) {
			lerror(L, L->in.line, prof_value_column(L), "perf = names perf's metrics that are this one (tma_info_thread_ipc ...)");
			str_split_free(m->perf);
			m->perf = NULL;
		}
	} else if (!strcmp(name, "constraint")) {
		parse_constraint(L, m, value);
	} else if (!strcmp(name, "threshold")) {
		prof_set_string(&m->threshold_text, value);
		m->threshold_line = L->in.line;
		m->threshold_col = prof_value_column(L);
	} else if (!strcmp(name, "scale")) {
		char *end;
		m->scale = strtod_c(value, &end);
		if (end == value || *end || !isfinite(m->scale) || m->scale == 0)
			lerror(L, L->in.line, prof_value_column(L), "scale must be a non-zero number (perf's ScaleUnit: 100 for a share in %%), not '%s'",
			       value);
	} else if (!strcmp(name, "alert")) {
		char *end;
		m->alert = strtod_c(value, &end);
		m->has_alert = true;
		if (end == value || *end || isnan(m->alert))
			lerror(L, L->in.line, prof_value_column(L), "alert must be a number (values above it are alarms), not '%s'",
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
		prof_set_string(&pn->title, value);
	} else if (!strcmp(name, "style")) {
		static const char *const styles[] = { "bars", "table", "stacked", "values" };
		bool ok = false;
		for (size_t i = 0; i < ARRAY_SIZE(styles); i++)
			ok |= !strcmp(value, styles[i]);
		if (!ok)
			lerror(L, L->in.line, prof_value_column(L), "style must be bars, table, stacked or values, not '%s'", value);
		prof_set_string(&pn->style, value);
	} else if (!strcmp(name, "metrics")) {
		prof_append_words(&pn->metrics, &pn->nmetrics, value);
		pn->metrics_line = L->in.line;
	} else if (!strcmp(name, "detail")) {
		prof_append_words(&pn->detail, &pn->ndetail, value);
		pn->detail_line = L->in.line;
	} else if (!strcmp(name, "missing")) {
		prof_set_string(&pn->missing, value);
	} else if (!strcmp(name, "letters")) {
		char *l = xcalloc(1, strlen(value) + 1);
		for (const char *s = value; *s; s++)
			if (*s != ' ')
				strncat(l, s, 1);
		free(pn->letters);
		pn->letters = l;
	} else if (!strcmp(name, "hidden")) {
		if (!prof_parse_bool(value, &pn->hidden))
			lerror(L, L->in.line, prof_value_column(L), "hidden must be yes or no");
	} else if (!strcmp(name, "instead_of")) {
		prof_set_string(&pn->instead_of, value);
		pn->instead_of_line = L->in.line;
	} else if (!strcmp(name, "tree_stands_in")) {
		if (!prof_parse_bool(value, &pn->tree_stands_in))
			lerror(L, L->in.line, prof_value_column(L), "tree_stands_in must be yes or no");
	} else {
		lerror(L, L->in.line, 0,
		       "unknown key '%s' in [pane %s] (known: title, style, metrics, detail, letters, missing, hidden, "
		       "instead_of, tree_stands_in)",
		       name, pn->name);
	}
}

static void profile_key(struct loader *L, const char *name, const char *value)
{
	struct profile *p = L->p;
	if (!strcmp(name, "name")) {
		prof_set_string(&p->name, value);
	} else if (!strcmp(name, "title")) {
		prof_set_string(&p->title, value);
	} else if (!strcmp(name, "requires")) {
		prof_append_words(&p->requires, &p->nrequires, value);
	} else if (!strcmp(name, "fallback")) {
		if (!prof_parse_bool(value, &p->fallback))
			lerror(L, L->in.line, prof_value_column(L), "fallback must be yes or no");
	} else if (!strcmp(name, "always")) {
		if (!prof_parse_bool(value, &p->always))
			lerror(L, L->in.line, prof_value_column(L), "always must be yes or no");
	} else if (!strcmp(name, "when") || !strcmp(name, "unless")) {
		char ***w = !strcmp(name, "when") ? &p->when : &p->unless;
		str_split_free(*w);
		*w = str_split(value, NULL);
		if (!(*w)[0] || (strcmp((*w)[0], "cpuid") && strcmp((*w)[0], "midr_el1")) || !(*w)[1])
			lerror(L, L->in.line, prof_value_column(L), "[profile] %s wants cpuid or midr_el1 and one or more models",
			       name);
		prof_check_model_regexes(L, name, value, (*w)[0] ? *w + 1 : *w);
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
	case SEC_GROUP: profile_group_key(L, name, value); break;
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
		free(p->panes[i].instead_of);
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
