/* SPDX-License-Identifier: GPL-2.0-only */
/* layout.c - the pane model: which metrics and instances each pane shows, built once
 * from the profiles' [pane] sections (and one automatic pane per group no pane shows). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "base/util.h"

static bool metric_hidden(const struct tui *t, const struct profile *p, const char *metric)
{
	char key[256];
	snprintf(key, sizeof(key), "metric:%s/%s", p->name, metric);
	return settings_is_hidden(&t->set, key);
}

static int find_metric(const struct profile *p, const char *name)
{
	for (int i = 0; i < p->nmetrics; i++)
		if (!strcmp(p->metrics[i].name, name))
			return i;
	return -1;
}

/* -M chose other metrics: this one has no value and no row (nothing counts its events). */
static bool metric_unchosen(const struct profile *p, int mi)
{
	return (p->selecting && !p->metrics[mi].selected) || p->metrics[mi].quiet; /* quiet: shown as a hand metric */
}

static int value_slot(const struct frame *f, int pi, int mi, int ii)
{
	for (int k = 0; k < f->nvalues; k++)
		if (f->vinfo[k].profile == pi && f->vinfo[k].metric == mi && f->vinfo[k].instance == ii)
			return k;
	return -1;
}

/* The pane's columns: names of the instances of the groups its metrics read, in session
 * order (panes that mix groups, CMEM, C2C, ... per socket, show one column per name),
 * and which instance gives each (column, metric) cell. */
static void pane_columns(struct upane *p, const struct frame *s, const struct profile *prof, int cap)
{
	int nm = p->nmetrics;
	bool has_aggregate = false, has_detail = false;
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance_info *in = &s->iinfo[i];
		if (in->parent >= 0)
			continue; /* a root port: shown under its root complex (Enter) */
		int gi = in->profile == prof ? (int)(in->group - prof->groups) : -1; /* another's: no index here */
		int mgroup = -1;
		for (int m = 0; m < nm && gi >= 0; m++)
			if (metric_form(p->metrics[m], gi))
				mgroup = m;
		if (mgroup < 0)
			continue;
		int k;
		for (k = 0; k < p->ninst; k++)
			if (!strcmp(s->iinfo[p->inst[k]].name, in->name))
				break;
		if (k == p->ninst) {
			p->inst[p->ninst++] = i;
			for (int m = 0; m < nm; m++)
				p->cell[k * nm + m] = -1;
		}
		for (int m = 0; m < nm; m++)
			if (metric_form(p->metrics[m], gi))
				p->cell[k * nm + m] = i;
		/* a member of the group's sums (a CPU, an IMC channel, an AMD UMC) is a detail
		 * row, shown on 'c' */
		const struct prof_group *g = in->group;
		bool detail = !in->nmembers && !in->nparts && !in->sum_kind && (g->split == SPLIT_CPU || g->aggregate_socket || g->aggregate_all);
		has_aggregate |= in->nmembers > 0 || in->nparts > 0 || in->sum_kind;
		p->cpus_summed |= in->sum_kind && !in->nmembers && !in->nparts && g->split == SPLIT_CPU;
		has_detail |= detail;
		p->is_detail[k] = detail;
		p->member_row[k] |= detail;
		p->cpu_details |= detail && !strncmp(in->name, "cpu", 3) && isdigit((unsigned char)in->name[3]);
	}
	p->expandable = has_aggregate && has_detail;
	if (!p->expandable)
		memset(p->is_detail, 0, sizeof(bool) * (size_t)cap);
}

/* A row per metric only under instances of its own group (a mixed pane's PCIe metrics
 * are not n/a under a socket); titles that repeat say their group; the label width. */
static bool metric_group_missing(const struct frame *f, const struct prof_metric *pm)
{
	for (int g = 0; g < f->nmissing; g++)
		for (int k = 0; k < pm->nforms; k++)
			if (pm->forms[k].group_name && !strcmp(f->missing[g]->name, pm->forms[k].group_name))
				return true;
	return false;
}

static void pane_rows(const struct frame *f, struct upane *p)
{
	int nm = p->nmetrics;
	for (int m = 0; m < nm; m++) {
		bool any = false, absent = false;
		for (int i = 0; i < p->ninst; i++) {
			int c = p->cell[i * nm + m];
			any |= c >= 0 && !frame_instance_absent(f, c);
			absent |= c >= 0 && frame_instance_absent(f, c);
		}
		/* every instance not on this machine (perf's <not supported>: AMD's LLC-load-misses,
		 * a RAPL PMU without psys): no row, as for a PMU the machine lacks (errors, e,
		 * says why) */
		for (int i = 0; !any && absent && i < p->ninst; i++)
			p->cell[i * nm + m] = -1;
		/* no instance has it: a row that says why when its PMU is missing; none for a
		 * metric of another generation's variant (Zen 4's L3 latency on a Zen 5) */
		p->says_missing[m] = !any && metric_group_missing(f, p->metrics[m]);
		p->mixed |= p->metrics[m]->forms[0].group != p->metrics[0]->forms[0].group;
		bool repeated = false;
		for (int o = 0; o < nm; o++)
			repeated |= o != m && !strcmp(p->metrics[o]->title, p->metrics[m]->title);
		const struct prof_formula *f0 = &p->metrics[m]->forms[0];
		p->mtitle[m] = repeated && f0->group_name ? xasprintf("%s (%s)", p->metrics[m]->title, f0->group_name)
							  : xstrdup(p->metrics[m]->title);
	}
	p->label_w = 8;
	for (int m = 0; m < nm; m++)
		if ((int)strlen(p->mtitle[m]) + 2 > p->label_w)
			p->label_w = (int)strlen(p->mtitle[m]) + 2;
	if (p->label_w > 28)
		p->label_w = 28;
}

/* A formula that reads another group (GROUP.EVENT) has a value only where that group has
 * an instance of the same name (a socket, not an LLC slice): elsewhere no cell, and a
 * name left with no cell at all is no column (the Memory pane's CHA slices on 'c'). */
static void drop_unpartnered(struct upane *p, const struct frame *s, const struct profile *prof)
{
	int nm = p->nmetrics, kept = 0;
	for (int k = 0; k < p->ninst; k++) {
		bool any = false;
		for (int m = 0; m < nm; m++) {
			int c = p->cell[k * nm + m];
			const struct prof_formula *f =
				c >= 0 ? metric_form(p->metrics[m], (int)(s->iinfo[c].group - prof->groups)) : NULL;
			/* an import with no partner here; perf's metric alone where the catalogue lacks it */
			if (f && (f->nimports || !f->expr) && p->slot[k * nm + m] < 0)
				p->cell[k * nm + m] = -1;
			any |= p->cell[k * nm + m] >= 0;
		}
		if (!any && p->ninst > 1)
			continue;
		p->inst[kept] = p->inst[k];
		p->is_detail[kept] = p->is_detail[k];
		p->member_row[kept] = p->member_row[k];
		memmove(&p->cell[kept * nm], &p->cell[k * nm], sizeof(int) * (size_t)nm);
		memmove(&p->slot[kept * nm], &p->slot[k * nm], sizeof(int) * (size_t)nm);
		kept++;
	}
	p->ninst = kept;
}

/* A block's title, made once per layout (the instances' static half does not change): the
 * instance's name and, where binding found its PCI root bus (an IIO stack), the bus and
 * what lspci would name behind its bridges: "socket0/iio2 (0000:2a) NVMe controller +1".
 * Its details list the functions, "BDF class", those behind a bridge indented; the root
 * bus's own functions (the stack's integrated devices, its root ports) are not named. */
static char *block_title(const struct frame *f, int inst)
{
	const struct instance_info *in = &f->iinfo[inst];
	const char *seg = frame_label(f, inst, "segment");
	const char *first = NULL;
	int more = 0;
	for (int k = 0; seg && k < in->ndetails; k++) {
		const char *d = in->details[k], *cls = d[0] == ' ' ? strchr(d + strspn(d, " "), ' ') : NULL;
		if (!cls || !strcmp(cls + 1, "PCI bridge") || !strcmp(cls + 1, "device"))
			continue;
		more += first != NULL;
		first = first ? first : cls + 1;
	}
	if (!seg)
		return xstrdup(in->name);
	if (!first)
		return xasprintf("%s (%s)", in->name, seg);
	return more ? xasprintf("%s (%s) %s +%d", in->name, seg, first, more) : xasprintf("%s (%s) %s", in->name, seg, first);
}

/* The index of group g among prof's groups, or -1 where it is another profile's (a
 * pointer into another array is no index: comparing it with these is undefined, and an
 * ASan build's layout once made the host profile's missing msr group the Sensors pane's) */
static int group_index(const struct profile *prof, const struct prof_group *g)
{
	for (int i = 0; i < prof->ngroups; i++)
		if (&prof->groups[i] == g)
			return i;
	return -1;
}

/* What a pane with nothing to show says: the profile's words, else the PMU missing. */
static void pane_missing(struct upane *p, const struct frame *s, const struct profile *prof,
			 const struct prof_pane *def)
{
	if (p->ninst)
		return;
	if (def && def->missing) {
		/* a hidden pane that setup offers here shows these figures instead: say so (on
		 * Arm, Cores (Arm)); none offered (no core PMU at all): the words alone */
		const struct prof_pane *alt = NULL;
		for (int i = 0; i < prof->npanes && !alt; i++)
			if (prof->panes[i].instead_of && !strcmp(prof->panes[i].instead_of, def->name) &&
			    prof->panes[i].hidden && !prof->panes[i].off_machine)
				alt = &prof->panes[i];
		p->missing = alt ? xasprintf("%s; setup (F2) shows %s", def->missing, alt->title) : xstrdup(def->missing);
		return;
	}
	for (int g = 0; g < s->nmissing; g++)
		for (int m = 0; m < p->nmetrics && group_index(prof, s->missing[g]) >= 0; m++)
			if (metric_form(p->metrics[m], group_index(prof, s->missing[g])) && !p->missing)
				p->missing = s->missing_why && s->missing_why[g]
						     ? xasprintf("not counted: %s", s->missing_why[g])
						     : xasprintf("PMU missing: no PMU matches '%s'", s->missing[g]->pmu_pattern);
	if (!p->missing) {
		p->missing = xstrdup("nothing to show on this machine");
		/* a profile used on every machine (sensors) whose pane found nothing and has
		 * nothing to say: no pane, as pmutop(1) says, rather than an empty one */
		p->nothing = prof->always;
	}
}

/* The metrics Enter shows under each row (TopDown level 2), and their value slots. */
static void pane_detail(struct upane *p, const struct frame *s, int pi, const struct profile *prof,
			const struct prof_pane *def)
{
	int nm = p->nmetrics, nd = def ? def->ndetail : 0;
	p->detail = xmalloc(sizeof(*p->detail) * (size_t)(nd ? nd : 1));
	p->detail_slot = xmalloc(sizeof(int) * (size_t)(p->ninst * nd + 1));
	for (int d = 0; d < nd; d++) {
		int mi = find_metric(prof, def->detail[d]);
		if (mi < 0)
			continue;
		p->detail[p->ndetail] = &prof->metrics[mi];
		for (int i = 0; i < p->ninst; i++) {
			int c = p->cell[i * nm]; /* the row's instance (of the first metric's group) */
			p->detail_slot[i * nd + p->ndetail] = c >= 0 ? value_slot(s, pi, mi, c) : -1;
		}
		p->ndetail++;
	}
}

static void add_pane(struct tui *t, int pi, const char *key, const char *title, const char *style, int nm,
		     const int *midx, const struct prof_pane *def)
{
	const struct frame *s = t->f;
	const struct profile *prof = s->profiles[pi];
	t->panes = xrealloc(t->panes, sizeof(struct upane) * (size_t)(t->npanes + 1));
	struct upane *p = &t->panes[t->npanes++];
	memset(p, 0, sizeof(*p));
	p->profile = prof;
	p->def = def;
	p->key = xasprintf("%s/%s", prof->name, key);
	p->title = xstrdup(title);
	p->style = !strcmp(style, "bars") ? STYLE_BARS : !strcmp(style, "table") ? STYLE_TABLE
		   : !strcmp(style, "stacked") ? STYLE_STACKED : !strcmp(style, "tree") ? STYLE_TREE : STYLE_VALUES;
	p->nmetrics = nm;
	int nm1 = nm ? nm : 1, cap = 1; /* its rows are its profile's instances: not every one */
	for (int i = 0; i < s->ninstances; i++)
		cap += s->iinfo[i].profile == prof;
	p->metrics = xmalloc(sizeof(*p->metrics) * (size_t)nm1);
	p->metric_index = xmalloc(sizeof(int) * (size_t)nm1);
	for (int i = 0; i < nm; i++) {
		p->metric_index[i] = midx[i];
		p->metrics[i] = &prof->metrics[midx[i]];
	}
	p->inst = xmalloc(sizeof(int) * (size_t)cap);
	p->is_detail = xcalloc((size_t)cap, sizeof(bool));
	p->member_row = xcalloc((size_t)cap, sizeof(bool));
	p->open = xcalloc((size_t)cap, sizeof(bool));
	p->cell = xmalloc(sizeof(int) * (size_t)(cap * nm1));
	pane_columns(p, s, prof, cap);
	p->says_missing = xcalloc((size_t)nm1, sizeof(bool));
	p->sort_pos = xcalloc((size_t)cap, sizeof(int));
	p->mtitle = xcalloc((size_t)nm1, sizeof(char *));
	pane_rows(s, p);
	p->slot = xmalloc(sizeof(int) * (size_t)(p->ninst * nm + 1));
	p->scale = xcalloc((size_t)nm1, sizeof(float));
	for (int i = 0; i < p->ninst; i++)
		for (int m = 0; m < nm; m++) {
			int c = p->cell[i * nm + m];
			p->slot[i * nm + m] = c >= 0 ? value_slot(s, pi, midx[m], c) : -1;
		}
	drop_unpartnered(p, s, prof);
	p->ititle = xmalloc(sizeof(char *) * (size_t)(p->ninst + 1));
	for (int i = 0; i < p->ninst; i++)
		p->ititle[i] = block_title(s, p->inst[i]);
	pane_missing(p, s, prof, def);
	p->hidden_by_default = def ? def->hidden : !strcmp(key, "other");
	char *show = xasprintf("show:%s", p->key);
	p->hidden = (p->hidden_by_default ? !settings_is_hidden(&t->set, show) : settings_is_hidden(&t->set, p->key)) ||
		    p->nothing;
	free(show);
	p->sort = -1;
	if (def)
		p->letters = def->letters;
	pane_detail(p, s, pi, prof, def);
	p->row_inst = xmalloc(sizeof(int) * (size_t)(p->ninst * (nm + 1) + 1));
	p->row_y = xmalloc(sizeof(int) * (size_t)(p->ninst * (nm + 1) + 1));
	p->row_metric = xmalloc(sizeof(int) * (size_t)(p->ninst * (nm + 1) + 1));
}

/* perf's TopDown as a tree pane (tree.c), where the profile has two level-1 metrics or
 * more with values: its groups are shown. Which metrics it took (per metric). */
static bool *tree_pane(struct tui *t, int pi, bool *shown)
{
	const struct profile *prof = t->f->profiles[pi];
	int n1 = prof->nmetrics ? prof->nmetrics : 1;
	bool *keep = xcalloc((size_t)n1, sizeof(bool)), *taken = xcalloc((size_t)n1, sizeof(bool));
	int *midx = xmalloc(sizeof(int) * (size_t)n1), *depths = xmalloc(sizeof(int) * (size_t)n1);
	for (int k = 0; k < t->f->nvalues; k++) /* has a value here */
		if (t->f->vinfo[k].profile == pi)
			keep[t->f->vinfo[k].metric] = true;
	for (int m = 0; m < prof->nmetrics; m++) /* and is chosen, and not hidden */
		keep[m] = keep[m] && !metric_unchosen(prof, m) && !metric_hidden(t, prof, prof->metrics[m].name);
	int n = tree_order(prof, keep, midx, depths);
	if (n) {
		/* Intel's TMA names its nodes tma_*; AMD's pipeline utilisation and Arm's topdown
		 * are perf's too, shares of dispatch (AMD) or pipeline (Arm) slots */
		bool tma = str_has_prefix(prof->metrics[midx[0]].name, "tma_");
		add_pane(t, pi, "topdown-tree",
			 tma ? "TopDown (perf's TMA: share of pipeline slots)" : "TopDown (perf's pipeline utilisation: share of slots)",
			 "tree", n, midx, NULL);
		tree_setup(&t->panes[t->npanes - 1], depths);
		for (int i = 0; i < n; i++) {
			taken[midx[i]] = true;
			for (int f = 0; f < prof->metrics[midx[i]].nforms; f++)
				if (prof->metrics[midx[i]].forms[f].group >= 0)
					shown[prof->metrics[midx[i]].forms[f].group] = true;
		}
	}
	free(keep);
	free(midx);
	free(depths);
	return taken;
}

/* A pane binding nothing here for which perf's TopDown tree stands in where it is drawn
 * (topdown.ini's bars on an AMD core, whose TopDown is perf's Pipeline levels): left out,
 * rather than saying TopDown is unavailable above the tree that shows it. */
static void trees_stand_in(struct tui *t)
{
	bool tree = false;
	for (int i = 0; i < t->npanes; i++)
		tree |= t->panes[i].style == STYLE_TREE && t->panes[i].ninst > 0;
	for (int i = 0; tree && i < t->npanes; i++)
		if (t->panes[i].def && t->panes[i].def->tree_stands_in && !t->panes[i].ninst)
			t->panes[i].hidden = t->panes[i].nothing = true;
}

/* Which profiles' panes come first: the machine's own (its uncore: what a demo is for),
 * then perf's catalogue (the TopDown tree), the profiles used everywhere (cores, sensors),
 * and the fallback (host) last; each kind in the session's order. */
static int profile_rank(const struct profile *p)
{
	return p->perf ? 1 : p->always ? 2 : p->fallback ? 3 : 0;
}

static int *profiles_in_rank(const struct frame *s)
{
	int *order = xmalloc(sizeof(int) * (size_t)(s->nprofiles ? s->nprofiles : 1)), n = 0;
	for (int rank = 0; rank <= 3; rank++)
		for (int pi = 0; pi < s->nprofiles; pi++)
			if (profile_rank(s->profiles[pi]) == rank)
				order[n++] = pi;
	return order;
}

/* Panes that can only say what is missing ("no x86 core PMU here") go below those with
 * figures, in their order: a first screen of figures. */
static void missing_last(struct tui *t)
{
	struct upane *sorted = xmalloc(sizeof(*sorted) * (size_t)(t->npanes ? t->npanes : 1));
	int n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < t->npanes; i++)
			if ((t->panes[i].missing != NULL) == (pass == 1))
				sorted[n++] = t->panes[i];
	memcpy(t->panes, sorted, sizeof(*sorted) * (size_t)t->npanes);
	free(sorted);
}

void layout_build(struct tui *t)
{
	t->layout_gen++;
	const struct frame *s = t->f;
	int *order = profiles_in_rank(s);
	for (int rank = 0; rank < s->nprofiles; rank++) {
		int pi = order[rank];
		const struct profile *prof = s->profiles[pi];
		bool *shown = xcalloc((size_t)(prof->ngroups ? prof->ngroups : 1), sizeof(bool));
		for (int k = 0; k < prof->npanes; k++) {
			const struct prof_pane *pn = &prof->panes[k];
			if (pn->off_machine) /* hidden, and nothing of it binds here: not offered */
				continue;
			int *midx = xmalloc(sizeof(int) * (size_t)(pn->nmetrics ? pn->nmetrics : 1));
			int nm = 0;
			int hidden = 0;
			for (int m = 0; m < pn->nmetrics; m++) {
				int mi = find_metric(prof, pn->metrics[m]);
				if (mi >= 0 && (metric_hidden(t, prof, pn->metrics[m]) || metric_unchosen(prof, mi))) {
					hidden++;
					for (int f = 0; f < prof->metrics[mi].nforms; f++)
						if (prof->metrics[mi].forms[f].group >= 0)
							shown[prof->metrics[mi].forms[f].group] = true;
					continue;
				}
				if (mi >= 0) {
					midx[nm++] = mi;
					for (int f = 0; f < prof->metrics[mi].nforms; f++)
						if (prof->metrics[mi].forms[f].group >= 0)
							shown[prof->metrics[mi].forms[f].group] = true;
				}
			}
			add_pane(t, pi, pn->name, pn->title, pn->style, nm, midx, pn);
			if (!nm && hidden) /* every metric hidden: so is the pane */
				t->panes[t->npanes - 1].hidden = true;
			free(midx);
		}
		bool *in_tree = tree_pane(t, pi, shown);
		/* metrics of shown groups that no pane lists: one "other metrics" pane, hidden
		 * until the user shows it in setup */
		{
			int *midx = xmalloc(sizeof(int) * (size_t)(prof->nmetrics ? prof->nmetrics : 1));
			int nm = 0;
			for (int m = 0; m < prof->nmetrics; m++) {
				bool listed = false, grouped = false;
				for (int k = 0; k < prof->npanes && !listed; k++) {
					for (int j = 0; j < prof->panes[k].nmetrics; j++)
						listed |= !strcmp(prof->panes[k].metrics[j], prof->metrics[m].name);
					for (int j = 0; j < prof->panes[k].ndetail; j++)
						listed |= !strcmp(prof->panes[k].detail[j], prof->metrics[m].name);
				}
				for (int f = 0; f < prof->metrics[m].nforms; f++)
					grouped |= prof->metrics[m].forms[f].group >= 0 && shown[prof->metrics[m].forms[f].group];
				if (!listed && grouped && !in_tree[m] && !metric_hidden(t, prof, prof->metrics[m].name) &&
				    !metric_unchosen(prof, m))
					midx[nm++] = m;
			}
			if (nm) {
				char *title = xasprintf("%s: other metrics", prof->title);
				add_pane(t, pi, "other", title, "values", nm, midx, NULL); /* hidden by default */
				free(title);
			}
			free(midx);
		}
		/* groups no pane shows get a plain pane of their own */
		for (int g = 0; g < prof->ngroups; g++) {
			if (shown[g])
				continue;
			int *midx = xmalloc(sizeof(int) * (size_t)(prof->nmetrics ? prof->nmetrics : 1));
			int nm = 0;
			for (int m = 0; m < prof->nmetrics; m++)
				if (metric_form(&prof->metrics[m], g) && !metric_hidden(t, prof, prof->metrics[m].name) &&
				    !metric_unchosen(prof, m))
					midx[nm++] = m;
			if (nm)
				add_pane(t, pi, prof->groups[g].name,
					 prof->groups[g].title ? prof->groups[g].title : prof->groups[g].name, "values", nm, midx,
					 NULL);
			free(midx);
		}
		free(shown);
		free(in_tree);
	}
	free(order);
	trees_stand_in(t);
	missing_last(t);
}

void layout_free(struct tui *t)
{
	for (int i = 0; i < t->npanes; i++) {
		struct upane *p = &t->panes[i];
		free(p->key);
		free(p->title);
		for (int m = 0; m < p->nmetrics; m++)
			free(p->mtitle[m]);
		free(p->mtitle);
		free(p->says_missing);
		free(p->sort_pos);
		free(p->metrics);
		free(p->metric_index);
		for (int k = 0; k < p->ninst; k++)
			free(p->ititle[k]);
		free(p->ititle);
		free(p->inst);
		free(p->is_detail);
		free(p->member_row);
		free(p->open);
		free(p->cell);
		free(p->scale);
		free(p->slot);
		free(p->missing);
		free(p->row_inst);
		free(p->detail);
		free(p->detail_slot);
		free(p->row_y);
		free(p->row_metric);
		free(p->tree_depth);
		free(p->tree_parent);
		free(p->tree_open);
	}
	free(t->panes);
	t->panes = NULL;
	t->npanes = 0;
}

/* Is the pane's i-th instance on screen? Per-CPU rows hide behind their aggregates. */
bool pane_shows(const struct upane *p, int i)
{
	return p->expanded || !p->is_detail[i];
}

/* Does a pane on screen show a row of a sum's member (a CPU, a channel)? The engine then
 * evaluates those values; otherwise it need not (session_want_details). */
bool panes_show_members(const struct tui *t)
{
	for (int pi = 0; pi < t->npanes; pi++) {
		const struct upane *p = &t->panes[pi];
		for (int i = 0; i < p->ninst && !p->hidden; i++)
			if (p->member_row[i] && pane_shows(p, i))
				return true;
	}
	return false;
}
