/* SPDX-License-Identifier: GPL-2.0-only */
/* str_ids.h - strings given small stable numbers (0, 1, 2 ... in the order first seen),
 * each kept until the set is freed: a row that names a cgroup by a number and points at
 * its path stays true however often the cgroups are listed again. */
#ifndef PMUTOP_STR_IDS_H
#define PMUTOP_STR_IDS_H

struct str_ids {
	char **names;
	char **shown; /* how each is shown where it has been said, else NULL */
	int n, cap;
	int *slots; /* open addressing: id + 1, 0 empty */
	int nslots;
};

/* s's number, given it now where it has none */
int str_ids_get(struct str_ids *ids, const char *s);
/* The number's string, or NULL where it has none */
const char *str_ids_name(const struct str_ids *ids, int id);
/* How the number's string is shown (a path with its control bytes escaped, a leading
 * "/"): set once, kept as long as the set; NULL until set */
void str_ids_set_shown(struct str_ids *ids, int id, const char *shown);
const char *str_ids_shown(const struct str_ids *ids, int id);
void str_ids_free(struct str_ids *ids);

#endif
