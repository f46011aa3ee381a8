/* regex_memo.c - perf's catalogue repeats its mapfile expressions in every file's head
 * and in every group's when/unless (the lines above a CPU's, of its vendor and family):
 * Sapphire Rapids' start-up compiled the same few dozen expressions thousands of times,
 * a fifth of its instructions. Each distinct pattern is compiled once here, in an
 * open-addressed table that doubles when half full, freed at exit. */
#include "base/regex_memo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct memo_entry {
	char *pattern; /* NULL: an empty slot */
	regex_t *re;   /* NULL: it does not compile (heap: a regex_t is not promised to move) */
};

static struct memo_entry *table;
static size_t capacity, used;

static struct memo_entry *slot_of(struct memo_entry *t, size_t cap, const char *pattern)
{
	size_t i = (size_t)str_hash(pattern) & (cap - 1);
	while (t[i].pattern && strcmp(t[i].pattern, pattern))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static void memo_free(void)
{
	for (size_t i = 0; i < capacity; i++)
		if (table[i].pattern) {
			if (table[i].re)
				regfree(table[i].re);
			free(table[i].re);
			free(table[i].pattern);
		}
	free(table);
	table = NULL;
	capacity = used = 0;
}

static void grow(void)
{
	size_t cap = capacity ? capacity * 2 : 64;
	struct memo_entry *t = xcalloc(cap, sizeof(*t));
	for (size_t i = 0; i < capacity; i++)
		if (table[i].pattern)
			*slot_of(t, cap, table[i].pattern) = table[i];
	if (!table)
		atexit(memo_free);
	free(table);
	table = t;
	capacity = cap;
}

const regex_t *regex_memo(const char *pattern)
{
	if (2 * (used + 1) > capacity)
		grow();
	struct memo_entry *e = slot_of(table, capacity, pattern);
	if (!e->pattern) {
		e->pattern = xstrdup(pattern);
		e->re = xcalloc(1, sizeof(*e->re));
		if (regcomp(e->re, pattern, REG_EXTENDED) != 0) {
			free(e->re);
			e->re = NULL;
		}
		used++;
	}
	return e->re;
}
