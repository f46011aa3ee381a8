/* SPDX-License-Identifier: GPL-2.0-only */
/* constraint_note.c - perf's MetricConstraint notes (constraint_note.h). The perf groups
 * follow the constraints (bind/event_groups.c); what perf tells the user is said here:
 * the NMI watchdog takes one of each CPU's core counters, so the NO_GROUP_EVENTS_NMI
 * metrics' events are not grouped and multiplex on one fewer. */
#include "bind/constraint_note.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/textbuf.h"
#include "bind/state.h"

void session_note_constraints(const struct session *s)
{
	if (s->machine->nmi_watchdog != 1)
		return;
	struct textbuf names = { 0 };
	const struct prof_metric *last = NULL;
	int n = 0;
	for (int k = 0; k < s->nvalues; k++) {
		const struct prof_metric *m = s->vinfo[k].m;
		if (m->constraint != CONSTRAINT_NO_GROUP_NMI || m == last)
			continue;
		bool seen = false; /* a metric's values are together: this catches the rest */
		for (int j = 0; j < k && !seen; j++)
			seen = s->vinfo[j].m == m;
		last = m;
		if (seen)
			continue;
		if (n < 3)
			textbuf_printf(&names, "%s%s", n ? ", " : "", m->name);
		n++;
	}
	if (n > 3)
		textbuf_printf(&names, " and %d more", n - 3);
	if (n)
		diag_warn("the NMI watchdog is on: it holds one of each CPU's core counters, so perf's %s count their "
			  "events ungrouped, multiplexed on the counters left (echo 0 > /proc/sys/kernel/nmi_watchdog "
			  "frees it, as perf says)", names.data);
	textbuf_free(&names);
}
