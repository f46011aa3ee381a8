/* SPDX-License-Identifier: GPL-2.0-only */
/* term_size.c - the terminal's size, measured here and not by curses (term_size.h). */
#include "term_size.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/util.h"

int term_lines = 24, term_cols = 80;

static volatile sig_atomic_t winched;
static FILE *measured_out;
/* the environment's LINES and COLUMNS as the user gave them (curses is told 1 and 1) */
static int env_lines, env_cols;

static void on_winch(int sig)
{
	(void)sig;
	winched = 1;
}

/* A size in the environment: a whole number of lines (columns) a terminal may have (a
 * struct winsize field's), else none (0), as curses ignores what is not a number. */
static int env_number(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long n = v ? strtol(v, &end, 10) : 0;
	return v && end != v && !*end && n > 0 && n <= 65535 ? (int)n : 0;
}

void term_size_measure(FILE *out)
{
	measured_out = out;
	struct winsize ws = { 0 };
	int rows = 0, width = 0;
	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0) {
		rows = ws.ws_row;
		width = ws.ws_col;
	}
	if (env_lines)
		rows = env_lines;
	if (env_cols)
		width = env_cols;
	if (rows <= 0)
		rows = tigetnum("lines") > 0 ? tigetnum("lines") : 24;
	if (width <= 0)
		width = tigetnum("cols") > 0 ? tigetnum("cols") : 80;
	term_lines = rows;
	term_cols = width;
}

void term_size_set(int rows, int width)
{
	term_lines = rows > 0 ? rows : 1;
	term_cols = width > 0 ? width : 1;
}

bool term_size_changed(void)
{
	if (!winched)
		return false;
	winched = 0;
	if (measured_out)
		term_size_measure(measured_out);
	return true;
}

/* Sets name to value, giving back what it was (malloc'd, or NULL: unset). */
static char *swap_env(const char *name, const char *value)
{
	const char *old = getenv(name);
	char *kept = old ? xstrdup(old) : NULL;
	setenv(name, value, 1);
	return kept;
}

static void restore_env(const char *name, char *kept)
{
	if (kept)
		setenv(name, kept, 1);
	else
		unsetenv(name);
	free(kept);
}

SCREEN *term_newterm(const char *type, FILE *out, FILE *in)
{
	/* curses installs its own SIGWINCH handler only where none is (and then resizes its
	 * windows to the terminal): this one only says so */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
	env_lines = env_number("LINES");
	env_cols = env_number("COLUMNS");
	/* curses takes LINES and COLUMNS before the terminal's own size (use_env) */
	char *user_lines = swap_env("LINES", "1"), *user_cols = swap_env("COLUMNS", "1");
	SCREEN *scr = newterm(type, out, in);
	restore_env("LINES", user_lines);
	restore_env("COLUMNS", user_cols);
	if (scr)
		term_size_measure(out);
	return scr;
}
