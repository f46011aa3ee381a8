/* SPDX-License-Identifier: GPL-2.0-only */
/* name_index.h - names found in a list by halving once scanning would cost more: checking
 * perf's catalogue resolves thousands of names against hundreds of events and metrics,
 * a hand profile a few names against a few. */
#ifndef PMUTOP_NAME_INDEX_H
#define PMUTOP_NAME_INDEX_H

struct name_index_entry;

struct name_index {
	const void *list; /* borrowed: it must outlive the index, its names unchanged */
	int n;
	const char *(*name_at)(const void *list, int i);
	int (*cmp)(const char *, const char *); /* strcmp, or strcasecmp as perf matches metrics */
	int finds;                              /* scans so far: a list asked often is sorted */
	struct name_index_entry *sorted;        /* (name, place) by name, then place */
};

/* Finds in names[0..n), each name_at(list, i), compared by cmp (strcmp, strcasecmp). */
void name_index_init(struct name_index *ix, const void *list, int n, const char *(*name_at)(const void *list, int i),
		     int (*cmp)(const char *, const char *));

/* The first place (in the list's order) of name, or -1. */
int name_index_find(struct name_index *ix, const char *name);

void name_index_free(struct name_index *ix);

#endif
