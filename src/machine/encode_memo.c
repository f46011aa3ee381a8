/* SPDX-License-Identifier: GPL-2.0-only */
/* encode_memo.c - an open-addressed table of encoded texts (see encode_memo.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/encode_memo.h"

struct memo_entry {
	char *text; /* NULL: an empty slot */
	struct encoded_event enc;
};

struct encode_memo {
	const struct machine *machine;
	size_t cap, n; /* cap a power of two, n below half of it */
	struct memo_entry *slots;
};

static struct memo_entry *slot_for(struct memo_entry *slots, size_t cap, const char *text)
{
	size_t i = (size_t)str_hash(text) & (cap - 1);
	while (slots[i].text && strcmp(slots[i].text, text))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct encode_memo *memo)
{
	size_t cap = memo->cap ? 2 * memo->cap : 64;
	struct memo_entry *slots = xcalloc(cap, sizeof(*slots));
	for (size_t i = 0; i < memo->cap; i++)
		if (memo->slots[i].text)
			*slot_for(slots, cap, memo->slots[i].text) = memo->slots[i];
	free(memo->slots);
	memo->slots = slots;
	memo->cap = cap;
}

struct encode_memo *encode_memo_new(const struct machine *m)
{
	struct encode_memo *memo = xcalloc(1, sizeof(*memo));
	memo->machine = m;
	return memo;
}

void encode_memo_free(struct encode_memo *memo)
{
	if (!memo)
		return;
	for (size_t i = 0; i < memo->cap; i++)
		free(memo->slots[i].text);
	free(memo->slots);
	free(memo);
}

int encode_event_memo(struct encode_memo *memo, const char *text, struct encoded_event *out, char **err)
{
	if (memo->cap) {
		const struct memo_entry *e = slot_for(memo->slots, memo->cap, text);
		if (e->text) {
			*out = e->enc;
			return 0;
		}
	}
	if (encode_event(memo->machine, text, out, err) < 0)
		return -1;
	if (2 * (memo->n + 1) > memo->cap)
		grow(memo);
	struct memo_entry *e = slot_for(memo->slots, memo->cap, text);
	e->text = xstrdup(text);
	e->enc = *out;
	memo->n++;
	return 0;
}
