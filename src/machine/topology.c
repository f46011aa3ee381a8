/* SPDX-License-Identifier: GPL-2.0-only */
/* topology.c - each CPU's core and NUMA node, below the machine's root. */
#include "machine/topology.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/pmu.h"

int *machine_cores(const struct machine *m)
{
	int *core = xmalloc(sizeof(int) * (size_t)(m->max_cpu ? m->max_cpu : 1));
	for (int c = 0; c < m->max_cpu; c++)
		core[c] = -1;
	char *cpudir = path_join(m->root, "sys/devices/system/cpu");
	for (int c = 0; c < m->max_cpu; c++) {
		if (core[c] >= 0)
			continue;
		char rel[64];
		snprintf(rel, sizeof(rel), "cpu%d/topology/core_cpus_list", c);
		char *list = sysfs_read_attr(cpudir, rel);
		if (!list) {
			snprintf(rel, sizeof(rel), "cpu%d/topology/thread_siblings_list", c);
			list = sysfs_read_attr(cpudir, rel);
		}
		struct cpulist sib = { 0 };
		if (list && cpulist_parse(list, &sib) && cpulist_contains(&sib, c)) {
			for (int i = 0; i < sib.n; i++) /* the lowest names the core, for all of it */
				if (sib.cpu[i] < m->max_cpu && core[sib.cpu[i]] < 0)
					core[sib.cpu[i]] = sib.cpu[0];
		}
		if (core[c] < 0)
			core[c] = c; /* nothing says: a core of its own */
		cpulist_free(&sib);
		free(list);
	}
	free(cpudir);
	return core;
}

int *machine_nodes(const struct machine *m)
{
	int *node = xmalloc(sizeof(int) * (size_t)(m->max_cpu ? m->max_cpu : 1));
	for (int c = 0; c < m->max_cpu; c++)
		node[c] = -1;
	char *dir = path_join(m->root, "sys/devices/system/node");
	DIR *d = opendir(dir);
	for (struct dirent *de; d && (de = readdir(d));) {
		char *end;
		long n = strncmp(de->d_name, "node", 4) ? -1 : strtol(de->d_name + 4, &end, 10);
		if (n < 0 || n > 65535 || *end)
			continue;
		char rel[64];
		snprintf(rel, sizeof(rel), "node%ld/cpulist", n);
		char *list = sysfs_read_attr(dir, rel);
		struct cpulist l = { 0 };
		if (list && cpulist_parse(list, &l))
			for (int i = 0; i < l.n; i++)
				if (l.cpu[i] < m->max_cpu)
					node[l.cpu[i]] = (int)n;
		cpulist_free(&l);
		free(list);
	}
	if (d)
		closedir(d);
	free(dir);
	for (int c = 0; c < m->max_cpu; c++)
		if (node[c] < 0)
			node[c] = machine_socket_of(m, c);
	return node;
}
