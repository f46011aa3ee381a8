/* SPDX-License-Identifier: GPL-2.0-only */
/* diag.c - warnings and errors: printed to stderr, and kept for the UI's error view. */
#include "base/diag.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

#define DIAG_KEEP 256 /* a broken tree can warn thousands of times; keep the first ones */

struct diag_entry {
	enum diag_level level;
	char *text;
	int repeats; /* later messages of the same shape, not said again */
};

static struct diag_entry entries[DIAG_KEEP];
static int nentries;
static bool quiet;

/* Do a and b differ only in their numbers ("cpu3" and "cpu17")? */
static bool same_shape(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*b))
				b++;
			continue;
		}
		if (*a++ != *b++)
			return false;
	}
	return *a == *b;
}

static void diag_add(enum diag_level level, const char *fmt, va_list ap)
{
	char *raw = xvasprintf(fmt, ap);
	char *text = str_escape_controls(raw);
	free(raw);
	/* the same warning for every CPU (or RC) is said once, with a count */
	if (nentries && entries[nentries - 1].level == level && same_shape(entries[nentries - 1].text, text)) {
		entries[nentries - 1].repeats++;
		free(text);
		return;
	}
	if (!quiet)
		fprintf(stderr, "pmutop: %s%s\n", level == DIAG_ERROR ? "error: " : "warning: ", text);
	if (nentries < DIAG_KEEP) {
		entries[nentries].level = level;
		entries[nentries].repeats = 0;
		entries[nentries++].text = text;
	} else {
		free(text);
	}
}

void diag_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_add(DIAG_WARN, fmt, ap);
	va_end(ap);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_add(DIAG_ERROR, fmt, ap);
	va_end(ap);
}

void diag_set_quiet(bool q)
{
	quiet = q;
}

int diag_count(void)
{
	return nentries;
}

const char *diag_message(int i, enum diag_level *level)
{
	if (i < 0 || i >= nentries)
		return NULL;
	if (level)
		*level = entries[i].level;
	return entries[i].text;
}

int diag_repeats(int i)
{
	return i >= 0 && i < nentries ? entries[i].repeats : 0;
}

void diag_clear(void)
{
	for (int i = 0; i < nentries; i++)
		free(entries[i].text);
	nentries = 0;
}
