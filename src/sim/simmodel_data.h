/* SPDX-License-Identifier: GPL-2.0-only */
/* simmodel_data.h - what a parsed traffic model is made of, for the model's own files
 * (simmodel.c reads it, sim_points.c evaluates its rates, sim_select.c weighs the
 * filters' cells); nothing else in the simulator reads it. */
#ifndef PMUTOP_SIMMODEL_DATA_H
#define PMUTOP_SIMMODEL_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "base/iniread.h"

struct expr;
struct sim_point;

enum { SLOT_T, SLOT_SOCKET, SLOT_INDEX, SLOT_CPU, SLOT_UNITS, SLOT_READING, SLOT_NFIXED };
enum rate_list {
	RATES_ALL_T, RATES_ALL_ONCE,       /* a point of its own */
	RATES_CPU_T, RATES_CPU_ONCE,       /* a CPU's, beside its socket's base point */
	RATES_SHARED_T, RATES_SHARED_ONCE, /* the base point's */
	RATES_NLISTS
};

struct sim_rate {
	char *event;
	char *formula;
	struct expr *expr;
	int line, col; /* col: a [flows] rate's formula column (where a section uses it) */
};

struct sim_cell {
	char *field;
	int bit; /* -1: the field as a flag (any bit set) */
	double weight;
	/* value cells (FIELD@VALUE, FIELD/MASKFIELD@VALUE): traffic of one device (a BDF) or
	 * address; selected when the field equals the value, or matches it under the mask
	 * field as the driver compares (value & mask) == (field & mask) */
	bool by_value;
	uint64_t value;
	char *mask_field;
	/* FIELD=devices, FIELD@devices: one cell per device the PCI map puts behind the PMU's
	 * root complex (its root port's bit, or its BDF), the weight shared among them; a
	 * root complex with no device carries nothing */
	bool from_pci;
};

struct sim_dim {
	char *name;
	char *when; /* value dimensions: the enable field that turns the filter on */
	char *unless; /* "F1,F2": fields any of which, set, turns the dimension off (a mode) */
	int ncells;
	struct sim_cell *cells;
};

struct sim_section {
	char *glob;
	char *pmu_names; /* pmu_name = GLOBS: only PMUs whose caps/pmu_name matches (a
			  * generation of Intel's cores: its pipeline's width), or NULL */
	char *midrs;     /* midr = GLOBS: only PMUs whose midr_el1 matches (an Arm core) */
	char *cpuids;    /* cpuid = GLOBS: only on machines whose cpuid matches (AMD's Zen 5) */
	bool perf_names; /* events = perf: its rates may name an encoding as perf's JSON for
			  * this CPU names it (sim_perf_names.c) */
	int nrates;
	struct sim_rate *rates;
	int ndims;
	struct sim_dim *dims;
	char **unfiltered;
	int nunfiltered;
	char **scaled;  /* events whose rates are in the alias's scaled units */
	int nscaled;
	char **unsupported; /* events the simulated driver refuses (ENOENT), as the kernel
			     * refuses a generic event a PMU has no mapping for */
	int nunsupported;
	int counters;   /* a CPU's general counters for this PMU (0: as many as asked) ... */
	char **fixed;   /* ... and the events that take none (a cycle counter) */
	int nfixed;
	double running;
	double jitter;  /* this section's noise, or NAN for the model's */
	struct sim_point *last; /* sim_rate()'s: the last place asked */
	int *by_name; /* the rates' indices in strcmp order of their events: found by halving */
	int *lists[RATES_NLISTS]; /* the rates by what they vary with (sort_rates) */
	int nlist[RATES_NLISTS];
	bool lists_stale; /* rates newly needed: filled at the next evaluation, not per rate */
	struct sim_point **bases; /* the shared rates, one point per (socket, index) */
	int nbases;
	struct sim_point **places; /* every rate, one point per (socket, index, CPU): the
				    * groups of one PMU on one CPU share it (sim_point_at) */
	int nplaces;
	int nunits;
	int *units; /* per socket: the PMUs this section models there (the rate 'units') */
	bool uses[SLOT_NFIXED]; /* which of t, socket, index, cpu its rates read: the rest
				  * is left out of the cache key (TopDown's 144 CPUs share one) */
	unsigned gen; /* moves when a rate is first needed: points compare it (sim_point) */
	uint8_t *reads; /* per rate: READS_CPU | READS_T (rate_reads) */
	int *readers; /* per rate: the open counters that read it (sim_rate_index) */
	bool *needed; /* per rate: a counter reads it, or a rate that one reads: points
		       * evaluate only these (a model of perf's whole catalogue names a hundred
		       * rates a CPU, of which a demo's panes read a few) */
};

/* [flows NAME]: rates several sections share (a socket's traffic, which its memory
 * controllers, links and caches each see a part of), copied into each section that says
 * flows = NAME, where it says it, and compiled there. */
struct sim_flows {
	char *name;
	int nrates;
	struct sim_rate *rates; /* event, formula, line: not compiled here */
};

/* [task NAME]: a process of the simulated machine, as /proc and perf would see it */
struct sim_task {
	char *name;      /* its command */
	int pid;
	char *user;
	char *cgroup;    /* its cgroup's path ("system.slice/x.service"; "" the root) */
	int threads;
	double cpus;     /* CPUs it keeps busy (top's %CPU / 100) */
	double ghz;      /* its cores' clock while it runs */
	double ipc, cache_mpki, branch_mpki;
	/* TopDown level 1 of its slots: retiring, bad speculation, frontend and backend bound,
	 * shares of their sum (all 0: not modelled) */
	double topdown[4];
};

struct sim_model {
	char *path;
	char *title;
	char *metrics; /* [model] metrics =: perf's catalogue metrics the demo counts too */
	double width;  /* [model] width =: the cores' issue slots a cycle (TopDown's slots); 0 none */
	double ghz;    /* [model] ghz =: the cores' clock while busy (a task's by default); 0 none */
	uint64_t origin_ns; /* the counter source's clock origin, its rates' t = 0 (sim_model_origin) */
	bool origin_set;
	double jitter;
	int nsections;
	struct sim_section *sections;
	struct ini_reader in; /* the file being read, its line and the errors so far */
	int cur; /* current section, -1 for [model] or [flows] */
	int nflows;
	struct sim_flows *flows;
	int cur_flows; /* the [flows] being read, or -1 */
	int ntasks;
	struct sim_task *tasks;
	int cur_task;  /* the [task] being read, or -1 */
	int refs; /* the sources sharing it: one parse per session */
};

/* After loading: what each rate reads and varies with, the rates by name, the section's
 * last point (sim_points.c). */
void sim_section_ready(struct sim_section *sec);

#endif
