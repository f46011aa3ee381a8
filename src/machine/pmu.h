/* SPDX-License-Identifier: GPL-2.0-only */
/* pmu.h - what discovery found under one sysfs root: PMUs, CPUs, sockets, hwmon blocks. */
#ifndef PMUTOP_PMU_H
#define PMUTOP_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpulist.h"
#include "machine/format.h"

struct pmu_alias {
	char *name;
	char *terms;   /* "event=0x1,umask=2", as the driver printed it, chomped */
	double scale;  /* from NAME.scale, 1 if absent */
	char *unit;    /* from NAME.unit, or NULL */
};

struct alias_ref {
	const char *name;
	int pos; /* in pmu.aliases */
};

struct pmu_attr {
	char *name;  /* relative to the PMU directory: "identifier", "caps/slots", "filtermode/x" */
	char *value; /* chomped */
};

/* A BlueField bfperf hwmon block presented as a PMU (machine/bfperf.c). */
enum hw_block_type { HW_COUNTER, HW_CRSPACE, HW_REGISTER };
struct hw_block {
	enum hw_block_type type;
	char *block;       /* the directory name: "tile0", "l3cachehalf1", "pcie0" */
	char *device;      /* the bfperf device directory, resolved (no symlinks) */
	int ncounters;     /* counter<N> files: events counted at once */
	int width;         /* 64, or 32 for CRSPACE counters */
	bool has_enable;   /* counters start and stop together through 'enable' */
	bool gauge;        /* registers that hold a level, not a count (clock_measure) */
	bool truncated;    /* event_list was cut (the kernel stops at one page) */
	uint64_t max_listed; /* the largest event number event_list shows */
};

/* A hwmon sensor input presented as a PMU (machine/sensorchips.c). */
struct sensor_feature {
	int kind;          /* enum sensor_kind (hwsensors.h) */
	char *file;        /* the *_input file under a tree that is not the live /sys, or NULL */
	const void *handle; /* libsensors' chip, for the live machine */
	int subfeature;
};

struct pmu {
	char *name;
	char *dir; /* absolute path of its sysfs directory */
	int type;  /* -1 if the type file is missing or bad */
	struct cpulist cpus;       /* cpumask, or the online CPUs for a PMU without one */
	bool has_cpumask;
	int cpumask_error; /* a cpumask is there but cannot be read (mode 000: EACCES, a
			    * directory: EISDIR, a device: EINVAL): the PMU is unavailable,
			    * never counted on all CPUs; 0 where it is read or absent */
	struct cpulist associated; /* associated_cpus, or a copy of cpus */
	int nformats;
	struct format_field *formats;
	int naliases;
	struct pmu_alias *aliases;
	int nindexed;
	struct alias_ref *alias_index; /* the aliases by name, case aside (pmu_index_aliases), or NULL */
	int nattrs;
	struct pmu_attr *attrs;
	struct hw_block *hw; /* a bfperf block (not a perf PMU: no type, read through files) */
	struct sensor_feature *sensor; /* a hwmon sensor input (not a perf PMU either) */
	bool timer; /* Arm's generic timer (machine/archtimer.c): read by an instruction */
};

/* Not a perf PMU but one pmutop reads itself (bfperf files, a sensor, arm64's timer):
 * no perf type, no modifiers. */
static inline bool pmu_is_pseudo(const struct pmu *p)
{
	return p->hw || p->sensor || p->timer;
}

/* Can its counters follow a task (core, software, msr)? perf's rule: a PMU with a cpumask
 * is an uncore box, counting for the whole machine whatever task runs. */
static inline bool pmu_counts_tasks(const struct pmu *p)
{
	return p->type >= 0 && !p->has_cpumask && !pmu_is_pseudo(p);
}

struct hwmon_dev {
	char *name; /* contents of name, e.g. "bfperf" */
	char *dir;  /* absolute path */
};

struct pci_map;

struct machine {
	char *root;
	int npmus;
	struct pmu *pmus; /* sorted by name */
	struct cpulist online;
	int max_cpu;          /* largest CPU number seen + 1 */
	int *socket_of_cpu;   /* indexed by CPU number, -1 where unknown */
	int nhwmon;
	struct hwmon_dev *hwmon;
	struct pci_map *pci; /* PCIe root complexes from the NVIDIA DVSEC (pcimap.h), or NULL */
	bool libsensors;     /* sensors were found through libsensors (started until machine_free) */
	char *cpuid;         /* x86: "GenuineIntel-6-8F-8" (machine/cpuid.h), or NULL */
	int nmi_watchdog;    /* proc/sys/kernel/nmi_watchdog: 1 on, 0 off, -1 unknown */
	const char *cpuid_from; /* where it was read, or NULL */
	double *facts;          /* machine_facts_read's answer once asked (facts.c), or NULL */
	char **midrs;           /* machine_midrs' answer once asked, or NULL */
};

/* (machine_discover() in machine/discover.h fills a machine.) */
void machine_free(struct machine *m);
/* Used by discovery helpers that add PMUs (bfperf.c). */
void pmu_free(struct pmu *p);

const struct pmu *machine_find_pmu(const struct machine *m, const char *name);
const struct format_field *pmu_find_format(const struct pmu *p, const char *name);
/* Aliases match case-insensitively, as in perf. */
const struct pmu_alias *pmu_find_alias(const struct pmu *p, const char *name);
/* An index of p's aliases by name for pmu_find_alias, made once its aliases are all read
 * (binding asks for each event of each CPU's groups: a 144-CPU demo asked 10 000 times,
 * 16 % of its start-up when each was a scan). */
void pmu_index_aliases(struct pmu *p);
const char *pmu_attr(const struct pmu *p, const char *name);
/* A PMU pmutop makes itself (a sensor, arm64's timer): its one event, NAME, and the event
 * field its encoding sets (event=0x0), as a perf PMU's alias and format would be. */
void pmu_set_only_event(struct pmu *p, const char *name, double scale, const char *unit);
/* The alias that is exactly "event=N" for this N (an event list's name), or NULL. */
const char *pmu_event_name(const struct pmu *p, uint64_t n);
/* The event number of an alias that is exactly "event=N", or -1. */
int64_t pmu_alias_event_number(const char *terms);
int machine_socket_of(const struct machine *m, int cpu);
/* The distinct midr_el1 attributes of m's PMUs (an Arm machine's CPU models; none on
 * x86), NULL-terminated, kept with the machine: every catalogue file's model is matched
 * against them. */
char *const *machine_midrs(const struct machine *m);

#endif
