/* SPDX-License-Identifier: GPL-2.0-only */
/* tasks_view.c - the Tasks view (T): who is busy, tiptop's table under htop's keys. The
 * top tasks by CPU time, each with IPC and LLC and branch misses per thousand
 * instructions where its counters open; sorted by a column (< >), filtered by command or
 * user (/), a row a thread on H (htop's key: the TID where the PID was, the process it is
 * of where its threads were). The session counts them only while the view is open
 * (engine/tasks.h), and the title says what that costs. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"
#include "mode.h"
#include "tui.h"
#include "base/util.h"

enum { COL_PID, COL_USER, COL_CPU, COL_THREADS, COL_IPC, COL_LLC, COL_BRANCH, COL_COMMAND, NCOLS };
static const char *const col_name[NCOLS] = { "PID", "USER", "CPU%", "THR", "IPC", "LLC-MPKI", "BR-MPKI", "COMMAND" };

struct tasks_view {
	struct session *s; /* told when the view opens and closes: counting costs */
	bool threads;      /* H: a row a thread */
	int sort;          /* a column: highest first (PID, USER, COMMAND: in order) */
	char filter[32];
	bool typing;       /* '/' was pressed: keys go to the filter */
	int first;         /* the first row shown */
};

static bool threads_shown; /* the rows are threads: THR is TGID */

static double number(const struct task_row *r, int col)
{
	switch (col) {
	case COL_PID: return -r->pid; /* ascending */
	case COL_CPU: return r->cpu_pct;
	case COL_THREADS: return threads_shown ? -r->tgid : r->threads; /* a process's threads together */
	case COL_IPC: return r->ipc;
	case COL_LLC: return r->llc_mpki;
	case COL_BRANCH: return r->branch_mpki;
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
	return !*filter || strcasestr(r->comm, filter) || strcasestr(r->user, filter);
}

static void figure(char *buf, size_t len, double v, int decimals)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "-");
}

static void draw_row(int y, int x, int w, const struct task_row *r, bool threads, enum role role)
{
	char cpu[16], ipc[16], llc[16], br[16], line[256];
	figure(cpu, sizeof(cpu), r->cpu_pct, 1);
	figure(ipc, sizeof(ipc), r->ipc, 2);
	figure(llc, sizeof(llc), r->llc_mpki, 2);
	figure(br, sizeof(br), r->branch_mpki, 2);
	snprintf(line, sizeof(line), "%7d %-10.10s %6s %*d %6s %8s %8s  %s%s%s", r->pid, r->user, cpu, threads ? 7 : 4,
		 threads ? r->tgid : r->threads, ipc, llc, br, r->comm, r->why ? "  " : "", r->why ? r->why : "");
	crt_put(y, x, w, role, line);
}

static void tasks_draw(struct tui *t)
{
	struct tasks_view *v = t->mode_data;
	const struct frame *f = t->f;
	char title[200];
	bool th = f->tasks_threads;
	char cost[40]; /* what counting them costs; a replay counts nothing */
	snprintf(cost, sizeof(cost), t->opt->replay ? "as recorded" : "%d counters open", f->task_fds);
	snprintf(title, sizeof(title), "%s: top %d by CPU, %s (sort %s: < >, / filter%s%s%s%s, T Esc close)",
		 th ? "Threads" : "Tasks", f->ntasks, cost, th && v->sort == COL_THREADS ? "TGID" : col_name[v->sort],
		 *v->filter ? " " : "", v->filter, t->opt->replay ? "" : ", H ", /* (a replay's rows are as recorded) */
		 t->opt->replay ? "" : th ? "processes" : "threads");
	int iy, ix, iw, ih;
	crt_box(COLS - 2, LINES - 3, title, &iy, &ix, &iw, &ih);
	char head[160];
	snprintf(head, sizeof(head), "%7s %-10s %6s %*s %6s %8s %8s  %s", th ? "TID" : "PID", "USER", "CPU%", th ? 7 : 4,
		 th ? "TGID" : "THR", "IPC", "LLC-MPKI", "BR-MPKI", "COMMAND");
	crt_put(iy, ix, iw, R_TITLE, head);
	if (v->typing)
		crt_put(iy + ih - 1, ix, iw, R_INPUT, v->filter[0] ? v->filter : "filter: type a command or user");
	else if (f->tasks_note)
		crt_put(iy + ih - 1, ix, iw, R_DIM, f->tasks_note);
	if (!f->tasks) {
		crt_put(iy + 1, ix, iw, R_DIM, t->opt->replay ? "the tasks as recorded show with the next sample (Left, Right step)"
							      : "counting the top tasks from the next refresh");
		return;
	}
	const struct task_row **shown = xmalloc(sizeof(*shown) * (size_t)(f->ntasks ? f->ntasks : 1));
	int n = 0;
	for (int i = 0; i < f->ntasks; i++)
		if (matches(&f->tasks[i], v->filter))
			shown[n++] = &f->tasks[i];
	sort_col = v->sort;
	threads_shown = th;
	qsort(shown, (size_t)n, sizeof(*shown), by_column);
	int rows = ih - 1 - (v->typing || f->tasks_note ? 1 : 0);
	if (v->first > n - rows)
		v->first = n - rows > 0 ? n - rows : 0;
	for (int i = 0; i < rows && v->first + i < n; i++)
		draw_row(iy + 1 + i, ix, iw, shown[v->first + i], th, shown[v->first + i]->why ? R_DIM : R_NORMAL);
	if (!n)
		crt_put(iy + 1, ix, iw, R_DIM, *v->filter ? "no task matches the filter" : "no task");
	free(shown);
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
	case '<': v->sort = (v->sort + NCOLS - 1) % NCOLS; break;
	case '>': v->sort = (v->sort + 1) % NCOLS; break;
	case '/': v->typing = true; break;
	case 'H': /* threads or processes: counted afresh, the next refresh shows them */
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
			ui_mode_leave(t); /* T, Esc, q: back to the panes */
	}
}

static void tasks_free(void *data)
{
	struct tasks_view *v = data;
	session_want_tasks(v->s, false); /* its descriptors back */
	session_tasks_threads(v->s, false);
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
