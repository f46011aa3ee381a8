/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_model.c - whether a group is for this CPU model.
 *
 * Uncore PMUs keep their names across generations while their events change meaning
 * (Skylake-SP's IMC event 0x05 counts refreshes, Sapphire Rapids' counts CAS), so a group
 * written with one generation's encodings says which models it is for, as perf's
 * mapfile.csv chooses a CPU's JSON: 'when = cpuid GLOB...' (x86, perf's cpuid string,
 * machine/cpuid.h) or 'when = midr_el1 GLOB...' (Arm). A group for other models does
 * not bind; where nothing says which model this is, a model-specific group does not
 * bind either, and the reason is said rather than guessed. */
#include "engine/bind_model.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/profile.h"
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
