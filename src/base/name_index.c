/* name_index.c - sorted (name, place) pairs; equal names stay in the list's order, so a
 * find answers what a scan from the start would. */
#include "base/name_index.h"

#include <stdlib.h>

#include "base/util.h"

struct entry {
	const char *name;
	int pos;
};

static int by_name(const void *pa, const void *pb, void *cmp)
{
	const struct entry *a = pa, *b = pb;
	int c = ((int (*)(const char *, const char *))cmp)(a->name, b->name);
	return c ? c : a->pos - b->pos;
}

void name_index_build(struct name_index *ix, const void *list, int n, const char *(*name_at)(const void *list, int i),
		      int (*cmp)(const char *, const char *))
{
	struct entry *e = xcalloc((size_t)n + 1, sizeof(*e));
	for (int i = 0; i < n; i++)
		e[i] = (struct entry){ name_at(list, i), i };
	qsort_r(e, (size_t)n, sizeof(*e), by_name, (void *)cmp);
	ix->n = n;
	ix->cmp = cmp;
	ix->names = xcalloc((size_t)n + 1, sizeof(*ix->names));
	ix->pos = xcalloc((size_t)n + 1, sizeof(*ix->pos));
	for (int i = 0; i < n; i++) {
		ix->names[i] = e[i].name;
		ix->pos[i] = e[i].pos;
	}
	free(e);
}

int name_index_find(const struct name_index *ix, const char *name)
{
	int lo = 0, hi = ix->n; /* the first not below name */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (ix->cmp(ix->names[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && !ix->cmp(ix->names[lo], name) ? ix->pos[lo] : -1;
}

void name_index_free(struct name_index *ix)
{
	free(ix->names);
	free(ix->pos);
	*ix = (struct name_index){ 0 };
}
