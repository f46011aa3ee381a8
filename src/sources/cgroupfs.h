/* SPDX-License-Identifier: GPL-2.0-only */
/* cgroupfs.h - the cgroups perf counts by (perf stat -G): the hierarchy the kernel's
 * perf_event controller is on, found as perf finds it (a cgroup v1 mount that names
 * perf_event among its options, else the cgroup2 mount, from proc/self/mounts below the
 * root), its cgroups by their path in that hierarchy, and what each holds. A cgroup's
 * counters count it and its descendants (the kernel's rule), so its figures here do too. */
#ifndef PMUTOP_CGROUPFS_H
#define PMUTOP_CGROUPFS_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/proctasks.h"

/* what one listing reads at most: a server's systemd tree is a few hundred */
#define CGROUP_MAX_NODES 1024
#define CGROUP_MAX_DEPTH 16

struct cgroupfs {
	char *mount; /* below the root: where its files are read */
	char *shown; /* the mount as the host names it ("/sys/fs/cgroup"), for messages */
	bool v2;
};

/* 0 with fs filled, or -1 with *why ("no cgroup hierarchy with perf_event is mounted") */
int cgroupfs_find(const char *root, struct cgroupfs *fs, char **why);
void cgroupfs_done(struct cgroupfs *fs);

/* The cgroup a user named as perf -G names it (its path in the hierarchy: "x",
 * "system.slice/foo.service", with or without a leading "/" or the mount before it):
 * its path relative to the mount ("" for the root), or NULL with *why. */
char *cgroupfs_resolve(const struct cgroupfs *fs, const char *name, char **why);

struct cgroup_node {
	char *rel;       /* "" the root */
	int parent;      /* its index in the listing, -1 for the first */
	int nprocs;      /* processes in it and its descendants */
	uint64_t cpu_ns; /* CPU time they used, as the kernel keeps it where it does
			  * (cgroup v2's cpu.stat), else the sum of its processes' now */
};

/* rel and its descendants, parents before children (at most CGROUP_MAX_NODES, as deep
 * as CGROUP_MAX_DEPTH), each with its processes and their CPU time (procs: every process
 * now, sorted by pid); the count, *out malloc'd (free with cgroupfs_nodes_free). */
int cgroupfs_tree(const struct cgroupfs *fs, const char *rel, const struct task_sample *procs, int nprocs,
		  struct cgroup_node **out);
void cgroupfs_nodes_free(struct cgroup_node *nodes, int n);

#endif
