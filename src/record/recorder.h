/* SPDX-License-Identifier: GPL-2.0-only */
/* recorder.h - recording frames to a file while pmutop runs: an output whose disk work
 * (SQLite commits, zstd, checkpoints) runs on a thread of its own, so the refresh never
 * waits for the disk. */
#ifndef PMUTOP_RECORDER_H
#define PMUTOP_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct output;
struct recorder;
struct session;

struct recorder_options {
	const char *path;   /* the file; with rotate, NAME.pmrec becomes NAME-<time>.pmrec */
	bool force;         /* replace an existing file */
	uint64_t rotate_ns; /* start a new file this often (wall time), 0: never */
	int keep;           /* with rotate: keep the newest this many files, 0: all */
	const char *command; /* the command line, for record --info */
	bool essential;     /* the run's only output (pmutop record): when the recording stops
			     * on an error, the run ends with it, non-zero (a service restarts) */
	bool paced;         /* time is the frames' own (--fake-clock): a refresh waits for a
			     * full queue to drain instead of saying the disk does not keep up,
			     * since frames come as fast as they are made, not with time */
};

/* An output that records when started (now, if o->path is set). The recorder belongs
 * to the output: recorder_of() reaches it (the monitor's 'w' key, its header). NULL
 * with *err when the file cannot be created. */
struct output *recorder_output_new(struct session *s, const struct recorder_options *o, char **err);
struct recorder *recorder_of(struct output *o);

/* Start recording into path (the next frame is the first), or stop (the file is
 * completed and closed off the refresh path). */
int recorder_start(struct recorder *r, const char *path, bool force, char **err);
void recorder_stop(struct recorder *r);
bool recorder_active(struct recorder *r);
/* One line for a status bar: "REC file (42 samples)", "recording stopped: why", or "". */
void recorder_status(struct recorder *r, char *buf, size_t len);
/* A file name for a recording started now: pmutop-YYYYmmdd-HHMMSS.pmrec. */
void recorder_default_name(char *buf, size_t len);

#endif
