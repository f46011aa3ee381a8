/* SPDX-License-Identifier: GPL-2.0-only */
/* cpuid.h - an x86 machine's CPU model as perf's mapfile.csv names it. */
#ifndef PMUTOP_CPUID_H
#define PMUTOP_CPUID_H

/* "GenuineIntel-6-55-4" (vendor, decimal family, hex model, hex stepping: perf's
 * get_cpuid_str), from ROOT/proc/cpuinfo; else "GenuineIntel-6-55" from ROOT's CPU
 * modalias (it has no stepping); else, on the live root ("/") of an x86 machine, from
 * the CPUID instruction. NULL when none says (an Arm machine: its MIDR says instead).
 * *from names where it was read. */
char *cpuid_read(const char *root, const char **from);

/* Does perf's mapfile-style pattern (here a glob) name this CPU? As perf's
 * strcmp_cpuid_str: the whole string, or the string without its stepping
 * ("GenuineIntel-6-8F" names "GenuineIntel-6-8F-8"). */
int cpuid_glob_matches(const char *glob, const char *cpuid);

/* Does a regular expression of perf's mapfile.csv ("GenuineIntel-6-55-[56789ABCDEF]")
 * name this CPU? As perf's x86 strcmp_cpuid_str: POSIX extended, matching the whole
 * cpuid (or, for a pattern without a stepping, the cpuid without its stepping); a
 * pattern with a stepping names no cpuid without one. */
int cpuid_regex_matches(const char *regex, const char *cpuid);

/* Does one of MODELS (NULL-terminated: globs, or ~regexes as mapfile.csv writes them)
 * name this CPU? False where the model is unknown (cpuid NULL). */
int cpuid_listed(const char *cpuid, char *const *models);

#endif
