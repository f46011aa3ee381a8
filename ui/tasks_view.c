/* SPDX-License-Identifier: GPL-2.0-only */
/* tasks_view.c - the Tasks view (T): who is busy, tiptop's table under htop's keys. The
 * top tasks by CPU time, each with IPC, cache misses (perf's cache-misses, named by the
 * level the CPU counts) and branch misses per thousand instructions where its counters
 * open, and its cgroup; sorted by a column (< >), filtered
 * by command, user or cgroup (/), a row a thread on H (htop's key: the TID where the PID was, the process it is
 * of where its threads were). The Cgroups view (G) is the same table a row a cgroup (perf
 * stat -G's), without the PID and USER columns. The session counts them only while the
 * view is open (engine/tasks.h), and the title says what that costs. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"
#include "machine/generic_events.h"
#include "mode.h"
#include "tui.h"
#include "base/util.h"

enum { COL_PID, COL_USER, COL_CPU, COL_THREADS, COL_CYC, COL_IPC, COL_CACHE, COL_BRANCH, COL_RET, COL_BAD, COL_FE,
       COL_BE, COL_COMMAND, NCOLS };
/* COL_CACHE's name is the frame's: perf's cache-misses is a different level per CPU; the
 * TopDown columns show where the rows have it (a CPU with perf metrics) */
static const char *const col_name[NCOLS] = { "PID", "USER", "CPU%", "THR", "CYC%", "IPC", NULL, "BR-MPKI", "RET%", "BAD%",
					     "FE%", "BE%", "COMMAND" };

static const char *column_name(const struct frame *f, int col)
{
	return col == COL_CACHE ? f->cache_misses->column : col_name[col];
}

/* the cache column's width: its name's, at least the figures' 8 */
static int cache_width(const struct frame *f)
{
	int n = (int)strlen(f->cache_misses->column);
	return n > 8 ? n : 8;
}

struct tasks_view {
	struct session *s; /* told when the view opens and closes: counting costs */
	bool cgroups;      /* the Cgroups view (G) */
	bool threads;      /* H: a row a thread */
	int sort;          /* a column: highest first (PID, USER, COMMAND: in order) */
	char filter[32];
	bool typing;       /* '/' was pressed: keys go to the filter */
	int first;         /* the first row shown */
	int tdcols;        /* TopDown's columns shown: 4, 1 (backend bound alone: a narrow
			    * screen keeps the command) or 0 (the rows have none) */
	bool cycles;       /* the rows have a share of the machine's cycles: CYC% is shown */
};

static bool threads_shown; /* the rows are threads: THR is TGID */

/* What the view shows: the frame's tasks or its cgroups */
struct shown_rows {
	const struct task_row *rows;
	int n, fds;
	const char *note;
};

static struct shown_rows rows_of(const struct frame *f, bool cgroups)
{
	if (cgroups)
		return (struct shown_rows){ f->cgroups, f->ncgroups, f->cgroup_fds, f->cgroups_note };
	return (struct shown_rows){ f->tasks, f->ntasks, f->task_fds, f->tasks_note };
}

static bool has_cycles(const struct shown_rows *sr)
{
	for (int i = 0; sr->rows && i < sr->n; i++)
		if (isfinite(sr->rows[i].cycles_share))
			return true;
	return false;
}

static bool has_topdown(const struct shown_rows *sr)
{
	for (int i = 0; sr->rows && i < sr->n; i++)
		if (isfinite(sr->rows[i].topdown[0]))
			return true;
	return false;
}

/* Which optional columns fit beside the rest and the name's first characters (a
 * command's 15, a cgroup path's 32) in width: CYC% first, then TopDown's four, or
 * backend bound alone, or none (v->cycles, v->tdcols) */
static void optional_columns(struct tasks_view *v, const struct frame *f, const struct shown_rows *sr, bool threads,
			     int width)
{
	int lead = v->cgroups ? 15 : 31 + (threads ? 3 : 0), name = v->cgroups ? 32 : 15;
	int used = lead + 6 + 1 + cache_width(f) + 1 + 8 + 2 + name;
	v->cycles = has_cycles(sr) && used + 6 <= width;
	used += v->cycles ? 6 : 0;
	v->tdcols = !has_topdown(sr) ? 0 : used + 4 * 6 <= width ? 4 : used + 6 <= width ? 1 : 0;
}

/* a cgroup has no PID or user: its view's columns skip them; TopDown's only with it */
static bool column_shown(const struct tasks_view *v, int col)
{
	if (col >= COL_RET && col <= COL_BE)
		return v->tdcols == 4 || (v->tdcols == 1 && col == COL_BE);
	if (col == COL_CYC)
		return v->cycles;
	return !v->cgroups || (col != COL_PID && col != COL_USER);
}

static double number(const struct task_row *r, int col)
{
	switch (col) {
	case COL_PID: return -r->pid; /* ascending */
	case COL_CPU: return r->cpu_pct;
	case COL_THREADS: return threads_shown ? -r->tgid : r->threads; /* a process's threads together */
	case COL_IPC: return r->ipc;
	case COL_CACHE: return r->cache_mpki;
	case COL_BRANCH: return r->branch_mpki;
	case COL_CYC: return r->cycles_share;
	case COL_RET:
	case COL_BAD:
	case COL_FE:
	case COL_BE: return r->topdown[col - COL_RET];
	default: return 0;
	}
}

static int sort_col;
static int by_column(const void *a, const void *b)
{
	const struct task_row *x = *(const struct task_row *const *)a, *y = *(const struct task_row *const *)b;
	if (sort_col == COL_USER || sort_col == COL_COMMAND) {
		int c = strcmp(sort_col == COL_USER ? x->user : x->comm, sort_col == COL_USER ? y->user : y->comm);
		return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
	}
	double u = number(x, sort_col), v = number(y, sort_col);
	if (isnan(u) != isnan(v))
		return isnan(u) ? 1 : -1; /* not counted: last */
	if (u != v)
		return u < v ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static bool matches(const struct task_row *r, const char *filter)
{
	return !*filter || strcasestr(r->comm, filter) || strcasestr(r->user, filter) ||
	       (r->cgroup && strcasestr(r->cgroup, filter));
}

static void figure(char *buf, size_t len, double v, int decimals)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "-");
}

/* CYC% where shown, IPC to BR-MPKI, and TopDown's shown (tdcols): a row's, or (r NULL)
 * their heads */
static void figures_text(char *buf, size_t len, const struct frame *f, const struct task_row *r, const struct tasks_view *v)
{
	char cyc[16], ipc[16], cache[16], br[16];
	int cw = cache_width(f), n, tdcols = v->tdcols;
	figure(cyc, sizeof(cyc), r ? r->cycles_share : NAN, 1);
	figure(ipc, sizeof(ipc), r ? r->ipc : NAN, 2);
	figure(cache, sizeof(cache), r ? r->cache_mpki : NAN, 2);
	figure(br, sizeof(br), r ? r->branch_mpki : NAN, 2);
	n = v->cycles ? snprintf(buf, len, "%5s ", r ? cyc : "CYC%") : 0;
	n += snprintf(buf + n, len - (size_t)n, "%6s %*s %8s", r ? ipc : "IPC", cw, r ? cache : f->cache_misses->column,
		      r ? br : "BR-MPKI");
	for (int l = tdcols == 4 ? 0 : TASK_TOPDOWN - tdcols; l < TASK_TOPDOWN && n > 0 && (size_t)n < len; l++) {
		char share[16];
		figure(share, sizeof(share), r ? r->topdown[l] : NAN, 1);
		n += snprintf(buf + n, len - (size_t)n, " %5s", r ? share : col_name[COL_RET + l]);
	}
}

static void draw_row(int y, int x, int w, const struct frame *f, const struct task_row *r, const struct tasks_view *v,
		     enum role role)
{
	char cpu[16], figs[96], line[512];
	bool threads = threads_shown;
	figure(cpu, sizeof(cpu), r->cpu_pct, 1);
	figures_text(figs, sizeof(figs), f, r, v);
	if (v->cgroups)
		snprintf(line, sizeof(line), "%7s %6d %s  %s%s%s", cpu, r->threads, figs, r->comm, r->why ? "  " : "",
			 r->why ? r->why : "");
	else /* the command padded to the kernel's 15 bytes, so its cgroup makes a column */
		snprintf(line, sizeof(line), "%7d %-10.10s %6s %*d %s  %-15s  %s%s%s", r->pid, r->user, cpu, threads ? 7 : 4,
			 threads ? r->tgid : r->threads, figs, r->comm, r->cgroup ? r->cgroup : "", r->why ? "  " : "",
			 r->why ? r->why : "");
	crt_put(y, x, w, role, line);
}

/* The title: what is shown, what it costs, the keys */
static void title_of(const struct tui *t, const struct tasks_view *v, const struct shown_rows *sr, char *buf, size_t len)
{
	bool th = t->f->tasks_threads && !v->cgroups;
	char cost[40]; /* what counting them costs; a replay counts nothing */
	snprintf(cost, sizeof(cost), t->opt->replay ? "as recorded" : "%d counters open", sr->fds);
	const char *sort = v->cgroups && v->sort == COL_THREADS ? "PROCS" : v->cgroups && v->sort == COL_COMMAND ? "CGROUP"
			 : th && v->sort == COL_THREADS ? "TGID" : column_name(t->f, v->sort);
	const char *h = v->cgroups || t->opt->replay ? "" : th ? ", H processes" : ", H threads";
	snprintf(buf, len, "%s: top %d by CPU, %s (sort %s: < >, / filter%s%s%s, %s Esc close)",
		 v->cgroups ? "Cgroups" : th ? "Threads" : "Tasks", sr->n, cost, sort, *v->filter ? " " : "", v->filter, h,
		 v->cgroups ? "G" : "T");
}

static void tasks_draw(struct tui *t)
{
	struct tasks_view *v = t->mode_data;
	const struct frame *f = t->f;
	struct shown_rows sr = rows_of(f, v->cgroups);
	bool th = f->tasks_threads && !v->cgroups;
	char title[240];
	title_of(t, v, &sr, title, sizeof(title));
	int iy, ix, iw, ih;
	crt_box(term_cols - 2, term_lines - 3, title, &iy, &ix, &iw, &ih);
	char head[160];
	char figs[96];
	optional_columns(v, f, &sr, th, iw);
	figures_text(figs, sizeof(figs), f, NULL, v);
	if (v->cgroups)
		snprintf(head, sizeof(head), "%7s %6s %s  %s", "CPU%", "PROCS", figs, "CGROUP");
	else
		snprintf(head, sizeof(head), "%7s %-10s %6s %*s %s  %-15s  %s", th ? "TID" : "PID", "USER", "CPU%", th ? 7 : 4,
			 th ? "TGID" : "THR", figs, "COMMAND", "CGROUP");
	crt_put(iy, ix, iw, R_TITLE, head);
	if (v->typing)
		crt_put(iy + ih - 1, ix, iw, R_INPUT, v->filter[0] ? v->filter
					       : v->cgroups ? "filter: type a cgroup's path" : "filter: type a command, user or cgroup");
	else if (t->message[0]) /* a key's answer: the view covers the screen's message line */
		crt_put(iy + ih - 1, ix, iw, t->message_is_error ? R_ERROR : R_MARK, t->message);
	else if (sr.note)
		crt_put(iy + ih - 1, ix, iw, R_DIM, sr.note);
	if (!sr.rows) {
		crt_put(iy + 1, ix, iw, R_DIM, t->opt->replay ? "the tasks as recorded show with the next sample (. , step)"
				 : v->cgroups ? "counting the cgroups from the next refresh" : "counting the top tasks from the next refresh");
		return;
	}
	const struct task_row **shown = xmalloc(sizeof(*shown) * (size_t)(sr.n ? sr.n : 1));
	int n = 0;
	for (int i = 0; i < sr.n; i++)
		if (matches(&sr.rows[i], v->filter))
			shown[n++] = &sr.rows[i];
	sort_col = v->sort;
	threads_shown = th;
	qsort(shown, (size_t)n, sizeof(*shown), by_column);
	int rows = ih - 1 - (v->typing || t->message[0] || sr.note ? 1 : 0);
	if (v->first > n - rows)
		v->first = n - rows > 0 ? n - rows : 0;
	for (int i = 0; i < rows && v->first + i < n; i++)
		draw_row(iy + 1 + i, ix, iw, f, shown[v->first + i], v, shown[v->first + i]->why ? R_DIM : R_NORMAL);
	if (!n)
		crt_put(iy + 1, ix, iw, R_DIM, *v->filter ? "no row matches the filter" : v->cgroups ? "no cgroup" : "no task");
	free(shown);
}

/* < and >: the next column the view shows */
static void next_sort(struct tasks_view *v, int step)
{
	do
		v->sort = (v->sort + NCOLS + step) % NCOLS;
	while (!column_shown(v, v->sort));
}

static void tasks_key(struct tui *t, int key)
{
	struct tasks_view *v = t->mode_data;
	size_t len = strlen(v->filter);
	if (v->typing) { /* the filter: Enter keeps it, Esc clears it */
		if (key == '\r' || key == '\n' || key == KEY_ENTER)
			v->typing = false;
		else if (key == 27)
			v->typing = false, v->filter[0] = '\0';
		else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len)
			v->filter[len - 1] = '\0';
		else if (key >= 32 && key < 127 && len + 1 < sizeof(v->filter))
			v->filter[len] = (char)key, v->filter[len + 1] = '\0';
		return;
	}
	switch (key) {
	case '<': next_sort(v, -1); break;
	case '>': next_sort(v, 1); break;
	case '/': v->typing = true; break;
	case 'H': /* threads or processes: counted afresh, the next refresh shows them */
		if (v->cgroups) {
			tui_message(t, true, "a cgroup's row is the cgroup (T: the tasks, H there: their threads)");
			break;
		}
		if (t->opt->replay) {
			tui_message(t, true, "a replay shows the rows as recorded (threads where they were)");
			break;
		}
		v->threads = !v->threads;
		session_tasks_threads(v->s, v->threads);
		v->first = 0;
		tui_message(t, false, "%s: from the next refresh", v->threads ? "a row a thread" : "a row a process");
		break;
	case KEY_DOWN: v->first++; break;
	case KEY_UP: v->first -= v->first > 0; break;
	case KEY_HOME: v->first = 0; break;
	default:
		if (!replay_key(t, key)) /* a replay's steps show the tasks as recorded then */
			ui_mode_leave(t); /* T or G, Esc, q: back to the panes */
	}
}

static void tasks_free(void *data)
{
	struct tasks_view *v = data;
	if (v->cgroups) {
		session_want_cgroups(v->s, false); /* their descriptors back */
	} else {
		session_want_tasks(v->s, false);
		session_tasks_threads(v->s, false);
	}
	free(v);
}

const struct ui_mode tasks_mode = { "tasks", tasks_draw, tasks_key, tasks_free };

void tasks_open(struct tui *t)
{
	struct tasks_view *v = xcalloc(1, sizeof(*v));
	v->s = t->engine;
	v->sort = COL_CPU;
	session_want_tasks(v->s, true);
	ui_mode_enter(t, &tasks_mode, v);
}

void cgroups_open(struct tui *t)
{
	const char *absent = session_cgroups_absent(t->engine);
	if (absent) {
		tui_message(t, true, "%s", absent);
		return;
	}
	struct tasks_view *v = xcalloc(1, sizeof(*v));
	v->s = t->engine;
	v->cgroups = true;
	v->sort = COL_CPU;
	session_want_cgroups(v->s, true);
	ui_mode_enter(t, &tasks_mode, v);
}
