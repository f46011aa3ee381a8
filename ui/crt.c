/* SPDX-License-Identifier: GPL-2.0-only */
/* crt.c - the terminal: start and restore it, colours or monochrome attributes by role,
 * UTF-8 or ASCII, and crash signals (restore the terminal before dying; INT/TERM/HUP
 * belong to the run loop, which ends the monitor cleanly). */
#include <assert.h>
#include <langinfo.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <unistd.h>

#include "keys.h"
#include "tui.h"
#include "render.h"
#include "base/util.h"

static attr_t role_attr[R_COUNT];
static int clip_top, clip_bottom = 1 << 30; /* rows outside are not drawn (scrolled away) */
static bool started;

/* A frame is drawn into our own grid of cells; render.c sends the terminal the cells that
 * differ from what it was last sent (curses' own refresh cost most of a refresh). */
static struct cell *grid, *given; /* this frame; what the terminal shows */
static int grid_lines, grid_cols;
static bool given_valid, clear_first;
static FILE *term_out;
static volatile sig_atomic_t resumed; /* SIGCONT: back from a suspend, the screen is curses' */

static struct cell *row_of(struct cell *g, int y)
{
	assert(y >= 0 && y < grid_lines); /* callers clip first (crt_visible) */
	return g + (size_t)y * (size_t)grid_cols;
}
static void on_crash(int sig)
{
	/* endwin() is not async-signal-safe, but a crashed monitor that leaves the terminal
	 * in raw mode is worse; htop makes the same choice. */
	if (started) {
		render_leave();
		endwin();
	}
	static const char msg[] = "pmutop: crashed; the terminal was restored. Please report this.\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)w;
	signal(sig, SIG_DFL);
	raise(sig);
}

void crt_install_signal_handlers(void)
{
	int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		signal(crash[i], on_crash);
}

static void setup_roles(bool colour)
{
	static const struct {
		enum role r;
		short fg, bg;
		attr_t colour_extra, mono;
	} map[] = {
		{ R_NORMAL, -1, -1, 0, 0 },
		{ R_HEADER, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
		{ R_TITLE, COLOR_CYAN, -1, A_BOLD, A_BOLD },
		{ R_TITLE_FOCUS, COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD },
		{ R_LABEL, -1, -1, 0, 0 },
		{ R_VALUE, -1, -1, 0, 0 }, /* plain: an attribute switch per value costs bytes */
		{ R_UNIT, COLOR_CYAN, -1, 0, 0 },
		{ R_DIM, COLOR_BLUE, -1, A_BOLD, A_DIM },
		{ R_ERROR, COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
		{ R_MARK, COLOR_YELLOW, -1, A_BOLD, A_BOLD },
		{ R_BAR_LOW, COLOR_GREEN, -1, 0, 0 },
		{ R_BAR_MID, COLOR_YELLOW, -1, 0, 0 },
		{ R_BAR_HIGH, COLOR_RED, -1, A_BOLD, A_BOLD },
		{ R_SPARK, COLOR_CYAN, -1, 0, 0 },
		{ R_FOCUS, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
		{ R_KEY, -1, -1, A_BOLD, A_BOLD },
		{ R_KEYTEXT, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
		{ R_DIALOG, COLOR_WHITE, COLOR_BLUE, 0, 0 },
		{ R_INPUT, COLOR_BLACK, COLOR_WHITE, 0, A_UNDERLINE },
		{ R_CAT0, COLOR_GREEN, -1, A_REVERSE, A_REVERSE },
		{ R_CAT1, COLOR_RED, -1, A_REVERSE, 0 },
		{ R_CAT2, COLOR_MAGENTA, -1, A_REVERSE, A_REVERSE },
		{ R_CAT3, COLOR_BLUE, -1, A_REVERSE, 0 },
		{ R_CAT4, COLOR_CYAN, -1, A_REVERSE, A_REVERSE },
		{ R_CAT5, COLOR_YELLOW, -1, A_REVERSE, 0 },
		{ R_CAT6, COLOR_WHITE, -1, A_REVERSE, A_REVERSE },
		{ R_CAT7, COLOR_GREEN, -1, A_REVERSE | A_BOLD, 0 },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (colour) {
			init_pair((short)(i + 1), map[i].fg, map[i].bg);
			role_attr[map[i].r] = COLOR_PAIR(i + 1) | map[i].colour_extra;
		} else {
			role_attr[map[i].r] = map[i].mono;
		}
	}
}

static bool boxes_utf8;

void crt_apply_settings(struct tui *t)
{
	const char *cs = nl_langinfo(CODESET);
	bool utf8_locale = cs && !strcmp(cs, "UTF-8");
	t->utf8 = t->set.chars == CHARS_UTF8 || (t->set.chars == CHARS_AUTO && utf8_locale);
	boxes_utf8 = t->utf8; /* dialog boxes follow the setting, not only the locale */
	if (term_out)
		render_start(term_out, t->utf8);
	bool can = has_colors();
	const char *nc = getenv("NO_COLOR");
	bool no_colour_env = nc && *nc;
	t->colour = can && (t->set.colour == TRI_ON || (t->set.colour == TRI_AUTO && !no_colour_env));
	if (t->colour) {
		start_color();
		use_default_colors();
	}
	setup_roles(t->colour);
	const char *ssh = getenv("SSH_CONNECTION");
	t->mouse = t->set.mouse == TRI_ON || (t->set.mouse == TRI_AUTO && !(ssh && *ssh));
	mousemask(t->mouse ? BUTTON1_CLICKED | BUTTON1_PRESSED : 0, NULL);
}

/* The static build's tarball carries the common terminals' descriptions beside the
 * binary (share/terminfo): a machine with no terminfo of its own (a rescue image, an
 * empty container) still draws. The system's are searched first (the empty entry). */
static void terminfo_beside_binary(void)
{
	char exe[PATH_MAX];
	if (getenv("TERMINFO") || getenv("TERMINFO_DIRS") || !exe_dir(exe))
		return;
	char *dir = xasprintf("%s/../share/terminfo", exe);
	if (access(dir, R_OK | X_OK) == 0) {
		char *dirs = xasprintf(":%s", dir);
		setenv("TERMINFO_DIRS", dirs, 1);
		free(dirs);
	}
	free(dir);
}

static SCREEN *screen; /* newterm's, freed when the next one is made (crt_init) */

bool crt_init(struct tui *t)
{
	setlocale(LC_ALL, "");
	terminfo_beside_binary();
	/* each restart of counting (setup's metric groups, a pane shown) makes a new screen:
	 * the last one is freed first, or a week's monitor grows by each (13 -> 55 MB after
	 * six restarts and a hundred resizes). Not at exit: delscreen unloads the console's
	 * mouse library (TERM=linux: libgpm), whose own allocations then read as leaks */
	if (screen) {
		delscreen(screen);
		screen = NULL;
	}
	SCREEN *scr = term_newterm(NULL, stdout, stdin);
	if (!scr)
		return false;
	/* a terminal that cannot move the cursor (TERM=dumb, a printer) would get each frame
	 * appended as garbage: refused before anything is drawn */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		endwin();
		delscreen(scr);
		return false;
	}
	started = true;
	screen = scr;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	keys_define_common();
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	crt_apply_settings(t);
	crt_attach(stdout, t->utf8);
	return true;
}

void crt_done(void)
{
	if (!started)
		return;
	render_leave();
	curs_set(1);
	endwin();
	/* curses leaves the cursor on the last line of its one-cell screen: on a terminal
	 * without an alternate screen (which gives the shell its own back) the prompt then
	 * comes under the last frame, not over its first line */
	const char *rmcup = tigetstr("rmcup"), *cup = tigetstr("cup");
	if ((!rmcup || rmcup == (char *)-1 || !*rmcup) && cup && cup != (char *)-1) {
		putp(tiparm(cup, term_lines - 1, 0));
		fflush(stdout);
	}
	started = false;
	crt_free();
}

attr_t crt_attr(enum role r)
{
	return role_attr[r];
}

void crt_clip(int top, int bottom)
{
	clip_top = top;
	clip_bottom = bottom;
}

bool crt_visible(int y)
{
	return y >= clip_top && y < clip_bottom && y >= 0 && y < grid_lines;
}

/* Write text at (y, x), at most maxw columns (UTF-8 text is counted by characters). */
void crt_put(int y, int x, int maxw, enum role r, const char *text)
{
	crt_put_attr(y, x, maxw, role_attr[r], text, -1);
}

void crt_put_elided(int y, int x, int maxw, enum role r, const char *text, const char *mark)
{
	int len = (int)strlen(text);
	bool ascii = true;
	for (const char *c = text; *c && ascii; c++)
		ascii = !((unsigned char)*c & 0x80);
	if (len <= maxw || !ascii || maxw < 8) { /* only ASCII is cut by bytes safely */
		crt_put(y, x, maxw, r, text);
		return;
	}
	int head = maxw / 3, tail = maxw - head - 1;
	for (int back = 0; back < 6 && head > 3 && text[len - tail - 1] != '_'; back++)
		head--, tail++; /* the tail from a word's start: l1d_cache_fill, not d_cache_fill */
	/* and a short word before it too, where the head can spare it: the word that tells
	 * siblings apart is often one (core_l2_cache_fill_bw beside core_l1d_) */
	int word = 0;
	while (len - tail - 2 - word >= 0 && text[len - tail - 2 - word] != '_')
		word++;
	if (text[len - tail - 1] == '_' && word && word <= 3 && head - (word + 1) >= 3)
		head -= word + 1, tail += word + 1;
	char buf[256];
	snprintf(buf, sizeof(buf), "%.*s%s%s", head, text, mark, text + len - tail);
	crt_put(y, x, maxw, r, buf);
}

int crt_wrap_len(const char *p, int room)
{
	int len = (int)strlen(p);
	if (len <= room)
		return len;
	len = room;
	while (len > room / 2 && p[len] != ' ')
		len--;
	return p[len] == ' ' ? len : room;
}

int crt_wrap_count(const char *text, int w, int maxlines)
{
	int n = 0;
	while (*text && n < maxlines && w > 0) {
		text += crt_wrap_len(text, w);
		while (*text == ' ')
			text++;
		n++;
	}
	return n;
}

int crt_put_wrapped(int y, int x, int w, int maxlines, enum role r, const char *text)
{
	int n = 0;
	while (*text && n < maxlines && w > 0) {
		int len = crt_wrap_len(text, w);
		crt_put_attr(y + n++, x, w, role_attr[r], text, len);
		text += len;
		while (*text == ' ')
			text++;
	}
	return n;
}

/* Cells a printable character takes: Latin and our own box and block glyphs without a
 * library call (a redraw draws thousands), the rest as wcwidth() says (CJK: 2; combining
 * marks: 0, not drawn). */
static int char_width(wchar_t wc)
{
	if (wc < 0x300 || (wc >= 0x2500 && wc < 0x2600))
		return 1;
	return wcwidth(wc);
}

/* Before cells [x, end) of row are written: a wide character cut in two by the write
 * leaves a blank, so every CELL_WIDE_TAIL follows its character. */
static void unsplit(struct cell *row, int x, int end)
{
	if (x > 0 && x < grid_cols && row[x].wc == CELL_WIDE_TAIL)
		row[x - 1].wc = ' ';
	if (end > x && end < grid_cols && row[end].wc == CELL_WIDE_TAIL)
		row[end].wc = ' ';
}

void crt_put_attr(int y, int x, int maxw, attr_t a, const char *text, int nbytes)
{
	if (!grid || maxw <= 0 || !crt_visible(y) || x >= grid_cols || x < 0)
		return;
	if (x + maxw > grid_cols)
		maxw = grid_cols - x;
	/* cells, not a string: curses would decode every byte through mbrtowc() in a UTF-8
	 * locale (most of a redraw's cost); the text is UTF-8 we wrote, decoded here once */
	struct cell *cells = row_of(grid, y) + x;
	int n = 0;
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *stop = nbytes < 0 ? NULL : p + nbytes;
	if (*p && (!stop || p < stop))
		unsplit(row_of(grid, y), x, x); /* the start: a tail under it loses its head */
	while (*p && n < maxw && (!stop || p < stop)) {
		if (*p >= 0x20 && *p < 0x7f) { /* printable ASCII, most of what is drawn */
			cells[n].attr = a; /* the role's colour pair travels in the attribute bits */
			cells[n++].wc = *p++;
			continue;
		}
		bool bad = (*p & 0xc0) == 0x80 || *p >= 0xf8; /* a stray continuation, no UTF-8 */
		wchar_t wc = *p++;
		int more = wc >= 0xf0 ? 3 : wc >= 0xe0 ? 2 : wc >= 0xc0 ? 1 : 0;
		if (more)
			wc &= (wchar_t)(0x3f >> more);
		for (; more && (*p & 0xc0) == 0x80; more--)
			wc = (wc << 6) | (*p++ & 0x3f);
		/* cut short, a C0 or C1 control (a stray continuation byte decodes as one), or
		 * what takes no cell of its own: never sent to the terminal */
		int cw = bad || more || wc < 0x20 || (wc >= 0x7f && wc < 0xa0) ? -1 : char_width(wc);
		if (cw == 2 && n + 1 >= maxw)
			cw = -1; /* half a wide character does not fit */
		if (!boxes_utf8 && cw >= 1 && wc == 0xb0)
			continue; /* ASCII: 46 C, not 46 ?C (? is the mark of an unreadable value) */
		if (!boxes_utf8 && cw >= 1 && wc == 0xb5) {
			wc = 'u'; /* micro: us */
			cw = 1;
		}
		if (cw < 1 || cw > 2) {
			wc = '?';
			cw = 1;
		}
		cells[n].attr = a;
		cells[n].wc = (uint32_t)wc;
		if (cw == 2) /* East Asian wide: two cells, the second the first's */
			cells[++n] = (struct cell){ CELL_WIDE_TAIL, a };
		n++;
	}
	if (n)
		unsplit(row_of(grid, y), x, x + n); /* the end: a tail after it has lost its head */
}

/* w cells of one character from (y, x), clipped to the screen. */
static void grid_fill(int y, int x, int w, uint32_t wc, attr_t a)
{
	if (!grid || !crt_visible(y) || w <= 0 || x < 0 || x >= grid_cols)
		return;
	if (x + w > grid_cols)
		w = grid_cols - x;
	unsplit(row_of(grid, y), x, x + w);
	struct cell *c = row_of(grid, y) + x;
	for (int i = 0; i < w; i++)
		c[i] = (struct cell){ wc, a };
}

void crt_hline(int y, int x, int w, attr_t a, uint32_t wc)
{
	grid_fill(y, x, w, wc, a);
}

void crt_begin_frame(void)
{
	if (!grid || grid_lines != term_lines || grid_cols != term_cols) { /* first frame, or resized */
		free(grid);
		free(given);
		grid_lines = term_lines > 0 ? term_lines : 1;
		grid_cols = term_cols > 0 ? term_cols : 1;
		grid = xcalloc((size_t)grid_lines * (size_t)grid_cols, sizeof(*grid));
		given = xcalloc((size_t)grid_lines * (size_t)grid_cols, sizeof(*given));
		given_valid = false;
	}
	size_t n = (size_t)grid_lines * (size_t)grid_cols;
	for (size_t i = 0; i < n; i++)
		grid[i] = (struct cell){ ' ', 0 };
}

void crt_end_frame(void)
{
	if (resumed) {
		resumed = 0;
		given_valid = false;
	}
	render_frame(grid, given, grid_lines, grid_cols, !given_valid, clear_first);
	given_valid = true;
	clear_first = false;
}

void crt_forget_screen(void)
{
	given_valid = false;
	clear_first = true;
}

static void on_continue(int sig)
{
	(void)sig;
	resumed = 1;
}

/* Curses starts the terminal on out and draws its blank screen once; from then on frames
 * go out through render.c. Also after a resize: curses cleared the screen. */
void crt_attach(FILE *out, bool utf8)
{
	term_out = out;
	refresh();
	render_start(out, utf8);
	given_valid = false;
	signal(SIGCONT, on_continue);
}

/* The terminal was resized (term_size_changed: measured again): the next frame is drawn
 * whole on a cleared screen, whatever the terminal reflowed. */
void crt_resized(void)
{
	render_leave();
	given_valid = false;
	clear_first = true;
}

void crt_free(void)
{
	free(grid);
	free(given);
	grid = given = NULL;
	grid_lines = grid_cols = 0;
	render_stop();
}

/* A horizontal rule: the Unicode line in UTF-8 (ACS lines depend on the terminal's
 * alternate character set, which not every TERM over ssh gets right), '-' otherwise. */
void crt_rule(struct tui *t, int y, int x, int w, enum role r)
{
	if (!crt_visible(y) || w <= 0 || x < 0)
		return;
	if (x + w > term_cols)
		w = term_cols - x;
	grid_fill(y, x, w, t->utf8 ? 0x2500 : '-', role_attr[r]);
}

void crt_fill(int y, int x, int w, enum role r, chtype ch)
{
	if (!crt_visible(y) || w <= 0 || x < 0)
		return;
	if (x + w > term_cols)
		w = term_cols - x;
	grid_fill(y, x, w, (uint32_t)(ch & A_CHARTEXT), role_attr[r]);
}

/* A dialog box centred on the screen, at most w x h; returns its inner geometry. Drawn
 * with Unicode box characters or ASCII, like the rules, not the terminal's ACS. */
void crt_box(int w, int h, const char *title, int *iy, int *ix, int *iw, int *ih)
{
	if (w > term_cols - 2)
		w = term_cols - 2;
	if (h > term_lines - 2)
		h = term_lines - 2;
	int y = (term_lines - h) / 2, x = (term_cols - w) / 2;
	bool utf8 = boxes_utf8;
	uint32_t hz = utf8 ? 0x2500 : '-', vt = utf8 ? 0x2502 : '|';
	uint32_t c[4] = { utf8 ? 0x250c : '+', utf8 ? 0x2510 : '+', utf8 ? 0x2514 : '+', utf8 ? 0x2518 : '+' };
	attr_t a = crt_attr(R_DIALOG);
	for (int r = 0; r < h; r++)
		crt_fill(y + r, x, w, R_DIALOG, ' ');
	grid_fill(y, x, 1, c[0], a);
	grid_fill(y, x + 1, w - 2, hz, a);
	grid_fill(y, x + w - 1, 1, c[1], a);
	for (int r = 1; r < h - 1; r++) {
		grid_fill(y + r, x, 1, vt, a);
		grid_fill(y + r, x + w - 1, 1, vt, a);
	}
	grid_fill(y + h - 1, x, 1, c[2], a);
	grid_fill(y + h - 1, x + 1, w - 2, hz, a);
	grid_fill(y + h - 1, x + w - 1, 1, c[3], a);
	char t[256];
	snprintf(t, sizeof(t), " %s ", title);
	size_t room = w > 6 ? (size_t)(w - 4) : 0;
	if (strlen(t) > room && room > 6) { /* a cut title says so, and keeps its closing blank */
		const char *more = utf8 ? "\u2026 " : "... ";
		size_t keep = room - (utf8 ? 2 : 4);
		while (keep > 0 && ((unsigned char)t[keep] & 0xc0) == 0x80) /* not inside a character */
			keep--;
		str_copy(t + keep, sizeof(t) - keep, more);
	}
	crt_put(y, x + 2, w - 4, R_DIALOG, t);
	*iy = y + 1;
	*ix = x + 2;
	*iw = w - 4;
	*ih = h - 2;
}
