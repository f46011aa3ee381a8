/* SPDX-License-Identifier: GPL-2.0-only */
/* ui.h - the full-screen monitor, an output of the run loop: the only entry point src/
 * uses. */
#ifndef PMUTOP_UI_H
#define PMUTOP_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct session;
struct output;

/* What the monitor drives, as tables of functions the composition root (cli/run.c) fills
 * over the recorder and the replay (as tmux's modes are tables): the ui includes none of
 * record/'s headers. */
struct ui_position {
	uint64_t seq, first, last;       /* the frame shown and the recording's range */
	uint64_t wall, wall_first, wall_last;
	const char *note; /* damage in the recording, shown while no other message is */
};
struct ui_player { /* a replay: stepping, speed, jumps, its position bar */
	void *ctx;
	void (*seek)(void *ctx, uint64_t seq);
	void (*set_paused)(void *ctx, bool paused);
	void (*position)(void *ctx, struct ui_position *p);
	double (*speed)(void *ctx);
	void (*set_speed)(void *ctx, double speed);
	uint64_t (*seq_at_wall)(void *ctx, uint64_t wall_ns);
};
struct ui_recording { /* 'w': start and stop recording, and the header's "REC" */
	void *ctx;
	bool (*active)(void *ctx);
	void (*status)(void *ctx, char *buf, size_t len);
	int (*start)(void *ctx, const char *path, char **err);
	void (*stop)(void *ctx);
	void (*default_name)(char *buf, size_t len); /* a file name for a recording begun now */
};

/* perf's catalogue for this CPU, offered in setup and to find ('/'): its metric groups
 * (loaded when asked, sorted; the caller frees the names and the array; 0 where the CPU
 * has no catalogue file), the catalogue itself (loaded when first asked and kept by the
 * run; NULL where there is none), and a way to count the groups the settings now name
 * (count_group=): the run starts counting again after the monitor quits. */
struct profile;
struct ui_catalogue {
	void *ctx;
	int (*groups)(void *ctx, char ***names);
	const struct profile *(*profile)(void *ctx);
	void (*recount)(void *ctx);
};

struct ui_options {
	double interval_s;
	const char *title;     /* profiles in use, for the header */
	const char *machine;   /* demo machine name or host name */
	const struct ui_recording *recording; /* or NULL: 'w' says recording is not available */
	const struct ui_player *replay;       /* replaying a recording, or NULL */
	const struct ui_catalogue *catalogue; /* or NULL: what is counted is fixed (-M, -P) */
	bool cgroups;          /* open on the Cgroups view (-G named them) */
	/* where a per-CPU group's rows are its sockets' (bind_cpu_sums.c), asking for its CPUs
	 * (c) calls this and the monitor ends, for the run to count again with a row a CPU;
	 * NULL where it cannot (a replay binds as recorded) */
	void (*count_per_cpu)(void *ctx);
	void *count_ctx;
};

/* The metric groups of perf's catalogue the settings file says to count (count_group=),
 * comma-separated for -M's syntax, or NULL: read before the session is made. */
char *ui_counted_groups(void);
/* The panes hidden by default that setup shows (show_pane=), "PROFILE/PANE,...", or NULL:
 * the monitor counts their metrics (metrics_leave_hidden leaves the others out). */
char *ui_shown_panes(void);

/* Start the terminal and make the monitor an output reading the session's frames (the
 * session is used only to change filters). NULL, after saying why on stderr, if the
 * terminal cannot start. The terminal is restored when the loop finishes, on every way
 * out. */
struct output *ui_output_new(struct session *s, const struct ui_options *opt);

/* For make bench: sample and redraw frames at 120x40 into a terminal whose output goes
 * to out (e.g. /dev/null). Returns the bytes curses wrote, or -1. */
long ui_bench_frames(struct session *s, int frames, FILE *out, uint64_t (*clock)(void *), void *clock_ctx);

#endif
