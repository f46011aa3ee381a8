/* SPDX-License-Identifier: GPL-2.0-only */
/* run_target.c - a run's "who": the command or tasks the options name, told to the
 * session, summed up at the end, and the command's exit status passed on. */
#include "cli/run_target.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/util.h"
#include "cli/options.h"
#include "engine/session.h"
#include "engine/target.h"
#include "outputs/batch.h"

/* perf's: each task's counter is a descriptor per CPU, so a process of many threads needs
 * more than the usual 1 024; the hard limit is ours to take */
static void raise_file_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int run_target_start(struct options *o)
{
	if (!o->workload && !o->pids && !o->tids)
		return 0;
	struct target *t = xcalloc(1, sizeof(*t));
	t->gate_fd = t->exec_err_fd = -1;
	o->target = t;
	raise_file_limit();
	char *why = NULL;
	int r;
	if (o->workload) {
		r = target_spawn(t, o->workload, !o->batch && !o->record_only, &why);
	} else {
		pid_t *ids;
		int n;
		const char *text = o->pids ? o->pids : o->tids;
		r = target_parse_ids(text, &ids, &n, &why) ? target_tasks(t, o->proc_root, ids, n, !o->pids, &why) : -1;
		if (r == 0)
			free(ids);
	}
	if (r < 0) {
		fprintf(stderr, "pmutop: %s\n", why);
		free(why);
		return o->workload ? 127 : 1;
	}
	return 0;
}

int run_target_go(struct options *o, struct session *s)
{
	struct target *t = o->target;
	if (!t)
		return 0;
	session_set_who(s, t->what, NULL);
	char *why = NULL;
	if (target_release(t, &why) == 0)
		return 0;
	fprintf(stderr, "pmutop: %s\n", why);
	free(why);
	return t->exec_errno == ENOENT ? 127 : 126; /* not found; found but not runnable */
}

int run_target_summary(const struct options *o, struct session *s, FILE *out, unsigned long long now_ns)
{
	struct target *t = o->target;
	if (!t || !o->batch)
		return 0;
	target_reap(t);
	char *how = t->ended ? target_end_text(t) : NULL;
	session_set_who(s, t->what, how);
	free(how);
	const struct frame *f = session_sample_whole(s, now_ns);
	struct batch_style st = { o->format, o->raw, o->rows };
	if (batch_write_frame(out, &st, false, f))
		return 0;
	if (errno != EPIPE)
		fprintf(stderr, "pmutop: writing the summary: %s\n", strerror(errno ? errno : EIO));
	return 1;
}

int run_target_end(struct options *o, int status)
{
	struct target *t = o->target;
	if (!t)
		return status;
	if (t->kind == TARGET_COMMAND && !t->ended)
		target_reap(t);
	int code = t->kind == TARGET_COMMAND && t->ended ? target_exit_code(t) : 0;
	target_free(t); /* a command still running is ended */
	free(t);
	o->target = NULL;
	return status ? status : code;
}
