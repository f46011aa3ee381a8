/* SPDX-License-Identifier: GPL-2.0-only */
/* catalog_subset.c - the part of a catalogue file a few metrics need: its header and
 * groups, the metrics asked and every metric their expressions name, on the file's own
 * lines (the rest left blank). A hand pane that
 * shows four of perf's metrics (TopDown on a Neoverse) then parses four sections of
 * forty-five, not the whole file: start-up is what a user waits for. */
#include "profile/catalog_subset.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/name_index.h"
#include "base/textbuf.h"
#include "base/util.h"

struct metric_span {
	char *name;      /* the section's name */
	char *perf_name; /* its perf_name = (perf's name where the profile's differs), or NULL */
	const char *begin, *end;
	bool kept;
};

struct spans {
	struct metric_span *v;
	int n, cap;
	struct name_index by_name, by_perf_name;
};

static const char *span_name(const void *list, int i)
{
	return ((const struct metric_span *)list)[i].name;
}

static const char *span_perf_name(const void *list, int i)
{
	const char *p = ((const struct metric_span *)list)[i].perf_name;
	return p ? p : "";
}

/* The value of key on the line at line (up to end), or NULL: "perf_name = X". */
static char *line_value(const char *line, const char *end, const char *key)
{
	size_t k = strlen(key);
	if ((size_t)(end - line) <= k || strncmp(line, key, k))
		return NULL;
	const char *v = line + k;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	if (v == end || *v != '=')
		return NULL;
	for (v++; v < end && (*v == ' ' || *v == '\t');)
		v++;
	const char *e = end;
	while (e > v && isspace((unsigned char)e[-1]))
		e--;
	return xstrndup(v, (size_t)(e - v));
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl + 1 : end;
}

/* Each [metric NAME] section of text: where it begins and ends (the next section). */
static void find_spans(const char *text, struct spans *s)
{
	const char *end = text + strlen(text);
	struct metric_span *cur = NULL;
	for (const char *line = text; line < end; line = line_end(line, end)) {
		if (*line == '[' && cur) {
			cur->end = line;
			cur = NULL;
		}
		if (!strncmp(line, "[metric ", 8)) {
			const char *close = memchr(line, ']', (size_t)(line_end(line, end) - line));
			if (!close)
				continue;
			grow_array(&s->v, &s->cap, s->n + 1, sizeof(*s->v));
			cur = &s->v[s->n++];
			*cur = (struct metric_span){ xstrndup(line + 8, (size_t)(close - line - 8)), NULL, line, end, false };
		} else if (cur && !cur->perf_name) {
			cur->perf_name = line_value(line, line_end(line, end), "perf_name");
		}
	}
	name_index_init(&s->by_name, s->v, s->n, span_name, strcasecmp);
	name_index_init(&s->by_perf_name, s->v, s->n, span_perf_name, strcasecmp);
}

static int find_metric(struct spans *s, const char *name)
{
	int i = name_index_find(&s->by_name, name);
	return i >= 0 ? i : name_index_find(&s->by_perf_name, name);
}

/* Pushes metric i to keep, once. */
static void want(struct spans *s, int i, int **todo, int *n, int *cap)
{
	if (i < 0 || s->v[i].kept)
		return;
	s->v[i].kept = true;
	grow_array(todo, cap, *n + 1, sizeof(int));
	(*todo)[(*n)++] = i;
}

/* Each metric named in metric i's expressions (not its prose: a description that
 * mentions a metric does not read it). */
static void want_what_it_reads(struct spans *s, int i, int **todo, int *n, int *cap)
{
	const char *p = line_end(s->v[i].begin, s->v[i].end);
	while (p < s->v[i].end) {
		const char *e = line_end(p, s->v[i].end);
		bool prose = !strncmp(p, "description", 11) || !strncmp(p, "title", 5) || !strncmp(p, "groups", 6) ||
			     !strncmp(p, "unit", 4) || *p == ';';
		for (const char *w = memchr(p, '=', (size_t)(e - p)); w && !prose && w < e;) {
			while (w < e && !(isalpha((unsigned char)*w) || *w == '_'))
				w++;
			const char *b = w;
			while (w < e && (isalnum((unsigned char)*w) || *w == '_' || *w == '.'))
				w++;
			if (w > b) {
				char *word = xstrndup(b, (size_t)(w - b));
				want(s, find_metric(s, word), todo, n, cap);
				free(word);
			}
		}
		p = e;
	}
}

/* Keeps metric i and every metric it reads, transitively (a list, not recursion: a
 * hostile file's chain of references is as long as the file allows). */
static void keep(struct spans *s, int i)
{
	int *todo = NULL, n = 0, cap = 0;
	want(s, i, &todo, &n, &cap);
	while (n > 0)
		want_what_it_reads(s, todo[--n], &todo, &n, &cap);
	free(todo);
}

char *catalogue_subset(const char *text, char *const *names)
{
	struct spans s = { 0 };
	find_spans(text, &s);
	bool any = false;
	for (char *const *n = names; *n; n++) {
		int i = find_metric(&s, *n);
		any |= i >= 0;
		keep(&s, i);
	}
	struct textbuf out = { 0 };
	const char *from = text;
	for (int i = 0; any && i < s.n; i++) { /* what lies between metrics, and the kept ones */
		textbuf_putn(&out, from, (size_t)(s.v[i].begin - from));
		if (s.v[i].kept)
			textbuf_putn(&out, s.v[i].begin, (size_t)(s.v[i].end - s.v[i].begin));
		else /* its lines left blank: a message about the cut names the file's line */
			for (const char *c = s.v[i].begin; (c = memchr(c, '\n', (size_t)(s.v[i].end - c))); c++)
				textbuf_putc(&out, '\n');
		from = s.v[i].end;
	}
	if (any)
		textbuf_put(&out, from);
	for (int i = 0; i < s.n; i++) {
		free(s.v[i].name);
		free(s.v[i].perf_name);
	}
	free(s.v);
	name_index_free(&s.by_name);
	name_index_free(&s.by_perf_name);
	return any ? out.data : NULL;
}
