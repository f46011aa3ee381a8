/* SPDX-License-Identifier: GPL-2.0-only */
/* suggest.c - the optimal string alignment distance (insertions, deletions, changes and
 * two letters swapped, each one edit), case-insensitive, over short names. */
#include "base/suggest.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

enum { LONGEST = 128 }; /* names past it are not compared */

static int min3(int a, int b, int c)
{
	return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

static int distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > LONGEST || m > LONGEST)
		return INT_MAX;
	static int d[LONGEST + 1][LONGEST + 1];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[n][m];
}

void suggest_init(struct suggest *s, const char *word)
{
	*s = (struct suggest){ word, NULL, INT_MAX };
}

void suggest_offer(struct suggest *s, const char *name)
{
	if (!name || !strcasecmp(name, s->word))
		return;
	int d = distance(s->word, name);
	if (d < s->dist) {
		free(s->best);
		s->best = xstrdup(name);
		s->dist = d;
	}
}

const char *suggest_best(const struct suggest *s)
{
	/* near: one edit in a short word, two from five letters, three from twelve; never
	 * most of the word */
	size_t len = strlen(s->word);
	int most = len < 5 ? 1 : len < 12 ? 2 : 3;
	return s->best && s->dist <= most && (size_t)s->dist < len ? s->best : NULL;
}

const char *suggest_text(const struct suggest *s)
{
	static char text[200];
	const char *best = suggest_best(s);
	if (!best)
		return "";
	snprintf(text, sizeof(text), "; did you mean '%s'?", best);
	return text;
}

void suggest_free(struct suggest *s)
{
	free(s->best);
	s->best = NULL;
}
