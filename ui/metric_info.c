/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_info.c - what the focused metric is (F1, i, ?): perf's description, its unit
 * and groups, its formula on the focused instance with this interval's inputs, its
 * threshold and whether it is past it, and the events it reads as they were opened (the
 * instance's PMU, its config). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mode.h"
#include "tui.h"
#include "base/util.h"
#include "profile/metric_threshold.h"

struct lines {
	int n, cap;
	char **text;
};

static void add(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	grow_array(&l->text, &l->cap, l->n + 1, sizeof(char *));
	l->text[l->n++] = xstrdup(buf);
}

/* The interval's delta of group event e on instance in (an aggregate: its members'). */
static double event_delta(const struct frame *f, int in, int e, int *counters)
{
	const struct instance_info *ii = &f->iinfo[in];
	double sum = 0;
	if (ii->nmembers) {
		for (int k = 0; k < ii->nmembers; k++)
			sum += event_delta(f, ii->members[k], e, counters);
		return sum;
	}
	for (int c = ii->first_counter; c < ii->first_counter + ii->ncounters; c++)
		if (f->cinfo[c].event == e) {
			sum += f->counters[c].delta;
			(*counters)++;
		}
	return sum;
}

/* The first counter of group event e under instance in (its members' for an aggregate),
 * or NULL where none counts it. */
static const struct counter_info *first_counter_of(const struct frame *f, int in, int e)
{
	const struct instance_info *ii = &f->iinfo[in];
	for (int k = 0; k < ii->nmembers; k++) {
		const struct counter_info *c = first_counter_of(f, ii->members[k], e);
		if (c)
			return c;
	}
	for (int c = ii->first_counter; c < ii->first_counter + ii->ncounters; c++)
		if (f->cinfo[c].event == e)
			return &f->cinfo[c];
	return NULL;
}

/* The PMU an instance's counters are on: its own, its members' where they share one
 * (a socket's CPUs), else the group's pattern (a socket's CHA boxes). */
static const char *pmu_of(const struct frame *f, int in, const char *pattern)
{
	const struct instance_info *ii = &f->iinfo[in];
	if (!ii->nmembers)
		return ii->pmu ? ii->pmu : pattern;
	const char *first = pmu_of(f, ii->members[0], pattern);
	for (int k = 1; k < ii->nmembers; k++)
		if (strcmp(pmu_of(f, ii->members[k], pattern), first))
			return pattern;
	return first;
}

/* "PMU/terms/ (config=0x..)": the event as opened on the instance. */
static void event_line(struct lines *l, const struct frame *f, int in, const char *name, const struct prof_group *g,
		       int e)
{
	int nc = 0;
	double d = event_delta(f, in, e, &nc);
	char num[24], u[16], config[40] = "";
	format_human(d, "", num, sizeof(num), u, sizeof(u));
	const struct counter_info *c = first_counter_of(f, in, e);
	if (c && c->config)
		snprintf(config, sizeof(config), " (config=%#llx)", (unsigned long long)c->config[0]);
	add(l, "    %-28s %s/%s/%s  %s%s", name, pmu_of(f, in, g->pmu_pattern), g->events[e].terms, config,
	    nc ? num : "not counted", u);
}

static const char *value_of(struct tui *t, int slot, const char *unit, char *buf, size_t len)
{
	enum role r;
	cell_text(t, slot, unit, buf, len, &r);
	return buf;
}

/* The form's inputs: each event with its encoding and this interval's delta, each metric
 * it reads by name with its value here. */
static void inputs(struct tui *t, struct lines *l, const struct prof_formula *f, int in, int vslot)
{
	const struct frame *fr = t->f;
	const struct prof_group *g = fr->iinfo[in].group;
	for (int i = 0; i < f->ninputs; i++)
		event_line(l, fr, in, g->events[f->inputs[i]].name, g, f->inputs[i]);
	for (int i = 0; i < f->nimports; i++) { /* another group's event: on its instance of this name */
		const struct prof_group *ig = &fr->profiles[fr->vinfo[vslot].profile]->groups[f->imports[i].group];
		if (f->imports[i].event >= ig->nevents)
			continue; /* its instance's CPU count (clock.ncpus), not an event */
		int partner = -1;
		for (int k = 0; k < fr->ninstances && partner < 0; k++)
			if (fr->iinfo[k].group == ig && !strcmp(fr->iinfo[k].name, fr->iinfo[in].name))
				partner = k;
		if (partner >= 0)
			event_line(l, fr, partner, f->imports[i].name, ig, f->imports[i].event);
		else
			add(l, "    %-28s %s/%s/  not counted", f->imports[i].name, ig->pmu_pattern,
			    ig->events[f->imports[i].event].terms);
	}
	for (int i = 0; fr->vinfo[vslot].refs && i < f->nrefs; i++) {
		char v[64];
		const struct prof_metric *rm = &fr->profiles[fr->vinfo[vslot].profile]->metrics[f->refs[i]];
		add(l, "    %-28s %s", rm->name, value_of(t, fr->vinfo[vslot].refs[i], rm->unit, v, sizeof(v)));
	}
}

static void collect(struct tui *t, const struct metric_view *mv, struct lines *l)
{
	const struct frame *fr = t->f;
	const struct upane *p = &t->panes[mv->pane];
	const struct prof_metric *m = p->metrics[mv->metric];
	int slot = -1;
	for (int i = 0; i < p->ninst && slot < 0; i++)
		if (p->inst[i] == mv->inst)
			slot = p->slot[i * p->nmetrics + mv->metric];
	char v[64];
	add(l, "%s%s%s   on %s: %s", m->name, m->perf_name ? "   perf: " : "", m->perf_name ? m->perf_name : "",
	    fr->iinfo[mv->inst].name, slot >= 0 ? value_of(t, slot, m->unit, v, sizeof(v)) : "n/a");
	if (m->description)
		add(l, "%s", m->description);
	else if (m->title && strcmp(m->title, m->name))
		add(l, "%s", m->title);
	add(l, "unit: %s%s", m->unit[0] ? m->unit : "(none)", m->scale != 1 ? "  (the formula's value times its scale)" : "");
	if (m->groups) {
		char buf[512] = "";
		for (char **g = m->groups; *g; g++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s", *g);
		add(l, "perf's groups:%s", buf);
	}
	const char *threshold = metric_threshold_text(m, slot >= 0 ? fr->vinfo[slot].form : 0);
	if (threshold) { /* this kind of core's, on a hybrid */
		int past = slot >= 0 ? fr->values[slot].past : -1; /* the sampler's verdict */
		add(l, "threshold (perf's): %s   %s", threshold,
		    past == 1 ? "past it here: a bottleneck" : past == 0 ? "not past it here" : "(not known here)");
	}
	if (m->constraint != CONSTRAINT_NONE) /* perf's MetricConstraint: pmutop never groups them */
		add(l, "perf groups its events: %s; pmutop counts them ungrouped",
		    m->constraint == CONSTRAINT_NO_GROUP ? "never (NO_GROUP_EVENTS)"
		    : m->constraint == CONSTRAINT_NO_GROUP_NMI ? "not while the NMI watchdog runs (NO_GROUP_EVENTS_NMI)"
							      : "not with SMT on (NO_GROUP_EVENTS_SMT)");
	if (slot < 0)
		return;
	int in = mv->inst;
	if (fr->vinfo[slot].perf_slot) { /* perf's definition for this CPU: its formula, its events */
		slot = fr->vinfo[slot].perf_slot - 1;
		const struct value_info *pv = &fr->vinfo[slot];
		in = pv->instance;
		add(l, "defined here as perf's %s (%s):%s%s", pv->m->name, fr->profiles[pv->profile]->name,
		    pv->m->description ? " " : "", pv->m->description ? pv->m->description : "");
		m = pv->m;
	}
	const struct prof_formula *f = &m->forms[fr->vinfo[slot].form];
	add(l, "formula (group %s): %s", f->group_name ? f->group_name : "?", f->text ? f->text : "(perf's alone)");
	add(l, "  reads, this interval:");
	inputs(t, l, f, in, slot);
}

static void metric_draw(struct tui *t)
{
	struct metric_view *mv = t->mode_data;
	struct lines l = { 0 };
	collect(t, mv, &l);
	int iy, ix, iw, ih;
	crt_box(term_cols - 4, term_lines - 4, "The metric (F1 h: keys, Esc closes, arrows/PgUp/PgDn/Home/End scroll)",
		&iy, &ix, &iw, &ih);
	struct text_rows rows = { 0 };
	for (int i = 0; i < l.n; i++)
		text_rows_add(&rows, iw, NULL, 0, l.text[i]);
	mv->v.rows = rows.n;
	text_rows_draw(&rows, &mv->v, 0, iy, ix, iw, ih);
	text_rows_free(&rows);
	for (int i = 0; i < l.n; i++)
		free(l.text[i]);
	free(l.text);
}

static void metric_key(struct tui *t, int key)
{
	struct metric_view *mv = t->mode_data;
	if (text_rows_scroll(&mv->v, mv->v.rows, key))
		return;
	if (key == KEY_F(1) || key == 'h') /* context help first, the keys' help next */
		ui_mode_enter(t, &help_mode, xcalloc(1, sizeof(struct scroll_view)));
	else
		ui_mode_leave(t);
}

const struct ui_mode metric_mode = { "metric", metric_draw, metric_key, NULL };
