/* SPDX-License-Identifier: GPL-2.0-only */
/* errors.c - the error view (e): every instance that failed and why, PMUs the profiles
 * want but the machine lacks, and the warnings discovery and loading produced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "mode.h"
#include "tui.h"
#include "base/util.h"

static int collect(struct tui *t, char ***lines)
{
	int n = 0;
	*lines = NULL;
#define ADD(...)                                                                      \
	do {                                                                          \
		*lines = xrealloc(*lines, sizeof(char *) * (size_t)(n + 1));          \
		(*lines)[n++] = xasprintf(__VA_ARGS__);                               \
	} while (0)
	const struct frame *s = t->f;
	/* failures first; then what this machine does not have (perf: <not supported>) */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < s->ninstances; i++) {
			const struct instance_info *in = &s->iinfo[i];
			if (s->inst[i].error && !in->nmembers && s->inst[i].absent == (pass == 1))
				ADD("%s%s/%s %s: %s", pass ? "unavailable: " : "", in->profile->name, in->group->name,
				    in->name, s->inst[i].error);
		}
	}
	for (int i = 0; i < s->nmissing; i++) {
		if (s->missing_why && s->missing_why[i])
			ADD("group %s: not counted: %s", s->missing[i]->name, s->missing_why[i]);
		else
			ADD("group %s: no PMU matches '%s'", s->missing[i]->name, s->missing[i]->pmu_pattern);
	}
	for (int i = 0; i < diag_count(); i++) {
		enum diag_level lv;
		const char *m = diag_message(i, &lv);
		int more = diag_repeats(i);
		if (more)
			ADD("%s%s (and %d more like it)", lv == DIAG_ERROR ? "error: " : "warning: ", m, more);
		else
			ADD("%s%s", lv == DIAG_ERROR ? "error: " : "warning: ", m);
	}
#undef ADD
	return n;
}

static void errors_draw(struct tui *t)
{
	struct scroll_view *v = t->mode_data;
	char **msgs;
	int nmsgs = collect(t, &msgs);
	int iy, ix, iw, ih;
	int h = 0;
	for (int i = 0; i < nmsgs; i++)
		h += 1 + (int)strlen(msgs[i]) / (term_cols > 20 ? term_cols - 10 : 10);
	/* as tall as it needs, not the whole screen for one line */
	crt_box(term_cols - 4, h + 3 < term_lines - 4 ? (h + 3 > 6 ? h + 3 : 6) : term_lines - 4,
		"Errors and warnings (Esc closes, arrows, PgUp/PgDn, Home/End scroll)", &iy, &ix, &iw, &ih);
	/* a long message (the permission advice) must be readable whole at 80 columns */
	struct text_rows rows = { 0 };
	for (int i = 0; i < nmsgs; i++)
		text_rows_add(&rows, iw, NULL, 0, msgs[i]);
	if (!nmsgs)
		crt_put(iy, ix, iw, R_DIALOG, "No errors: every group opened.");
	v->rows = rows.n;
	text_rows_draw(&rows, v, 0, iy, ix, iw, ih);
	text_rows_free(&rows);
	for (int i = 0; i < nmsgs; i++)
		free(msgs[i]);
	free(msgs);
}

static void errors_key(struct tui *t, int key)
{
	struct scroll_view *v = t->mode_data;
	if (!text_rows_scroll(v, v->rows, key))
		ui_mode_leave(t);
}

const struct ui_mode errors_mode = { "errors", errors_draw, errors_key, NULL };
