/* SPDX-License-Identifier: GPL-2.0-only */
/* batch_tasks.h - the top tasks (--tasks N) and the cgroups (-G, --cgroups) in each batch
 * format (outputs/batch.c's). */
#ifndef PMUTOP_BATCH_TASKS_H
#define PMUTOP_BATCH_TASKS_H

struct frame;
struct textbuf;

/* the tasks of a frame carrying them (nothing otherwise) */
void batch_json_tasks(struct textbuf *tb, const struct frame *fr);
void batch_csv_tasks(struct textbuf *tb, const struct frame *fr, const char *when, const char *source);
void batch_write_text_tasks(struct textbuf *tb, const struct frame *fr);
/* the same for the cgroups (-G, --cgroups) */
void batch_json_cgroups(struct textbuf *tb, const struct frame *fr);
void batch_write_text_cgroups(struct textbuf *tb, const struct frame *fr);
/* CSV's columns after state where rows are tasks' or cgroups' (",pid,comm,cgroup"), and
 * a metric's row's empty ones */
const char *batch_csv_who_header(const struct frame *fr);
const char *batch_csv_who_empty(const struct frame *fr);

#endif
