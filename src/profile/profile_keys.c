/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_keys.c - how the profile loader reads a key's value, whatever the section: word
 * lists, strings, the value's column for errors, perf's mapfile patterns. */
#include "profile/profile_load.h"

#include <stdlib.h>
#include <string.h>

#include "base/regex_memo.h"
#include "base/util.h"

void prof_append_words(char ***list, int *n, const char *value)
{
	int m;
	char **w = str_split(value, &m);
	*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + m + 1));
	for (int i = 0; i < m; i++)
		(*list)[(*n)++] = w[i];
	(*list)[*n] = NULL;
	free(w);
}

void prof_set_string(char **dst, const char *value)
{
	free(*dst);
	*dst = xstrdup(value);
}

/* Column (1-based) where value starts in the raw line. */
int prof_value_column(const struct loader *L)
{
	return ini_value_column(&L->in);
}

/* perf's mapfile expressions (when = cpuid ~REGEX) must compile: a group whose expression
 * does not would never bind, and say nothing. */
void prof_check_model_regexes(struct loader *L, const char *name, const char *value, char **values)
{
	for (char **v = values; *v; v++)
		if ((*v)[0] == '~' && regex_refusal(*v + 1))
			lerror(L, L->in.line, prof_value_column(L) + (int)(strstr(value, *v) - value),
			       "%s: '%s' is refused: %s", name, *v + 1, regex_refusal(*v + 1));
		else if ((*v)[0] == '~' && !regex_memo(*v + 1))
			lerror(L, L->in.line, prof_value_column(L) + (int)(strstr(value, *v) - value),
			       "%s: '%s' is not a POSIX extended regular expression", name, *v + 1);
}
