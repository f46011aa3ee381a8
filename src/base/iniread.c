/* SPDX-License-Identifier: GPL-2.0-only */
/* iniread.c - the one INI line reader behind profiles and traffic models (see iniread.h). */
#include "base/iniread.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/diag.h"
#include "base/util.h"

void ini_error(struct ini_reader *r, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (r->quiet)
		;
	else if (col > 0)
		diag_error("%s:%d:%d: %s", r->path, line, col, msg);
	else
		diag_error("%s:%d: %s", r->path, line, msg);
	free(msg);
	r->nerrors++;
}

int ini_value_column(const struct ini_reader *r)
{
	const char *eq = r->raw ? strpbrk(r->raw, "=:") : NULL;
	if (!eq)
		return 1;
	const char *v = eq + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	return (int)(v - r->raw) + 1;
}

/* Is the line (without its newline) too long, or a key inih would cut? Then say so and
 * hand inih an empty line instead, so that one bad line is one clear error. */
static bool line_refused(struct ini_reader *r, const char *line, size_t len)
{
	if (len >= INIREAD_MAX_LINE) {
		ini_error(r, r->line, 0, "line is %zu bytes long; at most %d", len, INIREAD_MAX_LINE - 1);
		return true;
	}
	if (!len || isspace((unsigned char)line[0]) || strchr(";#[", line[0]))
		return false; /* blank, a continuation, a comment or a section */
	size_t key = strcspn(line, "=:");
	while (key && isspace((unsigned char)line[key - 1]))
		key--;
	if (line[strcspn(line, "=:")] && key > INIREAD_KEY_MAX) {
		ini_error(r, r->line, 1, "key '%.20s...' is %zu characters long; at most %d", line, key, INIREAD_KEY_MAX);
		return true;
	}
	return false;
}

/* A whole line read, counted and cleaned (a UTF-8 byte order mark, the indent of a
 * section header that inih would take for a continuation line). False at the end. */
static bool next_line(struct ini_reader *r)
{
	ssize_t n = getline(&r->pending, &r->pending_cap, r->f);
	if (n < 0)
		return false;
	r->line++;
	r->pending_len = (size_t)n;
	r->pending_off = 0;
	char *line = r->pending;
	if (r->line == 1 && n >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
		memmove(line, line + 3, (size_t)n - 2);
		r->pending_len -= 3;
	}
	size_t body = r->pending_len;
	if (body && line[body - 1] == '\n')
		body--;
	if (line_refused(r, line, body)) {
		strcpy(line, "\n");
		r->pending_len = 1;
	}
	char *t = line;
	while (*t == ' ' || *t == '\t')
		t++;
	if (*t == '[') {
		memmove(line, t, r->pending_len - (size_t)(t - line) + 1);
		r->pending_len -= (size_t)(t - line);
	}
	if (r->pending_len + 1 > r->rawcap)
		r->raw = xrealloc(r->raw, r->rawcap = r->pending_len + 1);
	memcpy(r->raw, line, r->pending_len + 1);
	if (*line == '[' && r->section) {
		char *copy = xstrdup(line);
		r->section(r->ctx, trim(copy));
		free(copy);
	}
	return true;
}

/* inih's reader: whole lines handed out in pieces of at most num - 1 bytes, as fgets
 * would. */
static char *reader(char *str, int num, void *stream)
{
	struct ini_reader *r = stream;
	if (r->pending_off >= r->pending_len && (r->stop || !next_line(r)))
		return NULL;
	size_t n = r->pending_len - r->pending_off;
	if (n > (size_t)num - 1)
		n = (size_t)num - 1;
	memcpy(str, r->pending + r->pending_off, n);
	str[n] = '\0';
	r->pending_off += n;
	return str;
}

int ini_read(struct ini_reader *r, ini_handler handler, void *user)
{
	/* Debian's inih reads these at run time: long formulae must not be split. */
	ini_use_stack = false;
	ini_allow_realloc = true;
	ini_max_line = INIREAD_MAX_LINE;
	ini_initial_alloc = 512;
	int e = ini_parse_stream(reader, r, handler, user);
	if (e > 0)
		ini_error(r, e, 0, "syntax error (want [section], KEY = VALUE, or a ; comment)");
	else if (e < 0)
		ini_error(r, r->line, 0, "cannot read the file");
	return r->nerrors;
}

void ini_reader_free(struct ini_reader *r)
{
	free(r->raw);
	free(r->pending);
	r->raw = r->pending = NULL;
}
