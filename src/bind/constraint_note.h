/* SPDX-License-Identifier: GPL-2.0-only */
/* constraint_note.h - what perf says of its metric constraints, said where it applies. */
#ifndef PMUTOP_CONSTRAINT_NOTE_H
#define PMUTOP_CONSTRAINT_NOTE_H

struct session;

/* Where the NMI watchdog is on and a metric with values here is one perf would not group
 * while it runs (NO_GROUP_EVENTS_NMI), a warning as perf's: the watchdog holds a counter
 * of each CPU, and how to free it. Once, after binding. */
void session_note_constraints(const struct session *s);

#endif
