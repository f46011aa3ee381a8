/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_match.c - which PMUs and CPU models a profile and its groups are for: a
 * group names its PMUs by patterns with {captures} and * globs, the events it needs or
 * lacks, and the CPU models it is for.
 *
 * Uncore PMUs keep their names across generations while their events change meaning
 * (Skylake-SP's IMC event 0x05 counts refreshes, Sapphire Rapids' counts CAS), so a group
 * written with one generation's encodings says which models it is for, as perf's
 * mapfile.csv chooses a CPU's JSON: 'when = cpuid GLOB...' (x86, perf's cpuid string,
 * machine/cpuid.h) or 'when = midr_el1 GLOB...' (Arm). A group for other models does
 * not bind; where nothing says which model this is, a model-specific group does not
 * bind either, and the reason is said rather than guessed. */
#include "profile/profile_match.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "profile/profile.h"
#include "machine/cpuid.h"
#include "machine/pmu.h"

static bool names_model(const char *attr)
{
	return !strcmp(attr, "cpuid") || !strcmp(attr, "midr_el1");
}

/* Does p's attribute words[0] match one of the globs after it? (perf's stepping rule for
 * cpuid.) */
static bool attr_holds(const char *v, char **words)
{
	if (!strcmp(words[0], "cpuid"))
		return cpuid_listed(v, words + 1);
	for (char **w = words + 1; v && *w; w++)
		if (!fnmatch(*w, v, 0))
			return true;
	return false;
}

enum model_verdict group_model_verdict(const struct prof_group *g, const struct pmu *p)
{
	if (g->when) {
		const char *v = pmu_attr(p, g->when[0]);
		if (!attr_holds(v, g->when))
			return !names_model(g->when[0]) ? MODEL_NOT_FOR : v ? MODEL_OTHER : MODEL_UNKNOWN;
	}
	if (g->unless) {
		const char *v = pmu_attr(p, g->unless[0]);
		if (attr_holds(v, g->unless))
			return names_model(g->unless[0]) ? MODEL_OTHER : MODEL_NOT_FOR;
	}
	return MODEL_OK;
}

void model_globs_add(char **known, const struct prof_group *g)
{
	char **w = g->when;
	if (!w || !names_model(w[0]))
		return;
	for (w++; *w; w++) {
		if (*known && strstr(*known, *w)) /* said already (no glob here is part of another) */
			continue;
		char *n = xasprintf("%s%s%s", *known ? *known : "", *known ? ", " : "", *w);
		free(*known);
		*known = n;
	}
}

char *model_reason(const struct machine *m, const struct profile *prof, const char *known, enum model_verdict v)
{
	if (!known)
		known = "no model";
	if (v == MODEL_UNKNOWN)
		return xasprintf("the CPU model is unknown (no proc/cpuinfo nor CPU modalias below %s, nor an Arm "
				 "MIDR); %s knows %s here", m->root, prof->name, known);
	return xasprintf("this CPU is %s%s%s%s; %s knows %s here", m->cpuid ? m->cpuid : "another model",
			 m->cpuid_from ? " (from " : "", m->cpuid_from ? m->cpuid_from : "", m->cpuid_from ? ")" : "",
			 prof->name, known);
}

/* Pattern: literal text, "{name}" captures one or more [A-Za-z0-9], "*" any text. */
static bool match_from(const char *pat, const char *s, char caps[][2][64], int *ncaps)
{
	if (!*pat)
		return !*s;
	if (*pat == '*') {
		for (const char *t = s;; t++) {
			if (match_from(pat + 1, t, caps, ncaps))
				return true;
			if (!*t)
				return false;
		}
	}
	if (*pat == '{') {
		const char *close = strchr(pat, '}');
		if (!close)
			return false;
		int slot = *ncaps;
		if (slot >= PROFILE_MAX_CAPS)
			return false;
		size_t nlen = (size_t)(close - pat - 1);
		if (nlen >= 64)
			return false;
		/* try the longest capture first, then shorter ones */
		size_t maxlen = 0;
		while (isalnum((unsigned char)s[maxlen]))
			maxlen++;
		for (size_t len = maxlen; len >= 1; len--) {
			if (len >= 64)
				continue;
			memcpy(caps[slot][0], pat + 1, nlen);
			caps[slot][0][nlen] = '\0';
			memcpy(caps[slot][1], s, len);
			caps[slot][1][len] = '\0';
			*ncaps = slot + 1;
			if (match_from(close + 1, s + len, caps, ncaps))
				return true;
			*ncaps = slot;
		}
		return false;
	}
	return *pat == *s && match_from(pat + 1, s + 1, caps, ncaps);
}

bool pmu_pattern_match(const char *pattern, const char *name, char caps[][2][64], int *ncaps)
{
	*ncaps = 0;
	return match_from(pattern, name, caps, ncaps);
}

/* Does the machine's CPU model match words ("cpuid" or "midr_el1", then models)? An Arm
 * machine's MIDR is its PMUs' midr_el1 attribute (machine/discover.c). */
static bool model_listed(const struct machine *m, char **words)
{
	if (!strcmp(words[0], "cpuid"))
		return cpuid_listed(m->cpuid, words + 1);
	for (char *const *midr = machine_midrs(m); *midr; midr++)
		for (char **w = words + 1; *w; w++)
			if (!fnmatch(*w, *midr, 0))
				return true;
	return false;
}

bool profile_model_matches(const struct profile *p, const struct machine *m)
{
	/* a profile for other CPU models (perf's catalogue: one a model) */
	return !(p->when && !model_listed(m, p->when)) && !(p->unless && model_listed(m, p->unless));
}

bool profile_matches(const struct profile *p, const struct machine *m)
{
	if (!profile_model_matches(p, m))
		return false;
	for (int i = 0; i < p->nrequires; i++)
		for (int j = 0; j < m->npmus; j++)
			if (fnmatch(p->requires[i], m->pmus[j].name, 0) == 0)
				return true;
	return false;
}

/* Does the PMU name match one of the group's patterns (space-separated alternatives)? */
bool group_pattern_match(const struct prof_group *g, const char *pmu_name, char caps[][2][64], int *ncaps)
{
	char pat[256]; /* each alternative in turn (this runs for every group and PMU) */
	for (const char *p = g->pmu_pattern; *p;) {
		size_t n = strcspn(p, " \t");
		bool ok = false;
		if (n < sizeof(pat)) {
			memcpy(pat, p, n);
			pat[n] = '\0';
			ok = n && pmu_pattern_match(pat, pmu_name, caps, ncaps);
		} else {
			char *one = xstrndup(p, n);
			ok = pmu_pattern_match(one, pmu_name, caps, ncaps);
			free(one);
		}
		if (ok)
			return true;
		p += n + strspn(p + n, " \t");
	}
	return false;
}

bool group_matches(const struct prof_group *g, const struct pmu *p, char caps[][2][64], int *ncaps,
			  enum model_verdict *model)
{
	bool ok = group_pattern_match(g, p->name, caps, ncaps);
	for (int i = 0; ok && i < g->nneeds; i++)
		ok = pmu_find_alias(p, g->needs[i]) != NULL;
	for (int i = 0; ok && i < g->nlacks; i++)
		ok = pmu_find_alias(p, g->lacks[i]) == NULL;
	*model = MODEL_NOT_FOR;
	if (ok)
		*model = group_model_verdict(g, p);
	return ok && *model == MODEL_OK;
}

bool group_binds_to(const struct prof_group *g, const struct pmu *p)
{
	char caps[8][2][64];
	int ncaps = 0;
	enum model_verdict v;
	return group_matches(g, p, caps, &ncaps, &v);
}
