/* SPDX-License-Identifier: GPL-2.0-only */
/* replay.c - the monitor over a recording: stepping, speed, jumps and the position bar,
 * and 'w' starting and stopping a recording of a live run. The replay's own keys come
 * before the panes' (Left/Right step in time instead of moving between panes). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/timetext.h"
#include "base/util.h"
#include "engine/runloop.h"
#include "mode.h"
#include "tui.h"

static const struct ui_player *rp(const struct tui *t)
{
	return t->opt->replay;
}

static void position(const struct tui *t, struct ui_position *p)
{
	rp(t)->position(rp(t)->ctx, p);
}

static void show(struct tui *t, uint64_t seq)
{
	rp(t)->seek(rp(t)->ctx, seq);
	t->exact_next = true; /* another frame than the next: its own numbers, none held over */
	t->replay_asked = seq; /* keys read before its frame is shown step on from it */
	runloop_refresh_now(t->loop);
}

static void pause_replay(struct tui *t, bool paused)
{
	t->paused = paused;
	rp(t)->set_paused(rp(t)->ctx, paused);
	runloop_set_paused(t->loop, paused);
}

static void step(struct tui *t, int dir)
{
	struct ui_position p;
	position(t, &p);
	if (t->replay_asked && t->replay_asked != p.seq) /* three Rights in a burst: three samples */
		p.seq = t->replay_asked;
	if ((dir < 0 && p.seq <= p.first) || (dir > 0 && p.seq >= p.last)) {
		tui_message(t, false, dir < 0 ? "the first sample" : "the last sample");
		return;
	}
	pause_replay(t, true); /* stepping is looking closely: time stands still */
	show(t, dir < 0 ? p.seq - 1 : p.seq + 1);
}

static void speed(struct tui *t, double factor)
{
	double s = rp(t)->speed(rp(t)->ctx) * factor;
	if (s < 0.25)
		s = 0.25;
	if (s > 64)
		s = 64;
	rp(t)->set_speed(rp(t)->ctx, s);
	tui_message(t, false, "replay speed %gx", s);
}

static void jump_key(struct tui *t, int key)
{
	struct prompt *pr = t->mode_data;
	size_t n = strlen(pr->text);
	if (key == 27) {
		ui_mode_leave(t);
	} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		struct ui_position p;
		position(t, &p);
		uint64_t wall;
		char text[sizeof(pr->text)], why[256];
		str_copy(text, sizeof(text), pr->text);
		ui_mode_leave(t);
		/* the command line's grammar (base/timetext.h), from the frame shown */
		struct moment_ref ref = { .day_ns = p.wall, .plus_ns = p.wall, .minus = true };
		if (!moment_parse(text, &ref, &wall, why, sizeof(why))) {
			tui_message(t, true, "jump: %s", why);
			return;
		}
		show(t, rp(t)->seq_at_wall(rp(t)->ctx, wall));
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && n) {
		pr->text[n - 1] = '\0';
	} else if (key < 256 && isprint(key) && n + 1 < sizeof(pr->text)) {
		pr->text[n] = (char)key;
		pr->text[n + 1] = '\0';
	}
}

static void jump_draw(struct tui *t)
{
	char line[128];
	snprintf(line, sizeof(line), " Jump to (HH:MM:SS, +5m, -90s): %s_", ((struct prompt *)t->mode_data)->text);
	crt_put(2, 0, term_cols, R_INPUT, line);
}

const struct ui_mode jump_mode = { "jump", jump_draw, jump_key, NULL };

static void first_sample(struct tui *t)
{
	struct ui_position p;
	position(t, &p);
	show(t, p.first);
}

static void last_sample(struct tui *t)
{
	struct ui_position p;
	position(t, &p);
	show(t, p.last);
}

static void toggle_pause(struct tui *t)
{
	pause_replay(t, !t->paused);
	tui_message(t, false, t->paused ? "replay paused (space resumes; Left/Right step)" : "replay resumed");
}

static void next_sample(struct tui *t) { step(t, 1); }
static void previous_sample(struct tui *t) { step(t, -1); }
static void faster(struct tui *t) { speed(t, 2); }
static void slower(struct tui *t) { speed(t, 0.5); }

static void jump_prompt(struct tui *t)
{
	ui_mode_enter(t, &jump_mode, xcalloc(1, sizeof(struct prompt)));
}

static void no_recording(struct tui *t)
{
	tui_message(t, true, "this is a replay: it is a recording already");
}

/* A replay's keys, before the panes' (as the monitor's own table, help lists them). */
static const struct {
	int codes[2];
	struct key_binding help;
	void (*fn)(struct tui *t);
} replay_commands[] = {
	{ { ' ' }, { "Space", "pause / resume the replay" }, toggle_pause },
	/* (mpv's frame step '.' ','; atop's t and T would take T, the Tasks view's key) */
	{ { KEY_RIGHT, '.' }, { "Right .", "next sample (pauses)" }, next_sample },
	{ { KEY_LEFT, ',' }, { "Left ,", "previous sample (pauses)" }, previous_sample },
	{ { ']', '+' }, { "] +", "twice as fast (up to 64x)" }, faster },
	{ { '[', '-' }, { "[ -", "half as fast (down to 0.25x)" }, slower },
	{ { KEY_HOME }, { "Home", "first sample" }, first_sample },
	{ { KEY_END }, { "End", "last sample" }, last_sample },
	{ { 'g' }, { "g", "jump to HH:MM[:SS], +5m or -90s" }, jump_prompt },
	{ { 'w' }, { "w", "(a replay is a recording already)" }, no_recording },
};
enum { NREPLAY_COMMANDS = sizeof(replay_commands) / sizeof(replay_commands[0]) };

bool replay_key(struct tui *t, int key)
{
	if (!rp(t))
		return false;
	for (int i = 0; i < NREPLAY_COMMANDS; i++)
		for (int k = 0; k < 2; k++)
			if (replay_commands[i].codes[k] == key && key) {
				t->message[0] = '\0';
				replay_commands[i].fn(t);
				return true;
			}
	return false;
}

const struct key_binding *replay_key_binding(int i)
{
	return i >= 0 && i < NREPLAY_COMMANDS ? &replay_commands[i].help : NULL;
}

/* Line 1 of the header in a replay: where in the recording the frame is. */
void replay_draw_position(struct tui *t, int y)
{
	struct ui_position p;
	position(t, &p);
	if (p.seq == t->replay_asked) /* the frame asked for is shown */
		t->replay_asked = 0;
	char when[32] = "-", from[16] = "", to[16] = "";
	struct tm tm;
	time_t s = (time_t)(p.wall / 1000000000ull);
	if (p.wall) {
		localtime_r(&s, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	}
	s = (time_t)(p.wall_first / 1000000000ull);
	localtime_r(&s, &tm);
	strftime(from, sizeof(from), "%H:%M:%S", &tm);
	s = (time_t)(p.wall_last / 1000000000ull);
	localtime_r(&s, &tm);
	strftime(to, sizeof(to), "%H:%M:%S", &tm);
	char info[160];
	snprintf(info, sizeof(info), " %s  %llu/%llu  %s-%s  %gx%s%s", when, (unsigned long long)(p.seq ? p.seq - p.first + 1 : 0),
		 (unsigned long long)(p.last - p.first + 1), from, to, rp(t)->speed(rp(t)->ctx), t->paused ? "  PAUSED" : "",
		 t->loop && t->loop->at_end ? "  END" : "");
	int w = term_cols / 3; /* the bar gives way to the figures on a narrow screen */
	if (w > 40)
		w = 40;
	if (w > term_cols - 6 - (int)strlen(info))
		w = term_cols - 6 - (int)strlen(info);
	if (w < 6) {
		crt_put(y, 0, term_cols, R_LABEL, info);
		return;
	}
	crt_put(y, 1, 1, R_DIM, "[");
	double frac = p.last > p.first && p.seq ? (double)(p.seq - p.first) / (double)(p.last - p.first) : 0;
	int at = (int)(frac * (w - 1) + 0.5);
	for (int i = 0; i < w; i++)
		crt_put(y, 2 + i, 1, i == at ? R_FOCUS : i < at ? R_VALUE : R_DIM, i == at ? "|" : i < at ? "=" : "-");
	crt_put(y, 2 + w, 1, R_DIM, "]");
	crt_put(y, 4 + w, term_cols - 5 - w, R_LABEL, info);
}

void record_toggle(struct tui *t)
{
	const struct ui_recording *r = t->opt->recording;
	char status[320];
	if (!r) {
		tui_message(t, true, "recording is not available here");
		return;
	}
	if (r->active(r->ctx)) {
		r->status(r->ctx, status, sizeof(status));
		r->stop(r->ctx);
		tui_message(t, false, "recording stopped (%s)", status + (strncmp(status, "REC ", 4) ? 0 : 4));
		return;
	}
	char name[64], *err = NULL;
	r->default_name(name, sizeof(name));
	if (r->start(r->ctx, name, &err) < 0) {
		tui_message(t, true, "%s", err);
		free(err);
		return;
	}
	tui_message(t, false, "recording to %s (w stops; pmutop -r %s replays)", name, name);
}
