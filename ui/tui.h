/* SPDX-License-Identifier: GPL-2.0-only */
/* tui.h - what the ui/ modules share: the monitor's state, the pane model, drawing. */
#ifndef PMUTOP_TUI_H
#define PMUTOP_TUI_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/history.h"
#include "engine/frame.h"
#include "profile/profile.h"
#include "term_size.h"
#include "ui.h"

struct ui_mode;

struct procstat;
struct runloop;
struct session;

/* What a piece of text means; crt.c turns it into colour or, without colour, attributes. */
enum role {
	R_NORMAL, R_HEADER, R_TITLE, R_TITLE_FOCUS, R_LABEL, R_VALUE, R_UNIT, R_DIM, R_ERROR, R_MARK,
	R_BAR_LOW, R_BAR_MID, R_BAR_HIGH, R_SPARK, R_FOCUS, R_KEY, R_KEYTEXT, R_DIALOG, R_INPUT,
	R_CAT0, R_CAT1, R_CAT2, R_CAT3, R_CAT4, R_CAT5, R_CAT6, R_CAT7,
	R_COUNT
};

enum charset { CHARS_AUTO, CHARS_UTF8, CHARS_ASCII };
enum tristate { TRI_AUTO, TRI_ON, TRI_OFF };
enum bar_style { BAR_BLOCKS, BAR_PIPES, BAR_HASHES };
enum pane_style { STYLE_VALUES, STYLE_BARS, STYLE_TABLE, STYLE_STACKED, STYLE_TREE };
enum spark_style { SPARK_SWEEP, SPARK_SCROLL, SPARK_OFF };

struct settings {
	enum tristate colour;
	enum charset chars;
	enum bar_style bars;
	enum spark_style sparklines;
	enum tristate mouse;
	int nhidden;
	char **hidden; /* "profile/pane" panes and "metric:profile/metric" metrics the user hid,
			* "show:profile/other" panes hidden by default that the user shows */
};

/* One pane on screen: a profile [pane], or an automatic one for a group no pane shows. */
struct upane {
	const struct profile *profile;
	char *key;   /* "profile/pane", for settings */
	const struct prof_pane *def; /* the profile's pane, or NULL (a tree, "other", a group's own) */
	char *title;
	enum pane_style style; /* the profile's style=, resolved once at layout */
	bool as_table;         /* drawn as a table (its style, or blocks that would not fit) */
	int nmetrics;
	const struct prof_metric **metrics;
	int *metric_index; /* in the profile */
	char **mtitle;     /* per metric, as shown: its title, and its group's where titles repeat */
	bool *says_missing; /* per metric: no instance has it because its PMU is missing (a row says so) */
	bool mixed;        /* the pane shows metrics of more than one group */
	int ninst;     /* distinct instance names ("socket0", "socket0/rc3"), in session order */
	int *inst;     /* for each name, its first session instance */
	char **ititle; /* for each name, its block title (with its PCI root bus and device) */
	bool *is_detail; /* per-CPU names that collapse behind aggregates */
	bool *member_row; /* a member of a sum (its values are evaluated only when shown) */
	int *cell;     /* ninst x nmetrics session instances (the metric's group, that name), -1 if none */
	int *slot;     /* ninst x nmetrics value slots, -1 where the metric does not exist */
	int label_w;   /* widest metric title, for the label column */
	float *scale;  /* per metric: one bar scale for all its instances, steady across frames */
	int height;    /* lines drawn last frame */
	bool expandable, expanded;
	bool cpu_details; /* its detail rows are CPUs (not channels, links, slices) */
	bool cpus_summed; /* its per-CPU group's socket rows count the CPUs (bind_cpu_sums.c):
			   * no CPU's row exists until the run counts again (c) */
	bool drew_bars; /* this draw: some block was wide enough for a bar (the rule's "bar =" needs one) */
	bool user_chose;   /* the user expanded or collapsed it: no automatic expanding */
	int max_cpu_rows;  /* expanded automatically into spare room: at most this many per-CPU
			    * rows (0: all), and a line that says how many more there are */
	bool *open;    /* per instance name: its root ports shown under it (Enter) */
	int ndetail;   /* metrics shown under each row when expanded (TopDown level 2) */
	const struct prof_metric **detail;
	int *detail_slot; /* ninst x ndetail */
	bool show_detail;
	const char *letters; /* for stacked bars: metrics then detail */
	int sort;      /* stacked per-CPU rows sorted by this metric (descending), -1: by CPU */
	int *sort_pos; /* per instance name: its place in the last sorted order */
	bool hidden;
	bool hidden_by_default; /* "other" panes and 'hidden = yes': setup keeps show:KEY */
	bool nothing; /* an always-used profile's pane that found nothing here: not shown */
	char *missing; /* why the pane is empty ("no PMU matches 'power'"), or NULL */
	/* from the last layout */
	int nrows;     /* selectable rows */
	int *row_inst; /* session instance of each row (what F4 edits) */
	int *row_y;    /* line of each row, from the pane's top */
	int *row_metric; /* the metric a block row shows, -1 for a row of all (tables) */
	/* STYLE_TREE (tree.c): per metric, in depth-first order, its depth, its parent's
	 * index (-1: a root) and whether it is open (-1: where past its threshold) */
	int *tree_depth, *tree_parent;
	signed char *tree_open;
	int tree_cpu_first; /* expanded ('c'): the first CPU column shown, in order */
	int tree_cpus_shown; /* ... and how many fitted, last drawn */
};

struct filter_editor;

/* A key and what it does, as help shows it. */
struct key_binding {
	const char *keys;
	const char *what;
};

struct tui {
	const struct frame *f;  /* the newest frame: everything the monitor draws */
	struct session *engine; /* only to change filters (the filter editor) */
	struct runloop *loop;   /* to pause, quit, change the interval */
	struct history *hist;
	const struct ui_options *opt;
	struct settings set;
	char *settings_path;
	int npanes;
	struct upane *panes;
	int focus, row, scroll;
	bool focus_top; /* a pane was just focused (Tab): bring its top into view, not one line */
	bool paused;
	bool tree_bars; /* 'b': each open TopDown node's children as one stacked bar */
	double interval;
	const struct ui_mode *mode; /* the view on top of the panes, or NULL */
	void *mode_data;            /* its state (mode.h), freed when it is left */
	int nkeys;
	const struct key_binding *keys; /* the key table, for help */
	char find[64];                /* the last search, which n repeats */
	int found_pane, found_metric; /* the last match, where n goes on from (-1: none) */
	char message[256];
	uint64_t replay_asked; /* the sample a replay key asked for, until its frame shows */
	bool exact_next;       /* the next frame is a jump's: its numbers exact (cell_text_exact) */
	char more[16]; /* " ↓45% ": the panes go on below the screen */
	bool message_is_error;
	bool quit;
	char **cat_groups;  /* perf's metric groups for this CPU, once setup has asked */
	int ncat_groups;    /* -1: not asked yet */
	bool recount;       /* setup changed which of them are counted */
	bool relayout; /* a key, a resize or a setting may have changed pane heights */
	unsigned layout_gen;  /* layout_build's count: the panes were made again */
	bool *on_screen;      /* per value slot: some pane not hidden shows it (what is counted) */
	unsigned on_screen_sig, on_screen_gen;
	bool utf8, colour, mouse;
	char hostname[64];
	double *shown; /* per value slot: the value on screen, for display hysteresis */
	/* per value slot, made when first drawn (most slots, a hidden CPU's, never are): the
	 * sparkline as last built, rebuilt only when a bucket completes */
	struct spark_cache {
		uint64_t bucket;
		float scale;
		int width;
		char text[64];
		int len;
	} **spark;
	/* per value slot, made when first drawn: its text as last formatted, rebuilt only when
	 * what is shown changes */
	struct value_cache {
		double shown;
		int state;
		bool mux, past;
		char text[40];
	} **vtext;
};

/* crt.c: the terminal */
bool crt_init(struct tui *t);
void crt_done(void);
void crt_apply_settings(struct tui *t);
attr_t crt_attr(enum role r);
void crt_put(int y, int x, int maxw, enum role r, const char *text);
/* As crt_put, but a text too long loses its middle, not its end (perf's names differ at
 * the end: tma_info_memory_core_l1d_cache_access_bw and ..._fill_bw); mark is "…" or "~". */
void crt_put_elided(int y, int x, int maxw, enum role r, const char *text, const char *mark);
/* The same with an attribute and at most nbytes of text (-1: to its end). */
void crt_put_attr(int y, int x, int maxw, attr_t a, const char *text, int nbytes);
/* Bytes of p that fit a line of room columns, broken at a blank when one is in its
 * second half (messages are ASCII). */
int crt_wrap_len(const char *p, int room);
/* text over at most maxlines lines of w columns, broken at blanks; the lines used. */
int crt_put_wrapped(int y, int x, int w, int maxlines, enum role r, const char *text);
/* The lines crt_put_wrapped would take. */
int crt_wrap_count(const char *text, int w, int maxlines);
void crt_fill(int y, int x, int w, enum role r, chtype ch);
void crt_rule(struct tui *t, int y, int x, int w, enum role r);
void crt_clip(int top, int bottom);
void crt_box(int w, int h, const char *title, int *iy, int *ix, int *iw, int *ih);
bool crt_visible(int y);
void crt_install_signal_handlers(void);
/* attach: frames go to out from now on (crt_init does it; the bench too). resized: after
 * KEY_RESIZE. A frame: begin clears our grid of cells, the crt_ calls draw into it, end
 * sends the terminal what changed. forget: the terminal is cleared and drawn whole at the
 * next end (Ctrl-L). */
void crt_attach(FILE *out, bool utf8);
void crt_resized(void);
void crt_begin_frame(void);
void crt_end_frame(void);
void crt_forget_screen(void);
void crt_free(void);
void crt_hline(int y, int x, int w, attr_t a, uint32_t wc);

/* format.c: numbers for people */
void format_human(double v, const char *unit, char *num, size_t nlen, char *u, size_t ulen);
double display_hysteresis(double shown, double v);

/* widgets.c */
void draw_bar(struct tui *t, int y, int x, int w, double frac, enum role r);
void draw_sparkline(struct tui *t, int y, int x, int w, int slot, float scale);
int sparkline_bucket(const struct tui *t);
void draw_stacked(struct tui *t, int y, int x, int w, const double *fracs, int n, const char *letters);
float pane_scale(struct tui *t, struct upane *p, int m);

/* layout.c: the pane model */
void layout_build(struct tui *t);
void layout_free(struct tui *t);
bool pane_shows(const struct upane *p, int i);
bool panes_show_members(const struct tui *t);

/* pane.c: one pane; returns the lines it used (drawn only when draw is true) */
int pane_draw(struct tui *t, int pi, int y, int x, int w, bool draw);
/* cell_text.c: a value slot as a cell shows it ("12.3 GB/s", "n/a", "-"), and its role. */
void cell_text(struct tui *t, int slot, const char *unit, char *buf, size_t len, enum role *r);
/* Every value drawn as its frame has it from now, none held by display_hysteresis(): the
 * first frame after a replay's jump or step is not the one after the last shown. */
void cell_text_exact(struct tui *t);

/* tree.c: perf's TopDown as a tree. order: the metrics keep[] allows that form a tree of
 * two roots or more, depth first, into midx and depths; the count (0: no tree). setup: a
 * pane of those metrics gets its tree. draw as pane_draw; toggle: Enter on a node. */
int tree_order(const struct profile *prof, const bool *keep, int *midx, int *depths);
void tree_setup(struct upane *p, const int *depths);
int tree_draw(struct tui *t, int pi, int y0, int x0, int w, bool draw);
void tree_toggle(struct tui *t, struct upane *p);
/* Open the nodes above node m (find shows it). */
void tree_reveal(struct upane *p, int m);
/* '*': every node of the trees open, or, when all are, closed. */
void tree_open_all(struct tui *t);
/* 'b': under each open node of the trees its children's shares as one stacked bar, a
 * letter each (again: none). */
void tree_toggle_bars(struct tui *t);
/* 'c' on a tree: its CPUs as columns, the next of them at each press, then the sums again. */
void tree_per_cpu(struct tui *t, struct upane *p);
/* 'o' on a tree showing CPUs: ordered by the focused node's value, highest first (again: by number). */
void tree_sort(struct tui *t, struct upane *p);
void pane_draw_title(struct tui *t, int pi, int y, int x, int w);

/* screen.c */
void screen_draw(struct tui *t);
/* PgDn/PgUp (dir +1/-1): the screen moves a page, as htop's lists do, and the focus to the
 * first row in view; false where it cannot move (at the end). */
bool screen_page(struct tui *t, int dir);
/* The message cut to width where it reads whole: a clause or remark dropped, never a word
 * cut in two ("(w stops; pmutop -r pmutop-20261128-" at 80 columns). */
void tui_message_fit(const char *text, int width, char *out, size_t len);
void tui_message(struct tui *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The session instance of the focused row, or -1. */
int focused_instance(struct tui *t);

/* filter_mode's editor, for the filters of these instances (a row's), NULL with *why if
 * none has filters */
struct filter_editor *filter_editor_new(struct tui *t, const int *insts, int ninsts, char **why);
/* The instances the focused row shows (a table row: one per group of its columns). */
int focused_instances(struct tui *t, int *out, int max);
/* find.c: the next metric matching t->find after the focused pane */
void find_next(struct tui *t);
/* replay.c: a replay's keys (true if the key was one), its position line; 'w' */
bool replay_key(struct tui *t, int key);
/* The i-th of a replay's keys, for help; NULL past the last. */
const struct key_binding *replay_key_binding(int i);
void replay_draw_position(struct tui *t, int y);
void record_toggle(struct tui *t);

/* settings.c */
void settings_defaults(struct settings *s);
char *settings_default_path(void);
void settings_load(struct settings *s, const char *path);
/* false with why (the path and the system's reason) when it cannot be written */
bool settings_save(const struct settings *s, const char *path, char *why, size_t len);
bool settings_is_hidden(const struct settings *s, const char *key);
void settings_set_hidden(struct settings *s, const char *key, bool hidden);
void settings_free(struct settings *s);



#endif
