/* SPDX-License-Identifier: GPL-2.0-only */
/* runloop.h - the one loop of every mode: poll() over the outputs' descriptors (the
 * terminal, later the exporter's socket), a signal pipe and the refresh timer of the
 * loop's clock; each refresh samples the session and hands the frame to every output. */
#ifndef PMUTOP_RUNLOOP_H
#define PMUTOP_RUNLOOP_H

#include <stdbool.h>
#include <stdint.h>

struct clock;
struct output;
struct session;
struct target;

struct runloop {
	struct session *s;
	struct clock *clock;
	uint64_t interval_ns;
	uint64_t next_ns;     /* the next refresh, on the clock */
	long iterations;      /* stop after this many frames; -1: never */
	long frames;
	bool paused;          /* no sampling: the display is frozen */
	bool quit;
	bool final_on_signal; /* on INT/TERM/HUP, publish the partial interval first (batch) */
	int status;           /* exit status */
	int signo;            /* the signal that ended the loop, 0 if none */
	int noutputs;
	struct output **outputs;
	/* a replay paces the loop by its recording: pacer() prepares the next frame and
	 * returns its time on the clock, UINT64_MAX at the end */
	uint64_t (*pacer)(void *ctx);
	void *pacer_ctx;
	bool end_quits;    /* at the end of a replay: quit (batch), or wait paused (monitor) */
	bool at_end;
	bool refresh_now;  /* publish the pacer's next frame at once, paused or not */
	bool shown_some;   /* the values shown are the one output's own choice (values_shown) */
	unsigned shown_gen; /* ... as of this generation of it */
	bool *default_shown; /* per value: what an output showing every value shows beside a monitor, or NULL */
	bool *joined;        /* the outputs' choices joined */
	/* a command counted (engine/target.h): its end is said in the session's frames and,
	 * where ends_with_target (batch), ends the loop after its last partial interval */
	struct target *target;
	bool ends_with_target;
};

void runloop_set_pacer(struct runloop *l, uint64_t (*pacer)(void *ctx), void *ctx, bool end_quits);
/* A replay moved (a step, a jump): show its next frame now. */
void runloop_refresh_now(struct runloop *l);

void runloop_init(struct runloop *l, struct session *s, struct clock *c, double interval_s, long iterations);
/* The loop owns the output from now on (destroyed by runloop_done). */
void runloop_add_output(struct runloop *l, struct output *o);
/* Run until an output quits, the iterations are done or a signal arrives. Returns the
 * exit status: 0, or 1 if an output failed. */
int runloop_run(struct runloop *l);
void runloop_done(struct runloop *l);

void runloop_quit(struct runloop *l);
/* Whether INT, TERM, HUP or QUIT came: an output blocked in a write gives up on EINTR. */
bool runloop_stop_pending(void);
void runloop_set_interval(struct runloop *l, double interval_s);
void runloop_set_paused(struct runloop *l, bool paused);
/* Where the monitor chooses what is counted: per value slot, what the outputs that show
 * every value (a recorder recording, the exporter) show beside it, as a run without a
 * screen would count (session_default_values); the loop owns it. NULL: every value. */
void runloop_set_default_shown(struct runloop *l, bool *shown);

/* INT, TERM and HUP end the loop cleanly, CHLD wakes it to see whether the command ended:
 * call once before runloop_run. */
void runloop_install_signals(void);

#endif
