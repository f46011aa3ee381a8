/* SPDX-License-Identifier: GPL-2.0-only */
/* run_rows.c - which rows of per-CPU groups a run binds (run_rows.h). */
#include "cli/run_rows.h"

#include <stdlib.h>

#include "base/diag.h"
#include "cli/options.h"
#include "engine/session.h"
#include "outputs/batch.h"
#include "record/replay.h"

/* Which rows of per-CPU groups are bound (bind_cpu_sums.c). A CPU's row is bound where an
 * output may show it: batch's -A, --per-core, --per-node and JSON, serve's --per-cpu, a
 * recording made from the start (its replay may show them), --dry-run's plan, and the
 * monitor's --per-cpu (its c counts again so). The monitor binds them also for a group of
 * MONITOR_CPU_ROWS CPUs or fewer (a tall screen's lines), whose rows it shows when the
 * screen has room. Elsewhere a group's socket rows count its CPUs themselves: memory as
 * sockets, not CPUs. A replay binds as its recording was made. */
#define MONITOR_CPU_ROWS 64
void run_choose_cpu_rows(const struct options *o, struct replay *rp, struct session_scope *scope)
{
	if (rp) {
		char *max = replay_meta(rp, "cpu_rows_max");
		scope->cpu_sums = max != NULL;
		scope->cpu_rows_max = max ? atoi(max) : 0;
		free(max);
		if (scope->cpu_sums && (o->rows != ROWS_AGGREGATED && o->rows != ROWS_PER_SOCKET))
			diag_warn("%s: recorded by the monitor with per-CPU groups counted in their socket rows: "
				  "no CPU's row was kept to print", o->replay);
		return;
	}
	bool rows_shown = o->dry_run || o->record || o->record_only || o->per_cpu ||
			  (o->batch && (o->format == BATCH_JSON || (o->rows != ROWS_AGGREGATED && o->rows != ROWS_PER_SOCKET)));
	scope->cpu_sums = !rows_shown;
	scope->cpu_rows_max = !o->batch && !o->serve_only ? MONITOR_CPU_ROWS : 0;
}
