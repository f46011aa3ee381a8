/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_model.h - whether a group is for this CPU model (when = cpuid ..., midr_el1 ...). */
#ifndef PMUTOP_BIND_MODEL_H
#define PMUTOP_BIND_MODEL_H

#include <stdbool.h>

struct pmu;
struct prof_group;
struct profile;
struct machine;

enum model_verdict {
	MODEL_OK,      /* the group's when/unless hold for the PMU */
	MODEL_OTHER,   /* they name CPU models, and this is another one */
	MODEL_UNKNOWN, /* they name CPU models, and nothing says which this is */
	MODEL_NOT_FOR, /* another attribute (caps/pmu_name) rules it out: a sibling's PMU */
};

enum model_verdict group_model_verdict(const struct prof_group *g, const struct pmu *p);

/* Adds the CPU models g is for to *known ("GenuineIntel-6-8F, GenuineIntel-6-CF"), once
 * each; *known is NULL or allocated. */
void model_globs_add(char **known, const struct prof_group *g);

/* Why model-specific groups bind nothing here, for a person: "this CPU is
 * GenuineIntel-6-55-4 (from proc/cpuinfo); xeon knows GenuineIntel-6-8F, ..." or "the
 * CPU model is unknown (...)"; known is model_globs_add's. */
char *model_reason(const struct machine *m, const struct profile *prof, const char *known, enum model_verdict v);

#endif
