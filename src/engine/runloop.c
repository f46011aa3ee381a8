/* SPDX-License-Identifier: GPL-2.0-only */
/* runloop.c - poll(), signals, the refresh timer and the outputs. */
#include "engine/runloop.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/heap.h"
#include "base/util.h"
#include "engine/session.h"
#include "engine/target.h"
#include "engine/output.h"

#define MAX_FDS 64

/* The self-pipe: a signal handler may only write a byte; the loop polls the other end. */
static int sig_pipe[2] = { -1, -1 };
/* ... and a flag an output blocked in write() reads when EINTR wakes it (a pipe nobody
 * reads must not hold pmutop past a signal that asks it to stop) */
static volatile sig_atomic_t stop_pending;

bool runloop_stop_pending(void)
{
	return stop_pending != 0;
}

static void on_signal(int sig)
{
	int saved = errno;
	stop_pending = 1;
	unsigned char b = (unsigned char)sig;
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) {
		/* the pipe is full: a quit is already pending */
	}
	errno = saved;
}

/* A child ended: the loop looks at the command; nothing is stopping. */
static void on_child(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) {
		/* the pipe is full: the loop will look anyway */
	}
	errno = saved;
}

void runloop_install_signals(void)
{
	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		sig_pipe[0] = sig_pipe[1] = -1;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* Ctrl-\\ in the monitor: a quit like the others (htop does), not a core dump that
	 * leaves the terminal raw and BlueField blocks programmed */
	sigaction(SIGQUIT, &sa, NULL);
	struct sigaction child;
	memset(&child, 0, sizeof(child));
	child.sa_handler = on_child;
	child.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigemptyset(&child.sa_mask);
	sigaction(SIGCHLD, &child, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* a file past `ulimit -f` is EFBIG, said and ended on a whole interval, not a
	 * silent death by SIGXFSZ in the middle of one */
	signal(SIGXFSZ, SIG_IGN);
}

void runloop_init(struct runloop *l, struct session *s, struct clock *c, double interval_s, long iterations)
{
	memset(l, 0, sizeof(*l));
	l->s = s;
	l->clock = c;
	l->iterations = iterations;
	l->interval_ns = (uint64_t)llround(interval_s * 1e9);
	l->next_ns = clock_now(c) + l->interval_ns;
}

void runloop_add_output(struct runloop *l, struct output *o)
{
	l->outputs = xrealloc(l->outputs, sizeof(*l->outputs) * (size_t)(l->noutputs + 1));
	l->outputs[l->noutputs++] = o;
	o->loop = l;
}

void runloop_quit(struct runloop *l)
{
	l->quit = true;
}

void runloop_set_interval(struct runloop *l, double interval_s)
{
	uint64_t ns = (uint64_t)llround(interval_s * 1e9);
	if (ns == 0)
		ns = 1;
	/* the next refresh moves with the new interval, counted from the last one */
	l->next_ns = l->next_ns - l->interval_ns + ns;
	l->interval_ns = ns;
}

void runloop_set_paused(struct runloop *l, bool paused)
{
	if (paused != l->paused)
		session_note_event(l->s, paused ? SEV_PAUSE : SEV_RESUME, -1, NULL, NULL);
	l->paused = paused;
}

void runloop_set_pacer(struct runloop *l, uint64_t (*pacer)(void *ctx), void *ctx, bool end_quits)
{
	l->pacer = pacer;
	l->pacer_ctx = ctx;
	l->end_quits = end_quits;
	l->next_ns = pacer(ctx);
	l->at_end = l->next_ns == UINT64_MAX;
	if (l->at_end && end_quits)
		l->quit = true;
}

void runloop_refresh_now(struct runloop *l)
{
	l->refresh_now = true;
}

/* The pacer's next deadline; at the end of the recording, quit or wait paused. */
static void pace(struct runloop *l, uint64_t now)
{
	l->next_ns = l->pacer(l->pacer_ctx);
	l->at_end = l->next_ns == UINT64_MAX;
	if (l->at_end) {
		if (l->end_quits)
			l->quit = true;
		l->next_ns = now + 1000000000ull; /* the monitor still redraws its clock */
	}
}

/* Counters only for what is shown: where outputs say what they show (the monitor), the
 * rest is closed; an output that shows every value (a recorder recording, the exporter)
 * shows, beside a monitor, what a run without a screen counts (runloop_set_default_shown:
 * not what only hidden panes list), and the choices are joined. Said to the engine again
 * when it changes. */
const bool OUTPUT_SHOWS_NOTHING[1];
#define MAX_OUTPUTS_SHOWING 8 /* more choosing outputs than this: every value */

/* a | b into the loop's own buffer (a may be it) */
static const bool *join_shown(struct runloop *l, const bool *a, const bool *b)
{
	int n = l->s->nvalues;
	if (!l->joined)
		l->joined = xmalloc(sizeof(bool) * (size_t)(n ? n : 1));
	for (int k = 0; k < n; k++)
		l->joined[k] = a[k] || b[k];
	return l->joined;
}

static void shown_values(struct runloop *l)
{
	unsigned gen = 0;
	const bool *choice[MAX_OUTPUTS_SHOWING];
	int n = 0;
	bool all = !l->noutputs;
	for (int i = 0; i < l->noutputs && !all; i++) {
		unsigned g = 0;
		const bool *v = l->outputs[i]->ops->values_shown ? l->outputs[i]->ops->values_shown(l->outputs[i], &g) : NULL;
		if (v == OUTPUT_SHOWS_NOTHING)
			continue;
		if ((!v && !(v = l->default_shown)) || n == MAX_OUTPUTS_SHOWING) {
			all = true;
			break;
		}
		gen = gen * 2654435761u + g + 1u + (unsigned)i * 40503u; /* which outputs, each choice's generation */
		choice[n++] = v;
	}
	if (all || !n ? !l->shown_some : l->shown_some && gen == l->shown_gen)
		return; /* unchanged: nothing joined again */
	const bool *shown = all || !n ? NULL : choice[0];
	for (int k = 1; shown && k < n; k++)
		shown = join_shown(l, shown, choice[k]);
	session_need_values(l->s, shown);
	l->shown_some = shown != NULL;
	l->shown_gen = gen;
}

void runloop_set_default_shown(struct runloop *l, bool *shown)
{
	free(l->default_shown);
	l->default_shown = shown;
}

static void publish(struct runloop *l, uint64_t now)
{
	shown_values(l);
	bool details = false;
	for (int i = 0; i < l->noutputs && !details; i++)
		details = !l->outputs[i]->ops->wants_details || l->outputs[i]->ops->wants_details(l->outputs[i]);
	session_want_details(l->s, details || !l->noutputs);
	const struct frame *f = session_sample(l->s, now);
	l->frames++;
	for (int i = 0; i < l->noutputs; i++) {
		if (l->outputs[i]->ops->frame(l->outputs[i], f) < 0) {
			l->status = 1;
			l->quit = true;
		}
	}
	if (l->frames == 1) /* shown: start-up's working set is made (base/heap.h) */
		heap_stop_steps();
	if (l->iterations > 0 && l->frames >= l->iterations)
		l->quit = true;
}

/* Has the command ended since the loop last looked? Said in the session's next frames. */
static bool command_ended(struct runloop *l)
{
	if (!l->target || l->target->kind == TARGET_MACHINE || l->target->ended || !target_reap(l->target))
		return false;
	char *how = target_end_text(l->target);
	session_set_who(l->s, l->target->what, how);
	free(how);
	return true;
}

int runloop_run(struct runloop *l)
{
	struct pollfd pfds[MAX_FDS];
	int first[MAX_FDS], count[MAX_FDS];
	while (!l->quit) {
		int n = 0;
		if (sig_pipe[0] >= 0)
			pfds[n++] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
		for (int i = 0; i < l->noutputs && i < MAX_FDS; i++) {
			first[i] = n;
			count[i] = l->outputs[i]->ops->pollfds ? l->outputs[i]->ops->pollfds(l->outputs[i], pfds + n, MAX_FDS - n)
								: 0;
			n += count[i];
		}
		/* a paused fake clock has nothing to wait for but a key or a signal */
		int timeout = l->paused && clock_is_fake(l->clock) ? -1 : l->clock->ops->wait_ms(l->clock, l->next_ns);
		int r = poll(pfds, (nfds_t)n, timeout);
		if (r < 0 && errno != EINTR)
			break;
		if (r < 0)
			for (int i = 0; i < n; i++)
				pfds[i].revents = 0;
		if (sig_pipe[0] >= 0 && (pfds[0].revents & POLLIN)) {
			unsigned char b;
			int signo = 0;
			while (read(sig_pipe[0], &b, 1) == 1) /* a CHLD alone does not stop */
				signo = b != SIGCHLD ? b : signo;
			if (signo) {
				l->signo = signo;
				if (l->final_on_signal && !l->paused)
					publish(l, clock_now(l->clock)); /* the partial interval, as perf stat -I */
				l->quit = true;
				break;
			}
		}
		if (command_ended(l)) {
			if (l->ends_with_target) {
				if (!l->paused)
					publish(l, clock_now(l->clock)); /* its last, partial interval */
				l->quit = true;
				break;
			}
			/* the monitor says it with the next frame, and counts on: q leaves */
		}
		for (int i = 0; i < l->noutputs && !l->quit; i++)
			if (l->outputs[i]->ops->wake)
				l->outputs[i]->ops->wake(l->outputs[i], pfds + first[i], count[i]);
		if (l->quit)
			break;
		uint64_t now = clock_now(l->clock);
		if (l->pacer && l->refresh_now) { /* a step or a jump: its frame, now */
			l->refresh_now = false;
			pace(l, now);
			if (!l->at_end) {
				publish(l, l->next_ns);
				pace(l, now);
			}
			continue;
		}
		if (l->pacer && l->at_end) {
			if (now >= l->next_ns) {
				for (int i = 0; i < l->noutputs; i++)
					if (l->outputs[i]->ops->idle)
						l->outputs[i]->ops->idle(l->outputs[i]);
				l->next_ns = now + 1000000000ull;
			}
			continue;
		}
		if (l->pacer) { /* a frame at its recorded time; paused, its clock stands still */
			if (now >= l->next_ns && !l->paused) {
				publish(l, l->next_ns);
				if (!l->quit)
					pace(l, now);
			}
			continue;
		}
		if (now >= l->next_ns) {
			if (!l->paused)
				publish(l, now);
			else
				for (int i = 0; i < l->noutputs; i++)
					if (l->outputs[i]->ops->idle)
						l->outputs[i]->ops->idle(l->outputs[i]);
			l->next_ns += l->interval_ns;
			if (l->next_ns <= now)
				l->next_ns = now + l->interval_ns;
		}
	}
	for (int i = 0; i < l->noutputs; i++)
		if (l->outputs[i]->ops->finish && l->outputs[i]->ops->finish(l->outputs[i]) != 0)
			l->status = 1;
	return l->status;
}

void runloop_done(struct runloop *l)
{
	for (int i = 0; i < l->noutputs; i++)
		output_destroy(l->outputs[i]);
	free(l->outputs);
	l->outputs = NULL;
	l->noutputs = 0;
	free(l->default_shown);
	free(l->joined);
	l->default_shown = l->joined = NULL;
}
