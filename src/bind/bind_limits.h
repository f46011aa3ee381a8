/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_limits.h - what a session may ask of one CPU. A profile of 10 000 groups each
 * reading `instructions` per CPU (a 960 KB file) would bind 10 000 counters on every CPU,
 * gigabytes of instances, and count each event a thousandth of the time: refused while
 * binding, naming the limit, before the memory is spent. */
#ifndef PMUTOP_BIND_LIMITS_H
#define PMUTOP_BIND_LIMITS_H

struct session;
struct profile;

/* Counters opened on one CPU at most: a CPU has about ten (Intel 8 + 4 fixed, Arm 6 + 1);
 * perf's whole catalogue asks for about 220 on one Sapphire Rapids CPU, core and uncore. */
#define SESSION_MAX_COUNTERS_PER_CPU 1024

struct counter_tally {
	int ncpus;
	int *per_cpu;
};

/* Count the counters of instances [from, s->ninstances) by CPU; NULL while every CPU is
 * within the limit, else why not (malloc'd), naming the profile and the CPU. */
char *counter_tally_add(struct counter_tally *t, const struct session *s, int from, const struct profile *prof);
void counter_tally_free(struct counter_tally *t);

#endif
