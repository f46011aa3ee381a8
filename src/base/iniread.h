/* SPDX-License-Identifier: GPL-2.0-only */
/* iniread.h - the one INI line reader behind profiles and traffic models.
 *
 * inih does not tell its handler the line number: ini_read() hands ini_parse_stream() a
 * reader that counts lines, keeps the line as read (for columns in messages), shows each
 * section header to the caller before inih parses it, and turns a line too long, or a key
 * inih would cut, into one clear error instead of a split line. */
#ifndef PMUTOP_INIREAD_H
#define PMUTOP_INIREAD_H

#include <ini.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define INIREAD_MAX_LINE 65536
#define INIREAD_KEY_MAX 49 /* inih cuts longer names (its MAX_NAME is 50) */

struct ini_reader {
	const char *path; /* for messages */
	FILE *f;
	int line;         /* the line being parsed, from 1 */
	char *raw;        /* that line as read */
	int nerrors;
	bool quiet; /* errors are counted, not said (a trial read whose errors a full one says) */
	bool stop;  /* set by the caller: the next line is the end (what it wanted is read) */
	/* a section header ("[pmu x]", trimmed), before inih parses the line */
	void (*section)(void *ctx, char *header);
	void *ctx;
	/* private: the line being handed to inih, and how much of it is out */
	char *pending;
	size_t pending_cap, pending_len, pending_off, rawcap;
};

/* Parse r->f with handler; a syntax error or a read error is reported here. Returns
 * the number of errors so far (r->nerrors). */
int ini_read(struct ini_reader *r, ini_handler handler, void *user);
void ini_reader_free(struct ini_reader *r);

/* "PATH:LINE:COL: message" (no column when col <= 0); counts the error */
void ini_error(struct ini_reader *r, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The column of the current line's value (after '=' or ':' and blanks), from 1 (1 when
 * the line has none). */
int ini_value_column(const struct ini_reader *r);

#endif
