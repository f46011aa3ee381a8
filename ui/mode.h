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
};

struct prompt {
	char text[64];
};

/* metric_info.c: the metric of a pane's row, on the row's instance */
struct metric_view {
	int first;
	int pane, metric, inst; /* metric: its index in the pane */
};

extern const struct ui_mode help_mode, setup_mode, errors_mode, filter_mode, find_mode, jump_mode, metric_mode;

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
