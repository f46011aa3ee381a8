/* SPDX-License-Identifier: GPL-2.0-only */
/* run_profiles.h - which profiles a run counts (run_profiles.c). */
#ifndef PMUTOP_RUN_PROFILES_H
#define PMUTOP_RUN_PROFILES_H

#include "cli/options.h"

struct machine;
struct profile;

/* The profiles -P names, or NULL and -2 for a name no profile has (a usage error, exit
 * 2), -1 for a profile with errors or none for this machine. */
int run_load_profiles(const struct options *o, const struct machine *m, struct profile ***out);
/* perf's catalogue for this CPU beside the profiles, its metrics chosen by a demo's model
 * ([model] metrics = TopdownL1,...) and the monitor's settings (count_group=, from its
 * setup screen: those this CPU's file has, a file written on another machine naming
 * others). The new count. */
int run_catalogue_beside(const struct machine *m, const char *model_spec, const char *counted,
			 struct profile ***profiles, int n);
/* -M: the chosen metrics, what they read and the events those need; the profiles with
 * none chosen are left out. 0, or the exit status. */
int run_select_metrics(const struct options *o, const struct machine *m, struct profile **profiles, int *nprofiles);

#endif
