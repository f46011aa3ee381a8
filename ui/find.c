/* SPDX-License-Identifier: GPL-2.0-only */
/* find.c - '/' (F3) and 'n': the next metric whose name, title, perf's name or perf's
 * description holds the words; where none counted does, one of perf's catalogue. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mode.h"
#include "tui.h"

/* Whether m's name, title, perf's name or perf's description holds w. */
static bool holds(const struct prof_metric *m, const char *w)
{
	return strcasestr(m->name, w) || strcasestr(m->title, w) || (m->perf_name && strcasestr(m->perf_name, w)) ||
	       (m->description && strcasestr(m->description, w));
}

/* Its name, title or perf's name holds text, or perf's description holds each of its
 * words: "/dram bandwidth" finds tma_mem_bandwidth by what it measures. Loose, where
 * nothing matched so: each word (a '_' parts words) in any of them, "/dram bound"
 * finding tma_dram_bound by the words of its name. */
static bool matches(const struct prof_metric *m, const char *text, bool loose)
{
	if (strcasestr(m->name, text) || strcasestr(m->title, text) || (m->perf_name && strcasestr(m->perf_name, text)))
		return true;
	if (!loose && !m->description)
		return false;
	char words[64];
	snprintf(words, sizeof(words), "%s", text);
	const char *seps = loose ? " _" : " ";
	int n = 0;
	for (char *save, *w = strtok_r(words, seps, &save); w; w = strtok_r(NULL, seps, &save), n++)
		if (loose ? !holds(m, w) : !strcasestr(m->description, w))
			return false;
	return n > 0;
}

/* How many of p's metrics are in group g. */
static int group_size(const struct profile *p, const char *g)
{
	int n = 0;
	for (int i = 0; i < p->nmetrics; i++)
		for (char **h = p->metrics[i].groups; h && *h; h++)
			n += !strcasecmp(*h, g);
	return n;
}

/* Setup opened on the smallest group setup offers that holds m (counting it counts the
 * fewest others), saying why; whether one did. */
static bool offer_group(struct tui *t, const struct profile *p, const struct prof_metric *m, const char *name)
{
	bool tried[64] = { false };
	for (;;) {
		int best = -1, best_size = 0;
		for (int g = 0; g < 64 && m->groups && m->groups[g]; g++) {
			int size = tried[g] ? 0 : group_size(p, m->groups[g]);
			if (size && (best < 0 || size < best_size))
				best = g, best_size = size;
		}
		if (best < 0)
			return false;
		tried[best] = true;
		char note[160];
		snprintf(note, sizeof(note), "%s is not counted.\nSpace counts it with perf's group %s (%d metric%s).",
			 name, m->groups[best], best_size, best_size == 1 ? "" : "s");
		if (setup_open_at_group(t, m->groups[best], note))
			return true;
	}
}

/* Whether the run counts perf's metric of that name (its row hidden in setup, so the
 * panes did not find it): offering its group would offer to stop counting it. */
static bool run_counts(const struct tui *t, const char *name)
{
	for (int pi = 0; pi < t->f->nprofiles; pi++) {
		const struct profile *p = t->f->profiles[pi];
		for (int i = 0; p->perf && i < p->nmetrics; i++)
			if (!strcmp(p->metrics[i].name, name) && (!p->selecting || p->metrics[i].selected) && !p->metrics[i].quiet)
				return true;
	}
	return false;
}

/* Not counted, but in perf's catalogue for this CPU: setup opens on a group that holds
 * it, for Space to count (or -M names it, where no offered group does). Whether one
 * matched. */
static bool find_in_catalogue(struct tui *t, bool loose)
{
	const struct ui_catalogue *cat = t->opt->catalogue;
	const struct profile *p = cat && cat->profile ? cat->profile(cat->ctx) : NULL;
	for (int i = 0; p && i < p->nmetrics; i++) {
		const struct prof_metric *m = &p->metrics[i];
		if (!matches(m, t->find, loose))
			continue;
		const char *name = m->perf_name ? m->perf_name : m->name;
		if (run_counts(t, m->name))
			tui_message(t, false, "%s is counted, its row hidden (setup: Metrics shown)", name);
		else if (!offer_group(t, p, m, name))
			tui_message(t, false, "%s is not counted: pmutop -M %s counts it", name, name);
		return true;
	}
	return false;
}

/* A pane hidden by default that this run does not count (metrics_leave_hidden): the
 * metrics its profile lists. Whether one matched, said. */
static bool find_in_left_out(struct tui *t, bool loose)
{
	for (int i = 0; i < t->npanes; i++) {
		const struct upane *u = &t->panes[i];
		const struct profile *prof = u->profile;
		if (!u->hidden_by_default || u->nmetrics || !u->def)
			continue;
		for (int j = 0; j < u->def->nmetrics; j++)
			for (int mi = 0; mi < prof->nmetrics; mi++)
				if (!strcmp(prof->metrics[mi].name, u->def->metrics[j]) && matches(&prof->metrics[mi], t->find, loose)) {
					tui_message(t, false, "%s is in %s, counted once shown: setup (F2) marks it",
						    prof->metrics[mi].name, u->title);
					return true;
				}
	}
	return false;
}

/* Metrics in screen order, pane by pane: from the one after the last match, round to it
 * again. Hidden panes are searched too, and shown when they hold the match (the
 * setting is not changed: setup hides it for good). */
static bool find_on_screen(struct tui *t, bool loose)
{
	int total = 0;
	for (int i = 0; i < t->npanes; i++)
		total += t->panes[i].nmetrics;
	int pi = t->found_pane >= 0 && t->found_pane < t->npanes ? t->found_pane : t->focus;
	int m = t->found_pane >= 0 ? t->found_metric : -1;
	for (int step = 0; step <= total + t->npanes; step++) { /* each pane change is a step too */
		if (++m >= t->panes[pi].nmetrics) {
			m = -1;
			pi = (pi + 1) % t->npanes;
			continue;
		}
		struct upane *p = &t->panes[pi];
		if (!matches(p->metrics[m], t->find, loose))
			continue;
		if (p->style == STYLE_TREE) /* a node under closed ones: they open */
			tree_reveal(p, m);
		bool was_hidden = p->hidden;
		p->hidden = false;
		t->relayout = true;
		t->focus = pi;
		t->row = 0;
		if (was_hidden || p->style == STYLE_TREE) /* lay it out: its rows exist, a tree's opened */
			pane_draw(t, pi, 0, 0, term_cols, false);
		for (int r = 0; r < p->nrows; r++) /* the first row showing it (block panes) */
			if (p->row_metric[r] == m) {
				t->row = r;
				break;
			}
		t->found_pane = pi;
		t->found_metric = m;
		tui_message(t, false, "found %s in %s%s (n: next)", p->metrics[m]->name, p->title,
			    was_hidden ? ", a hidden pane" : "");
		return true;
	}
	return false;
}

/* The screen, the panes left out, perf's catalogue: strictly, then loosely (what the
 * strict rule finds is found as it was). */
void find_next(struct tui *t)
{
	if (!t->find[0] || !t->npanes)
		return;
	for (int loose = 0; loose < 2; loose++)
		if (find_on_screen(t, loose) || find_in_left_out(t, loose) || find_in_catalogue(t, loose))
			return;
	tui_message(t, true, "no metric matches '%s'", t->find);
}

static void find_key(struct tui *t, int key)
{
	struct prompt *p = t->mode_data;
	size_t n = strlen(p->text);
	if (key == 27) {
		ui_mode_leave(t);
	} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		snprintf(t->find, sizeof(t->find), "%s", p->text); /* n repeats it */
		ui_mode_leave(t);
		t->found_pane = -1; /* a new search starts at the focused pane */
		find_next(t);
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && n) {
		p->text[n - 1] = '\0';
	} else if (key < 256 && isprint(key) && n + 1 < sizeof(p->text)) {
		p->text[n] = (char)key;
		p->text[n + 1] = '\0';
	}
}

/* the prompt, on the message line */
static void find_draw(struct tui *t)
{
	char line[128];
	snprintf(line, sizeof(line), " Find metric: %s_", ((struct prompt *)t->mode_data)->text);
	crt_put(2, 0, term_cols, R_INPUT, line);
}

const struct ui_mode find_mode = { "find", find_draw, find_key, NULL };
