/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_match.h - which PMUs and CPU models a profile and its groups are for (pmu =
 * patterns, needs/lacks, when = cpuid ..., midr_el1 ...). */
#ifndef PMUTOP_PROFILE_MATCH_H
#define PMUTOP_PROFILE_MATCH_H

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

/* A capture's room: at most this many {captures} in one pattern. */
#define PROFILE_MAX_CAPS 8

/* Does the profile's 'requires' match a PMU of the machine (and when/unless its CPU)? */
bool profile_matches(const struct profile *p, const struct machine *m);
/* Is the profile for m's CPU model ([profile] when/unless), whatever its PMUs? */
bool profile_model_matches(const struct profile *p, const struct machine *m);
/* Match a PMU name against a group pattern with {captures} and * globs. */
bool pmu_pattern_match(const char *pattern, const char *name, char caps[][2][64], int *ncaps);
/* ... against one of the group's patterns (pmu =: space-separated alternatives). */
bool group_pattern_match(const struct prof_group *g, const char *pmu_name, char caps[][2][64], int *ncaps);
/* Would g bind to PMU p: its pattern, the events it needs and lacks, its CPU model? */
bool group_binds_to(const struct prof_group *g, const struct pmu *p);
/* Would g bind to PMU p (pattern, needs/lacks)? *model says whether it is for this
 * CPU model; true only when that is MODEL_OK. */
bool group_matches(const struct prof_group *g, const struct pmu *p, char caps[][2][64], int *ncaps,
		   enum model_verdict *model);

#endif
