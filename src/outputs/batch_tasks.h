/* SPDX-License-Identifier: GPL-2.0-only */
/* batch_tasks.h - what batch.c and its task table share: the top tasks (--tasks N) in
 * each format, and the escapes both write with. Private to outputs/batch*.c. */
#ifndef PMUTOP_BATCH_TASKS_H
#define PMUTOP_BATCH_TASKS_H

struct frame;
struct textbuf;

/* a JSON number (null where not finite), a JSON string, a CSV field, escaped */
void batch_json_num(struct textbuf *tb, double v);
void batch_json_string(struct textbuf *tb, const char *s);
void batch_csv_field(struct textbuf *tb, const char *s);

/* the tasks of a frame carrying them (nothing otherwise) */
void batch_json_tasks(struct textbuf *tb, const struct frame *fr);
void batch_csv_tasks(struct textbuf *tb, const struct frame *fr, const char *when, const char *source);
void batch_write_text_tasks(struct textbuf *tb, const struct frame *fr);

#endif
