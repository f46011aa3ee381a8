/* ui.h - the full-screen monitor, an output of the run loop: the only entry point src/
 * uses. */
#ifndef PMUTOP_UI_H
#define PMUTOP_UI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct session;
struct output;
struct recorder;
struct replay;

struct ui_options {
	double interval_s;
	const char *title;     /* profiles in use, for the header */
	const char *machine;   /* demo machine name or host name */
	struct recorder *recorder; /* 'w' starts and stops it; the header shows it (or NULL) */
	struct replay *replay;     /* replaying a recording: its controls and position (or NULL) */
};

/* Start the terminal and make the monitor an output reading the session's frames (the
 * session is used only to change filters). NULL, after saying why on stderr, if the
 * terminal cannot start. The terminal is restored when the loop finishes, on every way
 * out. */
struct output *ui_output_new(struct session *s, const struct ui_options *opt);

/* For make bench: sample and redraw frames at 120x40 into a terminal whose output goes
 * to out (e.g. /dev/null). Returns the bytes curses wrote, or -1. */
long ui_bench_frames(struct session *s, int frames, FILE *out, uint64_t (*clock)(void *), void *clock_ctx);

#endif
