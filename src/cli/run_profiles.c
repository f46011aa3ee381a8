/* SPDX-License-Identifier: GPL-2.0-only */
/* run_profiles.c - a run's profiles: those -P names (perf's catalogue for "perf"), or
 * those that match the machine; perf's catalogue beside them for a demo's model and the
 * monitor's settings; -M's choice of metrics. */
#include "cli/run_profiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/suggest.h"
#include "base/util.h"
#include "profile/metric_select.h"
#include "machine/pmu.h"
#include "profile/catalog.h"
#include "profile/profile.h"

static void no_profile(const char *name)
{
	struct suggest sg;
	suggest_init(&sg, name);
	fprintf(stderr, "pmutop: no profile '%s'%s (see pmutop list profiles)\n", name, catalog_suggest_profile(&sg));
	suggest_free(&sg);
}

int run_load_profiles(const struct options *o, const struct machine *m, struct profile ***out)
{
	if (o->nprofiles) {
		*out = xcalloc((size_t)o->nprofiles, sizeof(struct profile *));
		for (int i = 0; i < o->nprofiles; i++) {
			bool perf = !strcmp(o->profiles[i], "perf"); /* this CPU's of perf's catalogue */
			char *path = perf ? NULL : catalog_find_profile(o->profiles[i]);
			int nerr = 0;
			(*out)[i] = perf ? catalog_perf_profile(m) : path ? profile_load(path, &nerr) : NULL;
			free(path);
			if ((*out)[i])
				continue;
			char *why = perf ? catalog_perf_unusable(m) : NULL;
			if (why)
				fprintf(stderr, "pmutop: -P perf: %s\n", why);
			else if (perf)
				fprintf(stderr, "pmutop: perf's catalogue has no profile for this CPU (%s; see pmutop list "
						"profiles)\n", m->cpuid ? m->cpuid : "none names its model");
			else if (nerr)
				fprintf(stderr, "pmutop: %d error%s in profile %s\n", nerr, nerr == 1 ? "" : "s", o->profiles[i]);
			else
				no_profile(o->profiles[i]);
			free(why);
			for (int k = 0; k < i; k++) /* the ones loaded before it */
				profile_free((*out)[k]);
			free(*out);
			*out = NULL;
			return !perf && !nerr ? -2 : -1;
		}
		return o->nprofiles;
	}
	struct profile **all;
	int n = catalog_load_for(m, &all);
	int k = catalog_select(all, n, m, out);
	if (o->metrics) /* -M: perf's metrics and metric groups of this CPU too, as perf stat -M */
		k = catalog_add_perf(m, out, k);
	if (!k) {
		fprintf(stderr, "pmutop: no profile matches this machine's PMUs and none is a fallback "
				"(see pmutop list profiles; choose one with -P)\n");
		return -1;
	}
	return k;
}

int run_catalogue_beside(const struct machine *m, const char *model_spec, const char *counted,
			 struct profile ***profiles, int n)
{
	struct profile *p = catalog_perf_profile(m);
	if (!p)
		return n; /* no catalogue built, or not for this CPU: the profiles' own panes */
	char *spec = xstrdup(model_spec ? model_spec : "");
	char **words = str_split(counted ? counted : "", NULL);
	for (char **w = words; *w; w++) {
		for (char *c = *w; *c; c++)
			*c = *c == ',' ? ' ' : *c;
		char **each = str_split(*w, NULL);
		for (char **e = each; *e; e++)
			if (metrics_names(p, *e)) {
				char *more = xasprintf("%s%s%s", spec, *spec ? "," : "", *e);
				free(spec);
				spec = more;
			} else { /* kept in the file for the machines whose CPU has it, but said */
				diag_warn("settings: count_group=%s: %s has no metric group or metric of that name "
					  "(not counted here; see pmutop list metricgroups -P perf)",
					  *e, p->name);
			}
		str_split_free(each);
	}
	str_split_free(words);
	char *err;
	if (!*spec || metrics_select(&p, 1, spec, &err) < 0) {
		if (*spec) {
			fprintf(stderr, "pmutop: warning: the demo model's metrics: %s\n", err);
			free(err);
		}
		free(spec);
		profile_free(p);
		return n;
	}
	free(spec);
	*profiles = xrealloc(*profiles, sizeof(**profiles) * (size_t)(n + 1));
	(*profiles)[n] = p;
	return n + 1;
}

int run_select_metrics(const struct options *o, const struct machine *m, struct profile **profiles, int *nprofiles)
{
	if (o->replay) {
		fprintf(stderr, "pmutop: -M chooses what to count; a recording's counters were chosen when it was "
				"recorded (replay it whole)\n");
		return 2;
	}
	char *err;
	if (metrics_select(profiles, *nprofiles, o->metrics, &err) < 0) {
		char *why = catalog_perf_unusable(m);
		fprintf(stderr, "pmutop: %s%s%s\n", err, why ? "; " : "", why ? why : "");
		free(why);
		free(err);
		return 2;
	}
	int kept = 0;
	for (int i = 0; i < *nprofiles; i++) {
		bool any = false;
		for (int k = 0; k < profiles[i]->nmetrics; k++)
			any |= profiles[i]->metrics[k].selected;
		if (any)
			profiles[kept++] = profiles[i];
		else
			profile_free(profiles[i]);
	}
	*nprofiles = kept;
	return 0;
}
