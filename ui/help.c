/* SPDX-License-Identifier: GPL-2.0-only */
/* help.c - h (F1 on no metric, or in its view): every key, from the same table the keys
 * are dispatched from (the monitor hands it over as t->keys), and what the marks on
 * values mean. Taller than the screen (80x24 shows about twenty lines), it scrolls. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mode.h"
#include "tui.h"

static const char *const legend[] = {
	"Marks on values:",
	"  -            no value: nothing counted, or the first interval after a",
	"               filter change",
	"  ~            multiplexed: scaled from part of the interval",
	"  !            a share outside 0-100 %",
	"  ^            past perf's threshold for it (MetricThreshold): a bottleneck",
	"  not counted  the counter never ran    ?  unreadable    n/a  unavailable",
	"Filter editor: Up/Down choose, Space toggles, Left/Right pick a mask bit,",
	"  Enter edits a value, p picks a device as the BDF, d resets to default,",
	"  a applies, Esc cancels",
};
enum { NLEGEND = sizeof(legend) / sizeof(legend[0]) };

/* A replay's own keys come first (before the panes' keys), under a heading. */
static int replay_lines(const struct tui *t)
{
	if (!t->opt || !t->opt->replay)
		return 0;
	int n = 0;
	while (replay_key_binding(n))
		n++;
	return n + 2; /* heading, keys, a blank line */
}

/* Is word one of the keys a replay takes first? */
static bool replay_takes(const char *word, size_t len)
{
	for (int k = 0; replay_key_binding(k); k++) {
		const char *s = replay_key_binding(k)->keys;
		while (*s) {
			size_t n = strcspn(s, " ");
			if (n == len && !strncmp(s, word, len))
				return true;
			s += n;
			s += *s == ' ';
		}
	}
	return false;
}

/* A monitor key's label in a replay: without the keys the replay takes first (one key,
 * one meaning: Right steps a sample there, Tab still moves between panes); NULL when
 * none is left. */
static const char *replay_label(const char *keys, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const char *s = keys; *s;) {
		size_t w = strcspn(s, " ");
		if (!replay_takes(s, w) && n + w + 2 < len) {
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "", (int)w, s);
		}
		s += w;
		s += *s == ' ';
	}
	return n ? buf : NULL;
}

/* The monitor's keys shown: in a replay, those it still has a key for. */
static int shown_keys(const struct tui *t, int upto)
{
	char label[64];
	int n = 0;
	for (int k = 0; k < upto; k++)
		n += !replay_lines(t) || replay_label(t->keys[k].keys, label, sizeof(label));
	return n;
}

static int help_lines(const struct tui *t)
{
	return replay_lines(t) + shown_keys(t, t->nkeys) + 1 + NLEGEND;
}

/* Line i of the help: a key and what it does, or a line of text (keys NULL). */
static void help_line(const struct tui *t, int i, const char **keys, const char **text)
{
	int r = replay_lines(t);
	*keys = NULL;
	*text = "";
	if (i < r) {
		if (i == 0) {
			*text = "In a replay these keys come first:";
		} else if (i < r - 1) {
			*keys = replay_key_binding(i - 1)->keys;
			*text = replay_key_binding(i - 1)->what;
		}
		return;
	}
	i -= r;
	int nk = shown_keys(t, t->nkeys);
	if (i < nk) {
		static char label[64];
		int k = 0;
		while (k < t->nkeys && (shown_keys(t, k + 1) <= i)) /* the i-th shown */
			k++;
		*keys = r ? replay_label(t->keys[k].keys, label, sizeof(label)) : t->keys[k].keys;
		*text = t->keys[k].what;
	} else if (i > nk) {
		*text = legend[i - nk - 1];
	}
}

/* The box's widest: the keys' column and their text on one line; narrower screens wrap. */
enum { HELP_WIDTH = 104, KEY_COLUMN = 16 };

static void help_draw(struct tui *t)
{
	struct scroll_view *v = t->mode_data;
	int w = term_cols - 2 < HELP_WIDTH ? term_cols - 2 : HELP_WIDTH;
	struct text_rows rows = { 0 };
	for (int line = 0, n = help_lines(t); line < n; line++) {
		const char *keys, *text;
		help_line(t, line, &keys, &text);
		text_rows_add(&rows, w - 4, keys, KEY_COLUMN, text);
	}
	bool fits = rows.n + 2 <= term_lines - 2;
	int iy, ix, iw, ih;
	crt_box(w, rows.n + 2, fits ? "pmutop help (any key closes)" : "pmutop help (Up/Down/PgUp/PgDn/Home/End scroll, other keys close)",
		&iy, &ix, &iw, &ih);
	v->rows = rows.n;
	if (text_rows_draw(&rows, v, KEY_COLUMN, iy, ix, iw, ih)) /* more below: say so on the frame */
		crt_put(iy + ih, ix + iw - 8, 8, R_DIALOG, t->utf8 ? " more ↓ " : " more v ");
	text_rows_free(&rows);
}

static void help_key(struct tui *t, int key)
{
	struct scroll_view *v = t->mode_data;
	if (v->page >= v->rows || !text_rows_scroll(v, v->rows, key)) /* all of it shows: any key closes */
		ui_mode_leave(t);
}

const struct ui_mode help_mode = { "help", help_draw, help_key, NULL };
