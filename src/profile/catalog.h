/* SPDX-License-Identifier: GPL-2.0-only */
/* catalog.h - where profiles and demo machines are found, and which profiles apply. */
#ifndef PMUTOP_CATALOG_H
#define PMUTOP_CATALOG_H

#include "machine/pmu.h"
#include "profile/profile.h"

/* The profile search path, in order: $PMUTOP_PROFILE_PATH (colon-separated),
 * ~/.config/pmutop/profiles, the installed directory, and the source tree's profiles/
 * when pmutop runs from its build tree (then first, so developers see their edits). */
int catalog_profile_dirs(char ***dirs);

/* Resolve -P ARG: a path if it names a file, else a profile name searched in the path. */
char *catalog_find_profile(const char *arg);

/* Load every profile of the path (first of each name wins). Broken files are reported
 * and skipped. */
int catalog_load_all(struct profile ***out);
/* The profiles catalog_select may choose for m, whole (the others are read only as far
 * as their [profile] section, to know they do not apply: start-up compiles just what
 * it uses). */
int catalog_load_for(const struct machine *m, struct profile ***out);

/* The profiles to use on m: those whose 'requires' match, else the fallback ones.
 * Takes ownership of all; returns the chosen, frees the rest. */
int catalog_select(struct profile **all, int n, const struct machine *m, struct profile ***chosen);

/* perf's catalogue (tools/gen-catalogue.py's profiles, one per perf CPU directory):
 * $PMUTOP_CATALOGUE_PATH (colon-separated), the build tree's catalogue/ when pmutop runs
 * from it, the installed directory. The profile for m's CPU model (the first whose
 * [profile] when/unless names it, as perf's mapfile.csv picks one), whole; NULL if none. */
struct profile *catalog_perf_profile(const struct machine *m);
/* The same file whether or not its PMUs are on the machine (pmutop list metrics shows it
 * as perf list does, on a VM without a core PMU too). */
struct profile *catalog_perf_profile_listed(const struct machine *m);
/* The same, only where the file defines one of the metrics named (NULL-terminated), and
 * only those and what they read (hand metrics that are perf's, metric_delegate.h: most
 * machines' catalogue file has none of them, and compiling a whole one costs
 * milliseconds): a profile of a few metrics, its groups whole. */
struct profile *catalog_perf_profile_naming(const struct machine *m, char *const *names);
/* Why the catalogue file for m's CPU model cannot count here (its PMUs are missing: a VM
 * without a core PMU), malloc'd; NULL where it can or there is none. */
char *catalog_perf_unusable(const struct machine *m);
/* -M and list metrics: it appended to the n *profiles (unless one of them is it); the
 * new count. */
int catalog_add_perf(const struct machine *m, struct profile ***profiles, int n);

/* Directory of bundled demo machine NAME (holds sys/ and model.ini), or NULL. */
char *catalog_find_machine(const char *name);
/* The traffic model --sim uses on a tree without one (default-model.ini beside the demo
 * machines), or NULL. */
char *catalog_default_model(void);
/* Names of the bundled demo machines. */
int catalog_machine_names(char ***names);
/* "; did you mean 'NAME'?" for a profile name (the path's profiles and perf) or a demo
 * machine near sg's word, or "" (base/suggest.h). */
struct suggest;
const char *catalog_suggest_profile(struct suggest *sg);
const char *catalog_suggest_machine(struct suggest *sg);

#endif
