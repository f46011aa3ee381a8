/* SPDX-License-Identifier: GPL-2.0-only */
/* event_groups.h - which of an instance's events open together as one perf group, and in
 * what order. A profile's `grouped = yes` group is one perf group; perf's catalogue groups
 * its events per metric as perf stat -M does (a weak group per metric, a metric whose
 * events an earlier one holds reusing that group, NO_GROUP_EVENTS metrics ungrouped). */
#ifndef PMUTOP_EVENT_GROUPS_H
#define PMUTOP_EVENT_GROUPS_H

#include <stdbool.h>

struct machine;
struct profile;
struct session;
struct instance;
struct prof_group;

/* perf's weak groups for a catalogue profile's chosen metrics (prof_group.sets), with the
 * machine's NMI watchdog and SMT deciding the NO_GROUP_EVENTS_NMI/_SMT metrics: nothing
 * for a hand profile. Before binding, and before profile_keep_read_events drops the
 * events nothing reads (those of the thresholds' metrics size perf's groups, as perf
 * parses a threshold in its metric's place, though pmutop counts them only if chosen). */
void profile_plan_event_groups(struct profile *p, const struct machine *m);
/* After a failed open: whether the source said the PMU refused a weak group (perf's
 * metric groups; not a profile's `grouped = yes`), which opens ungrouped from now on, so
 * the caller opens again. */
bool instance_refuse_weak_group(struct instance *inst);
/* Once, after the session's first opening: which of perf's groups the PMUs refused
 * (counted ungrouped, each event multiplexed on its own), as perf -v says of its weak groups. */
void session_note_refused_groups(const struct session *s);
/* The events the source opens for inst, in order: each perf group's together, its leader
 * first (the profile's leader: TopDown's slots), then those opened alone. set[i] is
 * order[i]'s perf group, -1 alone (a group of one opened event, or one the PMU refused,
 * is opened alone). Returns how many. */
int instance_open_order(const struct instance *inst, int *order, int *set);

#endif
