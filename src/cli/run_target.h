/* SPDX-License-Identifier: GPL-2.0-only */
/* run_target.h - a run's "who": the command it starts or the tasks it attaches to
 * (engine/target.h), from the options to the summary and the exit status. */
#ifndef PMUTOP_RUN_TARGET_H
#define PMUTOP_RUN_TARGET_H

#include <stdio.h>

struct options;
struct session;
struct target;

/* The target the options name (o->target, NULL for the machine): a command started and
 * held at its gate, or the tasks' threads found. 0, or the exit status (said). */
int run_target_start(struct options *o);
/* The counters are open: the session says who, and the command may exec. 0, or the exit
 * status a shell gives a command it cannot run (127, 126), said. */
int run_target_go(struct options *o, struct session *s);
/* Batch output, after the last interval: the whole run, as perf stat ends. 0, or 1 where
 * it could not be written. */
int run_target_summary(const struct options *o, struct session *s, FILE *out, unsigned long long now_ns);
/* pmutop's exit status: the command's (its code, 128 + a signal) where it ended and
 * pmutop did not fail; the command ended if it still runs; o->target freed. */
int run_target_end(struct options *o, int status);

#endif
