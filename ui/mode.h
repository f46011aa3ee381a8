/* mode.h - the monitor's views over its panes (help, setup, errors, the filter editor,
 * find), as tmux's window modes: each view is a table of functions, so the key loop and
 * the screen call whichever is on top without knowing any of them. */
#ifndef PMUTOP_MODE_H
#define PMUTOP_MODE_H

struct tui;

struct ui_mode {
	const char *name;
	void (*draw)(struct tui *t);         /* over the panes, after them */
	void (*key)(struct tui *t, int key); /* a key while the mode is on top */
	void (*leave)(struct tui *t);        /* free what the mode holds; may be NULL */
};

extern const struct ui_mode help_mode, setup_mode, errors_mode, filter_mode, find_mode, jump_mode;

/* Put a mode on top of the panes (leaving the one there), or go back to the panes. */
void ui_mode_enter(struct tui *t, const struct ui_mode *m);
void ui_mode_leave(struct tui *t);

#endif
