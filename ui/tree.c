/* SPDX-License-Identifier: GPL-2.0-only */
/* tree.c - perf's TopDown (TMA) as a tree: a node is a metric, its children the metrics
 * perf files under "<node>_group" (tma_memory_bound under tma_backend_bound_group), the
 * roots perf's level 1 (TopdownL1, AMD's PipelineL1). The nodes past perf's thresholds
 * (MetricThreshold) are opened and drawn marked; one is the bottleneck, marked as toplev
 * marks it ("<=="): the deepest on the path of the largest share past its threshold. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui.h"
#include "base/util.h"
#include "profile/metric_tree.h"

#define TREE_COLW 11 /* a value column: "100.0 %" and its margin */
#define TREE_MAXCOLS 32

static void visit(const struct profile *prof, const int *parent, const bool *keep, int mi, int depth, int *midx,
		  int *depths, int *n)
{
	midx[*n] = mi;
	depths[(*n)++] = depth;
	for (int k = 0; k < prof->nmetrics; k++)
		if (parent[k] == mi && keep[k] && depth < 8)
			visit(prof, parent, keep, k, depth + 1, midx, depths, n);
}

int tree_order(const struct profile *prof, const bool *keep, int *midx, int *depths)
{
	int *parent = metric_tree_parents(prof);
	int roots = 0, n = 0;
	for (int k = 0; k < prof->nmetrics; k++)
		roots += keep[k] && parent[k] < 0 && metric_tree_root(&prof->metrics[k]);
	for (int k = 0; roots >= 2 && k < prof->nmetrics; k++)
		if (keep[k] && parent[k] < 0 && metric_tree_root(&prof->metrics[k]))
			visit(prof, parent, keep, k, 0, midx, depths, &n);
	free(parent);
	return n;
}

void tree_setup(struct upane *p, const int *depths)
{
	int nm = p->nmetrics ? p->nmetrics : 1;
	p->tree_depth = xmalloc(sizeof(int) * (size_t)nm);
	p->tree_parent = xmalloc(sizeof(int) * (size_t)nm);
	p->tree_open = xmalloc((size_t)nm);
	for (int m = 0; m < p->nmetrics; m++) {
		p->tree_depth[m] = depths[m];
		p->tree_parent[m] = -1;
		for (int k = m - 1; k >= 0 && p->tree_parent[m] < 0; k--) /* in depth-first order */
			if (depths[k] == depths[m] - 1)
				p->tree_parent[m] = k;
		p->tree_open[m] = -1; /* opened where past its threshold, until the user says */
	}
}

/* Is column instance i a machine-wide sum ("all", or a hybrid's "all-pcores")? */
static bool machine_wide(const struct tui *t, const struct upane *p, int i)
{
	return str_has_prefix(t->f->iinfo[p->inst[i]].name, "all");
}

/* Each node's threshold into over[] (1 past, 0 not, -1 unknown), as the sampler evaluated
 * it with the frame, on the machine-wide columns: past on any (a hybrid's E-cores' node
 * has no P-core value). */
static void thresholds(struct tui *t, const struct upane *p, const int *cols, int ncols, signed char *over)
{
	for (int m = 0; m < p->nmetrics; m++) {
		over[m] = -1;
		for (int c = 0; c < ncols; c++) {
			int slot = p->slot[cols[c] * p->nmetrics + m];
			signed char v = slot >= 0 && (c == 0 || machine_wide(t, p, cols[c])) ? t->f->values[slot].past : -1;
			over[m] = v > over[m] ? v : over[m];
		}
	}
}

/* A value column's width: "100.0 %" and its margin, or its widest title's ("socket0-pcores"). */
static int column_width(const struct tui *t, const struct upane *p)
{
	int w = TREE_COLW;
	for (int i = 0; i < p->ninst; i++)
		if (!p->is_detail[i] && (int)strlen(t->f->iinfo[p->inst[i]].display) + 2 > w)
			w = (int)strlen(t->f->iinfo[p->inst[i]].display) + 2;
	return w;
}

static bool has_children(const struct upane *p, int m)
{
	return m + 1 < p->nmetrics && p->tree_parent[m + 1] == m;
}

static bool node_open(const struct upane *p, int m, const signed char *over)
{
	return p->tree_open[m] >= 0 ? p->tree_open[m] : over[m] == 1;
}

static bool node_shown(const struct upane *p, int m, const signed char *over)
{
	for (int a = p->tree_parent[m]; a >= 0; a = p->tree_parent[a])
		if (!node_open(p, a, over))
			return false;
	return true;
}

struct keyed {
	double v;
	int i;
};

static int by_value_desc(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (isnan(x->v) != isnan(y->v))
		return isnan(x->v) ? 1 : -1; /* no value: last */
	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return x->i - y->i;
}

/* The pane's CPUs (its detail names) in the order shown: by number, or by the value of
 * metric p->sort, highest first. Their count. */
static int cpu_order(const struct tui *t, const struct upane *p, int *out)
{
	struct keyed *k = xmalloc(sizeof(*k) * (size_t)(p->ninst + 1));
	int n = 0;
	for (int i = 0; i < p->ninst; i++)
		if (p->is_detail[i]) {
			int slot = p->sort >= 0 ? p->slot[i * p->nmetrics + p->sort] : -1;
			bool ok = slot >= 0 && t->f->values[slot].state == VS_OK;
			k[n++] = (struct keyed){ ok ? t->f->values[slot].value : NAN, i };
		}
	if (p->sort >= 0)
		qsort(k, (size_t)n, sizeof(*k), by_value_desc);
	for (int j = 0; j < n; j++)
		out[j] = k[j].i;
	free(k);
	return n;
}

/* The columns: the pane's sums, the machine's first ("all"; a hybrid's "all-pcores" and
 * "all-ecores": the bottleneck is the machine's), then each socket's, as many as fit
 * beside the names; with 'c', the CPUs in their place, from the page 'c' has reached. */
static int tree_columns(struct tui *t, struct upane *p, int w, int *cols, int max)
{
	int names = 0, n = 0, colw = column_width(t, p); /* a socket's column gives way before a name is cut */
	for (int m = 0; m < p->nmetrics; m++) {
		int need = 2 * p->tree_depth[m] + 3 + (int)strlen(p->metrics[m]->title) + 5;
		names = need > names ? need : names;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < p->ninst && n < max; i++)
			if (!p->is_detail[i] && machine_wide(t, p, i) == (pass == 0) && (pass == 0 || !p->expanded) &&
			    (n == 0 || names + (n + 1) * colw + 18 <= w))
				cols[n++] = i;
	p->tree_cpus_shown = 0;
	if (p->expanded) {
		int *cpus = xmalloc(sizeof(int) * (size_t)(p->ninst + 1)), ncpus = cpu_order(t, p, cpus);
		for (int k = p->tree_cpu_first; k < ncpus && n < max && names + (n + 1) * colw + 18 <= w; k++) {
			cols[n++] = cpus[k];
			p->tree_cpus_shown++;
		}
		free(cpus);
	}
	return n;
}

/* Node m's children (at most max), in order; m -1: the top level's nodes. */
static int children(const struct upane *p, int m, int *kids, int max)
{
	int n = 0;
	for (int k = m + 1; k < p->nmetrics && (m < 0 || p->tree_depth[k] > p->tree_depth[m]) && n < max; k++)
		if (p->tree_parent[k] == m)
			kids[n++] = k;
	return n;
}

/* pcm's letter of a level-1 node (F frontend, S bad speculation, B backend, R retiring:
 * Intel's and AMD's level 1 alike), or 0 for another. */
static char pcm_letter(const struct upane *p, int m)
{
	static const struct {
		const char *word;
		char letter;
	} pcm[] = { { "frontend", 'F' }, { "bad_spec", 'S' }, { "backend", 'B' }, { "retiring", 'R' } };
	for (size_t i = 0; i < sizeof(pcm) / sizeof(pcm[0]); i++)
		if (strstr(p->metrics[m]->name, pcm[i].word))
			return pcm[i].letter;
	return 0;
}

/* The letter of kids[i] in its parent's bar: at level 1 pcm's F/S/B/R where every node
 * has one, else the children in order 'a', 'b', 'c'. */
static char kid_letter(const struct upane *p, const int *kids, int n, int i)
{
	bool pcm = p->tree_parent[kids[i]] < 0;
	for (int k = 0; pcm && k < n; k++)
		pcm = pcm_letter(p, kids[k]) != 0;
	return pcm ? pcm_letter(p, kids[i]) : (char)('a' + i);
}

/* With 'b', a node's letter in its parent's bar, else 0. */
static char bar_letter(const struct tui *t, const struct upane *p, int m)
{
	int kids[26], n = t->tree_bars ? children(p, p->tree_parent[m], kids, 26) : 0;
	for (int i = 0; n > 1 && i < n; i++)
		if (kids[i] == m)
			return kid_letter(p, kids, n, i);
	return 0;
}

static void node_label(struct tui *t, const struct upane *p, int m, const signed char *over, bool neck, char *buf,
		       size_t len)
{
	const char *glyph = !has_children(p, m) ? " " : node_open(p, m, over) ? (t->utf8 ? "▾" : "-") : (t->utf8 ? "▸" : "+");
	char letter = bar_letter(t, p, m);
	snprintf(buf, len, " %*s%s %s%s%s%s", 2 * p->tree_depth[m], "", glyph, letter ? (char[]){ letter, 0 } : "",
		 letter ? " " : "", p->metrics[m]->title, neck ? " <==" : "");
}

/* Under open node m, with 'b': its children's shares of it in column col as one bar of
 * their letters (readable without colour; m -1: level 1's, in pcm's F/S/B/R, under the
 * columns' names). Lines drawn. */
static int children_bar(struct tui *t, const struct upane *p, int col, int m, const signed char *over, int y, int x,
			int w, bool draw)
{
	int kids[26], n = t->tree_bars && (m < 0 || node_open(p, m, over)) ? children(p, m, kids, 26) : 0;
	if (n < 2)
		return 0;
	double v[26], sum = 0;
	for (int i = 0; i < n; i++) {
		int s = p->slot[col * p->nmetrics + kids[i]];
		v[i] = s >= 0 && t->f->values[s].state == VS_OK && t->f->values[s].value > 0 ? t->f->values[s].value : 0;
		sum += v[i];
	}
	int indent = m < 0 ? 3 : 2 * p->tree_depth[m] + 5, width = w - indent;
	if (!draw || sum <= 0 || width < 8)
		return 1;
	char bar[256];
	width = width < (int)sizeof(bar) - 1 ? width : (int)sizeof(bar) - 1;
	double cum = 0;
	int at = 0;
	for (int i = 0; i < n; i++) { /* each child to the rounded end of its running sum */
		cum += v[i];
		int end = (int)lround(cum / sum * width);
		char letter = kid_letter(p, kids, n, i);
		for (; at < end; at++)
			bar[at] = letter;
	}
	bar[at] = '\0';
	crt_put(y, x + indent, width, R_DIM, bar);
	return 1;
}

/* "of parent": the node's share of its parent (both shares of the slots) in the first
 * column that has both (a hybrid's E-cores' node: in theirs). */
static void parent_share(struct tui *t, const struct upane *p, const int *cols, int ncols, int m, char *buf,
			 size_t len)
{
	int pm = p->tree_parent[m];
	buf[0] = '\0';
	for (int c = 0; pm >= 0 && c < ncols && !buf[0]; c++) {
		int s = p->slot[cols[c] * p->nmetrics + m], ps = p->slot[cols[c] * p->nmetrics + pm];
		const struct frame_value *v = s >= 0 ? &t->f->values[s] : NULL, *pv = ps >= 0 ? &t->f->values[ps] : NULL;
		if (v && pv && v->state == VS_OK && pv->state == VS_OK && pv->value > 0)
			snprintf(buf, len, "%3.0f%% of parent", 100 * v->value / pv->value);
	}
}

/* Node m's share on the machine: its value in the first machine-wide column that has one
 * (a hybrid's E-cores' node has none in the P-cores'); NAN for none. */
static double machine_share(const struct tui *t, const struct upane *p, const int *cols, int ncols, int m)
{
	for (int c = 0; c < ncols; c++) {
		int slot = p->slot[cols[c] * p->nmetrics + m];
		if (slot >= 0 && (c == 0 || machine_wide(t, p, cols[c])) && t->f->values[slot].state == VS_OK)
			return t->f->values[slot].value;
	}
	return NAN;
}

/* The one bottleneck, as toplev marks it (profile/metric_tree.h: the run's summary asks
 * the same): the machine's shares of the nodes past their thresholds; -1 for none. */
static int bottleneck(const struct tui *t, const struct upane *p, const int *cols, int ncols, const signed char *over)
{
	double *share = xmalloc(sizeof(double) * (size_t)(p->nmetrics + 1));
	for (int k = 0; k < p->nmetrics; k++)
		share[k] = over[k] == 1 ? machine_share(t, p, cols, ncols, k) /
						  (p->metrics[k]->scale > 0 ? p->metrics[k]->scale : 1)
				       : NAN;
	int neck = metric_tree_bottleneck(p->nmetrics, p->tree_parent, share);
	free(share);
	return neck;
}

/* The bars go under their nodes: drawn, or measured, after each open node's row. */
static int node_extra(struct tui *t, const struct upane *p, const int *cols, int ncols, int m, const signed char *over,
		      int y, int x0, int labw, bool draw)
{
	return ncols ? children_bar(t, p, cols[0], m, over, y, x0, labw, draw) : 0;
}

int tree_draw(struct tui *t, int pi, int y0, int x0, int w, bool draw)
{
	struct upane *p = &t->panes[pi];
	int cols[TREE_MAXCOLS], ncols = tree_columns(t, p, w, cols, TREE_MAXCOLS), colw = column_width(t, p);
	int labw = w - ncols * colw - 18;
	signed char *over = xcalloc((size_t)(p->nmetrics + 1), 1);
	thresholds(t, p, cols, ncols, over);
	if (draw)
		for (int c = 0; c < ncols; c++)
			crt_put(y0, x0 + labw + c * colw + colw - 1 - (int)strlen(t->f->iinfo[p->inst[cols[c]]].display), colw,
				R_TITLE, t->f->iinfo[p->inst[cols[c]]].display);
	int lines = 1, neck = draw ? bottleneck(t, p, cols, ncols, over) : -1;
	lines += node_extra(t, p, cols, ncols, -1, over, y0 + lines, x0, labw, draw);
	p->nrows = 0;
	for (int m = 0; m < p->nmetrics; m++) {
		if (!node_shown(p, m, over))
			continue;
		int y = y0 + lines++, row = p->nrows;
		p->row_y[row] = y - (y0 - 1);
		p->row_metric[row] = m;
		p->row_inst[p->nrows++] = ncols ? p->inst[cols[0]] : p->inst[0];
		if (!draw) {
			lines += node_extra(t, p, cols, ncols, m, over, 0, x0, labw, false);
			continue;
		}
		char label[160], val[64], share[32];
		node_label(t, p, m, over, m == neck, label, sizeof(label));
		bool focus = t->focus == pi && t->row == row && !t->mode;
		if (focus)
			crt_fill(y, x0, w, R_FOCUS, ' ');
		crt_put(y, x0, labw, focus ? R_FOCUS : over[m] == 1 ? R_MARK : R_LABEL, label);
		for (int c = 0; c < ncols; c++) {
			int slot = p->slot[cols[c] * p->nmetrics + m];
			enum role vr;
			cell_text(t, slot, p->metrics[m]->unit, val, sizeof(val), &vr);
			crt_put(y, x0 + labw + (c + 1) * colw - 1 - (int)strlen(val), colw, vr, val);
		}
		parent_share(t, p, cols, ncols, m, share, sizeof(share));
		crt_put(y, x0 + labw + ncols * colw + 2, 16, R_DIM, share);
		lines += node_extra(t, p, cols, ncols, m, over, y0 + lines, x0, labw, true);
	}
	free(over);
	return lines;
}

void tree_toggle(struct tui *t, struct upane *p)
{
	if (t->row < 0 || t->row >= p->nrows)
		return;
	int m = p->row_metric[t->row];
	if (!has_children(p, m)) {
		tui_message(t, false, "%s has no level below it", p->metrics[m]->name);
		return;
	}
	int cols[TREE_MAXCOLS], ncols = tree_columns(t, p, 1000, cols, TREE_MAXCOLS);
	signed char *over = xcalloc((size_t)(p->nmetrics + 1), 1);
	thresholds(t, p, cols, ncols, over);
	bool open = p->tree_open[m] >= 0 ? p->tree_open[m] : over[m] == 1;
	free(over);
	p->tree_open[m] = !open;
	t->relayout = true;
}

void tree_reveal(struct upane *p, int m)
{
	for (int a = p->tree_parent[m]; a >= 0; a = p->tree_parent[a])
		p->tree_open[a] = 1;
}

/* Whether a tree pane is there; if not, says how to have one. */
static bool any_tree(struct tui *t)
{
	for (int pi = 0; pi < t->npanes; pi++)
		if (t->panes[pi].style == STYLE_TREE && t->panes[pi].nmetrics)
			return true;
	tui_message(t, false, "no TopDown tree here (perf's catalogue: -M TopdownL1,TopdownL2,...)");
	return false;
}

void tree_open_all(struct tui *t)
{
	if (!any_tree(t))
		return;
	bool any_closed = false;
	for (int pi = 0; pi < t->npanes; pi++) {
		struct upane *p = &t->panes[pi];
		for (int m = 0; p->style == STYLE_TREE && m < p->nmetrics; m++)
			any_closed |= has_children(p, m) && p->tree_open[m] != 1;
	}
	for (int pi = 0; pi < t->npanes; pi++)
		for (int m = 0; t->panes[pi].style == STYLE_TREE && m < t->panes[pi].nmetrics; m++)
			t->panes[pi].tree_open[m] = any_closed;
	tui_message(t, false, any_closed ? "every TopDown node open (*: close them)" : "every TopDown node closed");
	t->relayout = true;
}

void tree_per_cpu(struct tui *t, struct upane *p)
{
	int ncpus = 0;
	for (int i = 0; i < p->ninst; i++)
		ncpus += p->is_detail[i];
	if (!p->expandable || !ncpus) {
		tui_message(t, false, "no per-CPU values in this tree");
		return;
	}
	if (!p->expanded) {
		p->expanded = true;
		p->tree_cpu_first = 0;
	} else if (p->tree_cpu_first + p->tree_cpus_shown < ncpus && p->tree_cpus_shown > 0) {
		p->tree_cpu_first += p->tree_cpus_shown; /* the next page of them */
	} else {
		p->expanded = false;
		p->tree_cpu_first = 0;
	}
	p->user_chose = true;
	t->relayout = true;
	if (!p->expanded)
		tui_message(t, false, "the machine and its sockets (c: per CPU)");
	else
		tui_message(t, false, "CPUs from the %d%s of %d%s (c: the next; o: by the focused node)", p->tree_cpu_first + 1,
			    p->tree_cpu_first == 0 ? "st" : "th", ncpus, p->sort >= 0 ? ", highest first" : "");
}

void tree_sort(struct tui *t, struct upane *p)
{
	if (t->row < 0 || t->row >= p->nrows)
		return;
	int m = p->row_metric[t->row];
	p->sort = p->sort == m ? -1 : m;
	if (!p->expanded)
		p->expanded = true;
	p->tree_cpu_first = 0;
	p->user_chose = true;
	t->relayout = true;
	tui_message(t, false, p->sort < 0 ? "CPUs by number" : "CPUs by %s, highest first (o again: by number)",
		    p->metrics[m]->name);
}

void tree_toggle_bars(struct tui *t)
{
	if (!any_tree(t))
		return;
	t->tree_bars = !t->tree_bars;
	tui_message(t, false, t->tree_bars ? "each open node's children as one bar, a letter each (b: none)"
					    : "no bars under the nodes");
	t->relayout = true;
}
