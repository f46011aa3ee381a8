/* SPDX-License-Identifier: GPL-2.0-only */
/* name_index.c - a list is scanned until it has been asked often enough for sorting to
 * pay; then sorted (name, place) pairs are halved. Equal names stay in the list's order,
 * so a find answers what a scan from the start would. */
#include "base/name_index.h"

#include <stdlib.h>

#include "base/util.h"

enum {
	SCAN_BELOW = 16, /* a list this short is always scanned */
	SCANS = 8,       /* a longer one is sorted at its ninth find */
};

struct name_index_entry {
	const char *name;
	int pos;
};

static int by_name(const void *pa, const void *pb, void *cmp)
{
	const struct name_index_entry *a = pa, *b = pb;
	int c = ((int (*)(const char *, const char *))cmp)(a->name, b->name);
	return c ? c : a->pos - b->pos;
}

void name_index_init(struct name_index *ix, const void *list, int n, const char *(*name_at)(const void *list, int i),
		     int (*cmp)(const char *, const char *))
{
	*ix = (struct name_index){ .list = list, .n = n, .name_at = name_at, .cmp = cmp };
}

static void sort(struct name_index *ix)
{
	ix->sorted = xcalloc((size_t)ix->n, sizeof(*ix->sorted));
	for (int i = 0; i < ix->n; i++)
		ix->sorted[i] = (struct name_index_entry){ ix->name_at(ix->list, i), i };
	qsort_r(ix->sorted, (size_t)ix->n, sizeof(*ix->sorted), by_name, (void *)ix->cmp);
}

int name_index_find(struct name_index *ix, const char *name)
{
	if (!ix->sorted && ix->n >= SCAN_BELOW && ++ix->finds > SCANS)
		sort(ix);
	if (!ix->sorted) {
		for (int i = 0; i < ix->n; i++)
			if (!ix->cmp(ix->name_at(ix->list, i), name))
				return i;
		return -1;
	}
	int lo = 0, hi = ix->n; /* the first not below name */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (ix->cmp(ix->sorted[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && !ix->cmp(ix->sorted[lo].name, name) ? ix->sorted[lo].pos : -1;
}

void name_index_free(struct name_index *ix)
{
	free(ix->sorted);
	*ix = (struct name_index){ 0 };
}
