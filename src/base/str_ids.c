/* SPDX-License-Identifier: GPL-2.0-only */
/* str_ids.c - strings given small stable numbers, found by hash. */
#include "base/str_ids.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int *slot_of(const struct str_ids *ids, const char *s)
{
	unsigned mask = (unsigned)ids->nslots - 1, i = (unsigned)str_hash(s) & mask;
	while (ids->slots[i] && strcmp(ids->names[ids->slots[i] - 1], s))
		i = (i + 1) & mask;
	return &ids->slots[i];
}

/* kept at most half full: a probe ends at an empty slot soon */
static void rehash(struct str_ids *ids)
{
	free(ids->slots);
	ids->nslots = ids->nslots ? ids->nslots * 2 : 64;
	ids->slots = xcalloc((size_t)ids->nslots, sizeof(*ids->slots));
	for (int id = 0; id < ids->n; id++)
		*slot_of(ids, ids->names[id]) = id + 1;
}

int str_ids_get(struct str_ids *ids, const char *s)
{
	if (2 * (ids->n + 1) > ids->nslots)
		rehash(ids);
	int *slot = slot_of(ids, s);
	if (!*slot) {
		int cap = ids->cap;
		grow_array(&ids->names, &ids->cap, ids->n + 1, sizeof(*ids->names));
		ids->shown = xrealloc(ids->shown, sizeof(*ids->shown) * (size_t)ids->cap);
		for (int i = cap; i < ids->cap; i++)
			ids->shown[i] = NULL;
		ids->names[ids->n++] = xstrdup(s);
		*slot = ids->n;
	}
	return *slot - 1;
}

const char *str_ids_name(const struct str_ids *ids, int id)
{
	return id >= 0 && id < ids->n ? ids->names[id] : NULL;
}

void str_ids_set_shown(struct str_ids *ids, int id, const char *shown)
{
	if (id >= 0 && id < ids->n && !ids->shown[id])
		ids->shown[id] = xstrdup(shown);
}

const char *str_ids_shown(const struct str_ids *ids, int id)
{
	return id >= 0 && id < ids->n ? ids->shown[id] : NULL;
}

void str_ids_free(struct str_ids *ids)
{
	for (int i = 0; i < ids->n; i++) {
		free(ids->names[i]);
		free(ids->shown[i]);
	}
	free(ids->shown);
	free(ids->names);
	free(ids->slots);
	*ids = (struct str_ids){ 0 };
}
