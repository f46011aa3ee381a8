/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_perf_names.c - an encoding by the name perf's JSON gives it on this CPU. A core
 * PMU's kernel aliases are a handful (cycles, instructions, the TopDown metrics); the
 * vendor's event list is perf's, which the catalogue compiles for each CPU model. A model
 * section that says `events = perf` names its rates so: one semantic model of Intel's
 * cores (CYCLE_ACTIVITY.STALLS_L1D_MISS is a part of the stall cycles on Skylake and on
 * Sapphire Rapids alike) carries across generations whose encodings differ. */
#include "sim/sim_perf_names.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/encode.h"
#include "profile/catalog.h"
#include "profile/profile.h"
#include "profile/profile_match.h"

struct perf_name {
	uint64_t config[CONFIG_WORDS];
	char *name;
};

struct named_pmu {
	const struct pmu *p;
	int n;
	struct perf_name *names;
};

struct sim_perf_names {
	const struct machine *m;
	bool loaded;
	struct profile *catalogue; /* this CPU model's, while tables are made; NULL: none */
	int npmus;
	struct named_pmu *pmus;
};

struct sim_perf_names *sim_perf_names_new(const struct machine *m)
{
	struct sim_perf_names *pn = xcalloc(1, sizeof(*pn));
	pn->m = m;
	return pn;
}

void sim_perf_names_free(struct sim_perf_names *pn)
{
	if (!pn)
		return;
	for (int i = 0; i < pn->npmus; i++) {
		for (int k = 0; k < pn->pmus[i].n; k++)
			free(pn->pmus[i].names[k].name);
		free(pn->pmus[i].names);
	}
	free(pn->pmus);
	profile_free(pn->catalogue);
	free(pn);
}

/* The catalogue's identifier as the model writes it: a hybrid's spelling of an event
 * ("ARITH.DIV_ACTIVE__", the same encoding) without its empty suffix. */
static char *model_name(const char *ident)
{
	char *s = xstrdup(ident);
	size_t n = strlen(s);
	if (n > 2 && !strcmp(s + n - 2, "__"))
		s[n - 2] = '\0';
	return s;
}

/* One event of the catalogue on p, encoded as the session would. False where p does not
 * take it, or the catalogue names it with modifiers (its config is the event's own). */
static bool encode_on(const struct machine *m, const struct pmu *p, const char *terms, uint64_t config[CONFIG_WORDS])
{
	if (!strchr(terms, '=') && !pmu_find_alias(p, terms))
		return false; /* a legacy name: the simulator knows those by themselves */
	if (strchr(terms, ':'))
		return false; /* EVENT:k: the event's own count, in the modes asked (mode_share) */
	char *s = xstrcat(p->name, "/", terms, "/");
	struct encoded_event enc;
	char *err = NULL;
	int r = encode_event(m, s, &enc, &err);
	free(err);
	free(s);
	if (r < 0)
		return false;
	memcpy(config, enc.attr.config, sizeof(enc.attr.config));
	return true;
}

/* Every spelling of an encoding is kept: perf's JSON names one event several ways
 * (CPU_CLK_UNHALTED.THREAD_P and .CORE_P), of which a model names one. */
static void add_name(struct named_pmu *np, const uint64_t config[CONFIG_WORDS], const char *ident)
{
	np->names = xrealloc(np->names, sizeof(*np->names) * (size_t)(np->n + 1));
	struct perf_name *pn = &np->names[np->n++];
	memcpy(pn->config, config, sizeof(pn->config));
	pn->name = model_name(ident);
}

static struct named_pmu *table_of(struct sim_perf_names *pn, const struct pmu *p)
{
	for (int i = 0; i < pn->npmus; i++)
		if (pn->pmus[i].p == p)
			return &pn->pmus[i];
	if (!pn->loaded) {
		pn->catalogue = catalog_perf_profile_listed(pn->m);
		pn->loaded = true;
	}
	pn->pmus = xrealloc(pn->pmus, sizeof(*pn->pmus) * (size_t)(pn->npmus + 1));
	struct named_pmu *np = &pn->pmus[pn->npmus++];
	*np = (struct named_pmu){ .p = p };
	const struct profile *cat = pn->catalogue;
	for (int g = 0; cat && g < cat->ngroups; g++) {
		char caps[PROFILE_MAX_CAPS][2][64];
		int ncaps = 0;
		if (!group_pattern_match(&cat->groups[g], p->name, caps, &ncaps))
			continue;
		for (int e = 0; e < cat->groups[g].nevents; e++) {
			const struct prof_event *ev = &cat->groups[g].events[e];
			uint64_t config[CONFIG_WORDS];
			if (encode_on(pn->m, p, ev->terms, config))
				add_name(np, config, ev->name);
		}
	}
	return np;
}

const char *sim_perf_name(struct sim_perf_names *pn, const struct pmu *p, const struct event_attr *attr,
			  const struct sim_section *sec)
{
	const struct named_pmu *np = table_of(pn, p);
	for (int k = 0; k < np->n; k++)
		if (!memcmp(np->names[k].config, attr->config, sizeof(attr->config)) &&
		    sim_rate_find(sec, np->names[k].name) >= 0)
			return np->names[k].name;
	return NULL;
}
