/* SPDX-License-Identifier: GPL-2.0-only */
/* app.c - the monitor as an output of the run loop: each frame is pushed to history and
 * drawn (curses sends only the cells that changed); keys arrive when the loop's poll()
 * finds the terminal readable, and go through a table of key commands. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/diag.h"
#include "engine/runloop.h"
#include "engine/session.h"
#include "engine/output.h"
#include "mode.h"
#include "keys.h"
#include "tui.h"
#include "render.h"
#include "base/util.h"

static const double intervals[] = { 0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 30, 60 };

static bool pane_selectable(const struct tui *t, int i)
{
	return !t->panes[i].hidden && t->panes[i].nrows > 0;
}

static void focus_pane(struct tui *t, int dir, bool to_last_row)
{
	for (int k = 1; k <= t->npanes; k++) {
		int i = ((t->focus + dir * k) % t->npanes + t->npanes) % t->npanes;
		if (pane_selectable(t, i)) {
			t->focus = i;
			t->row = to_last_row ? t->panes[i].nrows - 1 : 0;
			t->focus_top = !to_last_row;
			return;
		}
	}
}

static void cmd_quit(struct tui *t) { t->quit = true; }
static void cmd_help(struct tui *t) { ui_mode_enter(t, &help_mode, xcalloc(1, sizeof(struct scroll_view))); }
static void cmd_setup(struct tui *t) { setup_open(t); }
static void cmd_errors(struct tui *t) { ui_mode_enter(t, &errors_mode, xcalloc(1, sizeof(struct scroll_view))); }

/* What the focused row's metric is (a table's row is of all its metrics: help instead). */
static void cmd_info(struct tui *t)
{
	struct upane *p = t->focus >= 0 && t->focus < t->npanes ? &t->panes[t->focus] : NULL;
	if (!p || t->row < 0 || t->row >= p->nrows || p->row_metric[t->row] < 0) {
		cmd_help(t);
		return;
	}
	struct metric_view *mv = xcalloc(1, sizeof(*mv));
	mv->pane = t->focus;
	mv->metric = p->row_metric[t->row];
	mv->inst = p->row_inst[t->row];
	ui_mode_enter(t, &metric_mode, mv);
}
static void cmd_find(struct tui *t) { ui_mode_enter(t, &find_mode, xcalloc(1, sizeof(struct prompt))); }

/* (a replay's: the rows as recorded, or that the recording kept none) */
static void cmd_tasks(struct tui *t) { tasks_open(t); }
static void cmd_cgroups(struct tui *t) { cgroups_open(t); }
static void cmd_find_next(struct tui *t) { find_next(t); }
static void cmd_redraw(struct tui *t) { (void)t; crt_forget_screen(); }
static void cmd_next_pane(struct tui *t) { focus_pane(t, 1, false); }
static void cmd_prev_pane(struct tui *t) { focus_pane(t, -1, false); }

static void cmd_pause(struct tui *t)
{
	t->paused = !t->paused;
	runloop_set_paused(t->loop, t->paused);
	tui_message(t, false, t->paused ? "paused: the display is frozen (space resumes)" : "resumed");
}

static void set_interval(struct tui *t, int dir)
{
	int n = (int)(sizeof(intervals) / sizeof(intervals[0])), i = 0;
	while (i < n - 1 && intervals[i] < t->interval - 1e-9)
		i++;
	i += dir;
	if (i < 0)
		i = 0;
	if (i >= n)
		i = n - 1;
	t->interval = intervals[i];
	runloop_set_interval(t->loop, t->interval);
	tui_message(t, false, "refresh interval %g s", t->interval);
}

static void cmd_faster(struct tui *t) { set_interval(t, -1); }
static void cmd_slower(struct tui *t) { set_interval(t, 1); }

static void cmd_down(struct tui *t)
{
	if (t->focus < t->npanes && t->row + 1 < t->panes[t->focus].nrows)
		t->row++;
	else
		focus_pane(t, 1, false);
}

static void cmd_up(struct tui *t)
{
	if (t->row > 0)
		t->row--;
	else
		focus_pane(t, -1, true);
}

static void cmd_home(struct tui *t)
{
	t->focus = -1;
	focus_pane(t, 1, false);
	if (t->focus < 0)
		t->focus = 0;
}

static void cmd_end(struct tui *t)
{
	t->focus = 0;
	focus_pane(t, -1, true);
}

/* A page moves the screen (a pane that fits moved nothing when a page moved the focus
 * alone); at the end, the last (first) row. */
static void cmd_page_down(struct tui *t)
{
	if (!screen_page(t, 1))
		cmd_end(t);
}

static void cmd_page_up(struct tui *t)
{
	if (!screen_page(t, -1))
		cmd_home(t);
}

static void toggle_per_cpu(struct tui *t, struct upane *p, const char *none)
{
	if (!p || !p->expandable) {
		tui_message(t, false, "%s", none);
		return;
	}
	/* rows shown only as far as room allowed: c shows them all, rather than none */
	p->expanded = p->expanded && p->max_cpu_rows > 0 ? true : !p->expanded;
	p->user_chose = true;
	p->max_cpu_rows = 0;
	t->row = 0;
	const char *one = NULL; /* a CPU's row, or a channel's, a link's: say which */
	for (int i = 0; i < p->ninst && !one; i++)
		if (p->is_detail[i])
			one = t->f->iinfo[p->inst[i]].name;
	if (p->expanded && one) { /* focus the first row it added, so the screen scrolls to it */
		t->relayout = true;
		pane_draw(t, (int)(p - t->panes), 0, 0, term_cols, false);
		for (int i = 0; i < p->ninst && !t->row; i++)
			for (int r = 0; p->is_detail[i] && r < p->nrows && !t->row; r++)
				if (p->row_inst[r] == p->inst[i])
					t->row = r;
	}
	if (!p->expanded)
		tui_message(t, false, "showing summaries");
	else if (one && !strncmp(one, "cpu", 3))
		tui_message(t, false, "showing every CPU (c collapses, o sorts)");
	else
		tui_message(t, false, "showing every row like %s (c collapses, o sorts)", one ? one : "?");
}

/* The pane the run's next start opens showing its CPUs (recount_per_cpu): a key, kept
 * from one monitor to the next of the same process. */
static char *expand_at_start;

/* A pane whose per-CPU group counts in its socket rows (bind_cpu_sums.c) has no CPU's row
 * to show: c (or o) counts again with a row a CPU, as --per-cpu would (the run starts
 * over: this monitor ends), and the next opens the pane showing them. */
static bool recount_per_cpu(struct tui *t, struct upane *p)
{
	if (!p || !p->cpus_summed || p->expandable)
		return false;
	const struct ui_recording *rec = t->opt->recording;
	if (!t->opt->count_per_cpu)
		tui_message(t, false, "recorded counting per socket: no CPU's row was kept");
	else if (rec && rec->active(rec->ctx))
		tui_message(t, true, "stop recording (w) before counting per CPU");
	else {
		free(expand_at_start);
		expand_at_start = xstrdup(p->key);
		t->opt->count_per_cpu(t->opt->count_ctx);
		t->quit = true;
	}
	return true;
}

/* ... and the next monitor opens it so. */
static void expand_pane_asked(struct tui *t)
{
	for (int i = 0; expand_at_start && i < t->npanes; i++) {
		struct upane *p = &t->panes[i];
		if (strcmp(p->key, expand_at_start) || !p->expandable)
			continue;
		t->focus = i;
		if (p->style == STYLE_TREE)
			tree_per_cpu(t, p);
		else
			toggle_per_cpu(t, p, "");
	}
	free(expand_at_start);
	expand_at_start = NULL;
}

static void cmd_per_cpu(struct tui *t)
{
	struct upane *p = t->focus < t->npanes ? &t->panes[t->focus] : NULL;
	if (recount_per_cpu(t, p))
		return;
	if (p && p->style == STYLE_TREE) /* CPUs as columns, a page at a time */
		tree_per_cpu(t, p);
	else
		toggle_per_cpu(t, p, "no per-CPU rows in this pane");
}

static void cmd_sort(struct tui *t)
{
	struct upane *p = t->focus < t->npanes ? &t->panes[t->focus] : NULL;
	if (recount_per_cpu(t, p))
		return;
	if (p && p->style == STYLE_TREE && p->expandable) { /* its CPU columns by the focused node */
		tree_sort(t, p);
		return;
	}
	if (!p || p->style != STYLE_STACKED || !p->expandable) {
		tui_message(t, false, "sorting is for per-CPU rows of a stacked pane or a tree's CPUs");
		return;
	}
	p->sort = p->sort + 1 >= p->nmetrics ? -1 : p->sort + 1;
	if (!p->expanded)
		p->expanded = true;
	p->user_chose = true;
	p->max_cpu_rows = 0;
	tui_message(t, false, "CPUs sorted by %s", p->sort < 0 ? "number" : p->metrics[p->sort]->title);
}

static void cmd_expand(struct tui *t)
{
	struct upane *p = t->focus < t->npanes ? &t->panes[t->focus] : NULL;
	int in = focused_instance(t);
	if (p && p->style == STYLE_TREE) { /* perf's TopDown tree: the node opens or closes */
		tree_toggle(t, p);
		return;
	}
	if (p && p->ndetail) { /* TopDown: level 1 to level 2 */
		p->show_detail = !p->show_detail;
		tui_message(t, false, p->show_detail ? "level 2 under each row (Enter: level 1 only)" : "level 1");
		return;
	}
	if (p && in >= 0 && t->f->iinfo[in].ndetails && p->style != STYLE_STACKED) { /* an RC's root ports, a stack's devices */
		for (int i = 0; i < p->ninst; i++)
			if (!strcmp(t->f->iinfo[p->inst[i]].name, t->f->iinfo[in].name))
				p->open[i] = !p->open[i];
		return;
	}
	toggle_per_cpu(t, p, "nothing to expand here");
}

static void cmd_filter(struct tui *t)
{
	if (t->opt->replay) {
		tui_message(t, true, "a replay shows what was counted: filters cannot change now (recorded changes replay at their moment)");
		return;
	}
	int in = focused_instance(t);
	if (in < 0) {
		tui_message(t, true, "move to a row of a pane first");
		return;
	}
	char *why;
	int insts[8];
	int n = focused_instances(t, insts, 8);
	struct filter_editor *fe = filter_editor_new(t, insts, n, &why);
	if (!fe) {
		tui_message(t, true, "%s", why);
		free(why);
		return;
	}
	ui_mode_enter(t, &filter_mode, fe);
}

static void cmd_record(struct tui *t)
{
	record_toggle(t);
}

struct command {
	int codes[4];
	const char *keys;
	const char *what;
	void (*fn)(struct tui *t);
};

#define CTRL(c) ((c) & 0x1f)

static const struct command commands[] = {
	{ { KEY_F(1), 'i', '?' }, "F1 i ?", "the focused metric: perf's description, formula and inputs, threshold (else, or F1 again: this help)", cmd_info },
	{ { 'h' }, "h", "this help", cmd_help },
	{ { KEY_F(10), 'q' }, "F10 q", "quit", cmd_quit },
	{ { ' ' }, "Space", "pause / resume the display", cmd_pause },
	{ { '+', '=' }, "+", "longer refresh interval", cmd_slower },
	{ { '-', '_' }, "-", "shorter refresh interval", cmd_faster },
	{ { '\t', KEY_RIGHT }, "Tab Right", "next pane", cmd_next_pane },
	{ { KEY_BTAB, KEY_LEFT }, "S-Tab Left", "previous pane", cmd_prev_pane },
	{ { KEY_DOWN, 'j' }, "Down j", "next row", cmd_down },
	{ { KEY_UP, 'k' }, "Up k", "previous row", cmd_up },
	{ { KEY_NPAGE }, "PgDn", "the screen a page down, the focus on its top row", cmd_page_down },
	{ { KEY_PPAGE }, "PgUp", "the screen a page up", cmd_page_up },
	{ { KEY_HOME }, "Home", "first row", cmd_home },
	{ { KEY_END }, "End", "last row", cmd_end },
	{ { '\r', '\n', KEY_ENTER }, "Enter", "expand a row: TopDown level 2 or a node of its tree, root ports, devices, CPUs", cmd_expand },
	{ { '*' }, "*", "open every TopDown tree node (again: close them)", tree_open_all },
	{ { 'b' }, "b", "a TopDown tree: each open node's children as one stacked bar (again: none)", tree_toggle_bars },
	{ { 'c' }, "c", "per-CPU rows / summaries (a tree: CPU columns, the next at each press)", cmd_per_cpu },
	{ { 'o', KEY_F(6) }, "F6 o", "sort per-CPU rows by the next category (a tree's CPUs: by the node)", cmd_sort },
	{ { 'f', KEY_F(4) }, "F4 f", "filter editor for the focused row's group", cmd_filter },
	{ { 's', KEY_F(2) }, "F2 s", "setup: colours, characters, bars, panes (saved)", cmd_setup },
	{ { 'e' }, "e", "errors: groups that failed and why, warnings", cmd_errors },
	{ { 'T' }, "T", "tasks: the top tasks by CPU with IPC and cache and branch misses (counted while shown)", cmd_tasks },
	{ { 'G' }, "G", "cgroups: the same a row a cgroup, as perf stat -G (-G's, else the top by CPU)", cmd_cgroups },
	{ { '/', KEY_F(3) }, "F3 /", "find a metric by name or words of its description (perf's catalogue too)", cmd_find },
	{ { 'n' }, "n", "find the next match", cmd_find_next },
	{ { 'w' }, "w", "record to pmutop-DATE-TIME.pmrec, or stop (replay: -r)", cmd_record },
	{ { CTRL('l') }, "Ctrl-L", "redraw the screen", cmd_redraw },
};

static struct key_binding key_table[sizeof(commands) / sizeof(commands[0])];

/* help reads the keys from the same table they are dispatched from */
static void share_key_table(struct tui *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		key_table[i] = (struct key_binding){ commands[i].keys, commands[i].what };
	t->keys = key_table;
	t->nkeys = (int)ARRAY_SIZE(commands);
}

static void mouse_click(struct tui *t)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	/* find the pane under the click by laying out again */
	int y = 3 - t->scroll;
	for (int i = 0; i < t->npanes; i++) {
		if (t->panes[i].hidden)
			continue;
		int h = pane_draw(t, i, 0, 0, term_cols, false);
		if (ev.y >= y && ev.y < y + h && pane_selectable(t, i)) {
			t->focus = i;
			t->row = 0;
			for (int r = 0; r < t->panes[i].nrows; r++)
				if (y + t->panes[i].row_y[r] == ev.y)
					t->row = r;
			return;
		}
		y += h;
	}
}

static void handle_key(struct tui *t, int key)
{
	if (key == KEY_RESIZE)
		return;
	if (term_cols < 60 || term_lines < 12) { /* too small: only quitting makes sense */
		if (key == 'q' || key == KEY_F(10))
			t->quit = true;
		return;
	}
	if (t->mode) {
		t->mode->key(t, key);
		return;
	}
	if (key == KEY_MOUSE) {
		mouse_click(t);
		return;
	}
	if (replay_key(t, key)) { /* a replay's time keys come first */
		return;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		for (int k = 0; k < 4 && commands[i].codes[k]; k++)
			if (commands[i].codes[k] == key) {
				t->message[0] = '\0';
				commands[i].fn(t);
				return;
			}
}

/* The monitor's state besides the terminal: settings, history and the per-slot caches. */
static void tui_state_init(struct tui *t, struct session *s, const struct ui_options *opt)
{
	memset(t, 0, sizeof(*t));
	t->engine = s;
	t->f = session_frame(s);
	t->opt = opt;
	t->interval = opt->interval_s;
	share_key_table(t);
	t->found_pane = -1;
	t->ncat_groups = -1;
	settings_defaults(&t->set);
	size_t n = (size_t)(t->f->nvalues ? t->f->nvalues : 1);
	t->hist = history_new(t->f->nvalues);
	t->shown = xmalloc(sizeof(double) * n);
	for (size_t i = 0; i < n; i++)
		t->shown[i] = NAN;
	t->spark = xcalloc(n, sizeof(*t->spark));
	t->vtext = xcalloc(n, sizeof(*t->vtext));
}

static void tui_state_free(struct tui *t)
{
	ui_mode_leave(t);
	layout_free(t);
	history_free(t->hist);
	free(t->shown);
	free(t->on_screen);
	for (int k = 0; t->f && k < t->f->nvalues; k++) {
		free(t->spark ? t->spark[k] : NULL);
		free(t->vtext ? t->vtext[k] : NULL);
	}
	free(t->spark);
	free(t->vtext);
	free(t->settings_path);
	settings_free(&t->set);
	for (int i = 0; i < t->ncat_groups; i++)
		free(t->cat_groups[i]);
	free(t->cat_groups);
}

static int ui_frame(struct output *o, const struct frame *f)
{
	struct tui *t = o->priv;
	if (f->who_end && (!t->f || !t->f->who_end)) /* the command ended: said once, counting goes on */
		tui_message(t, false, "what was counted %s: its counters stop here; q leaves with its status", f->who_end);
	t->f = f;
	if (t->exact_next)
		cell_text_exact(t);
	t->exact_next = false;
	history_push(t->hist, f);
	screen_draw(t);
	return 0;
}

static void ui_idle(struct output *o)
{
	screen_draw(o->priv); /* paused: the values stay, the header clock moves */
}

static int ui_pollfds(struct output *o, struct pollfd *pfds, int max)
{
	(void)o;
	if (max < 1)
		return 0;
	pfds[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	return 1;
}

static void ui_wake(struct output *o, const struct pollfd *pfds, int n)
{
	struct tui *t = o->priv;
	t->loop = o->loop; /* known once the output is in a loop */
	if (n > 0 && (pfds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) && !(pfds[0].revents & POLLIN)) {
		runloop_quit(t->loop); /* the terminal went away */
		return;
	}
	bool dirty = false;
	int key;
	while ((key = term_size_changed() ? KEY_RESIZE : keys_read()) != ERR) {
		if (key == KEY_RESIZE)
			crt_resized();
		if (key == KEY_UNKNOWN_SEQUENCE) { /* its pieces are not keys */
			tui_message(t, true, "a key this terminal sent is not known (TERM=%s?): ignored", termname());
			dirty = true;
			continue;
		}
		handle_key(t, key);
		dirty = true;
		t->relayout = true;
	}
	if (t->quit)
		runloop_quit(t->loop);
	else if (dirty)
		screen_draw(t);
}

static int ui_finish(struct output *o)
{
	(void)o;
	crt_done();
	return 0;
}

static void ui_destroy(struct output *o)
{
	tui_state_free(o->priv);
	free(o->priv);
	free(o);
}

/* Before the first layout every row may show; after it, only what the panes show. */
static bool ui_wants_details(struct output *o)
{
	const struct tui *t = o->priv;
	return !t->npanes || panes_show_members(t);
}

/* ... and the values of a shown instance's children (a root complex's root ports, their
 * rows one Enter away). */
static void on_screen_children(struct tui *t)
{
	const struct frame *f = t->f;
	bool *inst = xcalloc((size_t)(f->ninstances + 1), sizeof(bool));
	for (int k = 0; k < f->nvalues; k++)
		inst[f->vinfo[k].instance] |= t->on_screen[k];
	for (int k = 0; k < f->nvalues; k++) {
		int parent = f->iinfo[f->vinfo[k].instance].parent;
		if (parent >= 0 && inst[parent])
			t->on_screen[k] = true;
	}
	free(inst);
}

/* The values the panes not hidden show (their rows and level-2 details, all instances:
 * a row folded away now is one Enter from the screen); what none shows is not counted.
 * A replay's counters were counted: all of them. */
static const bool *ui_values_shown(struct output *o, unsigned *gen)
{
	struct tui *t = o->priv;
	if (!t->npanes || !t->f || t->opt->replay)
		return NULL;
	unsigned sig = t->layout_gen * 2654435761u;
	for (int pi = 0; pi < t->npanes; pi++)
		sig = sig * 31 + (unsigned)t->panes[pi].hidden;
	if (!t->on_screen || sig != t->on_screen_sig) {
		free(t->on_screen);
		t->on_screen = xcalloc((size_t)(t->f->nvalues + 1), sizeof(bool));
		for (int pi = 0; pi < t->npanes; pi++) {
			const struct upane *p = &t->panes[pi];
			for (int k = 0; !p->hidden && k < p->ninst * p->nmetrics; k++)
				if (p->slot[k] >= 0)
					t->on_screen[p->slot[k]] = true;
			for (int k = 0; !p->hidden && p->detail_slot && k < p->ninst * p->ndetail; k++)
				if (p->detail_slot[k] >= 0)
					t->on_screen[p->detail_slot[k]] = true;
		}
		on_screen_children(t);
		t->on_screen_sig = sig;
		t->on_screen_gen++;
	}
	*gen = t->on_screen_gen;
	return t->on_screen;
}

static const struct output_ops ui_ops = {
	.name = "monitor",
	.wants_details = ui_wants_details,
	.values_shown = ui_values_shown,
	.frame = ui_frame,
	.idle = ui_idle,
	.pollfds = ui_pollfds,
	.wake = ui_wake,
	.finish = ui_finish,
	.destroy = ui_destroy,
};

/* The first draw, once the output knows its loop (the key table needs it). */
static void ui_start(struct tui *t)
{
	layout_build(t);
	t->relayout = true;
	screen_draw(t); /* lays panes out, so rows exist for focus */
	t->focus = -1;
	focus_pane(t, 1, false);
	if (t->focus < 0)
		t->focus = 0;
	if (diag_count())
		tui_message(t, true, "%d warning%s: press e to see them", diag_count(), diag_count() == 1 ? "" : "s");
	else
		tui_message(t, false, t->opt->replay ? "replay: Space pause, Left/Right step, [ ] speed, g jump, Home/End, q quit"
						      : "h help   F1 the metric   Tab/arrows move   F4 filters   q quit");
	expand_pane_asked(t);
	screen_draw(t);
}

struct output *ui_output_new(struct session *s, const struct ui_options *opt)
{
	struct tui *t = xmalloc(sizeof(*t));
	tui_state_init(t, s, opt);
	t->settings_path = settings_default_path();
	settings_load(&t->set, t->settings_path);
	if (gethostname(t->hostname, sizeof(t->hostname) - 1) < 0)
		snprintf(t->hostname, sizeof(t->hostname), "?");
	if (opt->machine)
		str_copy(t->hostname, sizeof(t->hostname), opt->machine);
	diag_set_quiet(true); /* warnings go to the error view, not over the screen */
	crt_install_signal_handlers();
	if (!crt_init(t)) {
		const char *term = getenv("TERM");
		fprintf(stderr, "pmutop: the terminal (TERM=%s) is unknown or cannot move the cursor; use -b for batch output\n",
			term ? term : "unset");
		tui_state_free(t);
		free(t);
		return NULL;
	}
	struct output *o = xcalloc(1, sizeof(*o));
	o->ops = &ui_ops;
	o->priv = t;
	ui_start(t);
	if (opt->cgroups) /* -G named them: what the user came to see */
		cgroups_open(t);
	return o;
}

long ui_bench_frames(struct session *s, int frames, FILE *out, uint64_t (*clock)(void *), void *clock_ctx)
{
	struct ui_options opt = { .interval_s = 1, .title = "bench" };
	SCREEN *scr = term_newterm("xterm-256color", out, stdin);
	if (!scr)
		return -1;
	struct tui t;
	tui_state_init(&t, s, &opt);
	snprintf(t.hostname, sizeof(t.hostname), "bench");
	int cols = 120, lines = 40;
	const char *size = getenv("BENCH_SIZE");
	if (size && sscanf(size, "%dx%d", &cols, &lines) != 2)
		cols = 120, lines = 40;
	term_size_set(lines, cols);
	crt_apply_settings(&t); /* UTF-8 as the locale says: the bench sets it (BENCH_LOCALE) */
	crt_attach(out, t.utf8);
	layout_build(&t);
	long before = ftell(out);
	for (int f = 0; f < frames; f++) {
		t.f = session_sample(s, clock(clock_ctx));
		history_push(t.hist, t.f);
		screen_draw(&t);
	}
	fflush(out);
	long bytes = ftell(out) - before;
	render_leave();
	crt_free();
	endwin();
	delscreen(scr);
	tui_state_free(&t);
	return bytes;
}
