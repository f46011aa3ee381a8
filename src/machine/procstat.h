/* SPDX-License-Identifier: GPL-2.0-only */
/* procstat.h - CPU utilisation from /proc/stat, as htop's CPU meters compute it.
 * (A system-wide cpu-clock counts wall time on every CPU, idle or not: it is not
 * utilisation, so this comes from the kernel's own accounting instead.) */
#ifndef PMUTOP_PROCSTAT_H
#define PMUTOP_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cpu_times {
	uint64_t busy, total; /* jiffies */
};

struct procstat {
	char *path;
	int fd;                   /* kept open: each refresh is one pread() (-1 until opened) */
	bool refused;             /* not a regular file (a FIFO): said once, not read again */
	char *buf;
	size_t cap;
	int ncpus;                /* CPU numbers 0..ncpus-1: per-CPU arrays are indexed by number */
	int *cpu_id;              /* cpu_id[i] == i */
	bool *seen, *prev_seen;   /* the CPU had a row in this / the previous read (online) */
	struct cpu_times all, *cpu;
	struct cpu_times prev_all, *prev_cpu;
	bool primed;
	double util_all;          /* percent over the last interval, NAN if unknown */
	double *util_cpu;         /* NAN for a CPU without rows in both reads (offline) */
};

/* root: "/" or a fake tree holding proc/stat. */
struct procstat *procstat_new(const char *root);
/* Read /proc/stat and compute utilisation since the previous read. False if unreadable. */
bool procstat_update(struct procstat *ps);
void procstat_free(struct procstat *ps);

#endif
