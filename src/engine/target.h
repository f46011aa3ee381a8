/* SPDX-License-Identifier: GPL-2.0-only */
/* target.h - who the core events count: the whole machine (perf stat -a, the default), a
 * command pmutop starts (perf stat -- CMD), or running tasks (-p PID, -t TID). Uncore PMUs
 * count the machine whatever the target (their counters see no task), as perf's do.
 *
 * A command is started held at a gate: forked, it waits until the counters are open, then
 * execs, so counting begins at exec (the counters are opened enable_on_exec) and its
 * children are counted too (inherit). */
#ifndef PMUTOP_TARGET_H
#define PMUTOP_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum target_kind {
	TARGET_MACHINE, /* system-wide: every CPU, every task */
	TARGET_COMMAND, /* a command pmutop started, and its children */
	TARGET_TASKS,   /* running processes (every thread of each) or threads */
};

struct target {
	enum target_kind kind;
	pid_t *tids; /* the threads counters open on: the command, or -p's and -t's */
	int ntids;
	char *what;  /* "'sleep 1' (pid 42)", "pid 42,43": headers and the summary */
	/* a command */
	pid_t child;
	int gate_fd;     /* written to let it exec; -1 once released */
	int exec_err_fd; /* says errno where exec failed (close-on-exec: EOF on success) */
	int exec_errno;  /* why exec failed, 0 */
	bool ended;
	int wait_status;
	uint64_t started_ns, ended_ns; /* monotonic: exec and exit (ended_ns 0 until then) */
};

/* -p 42,43 or -t 42: a list of positive numbers. False, with *why said, otherwise. */
bool target_parse_ids(const char *text, pid_t **ids, int *n, char **why);
/* The threads of processes pids (each /proc/PID/task/ *, below proc_root), or of threads
 * tids (each checked): 0, or -1 with *why naming the one that is not running. */
int target_tasks(struct target *t, const char *proc_root, const pid_t *pids, int npids, bool threads, char **why);
/* Fork argv[0] held at its gate; 0, or -1 with *why. quiet: its standard input, output
 * and error are /dev/null (the monitor owns the terminal). */
int target_spawn(struct target *t, char *const argv[], bool quiet, char **why);
/* Let the command exec; 0, or -1 with *why (exec failed: not found, not executable): the
 * child has then exited 127 and been reaped. */
int target_release(struct target *t, char **why);
/* Reap the command if it ended (never blocks), or see whether every task -p and -t named
 * has (perf stat -p ends then); whether it has ended. */
bool target_reap(struct target *t);
/* The command's exit status as a shell gives it: its code, or 128 + the signal. */
int target_exit_code(const struct target *t);
/* "exited with status 3", "killed by signal 9 (Killed)" */
char *target_end_text(const struct target *t);
/* End a command still held or running (SIGTERM, then reap) and free. */
void target_free(struct target *t);

#endif
