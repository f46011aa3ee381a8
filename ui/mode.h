/* SPDX-License-Identifier: GPL-2.0-only */
/* mode.h - the monitor's views over its panes (help, setup, errors, the filter editor,
 * find), as tmux's window modes: each view is a table of functions, so the key loop and
 * the screen call whichever is on top without knowing any of them. */
#ifndef PMUTOP_MODE_H
#define PMUTOP_MODE_H

#include <stdbool.h>

struct tui;

/* Each mode keeps its state in t->mode_data (tmux: a mode's data pointer), given to
 * ui_mode_enter() and freed when the mode is left. */
struct ui_mode {
	const char *name;
	void (*draw)(struct tui *t);         /* over the panes, after them */
	void (*key)(struct tui *t, int key); /* a key while the mode is on top */
	void (*free)(void *data);            /* frees the mode's data; NULL: free() */
};

/* The modes' data */
struct scroll_view {
	int first; /* the first line (or row) shown */
	int page;  /* lines the view shows, as last drawn */
	int rows;  /* lines it had then, wrapped (text_view.c) */
};

/* text_view.c: lines wrapped to a box (each continuation indented under its line's text,
 * after a key column where keys are given) and scrolled with the last page full. */
struct text_row {
	char keys[32];    /* the key column's text on a line's first row, or "" */
	const char *text; /* not NUL-ended: len bytes */
	int len, indent;
};
struct text_rows {
	int n, cap;
	struct text_row *row;
};
/* Adds text (and keys in a column keyw wide) wrapped to width; points into text. */
void text_rows_add(struct text_rows *r, int width, const char *keys, int keyw, const char *text);
/* Draws the rows from v->first (clamped) into the box; sets v->page. True if more below. */
bool text_rows_draw(const struct text_rows *r, struct scroll_view *v, int keyw, int iy, int ix, int iw, int ih);
/* Up/Down, PgUp/PgDn, Home/End over nrows; false for any other key. */
bool text_rows_scroll(struct scroll_view *v, int nrows, int key);
void text_rows_free(struct text_rows *r);

struct prompt {
	char text[64];
};

/* metric_info.c: the metric of a pane's row, on the row's instance */
struct metric_view {
	struct scroll_view v;
	int pane, metric, inst; /* metric: its index in the pane */
};

extern const struct ui_mode help_mode, setup_mode, errors_mode, filter_mode, find_mode, jump_mode, metric_mode,
	tasks_mode;

/* tasks_view.c: the Tasks view (T), counting the top tasks while it is open */
void tasks_open(struct tui *t);
/* the same a row a cgroup (G), where the session counts cgroups; else said */
void cgroups_open(struct tui *t);

/* setup.c: open setup at its first row, or on perf's metric group named group (its row
 * offered to count) with a note above the rows saying why; false where setup does not
 * offer that group. */
void setup_open(struct tui *t);
bool setup_open_at_group(struct tui *t, const char *group, const char *note);

/* Put a mode on top of the panes with its data (leaving the one there, and freeing its
 * data), or go back to the panes. */
void ui_mode_enter(struct tui *t, const struct ui_mode *m, void *data);
void ui_mode_leave(struct tui *t);

#endif
