/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_sections.c - which [group|metric|pane NAME] sections a profile has defined, in a
 * hash: a file of 100 000 sections checked each new one against all before it (23 s). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "profile/profile_load.h"

/* A section's kind (its first letter: g, m, p) and name, with the line it began on. */
struct seen_section {
	char kind;
	const char *name; /* the profile's own copy */
	int line;
};

static size_t seen_slot(const struct seen_section *t, size_t cap, char kind, const char *name)
{
	size_t i = (size_t)(str_hash(name) ^ (uint64_t)kind) & (cap - 1);
	while (t[i].name && (t[i].kind != kind || strcmp(t[i].name, name)))
		i = (i + 1) & (cap - 1);
	return i;
}

/* The line a [KIND NAME] section began on before, or 0 (room is made here for the
 * note_section that follows a new one). */
int profile_section_seen(struct loader *L, char kind, const char *name)
{
	if (2 * (L->nseen + 1) > L->seen_cap) { /* half full: double, and place them again */
		size_t cap = L->seen_cap ? 2 * L->seen_cap : 64;
		struct seen_section *t = xcalloc(cap, sizeof(*t));
		for (size_t k = 0; k < L->seen_cap; k++)
			if (L->seen[k].name)
				t[seen_slot(t, cap, L->seen[k].kind, L->seen[k].name)] = L->seen[k];
		free(L->seen);
		L->seen = t;
		L->seen_cap = cap;
	}
	const struct seen_section *e = &L->seen[seen_slot(L->seen, L->seen_cap, kind, name)];
	return e->name ? e->line : 0;
}

/* Notes the section just made (its name is the profile's copy, kept as long as the loader). */
void profile_section_note(struct loader *L, char kind, const char *name)
{
	struct seen_section *e = &L->seen[seen_slot(L->seen, L->seen_cap, kind, name)];
	*e = (struct seen_section){ kind, name, L->in.line };
	L->nseen++;
}

