/* SPDX-License-Identifier: GPL-2.0-only */
/* rec_tasks.h - the top tasks and the cgroups in a recording: the rows frames carried
 * (batch --tasks, -G, --cgroups, the Tasks or Cgroups view open while recording), kept as
 * shown, replayed as shown. Tables tasks and cgroups (the same columns) in
 * docs/RECORDING.md; a recording made before them has none. */
#ifndef PMUTOP_REC_TASKS_H
#define PMUTOP_REC_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/frame.h"

struct store;

#define REC_TASKS_MAX 200 /* the rows a reader takes for one sample (--tasks' largest) */

/* which rows: a table each */
enum rec_rows { REC_TASKS, REC_CGROUPS, REC_ROW_KINDS };

/* A frame's rows of one kind, copied for the writer's thread. */
struct rec_tasks {
	enum rec_rows kind;
	int n;
	bool threads;
	struct task_row *rows; /* comm, user, why: its own copies */
};

/* The frame's rows of kind (none: n 0), and their release. */
void rec_tasks_copy(struct rec_tasks *t, const struct frame *f, enum rec_rows kind);
void rec_tasks_free(struct rec_tasks *t);
/* Write them under sample seq: 0, or -1 with *err. */
int rec_tasks_write(struct store *st, uint64_t seq, const struct rec_tasks *t, char **err);
/* Whether the recording holds any row of kind. */
bool rec_tasks_recorded(struct store *st, enum rec_rows kind);
/* The rows of kind of sample seq (at most REC_TASKS_MAX; none where it has none) into *t,
 * whose previous rows are released; what a file says is taken as text, never trusted. */
void rec_tasks_read(struct store *st, uint64_t seq, enum rec_rows kind, struct rec_tasks *t);

/* A replay's feed of them to its frames: each frame the rows of the sample it shows,
 * kept until the call after next (frames are published alternately). */
struct rec_task_feed;
struct rec_task_feed *rec_task_feed_new(struct store *st);
void rec_task_feed_free(struct rec_task_feed *tf);
bool rec_task_feed_any(const struct rec_task_feed *tf, enum rec_rows kind);
/* At most max rows of kind a frame (--tasks N, --cgroups=N on a replay: the top N of what
 * was kept). */
void rec_task_feed_limit(struct rec_task_feed *tf, enum rec_rows kind, int max);
/* Sample seq's rows of kind into f (seq 0: none loaded yet); a recording that kept none
 * says so. */
void rec_task_feed_frame(struct rec_task_feed *tf, uint64_t seq, enum rec_rows kind, struct frame *f);

#endif
