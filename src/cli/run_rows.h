/* SPDX-License-Identifier: GPL-2.0-only */
/* run_rows.h - which rows of per-CPU groups a run binds: a row a CPU where an output may
 * show one, else socket rows counting their CPUs (bind/bind_cpu_sums.c). */
#ifndef PMUTOP_RUN_ROWS_H
#define PMUTOP_RUN_ROWS_H

struct options;
struct replay;
struct session_scope;

/* scope's cpu_sums and cpu_rows_max for the outputs o asks for (rp: a replay's, as its
 * recording was made). */
void run_choose_cpu_rows(const struct options *o, struct replay *rp, struct session_scope *scope);

#endif
