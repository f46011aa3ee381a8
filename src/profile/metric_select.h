/* SPDX-License-Identifier: GPL-2.0-only */
/* metric_select.h - -M, as perf stat -M: the metrics a run counts, by name or by perf's
 * metric group, with the metrics they read and only the events those need. */
#ifndef PMUTOP_METRIC_SELECT_H
#define PMUTOP_METRIC_SELECT_H

#include <stdbool.h>

struct profile;

/* Chooses, in each of the n profiles, the metrics spec names ("TopdownL1,ucf.mem_read_bw":
 * metric names or metric groups, case aside), the metrics they read, and per group the
 * events those read (prof_group.wanted; a group none reads counts nothing). Returns how
 * many profiles have a chosen metric, or -1 with *err (malloc'd) naming a word that names
 * nothing. */
int metrics_select(struct profile **ps, int n, const char *spec, char **err);

/* The names of p's chosen metrics, space-separated (malloc'd; '~' before those chosen
 * quietly), or NULL where p chooses none in particular (no -M): what a recording keeps
 * to bind the same again. */
char *metrics_chosen(const struct profile *p);
/* Choose exactly these metrics of p (metrics_chosen's list; names p lacks are ignored)
 * and the events they read, as metrics_select does. */
void metrics_choose_exactly(struct profile *p, const char *names);

/* Count what the panes show: p's metrics that only 'hidden = yes' panes list (and no
 * other chosen metric reads) are left out, as -M would leave them (Arm's core events,
 * which would take TopDown's counters in turn), unless the pane is in shown
 * ("PROFILE/PANE,...": the monitor's setup shows it, show_pane=; NULL for outputs without
 * a screen, which count what the panes show by default). Nothing changes in a profile
 * without such a pane. */
void metrics_leave_hidden(struct profile *p, const char *shown);
/* Marks p's 'hidden = yes' panes none of whose metrics has a group with a PMU of m's
 * (Arm's core pane on an x86 machine): setup does not offer them. */
struct machine;
void panes_mark_off_machine(struct profile *p, const struct machine *m);
/* Whether metric mi of p is listed only by 'hidden = yes' panes. */
bool metric_only_in_hidden_panes(const struct profile *p, int mi);

/* Chooses metric mi of p (and what it reads) where nothing chose it, quietly: counted as
 * a hand metric's definition (bind/metric_delegate.c), shown under that name alone. */
void metrics_choose_quietly(struct profile *p, int mi);
/* Each group's events p's chosen metrics read (prof_group.wanted), again. */
void metrics_want_events(struct profile *p);

/* Whether word names one of p's metrics or metric groups, as -M takes it. */
bool metrics_names(const struct profile *p, const char *word);
/* Every metric group the n profiles' metrics name, sorted (case aside), each once, into
 * *names (malloc'd, as the array), and into *sizes (malloc'd, if sizes) how many metrics
 * each holds; the count. */
int metrics_groups(struct profile *const *ps, int n, char ***names, int **sizes);

#endif
