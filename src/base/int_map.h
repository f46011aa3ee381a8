/* SPDX-License-Identifier: GPL-2.0-only */
/* int_map.h - a map from 64-bit keys to ints (open addressing): where a table of every
 * pair would be quadratic (a profile's metrics times the session's instances) and only
 * a few pairs are set. */
#ifndef PMUTOP_INT_MAP_H
#define PMUTOP_INT_MAP_H

#include <stdint.h>

struct int_map {
	int n, cap; /* cap a power of two, or 0 */
	uint64_t *keys;
	int *vals;
	unsigned char *used;
};

void int_map_put(struct int_map *m, uint64_t key, int val);
/* The value of key, or missing where none was put. */
int int_map_get(const struct int_map *m, uint64_t key, int missing);
void int_map_free(struct int_map *m);

#endif
