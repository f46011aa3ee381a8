/* SPDX-License-Identifier: GPL-2.0-only */
/* counter_share.h - one hardware counter per encoding and CPU: an event a group counts
 * on its own (not in a perf group) that another group already counts with the same
 * encoding on the same CPUs (perf's TopdownL1 beside the TopDown pane, both reading
 * stall_slot) reads that counter instead of taking a second one, which on a PMU with
 * six counters would make both count in turn. */
#ifndef PMUTOP_COUNTER_SHARE_H
#define PMUTOP_COUNTER_SHARE_H

#include <stdbool.h>

struct session;
struct instance;

/* Which events of the session's instances could read another's counter (once the
 * instances are bound and their sources claimed): the candidates, each with its partner. */
void counters_find_shares(struct session *s);
/* The same before any source is attached (--dry-run): what a run would share if every
 * available instance opened; counters_planned_partner says whose counter event e of
 * inst would read (instance index), or -1 where it opens its own. */
void counters_plan_shares(struct session *s);
int counters_planned_partner(const struct session *s, const struct instance *inst, int e);
/* At inst's opening: the candidates whose partner is open now read it (the source does
 * not open them); the others are opened as usual. */
void counters_settle_shares(struct session *s, struct instance *inst);
/* Whether the source leaves event e of inst to the counter it shares. */
bool instance_shares_event(const struct instance *inst, int e);
/* After the sources' reads: each shared counter reads what its partner read. */
void counters_copy_shared(struct session *s, struct instance *inst);
/* The instance a shared event's counters are read from (instance index), or -1. */
int instance_event_partner(const struct instance *inst, int e);
/* Whether inst, open, would share otherwise now (a partner it reads closed, a better
 * one opened): then it is opened again (engine/pause.c). */
bool counters_shares_stale(const struct session *s, const struct instance *inst);
void counters_free_shares(struct instance *inst);

#endif
