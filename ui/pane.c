/* SPDX-License-Identifier: GPL-2.0-only */
/* pane.c - draw one pane in its style: "bars" and "values" (a block of metric rows per
 * instance, side by side when wide enough), "table" (a row per instance, a column per
 * metric), "stacked" (a stacked bar per instance, e.g. TopDown). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "base/util.h"

#define SPARK_W 12


static const struct frame_value *slot_value(struct tui *t, int slot)
{
	return slot >= 0 ? &t->f->values[slot] : NULL;
}

/* Right-align text ending at column x_end. */
static void put_right(int y, int x_end, int w, enum role r, const char *text)
{
	int n = (int)strlen(text);
	if (n > w)
		n = w;
	crt_put(y, x_end - n, n, r, text);
}

/* The instance's state, for its header: problems first, then filters. */
static void instance_note(struct tui *t, int i, bool mixed, char *buf, size_t len, enum role *r)
{
	const struct frame_instance *in = &t->f->inst[i];
	/* a pane of several groups says whose filter it is: only the C2C rows are under
	 * gpu_mask, not the whole column */
	const char *group = mixed ? t->f->iinfo[i].group->name : NULL;
	*r = R_DIM;
	buf[0] = '\0';
	if (in->error) {
		str_copy(buf, len, in->error);
		*r = in->absent ? R_DIM : R_ERROR;
		return;
	}
	const char *f = in->filters ? in->filters : "";
	bool changed = in->filters_seq && t->f->seq <= in->filters_seq;
	if (*f)
		snprintf(buf, len, "%s%s%s%s", changed ? "filter changed: " : "", group ? group : "", group ? ": " : "", f);
	else if (changed)
		snprintf(buf, len, "filter changed: all");
	if (changed)
		*r = R_MARK;
	/* multiplexed: how much of the interval the group was counted */
	double cov = in->coverage;
	if (cov < 1) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, "%smultiplexed %.0f%%", n ? "  " : "", cov * 100);
		*r = R_MARK;
	}
}

/* Why a metric has no value slot for this instance: the event its PMU lacks (and the
 * profile's notes, e.g. the C2C peer), or the PMU that is missing altogether. */
static void missing_text(struct tui *t, const struct prof_metric *pm, int cell, char *buf, size_t len)
{
	if (cell >= 0) {
		const struct instance_info *in = &t->f->iinfo[cell];
		const struct prof_formula *f = metric_form(pm, (int)(in->group - in->profile->groups));
		const char *ev = "its events";
		for (int i = 0; f && i < f->ninputs; i++)
			if (!in->present[f->inputs[i]]) {
				ev = in->group->events[f->inputs[i]].terms;
				break;
			}
		snprintf(buf, len, "n/a: no %s%s%s", ev, *in->notes ? ", " : "", in->notes);
		return;
	}
	for (int g = 0; g < t->f->nmissing; g++) {
		const struct prof_group *mg = t->f->missing[g];
		bool mine = false;
		for (int f = 0; f < pm->nforms; f++)
			mine |= pm->forms[f].group_name && !strcmp(mg->name, pm->forms[f].group_name);
		if (mine) {
			snprintf(buf, len, "n/a: no '%s' PMU", mg->pmu_pattern);
			return;
		}
	}
	snprintf(buf, len, "n/a");
}

static void row_label(struct tui *t, int pi, int row, int y, int x, int w, const char *text, enum role normal)
{
	bool focus = t->focus == pi && t->row == row && !t->mode;
	if (focus)
		crt_fill(y, x, w, R_FOCUS, ' ');
	crt_put(y, x, w, focus ? R_FOCUS : normal, text);
}

/* Does block i show metric m? Per-CPU blocks leave out what is not counted per CPU, and
 * a block leaves out metrics of groups it has no instance of (unless the group is missing
 * altogether: then the row says so). */
static bool block_has(const struct upane *p, int i, int m)
{
	return p->cell[i * p->nmetrics + m] >= 0 || (!p->is_detail[i] && p->says_missing[m]);
}

static int block_height(const struct tui *t, const struct upane *p, int i)
{
	int h = 1;
	for (int m = 0; m < p->nmetrics; m++)
		h += block_has(p, i, m);
	return h + (p->open[i] ? t->f->iinfo[p->inst[i]].ndetails : 0);
}

static void draw_block_row(struct tui *t, int pi, int i, int m, int yy, int x, int bw, bool bars)
{
	struct upane *p = &t->panes[pi];
	int row = p->nrows - 1;
	int cell = p->cell[i * p->nmetrics + m];
	int slot = p->slot[i * p->nmetrics + m];
	const struct prof_metric *pm = p->metrics[m];
	const struct frame_value *v = slot_value(t, slot);
	int labw = p->label_w < bw / 2 ? p->label_w : bw / 2;
	row_label(t, pi, row, yy, x, labw, "", slot < 0 ? R_DIM : R_LABEL);
	char val[64];
	enum role vr;
	cell_text(t, slot, pm->unit, val, sizeof(val), &vr);
	int sparkw = t->set.sparklines != SPARK_OFF && bw >= 50 ? SPARK_W : 0;
	int vx_end = x + bw - 1 - (sparkw ? sparkw + 1 : 0);
	/* without a bar, a long title (perf's run to 45 characters) may take the room up to
	 * its value, and loses its middle only past that */
	int titlew = bars || slot < 0 || (int)strlen(val) > 16 ? labw - 1 : vx_end - (int)strlen(val) - x - 2;
	crt_put_elided(yy, x + 1, titlew, t->focus == pi && t->row == row && !t->mode ? R_FOCUS : slot < 0 ? R_DIM : R_LABEL,
		       p->mtitle[m], t->utf8 ? "…" : "~");
	if (slot < 0) { /* say why, after the label */
		missing_text(t, pm, cell, val, sizeof(val));
		crt_put(yy, x + labw + 1, bw - labw - 2, R_DIM, val);
		return;
	}
	if ((int)strlen(val) > 16) { /* a reason rather than a value: it takes the bar's room */
		if ((int)strlen(val) > bw - labw - 2 && str_has_prefix(val, "n/a (mode"))
			snprintf(val, sizeof(val), "n/a (mode not supported)");
		crt_put(yy, x + labw + 1, bw - labw - 2, vr, val);
		return;
	}
	int valw = 16; /* "0.00131 req/cyc" */
	put_right(yy, vx_end, valw, vr, val);
	float scale = p->scale[m];
	if (bars && slot >= 0) {
		int barx = x + labw, barw = vx_end - valw - 1 - barx - 2;
		if (barw >= 4) {
			p->drew_bars = true;
			crt_put(yy, barx, 1, R_DIM, "[");
			double frac = v && v->state == VS_OK && scale > 0 ? v->value / scale : 0;
			draw_bar(t, yy, barx + 1, barw, frac, R_NORMAL);
			crt_put(yy, barx + 1 + barw, 1, R_DIM, "]");
		}
	}
	if (sparkw && slot >= 0)
		draw_sparkline(t, yy, vx_end + 1, sparkw, slot, scale);
}

static int detail_lines(struct tui *t, const struct upane *p, int inst, int y, int x, int w, int labw, int cw, int ncols);

/* bars / values: one block per instance name, side by side when they fit */
static int draw_blocks(struct tui *t, int pi, int y0, int x0, int w, bool draw)
{
	struct upane *p = &t->panes[pi];
	bool bars = p->style == STYLE_BARS;
	int minw = bars ? 58 : 46;
	int nvis = 0;
	for (int i = 0; i < p->ninst; i++)
		nvis += pane_shows(p, i);
	int ncols = w / minw;
	if (ncols < 1)
		ncols = 1;
	if (ncols > nvis)
		ncols = nvis ? nvis : 1;
	/* pcm-memory's table: a column per socket and one for all side by side, narrower (no
	 * sparkline), rather than all's block below repeating every row a third time */
	if (!bars && nvis > ncols && nvis <= 4 && w / nvis >= 38)
		ncols = nvis;
	int bw = w / ncols;
	if (!bars && bw > 72) /* values far from their labels are hard to read */
		bw = 72;
	int lines = 0, col = 0, tallest = 0;
	p->nrows = 0;
	for (int i = 0; i < p->ninst; i++) {
		if (!pane_shows(p, i))
			continue;
		int x = x0 + col * bw;
		int y = y0 + lines;
		if (draw) {
			char note[200];
			enum role nr = R_DIM;
			note[0] = '\0';
			/* the first instance of this name with something to say */
			for (int m = 0; m < p->nmetrics && !note[0]; m++) {
				int c = p->cell[i * p->nmetrics + m];
				if (c >= 0)
					instance_note(t, c, p->mixed, note, sizeof(note), &nr);
			}
			const char *title = p->ititle[i];
			crt_put(y, x, bw - 1, R_TITLE, title);
			crt_put(y, x + (int)strlen(title) + 1, bw - (int)strlen(title) - 2, nr, note);
		}
		int yy = y + 1;
		for (int m = 0; m < p->nmetrics; m++) {
			if (!block_has(p, i, m))
				continue;
			int cell = p->cell[i * p->nmetrics + m];
			p->row_y[p->nrows] = yy - (y0 - 1);
			p->row_metric[p->nrows] = m;
			p->row_inst[p->nrows++] = cell >= 0 ? cell : p->inst[i];
			if (draw)
				draw_block_row(t, pi, i, m, yy, x, bw, bars);
			yy++;
		}
		if (p->open[i] && draw) /* Enter: the devices behind a stack or an RC, under its block */
			detail_lines(t, p, p->inst[i], yy, x, bw - 1, 0, 0, 0);
		if (block_height(t, p, i) > tallest)
			tallest = block_height(t, p, i);
		if (++col == ncols) {
			col = 0;
			lines += tallest;
			tallest = 0;
		}
	}
	if (col)
		lines += tallest;
	return lines;
}

/* The value slot of metric m of the pane for session instance ii, or -1. */
static int slot_of(const struct tui *t, const struct upane *p, int m, int ii)
{
	const struct frame *f = t->f;
	for (int k = 0; k < f->nvalues; k++)
		if (f->vinfo[k].instance == ii && f->vinfo[k].m == p->metrics[m])
			return k;
	return -1;
}

/* What Enter shows under a row (an RC's root ports and the devices behind them, as the
 * engine describes them): a line starting with a blank hangs under the one above. A root
 * port counted on its own (per_bit) shows its values in the table's columns. Returns the
 * lines used. */
static int detail_lines(struct tui *t, const struct upane *p, int inst, int y, int x, int w, int labw, int cw, int ncols)
{
	const struct instance_info *in = &t->f->iinfo[inst];
	for (int i = 0; i < in->ndetails; i++) {
		const char *d = in->details[i];
		bool child = d[0] == ' ';
		char line[240];
		snprintf(line, sizeof(line), "%s%s%s", child ? "       " : "     ", child ? (t->utf8 ? "└ " : "`- ") : "",
			 child ? d + 1 : d);
		crt_put(y + i, x, w, child ? R_DIM : R_LABEL, line);
		int rp;
		if (child || sscanf(d, "RP%d", &rp) != 1)
			continue;
		for (int ii = 0; ii < t->f->ninstances; ii++) {
			const char *v = frame_label(t->f, ii, "rp");
			if (t->f->iinfo[ii].parent != inst || !v || atoi(v) != rp)
				continue;
			for (int m = 0; m < ncols; m++) {
				int slot = slot_of(t, p, m, ii);
				if (slot < 0)
					continue;
				char val[64];
				enum role vr;
				cell_text(t, slot, p->metrics[m]->unit, val, sizeof(val), &vr);
				put_right(y + i, x + labw + (m + 1) * cw, cw - 1, vr, val);
			}
		}
	}
	return in->ndetails;
}

/* "      filters: pcie src_rp_mask=0x3; pcie_tgt dst_rp_mask=0x81", or "" if none */
static void row_filters(struct tui *t, const struct upane *p, int i, char *buf, size_t len)
{
	size_t n = 0;
	int seen[8], nseen = 0;
	buf[0] = '\0';
	for (int m = 0; m < p->nmetrics && nseen < 8; m++) {
		int c = p->cell[i * p->nmetrics + m];
		bool dup = c < 0;
		for (int k = 0; k < nseen && !dup; k++)
			dup = seen[k] == c;
		if (dup)
			continue;
		seen[nseen++] = c;
		const char *f = t->f->inst[c].filters;
		if (!f || !*f || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s", n ? "; " : "      filters: ", t->f->iinfo[c].group->name, f);
	}
}

/* A title in two lines at the blank nearest its middle; the longer line's length (the
 * whole title's when it has no blank). */
static int split_title(const char *title, int *at)
{
	int n = (int)strlen(title), best = n;
	*at = -1;
	for (int i = 0; i < n; i++)
		if (title[i] == ' ' && (i > n - i - 1 ? i : n - i - 1) < best) {
			best = i > n - i - 1 ? i : n - i - 1;
			*at = i;
		}
	return best;
}

/* A table's columns: wide enough for every metric title on one header line, else on
 * two (13 at least). False when the columns do not all fit in w. */
static bool table_columns(const struct upane *p, int w, int *cw, int *header_lines)
{
	int wide = 13, split = 13;
	for (int m = 0; m < p->nmetrics; m++) {
		int at, len = (int)strlen(p->mtitle[m]), half = split_title(p->mtitle[m], &at);
		if (len + 2 > wide)
			wide = len + 2;
		if ((half < len ? half : len) + 2 > split)
			split = (half < len ? half : len) + 2;
	}
	*cw = 20 + p->nmetrics * wide <= w ? wide : split;
	*header_lines = *cw == wide ? 1 : 2;
	return 20 + p->nmetrics * *cw <= w;
}

/* table: a row per instance, a column per metric, a bar (not in a values pane) and a
 * sparkline for the first */
static int draw_table(struct tui *t, int pi, int y0, int x0, int w, bool draw)
{
	struct upane *p = &t->panes[pi];
	int labw = 20, cw, hl;
	if (!table_columns(p, w, &cw, &hl)) { /* as many columns as fit, on one header line */
		cw = 13;
		hl = 1;
	}
	int ncols = p->nmetrics;
	while (ncols > 1 && labw + ncols * cw > w)
		ncols--;
	int rest = w - labw - ncols * cw;
	int sparkw = t->set.sparklines != SPARK_OFF && rest >= SPARK_W + 14 ? SPARK_W : 0;
	int barw = p->style != STYLE_VALUES ? rest - sparkw - 4 : 0;
	if (barw > 30) { /* a wide terminal: wider columns and a longer bar, not blank space */
		int spare = barw - 30;
		int grow = spare / 2 / (ncols ? ncols : 1);
		if (grow > 5)
			grow = 5;
		cw += grow;
		barw = w - labw - ncols * cw - sparkw - 4;
		if (barw > 60)
			barw = 60;
	}
	if (draw) {
		for (int m = 0; m < ncols; m++) {
			char h[64];
			int at;
			str_copy(h, sizeof(h), p->mtitle[m]);
			if (hl == 2 && (int)strlen(h) > cw - 1 && split_title(h, &at) <= cw - 1 && at >= 0) {
				h[at] = '\0';
				put_right(y0, x0 + labw + (m + 1) * cw, cw - 1, R_TITLE, h);
				put_right(y0 + 1, x0 + labw + (m + 1) * cw, cw - 1, R_TITLE, h + at + 1);
			} else {
				put_right(y0 + hl - 1, x0 + labw + (m + 1) * cw, cw - 1, R_TITLE, h);
			}
		}
		if (barw >= 6)
			crt_put(y0 + hl - 1, x0 + labw + ncols * cw + 2, barw, R_DIM, p->metrics[0]->title);
	}
	int lines = hl;
	p->nrows = 0;
	for (int i = 0; i < p->ninst; i++) {
		if (!pane_shows(p, i))
			continue;
		const struct instance_info *in = &t->f->iinfo[p->inst[i]];
		const struct frame_instance *fi = &t->f->inst[p->inst[i]];
		int y = y0 + lines++;
		int row = p->nrows;
		p->row_y[p->nrows] = y - (y0 - 1);
		p->row_metric[p->nrows] = -1;
		p->row_inst[p->nrows++] = p->inst[i];
		/* which filters the row's counts are under: a line of its own under the row */
		char fl[240];
		row_filters(t, p, i, fl, sizeof(fl));
		bool filtered = fl[0] != '\0';
		int fy = filtered ? y0 + lines++ : -1, fl_lines = filtered ? 1 : 0;
		if (!draw) { /* measured as drawn: the lines Enter opened under it count too */
			if (p->open[i] && !fi->error)
				lines += in->ndetails;
			continue;
		}
		if (filtered)
			crt_put(fy, x0, w, R_MARK, fl);
		char label[48];
		snprintf(label, sizeof(label), " %s%s", in->display, filtered ? "*" : "");
		enum role er = fi->absent ? R_DIM : R_ERROR;
		row_label(t, pi, row, y, x0, labw, label, fi->error ? er : R_LABEL);
		if (fi->error) {
			crt_put(y, x0 + labw, w - labw, er, fi->error);
			continue;
		}
		for (int m = 0; m < ncols; m++) {
			int slot = p->slot[i * p->nmetrics + m];
			char val[64];
			enum role vr;
			cell_text(t, slot, p->metrics[m]->unit, val, sizeof(val), &vr);
			put_right(y, x0 + labw + (m + 1) * cw, cw - 1, vr, val);
		}
		if (p->open[i])
			lines += detail_lines(t, p, p->inst[i], y + fl_lines + 1, x0, w, labw, cw, ncols);
		int slot0 = p->slot[i * p->nmetrics];
		if (slot0 >= 0) {
			const struct frame_value *v = slot_value(t, slot0);
			float scale = p->scale[0];
			int bx = x0 + labw + ncols * cw + 2;
			if (barw >= 6) {
				double frac = v && v->state == VS_OK && scale > 0 ? v->value / scale : 0;
				draw_bar(t, y, bx, barw, frac, R_NORMAL);
			}
			if (sparkw)
				draw_sparkline(t, y, bx + barw + 1, sparkw, slot0, scale);
		}
	}
	return lines;
}

/* stacked: metrics are shares (percent) of one whole, one bar per instance; expanded,
 * a second bar under each with the detail metrics (each parent's children in its place) */
static double share(struct tui *t, int slot, bool *ok)
{
	const struct frame_value *v = slot_value(t, slot);
	*ok &= v && v->state == VS_OK;
	return v && v->state == VS_OK ? v->value / 100.0 : 0;
}

/* One stacked bar and its numbers; valn is how many numbers the widest level shows, so
 * that level 2's bar is as long as level 1's and each child sits under its parent. */
static void stacked_line(struct tui *t, int y, int x0, int w, int labw, const int *slots, int n, int valn,
			 const char *letters, const char *why)
{
	double fr[8] = { 0 };
	bool ok = true;
	for (int m = 0; m < n; m++)
		fr[m] = share(t, slots[m], &ok);
	int valw = valn * 6, bw = w - labw - valw - 1;
	if (bw < 4) { /* narrow: the numbers matter more than the bar */
		bw = 0;
		valw = w - labw;
	}
	if (!ok) {
		crt_put(y, x0 + labw, w - labw, R_DIM, why);
		return;
	}
	draw_stacked(t, y, x0 + labw, bw, fr, n, letters);
	for (int m = 0; m < n && (m + 1) * 6 <= valw; m++) {
		char v[16];
		snprintf(v, sizeof(v), "%c%3.0f%%", letters[m], fr[m] * 100);
		crt_put(y, x0 + w - valw + m * 6, 5, R_VALUE, v);
	}
}

/* Sorting per-CPU rows by the mean of their last few values, with hysteresis: starting
 * from the last order, a row passes the one above it only when it is larger by more than
 * 2 % of the largest - so that noise does not reshuffle rows on every refresh. */
static struct upane *cmp_pane;

static int cmp_last_order(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	if (cmp_pane->sort_pos[i] != cmp_pane->sort_pos[j])
		return cmp_pane->sort_pos[i] - cmp_pane->sort_pos[j];
	return i - j;
}

static void sort_rows(struct tui *t, struct upane *p, int *order, int n)
{
	double key[p->ninst ? p->ninst : 1], top = 0;
	for (int k = 0; k < n; k++) {
		int i = order[k], slot = p->slot[i * p->nmetrics + p->sort];
		double sum = 0;
		int got = 0;
		for (int h = 0; h < 5 && slot >= 0; h++) {
			float v = history_get(t->hist, slot, h);
			if (!isnan(v))
				sum += v, got++;
		}
		key[i] = got ? sum / got : -1;
		if (key[i] > top)
			top = key[i];
	}
	double margin = top > 0 ? top * 0.02 : 0;
	cmp_pane = p;
	qsort(order, (size_t)n, sizeof(int), cmp_last_order);
	for (int k = 1; k < n; k++) /* insertion, moving up only past a clear difference */
		for (int j = k; j > 0 && key[order[j]] > key[order[j - 1]] + margin; j--) {
			int x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (int k = 0; k < n; k++)
		p->sort_pos[order[k]] = k;
}

/* A stacked pane's legend (its letters, and level 2's when shown, on as many lines as
 * they need); how many lines it takes. */
static int stacked_legend(struct upane *p, int y0, int x0, int w, const char *letters, int n, const char *dletters,
			  int nd, bool draw)
{
	if (draw) {
		int x = x0 + 1;
		for (int m = 0; m < n; m++) {
			char item[64];
			snprintf(item, sizeof(item), "%c %s", letters[m], p->mtitle[m]);
			crt_put(y0, x, 1, (enum role)(R_CAT0 + m), item);
			crt_put(y0, x + 1, w - (x - x0) - 1, R_DIM, item + 1);
			x += (int)strlen(item) + 2;
		}
		bool level2 = false; /* Arm has level-2 metrics on no CPU: no offer of them */
		for (int i = 0; i < p->ninst * p->ndetail && !level2; i++)
			level2 = p->detail_slot[i] >= 0;
		char hint[80];
		snprintf(hint, sizeof(hint), "%s%s%s",
			 nd && level2 ? (p->show_detail ? "Enter: level 1  " : "Enter: level 2  ") : "",
			 p->expandable ? (p->expanded ? "c: summaries  " : "c: per CPU  ") : p->cpus_summed ? "c: count per CPU  " : "",
			 p->expanded ? "o: sort" : "");
		if (x0 + w - (int)strlen(hint) - 1 >= x) /* only where it does not cover the legend */
			crt_put(y0, x0 + w - (int)strlen(hint) - 1, (int)strlen(hint), R_DIM, hint);
	}
	int lines = 1;
	if (p->show_detail && nd) {
		int x = x0 + 3;
		lines++;
		if (draw)
			crt_put(y0 + 1, x0, 3, R_DIM, " 2:");
		for (int d = 0; d < nd; d++) {
			char item[64];
			snprintf(item, sizeof(item), "%c %s", dletters[d], p->detail[d]->title);
			if (x + (int)strlen(item) > x0 + w - 1) {
				x = x0 + 3;
				lines++;
			}
			if (draw) {
				crt_put(y0 + lines - 1, x, 1, (enum role)(R_CAT0 + d / 2), item);
				crt_put(y0 + lines - 1, x + 1, w - (x - x0) - 1, R_DIM, item + 1);
			}
			x += (int)strlen(item) + 2;
		}
	}
	return lines;
}

/* The rows in the order they show: aggregates first, then CPUs, sorted if asked, cut to
 * the room there is; *more says how many CPUs were left out. */
static int stacked_order(struct tui *t, struct upane *p, int *order, int *more)
{
	int no = 0, ncpu = 0;
	for (int i = 0; i < p->ninst; i++)
		if (pane_shows(p, i) && !p->is_detail[i])
			order[no++] = i;
	int first_cpu = no;
	for (int i = 0; i < p->ninst; i++)
		if (pane_shows(p, i) && p->is_detail[i])
			order[no++] = i, ncpu++;
	if (p->sort >= 0 && ncpu > 1)
		sort_rows(t, p, order + first_cpu, ncpu);
	*more = 0;
	if (p->max_cpu_rows > 0 && ncpu > p->max_cpu_rows) {
		*more = ncpu - p->max_cpu_rows;
		no = first_cpu + p->max_cpu_rows;
	}
	return no;
}

/* Level 2 under instance i's row at y. */
static void stacked_detail(struct tui *t, struct upane *p, int i, int y, int x0, int w, int labw, int valn,
			   const char *dletters, int nd)
{
	int slots[8];
	bool any = false;
	for (int d = 0; d < nd; d++) {
		slots[d] = p->detail_slot[i * p->ndetail + d];
		any |= slots[d] >= 0;
	}
	crt_put(y, x0, labw, R_DIM, t->utf8 ? "   └ level 2" : "   `- level 2");
	if (any)
		stacked_line(t, y, x0, w, labw, slots, nd, valn, dletters, "-");
	else /* a blend (a hybrid's every CPU): level 2 where only some of its kinds have it */
		crt_put(y, x0 + labw, w - labw, R_DIM,
			t->f->iinfo[p->inst[i]].nparts ? "not on every CPU of this row: see the rows it blends"
						       : "no level 2 on this CPU");
}

static int draw_stacked_pane(struct tui *t, int pi, int y0, int x0, int w, bool draw)
{
	struct upane *p = &t->panes[pi];
	int n = p->nmetrics < 8 ? p->nmetrics : 8;
	int nd = p->ndetail < 8 ? p->ndetail : 8;
	char letters[9] = { 0 }, dletters[9] = { 0 };
	for (int m = 0; m < n; m++)
		letters[m] = p->letters && (int)strlen(p->letters) > m ? p->letters[m]
								   : (char)toupper((unsigned char)p->metrics[m]->title[0]);
	for (int d = 0; d < nd; d++)
		dletters[d] = p->letters && (int)strlen(p->letters) > n + d ? p->letters[n + d]
									    : (char)toupper((unsigned char)p->detail[d]->title[0]);
	int lines = stacked_legend(p, y0, x0, w, letters, n, dletters, nd, draw);
	int valn = p->show_detail && nd > n ? nd : n;
	p->nrows = 0;
	int order[p->ninst ? p->ninst : 1], more;
	int no = stacked_order(t, p, order, &more);
	int labw = 16;
	for (int k = 0; k < no; k++) {
		int i = order[k];
		const struct instance_info *in = &t->f->iinfo[p->inst[i]];
		const struct frame_instance *fi = &t->f->inst[p->inst[i]];
		int y = y0 + lines++;
		int row = p->nrows;
		p->row_y[p->nrows] = y - (y0 - 1);
		p->row_metric[p->nrows] = -1;
		p->row_inst[p->nrows++] = p->inst[i];
		if (draw) {
			char label[40];
			if (fi->coverage < 1) /* counted in turn: its share of the interval, as blocks say */
				snprintf(label, sizeof(label), " %s ~%.0f%%", in->name, fi->coverage * 100);
			else
				snprintf(label, sizeof(label), " %s", in->name);
			row_label(t, pi, row, y, x0, labw, label, fi->coverage < 1 ? R_MARK : R_LABEL);
			int slots[8];
			for (int m = 0; m < n; m++)
				slots[m] = p->slot[i * p->nmetrics + m];
			stacked_line(t, y, x0, w, labw, slots, n, valn, letters, fi->error ? fi->error : "-");
		}
		if (p->show_detail && nd) {
			int yy = y0 + lines++;
			if (draw)
				stacked_detail(t, p, i, yy, x0, w, labw, valn, dletters, nd);
		}
	}
	if (more) {
		if (draw) {
			char line[96];
			snprintf(line, sizeof(line), "   %s %d more CPUs (c shows them all, o sorts)", t->utf8 ? "…" : "...", more);
			crt_put(y0 + lines, x0, w, R_DIM, line);
		}
		lines++;
	}
	return lines;
}

/* What Enter does in the pane: on a focused row with details (an RC's root ports, a
 * stack's devices) it shows or hides them; elsewhere a pane with detail rows (CPUs, a
 * socket's channels and links) shows or hides those. NULL: nothing. */
static const char *enter_hint(const struct tui *t, int pi)
{
	const struct upane *p = &t->panes[pi];
	int in = t->focus == pi && t->row >= 0 && t->row < p->nrows ? p->row_inst[t->row] : -1;
	if (p->style == STYLE_TREE)
		return !p->expandable ? " [Enter: open or close a node] "
		       : p->expanded ? " [Enter: open or close a node  c: more CPUs  o: sort] "
				     : " [Enter: open or close a node  c: per CPU] ";
	if (in >= 0 && t->f->iinfo[in].ndetails && p->style != STYLE_STACKED) {
		for (int i = 0; i < p->ninst; i++)
			if (!strcmp(t->f->iinfo[p->inst[i]].name, t->f->iinfo[in].name))
				return p->open[i] ? " [Enter: hide its devices] " : " [Enter: its devices] ";
	}
	if (!p->expandable || p->style == STYLE_STACKED) /* stacked panes hint in their legend */
		return NULL;
	if (p->expanded)
		return " [Enter: collapse] ";
	return p->cpu_details ? " [Enter: per CPU] " : " [Enter: details] ";
}

/* the rule that opens a pane: its title and what Enter does */
void pane_draw_title(struct tui *t, int pi, int y, int x, int w)
{
	struct upane *p = &t->panes[pi];
	crt_rule(t, y, x, w, R_DIM);
	char title[160];
	snprintf(title, sizeof(title), " %s ", p->title);
	crt_put(y, x + 1, w - 2, t->focus == pi ? R_TITLE_FOCUS : R_TITLE, title);
	const char *hint = enter_hint(t, pi);
	if (hint)
		crt_put(y, x + w - (int)strlen(hint) - 1, (int)strlen(hint), R_DIM, hint);
}

/* Blocks that repeat one block per instance and would take much of the screen read
 * better as a table (instances as rows, metrics as columns), when every instance has
 * every metric and every column fits: four BlueField tiles took 28 lines as blocks. */
static bool blocks_as_table(struct tui *t, int pi, int w)
{
	struct upane *p = &t->panes[pi];
	if ((p->style != STYLE_BARS && p->style != STYLE_VALUES) || p->expandable || p->nmetrics < 2)
		return false;
	int nvis = 0;
	for (int i = 0; i < p->ninst; i++) {
		if (!pane_shows(p, i))
			continue;
		nvis++;
		for (int m = 0; m < p->nmetrics; m++)
			if (p->cell[i * p->nmetrics + m] < 0)
				return false;
	}
	int cw, hl;
	if (nvis < 3 || !table_columns(p, w, &cw, &hl))
		return false;
	int blocks = draw_blocks(t, pi, 0, 0, w, false);
	return blocks > 2 * (nvis + hl) && blocks > (term_lines - 4) / 3;
}

int pane_draw(struct tui *t, int pi, int y, int x, int w, bool draw)
{
	struct upane *p = &t->panes[pi];
	if (draw)
		pane_draw_title(t, pi, y, x, w);
	if (p->missing) { /* wrapped, not cut: at 80 columns it may say where to look */
		p->nrows = 0;
		if (draw)
			return 1 + crt_put_wrapped(y + 1, x + 1, w - 2, 3, R_DIM, p->missing);
		return 1 + crt_wrap_count(p->missing, w - 2, 3);
	}
	/* bars of one unit share one scale in a pane (405 GB/s is drawn longer than 180 GB/s),
	 * and the rule says what a full bar is, once the body has drawn one */
	char full[96] = "";
	if (draw && p->style != STYLE_STACKED && p->style != STYLE_TREE) {
		for (int m = 0; m < p->nmetrics; m++)
			pane_scale(t, p, m);
		size_t n = 0;
		for (int m = 0; m < p->nmetrics; m++) {
			bool first = true;
			for (int o = 0; o < m && first; o++)
				first = strcmp(p->metrics[o]->unit, p->metrics[m]->unit) != 0;
			if (!first)
				continue;
			float top = 0;
			for (int o = m; o < p->nmetrics; o++)
				if (!strcmp(p->metrics[o]->unit, p->metrics[m]->unit) && p->scale[o] > top)
					top = p->scale[o];
			for (int o = m; o < p->nmetrics; o++)
				if (!strcmp(p->metrics[o]->unit, p->metrics[m]->unit) && !p->metrics[o]->max)
					p->scale[o] = top;
			char num[24], u[16];
			format_human(top, p->metrics[m]->unit, num, sizeof(num), u, sizeof(u));
			if (top > 0 && n < sizeof(full) - 1 && p->style == STYLE_BARS)
				n += (size_t)snprintf(full + n, sizeof(full) - n, "%s%s %s", n ? ", " : " bar = ", num, u);
		}
		if (n && (int)n + 4 < w / 2)
			snprintf(full + n, sizeof(full) - n, " ");
		else
			full[0] = '\0';
	}
	int body;
	p->drew_bars = false;
	if (!draw) /* measured at layout, drawn as measured */
		p->as_table = p->style == STYLE_TABLE || blocks_as_table(t, pi, w);
	if (p->style == STYLE_TREE)
		body = tree_draw(t, pi, y + 1, x, w, draw);
	else if (p->as_table)
		body = draw_table(t, pi, y + 1, x, w, draw);
	else if (p->style == STYLE_STACKED)
		body = draw_stacked_pane(t, pi, y + 1, x, w, draw);
	else
		body = draw_blocks(t, pi, y + 1, x, w, draw);
	if (*full && p->drew_bars) { /* left of the Enter hint, which it used to cover */
		const char *h = enter_hint(t, pi);
		int hint = h ? (int)strlen(h) - 1 : 0;
		crt_put(y, x + w - (int)strlen(full) - 2 - hint, (int)strlen(full), R_DIM, full);
	}
	return 1 + body;
}
