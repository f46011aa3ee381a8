/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_list.c - `pmutop list [pmus|events|profiles|metrics|machines|pci]`, like perf list. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/profile_match.h"
#include "profile/catalog.h"
#include "bind/metric_delegate.h"
#include "profile/metric_select.h"
#include "cli/commands.h"
#include "machine/encode.h"
#include "machine/pcimap.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "engine/session.h"
#include "base/diag.h"
#include "base/sysfs.h"
#include "base/suggest.h"
#include "base/util.h"

/* Where the lists are written: a buffer, escaped before it reaches the terminal (PMU,
 * event and profile names, titles and paths come from files anyone may write). */
static FILE *out;
static bool list_all;     /* list metrics --all */
static bool list_verbose; /* list metrics -v: each one's description, groups and formulae */
static int list_nprofiles;
static const char **list_profile_names; /* list metrics -P NAME|FILE: these, not the machine's */
static int name_width = 32, unit_width = 8, profile_width = 10; /* list metrics: the widest of what it lists */

static void metric_units(const struct prof_metric *m, char *buf, size_t len);
static int text_columns(const char *s);

/* Columns as wide as the longest name, unit and profile name of these profiles' metrics
 * (perf's names reach 60 characters, Arm's units "percent of operations"), so every unit
 * and profile starts in one column. */
static void widen_columns(struct profile *const *ps, int n)
{
	for (int i = 0; i < n; i++) {
		if (ps[i]->nmetrics && (int)strlen(ps[i]->name) > profile_width)
			profile_width = (int)strlen(ps[i]->name);
		for (int k = 0; k < ps[i]->nmetrics; k++) {
			char units[64];
			metric_units(&ps[i]->metrics[k], units, sizeof(units));
			if ((int)strlen(ps[i]->metrics[k].name) > name_width)
				name_width = (int)strlen(ps[i]->metrics[k].name);
			if (text_columns(units) > unit_width)
				unit_width = text_columns(units);
		}
	}
}

/* Which PMUs the profiles chosen for this machine count: bound[i] for m->pmus[i]; note[i]
 * why a profile that would count it does not (the CPU model), or NULL. */
static bool *pmus_in_use(const struct machine *m, char ***note)
{
	bool *bound = xcalloc((size_t)(m->npmus ? m->npmus : 1), sizeof(bool));
	*note = xcalloc((size_t)(m->npmus ? m->npmus : 1), sizeof(char *));
	struct profile **all, **chosen;
	int n = catalog_load_for(m, &all);
	int nc = n > 0 ? catalog_select(all, n, m, &chosen) : 0;
	struct session *s = nc > 0 ? session_new(m, chosen, nc) : NULL;
	for (int i = 0; s && i < s->ninstances; i++)
		if (s->inst[i].pmu)
			bound[s->inst[i].pmu - m->pmus] = true;
	for (int i = 0; s && i < m->npmus; i++)
		(*note)[i] = s->pmu_note[i] ? xstrdup(s->pmu_note[i]) : NULL;
	session_free(s);
	for (int i = 0; i < nc; i++) /* catalog_select freed the others, and all */
		profile_free(chosen[i]);
	if (nc > 0)
		free(chosen);
	return bound;
}

/* Every PMU, and "(no profile)" by the uncore PMUs found that no profile counts: what a
 * profile could be written for. */
static void list_pmus(const struct machine *m)
{
	diag_set_quiet(true); /* binding's warnings are the monitor's business, not a listing's */
	char **note;
	bool *bound = pmus_in_use(m, &note);
	diag_set_quiet(false);
	if (m->cpuid) /* which profiles' model-specific groups apply depends on it */
		fprintf(out, "CPU model %s (from %s)\n", m->cpuid, m->cpuid_from);
	for (int i = 0; i < m->npmus; i++) {
		const struct pmu *p = &m->pmus[i];
		char cpus[256];
		cpulist_format(&p->cpus, cpus, sizeof(cpus));
		const char *id = pmu_attr(p, "identifier");
		if (p->hw) { /* a bfperf block: counters, not a perf type */
			static const char *const kinds[] = { "counters", "crspace", "registers" };
			fprintf(out, "%-40s hwmon %-9s counters=%-3d width=%-2d events=%-4d%s%s\n", p->name, kinds[p->hw->type],
			       p->hw->ncounters, p->hw->width, p->naliases, p->hw->has_enable ? " enable" : "",
			       p->hw->truncated ? " event_list-cut" : "");
			continue;
		}
		bool unbound = !bound[i] && p->has_cpumask && !p->sensor;
		fprintf(out, "%-40s type=%-4d cpus=%-12s formats=%-3d events=%-4d%s%s%s%s%s\n", p->name, p->type,
		       p->has_cpumask ? cpus : "(all)", p->nformats, p->naliases, id ? " identifier=" : "", id ? id : "",
		       unbound ? " (" : "", unbound ? (note[i] ? note[i] : "no profile") : "", unbound ? ")" : "");
		free(note[i]);
	}
	free(note);
	free(bound);
	for (int i = 0; i < m->nhwmon; i++)
		fprintf(out, "%-40s hwmon %s\n", m->hwmon[i].name, m->hwmon[i].dir);
}

static void list_events(const struct machine *m)
{
	const char *name;
	for (int i = 0; (name = encode_legacy_name(i, NULL)); i++)
		fprintf(out, "  %-50s [software/hardware event]\n", name);
	for (int i = 0; i < m->npmus; i++) {
		const struct pmu *p = &m->pmus[i];
		for (int j = 0; j < p->naliases; j++) {
			char *ev = xasprintf("%s/%s/", p->name, p->aliases[j].name);
			fprintf(out, "  %-50s [%s]\n", ev, p->aliases[j].terms);
			free(ev);
		}
		for (int j = 0; j < p->nformats; j++) {
			char *ev = xasprintf("%s/%s=?/", p->name, p->formats[j].name);
			fprintf(out, "  %-50s [format %s]\n", ev, p->formats[j].spec);
			free(ev);
		}
	}
}

/* A metric's unit, and the others its forms give on other families ("cycles|ns"). */
static void metric_units(const struct prof_metric *m, char *buf, size_t len)
{
	str_copy(buf, len, m->unit);
	for (int i = 0; i < m->nforms; i++) {
		bool seen = !strcmp(m->forms[i].unit, m->unit);
		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(m->forms[k].unit, m->forms[i].unit);
		size_t at = strlen(buf);
		if (!seen)
			snprintf(buf + at, len - at, "|%s", m->forms[i].unit);
	}
}

/* The columns s takes on a terminal (UTF-8: °C is two bytes in one column each). */
static int text_columns(const char *s)
{
	int cols = 0;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		cols += (*c & 0xc0) != 0x80;
	return cols;
}

/* s padded to w columns as a terminal shows it */
static void put_padded(const char *s, int w)
{
	int cols = text_columns(s);
	fprintf(out, "%s%*s", s, cols < w ? w - cols : 0, "");
}

static void put_metric(const struct profile *p, const struct prof_metric *pm, bool here)
{
	char units[64];
	metric_units(pm, units, sizeof(units));
	fprintf(out, "%-*s ", name_width, pm->name);
	put_padded(units, unit_width);
	/* perf's metrics are titled by their names: their description says more */
	const char *what = pm->description && !strcmp(pm->title, pm->name) ? pm->description : pm->title;
	fprintf(out, " %-*s %s%s\n", profile_width, p->name, what, here ? "" : "  (not on this machine)");
	if (!list_verbose)
		return;
	if (pm->description && what != pm->description)
		fprintf(out, "    %s\n", pm->description);
	if (pm->perf_name)
		fprintf(out, "    perf's name: %s\n", pm->perf_name);
	if (pm->perf_profile) /* one definition per metric: perf's, where the catalogue has it */
		fprintf(out, "    here: perf's %s (%s)\n", pm->perf_profile->metrics[pm->perf_metric].name, pm->perf_profile->name);
	if (pm->groups) {
		fprintf(out, "    groups:");
		for (char **g = pm->groups; *g; g++)
			fprintf(out, " %s", *g);
		fprintf(out, "\n");
	}
	for (int i = 0; i < pm->nforms; i++) {
		if (!pm->forms[i].text)
			continue;
		fprintf(out, "    formula@%s = %s", pm->forms[i].group_name ? pm->forms[i].group_name : "?", pm->forms[i].text);
		if (pm->scale != 1)
			fprintf(out, "  (shown times %g)", pm->scale);
		fprintf(out, "\n");
	}
}

/* The profiles list metrics -P names, loaded (their errors said); how many. "perf" is
 * this CPU's of perf's catalogue, as for -p. */
static int load_named(const struct machine *m, struct profile ***out_profiles)
{
	*out_profiles = xcalloc((size_t)list_nprofiles, sizeof(struct profile *));
	int n = 0;
	for (int i = 0; i < list_nprofiles; i++) {
		bool perf = !strcmp(list_profile_names[i], "perf");
		char *path = perf ? NULL : catalog_find_profile(list_profile_names[i]);
		int nerr = 0;
		struct profile *p = perf ? catalog_perf_profile(m) : path ? profile_load(path, &nerr) : NULL;
		free(path);
		if (p)
			(*out_profiles)[n++] = p;
		else if (perf) {
			char *why = catalog_perf_unusable(m);
			if (why)
				fprintf(stderr, "pmutop list: %s\n", why);
			else
				fprintf(stderr, "pmutop list: perf's catalogue has no profile for this CPU (%s)\n",
					m->cpuid ? m->cpuid : "none names its model");
			free(why);
		} else {
			struct suggest sg;
			suggest_init(&sg, list_profile_names[i]);
			fprintf(stderr, "pmutop list: %s '%s'%s\n", nerr ? "errors in profile" : "no profile", list_profile_names[i],
				nerr ? "" : catalog_suggest_profile(&sg));
			suggest_free(&sg);
		}
	}
	if (!n) { /* none loaded: the callers keep no list */
		free(*out_profiles);
		*out_profiles = NULL;
	}
	return n;
}

/* Whether "PROFILE/METRIC" is among the n keys listed already. */
static bool said_has(char **said, int n, const char *profile, const char *metric)
{
	char *key = xasprintf("%s/%s", profile, metric);
	bool here = false;
	for (int k = 0; k < n && !here; k++)
		here = !strcmp(said[k], key);
	free(key);
	return here;
}

/* The CPU model's catalogue file where its PMUs are not here (a VM without a core PMU):
 * listed all the same, as perf list does, each marked, and why said once. */
static void list_uncountable_catalogue(const struct machine *m)
{
	struct profile *p = catalog_perf_profile_listed(m);
	if (!p)
		return;
	for (int j = 0; j < p->nmetrics; j++)
		put_metric(p, &p->metrics[j], false);
	char *why = catalog_perf_unusable(m);
	if (why)
		fprintf(stderr, "pmutop list: %s: its metrics are listed, none counts here\n", why);
	free(why);
	profile_free(p);
}

/* The metrics that have a value on this machine, by the profiles chosen for it; with
 * all, then every other profile's metric, marked. 1 where a profile -P names is not
 * there (said), else 0. */
static int list_metrics(const struct machine *m, bool all)
{
	struct profile **cand, **chosen = NULL;
	int n = list_nprofiles ? load_named(m, &cand) : catalog_load_for(m, &cand);
	int status = list_nprofiles && n < list_nprofiles;
	if (status) { /* said: nothing else is listed (with --all it listed every metric) */
		for (int i = 0; i < n; i++)
			profile_free(cand[i]);
		free(cand);
		return status;
	}
	int nc = n > 0 && list_nprofiles ? (chosen = cand, n) : n > 0 ? catalog_select(cand, n, m, &chosen) : 0;
	if (!list_nprofiles) /* and perf's catalogue for this CPU (what -M chooses from) */
		nc = catalog_add_perf(m, &chosen, nc);
	metrics_delegate(chosen, nc, m, true); /* the hand metrics that are perf's here (perf =) */
	struct profile **every;
	int ne = all ? catalog_load_all(&every) : 0;
	widen_columns(chosen, nc);
	if (ne > 0)
		widen_columns(every, ne);
	diag_set_quiet(true); /* binding's warnings are the monitor's business */
	struct session *s = nc > 0 ? session_new(m, chosen, nc) : NULL;
	diag_set_quiet(false);
	char **said = xcalloc((size_t)(s ? s->nvalues : 0) + 1, sizeof(char *));
	int nsaid = 0;
	for (int k = 0; s && k < s->nvalues; k++) {
		const struct prof_metric *pm = s->vinfo[k].m;
		const struct profile *p = chosen[s->vinfo[k].profile];
		char *key = xasprintf("%s/%s", p->name, pm->name);
		bool dup = false;
		for (int i = 0; i < nsaid && !dup; i++)
			dup = !strcmp(said[i], key);
		if (dup) {
			free(key);
			continue;
		}
		said[nsaid++] = key;
		put_metric(p, pm, true);
	}
	session_free(s);
	bool perf_listed = false;
	for (int i = 0; i < nc; i++) { /* perf's catalogue for this CPU: all of it, as perf list */
		perf_listed |= chosen[i]->perf;
		for (int j = 0; chosen[i]->perf && j < chosen[i]->nmetrics; j++)
			if (!said_has(said, nsaid, chosen[i]->name, chosen[i]->metrics[j].name))
				put_metric(chosen[i], &chosen[i]->metrics[j], false);
	}
	if (!perf_listed && !list_nprofiles)
		list_uncountable_catalogue(m);
	for (int i = 0; i < nc; i++)
		profile_free(chosen[i]);
	free(chosen);
	for (int i = 0; i < ne; i++) {
		for (int j = 0; j < every[i]->nmetrics; j++)
			if (!said_has(said, nsaid, every[i]->name, every[i]->metrics[j].name))
				put_metric(every[i], &every[i]->metrics[j], false);
		profile_free(every[i]);
	}
	if (all)
		free(every);
	for (int i = 0; i < nsaid; i++)
		free(said[i]);
	free(said);
	return status;
}

/* perf list metricgroups: each group a metric of this machine's profiles names (what -M
 * takes besides a metric's name), with how many metrics it holds. 1 as list metrics. */
static int list_metricgroups(const struct machine *m)
{
	struct profile **cand, **chosen = NULL;
	int n = list_nprofiles ? load_named(m, &cand) : catalog_load_for(m, &cand);
	int status = list_nprofiles && n < list_nprofiles;
	if (status) { /* said: nothing else is listed (with --all it listed every metric) */
		for (int i = 0; i < n; i++)
			profile_free(cand[i]);
		free(cand);
		return status;
	}
	int nc = n > 0 && list_nprofiles ? (chosen = cand, n) : n > 0 ? catalog_select(cand, n, m, &chosen) : 0;
	if (!list_nprofiles)
		nc = catalog_add_perf(m, &chosen, nc);
	char **names;
	int *sizes;
	int ng = metrics_groups(chosen, nc, &names, &sizes);
	for (int i = 0; i < ng; i++) {
		fprintf(out, "%-32s %4d metric%s\n", names[i], sizes[i], sizes[i] == 1 ? "" : "s");
		free(names[i]);
	}
	free(names);
	free(sizes);
	for (int i = 0; i < nc; i++)
		profile_free(chosen[i]);
	free(chosen);
	return status;
}

static void list_profiles(const struct machine *m, bool metrics)
{
	struct profile **all;
	int n = catalog_load_all(&all);
	if (!metrics)
		fprintf(out, "CPU model %s%s%s%s\n", m->cpuid ? m->cpuid : "unknown", m->cpuid_from ? " (from " : "",
		       m->cpuid_from ? m->cpuid_from : "", m->cpuid_from ? ")" : "");
	for (int i = 0; i < n; i++) {
		const struct profile *p = all[i];
		bool match = profile_matches(p, m);
		if (!metrics) {
			char *models = NULL; /* the CPU models its model-specific groups are for */
			for (int g = 0; g < p->ngroups; g++)
				model_globs_add(&models, &p->groups[g]);
			fprintf(out, "%-16s %-8s %s  (%s)%s%s%s\n", p->name,
			       p->always ? "always" : match ? "matches" : p->fallback ? "fallback" : "-", p->title, p->path,
			       models ? " [CPU models: " : "", models ? models : "", models ? "]" : "");
			free(models);
		} else {
			for (int j = 0; j < p->nmetrics; j++)
				put_metric(p, &p->metrics[j], true);
		}
		profile_free(all[i]);
	}
	free(all);
}

/* Like the lspci script of nvidia-tegra410-pmu.rst: root ports and their RC. */
static void list_pci(const char *root)
{
	struct pci_map *pm = pci_map_read(root);
	if (!pm->n)
		fprintf(out, geteuid() == 0 ? "no root port with the NVIDIA RC DVSEC in this machine's PCI config space\n"
				      : "no root port with the NVIDIA RC DVSEC (reading PCI config space needs root)\n");
	for (int i = 0; i < pm->n; i++) {
		const struct pci_port *p = &pm->ports[i];
		fprintf(out, "%s: Bus=%02x, Segment=%02x, RP=%02x, RC=%02x, Socket=%02x\n", p->bdf, p->bus, p->segment, p->rp,
		       p->rc, p->socket);
		for (int d = 0; d < p->ndevices; d++)
			fprintf(out, "    %s\n", p->devices[d]);
	}
	pci_map_free(pm);
}

static int list_what(const char *root, const char *what);

int cmd_list(int argc, char **argv)
{
	char *root;
	int status;
	for (int i = 1; i < argc; i++) { /* list metrics --all, -v, -P NAME|FILE */
		/* -p too: list has no processes, and scripts of before -P kept working */
		bool profile = !strcmp(argv[i], "-P") || !strcmp(argv[i], "--profile") || !strcmp(argv[i], "-p");
		int take = !strcmp(argv[i], "--all") || !strcmp(argv[i], "-v") ? 1 : profile && i + 1 < argc ? 2 : 0;
		if (!take)
			continue;
		if (take == 2) {
			list_profile_names = xrealloc(list_profile_names, sizeof(char *) * (size_t)(list_nprofiles + 1));
			list_profile_names[list_nprofiles++] = argv[i + 1];
		} else if (argv[i][1] == 'v') {
			list_verbose = true;
		} else {
			list_all = true;
		}
		memmove(&argv[i], &argv[i + take], sizeof(char *) * (size_t)(argc - i - take + 1));
		argc -= take;
		i--;
	}
	int first = cmd_options(argc, argv, "list",
				"usage: pmutop list [--sysfs-root DIR | --demo[=NAME]]\n"
				"                   [pmus|events|profiles|machines|pci |\n"
				"                    metrics [--all] [-v] [-P NAME|FILE]... |\n"
				"                    metricgroups [-P NAME|FILE]...]\n",
				&root, &status);
	if (first < 0)
		return status;
	if (first + 1 < argc) {
		fprintf(stderr, "pmutop list: one thing at a time: '%s' after '%s' (see pmutop list --help)\n",
			argv[first + 1], argv[first]);
		free(root);
		return 2;
	}
	char *text = NULL;
	size_t len = 0;
	out = open_memstream(&text, &len);
	if (!out) {
		free(root);
		return 1;
	}
	status = list_what(root, first < argc ? argv[first] : "pmus");
	fclose(out);
	out = NULL;
	char *safe = str_escape_controls(text);
	fputs(safe, stdout);
	free(safe);
	free(text);
	free(root);
	return status;
}

static int list_what(const char *root, const char *what)
{
	int status;
	if (!strcmp(what, "machines")) {
		char **names;
		int n = catalog_machine_names(&names);
		for (int i = 0; i < n; i++)
			fprintf(out, "%s\n", names[i]);
		free_names(names, n);
		return 0;
	}
	if (!strcmp(what, "pci")) {
		list_pci(root);
		return 0;
	}
	struct machine *m = machine_discover(root);
	status = 0;
	if (!strcmp(what, "pmus"))
		list_pmus(m);
	else if (!strcmp(what, "events"))
		list_events(m);
	else if (!strcmp(what, "profiles"))
		list_profiles(m, false);
	else if (!strcmp(what, "metrics"))
		status = list_metrics(m, list_all);
	else if (!strcmp(what, "metricgroups"))
		status = list_metricgroups(m);
	else {
		fprintf(stderr, "pmutop list: unknown list '%s' (pmus, events, profiles, metrics, metricgroups, machines, pci)\n", what);
		status = 2;
	}
	machine_free(m);
	return status;
}
