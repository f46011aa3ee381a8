/* SPDX-License-Identifier: GPL-2.0-only */
/* catalog.c - where profiles and demo machines are found, and which profiles apply. */
#include "profile/catalog.h"

#include <limits.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "pmutop-paths.h"
#include "base/diag.h"
#include "profile/catalog_subset.h"
#include "profile/profile_match.h"
#include "base/sysfs.h"
#include "base/suggest.h"
#include "base/util.h"

static bool running_from_build_tree(void)
{
	char exe[PATH_MAX];
	if (!exe_dir(exe))
		return false;
	/* the program, or a test program in tests/ */
	return !strcmp(exe, PMUTOP_ABS_BUILDDIR) || !strcmp(exe, PMUTOP_ABS_BUILDDIR "/tests") ||
	       !strcmp(exe, PMUTOP_ABS_BUILDDIR "/bench");
}

/* An installed tree moved elsewhere (a tarball unpacked in /opt/x): its data is where
 * the binary's ../share/pmutop is, whatever the prefix it was built for. */
static char *beside_binary(const char *sub)
{
	char exe[PATH_MAX];
	return exe_dir(exe) ? xasprintf("%s/../share/pmutop/%s", exe, sub) : NULL;
}

static void add_dir(char ***dirs, int *n, char *dir)
{
	*dirs = xrealloc(*dirs, sizeof(char *) * (size_t)(*n + 1));
	(*dirs)[(*n)++] = dir;
}

/* Each directory of a colon-separated $VAR, in order. */
static void add_path_var(char ***dirs, int *n, const char *var)
{
	const char *env = getenv(var);
	if (!env || !*env)
		return;
	char *copy = xstrdup(env), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		add_dir(dirs, n, xstrdup(d));
	free(copy);
}

/* The installed directory, then SUB beside the binary (an installed tree moved). */
static void add_installed(char ***dirs, int *n, const char *installed, const char *sub)
{
	add_dir(dirs, n, xstrdup(installed));
	char *moved = beside_binary(sub);
	if (moved)
		add_dir(dirs, n, moved);
}

int catalog_profile_dirs(char ***dirs)
{
	int n = 0;
	*dirs = NULL;
	bool dev = running_from_build_tree();
	if (dev)
		add_dir(dirs, &n, xstrdup(PMUTOP_ABS_SRCDIR "/profiles"));
	add_path_var(dirs, &n, "PMUTOP_PROFILE_PATH");
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && *xdg)
		add_dir(dirs, &n, xasprintf("%s/pmutop/profiles", xdg));
	else if (home && *home)
		add_dir(dirs, &n, xasprintf("%s/.config/pmutop/profiles", home));
	add_installed(dirs, &n, PMUTOP_PROFILEDIR, "profiles");
	return n;
}

char *catalog_find_profile(const char *arg)
{
	if (strchr(arg, '/') || is_regular_file(arg))
		return xstrdup(arg);
	char **dirs;
	int n = catalog_profile_dirs(&dirs);
	char *found = NULL;
	for (int i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s%s", dirs[i], arg, str_has_suffix(arg, ".ini") ? "" : ".ini");
		if (!found && is_regular_file(p))
			found = p;
		else
			free(p);
	}
	free_names(dirs, n);
	return found;
}

const char *catalog_suggest_profile(struct suggest *sg)
{
	char **dirs;
	int n = catalog_profile_dirs(&dirs);
	for (int i = 0; i < n; i++) {
		char **names;
		int k = list_dir(dirs[i], &names);
		for (int j = 0; j < k; j++)
			if (str_has_suffix(names[j], ".ini")) {
				names[j][strlen(names[j]) - 4] = '\0';
				suggest_offer(sg, names[j]);
			}
		free_names(names, k);
	}
	free_names(dirs, n);
	suggest_offer(sg, "perf");
	return suggest_text(sg);
}

const char *catalog_suggest_machine(struct suggest *sg)
{
	char **names;
	int n = catalog_machine_names(&names);
	for (int i = 0; i < n; i++)
		suggest_offer(sg, names[i]);
	free_names(names, n);
	return suggest_text(sg);
}

/* Every profile of the catalog, whole, or with headers_only their [profile] sections
 * (those whose header cannot be trusted are read whole). */
static int load_catalog(struct profile ***out, bool headers_only)
{
	char **dirs;
	int ndirs = catalog_profile_dirs(&dirs);
	int n = 0;
	*out = NULL;
	for (int d = 0; d < ndirs; d++) {
		char **names;
		int m = list_dir(dirs[d], &names);
		for (int i = 0; i < m; i++) {
			if (!str_has_suffix(names[i], ".ini"))
				continue;
			char *path = path_join(dirs[d], names[i]);
			int nerr;
			struct profile *p = headers_only ? profile_load_header(path) : NULL;
			if (!p)
				p = profile_load(path, &nerr);
			free(path);
			if (!p)
				continue;
			bool dup = false;
			for (int j = 0; j < n && !dup; j++)
				dup = !strcmp((*out)[j]->name, p->name);
			if (dup) {
				profile_free(p);
				continue;
			}
			*out = xrealloc(*out, sizeof(struct profile *) * (size_t)(n + 1));
			(*out)[n++] = p;
		}
		free_names(names, m);
	}
	free_names(dirs, ndirs);
	return n;
}

int catalog_load_all(struct profile ***out)
{
	return load_catalog(out, false);
}

/* Would name_unsupported have anything to look at: a PMU or hwmon device beyond the
 * kernel's generic ones? */
static bool has_uncommon_pmus(const struct machine *m);

int catalog_load_for(const struct machine *m, struct profile ***out)
{
	int n = load_catalog(out, true), kept = 0;
	bool any_match = false;
	for (int i = 0; i < n; i++)
		any_match |= !(*out)[i]->always && profile_matches((*out)[i], m);
	/* with none for this machine, every profile's groups say which PMUs none counts */
	bool all = !any_match && has_uncommon_pmus(m);
	for (int i = 0; i < n; i++) {
		struct profile *p = (*out)[i];
		bool wanted = all || p->always || p->fallback || profile_matches(p, m);
		struct profile *whole = NULL;
		int nerr;
		if (wanted && p->header_only)
			whole = profile_load(p->path, &nerr); /* errors said; NULL then */
		else if (wanted)
			whole = p, p = NULL;
		profile_free(p);
		if (whole)
			(*out)[kept++] = whole;
	}
	return kept;
}

/* Does any group of any profile count this PMU? */
static bool some_group_counts(struct profile **all, int n, const struct pmu *pmu)
{
	for (int i = 0; i < n; i++)
		for (int g = 0; g < all[i]->ngroups; g++) {
			char caps[8][2][64];
			int ncaps = 0;
			bool ok = group_pattern_match(&all[i]->groups[g], pmu->name, caps, &ncaps);
			for (int k = 0; ok && k < all[i]->groups[g].nneeds; k++) /* bfperf_{block} needs TBU_MISS */
				ok = pmu_find_alias(pmu, all[i]->groups[g].needs[k]) != NULL;
			if (ok)
				return true;
		}
	return false;
}

/* When no profile is for this machine, say what it has that none counts yet (a NIC's or
 * a DPU's counters), rather than only what the fallback profile misses. The kernel's
 * own generic PMUs are not news. */
static bool generic_pmu(const struct pmu *p)
{
	static const char *const generic[] = { "software", "tracepoint", "breakpoint", "kprobe", "uprobe", "msr",
					      "power", "cstate_*", "intel_pt", "intel_bts", "cpu", "cpu_core", "cpu_atom" };
	for (size_t k = 0; k < ARRAY_SIZE(generic); k++)
		if (fnmatch(generic[k], p->name, 0) == 0)
			return true;
	return false;
}

static bool has_uncommon_pmus(const struct machine *m)
{
	for (int i = 0; i < m->npmus; i++)
		if (!generic_pmu(&m->pmus[i]))
			return true;
	return m->nhwmon > 0;
}

static void name_unsupported(struct profile **all, int n, const struct machine *m)
{
	for (int i = 0; i < m->npmus; i++) {
		bool common = generic_pmu(&m->pmus[i]);
		if (!common && !some_group_counts(all, n, &m->pmus[i]))
			diag_warn("PMU %s: found, but no profile counts it yet (see pmutop list profiles)", m->pmus[i].name);
	}
	for (int i = 0; i < m->nhwmon; i++) {
		if (!strcmp(m->hwmon[i].name, "bfperf"))
			continue; /* its blocks are PMUs (machine/bfperf.c), named above */
		char *ev = path_join(m->hwmon[i].dir, "event0"), *ct = path_join(m->hwmon[i].dir, "counter0");
		bool counters = is_regular_file(ev) && is_regular_file(ct);
		if (!counters) { /* BlueField keeps its counters in one directory per block */
			char **sub;
			int ns = list_dir(m->hwmon[i].dir, &sub);
			for (int j = 0; j < ns && !counters; j++) {
				char *e = path_join(m->hwmon[i].dir, sub[j]);
				char *e0 = path_join(e, "event0"), *c0 = path_join(e, "counter0");
				counters = is_regular_file(e0) && is_regular_file(c0);
				free(e), free(e0), free(c0);
			}
			free_names(sub, ns);
		}
		free(ev);
		free(ct);
		if (counters)
			diag_warn("hwmon device %s (%s): programmable counters found, but no profile counts them yet",
				  m->hwmon[i].name, m->hwmon[i].dir);
	}
}

int catalog_select(struct profile **all, int n, const struct machine *m, struct profile ***chosen)
{
	int k = 0;
	*chosen = xcalloc((size_t)(n ? n : 1), sizeof(struct profile *));
	for (int i = 0; i < n; i++)
		if (!all[i]->always && profile_matches(all[i], m))
			(*chosen)[k++] = all[i];
	if (!k)
		name_unsupported(all, n, m);
	if (!k)
		for (int i = 0; i < n; i++)
			if (all[i]->fallback)
				(*chosen)[k++] = all[i];
	for (int i = 0; i < n; i++) /* beside whatever else applies */
		if (all[i]->always)
			(*chosen)[k++] = all[i];
	for (int i = 0; i < n; i++) {
		bool kept = false;
		for (int j = 0; j < k; j++)
			kept |= (*chosen)[j] == all[i];
		if (!kept)
			profile_free(all[i]);
	}
	free(all);
	return k;
}

static int catalogue_dirs(char ***dirs)
{
	int n = 0;
	*dirs = NULL;
	add_path_var(dirs, &n, "PMUTOP_CATALOGUE_PATH");
	if (running_from_build_tree())
		add_dir(dirs, &n, xstrdup(PMUTOP_ABS_BUILDDIR "/catalogue"));
	add_installed(dirs, &n, PMUTOP_CATALOGUEDIR, "catalogue");
	return n;
}

/* The header of the catalogue file for m's CPU model (the first whose [profile]
 * when/unless names it), and its path in *path; NULL if none. */
static struct profile *perf_header_for_model(const struct machine *m, char **path)
{
	char **dirs;
	int ndirs = catalogue_dirs(&dirs);
	struct profile *found = NULL;
	*path = NULL;
	for (int d = 0; d < ndirs && !found; d++) {
		char **names;
		int k = list_dir(dirs[d], &names);
		for (int i = 0; i < k && !found; i++) {
			if (!str_has_suffix(names[i], ".ini"))
				continue;
			char *p = path_join(dirs[d], names[i]);
			struct profile *h = profile_load_header(p); /* the model, without compiling */
			if (h && h->when && profile_model_matches(h, m)) {
				found = h;
				*path = p;
			} else {
				profile_free(h);
				free(p);
			}
		}
		free_names(names, k);
	}
	free_names(dirs, ndirs);
	return found;
}

/* This CPU model's file of perf's catalogue; where its PMUs must be on the machine too
 * (to count), NULL where they are not. */
static struct profile *perf_profile_for(const struct machine *m, bool counted)
{
	char *path;
	struct profile *h = perf_header_for_model(m, &path), *found = NULL;
	int nerr;
	if (h && (!counted || profile_matches(h, m)) && (found = profile_load(path, &nerr)))
		found->perf = true;
	profile_free(h);
	free(path);
	return found;
}

struct profile *catalog_perf_profile(const struct machine *m)
{
	return perf_profile_for(m, true);
}

struct profile *catalog_perf_profile_listed(const struct machine *m)
{
	return perf_profile_for(m, false);
}

/* The catalogue file at path cut to what the named metrics need (catalog_subset.c), as
 * a profile marked perf's; NULL where it defines none of them. */
static struct profile *load_naming(const char *path, char *const *names)
{
	char *text = read_text_file(path, 64u << 20);
	char *part = text ? catalogue_subset(text, names) : NULL;
	int nerr;
	struct profile *p = part ? profile_load_text(path, part, &nerr) : NULL;
	if (p)
		p->perf = true;
	free(part);
	free(text);
	return p;
}

struct profile *catalog_perf_profile_naming(const struct machine *m, char *const *names)
{
	char *path;
	struct profile *h = perf_header_for_model(m, &path), *found = NULL;
	if (h && profile_matches(h, m))
		found = load_naming(path, names);
	profile_free(h);
	free(path);
	return found;
}

char *catalog_perf_unusable(const struct machine *m)
{
	char *path, *why = NULL;
	struct profile *h = perf_header_for_model(m, &path);
	if (h && !profile_matches(h, m)) {
		char pmus[256] = "";
		for (int i = 0; i < h->nrequires; i++)
			snprintf(pmus + strlen(pmus), sizeof(pmus) - strlen(pmus), "%s%s", i ? " or " : "", h->requires[i]);
		why = xasprintf("perf's catalogue has %s for this CPU, but its PMU (%s) is not on this machine "
				"(a virtual machine without a core PMU?)", h->name, pmus);
	}
	profile_free(h);
	free(path);
	return why;
}

int catalog_add_perf(const struct machine *m, struct profile ***profiles, int n)
{
	struct profile *p = catalog_perf_profile(m);
	for (int i = 0; p && i < n; i++)
		if (!strcmp((*profiles)[i]->name, p->name)) { /* chosen with -P already */
			profile_free(p);
			p = NULL;
		}
	if (!p)
		return n;
	*profiles = xrealloc(*profiles, sizeof(**profiles) * (size_t)(n + 1));
	(*profiles)[n] = p;
	return n + 1;
}

static int machine_dirs(char ***dirs)
{
	int n = 0;
	*dirs = NULL;
	const char *env = getenv("PMUTOP_MACHINE_PATH");
	if (env && *env)
		add_dir(dirs, &n, xstrdup(env));
	if (running_from_build_tree())
		add_dir(dirs, &n, xstrdup(PMUTOP_ABS_SRCDIR "/profiles/machines"));
	add_installed(dirs, &n, PMUTOP_MACHINEDIR, "machines");
	return n;
}

char *catalog_find_machine(const char *name)
{
	char **dirs;
	int n = machine_dirs(&dirs);
	char *found = NULL;
	for (int i = 0; i < n && !found; i++) {
		char *d = path_join(dirs[i], name);
		char *sys = path_join(d, "sys");
		if (is_dir(sys))
			found = d;
		else
			free(d);
		free(sys);
	}
	free_names(dirs, n);
	return found;
}

char *catalog_default_model(void)
{
	char **dirs;
	int n = machine_dirs(&dirs);
	char *found = NULL;
	for (int i = 0; i < n && !found; i++) {
		char *f = path_join(dirs[i], "default-model.ini");
		if (is_regular_file(f))
			found = f;
		else
			free(f);
	}
	free_names(dirs, n);
	return found;
}

int catalog_machine_names(char ***names)
{
	char **dirs;
	int n = machine_dirs(&dirs), k = 0;
	*names = NULL;
	for (int i = 0; i < n; i++) {
		char **sub;
		int m = list_dir(dirs[i], &sub);
		for (int j = 0; j < m; j++) {
			char *d = path_join(dirs[i], sub[j]);
			char *sys = path_join(d, "sys");
			bool machine = is_dir(sys);
			free(sys);
			free(d);
			if (!machine) /* the default model beside them is not a machine */
				continue;
			bool dup = false;
			for (int x = 0; x < k && !dup; x++)
				dup = !strcmp((*names)[x], sub[j]);
			if (!dup) {
				*names = xrealloc(*names, sizeof(char *) * (size_t)(k + 1));
				(*names)[k++] = xstrdup(sub[j]);
			}
		}
		free_names(sub, m);
	}
	free_names(dirs, n);
	return k;
}
