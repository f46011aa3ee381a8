/* SPDX-License-Identifier: GPL-2.0-only */
/* instance_index.h - a profile's instances by group, in the session's order. Binding a
 * profile's values visits each metric's groups' instances, not every instance of the
 * session (a thousand groups on 56 CPUs are 56 000 instances and a thousand metrics), and
 * a formula's import finds the other group's instance of its name by halving, not by
 * scanning every instance (a recording claiming 65 536 CPUs). */
#ifndef PMUTOP_INSTANCE_INDEX_H
#define PMUTOP_INSTANCE_INDEX_H

#include "base/name_index.h"

struct session;
struct profile;
struct prof_metric;
struct instance_index_names;

struct instance_index {
	const struct session *s;
	int ngroups;
	int *start; /* per group its first in idx; start[ngroups] is the end */
	int *idx;   /* instance indices by group, each group's in the session's order */
	struct instance_index_names *names; /* per group, by instance name */
	int *mark, stamp; /* per group, the walk that last took it */
};

void instance_index_init(struct instance_index *ix, const struct session *s, const struct profile *p);
/* The first instance of group g named name, or -1. */
int instance_index_find(struct instance_index *ix, int g, const char *name);
/* The instances of the groups of m's forms, in the session's order (malloc'd, *n of them). */
int *instance_index_of_metric(struct instance_index *ix, const struct prof_metric *m, int *n);
void instance_index_free(struct instance_index *ix);

#endif
