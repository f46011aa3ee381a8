/* SPDX-License-Identifier: GPL-2.0-only */
/* replay.h - a recording played back: the machine and profiles it embeds, a counter
 * source that hands the sampler each recorded interval (so frames are computed exactly
 * as they were live), the session events at their moments, and a clock and pacer that
 * move through the recorded times - at once (batch) or in real time with a speed. */
#ifndef PMUTOP_REPLAY_H
#define PMUTOP_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

struct clock;
struct machine;
struct profile;
struct replay;
struct session;

/* Open a recording (read-only). NULL with *err: not a recording, damaged, newer format. */
struct replay *replay_open(const char *path, char **err);
/* Whether the recording kept the top tasks (batch --tasks, the Tasks view, on replay), or
 * with cgroups the cgroups' rows (-G, --cgroups, the Cgroups view). */
bool replay_has_tasks(struct replay *r, bool cgroups);
/* Its frames' rows at most max (--tasks N, --cgroups=N). */
void replay_limit_tasks(struct replay *r, bool cgroups, int max);
void replay_close(struct replay *r);
char *replay_meta(struct replay *r, const char *key); /* malloc'd, or NULL */
/* The machine the recording was made on (owned by the replay). */
struct machine *replay_machine(struct replay *r);
/* The profiles as recorded (the caller owns them); -1 with *err. */
int replay_profiles(struct replay *r, struct profile ***out, char **err);

/* Serve s: add the replay source (every counter found in the recording, by PMU, CPU
 * and encoding, or an error naming what is missing), the recorded host meters and
 * source names, and the events before counting started. Call before session_start. */
int replay_attach(struct replay *r, struct session *s, char **err);
/* Where counting started (session_start's time). */
uint64_t replay_start_ns(struct replay *r);
/* Only frames whose wall time is in [begin, end] (ns since the epoch; 0: open). */
/* Does the wall-time range (0: open) meet the recording? -1 with *err saying why not. */
int replay_check_range(struct replay *r, uint64_t begin_wall, uint64_t end_wall, char **err);
void replay_set_range(struct replay *r, uint64_t begin_wall, uint64_t end_wall);
/* The clock of the recorded times: fast jumps to each frame (batch), else real time
 * times the speed. The replay owns it. */
struct clock *replay_clock(struct replay *r, bool fast);
/* The run loop's pacer (runloop_set_pacer): prepares the next frame. */
uint64_t replay_pacer(void *replay);

/* Navigation (the monitor): the next frame shown is seq (clamped to the recording). */
void replay_seek(struct replay *r, uint64_t seq);
uint64_t replay_seq_at_wall(struct replay *r, uint64_t wall_ns);
void replay_set_speed(struct replay *r, double speed);
double replay_speed(const struct replay *r);
/* A sample could not be read (the run then ends, and should fail). */
bool replay_damaged(const struct replay *r);
void replay_set_paused(struct replay *r, bool paused);
struct replay_position {
	uint64_t seq, first, last;      /* the frame shown and the recording's range */
	uint64_t wall, wall_first, wall_last;
	const char *note; /* damage met, said where the replay stops or skips; NULL */
};
void replay_position(struct replay *r, struct replay_position *p);

#endif
