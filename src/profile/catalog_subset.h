/* SPDX-License-Identifier: GPL-2.0-only */
/* catalog_subset.h - the sections of a catalogue file that some of its metrics need. */
#ifndef PMUTOP_CATALOG_SUBSET_H
#define PMUTOP_CATALOG_SUBSET_H

/* text (a catalogue profile) without the [metric] sections that neither names (a
 * NULL-terminated list, matched as perf matches metric names: the section's name or its
 * perf_name, any case) nor what those name in their expressions, transitively, their
 * lines left blank so that each kept line keeps its number; malloc'd.
 * NULL when text defines none of names. */
char *catalogue_subset(const char *text, char *const *names);

#endif
