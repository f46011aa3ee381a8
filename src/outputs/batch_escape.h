/* SPDX-License-Identifier: GPL-2.0-only */
/* batch_escape.h - a JSON number, a JSON string and a CSV field, escaped as batch output
 * writes them (outputs/batch*.c alone). */
#ifndef PMUTOP_BATCH_ESCAPE_H
#define PMUTOP_BATCH_ESCAPE_H

struct textbuf;

void batch_json_num(struct textbuf *tb, double v);
void batch_json_string(struct textbuf *tb, const char *s);
void batch_csv_field(struct textbuf *tb, const char *s);

#endif
