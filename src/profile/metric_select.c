/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_select.c - -M: chosen metrics, what they read, and the events they need. */
#include "profile/metric_select.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/suggest.h"
#include "base/util.h"
#include "profile/profile_match.h"
#include "profile/profile.h"
#include "machine/pmu.h"

static bool names_metric(const struct prof_metric *m, const char *word)
{
	if (!strcasecmp(m->name, word) || (m->perf_name && !strcasecmp(m->perf_name, word)))
		return true;
	for (char **g = m->groups; g && *g; g++)
		if (!strcasecmp(*g, word))
			return true;
	return false;
}

/* "; did you mean 'X'?" for the metric or metric group nearest word (a typo), or where
 * word is Intel's TopDown level on a CPU whose perf metrics name it otherwise (AMD's
 * PipelineL1 for TopdownL1), that; else "" (static). */
static const char *nearest_name(struct profile **ps, int n, const char *word)
{
	static char text[200];
	struct suggest sg;
	suggest_init(&sg, word);
	char level[32] = "";
	int l;
	if (sscanf(word, "TopdownL%d", &l) == 1 || sscanf(word, "topdownl%d", &l) == 1)
		snprintf(level, sizeof(level), "PipelineL%d", l);
	const char *also = NULL;
	for (int pi = 0; pi < n; pi++)
		for (int mi = 0; mi < ps[pi]->nmetrics; mi++) {
			const struct prof_metric *m = &ps[pi]->metrics[mi];
			suggest_offer(&sg, m->name);
			suggest_offer(&sg, m->perf_name);
			for (char **g = m->groups; g && *g; g++) {
				suggest_offer(&sg, *g);
				also = *level && !strcasecmp(*g, level) ? *g : also;
			}
		}
	const char *best = suggest_best(&sg);
	if (best)
		snprintf(text, sizeof(text), "; did you mean '%s'?", best);
	else if (also)
		snprintf(text, sizeof(text), "; this CPU's perf metrics call that level '%s'", also);
	else
		text[0] = '\0';
	suggest_free(&sg);
	return text;
}

/* m and every metric its forms read, chosen (quietly: as another's definition). */
/* mi and all it reads, transitively, chosen: with a list of our own, not recursion (a
 * chain of references as long as a file allows would overflow the C stack). */
static void choose_as(struct profile *p, int mi, bool quiet)
{
	if (p->metrics[mi].selected)
		return;
	int *todo = xmalloc(sizeof(int) * (size_t)p->nmetrics), n = 0; /* each metric once: marked as pushed */
	p->metrics[mi].selected = true;
	todo[n++] = mi;
	while (n) {
		struct prof_metric *m = &p->metrics[todo[--n]];
		m->quiet = quiet;
		for (int k = 0; k < m->nforms; k++)
			for (int r = 0; r < m->forms[k].nrefs; r++) {
				struct prof_metric *to = &p->metrics[m->forms[k].refs[r]];
				if (!to->selected) {
					to->selected = true;
					todo[n++] = m->forms[k].refs[r];
				}
			}
	}
	free(todo);
}

static void choose(struct profile *p, int mi)
{
	choose_as(p, mi, false);
	p->metrics[mi].asked = true;
}

void metrics_choose_quietly(struct profile *p, int mi)
{
	choose_as(p, mi, true);
	p->metrics[mi].asked = true;
	p->selecting = true;
}

static void want(struct prof_group *g, int e)
{
	if (!g->wanted)
		g->wanted = xcalloc((size_t)(g->nevents ? g->nevents : 1), sizeof(bool));
	g->wanted[e] = true;
}

/* Each group's events the chosen metrics read (their own group's and imported), and the
 * leader and weight of a group any of whose events is read. */
void metrics_want_events(struct profile *p)
{
	for (int gi = 0; gi < p->ngroups; gi++) { /* a group nothing reads counts nothing */
		free(p->groups[gi].wanted); /* again (-M, then perf's definitions: metric_delegate.c) */
		p->groups[gi].wanted = xcalloc((size_t)(p->groups[gi].nevents ? p->groups[gi].nevents : 1), sizeof(bool));
		p->groups[gi].hosts_perf = false;
	}
	for (int mi = 0; mi < p->nmetrics; mi++) {
		const struct prof_metric *m = &p->metrics[mi];
		for (int k = 0; m->selected && k < m->nforms; k++) {
			const struct prof_formula *f = &m->forms[k];
			if (f->group >= 0 && m->perf_profile) /* perf's metric gives its values: none of its events */
				p->groups[f->group].hosts_perf = true;
			if (f->group < 0 || !f->expr || m->perf_profile)
				continue;
			for (int i = 0; i < f->ninputs; i++)
				want(&p->groups[f->group], f->inputs[i]);
			for (int i = 0; i < f->nimports; i++)
				if (f->imports[i].event < p->groups[f->imports[i].group].nevents) /* not clock.ncpus */
					want(&p->groups[f->imports[i].group], f->imports[i].event);
		}
	}
	for (int gi = 0; gi < p->ngroups; gi++) {
		struct prof_group *g = &p->groups[gi];
		bool any = false;
		for (int e = 0; e < g->nevents; e++)
			any |= g->wanted[e];
		for (int e = 0; any && e < g->nevents; e++) {
			if (g->leader && !strcmp(g->events[e].name, g->leader))
				g->wanted[e] = true; /* the perf group it leads (TopDown's slots) */
			for (int i = 0; g->weight && i < g->weight->ninputs; i++)
				g->wanted[g->weight->inputs[i]] = true;
		}
	}
}

/* One definition per metric: a name perf's catalogue defines is perf's metric, not a
 * hand profile's of the same name (xeon.ini's memory_bandwidth_read). */
static bool perf_defines(struct profile **ps, int n, const char *name)
{
	for (int pi = 0; pi < n; pi++)
		for (int mi = 0; ps[pi]->perf && mi < ps[pi]->nmetrics; mi++)
			if (!strcasecmp(ps[pi]->metrics[mi].name, name) ||
			    (ps[pi]->metrics[mi].perf_name && !strcasecmp(ps[pi]->metrics[mi].perf_name, name)))
				return true;
	return false;
}

int metrics_select(struct profile **ps, int n, const char *spec, char **err)
{
	*err = NULL;
	char *copy = xstrdup(spec);
	for (char *c = copy; *c; c++)
		if (*c == ',')
			*c = ' ';
	char **words = str_split(copy, NULL);
	free(copy);
	for (char **w = words; *w && !*err; w++) {
		bool found = false, perfs = perf_defines(ps, n, *w);
		for (int pi = 0; pi < n; pi++)
			for (int mi = 0; mi < ps[pi]->nmetrics; mi++)
				if (names_metric(&ps[pi]->metrics[mi], *w) && (ps[pi]->perf || !perfs)) {
					choose(ps[pi], mi);
					found = true;
				}
		if (!found)
			*err = xasprintf("-M %s: no metric or metric group '%s' in the profiles for this machine%s "
					 "(pmutop list metrics)", spec, *w, nearest_name(ps, n, *w));
	}
	str_split_free(words);
	if (*err)
		return -1;
	int kept = 0;
	for (int pi = 0; pi < n; pi++) {
		bool any = false;
		for (int mi = 0; mi < ps[pi]->nmetrics; mi++)
			any |= ps[pi]->metrics[mi].selected;
		ps[pi]->selecting = true;
		metrics_want_events(ps[pi]);
		kept += any;
	}
	return kept;
}

char *metrics_chosen(const struct profile *p)
{
	if (!p->selecting)
		return NULL;
	size_t len = 1;
	for (int mi = 0; mi < p->nmetrics; mi++)
		len += p->metrics[mi].selected ? strlen(p->metrics[mi].name) + 2 : 0;
	char *out = xcalloc(len, 1);
	for (int mi = 0; mi < p->nmetrics; mi++)
		if (p->metrics[mi].selected) {
			if (*out)
				strcat(out, " ");
			if (p->metrics[mi].quiet) /* '~': counted as a hand metric's definition */
				strcat(out, "~");
			else if (!p->metrics[mi].asked) /* '^': counted as another's input, not printed */
				strcat(out, "^");
			strcat(out, p->metrics[mi].name);
		}
	return out;
}

void metrics_choose_exactly(struct profile *p, const char *names)
{
	char **words = str_split(names, NULL);
	for (char **w = words; *w; w++)
		for (int mi = 0; mi < p->nmetrics; mi++)
			if (!strcmp(p->metrics[mi].name, *w + (**w == '~' || **w == '^'))) {
				p->metrics[mi].selected = true;
				p->metrics[mi].asked = **w != '^'; /* (a recording before '^': all asked) */
				p->metrics[mi].quiet = **w == '~';
			}
	str_split_free(words);
	p->selecting = true;
	metrics_want_events(p);
}

static bool pane_lists(const struct prof_pane *pn, const char *name)
{
	for (int k = 0; k < pn->nmetrics; k++)
		if (!strcmp(pn->metrics[k], name))
			return true;
	for (int k = 0; k < pn->ndetail; k++)
		if (!strcmp(pn->detail[k], name))
			return true;
	return false;
}

/* Whether pane pn of p is among shown ("PROFILE/PANE,..."): a pane hidden by default that
 * the monitor's setup shows (show_pane=). */
static bool listed(const struct profile *p, const struct prof_pane *pn, const char *shown)
{
	size_t np = strlen(p->name), nn = strlen(pn->name);
	for (const char *w = shown; w && *w; w += strcspn(w, ","), w += *w == ',') {
		size_t len = strcspn(w, ",");
		if (len == np + 1 + nn && !strncmp(w, p->name, np) && w[np] == '/' && !strncmp(w + np + 1, pn->name, nn))
			return true;
	}
	return false;
}

static bool only_in_hidden(const struct profile *p, int mi, const char *shown)
{
	bool hidden = false, seen = false;
	for (int k = 0; k < p->npanes; k++)
		if (pane_lists(&p->panes[k], p->metrics[mi].name))
			*(p->panes[k].hidden && !listed(p, &p->panes[k], shown) ? &hidden : &seen) = true;
	return hidden && !seen;
}

bool metric_only_in_hidden_panes(const struct profile *p, int mi)
{
	return only_in_hidden(p, mi, NULL);
}

void metrics_leave_hidden(struct profile *p, const char *shown)
{
	bool any = false;
	for (int k = 0; k < p->npanes; k++)
		any |= p->panes[k].hidden && !listed(p, &p->panes[k], shown);
	if (!any || p->selecting)
		return;
	for (int mi = 0; mi < p->nmetrics; mi++)
		if (!only_in_hidden(p, mi, shown))
			choose(p, mi);
	p->selecting = true;
	metrics_want_events(p);
}

/* Whether a form of metric pm is on a group whose PMU pattern this machine has. */
static bool binds_here(const struct profile *p, const struct prof_metric *pm, const struct machine *m)
{
	for (int f = 0; f < pm->nforms; f++)
		for (int i = 0; pm->forms[f].group >= 0 && i < m->npmus; i++) {
			char caps[8][2][64];
			int ncaps = 0;
			if (group_pattern_match(&p->groups[pm->forms[f].group], m->pmus[i].name, caps, &ncaps))
				return true;
		}
	return false;
}

void panes_mark_off_machine(struct profile *p, const struct machine *m)
{
	for (int k = 0; k < p->npanes; k++) {
		struct prof_pane *pn = &p->panes[k];
		bool here = !pn->hidden;
		for (int mi = 0; !here && mi < p->nmetrics; mi++)
			here = pane_lists(pn, p->metrics[mi].name) && binds_here(p, &p->metrics[mi], m);
		pn->off_machine = !here;
	}
}

bool metrics_names(const struct profile *p, const char *word)
{
	for (int mi = 0; mi < p->nmetrics; mi++)
		if (names_metric(&p->metrics[mi], word))
			return true;
	return false;
}

static int by_name(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

int metrics_groups(struct profile *const *ps, int n, char ***names, int **sizes)
{
	const char **all = NULL;
	int nall = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < ps[i]->nmetrics; j++)
			for (char **g = ps[i]->metrics[j].groups; g && *g; g++) {
				all = xrealloc(all, sizeof(char *) * (size_t)(nall + 1));
				all[nall++] = *g;
			}
	qsort(all, (size_t)nall, sizeof(char *), by_name);
	*names = xcalloc((size_t)nall + 1, sizeof(char *));
	if (sizes)
		*sizes = xcalloc((size_t)nall + 1, sizeof(int));
	int k = 0;
	for (int i = 0; i < nall;) {
		int j = i;
		while (j < nall && !strcasecmp(all[j], all[i]))
			j++;
		(*names)[k] = xstrdup(all[i]);
		if (sizes)
			(*sizes)[k] = j - i;
		k++;
		i = j;
	}
	free(all);
	return k;
}
