/* SPDX-License-Identifier: GPL-2.0-only */
/* int_map.c - linear probing over a table kept at most half full. */
#include "base/int_map.h"

#include <stdlib.h>

#include "base/util.h"

static size_t slot_of(uint64_t key, int cap)
{
	key ^= key >> 33; /* a 64-bit mix (murmur3's finaliser): keys are (row << 32 | column) */
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)(key & (uint64_t)(cap - 1));
}

static void grow(struct int_map *m)
{
	struct int_map bigger = { 0, m->cap ? m->cap * 2 : 64, NULL, NULL, NULL };
	bigger.keys = xmalloc(sizeof(uint64_t) * (size_t)bigger.cap);
	bigger.vals = xmalloc(sizeof(int) * (size_t)bigger.cap);
	bigger.used = xcalloc((size_t)bigger.cap, 1);
	for (int i = 0; i < m->cap; i++)
		if (m->used[i])
			int_map_put(&bigger, m->keys[i], m->vals[i]);
	int_map_free(m);
	*m = bigger;
}

void int_map_put(struct int_map *m, uint64_t key, int val)
{
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	size_t i = slot_of(key, m->cap);
	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (size_t)(m->cap - 1);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->n++;
	}
	m->vals[i] = val;
}

int int_map_get(const struct int_map *m, uint64_t key, int missing)
{
	if (!m->cap)
		return missing;
	for (size_t i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (size_t)(m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return missing;
}

void int_map_free(struct int_map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	*m = (struct int_map){ 0 };
}
