/* SPDX-License-Identifier: GPL-2.0-only */
/* intern.c - strings frames point to (filter strings, reasons), kept as long as the
 * session lives, so a frame never points at a string a filter change has freed. Its own
 * file so that the sampler and the filter code use it without calling back into
 * session.c. */
#include <string.h>

#include "base/util.h"
#include "engine/session.h"

const char *session_intern(struct session *s, const char *str)
{
	if (!str)
		return NULL;
	/* filter strings repeat (a user toggles back and forth): reuse the recent ones */
	for (int i = s->nstrings - 1; i >= 0 && i >= s->nstrings - 16; i--)
		if (!strcmp(s->strings[i], str))
			return s->strings[i];
	grow_array(&s->strings, &s->capstrings, s->nstrings + 1, sizeof(char *));
	s->strings[s->nstrings] = xstrdup(str);
	return s->strings[s->nstrings++];
}
