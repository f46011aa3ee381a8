/* SPDX-License-Identifier: GPL-2.0-only */
/* options.h - what the command line asks of a run; pmutop record fills the same. */
#ifndef PMUTOP_OPTIONS_H
#define PMUTOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "outputs/batch.h"

struct target;

struct options {
	bool batch;
	double delay;
	bool delay_given; /* -d was given (a replay refuses it) */
	long iterations; /* -1: until interrupted */
	enum batch_format format;
	bool raw;
	enum batch_rows rows; /* -A, --per-socket: text and CSV's rows */
	const char *cpus;     /* -C: count only these CPUs (core and software events) */
	int tasks;            /* --tasks N: batch prints the top N tasks; the monitor's view shows N */
	bool per_thread;      /* --per-thread: their rows threads */
	const char *cgroup_names; /* -G a,b: these cgroups' rows (perf stat -G), and the root's */
	int cgroups;          /* --cgroups[=N]: the top N cgroups (batch, serve); the view's N */
	const char *output; /* -o FILE, or NULL for standard output */
	const char *sysfs_root;
	const char *proc_root;
	bool sim;
	const char *demo; /* machine name, or NULL */
	const char *model;
	uint64_t seed;
	bool fake_clock;
	bool dry_run;
	int nprofiles;
	const char **profiles;
	const char *metrics; /* -M: metric names and perf's metric groups, comma-separated */
	int nfilters;
	const char **filters;
	/* recordings */
	const char *record;  /* -w FILE: record while running */
	bool force;          /* replace an existing recording */
	bool record_only;    /* pmutop record: no screen, no batch output */
	uint64_t rotate_ns;
	int keep;
	const char *replay;  /* -r FILE */
	const char *begin, *end;
	char *command;       /* the command line, kept in recordings */
	/* the exporter */
	const char *listen;  /* --listen ADDR:PORT: serve /metrics beside the rest */
	const char *http_limits; /* --http-limits */
	bool serve_only;     /* pmutop serve: no screen, no batch output */
	bool per_cpu;        /* per-CPU series too */
	bool rules;          /* pmutop rules: print recording rules and exit */
	const char *window;  /* rules: the rate window (1m) */
	/* who the core events count (perf stat's targets): a command, processes, threads */
	char **workload;     /* -- CMD ARGS..., NULL-terminated (points into argv) */
	const char *pids;    /* -p 42,43 */
	const char *tids;    /* -t 42 */
	struct target *target; /* made from those by pmutop_run */
};

/* Run the monitor, batch output, a recording or a replay as o says; the exit status. */
int pmutop_run(struct options *o);
/* "90", "90s", "5m", "1h", "2d" -> nanoseconds; false if not a duration. */
bool parse_duration(const char *s, uint64_t *ns);
/* argv joined with blanks (malloc'd): kept in recordings. */
char *command_line(int argc, char **argv);
int parse_args(int argc, char **argv, struct options *o);

#endif
