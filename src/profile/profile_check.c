/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_check.c - a profile read whole is checked: formula names resolve to the
 * group's events, builtins and attributes; metrics name groups that exist; panes name
 * metrics that exist. Every error is reported with its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/expr.h"
#include "base/name_index.h"
#include "base/util.h"
#include "profile/profile.h"
#include "profile/metric_threshold.h"
#include "profile/profile_load.h"
#include "profile/metric_refs.h"

/* Formula names: the group's events, the builtins, the group's declared attributes, and
 * other groups' events as GROUP.EVENT (imports, each naming its group). */
struct name_ctx {
	const struct prof_group *g;
	const struct profile *p;
	struct prof_formula *f;
	struct name_indexes *ix;
	char *why; /* an import that cannot be: said instead of "unknown name" */
};

/* The names formulae resolve, sorted once (perf's Sapphire Rapids resolves thousands of
 * names against hundreds of events and metrics): each group's events, the metrics. */
struct name_indexes {
	struct name_index *events; /* per group */
	struct name_index metrics;
};

static const char *event_name_at(const void *list, int i)
{
	return ((const struct prof_event *)list)[i].name;
}

static const char *metric_name_at(const void *list, int i)
{
	return ((const struct prof_metric *)list)[i].name;
}

static void indexes_build(struct name_indexes *ix, const struct profile *p)
{
	ix->events = xcalloc((size_t)p->ngroups + 1, sizeof(*ix->events));
	for (int i = 0; i < p->ngroups; i++)
		name_index_init(&ix->events[i], p->groups[i].events, p->groups[i].nevents, event_name_at, strcmp);
	name_index_init(&ix->metrics, p->metrics, p->nmetrics, metric_name_at, strcmp);
}

static void indexes_free(struct name_indexes *ix, const struct profile *p)
{
	for (int i = 0; i < p->ngroups; i++)
		name_index_free(&ix->events[i]);
	free(ix->events);
	name_index_free(&ix->metrics);
}

static const char *const interval_names[VAR_FACTS] = { "elapsed_ns", "elapsed_s", "ncpus" };

static const char *builtin_name(int i)
{
	return i < VAR_FACTS ? interval_names[i] : machine_fact_name((enum machine_fact)(i - VAR_FACTS));
}

int group_nvars(const struct prof_group *g)
{
	return g->nevents + VAR_NBUILTINS + g->nattrs;
}

struct fact_use {
	int first, last; /* the slots of the machine's literals */
	bool any;
};

static void note_fact(void *ctx, int slot)
{
	struct fact_use *u = ctx;
	u->any |= slot >= u->first && slot < u->last;
}

bool group_expr_reads_facts(const struct prof_group *g, const struct expr *e)
{
	struct fact_use u = { g->nevents + VAR_FACTS, g->nevents + VAR_NBUILTINS, false };
	if (e)
		expr_foreach_var(e, note_fact, &u);
	return u.any;
}

int group_attr_slot(const struct prof_group *g, int attr_index)
{
	return g->nevents + VAR_NBUILTINS + attr_index;
}


static const char *known_name(void *ctx, int i)
{
	const struct name_ctx *nc = ctx;
	const struct prof_group *g = nc->g;
	if (i < g->nevents)
		return g->events[i].name;
	i -= g->nevents;
	if (i < VAR_NBUILTINS)
		return builtin_name(i);
	i -= VAR_NBUILTINS;
	if (i < g->nattrs)
		return g->attr_ids[i];
	i -= g->nattrs;
	return i < nc->f->nimports ? nc->f->imports[i].name : NULL;
}

static int find_group(const struct profile *p, const char *name)
{
	for (int i = 0; i < p->ngroups; i++)
		if (!strcmp(p->groups[i].name, name))
			return i;
	return -1;
}

/* GROUP.EVENT of another group of the profile: its import slot, or -1. */
static int resolve_import(struct name_ctx *nc, const char *name)
{
	const char *dot = strchr(name, '.');
	if (!dot)
		return -1;
	char *gname = xstrndup(name, (size_t)(dot - name));
	int og = find_group(nc->p, gname);
	free(gname);
	if (og < 0 || &nc->p->groups[og] == nc->g)
		return -1;
	struct prof_formula *f = nc->f;
	const struct prof_group *o = &nc->p->groups[og];
	for (int e = 0; e < o->nevents + VAR_NBUILTINS; e++) {
		/* an event of the other group, or one of its instance's builtins (clock.ncpus: how
		 * many CPUs its same-named instance sums, where this group's counts on fewer) */
		if (strcmp(e < o->nevents ? o->events[e].name : builtin_name(e - o->nevents), dot + 1))
			continue;
		for (int k = 0; k < f->nimports; k++)
			if (!strcmp(f->imports[k].name, name))
				return group_nvars(nc->g) + k;
		if (f->nimports == FORMULA_MAX_IMPORTS) {
			free(nc->why);
			nc->why = xasprintf("'%s': a formula reads at most %d events of another group", name, FORMULA_MAX_IMPORTS);
			return -1;
		}
		f->imports = xrealloc(f->imports, sizeof(*f->imports) * (size_t)(f->nimports + 1));
		f->imports[f->nimports] = (struct prof_import){ xstrdup(name), og, e };
		return group_nvars(nc->g) + f->nimports++;
	}
	return -1;
}

static int resolve_name(void *ctx, const char *name)
{
	struct name_ctx *nc = ctx;
	const struct prof_group *g = nc->g;
	int e = name_index_find(&nc->ix->events[g - nc->p->groups], name);
	if (e >= 0)
		return e;
	for (int i = 0; i < VAR_NBUILTINS; i++) /* perf's literals: #SMT_on too */
		if (name[0] == '#' ? !strcasecmp(builtin_name(i), name) : !strcmp(builtin_name(i), name))
			return g->nevents + i;
	if (!strcmp(name, "duration_time")) /* perf's tool event: the interval, in seconds */
		return g->nevents + VAR_ELAPSED_S;
	for (int i = 0; i < g->nattrs; i++)
		if (!strcmp(g->attr_ids[i], name))
			return group_attr_slot(g, i);
	int slot = resolve_import(nc, name);
	int mi = slot < 0 && !nc->why && nc->f->group >= 0 ? name_index_find(&nc->ix->metrics, name) : -1;
	if (mi >= 0) /* another metric of the group, by name */
		slot = metric_ref_slot(nc->p, nc->f, mi, group_nvars(g) + FORMULA_MAX_IMPORTS);
	return slot;
}

static int filter_index(const struct prof_group *g, const char *term)
{
	for (int j = 0; j < g->nfilters; j++)
		if (!strcmp(g->filters[j].term, term))
			return j;
	return -1;
}

static bool is_event(const struct prof_group *g, const char *name)
{
	for (int e = 0; e < g->nevents; e++)
		if (!strcmp(g->events[e].name, name) || !strcmp(g->events[e].terms, name))
			return true;
	return false;
}

/* What the keys of this round name must exist: events= and per_bit events, the filters
 * choices use or need, per_bit's mask filter; pci_rc wants two captures. */
static void check_group_names(struct loader *L, struct prof_group *g)
{
	for (int i = 0; i < g->nfilters; i++) {
		const struct prof_filter *f = &g->filters[i];
		for (char **e = f->events; e && *e; e++)
			if (!is_event(g, *e))
				lerror(L, f->line, 0, "filter '%s': events= names '%s', which is not an event of [group %s]", f->term,
				       *e, g->name);
		if (f->range && !strstr(f->range, ".."))
			lerror(L, f->line, 0, "filter '%s': range= wants MIN..MAX (numbers or PMU attributes), not '%s'", f->term,
			       f->range);
		for (char **u = f->needs; u && *u; u++)
			if (filter_index(g, *u) < 0 || !strcmp(*u, f->term))
				lerror(L, f->line, 0, "filter '%s': needs= names '%s', which is not another filter of [group %s]",
				       f->term, *u, g->name);
		for (int c = 0; c < f->nchoices; c++) {
			for (char **u = f->choices[c].uses; u && *u; u++)
				if (filter_index(g, *u) < 0)
					lerror(L, f->choices[c].line, 0, "choice '%s': uses= names '%s', which is not a filter of [group %s]",
					       f->choices[c].name, *u, g->name);
			for (char **u = f->choices[c].needs; u && *u; u++)
				if (filter_index(g, *u) < 0)
					lerror(L, f->choices[c].line, 0, "choice '%s': needs= names '%s', which is not a filter of [group %s]",
					       f->choices[c].name, *u, g->name);
		}
	}
	if (g->per_bit) {
		char **w = str_split(g->per_bit, NULL);
		int f = w[0] ? filter_index(g, w[0]) : -1;
		if (f < 0 || g->filters[f].type != FILTER_MASK)
			lerror(L, g->line, 0, "[group %s]: per_bit wants a mask filter of the group first, not '%s'", g->name,
			       w[0] ? w[0] : "");
		for (char **e = w[0] ? w + 1 : w; *e; e++)
			if (!is_event(g, *e))
				lerror(L, g->line, 0, "[group %s]: per_bit names '%s', which is not one of its events", g->name, *e);
		str_split_free(w);
	}
	if (g->pci_rc) {
		int n = 0;
		for (const char *p = g->pci_rc; (p = strchr(p, '{')); p++)
			n++;
		if (n != 2)
			lerror(L, g->line, 0, "[group %s]: pci_rc wants two captures, {socket} {rc}, not '%s'", g->name, g->pci_rc);
	}
}

static void check_group(struct loader *L, struct prof_group *g)
{
	check_group_names(L, g);
	if (!g->pmu_pattern)
		lerror(L, g->line, 0, "[group %s] has no 'pmu =' (the sysfs PMU name or pattern it counts on)", g->name);
	if (!g->nevents)
		lerror(L, g->line, 0, "[group %s] has no events", g->name);
	if (g->leader) {
		bool found = false;
		for (int i = 0; i < g->nevents; i++)
			found |= !strcmp(g->events[i].name, g->leader);
		if (!found)
			lerror(L, g->line, 0, "[group %s]: leader '%s' is not one of its events", g->name, g->leader);
	}
	for (char **w = g->per_thread; w && *w; w++) {
		int i = 0;
		while (i < g->nevents && strcmp(g->events[i].name, *w))
			i++;
		if (i < g->nevents)
			g->events[i].per_thread = true;
		else
			lerror(L, g->per_thread_line, g->per_thread_col, "[group %s]: per_thread names '%s', not one of its events", g->name, *w);
	}
	for (int i = 0; i < g->nfilters; i++) {
		struct prof_filter *f = &g->filters[i];
		if (f->type != FILTER_ENUM)
			continue;
		if (!f->nchoices)
			lerror(L, f->line, 0, "[group %s]: enum filter '%s' has no choice.%s.NAME lines", g->name, f->term, f->term);
		char *err;
		f->has_default = true; /* an enum always has a choice: the first unless default= */
		if (f->def_name && f->nchoices && !filter_parse_value(f, f->def_name, &f->def, &err)) {
			lerror(L, f->line, 0, "filter '%s': default %s", f->term, err);
			free(err);
		}
	}
	for (int i = 0; i < g->nexclusive; i++)
		for (char **t = g->exclusive[i]; *t; t++) {
			bool found = false;
			for (int j = 0; j < g->nfilters; j++)
				found |= !strcmp(g->filters[j].term, *t);
			if (!found)
				lerror(L, g->line, 0, "[group %s]: exclusive names '%s', which is not a filter of the group", g->name, *t);
		}
}

struct input_ctx {
	struct prof_formula *f;
	int nevents;
};

static void note_input(void *ctx, int slot)
{
	struct input_ctx *ic = ctx;
	if (slot >= ic->nevents) /* builtins and attributes are always there */
		return;
	ic->f->inputs = xrealloc(ic->f->inputs, sizeof(int) * (size_t)(ic->f->ninputs + 1));
	ic->f->inputs[ic->f->ninputs++] = slot;
}

/* A form's group and text: what compiling it needs settled for every metric first. */
static void settle_form(struct loader *L, struct prof_metric *m, struct prof_formula *f, bool primary)
{
	if (primary && !f->group_name) {
		const char *dot = strchr(m->name, '.');
		if (dot)
			f->group_name = xstrndup(m->name, (size_t)(dot - m->name));
	}
	f->group = f->group_name ? find_group(L->p, f->group_name) : -1;
	if (f->group < 0) {
		lerror(L, f->line ? f->line : m->line, 0, "[metric %s]: no group '%s' (name it with 'group =' or as GROUP.metric)",
		       m->name, f->group_name ? f->group_name : "");
		return;
	}
	if (!f->text && (f->unit || f->threshold_text)) { /* a unit@ or threshold@GROUP, no formula@GROUP */
		const char *key = f->unit ? "unit" : "threshold";
		lerror(L, f->line, 0, "[metric %s]: %s@%s without formula@%s (the %s of the metric's own group is '%s =')",
		       m->name, key, f->group_name, f->group_name, key, key);
		return;
	}
	for (struct prof_formula *o = m->forms; o < f; o++)
		if (o->group == f->group && o->text) {
			lerror(L, f->line, 0, "[metric %s]: two formulae for group '%s'", m->name, f->group_name);
			f->group = -1; /* said: not compiled */
			return;
		}
	if (!f->text && !(primary && m->perf)) { /* perf's alone: a value where the catalogue has it */
		lerror(L, m->line, 0, "[metric %s] has no formula%s%s", m->name, primary ? "" : " for group ",
		       primary ? "" : f->group_name);
		return;
	}
}

/* Compiles a settled form: every metric's groups are known by now, so a formula may read
 * a metric defined below it. */
static void compile_form(struct loader *L, struct name_indexes *ix, struct prof_formula *f)
{
	if (f->group < 0 || !f->text)
		return;
	struct name_ctx ctx = { &L->p->groups[f->group], L->p, f, ix, NULL };
	struct expr_names names = { resolve_name, known_name, &ctx };
	char *err;
	int col;
	f->expr = expr_compile(f->text, &names, &err, &col);
	if (!f->expr) {
		lerror(L, f->line, f->col + col - 1, "%s", ctx.why ? ctx.why : err);
		free(err);
		free(ctx.why);
		return;
	}
	free(ctx.why);
	struct input_ctx ic = { f, L->p->groups[f->group].nevents };
	expr_foreach_var(f->expr, note_input, &ic);
}

/* A group's weight (weight =): a formula of its own events, on its sums. */
static void check_weight(struct loader *L, struct name_indexes *ix, struct prof_group *g)
{
	struct prof_formula *f = g->weight;
	if (!f) {
		if (g->blend_suffix)
			lerror(L, g->line, 0, "[group %s]: blend_suffix without weight (it names the sums that blend)", g->name);
		return;
	}
	if (!g->aggregate_all && !g->aggregate_socket)
		lerror(L, f->line, f->col, "[group %s]: weight without aggregate (what blends are its sums)", g->name);
	f->group = (int)(g - L->p->groups);
	struct name_ctx ctx = { g, L->p, f, ix, NULL };
	struct expr_names names = { resolve_name, known_name, &ctx };
	char *err;
	int col;
	f->expr = expr_compile(f->text, &names, &err, &col);
	if (f->expr && (f->nimports || f->nrefs)) {
		lerror(L, f->line, f->col, "[group %s]: a weight reads the group's own events, not %s", g->name,
		       f->nimports ? f->imports[0].name : L->p->metrics[f->refs[0]].name);
	} else if (!f->expr) {
		lerror(L, f->line, f->col + col - 1, "%s", ctx.why ? ctx.why : err);
		free(err);
	} else {
		struct input_ctx ic = { f, g->nevents };
		expr_foreach_var(f->expr, note_input, &ic);
	}
	free(ctx.why);
}

static void settle_metric(struct loader *L, struct prof_metric *m)
{
	if (!m->nforms && m->perf) { /* perf's alone, on the group its name says */
		m->forms = xcalloc(1, sizeof(*m->forms));
		m->nforms = 1;
	}
	if (!m->nforms) {
		lerror(L, m->line, 0, "[metric %s] has no formula", m->name);
	} else if (!m->forms[0].text && m->nforms > 1) {
		/* only formula@GROUP lines: drop the empty primary */
		free(m->forms[0].group_name);
		memmove(&m->forms[0], &m->forms[1], sizeof(*m->forms) * (size_t)(m->nforms - 1));
		m->nforms--;
		for (int i = 0; i < m->nforms; i++)
			settle_form(L, m, &m->forms[i], false);
	} else {
		for (int i = 0; i < m->nforms; i++)
			settle_form(L, m, &m->forms[i], i == 0);
	}
	if (!m->unit)
		m->unit = xstrdup("");
	for (int i = 0; i < m->nforms; i++) /* each form's own; binding settles the metric's */
		if (!m->forms[i].unit)
			m->forms[i].unit = xstrdup(m->unit);
	if (!m->title)
		m->title = xstrdup(m->name);
}

int metric_form_index(const struct prof_metric *m, int g)
{
	for (int i = 0; i < m->nforms; i++)
		if (m->forms[i].group == g && (m->forms[i].expr || (m->perf && !m->forms[i].text))) /* or perf's alone */
			return i;
	return -1;
}

const struct prof_formula *metric_form(const struct prof_metric *m, int g)
{
	int i = metric_form_index(m, g);
	return i < 0 ? NULL : &m->forms[i];
}

static void check_pane(struct loader *L, struct prof_pane *pn)
{
	for (int i = 0; i < pn->nmetrics + pn->ndetail; i++) {
		const char *want = i < pn->nmetrics ? pn->metrics[i] : pn->detail[i - pn->nmetrics];
		bool found = false;
		for (int j = 0; j < L->p->nmetrics && !found; j++)
			found = !strcmp(L->p->metrics[j].name, want);
		if (!found)
			lerror(L, i < pn->nmetrics ? pn->metrics_line : pn->detail_line, 0, "[pane %s]: no metric '%s'",
			       pn->name, want);
	}
	bool other = false;
	for (int j = 0; pn->instead_of && j < L->p->npanes && !other; j++)
		other = &L->p->panes[j] != pn && !strcmp(L->p->panes[j].name, pn->instead_of);
	if (pn->instead_of && !other)
		lerror(L, pn->instead_of_line, 0, "[pane %s]: instead_of: no other pane '%s' in this profile", pn->name,
		       pn->instead_of);
	else if (pn->instead_of && !pn->hidden)
		lerror(L, pn->instead_of_line, 0, "[pane %s]: instead_of is for a hidden pane (setup offers it)",
		       pn->name);
	if (!pn->style)
		pn->style = xstrdup("values");
	if (!pn->title)
		pn->title = xstrdup(pn->name);
}

/* alternative = GROUP: another group of the profile (where it binds, this one is not
 * missing). */
static void check_alternative(struct loader *L, struct prof_group *g)
{
	g->alternative_group = -1;
	if (!g->alternative_to)
		return;
	int og = find_group(L->p, g->alternative_to);
	if (og < 0 || &L->p->groups[og] == g)
		lerror(L, g->alternative_line, g->alternative_col, "[group %s]: alternative is yes, no or another group of the profile, not '%s'",
		       g->name, g->alternative_to);
	g->alternative_group = og;
}

void profile_check(struct loader *L)
{
	struct profile *p = L->p;
	for (int i = 0; i < p->ngroups; i++) {
		check_group(L, &p->groups[i]);
		check_alternative(L, &p->groups[i]);
	}
	for (int i = 0; i < p->nmetrics; i++)
		settle_metric(L, &p->metrics[i]);
	struct name_indexes ix;
	indexes_build(&ix, p);
	for (int i = 0; i < p->ngroups; i++)
		check_weight(L, &ix, &p->groups[i]);
	for (int i = 0; i < p->nmetrics; i++)
		for (int k = 0; k < p->metrics[i].nforms; k++)
			compile_form(L, &ix, &p->metrics[i].forms[k]);
	indexes_free(&ix, p);
	metric_thresholds_compile(L, p);
	int cycle = 0, through = 0;
	p->metric_order = metric_order(p, &cycle, &through);
	if (!p->metric_order)
		lerror(L, p->metrics[cycle].line, 0, "[metric %s] reads %s, which reads it again (through the metrics it reads)",
		       p->metrics[cycle].name, p->metrics[through].name);
	for (int i = 0; i < p->npanes; i++)
		check_pane(L, &p->panes[i]);
}
