/* name_index.h - a list's names sorted once, found by halving: checking perf's catalogue
 * resolves thousands of names against hundreds of events and metrics. */
#ifndef PMUTOP_NAME_INDEX_H
#define PMUTOP_NAME_INDEX_H

struct name_index {
	int n;
	int (*cmp)(const char *, const char *); /* strcmp, or strcasecmp as perf matches metrics */
	const char **names; /* borrowed from the list: it must outlive the index */
	int *pos;           /* each name's place in the list */
};

/* Indexes names[0..n) taken as name_at(list, i), compared by cmp (strcmp, strcasecmp). */
void name_index_build(struct name_index *ix, const void *list, int n, const char *(*name_at)(const void *list, int i),
		      int (*cmp)(const char *, const char *));

/* The first place (in the list's order) of name, or -1. */
int name_index_find(const struct name_index *ix, const char *name);

void name_index_free(struct name_index *ix);

#endif
