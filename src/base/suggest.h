/* SPDX-License-Identifier: GPL-2.0-only */
/* suggest.h - "did you mean": of the names offered, the nearest to a word a user typed,
 * where it is near enough to be a typo (as git suggests a command): an edit or two,
 * letters swapped, case ignored. */
#ifndef PMUTOP_SUGGEST_H
#define PMUTOP_SUGGEST_H

struct suggest {
	const char *word;
	char *best; /* a copy of the nearest offered so far */
	int dist;
};

void suggest_init(struct suggest *s, const char *word);
void suggest_offer(struct suggest *s, const char *name);
/* The nearest name, or NULL where none is near enough (valid until suggest_free). */
const char *suggest_best(const struct suggest *s);
void suggest_free(struct suggest *s);
/* "; did you mean 'NAME'?" for the nearest, or "" (static: one at a time). */
const char *suggest_text(const struct suggest *s);

#endif
