/* SPDX-License-Identifier: GPL-2.0-only */
/* batch_tasks.h - the top tasks (--tasks N) in each batch format (outputs/batch.c's). */
#ifndef PMUTOP_BATCH_TASKS_H
#define PMUTOP_BATCH_TASKS_H

struct frame;
struct textbuf;

/* the tasks of a frame carrying them (nothing otherwise) */
void batch_json_tasks(struct textbuf *tb, const struct frame *fr);
void batch_csv_tasks(struct textbuf *tb, const struct frame *fr, const char *when, const char *source);
void batch_write_text_tasks(struct textbuf *tb, const struct frame *fr);

#endif
