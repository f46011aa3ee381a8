/* SPDX-License-Identifier: GPL-2.0-only */
/* setup.c - F2: colours, characters, bar style, sparklines, mouse, which panes show,
 * perf's metric groups to count (a few dozen, before the hundreds of metrics, so that
 * TopdownL4 is a page away, not 450 presses of Down) and which metrics show. Changes
 * apply at once and are saved when the screen closes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mode.h"
#include "tui.h"
#include "base/util.h"

enum { S_COLOUR, S_CHARS, S_BARS, S_SPARK, S_MOUSE, S_PANES };

struct setup_view {
	struct scroll_view v; /* first: the row focused */
	char note[160];       /* why setup opened there (find), lines above the rows, or "" */
	bool finding;         /* '/' typed: letters find a row (Enter or Esc ends it) */
	char query[48];
};

/* After the groups: every metric of every profile in use, to show or hide. */
static int nmetric_rows(const struct tui *t)
{
	int n = 0;
	for (int p = 0; p < t->f->nprofiles; p++)
		n += t->f->profiles[p]->nmetrics;
	return n;
}

static const struct prof_metric *metric_row(const struct tui *t, int r, const struct profile **prof)
{
	for (int p = 0; p < t->f->nprofiles; p++) {
		if (r < t->f->profiles[p]->nmetrics) {
			*prof = t->f->profiles[p];
			return &t->f->profiles[p]->metrics[r];
		}
		r -= t->f->profiles[p]->nmetrics;
	}
	return NULL;
}

static void metric_key(const struct profile *p, const struct prof_metric *m, char *key, size_t len)
{
	snprintf(key, len, "metric:%s/%s", p->name, m->name);
}

/* After the panes: perf's metric groups for this CPU, to count or not (the run counts
 * again with the new choice when setup closes). Asked of the run the first time. */
static int ngroup_rows(struct tui *t)
{
	if (t->ncat_groups < 0)
		t->ncat_groups = t->opt->catalogue ? t->opt->catalogue->groups(t->opt->catalogue->ctx, &t->cat_groups) : 0;
	return t->ncat_groups;
}

/* The first row of the groups and of the metrics. */
static int group_base(const struct tui *t)
{
	return S_PANES + t->npanes;
}

static int metric_base(struct tui *t)
{
	return group_base(t) + ngroup_rows(t);
}

static void group_key(const char *group, char *key, size_t len)
{
	snprintf(key, len, "count:%s", group);
}

static const char *const tri[] = { "auto", "on", "off" };
static const char *const chars[] = { "auto", "UTF-8", "ASCII" };
static const char *const bars[] = { "blocks", "pipes |", "hashes #" };
static const char *const sparks[] = { "sweep (few bytes over ssh)", "scroll", "off" };

static int nrows(struct tui *t)
{
	return S_PANES + t->npanes + nmetric_rows(t) + ngroup_rows(t);
}

/* What is counted changes only from a new start: not while a recording is made of this one. */
static bool may_recount(struct tui *t)
{
	const struct ui_recording *rec = t->opt->recording;
	if (rec && rec->active(rec->ctx)) {
		tui_message(t, true, "stop recording (w) before changing what is counted");
		return false;
	}
	return true;
}

/* A pane hidden by default whose metrics this run does not count (metrics_leave_hidden):
 * shown, it is counted from the next start, which closing setup makes. */
static bool left_out(const struct tui *t, const struct upane *p)
{
	return p->hidden_by_default && p->nmetrics == 0 && t->opt->catalogue;
}

static void show_left_out(struct tui *t, const struct upane *p)
{
	if (!may_recount(t))
		return;
	char *show = xasprintf("show:%s", p->key);
	bool on = !settings_is_hidden(&t->set, show);
	settings_set_hidden(&t->set, show, on);
	free(show);
	t->recount = true;
	tui_message(t, false, on ? "%s: counted from when setup closes (counting starts again)"
				 : "%s: not counted from when setup closes", p->title);
}

/* A setting row past the panes: a metric to show, or a catalogue group to count. */
static void item_line(struct tui *t, int r, char *line, size_t len)
{
	char key[256];
	int g = r - group_base(t);
	if (g < ngroup_rows(t)) {
		group_key(t->cat_groups[g], key, sizeof(key));
		snprintf(line, len, "[%c] %s", settings_is_hidden(&t->set, key) ? 'x' : ' ', t->cat_groups[g]);
		return;
	}
	const struct profile *prof;
	const struct prof_metric *m = metric_row(t, r - metric_base(t), &prof);
	metric_key(prof, m, key, sizeof(key));
	snprintf(line, len, "[%c] %s (%s)", settings_is_hidden(&t->set, key) ? ' ' : 'x', m->title, m->name);
}

/* What row r says (its text, what '/' finds in). */
static void row_text(struct tui *t, int r, char *line, size_t len)
{
	switch (r) {
	case S_COLOUR: snprintf(line, len, "Colour          < %s >", tri[t->set.colour]); break;
	case S_CHARS: snprintf(line, len, "Characters      < %s >", chars[t->set.chars]); break;
	case S_BARS: snprintf(line, len, "Bar style       < %s >", bars[t->set.bars]); break;
	case S_SPARK: snprintf(line, len, "Sparklines      < %s >", sparks[t->set.sparklines]); break;
	case S_MOUSE: snprintf(line, len, "Mouse           < %s >", tri[t->set.mouse]); break;
	default:
		if (r < S_PANES + t->npanes) {
			const struct upane *p = &t->panes[r - S_PANES];
			char show[300];
			snprintf(show, sizeof(show), "show:%s", p->key);
			bool on = left_out(t, p) ? settings_is_hidden(&t->set, show) : !p->hidden;
			snprintf(line, len, "[%c] %s (%s)", on ? 'x' : ' ', p->title, p->key);
		} else {
			item_line(t, r, line, len);
		}
	}
}

/* The first row from 'from' on (wrapping) whose text holds the query, as letters are
 * typed after '/': a metric among hundreds. */
static void find_row(struct tui *t, int from)
{
	struct setup_view *sv = t->mode_data;
	char line[160];
	for (int k = 0, n = nrows(t); *sv->query && k < n; k++) {
		int r = (from + k) % n;
		row_text(t, r, line, sizeof(line));
		if (strcasestr(line + (line[0] == '[' ? 4 : 0), sv->query)) { /* not the [x] mark */
			sv->v.first = r;
			return;
		}
	}
}

static void setup_draw(struct tui *t)
{
	int iy, ix, iw, ih;
	struct setup_view *sv = t->mode_data;
	char title[120];
	if (sv->finding)
		snprintf(title, sizeof(title), "Setup: find %s_ (Enter or Esc ends the find)", sv->query);
	else
		snprintf(title, sizeof(title), "Setup (Left/Right/Space change, / find, Esc saves and closes)");
	crt_box(72, nrows(t) + 6, title, &iy, &ix, &iw, &ih);
	char line[160];
	const char *note = ((struct setup_view *)t->mode_data)->note;
	int y = iy, noted = 0;
	for (const char *n = note; *n; noted++) { /* its lines */
		const char *end = strchr(n, '\n');
		int len = end ? (int)(end - n) : (int)strlen(n);
		snprintf(line, sizeof(line), "%.*s", len, n);
		crt_put(y++, ix, iw, R_DIALOG, line);
		n += len + (end != NULL);
	}
	int rows = ih - 2 - noted - (t->ncat_groups > 0); /* the headings' lines */
	int first = ((struct scroll_view *)t->mode_data)->first >= rows ? ((struct scroll_view *)t->mode_data)->first - rows + 1 : 0;
	for (int r = first; r < nrows(t) && y < iy + ih; r++) {
		if (r == S_PANES) {
			crt_put(y++, ix, iw, R_DIALOG, "Panes shown:");
		} else if (r == group_base(t) && t->ncat_groups > 0) {
			crt_put(y++, ix, iw, R_DIALOG, "perf's metric groups counted (counting restarts on closing):");
		} else if (r == metric_base(t)) {
			crt_put(y++, ix, iw, R_DIALOG, "Metrics shown:");
		}
		if (y >= iy + ih)
			break;
		row_text(t, r, line, sizeof(line));
		crt_put(y++, ix, iw, r == ((struct scroll_view *)t->mode_data)->first ? R_FOCUS : R_DIALOG, line);
	}
}

/* Count a catalogue group or not: refused while recording (counting again would end the
 * recording's session); otherwise from when setup closes. */
static void toggle_group(struct tui *t, int g)
{
	if (!may_recount(t))
		return;
	char key[256];
	group_key(t->cat_groups[g], key, sizeof(key));
	settings_set_hidden(&t->set, key, !settings_is_hidden(&t->set, key));
	t->recount = true;
}

static void change(struct tui *t, int dir)
{
	int r = ((struct scroll_view *)t->mode_data)->first;
	switch (r) {
	case S_COLOUR: t->set.colour = (enum tristate)((t->set.colour + 3 + dir) % 3); break;
	case S_CHARS: t->set.chars = (enum charset)((t->set.chars + 3 + dir) % 3); break;
	case S_BARS: t->set.bars = (enum bar_style)((t->set.bars + 3 + dir) % 3); break;
	case S_SPARK: t->set.sparklines = (enum spark_style)((t->set.sparklines + 3 + dir) % 3); break;
	case S_MOUSE: t->set.mouse = (enum tristate)((t->set.mouse + 3 + dir) % 3); break;
	default:
		if (r < S_PANES + t->npanes && left_out(t, &t->panes[r - S_PANES])) {
			show_left_out(t, &t->panes[r - S_PANES]);
		} else if (r < S_PANES + t->npanes) {
			struct upane *p = &t->panes[r - S_PANES];
			p->hidden = !p->hidden;
			if (p->hidden_by_default) { /* remember showing it */
				char *show = xasprintf("show:%s", p->key);
				settings_set_hidden(&t->set, show, !p->hidden);
				free(show);
			} else {
				settings_set_hidden(&t->set, p->key, p->hidden);
			}
		} else if (r < metric_base(t)) {
			toggle_group(t, r - group_base(t));
		} else {
			const struct profile *prof;
			const struct prof_metric *m = metric_row(t, r - metric_base(t), &prof);
			char key[256];
			metric_key(prof, m, key, sizeof(key));
			settings_set_hidden(&t->set, key, !settings_is_hidden(&t->set, key));
			/* panes are built from the shown metrics: build them again */
			layout_free(t);
			layout_build(t);
			t->focus = 0;
			t->row = 0;
			t->relayout = true;
		}
	}
	crt_apply_settings(t);
}

/* PgDn/PgUp: a screen's rows at a time (hundreds of catalogue metrics) */
static void page(struct tui *t, int dir)
{
	struct scroll_view *v = t->mode_data;
	int step = term_lines > 12 ? term_lines - 8 : 4, last = nrows(t) - 1;
	v->first += dir * step;
	v->first = v->first < 0 ? 0 : v->first > last ? last : v->first;
}

/* A key while '/' finds: letters grow the query (the focus on the first row that holds
 * it), Backspace shrinks it; Enter or Esc ends the find (Esc does not close setup then),
 * and n goes on to the next row that holds it. False: not a find's key, setup takes it. */
static bool find_key(struct tui *t, int key)
{
	struct setup_view *sv = t->mode_data;
	size_t n = strlen(sv->query);
	if (!sv->finding) {
		if (key == 'n' && n)
			find_row(t, sv->v.first + 1);
		if (key == '/') {
			sv->finding = true;
			sv->query[0] = '\0';
		}
		return key == '/' || (key == 'n' && n);
	}
	if (key >= 32 && key < 127 && n + 1 < sizeof(sv->query)) {
		sv->query[n] = (char)key;
		sv->query[n + 1] = '\0';
		find_row(t, 0);
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && n > 0) {
		sv->query[n - 1] = '\0';
		find_row(t, 0);
	} else if (key == 27 || key == '\r' || key == '\n' || key == KEY_ENTER) {
		sv->finding = false;
	} else {
		sv->finding = false; /* an arrow, a page key: the find is over, setup takes it */
		return false;
	}
	return true;
}

static void setup_key(struct tui *t, int key)
{
	if (find_key(t, key))
		return;
	switch (key) {
	case KEY_UP: if (((struct scroll_view *)t->mode_data)->first > 0) ((struct scroll_view *)t->mode_data)->first--; break;
	case KEY_DOWN: if (((struct scroll_view *)t->mode_data)->first < nrows(t) - 1) ((struct scroll_view *)t->mode_data)->first++; break;
	case KEY_LEFT: change(t, -1); break;
	case KEY_RIGHT: case ' ': case '\r': case '\n': case KEY_ENTER: change(t, 1); break;
	case KEY_HOME: ((struct scroll_view *)t->mode_data)->first = 0; break;
	case KEY_END: ((struct scroll_view *)t->mode_data)->first = nrows(t) - 1; break;
	case KEY_NPAGE: case KEY_PPAGE: page(t, key == KEY_NPAGE ? 1 : -1); break;
	case 27: case 'q': case 's': case KEY_F(2): case KEY_F(10):
		ui_mode_leave(t);
		char why[512];
		if (settings_save(&t->set, t->settings_path, why, sizeof(why)))
			tui_message(t, false, "settings saved to %s", t->settings_path);
		else
			tui_message(t, true, "settings not saved: %s", why);
		if (t->recount && t->opt->catalogue) { /* the run counts again, this monitor ends */
			t->opt->catalogue->recount(t->opt->catalogue->ctx);
			t->quit = true;
		}
		break;
	default: break;
	}
}

const struct ui_mode setup_mode = { "setup", setup_draw, setup_key, NULL };

void setup_open(struct tui *t)
{
	ui_mode_enter(t, &setup_mode, xcalloc(1, sizeof(struct setup_view)));
}

bool setup_open_at_group(struct tui *t, const char *group, const char *note)
{
	int n = ngroup_rows(t);
	for (int g = 0; g < n; g++)
		if (!strcasecmp(t->cat_groups[g], group)) {
			struct setup_view *v = xcalloc(1, sizeof(*v));
			v->v.first = group_base(t) + g;
			snprintf(v->note, sizeof(v->note), "%s", note);
			ui_mode_enter(t, &setup_mode, v);
			return true;
		}
	return false;
}
