/* SPDX-License-Identifier: GPL-2.0-only */
/* cell_text.c - a value as a cell shows it: "12.3 GB/s", "-", "not counted", "?", "n/a",
 * multiplexed values marked '~', impossible shares '!', values past perf's MetricThreshold
 * '^' (and red, as perf colours them); the text cached per slot until the shown number
 * changes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "base/util.h"

void cell_text(struct tui *t, int slot, const char *unit, char *buf, size_t len, enum role *r)
{
	const struct frame_value *v = slot >= 0 ? &t->f->values[slot] : NULL;
	char num[24], u[16];
	*r = R_VALUE;
	if (!v) {
		snprintf(buf, len, "n/a");
		*r = R_DIM;
		return;
	}
	switch ((enum value_state)v->state) {
	case VS_OK: {
		t->shown[slot] = display_hysteresis(t->shown[slot], v->value);
		struct value_cache *vc = NULL;
		if (t->vtext && !(vc = t->vtext[slot]))
			vc = t->vtext[slot] = xcalloc(1, sizeof(*vc));
		/* a share outside 0-100 % is impossible: shown, and marked, never hidden */
		bool impossible = ((unit[0] == '%' && !unit[1]) || !strncmp(unit, "percent", 7)) &&
				  (v->value < -0.5 || v->value > 100.5);
		if (v->multiplexed)
			*r = R_MARK;
		const struct prof_metric *pm = t->f->vinfo[slot].m;
		bool past = v->past == 1; /* a bottleneck by perf's own threshold */
		if (impossible || past || (pm->has_alert && v->value > pm->alert)) /* ECC errors growing */
			*r = R_ERROR;
		if (vc && vc->state == VS_OK + 1 && vc->shown == t->shown[slot] && vc->mux == v->multiplexed &&
		    vc->past == past) {
			str_copy(buf, len, vc->text);
			return;
		}
		format_human(t->shown[slot], unit, num, sizeof(num), u, sizeof(u));
		snprintf(buf, len, "%s%s%s%s %s", num, v->multiplexed ? "~" : "", impossible ? "!" : "", past ? "^" : "", u);
		if (vc) {
			vc->state = VS_OK + 1; /* 0: nothing cached yet */
			vc->shown = t->shown[slot];
			vc->mux = v->multiplexed;
			vc->past = past;
			str_copy(vc->text, sizeof(vc->text), buf);
		}
		return;
	}
	case VS_NO_VALUE: snprintf(buf, len, "- %s", unit); *r = R_DIM; return;
	case VS_NOT_COUNTED: snprintf(buf, len, "not counted"); *r = R_MARK; return;
	case VS_UNREADABLE: snprintf(buf, len, "?"); *r = R_ERROR; return;
	case VS_UNAVAILABLE: /* with the value's reason where it has one (a filter mode) */
		if (v->why && strstr(v->why, "not supported"))
			snprintf(buf, len, "n/a (mode not supported by this event)");
		else if (v->why)
			snprintf(buf, len, "n/a (%s)", v->why);
		else
			snprintf(buf, len, "n/a");
		*r = R_DIM;
		return;
	}
}

void cell_text_exact(struct tui *t)
{
	for (int i = 0; i < t->f->nvalues; i++)
		t->shown[i] = NAN;
}
