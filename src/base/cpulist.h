/* SPDX-License-Identifier: GPL-2.0-only */
/* cpulist.h - sets of CPU numbers as the kernel prints them ("0-3,8-11" or a plain "5"). */
#ifndef PMUTOP_CPULIST_H
#define PMUTOP_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

struct cpulist {
	int n;
	int cap;  /* slots allocated in cpu (a zeroed list is empty and valid) */
	int *cpu; /* ascending, no duplicates */
};

/* Parse "0-3,8,10-11" (a trailing newline is allowed). False on malformed text. */
bool cpulist_parse(const char *text, struct cpulist *out);
/* Why cpulist_parse refused text, into buf: a CPU past the kernel's last, or malformed. */
void cpulist_explain(const char *text, char *buf, size_t len);
void cpulist_free(struct cpulist *l);
void cpulist_copy(struct cpulist *dst, const struct cpulist *src);
bool cpulist_contains(const struct cpulist *l, int cpu);
void cpulist_add(struct cpulist *l, int cpu);
/* Keep only the CPUs that are also in keep; returns how many were dropped. */
int cpulist_intersect(struct cpulist *l, const struct cpulist *keep);
/* Print in list form into buf ("0-3,8"). */
void cpulist_format(const struct cpulist *l, char *buf, size_t len);

#endif
