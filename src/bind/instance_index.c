/* SPDX-License-Identifier: GPL-2.0-only */
/* instance_index.c - a counting sort of a profile's instances by group; a name index per
 * group, made when an import first asks it. */
#include "bind/instance_index.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "profile/profile.h"
#include "bind/state.h"

struct instance_index_names {
	const struct instance_index *ix;
	int g;
	struct name_index names;
	bool made;
};

void instance_index_init(struct instance_index *ix, const struct session *s, const struct profile *p)
{
	int ng = p->ngroups, n = 0;
	*ix = (struct instance_index){ .s = s, .ngroups = ng };
	ix->start = xcalloc((size_t)ng + 1, sizeof(int));
	for (int i = 0; i < s->ninstances; i++)
		if (s->inst[i].profile == p)
			ix->start[s->inst[i].group - p->groups + 1]++, n++;
	for (int g = 0; g < ng; g++)
		ix->start[g + 1] += ix->start[g];
	ix->idx = xmalloc(sizeof(int) * (size_t)(n ? n : 1));
	int *fill = xmalloc(sizeof(int) * (size_t)(ng ? ng : 1));
	memcpy(fill, ix->start, sizeof(int) * (size_t)ng);
	for (int i = 0; i < s->ninstances; i++)
		if (s->inst[i].profile == p)
			ix->idx[fill[s->inst[i].group - p->groups]++] = i;
	free(fill);
	ix->names = xcalloc((size_t)(ng ? ng : 1), sizeof(*ix->names));
	ix->mark = xcalloc((size_t)(ng ? ng : 1), sizeof(int));
}

static const char *instance_name_at(const void *list, int i)
{
	const struct instance_index_names *nm = list;
	const struct instance_index *ix = nm->ix;
	return ix->s->inst[ix->idx[ix->start[nm->g] + i]].name;
}

int instance_index_find(struct instance_index *ix, int g, const char *name)
{
	if (g < 0 || g >= ix->ngroups)
		return -1;
	struct instance_index_names *nm = &ix->names[g];
	if (!nm->made) {
		nm->ix = ix;
		nm->g = g;
		name_index_init(&nm->names, nm, ix->start[g + 1] - ix->start[g], instance_name_at, strcmp);
		nm->made = true;
	}
	int k = name_index_find(&nm->names, name);
	return k < 0 ? -1 : ix->idx[ix->start[g] + k];
}

static int by_index(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Group g's instances once per metric: marked with the metric's stamp (a metric of
 * thousands of forms is not compared form by form). */
static bool first_time(struct instance_index *ix, int g)
{
	if (g < 0 || g >= ix->ngroups || ix->mark[g] == ix->stamp)
		return false;
	ix->mark[g] = ix->stamp;
	return true;
}

int *instance_index_of_metric(struct instance_index *ix, const struct prof_metric *m, int *n)
{
	int total = 0, distinct = 0;
	ix->stamp++;
	for (int k = 0; k < m->nforms; k++) {
		int g = m->forms[k].group;
		if (first_time(ix, g))
			total += ix->start[g + 1] - ix->start[g], distinct++;
	}
	int *out = xmalloc(sizeof(int) * (size_t)(total ? total : 1)), len = 0;
	ix->stamp++;
	for (int k = 0; k < m->nforms; k++) {
		int g = m->forms[k].group;
		if (!first_time(ix, g))
			continue;
		memcpy(out + len, ix->idx + ix->start[g], sizeof(int) * (size_t)(ix->start[g + 1] - ix->start[g]));
		len += ix->start[g + 1] - ix->start[g];
	}
	if (distinct > 1) /* the session's order, as a walk over every instance had them */
		qsort(out, (size_t)len, sizeof(int), by_index);
	*n = len;
	return out;
}

void instance_index_free(struct instance_index *ix)
{
	for (int g = 0; g < ix->ngroups; g++)
		if (ix->names[g].made)
			name_index_free(&ix->names[g].names);
	free(ix->names);
	free(ix->mark);
	free(ix->start);
	free(ix->idx);
	*ix = (struct instance_index){ 0 };
}
