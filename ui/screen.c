/* SPDX-License-Identifier: GPL-2.0-only */
/* screen.c - the main screen: header, panes (scrolled so the focused row shows), the
 * message line and the function-key bar; or "terminal too small". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mode.h"
#include "tui.h"

#define MIN_COLS 60
#define MIN_LINES 12
#define BODY_TOP 3

int focused_instance(struct tui *t)
{
	if (t->focus < 0 || t->focus >= t->npanes)
		return -1;
	struct upane *p = &t->panes[t->focus];
	if (t->row < 0 || t->row >= p->nrows)
		return -1;
	return p->row_inst[t->row];
}

int focused_instances(struct tui *t, int *out, int max)
{
	int in = focused_instance(t);
	if (in < 0 || max < 1)
		return 0;
	out[0] = in;
	int n = 1;
	struct upane *p = &t->panes[t->focus];
	if (p->row_metric[t->row] >= 0)
		return n; /* a block row: one metric, one instance */
	for (int i = 0; i < p->ninst; i++) {
		if (p->inst[i] != in)
			continue;
		for (int m = 0; m < p->nmetrics && n < max; m++) {
			int c = p->cell[i * p->nmetrics + m];
			bool seen = false;
			for (int k = 0; k < n; k++)
				seen |= out[k] == c;
			if (c >= 0 && !seen)
				out[n++] = c;
		}
	}
	return n;
}

/* The title line: its fields in the order shown, each whole or not at all. */
static void draw_title_line(struct tui *t)
{
	crt_fill(0, 0, term_cols, R_HEADER, ' ');
	char clock[16];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	char rec[320] = "", source[128], interval[32], replay[128], who[200] = "";
	if (t->f->who) /* a command's or tasks' core events: whose */
		snprintf(who, sizeof(who), "counting %s%s", t->f->who, t->f->who_end ? ", ended" : "");
	if (t->opt->recording)
		t->opt->recording->status(t->opt->recording->ctx, rec, sizeof(rec));
	snprintf(source, sizeof(source), "source: %s", t->f->source);
	snprintf(interval, sizeof(interval), "interval %gs", t->interval);
	snprintf(replay, sizeof(replay), "REPLAY %s", t->hostname);
	if (t->opt->replay && t->f->seq == 0) { /* before the first recorded frame: no time yet */
		snprintf(clock, sizeof(clock), "--:--:--");
	} else if (t->opt->replay) { /* the recorded host and time, not this one's */
		time_t fw = (time_t)(t->f->wall_ns / 1000000000ull);
		localtime_r(&fw, &tm);
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	}
	/* fields in the order shown, each whole or not at all: on a narrow terminal the
	 * least telling go first (rank: higher goes sooner); a recording's state stays */
	struct {
		const char *text;
		int rank;
	} field[] = {
		{ "pmutop", 0 },
		{ rec, 1 },
		{ t->opt->replay ? replay : t->hostname, 2 },
		{ t->opt->title ? t->opt->title : "", 6 },
		{ who, 3 },
		{ source, 5 },
		{ t->opt->replay ? "" : interval, 4 },
		{ !t->opt->replay && t->paused ? "PAUSED" : "", 1 },
	};
	enum { NFIELDS = sizeof(field) / sizeof(field[0]) };
	int width = 0;
	for (int i = 0; i < NFIELDS; i++)
		width += field[i].text[0] ? 2 + (int)strlen(field[i].text) : 0;
	for (int rank = 6; rank > 1 && width + 1 > term_cols - 10; rank--)
		for (int i = 0; i < NFIELDS; i++)
			if (field[i].rank == rank && field[i].text[0]) {
				width -= 2 + (int)strlen(field[i].text);
				field[i].text = "";
			}
	char line[1024];
	size_t n = 0;
	for (int i = 0; i < NFIELDS && n < sizeof(line); i++)
		if (field[i].text[0])
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", n ? "  " : " ", field[i].text);
	crt_put(0, 0, term_cols - 10, R_HEADER, line);
	crt_put(0, term_cols - 9, 9, R_HEADER, clock);
}

static void draw_header(struct tui *t)
{
	draw_title_line(t);
	if (t->opt->replay) {
		replay_draw_position(t, 1);
		return;
	}

	/* CPU meter, htop style, from /proc/stat (not for a simulated machine's absent /proc) */
	int x = 1;
	double u = t->f->cpu_util;
	bool meter = !isnan(u);
	int mw = term_cols / 3;
	if (mw > 40)
		mw = 40;
	if (meter) {
		crt_put(1, x, 4, R_LABEL, "CPU");
		x += 4;
		crt_put(1, x, 1, R_DIM, "[");
		draw_bar(t, 1, x + 1, mw, isnan(u) ? 0 : u / 100.0, R_NORMAL);
		char pct[16];
		snprintf(pct, sizeof(pct), isnan(u) ? "-" : "%.1f%%", u);
		crt_put(1, x + mw - (int)strlen(pct), (int)strlen(pct), R_VALUE, pct);
		crt_put(1, x + 1 + mw, 1, R_DIM, "]");
	} else {
		mw = -4;
	}
	if (t->f->have_temp) { /* hottest CPU sensor, as htop's temperature meter */
		char temp[32];
		snprintf(temp, sizeof(temp), t->utf8 ? "%.0f°C" : "%.0fC", t->f->cpu_temp_c);
		crt_put(1, x + mw + 3, 8, t->f->cpu_temp_c >= 90 ? R_ERROR : R_VALUE, temp);
		mw += 8;
	}
	int groups = 0, failed = 0, absent = 0;
	for (int i = 0; i < t->f->ninstances; i++) {
		const struct frame_instance *fi = &t->f->inst[i];
		if (t->f->iinfo[i].nmembers || t->f->iinfo[i].nparts || (!t->f->iinfo[i].ncounters && !fi->error))
			continue; /* sums and blends count nothing of their own, nor rows whose
				   * values are perf's (metric_delegate.h): perf's instances count */
		int n = t->f->iinfo[i].cpus_counted ? t->f->iinfo[i].cpus_counted : 1; /* a CPU's each */
		groups += n;
		/* what this machine's PMU lacks is not a failure: said under e, never in red */
		failed += fi->error && !fi->absent ? n : 0;
		absent += fi->absent;
	}
	char info[128];
	snprintf(info, sizeof(info), "%d counter groups%s%.0d%s%s%s", groups, failed ? ", " : "", failed,
		 failed ? " failed (e: errors)" : "", absent && !failed ? ", some not on this machine (e)" : "",
		 t->f->nmissing ? ", some PMUs missing (e)" : "");
	crt_put(1, x + mw + 4, term_cols - (x + mw + 5), failed ? R_ERROR : R_DIM, info);
}

static void draw_footer(struct tui *t)
{
	static const struct {
		const char *key, *label;
		int rank; /* what stays when the bar is narrow: help and quit first */
	} keys[] = { { "F1", "Help", 0 }, { "F2", "Setup", 3 }, { "F4", "Filter", 2 }, { "/", "Find", 5 },
		     { "e", "Errors", 6 }, { "Spc", "Pause", 4 }, { "+-", "Delay", 7 }, { "F10", "Quit", 1 } };
	enum { NKEYS = sizeof(keys) / sizeof(keys[0]) };
	bool shown[NKEYS] = { false };
	int used = 0;
	for (int rank = 0; rank < NKEYS; rank++)
		for (int i = 0; i < NKEYS; i++) {
			int w = (int)(strlen(keys[i].key) + strlen(keys[i].label)) + 1;
			if (keys[i].rank == rank && used + w <= term_cols - 6) { /* room for the scroll mark */
				shown[i] = true;
				used += w;
			}
		}
	int x = 0, y = term_lines - 1;
	crt_fill(y, 0, term_cols, R_KEYTEXT, ' ');
	for (int i = 0; i < NKEYS && x < term_cols; i++) {
		if (!shown[i])
			continue;
		crt_put(y, x, term_cols - x, R_KEY, keys[i].key);
		x += (int)strlen(keys[i].key);
		crt_put(y, x, term_cols - x, R_KEYTEXT, keys[i].label);
		x += (int)strlen(keys[i].label) + 1;
	}
	if (t->more[0]) { /* more below (or above) */
		int mw = t->utf8 && strstr(t->more, "↓") ? (int)strlen(t->more) - 2 : (int)strlen(t->more);
		crt_put(y, term_cols - mw, (int)strlen(t->more), R_KEYTEXT, t->more);
	}
}

static void draw_message(struct tui *t)
{
	if (t->message[0]) {
		char fit[sizeof(t->message)];
		tui_message_fit(t->message, term_cols - 2, fit, sizeof(fit));
		crt_put(2, 1, term_cols - 2, t->message_is_error ? R_ERROR : R_MARK, fit);
	} else if (t->opt->replay) { /* damage in the recording stays said until a key speaks */
		struct ui_position p;
		t->opt->replay->position(t->opt->replay->ctx, &p);
		if (p.note)
			crt_put(2, 1, term_cols - 2, R_ERROR, p.note);
	}
}

/* The pane whose title is scrolled above the top line while its rows show, or -1. */
static int cut_pane(const struct tui *t, int y, int top)
{
	int cut = -1;
	for (int i = 0; i < t->npanes; i++) {
		if (t->panes[i].hidden)
			continue;
		if (y < top && y + t->panes[i].height > top)
			cut = i;
		y += t->panes[i].height;
	}
	return cut;
}

bool screen_page(struct tui *t, int dir)
{
	int height = term_lines - 1 - BODY_TOP, total = 0;
	for (int i = 0; i < t->npanes; i++)
		total += t->panes[i].hidden ? 0 : t->panes[i].height;
	int page = height > 3 ? height - 2 : 1; /* a line of the last page stays in view */
	int scroll = t->scroll + dir * page;
	if (scroll > total - height)
		scroll = total - height;
	if (scroll < 0)
		scroll = 0;
	if (scroll == t->scroll)
		return false;
	t->scroll = scroll;
	/* the focus: the first row below the top line (a pane's title may stand there) */
	for (int i = 0, y = 0; i < t->npanes; y += t->panes[i].hidden ? 0 : t->panes[i].height, i++) {
		const struct upane *p = &t->panes[i];
		for (int r = 0; !p->hidden && r < p->nrows; r++)
			if (y + p->row_y[r] >= scroll + 1 && y + p->row_y[r] < scroll + height - 1) {
				t->focus = i;
				t->row = r;
				return true;
			}
	}
	return true; /* no row in view (a pane's text): the screen moved all the same */
}

/* Lay the visible panes out top to bottom; keep the focused row on screen. */
static void draw_body(struct tui *t)
{
	int top = BODY_TOP, bottom = term_lines - 1, height = bottom - top;
	int y = 0, focus_y = -1, focus_top = -1, focus_h = 0;
	for (int i = 0; i < t->npanes; i++) {
		struct upane *p = &t->panes[i];
		if (p->hidden)
			continue;
		if (t->relayout || !p->height) { /* measure; otherwise last frame's heights hold */
			crt_clip(0, 0);
			p->height = pane_draw(t, i, 0, 0, term_cols, false);
		}
		if (i == t->focus) {
			focus_y = y + (t->row >= 0 && t->row < p->nrows ? p->row_y[t->row] : 0);
			focus_top = y;
			focus_h = p->height;
		}
		y += p->height;
	}
	t->relayout = false;
	int total = y;
	/* room to spare: show per-CPU rows (as btop shows every core) in panes the user has
	 * not chosen for - all of them if they fit, else as many as fit in a stacked pane and
	 * a line that counts the rest; take them back when the room goes */
	for (int i = 0; i < t->npanes; i++) {
		struct upane *p = &t->panes[i];
		if (p->hidden || !p->expandable || p->user_chose || p->style == STYLE_TREE)
			continue; /* (a tree's CPUs are columns: they take no room, and are asked for) */
		int now = p->height, other = total - now;
		bool was = p->expanded;
		int was_max = p->max_cpu_rows;
		p->expanded = false;
		p->max_cpu_rows = 0;
		crt_clip(0, 0);
		int collapsed = pane_draw(t, i, 0, 0, term_cols, false);
		p->expanded = true;
		int full = pane_draw(t, i, 0, 0, term_cols, false);
		int spare = height - 1 - other - collapsed;
		if (other + full <= height - 1) {
			p->height = full;
		} else if (p->style == STYLE_STACKED && spare >= 4) {
			p->max_cpu_rows = spare - 1; /* one line says how many more */
			p->height = pane_draw(t, i, 0, 0, term_cols, false);
		} else {
			p->expanded = false;
			p->height = collapsed;
		}
		total = other + p->height;
		if (p->expanded != was || p->max_cpu_rows != was_max)
			t->relayout = true;
	}
	/* a pane just focused that does not show whole: its title on the top line, as much of
	 * it below as fits (its last line alone at the bottom said little) */
	if (t->focus_top && focus_top >= 0 && (focus_top < t->scroll || focus_top + focus_h > t->scroll + height))
		t->scroll = focus_top;
	t->focus_top = false;
	if (focus_y >= 0) {
		if (focus_y < t->scroll + 1)
			t->scroll = focus_y - 1 < 0 ? 0 : focus_y - 1;
		if (focus_y >= t->scroll + height - 1)
			t->scroll = focus_y - height + 2;
	}
	if (t->scroll > total - height)
		t->scroll = total - height;
	if (t->scroll < 0)
		t->scroll = 0;
	/* a pane scrolled past its title keeps it on the top line, and everything moves down
	 * one line under it (no row is hidden beneath the title) */
	int cut = cut_pane(t, top - t->scroll, top);
	if (cut >= 0 && (t->scroll >= total - height || (focus_y >= 0 && focus_y + 1 >= t->scroll + height - 1))) {
		t->scroll++; /* the title pushed the last line, or the focus's line below, off the bottom */
		cut = cut_pane(t, top - t->scroll, top);
	}
	int shift = cut >= 0;
	crt_clip(top + shift, bottom);
	y = top - t->scroll + shift;
	for (int i = 0; i < t->npanes; i++) {
		if (t->panes[i].hidden)
			continue;
		int h = pane_draw(t, i, y, 0, term_cols, true);
		if (h != t->panes[i].height) /* something changed the layout after all */
			t->relayout = true;
		t->panes[i].height = h;
		y += h;
	}
	crt_clip(top, bottom);
	if (cut >= 0)
		pane_draw_title(t, cut, top, 0, term_cols);
	crt_clip(0, term_lines);
	t->more[0] = '\0';
	if (total > height) /* how far down the panes the screen is, for the key bar */
		snprintf(t->more, sizeof(t->more), " %s%d%% ", t->scroll + height < total ? (t->utf8 ? "↓" : "v") : "",
			 t->scroll + height >= total ? 100 : (int)(100.0 * (t->scroll + height) / total));
}

void screen_draw(struct tui *t)
{
	crt_begin_frame();
	if (term_cols < MIN_COLS || term_lines < MIN_LINES) {
		char msg[96];
		snprintf(msg, sizeof(msg), "terminal too small (%dx%d): need %dx%d", term_cols, term_lines, MIN_COLS, MIN_LINES);
		crt_clip(0, term_lines);
		crt_put(0, 0, term_cols, R_ERROR, msg);
		if (term_lines > 1)
			crt_put(1, 0, term_cols, R_DIM, "q quits");
		crt_end_frame();
		return;
	}
	crt_clip(0, term_lines);
	draw_header(t);
	draw_message(t);
	draw_body(t);
	draw_footer(t);
	if (t->mode && t->mode->draw)
		t->mode->draw(t);
	crt_end_frame();
}
